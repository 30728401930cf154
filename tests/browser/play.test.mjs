// Browser tests of the libro web app: a short game of every shipped ruleset played through
// the page in headless Debian Chromium, with screenshots. Needs a running `libro serve`:
//   LIBRO_URL=http://127.0.0.1:8080 node --test play.test.mjs
// (scripts/browser-tests.sh starts one on a free port with a fresh database.)

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { chromium } from "playwright-core";

const BASE = process.env.LIBRO_URL;
if (!BASE) throw new Error("set LIBRO_URL to a running libro serve, e.g. http://127.0.0.1:8080");
const SHOTS = process.env.SCREENSHOT_DIR || path.resolve(import.meta.dirname, "../../target/screenshots");
const CHROMIUM = process.env.CHROMIUM || "/usr/bin/chromium";
fs.mkdirSync(SHOTS, { recursive: true });
// Poll on a timer: pages in the background get no animation frames, Playwright's default.
const POLL = { polling: 50, timeout: 60_000 };

let context;
let profile;
const pageErrors = [];

before(async () => {
  profile = fs.mkdtempSync(path.join(os.tmpdir(), "libro-chromium-"));
  context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    viewport: { width: 1280, height: 900 },
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });
});

after(async () => {
  await context?.close();
  fs.rmSync(profile, { recursive: true, force: true });
  assert.deepEqual(pageErrors, [], "no script errors on any page");
});

async function newPage() {
  const page = await context.newPage();
  page.on("pageerror", (e) => pageErrors.push(`${page.url()}: ${e.message}`));
  return page;
}

async function shot(page, name) {
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });
}

/// Creates a game through the lobby form; returns the seat links and the spectator link.
async function createInLobby(page, ruleset, players, stakes) {
  await page.goto(`${BASE}/`);
  await page.waitForSelector(`#ruleset option[value="${ruleset}"]`, { state: "attached" });
  await page.selectOption("#ruleset", ruleset);
  for (const [i, p] of players.entries()) await page.selectOption(`#player-${i}`, p);
  if (stakes) for (const [i, s] of stakes.entries()) await page.fill(`#stake-${i}`, String(s));
  await page.click("#create");
  await page.waitForSelector("#links .spectator-link");
  const seats = {};
  for (const a of await page.$$("#links a.seat-link")) seats[await a.getAttribute("data-seat")] = await a.getAttribute("href");
  const spectator = await page.getAttribute("#links .spectator-link", "href");
  return { seats, spectator };
}

async function openGame(page, link) {
  await page.goto(`${BASE}${link}`);
  await page.waitForFunction(() => typeof S !== "undefined" && S.meta !== null && S.now !== null, null, POLL);
}

async function waitMyTurn(page) {
  await page.waitForFunction(() => S.now.turn.kind === "seat" && S.now.turn.seat === S.you && !S.now.thinking && S.viewIndex === null, null, POLL);
}

async function ply(page) {
  return page.evaluate(() => S.history.length);
}

async function waitHistory(page, n) {
  await page.waitForFunction((k) => S.history.length >= k, n, POLL);
}

/// Drags a piece from one square to another with the mouse.
async function drag(page, from, to) {
  const a = await page.locator(`[data-sq="${from}"]`).boundingBox();
  const b = await page.locator(`[data-sq="${to}"]`).boundingBox();
  await page.mouse.move(a.x + a.width / 2, a.y + a.height / 2);
  await page.mouse.down();
  await page.mouse.move((a.x + b.x) / 2 + a.width / 2, (a.y + b.y) / 2 + a.height / 2, { steps: 4 });
  await page.mouse.move(b.x + b.width / 2, b.y + b.height / 2, { steps: 4 });
  await page.mouse.up();
}

/// Plays a chess move on the page by clicking (or dragging) and waits for it to be played.
async function chessMove(page, text, { byDrag = false } = {}) {
  const m = /^([A-Z])?([a-h][1-8])([a-h][1-8])$/.exec(text);
  assert.ok(m, `a board move: ${text}`);
  const n = await ply(page);
  if (byDrag) await drag(page, m[2], m[3]);
  else {
    await page.click(`[data-sq="${m[2]}"]`);
    // Legal destinations are highlighted once a piece is selected.
    assert.ok(await page.locator(`[data-sq="${m[3]}"].target`).count(), `${m[3]} is offered after selecting ${m[2]}`);
    await page.click(`[data-sq="${m[3]}"]`);
  }
  if (m[1] && (await page.locator("#chooser:not([hidden])").count())) await page.click(`#chooser button:has-text("${m[1]}")`);
  await waitHistory(page, n + 1);
  const last = await page.evaluate((k) => S.history[k], n);
  assert.equal(last.text, text);
}

/// A legal board move of the seat to move, chosen by index from what the page offers.
async function someChessMove(page, k) {
  const legal = await page.evaluate(() => S.now.legal.filter((m) => /^[A-Z]?[a-h][1-8][a-h][1-8]$/.test(m)));
  assert.ok(legal.length > 0, "the page offers legal moves");
  return legal[(k * 7) % legal.length];
}

async function playChessTurns(page, turns) {
  for (let k = 0; k < turns; k++) {
    await waitMyTurn(page);
    const over = await page.evaluate(() => S.now.result !== null);
    if (over) return;
    const mv = await someChessMove(page, k);
    await chessMove(page, mv, { byDrag: k === 0 });
  }
}

/// Plays one tables turn die by die: click a checker's point, then where it goes (a stacked
/// pair is laid down by one click on its point).
async function tablesTurn(page, k, shotName) {
  await waitMyTurn(page);
  const steps = await page.evaluate((i) => {
    const me = S.now.turn.seat;
    const map = S.history.length ? S.history[S.history.length - 1].view.map : S.start.map;
    let opts = S.now.steps;
    const out = [];
    let n = opts[i % opts.length];
    while (n) {
      out.push({ from: pointKey(me, map, n.from), to: pointKey(me, map, n.to), down: n.from === n.to, play: n.play });
      n = n.play === null ? n.next[0] : null;
    }
    return out;
  }, k);
  assert.ok(steps.length > 0 && steps[steps.length - 1].play, "a turn of die steps ending in a play");
  const n = await ply(page);
  for (const [i, s] of steps.entries()) {
    if (s.down) {
      assert.equal(await page.locator(`[data-point="${s.from}"][data-stacked="true"]`).count(), 1, `${s.from} holds a stacked pair`);
      await page.click(`[data-point="${s.from}"]`);
      if (s.play === null) await page.waitForSelector(`[data-point="${s.from}"]:not([data-stacked])`);
    } else {
      await page.click(`[data-point="${s.from}"]`);
      assert.ok(await page.locator(`[data-point="${s.to}"].target`).count(), `${s.to} is offered from ${s.from}`);
      await page.click(`[data-point="${s.to}"]`);
    }
    if (i === 0 && shotName) await shot(page, shotName);
  }
  await waitHistory(page, n + 1);
  const played = await page.evaluate((k2) => S.history[k2], n);
  assert.equal(played.kind, "move");
  assert.equal(played.text, steps[steps.length - 1].play);
}

test("the lobby offers every shipped ruleset with its options and sources, and the rules", async () => {
  const page = await newPage();
  await page.goto(`${BASE}/`);
  await page.waitForSelector('#ruleset option[value="fallas"]', { state: "attached" });
  const names = await page.$$eval("#ruleset option", (os) => os.map((o) => o.value));
  for (const n of ["acedrex", "forcado", "short-assize", "shatranj", "cuatro-tiempos", "fallas"]) assert.ok(names.includes(n), n);
  await page.selectOption("#ruleset", "acedrex");
  await page.click("#options-box summary");
  assert.ok((await page.textContent("#options")).includes("fers_leap"));
  await page.selectOption("#ruleset", "cuatro-tiempos");
  assert.equal(await page.locator("#stakes input").count(), 4, "four stakes for Cuatro Tiempos");
  await shot(page, "lobby");
  await page.selectOption("#ruleset", "forcado");
  await page.click("#show-rules");
  await page.waitForSelector("#rules-dialog[open] pre.seed");
  assert.ok((await page.textContent("#rules-dialog")).includes("forced game"), "the seed text is shown");
  await shot(page, "rules-forcado");
  await page.close();
});

for (const ruleset of ["acedrex", "acedrex-ludii", "shatranj", "short-assize-ludii", "forcado-ludii"]) {
  test(`a short game of ${ruleset} against the AI, stepping through the moves`, async () => {
    const page = await newPage();
    const { seats } = await createInLobby(page, ruleset, ["human", "ai:1"]);
    await openGame(page, seats[0]);
    assert.equal(await page.locator("#board .sq").count(), 64);
    await playChessTurns(page, 3);
    await waitMyTurn(page);
    // The AI's replies arrived; the last move is marked on the board.
    assert.ok((await ply(page)) >= 6);
    assert.equal(await page.locator(".sq.last").count(), 2);
    await shot(page, `${ruleset}-play`);
    // Step back to the start and forward again.
    await page.click("#first");
    const startPieces = await page.locator("#board svg.piece").count();
    assert.equal(startPieces, 32);
    assert.ok((await page.textContent("#status")).includes("Viewing after 0"));
    await page.click("#next");
    assert.equal(await page.locator("#moves .current").getAttribute("data-index"), "1");
    await page.click("#last");
    assert.equal(await page.locator("#moves .current").count(), 1);
    // The moves are paired by round in SAN: `1. e3 …`, the first row white's then black's.
    const first = await page.$$eval("#moves li.round:first-child .mv", (cells) => cells.map((c) => c.textContent));
    assert.equal(first.length, 2);
    const [san, text] = await page.evaluate(() => [S.history[0].san, S.history[0].text]);
    assert.equal(first[0], san);
    assert.ok(san !== text && !/^[a-p]\d{1,2}[a-p]\d{1,2}$/.test(san), `SAN (${san}), not coordinates (${text})`);
    await page.close();
  });
}

test("short assize: the shared start square, and check marked on the board", async () => {
  const white = await newPage();
  const black = await newPage();
  const { seats } = await createInLobby(white, "short-assize", ["human", "human"]);
  await openGame(white, seats[0]);
  await openGame(black, seats[1]);
  // The fers shares e3 with the e-pawn at the start.
  assert.equal(await white.locator('[data-sq="e3"].shared svg.piece').count(), 2);
  assert.equal(await black.locator('[data-sq="e6"].shared svg.piece').count(), 2);
  await shot(white, "short-assize-start");
  await chessMove(white, "d2c4");
  await waitHistory(black, 1);
  await chessMove(black, "a6a5");
  await waitHistory(white, 2);
  await chessMove(white, "c4d6");
  await waitHistory(black, 3);
  // The knight on d6 checks the king on e8: both pages mark it.
  await black.waitForSelector('[data-sq="e8"].check');
  assert.ok(await white.locator('[data-sq="e8"].check').count());
  assert.ok((await black.textContent("#status")).includes("Check"));
  await shot(black, "short-assize-check");
  await white.close();
  await black.close();
});

test("forcado: the forced capture is shown and explained, live on both pages", async () => {
  const white = await newPage();
  const black = await newPage();
  const { seats, spectator } = await createInLobby(white, "forcado", ["human", "human"]);
  const watcher = await newPage();
  await openGame(white, seats[0]);
  await openGame(black, seats[1]);
  await openGame(watcher, spectator);
  await chessMove(white, "e2e3");
  await waitHistory(black, 1);
  await chessMove(black, "d7d6");
  await waitHistory(white, 2);
  await chessMove(white, "e3e4");
  await waitHistory(black, 3);
  await chessMove(black, "d6d5");
  await waitHistory(white, 4);
  await white.waitForSelector("#forced:not([hidden])");
  const why = await white.textContent("#forced-text");
  assert.ok(why.includes("d5") && why.includes("e4"), why);
  // Another piece cannot move: clicking it says why.
  await white.click('[data-sq="a2"]');
  await white.waitForSelector("#toast:not([hidden])");
  assert.ok((await white.textContent("#toast")).includes("not allowed"));
  await shot(white, "forcado-forced");
  await chessMove(white, "e4d5");
  await waitHistory(watcher, 5);
  assert.equal(await watcher.evaluate(() => S.history[4].text), "e4d5");
  await shot(watcher, "forcado-spectator");
  for (const p of [white, black, watcher]) await p.close();
});

for (const ruleset of ["cuatro-tiempos", "cuatro-tiempos-ludii"]) {
  test(`${ruleset}: four colours, targets, stakes and the pot`, async () => {
    const page = await newPage();
    const { seats } = await createInLobby(page, ruleset, ["human", "random", "random", "random"], [1, 2, 3, 4]);
    await openGame(page, seats[0]);
    await page.waitForSelector("#pot");
    // Each seat's stake is as set (RULES.md: each pays it in at the start; Ludii: bets, no
    // opening payment).
    const stakes = await page.$$eval("#players table.seats tr", (rows) => rows.slice(1).map((r) => r.children[3].textContent));
    assert.deepEqual(stakes, ["1", "2", "3", "4"]);
    const pot = Number((await page.textContent("#pot")).replace(/\D+/g, ""));
    assert.equal(pot, ruleset.endsWith("ludii") ? 0 : 10);
    const colours = await page.$$eval("#board svg.piece", (ps) => [...new Set(ps.map((p) => p.dataset.colour))].sort());
    assert.deepEqual(colours, ["black", "green", "red", "white"]);
    assert.ok((await page.textContent("#players")).includes("→ red"), "green captures red");
    await playChessTurns(page, 3);
    await page.waitForFunction(() => S.now.result !== null || (S.now.turn.seat === S.you && !S.now.thinking), null, POLL);
    await shot(page, `${ruleset}-play`);
    await page.close();
  });
}

test("an unknown game says so and stops trying to connect; the lobby defaults to the rules of record", async () => {
  const page = await newPage();
  const res = await page.goto(`${BASE}/g/nosuchgame1`);
  assert.equal(res.status(), 404);
  await page.waitForFunction(() => document.body.dataset.missing === "yes", null, POLL);
  assert.equal(await page.textContent("#title"), "No such game");
  const conn = await page.textContent("#conn");
  await page.waitForTimeout(2500);
  assert.equal(await page.textContent("#conn"), conn, "no reconnecting");
  await page.goto(`${BASE}/`);
  await page.waitForSelector('#ruleset option[value="acedrex"]', { state: "attached" });
  assert.equal(await page.inputValue("#ruleset"), "acedrex");
  await page.close();
});

test("every shipped ruleset opens in the browser on a board drawn from its geometry and takes a move", async () => {
  const page = await newPage();
  await page.goto(`${BASE}/`);
  const rulesets = await page.evaluate(() => api("/api/rulesets"));
  for (const r of rulesets) {
    const players = r.seats.map((_, i) => (i === 0 ? "human" : "random"));
    const created = await page.evaluate((body) => api("/api/games", body), { ruleset: r.name, players });
    await openGame(page, created.seats[0].link);
    if (r.geometry.kind === "grid") {
      // One square per file and rank, whatever the board's size.
      assert.equal(await page.locator("#board .sq").count(), r.geometry.files * r.geometry.ranks, r.name);
    } else {
      assert.equal(await page.locator("#board [data-point]").count(), r.geometry.points + 2, r.name);
    }
    // Wait for this seat's turn (dice, a random opponent), then play its first legal move
    // as the page sends it; the move comes back in the history.
    await page.waitForFunction(() => S.now.result !== null || (S.now.turn.kind === "seat" && S.now.turn.seat === S.you && !S.now.thinking), null, POLL);
    if (await page.evaluate(() => S.now.result !== null)) continue;
    const before = await page.evaluate(() => S.history.length);
    await page.evaluate(() => sendMove(S.now.legal[0]));
    await page.waitForFunction((n) => S.history.length > n, before, POLL);
    assert.deepEqual(pageErrors, [], r.name);
  }
  await page.close();
});

test("on a phone (390 px) the board fills the width and nothing scrolls sideways", async () => {
  const page = await newPage();
  await page.setViewportSize({ width: 390, height: 844 });
  for (const ruleset of ["acedrex", "fallas"]) {
    await page.goto(`${BASE}/`);
    const game = await page.evaluate((r) => api("/api/games", { ruleset: r, players: ["human", "human"] }), ruleset);
    await openGame(page, game.seats[0].link);
    const [scroll, inner, board] = await page.evaluate(() => [
      document.scrollingElement.scrollWidth, window.innerWidth,
      document.querySelector("#board .grid, #board svg").getBoundingClientRect().width]);
    assert.ok(scroll <= inner, `${ruleset}: the page scrolls sideways (${scroll} > ${inner})`);
    assert.ok(board >= 0.9 * inner && board <= inner, `${ruleset}: the board is ${board} px of ${inner}`);
    await shot(page, `phone-${ruleset}`);
  }
  await page.close();
});

test("each seat sees its own side at the bottom; a spectator can flip the board", async () => {
  const page = await newPage();
  await page.goto(`${BASE}/`);
  // Cuatro Tiempos: each of the four seats finds its own king in the bottom half.
  const cuatro = await page.evaluate(() => api("/api/games", { ruleset: "cuatro-tiempos", players: ["human", "human", "human", "human"], stakes: [1, 1, 1, 1] }));
  // (Another seat's link differs only after `#`: load a blank page between them.)
  for (const seat of cuatro.seats) {
    await page.goto("about:blank");
    await openGame(page, seat.link);
    const [kingY, midY] = await page.evaluate(() => {
      const king = S.history.length ? null : S.start.squares.find((q) => q.seat === S.you && q.pieces.includes("K"));
      const r = document.querySelector(`[data-sq="${king.sq}"]`).getBoundingClientRect();
      const g = document.querySelector("#board .grid").getBoundingClientRect();
      return [r.top + r.height / 2, g.top + g.height / 2];
    });
    assert.ok(kingY > midY, `${seat.name}'s king is in the bottom half`);
  }
  // Fallas: black sees its own 1-point at the bottom right, numbered from its side.
  const fallas = await page.evaluate(() => api("/api/games", { ruleset: "fallas", players: ["human", "human"] }));
  const pointY = (p) => page.evaluate((k) => document.querySelector(`[data-point="${k}"] .tri`).getBoundingClientRect().top, p);
  await openGame(page, fallas.seats[0].link);
  assert.ok((await pointY("1")) > (await pointY("24")), "white's 1-point at the bottom");
  await page.goto("about:blank");
  await openGame(page, fallas.seats[1].link);
  assert.ok((await pointY("24")) > (await pointY("1")), "black's 1-point (white's 24) at the bottom");
  assert.equal(await page.textContent('[data-point="24"] .num'), "1", "numbered from black's side");
  await shot(page, "fallas-black");
  // A spectator of a chess game turns the board round.
  const chess = await page.evaluate(() => api("/api/games", { ruleset: "acedrex", players: ["human", "human"] }));
  await openGame(page, chess.spectator);
  const y = (sq) => page.evaluate((k) => document.querySelector(`[data-sq="${k}"]`).getBoundingClientRect().top, sq);
  assert.ok((await y("e1")) > (await y("e8")));
  await page.click("#flip");
  assert.ok((await y("e1")) < (await y("e8")), "flipped");
  await page.close();
});

test("game actions: a takeback asked and granted, a draw offered, resignation and a rematch", async () => {
  const white = await newPage();
  const black = await newPage();
  const { seats } = await createInLobby(white, "shatranj", ["human", "human"]);
  await openGame(white, seats[0]);
  await openGame(black, seats[1]);
  await chessMove(white, "e2e3");
  await waitHistory(black, 1);
  await chessMove(black, "e7e6");
  await waitHistory(white, 2);
  // Black asks to take e7e6 back; white sees the asking and grants it.
  await black.click("#takeback");
  await white.waitForSelector("#takeback-note");
  assert.equal(await white.textContent("#takeback"), "Accept takeback");
  await white.click("#takeback");
  await black.waitForFunction(() => S.history.length === 1 && S.now.turn.seat === S.you, null, POLL);
  // A draw offered by white shows on black's page as an offer to accept.
  await white.click("#draw");
  await black.waitForSelector("#draw-note");
  assert.equal(await black.textContent("#draw"), "Accept draw");
  await shot(black, "actions-offers");
  // Black resigns instead: both pages show the result and its reason.
  await black.click("#resign");
  for (const p of [white, black]) {
    await p.waitForSelector("#result");
    assert.match(await p.textContent("#result"), /white wins — resignation/);
  }
  // A rematch takes black's player to white's seat of a new game.
  await black.click("#rematch");
  const old = `/g/${seats[1].split("/g/")[1].split("#")[0]}`;
  await black.waitForURL((u) => u.pathname !== old, POLL);
  await black.waitForFunction(() => S.meta !== null && S.now !== null && S.you === 0, null, POLL);
  await white.waitForSelector("#rematch-link");
  await shot(white, "actions-rematch");
  for (const p of [white, black]) await p.close();
});

test("fallas: dice, die-by-die moves, the bar and borne-off trays", async () => {
  const page = await newPage();
  const { seats } = await createInLobby(page, "fallas", ["human", "random"]);
  await openGame(page, seats[0]);
  await page.waitForFunction(() => S.now.result !== null || (S.now.turn.seat === S.you && !S.now.thinking), null, POLL);
  assert.equal(await page.locator("[data-point]").count(), 26, "24 points, the bar and the tray");
  for (let k = 0; k < 3; k++) {
    if (await page.evaluate(() => S.now.result !== null)) break;
    await tablesTurn(page, k, k === 0 ? "fallas-mid-turn" : null);
    await page.waitForFunction(() => S.now.result !== null || (S.now.turn.seat === S.you && !S.now.thinking), null, POLL);
  }
  assert.ok((await page.locator(".die").count()) === 3 || (await page.evaluate(() => S.now.result !== null)));
  await shot(page, "fallas-play");
  await page.close();
});

test("doblet: pairs drawn stacked are laid down by a click on their point", async () => {
  const page = await newPage();
  const { seats } = await createInLobby(page, "doblet", ["human", "random"]);
  await openGame(page, seats[0]);
  await page.waitForFunction(() => S.now.result !== null || (S.now.turn.seat === S.you && !S.now.thinking), null, POLL);
  // At the start both players' six pairs stand stacked (unless the opponent, first to
  // roll, has laid some down already).
  assert.ok((await page.locator("[data-stacked]").count()) >= 7, "stacked pairs are drawn");
  await shot(page, "doblet-stacked");
  assert.match(await page.textContent("#players .hint"), /never move along the board/);
  const laid = await page.evaluate(() => S.now.steps.filter((n) => n.from === n.to).length);
  assert.ok(laid > 0 || (await page.evaluate(() => S.now.legal.includes("pass"))), "a lay-down is offered, or nothing can be played");
  if (laid > 0) await tablesTurn(page, 0, "doblet-laid-down");
  await page.close();
});

test("a game played to its end shows the result and its reason; records export and import", async () => {
  const page = await newPage();
  const { spectator } = await createInLobby(page, "fallas", ["random", "random"]);
  await openGame(page, spectator);
  await page.waitForSelector("#result", { timeout: 120_000 });
  const text = await page.textContent("#result");
  assert.match(text, /Game over: (white|black) wins — (bore off all checkers|falla)/);
  await shot(page, "fallas-over");
  // Export the record, import it through the lobby: the same game, under new links.
  const id = spectator.split("/").pop();
  const rec = await (await page.request.get(`${BASE}/api/games/${id}/export`)).json();
  assert.equal(rec.format, "libro-record/1");
  await page.goto(`${BASE}/`);
  await page.fill("#import-text", JSON.stringify(rec));
  await page.click("#import");
  await page.waitForSelector("#links .spectator-link");
  const copy = await page.getAttribute("#links .spectator-link", "href");
  assert.notEqual(copy, spectator);
  await openGame(page, copy);
  assert.equal(await page.evaluate(() => S.history.length), rec.events.length);
  assert.ok(await page.locator("#result").count());
  // The finished game is listed as finished.
  await page.goto(`${BASE}/`);
  await page.waitForSelector(`#games-over a[href="${spectator}"]`);
  await page.close();
});

test("lab: a small study of two readings, its progress, report table and charts", async () => {
  const page = await newPage();
  await page.goto(`${BASE}/`);
  await page.click("#lab-link");
  await page.waitForSelector('#ruleset option[value="fallas"]', { state: "attached" });
  await page.selectOption("#ruleset", "fallas");
  await page.selectOption("#player-0", "random");
  await page.selectOption("#player-1", "greedy");
  // Compare the two ways to bear off: two readings of 12 games.
  await page.check('[data-vary="bear_off"][value="standard"]');
  await page.check('[data-vary="bear_off"][value="exact"]');
  await page.fill("#games", "12");
  await page.fill("#seed", "5");
  assert.match(await page.textContent("#readings-count"), /2 readings × 12 games = 24 games/);
  await page.click("#start");
  await page.waitForSelector("#run:not([hidden])");
  await page.waitForFunction(() => document.querySelector("#run-count").textContent.startsWith("24 / 24"), null, POLL);
  await page.waitForSelector("#report-table tbody tr");
  await page.waitForSelector("#charts figure[data-chart=outcomes] svg");
  assert.equal(await page.textContent("#run-status"), "done");
  const heads = await page.$$eval("#report-table thead th", (ths) => ths.map((t) => t.textContent));
  assert.deepEqual(heads, ["", "bear_off=standard", "bear_off=exact"]);
  const games = await page.$$eval("#report-table tbody tr:first-child td", (tds) => tds.map((t) => t.textContent));
  assert.deepEqual(games, ["12", "12"]);
  assert.equal(await page.locator("#charts svg").count(), 4, "outcomes, end reasons, durations, heatmap");
  assert.match(await page.textContent("#report-text"), /fallas — random \/ greedy — 12 games per reading, seed 5/);
  // Different players in the two seats: no first-move advantage is claimed.
  const labels = await page.$$eval("#report-table tbody th", (ths) => ths.map((t) => t.textContent));
  assert.ok(!labels.some((l) => l.startsWith("first-move advantage")), labels.join(", "));
  assert.ok(labels.includes("distinct games") && labels.includes("board coverage"), labels.join(", "));
  // The stamp: libro's version and the rules' digests.
  assert.match(await page.textContent("#report-stamp"), /^libro \d+\.\d+\.\d+.*rules digest/);
  // Every chart fits its card, even in a narrow window.
  await page.setViewportSize({ width: 700, height: 900 });
  const overflow = await page.$$eval("#charts figure", (figs) =>
    figs.filter((f) => f.querySelector("svg").getBoundingClientRect().width > f.getBoundingClientRect().width + 1).length);
  assert.equal(overflow, 0, "a chart is wider than its card");
  await page.waitForSelector("#runs li[data-run] .status.done");
  await shot(page, "lab-report");
  await page.close();
});
