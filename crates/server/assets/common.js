// Helpers shared by the lobby and the game page.
"use strict";

function esc(s) {
  return String(s ?? "").replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);
}

async function api(path, body) {
  const opts = body === undefined ? {} : { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) };
  const res = await fetch(path, opts);
  const data = await res.json().catch(() => ({ error: `HTTP ${res.status}` }));
  if (!res.ok) throw new Error(errorText(data) || `HTTP ${res.status}`);
  return data;
}

/// A server error as the page shows it: in English as the server wrote it; in another
/// language, its kind translated from its stable code, with the server's own words after.
function errorText(data) {
  if (!data || !data.error) return null;
  const kind = LANG !== "en" && data.code ? CATALOGUES[LANG][`error.${data.code}`] : null;
  return kind ? `${kind} (${data.error})` : data.error;
}

function el(tag, attrs, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === "class") e.className = v;
    else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else if (v !== undefined && v !== null && v !== false) e.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat()) if (c !== null && c !== undefined) e.append(c instanceof Node ? c : document.createTextNode(String(c)));
  return e;
}

/// A button that copies `text` to the clipboard (with a fallback where the clipboard API
/// is not allowed) and says so on itself for a moment.
function copyButton(text, id) {
  const b = el("button", { type: "button", class: "copy", id, title: t("copy.title") }, t("copy.copy"));
  b.addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText(text);
    } catch {
      const t = el("textarea", {}, text);
      document.body.append(t);
      t.select();
      document.execCommand("copy");
      t.remove();
    }
    b.textContent = t("copy.copied");
    b.dataset.copied = text;
    setTimeout(() => (b.textContent = t("copy.copy")), 1500);
  });
  return b;
}

function seatColour(name) {
  return ["white", "black", "red", "green"].includes(name) ? name : "white";
}

function playerLabel(p) {
  if (p === "human") return t("player.human");
  const m = /^ai:(\d)$/.exec(p);
  if (m) return t("player.ai_level", { level: m[1] });
  if (p === "greedy" || p === "random") return t(`player.${p}`);
  return p;
}

/// A seat's name (`white`) in the page's language.
function seatLabel(name) {
  return word("seat", name);
}

/// How a game ended, in the page's language: from the result's reason code.
function reasonText(r) {
  const key = `reason.${r.reason}`;
  return CATALOGUES[LANG][key] || CATALOGUES.en[key] || r.describe;
}

// The rules panel: the rules of record, the options with their sources, the pieces and the
// seed text, fetched for a ruleset and shown in a dialog.
async function showRules(name) {
  const info = await api(`/api/rulesets/${encodeURIComponent(name)}`);
  let dlg = document.getElementById("rules-dialog");
  if (!dlg) {
    dlg = el("dialog", { id: "rules-dialog" });
    document.body.append(dlg);
  }
  dlg.innerHTML = "";
  const pieces = (info.pieces || []).map((p) =>
    el("li", {}, el("span", { class: "rules-piece" }), ` ${word("piece", p.name)} (${p.letter}): ${p.betza}`));
  pieces.forEach((li, i) => (li.firstChild.innerHTML = pieceSvg(info.pieces[i].name, "white")));
  dlg.append(
    el("button", { class: "close", onclick: () => dlg.close() }, t("rules.close")),
    el("h2", {}, info.title),
    el("p", { class: "source" }, t("rules.source"), " ", info.source),
    info.rules_of_record ? el("section", {}, el("h3", {}, t("rules.of_record")), el("pre", { class: "text" }, info.rules_of_record)) : null,
    el("h3", {}, t("rules.options")),
    el("ul", { class: "options" }, info.options.map((o) => el("li", {}, el("b", {}, o.name), ` = ${o.value} — ${optionText(o)} `, el("i", {}, `[${o.source}]`)))),
    pieces.length ? el("section", {}, el("h3", {}, t("rules.pieces")), el("ul", { class: "pieces" }, pieces)) : null,
    info.seed
      ? el("details", { open: true }, el("summary", {}, t("rules.seed", { file: info.seed.file, game: info.seed.game })), el("pre", { class: "text seed" }, info.seed.text))
      : el("p", {}, t("rules.no_seed")),
  );
  dlg.showModal();
}
