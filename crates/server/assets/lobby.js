// The lobby: choose a ruleset, its options, the players and stakes; list and import games.
"use strict";

let RULESETS = [];

const PLAYER_CHOICES = [["human", t("lobby.choice_human")], ["open", t("lobby.choice_open")], ...[1, 2, 3, 4, 5, 6, 7, 8].map((l) => [`ai:${l}`, t("player.ai_level", { level: l })]), ["greedy", t("player.greedy")], ["random", t("player.random")]];

function current() {
  return RULESETS.find((r) => r.name === document.getElementById("ruleset").value);
}

function renderRuleset() {
  const r = current();
  document.getElementById("ruleset-source").textContent = `${t("rules.source")} ${r.source}`;
  const seats = document.getElementById("seats");
  seats.innerHTML = "";
  r.seats.forEach((name, i) => {
    const sel = el("select", { id: `player-${i}`, "data-seat": i }, PLAYER_CHOICES.map(([v, l]) => el("option", { value: v }, l)));
    sel.value = i === 0 ? "human" : "ai:2";
    seats.append(el("label", { class: "seat" }, el("span", { class: `swatch ${seatColour(name)}` }), ` ${seatLabel(name)} `, sel));
  });
  const box = document.getElementById("stakes-box");
  box.hidden = !r.stakes;
  const stakes = document.getElementById("stakes");
  stakes.innerHTML = "";
  if (r.stakes) {
    const def = (r.options.find((o) => o.name === "stake") || { value: "1" }).value;
    r.seats.forEach((name, i) =>
      stakes.append(el("label", { class: "seat" }, el("span", { class: `swatch ${seatColour(name)}` }), ` ${seatLabel(name)} `, el("input", { type: "number", min: 1, max: 1000000, step: 1, value: def, id: `stake-${i}` }))));
  }
  const body = document.querySelector("#options tbody");
  body.innerHTML = "";
  for (const o of r.options) {
    const allowed = o.allowed.split("|").map((s) => s.trim()).filter((s) => s && !s.includes(" "));
    let input;
    if (allowed.length > 1) {
      input = el("select", { "data-option": o.name, "data-default": o.value }, allowed.map((v) => el("option", { value: v }, v)));
      if (!allowed.includes(o.value)) input.append(el("option", { value: o.value }, o.value));
    } else {
      input = el("input", { "data-option": o.name, "data-default": o.value, size: 8 });
    }
    input.value = o.value;
    body.append(el("tr", {}, el("td", {}, el("b", {}, o.name)), el("td", {}, input), el("td", {}, optionText(o)), el("td", { class: "source" }, o.source)));
  }
}

function showCreated(res) {
  const links = document.getElementById("links");
  links.innerHTML = "";
  // Absolute links from the server (its --public-url, or the host this page came from).
  const abs = (p, url) => url || new URL(p, location.href).href;
  res.seats.forEach((s, i) => {
    const what = s.link ? [el("a", { href: s.link, class: "seat-link", "data-seat": i }, abs(s.link, s.url)), " ", copyButton(abs(s.link, s.url), `copy-seat-${i}`)]
      : s.open ? [el("i", { class: "open-seat" }, t("lobby.open_seat_note"))] : [t("lobby.server_seat")];
    links.append(el("li", {}, el("span", { class: `swatch ${seatColour(s.name)}` }), ` ${seatLabel(s.name)} (${s.open ? t("lobby.open_seat") : playerLabel(s.player)}): `, ...what));
  });
  const spec = abs(res.spectator, res.spectator_url);
  links.append(el("li", {}, `${t("lobby.spectators")} `, el("a", { href: res.spectator, class: "spectator-link" }, spec), " ", copyButton(spec, "copy-spectator")));
  document.getElementById("created").hidden = false;
  loadGames();
}

async function create() {
  const r = current();
  const err = document.getElementById("create-error");
  err.textContent = "";
  const options = {};
  document.querySelectorAll("[data-option]").forEach((i) => {
    if (i.value !== i.dataset.default) options[i.dataset.option] = i.value.trim();
  });
  const players = r.seats.map((_, i) => document.getElementById(`player-${i}`).value);
  const body = { ruleset: r.name, options, players };
  if (r.stakes) body.stakes = r.seats.map((_, i) => Number(document.getElementById(`stake-${i}`).value));
  const minutes = document.getElementById("clock-minutes").value.trim();
  if (minutes !== "") {
    body.clock = { initial_s: Math.round(Number(minutes) * 60), increment_s: Number(document.getElementById("clock-increment").value || 0) };
  }
  try {
    showCreated(await api("/api/games", body));
  } catch (e) {
    err.textContent = e.message;
  }
}

// The lobby list comes a page (at most PAGE_SIZE games, newest first) at a time.
const PAGE_SIZE = 50;
let PAGE = 0;

function pageNav(count) {
  const nav = document.getElementById("games-pages") || el("p", { id: "games-pages" });
  nav.innerHTML = "";
  if (PAGE > 0) nav.append(el("button", { type: "button", id: "games-newer" }, t("lobby.newer")));
  if (count === PAGE_SIZE) nav.append(el("button", { type: "button", id: "games-older" }, t("lobby.older")));
  document.getElementById("games-over").after(nav);
  nav.querySelector("#games-newer")?.addEventListener("click", () => { PAGE -= 1; loadGames(); });
  nav.querySelector("#games-older")?.addEventListener("click", () => { PAGE += 1; loadGames(); });
}

async function loadGames() {
  const games = await api(`/api/games?page=${PAGE}`);
  pageNav(games.length);
  const playing = document.getElementById("games-playing");
  const over = document.getElementById("games-over");
  const open = document.getElementById("games-open");
  playing.innerHTML = "";
  over.innerHTML = "";
  open.innerHTML = "";
  for (const g of games) {
    const seatsOpen = g.open || [];
    const who = g.seats.map((s, i) => `${seatLabel(s)}: ${seatsOpen.includes(i) ? t("lobby.open_word") : playerLabel(g.players[i])}`).join(", ");
    const clock = g.clock ? `, ${clockLabel(g.clock)}` : "";
    const end = g.result ? ` — ${reasonText(g.result)}, ${g.result.winner !== null ? t("result.wins", { seat: seatLabel(g.seats[g.result.winner]) }) : t("result.drawn")}` : "";
    if (seatsOpen.length && !g.over) {
      const joins = seatsOpen.map((i) => el("button", { type: "button", class: "join", "data-game": g.id, "data-seat": i, onclick: () => join(g.id, i) }, t("lobby.play_seat", { seat: seatLabel(g.seats[i]) })));
      open.append(el("li", { "data-game": g.id }, el("a", { href: `/g/${g.id}` }, g.title), ` (${who}${clock}) `, ...joins));
      continue;
    }
    const li = el("li", { "data-game": g.id }, el("a", { href: `/g/${g.id}`, class: g.over ? "" : "watch" }, g.over ? g.title : t("lobby.watch", { title: g.title })), ` (${who}${clock}), ${t("lobby.ply", { ply: g.ply })}${end}`);
    (g.over ? over : playing).append(li);
  }
  for (const list of [open, playing, over]) if (!list.children.length) list.append(el("li", { class: "hint" }, t("lobby.none")));
}

/// A clock in words: `5 min + 3 s`.
function clockLabel(c) {
  return `${c.initial_s >= 60 ? `${c.initial_s / 60} min` : `${c.initial_s} s`} + ${c.increment_s} s`;
}

/// Takes an open seat and goes to it with its secret link.
async function join(id, seat) {
  try {
    const res = await api(`/api/games/${encodeURIComponent(id)}/join`, { seat });
    location.href = res.link;
  } catch (e) {
    document.getElementById("join-error").textContent = e.message;
    loadGames();
  }
}

async function importRecord() {
  const err = document.getElementById("import-error");
  err.textContent = "";
  let text = document.getElementById("import-text").value.trim();
  const file = document.getElementById("import-file").files[0];
  if (!text && file) text = await file.text();
  try {
    // A JSON record, or a PGN / libro text record (docs/records.md).
    const body = text.startsWith("{") ? JSON.parse(text) : { text };
    showCreated(await api("/api/import", body));
  } catch (e) {
    err.textContent = e.message;
  }
}

async function main() {
  RULESETS = await api("/api/rulesets");
  const sel = document.getElementById("ruleset");
  // The rules of record first (the default: the first of them); the profiles that
  // reproduce another engine's reading (`-ludii`) in a group of their own.
  const profiles = el("optgroup", { label: t("lobby.profiles") });
  for (const r of RULESETS) (r.name.endsWith("-ludii") ? profiles : sel).append(el("option", { value: r.name }, `${r.title} (${r.name})`));
  if (profiles.children.length) sel.append(profiles);
  sel.value = sel.options[0].value;
  sel.addEventListener("change", renderRuleset);
  document.getElementById("show-rules").addEventListener("click", () => showRules(sel.value));
  document.getElementById("create").addEventListener("click", create);
  document.getElementById("import").addEventListener("click", importRecord);
  renderRuleset();
  loadGames();
  setInterval(loadGames, 5000);
}

main().catch((e) => (document.getElementById("create-error").textContent = e.message));
