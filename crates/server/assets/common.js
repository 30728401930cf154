// Helpers shared by the pages.
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

// ---------- tables boards, shared by the game and analysis pages ----------

const NS = "http://www.w3.org/2000/svg";
function svg(tag, attrs, ...kids) {
  const e = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
  for (const k of kids) e.append(k);
  return e;
}

/// Draws a point's checkers into its group `g`: up to five, then the count. `occ` is the
/// view's `[seat, count]`; `colour` names a seat's colour class. A stacked pair is drawn
/// one checker on the other, nearly covering it.
function drawCheckers(g, occ, stacked, { x, up, top, bottom, PW }, colour) {
  const [seat, count] = occ;
  const gap = stacked ? 7 : 30;
  for (let i = 0; i < Math.min(count, 5); i++) {
    const cy = up ? top + 22 + i * gap : bottom - 22 - i * gap;
    g.append(svg("circle", { cx: x + PW / 2, cy, r: 21, class: `checker ${colour(seat)}${stacked ? " stacked" : ""}` }));
  }
  if (stacked) {
    g.setAttribute("data-stacked", "true");
    g.append(svg("title", {}, t("game.stacked")));
  }
  if (count > 5) {
    const cy = up ? top + 22 + 4 * 30 : bottom - 22 - 4 * 30;
    g.append(svg("text", { x: x + PW / 2, y: cy + 6, class: `count ${colour(seat)}` }, String(count)));
  }
}

/// The face of die `d` as the `i`th die on a board of height `H`, in a group of class `cls`.
function drawDie(d, i, H, cls) {
  const x = 390 + i * 56, y = H / 2 - 22;
  const g = svg("g", { class: cls, "data-die": d });
  g.append(svg("rect", { x, y, width: 44, height: 44, rx: 7 }));
  const pips = { 1: [[2, 2]], 2: [[1, 1], [3, 3]], 3: [[1, 1], [2, 2], [3, 3]], 4: [[1, 1], [3, 1], [1, 3], [3, 3]], 5: [[1, 1], [3, 1], [2, 2], [1, 3], [3, 3]], 6: [[1, 1], [3, 1], [1, 2], [3, 2], [1, 3], [3, 3]] }[d] || [];
  for (const [px, py] of pips) g.append(svg("circle", { cx: x + px * 11, cy: y + py * 11, r: 4.2, class: "pip" }));
  return g;
}
