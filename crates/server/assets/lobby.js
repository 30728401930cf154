// The lobby: choose a ruleset, its options, the players and stakes; list and import games.
"use strict";

let RULESETS = [];

const PLAYER_CHOICES = [["human", "Human (gets a secret link)"], ...[1, 2, 3, 4, 5, 6, 7, 8].map((l) => [`ai:${l}`, `AI level ${l}`]), ["greedy", "AI: greedy"], ["random", "AI: random moves"]];

function current() {
  return RULESETS.find((r) => r.name === document.getElementById("ruleset").value);
}

function renderRuleset() {
  const r = current();
  document.getElementById("ruleset-source").textContent = `Source: ${r.source}`;
  const seats = document.getElementById("seats");
  seats.innerHTML = "";
  r.seats.forEach((name, i) => {
    const sel = el("select", { id: `player-${i}`, "data-seat": i }, PLAYER_CHOICES.map(([v, l]) => el("option", { value: v }, l)));
    sel.value = i === 0 ? "human" : "ai:2";
    seats.append(el("label", { class: "seat" }, el("span", { class: `swatch ${seatColour(name)}` }), ` ${name} `, sel));
  });
  const box = document.getElementById("stakes-box");
  box.hidden = !r.stakes;
  const stakes = document.getElementById("stakes");
  stakes.innerHTML = "";
  if (r.stakes) {
    const def = (r.options.find((o) => o.name === "stake") || { value: "1" }).value;
    r.seats.forEach((name, i) =>
      stakes.append(el("label", { class: "seat" }, el("span", { class: `swatch ${seatColour(name)}` }), ` ${name} `, el("input", { type: "number", min: 1, max: 1000000, step: 1, value: def, id: `stake-${i}` }))));
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
    body.append(el("tr", {}, el("td", {}, el("b", {}, o.name)), el("td", {}, input), el("td", {}, o.explanation), el("td", { class: "source" }, o.source)));
  }
}

function showCreated(res) {
  const links = document.getElementById("links");
  links.innerHTML = "";
  const abs = (p) => new URL(p, location.href).href;
  res.seats.forEach((s, i) => {
    links.append(el("li", {}, el("span", { class: `swatch ${seatColour(s.name)}` }), ` ${s.name} (${playerLabel(s.player)}): `,
      s.link ? el("a", { href: s.link, class: "seat-link", "data-seat": i }, abs(s.link)) : "played by the server"));
  });
  links.append(el("li", {}, "Spectators: ", el("a", { href: res.spectator, class: "spectator-link" }, abs(res.spectator))));
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
  if (PAGE > 0) nav.append(el("button", { type: "button", id: "games-newer" }, "Newer games"));
  if (count === PAGE_SIZE) nav.append(el("button", { type: "button", id: "games-older" }, "Older games"));
  document.getElementById("games-over").after(nav);
  nav.querySelector("#games-newer")?.addEventListener("click", () => { PAGE -= 1; loadGames(); });
  nav.querySelector("#games-older")?.addEventListener("click", () => { PAGE += 1; loadGames(); });
}

async function loadGames() {
  const games = await api(`/api/games?page=${PAGE}`);
  pageNav(games.length);
  const playing = document.getElementById("games-playing");
  const over = document.getElementById("games-over");
  playing.innerHTML = "";
  over.innerHTML = "";
  for (const g of games) {
    const who = g.seats.map((s, i) => `${s}: ${playerLabel(g.players[i])}`).join(", ");
    const end = g.result ? ` — ${g.result.describe}${g.result.winner !== null ? `, ${g.seats[g.result.winner]} wins` : ", drawn"}` : "";
    const li = el("li", {}, el("a", { href: `/g/${g.id}` }, g.title), ` (${who}), ply ${g.ply}${end}`);
    (g.over ? over : playing).append(li);
  }
  if (!playing.children.length) playing.append(el("li", { class: "hint" }, "none"));
  if (!over.children.length) over.append(el("li", { class: "hint" }, "none"));
}

async function importRecord() {
  const err = document.getElementById("import-error");
  err.textContent = "";
  let text = document.getElementById("import-text").value.trim();
  const file = document.getElementById("import-file").files[0];
  if (!text && file) text = await file.text();
  try {
    const rec = JSON.parse(text);
    showCreated(await api("/api/import", rec));
  } catch (e) {
    err.textContent = e.message;
  }
}

async function main() {
  RULESETS = await api("/api/rulesets");
  const sel = document.getElementById("ruleset");
  // The rules of record first (the default: the first of them); the profiles that
  // reproduce another engine's reading (`-ludii`) in a group of their own.
  const profiles = el("optgroup", { label: "Profiles reproducing Ludii's readings" });
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
