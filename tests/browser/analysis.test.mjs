// Browser tests of the analysis board: setting up a position (a malformed one is named),
// the board editor (pieces placed, a refused position named, play from the one set up),
// moves for either side by click and from the list, stepping back, the engine's analysis of
// a chess position and of a Fallas position waiting for dice, and the Analyse button of a
// game page. Needs a running `libro serve`:
//   LIBRO_URL=http://127.0.0.1:8080 node --test analysis.test.mjs
// Screenshots at 1280 px and at 390 px (a phone).

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
const POLL = { polling: 50, timeout: 60_000 };

// Acedrex, white to move: black king e8, white king e6, white rook a1; Ra8 is the one mate.
const MATE_IN_ONE = "4k3/8/4K3/8/8/8/8/R7 w - x 0 1";

let browser;
let profile;
const pageErrors = [];

before(async () => {
  profile = fs.mkdtempSync(path.join(os.tmpdir(), "libro-chromium-"));
  browser = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    viewport: { width: 1280, height: 900 },
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });
});

after(async () => {
  await browser?.close();
  fs.rmSync(profile, { recursive: true, force: true });
  assert.deepEqual(pageErrors, [], "no script errors on any page");
});

async function newPage(width = 1280) {
  const page = await browser.newPage();
  if (width !== 1280) await page.setViewportSize({ width, height: 844 });
  page.on("pageerror", (e) => pageErrors.push(`${page.url()}: ${e.message}`));
  return page;
}

async function shot(page, name) {
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });
}

async function noSideScroll(page) {
  const [scroll, client, wide] = await page.evaluate(() => {
    const w = document.documentElement.clientWidth;
    const over = [...document.querySelectorAll("body *")].filter((e) => e.getBoundingClientRect().right > w + 1).slice(-3);
    return [document.documentElement.scrollWidth, w, over.map((e) => `${e.tagName}#${e.id}.${e.className}`).join(", ")];
  });
  assert.ok(scroll <= client, `no horizontal scrolling (${scroll} > ${client}): ${wide}`);
}

async function apiPost(p, body) {
  const res = await fetch(`${BASE}${p}`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
  const data = await res.json();
  assert.ok(res.ok, `${p}: ${JSON.stringify(data)}`);
  return data;
}

async function apiGet(p) {
  const res = await fetch(`${BASE}${p}`);
  const data = await res.json();
  assert.ok(res.ok, `${p}: ${JSON.stringify(data)}`);
  return data;
}

async function shown(page) {
  return page.evaluate(() => document.body.dataset.position);
}

async function loadPosition(page, text) {
  await page.fill("#position", text);
  await page.click("#load");
}

for (const width of [1280, 390]) {
  test(`analysis board at ${width} px: a position set up, a malformed one named, the mate found and played, a step back`, async () => {
    const page = await newPage(width);
    await page.goto(`${BASE}/analysis?ruleset=acedrex`);
    await page.waitForFunction(() => document.body.dataset.position, null, POLL);
    const start = await shown(page);
    assert.match(start, /^rnafkanr\/pppppppp\/8\/8\/8\/8\/PPPPPPPP\/RNAFKANR w /);

    // A malformed position is named, and the board stays as it was.
    await loadPosition(page, "4k3/9 w");
    await page.waitForFunction(() => document.getElementById("position-error").textContent.length > 0, null, POLL);
    assert.match(await page.textContent("#position-error"), /position `4k3\/9 w` cannot be read/);
    assert.equal(await shown(page), start);

    await loadPosition(page, MATE_IN_ONE);
    await page.waitForFunction((p) => document.body.dataset.position === p, MATE_IN_ONE, POLL);
    assert.equal(await page.textContent("#position-error"), "");
    assert.match(page.url(), /position=4k3/, "the address holds the position");

    // The engine: the mate in one, with its line in SAN.
    await page.click("#analyse");
    await page.waitForFunction(() => document.body.dataset.engine === "done", null, POLL);
    const best = await page.textContent("#engine-lines tr.line .value");
    assert.equal(best, "mate in 1");
    assert.match(await page.textContent("#engine-lines tr.line .pv"), /^Ra8#/);
    await shot(page, `analysis-mate-${width}`);

    // Played by click: rook a1, then a8.
    await page.click('[data-sq="a1"]');
    await page.click('[data-sq="a8"]');
    await page.waitForSelector("#result");
    assert.match(await page.textContent("#result"), /white wins/);
    assert.equal(await page.textContent("#line li.current"), "Ra8#");
    // A square nobody may move to is not played: the game is over, nothing is offered.
    assert.equal(await page.locator("#move-select option").count(), 0);

    // Back to the position before the mate, then black's reply after another white move.
    await page.click("#back");
    await page.waitForFunction((p) => document.body.dataset.position === p, MATE_IN_ONE, POLL);
    await page.selectOption("#move-select", "e6d6");
    await page.click("#play");
    await page.waitForFunction(() => document.querySelector("#turn")?.textContent.includes("black to move"), null, POLL);
    assert.equal(await page.locator("#line li").count(), 1, "the move played replaces the mate after the step back");
    await page.selectOption("#move-select", { index: 0 });
    await page.click("#play");
    await page.waitForFunction(() => document.querySelector("#turn")?.textContent.includes("white to move"), null, POLL);
    assert.equal(await page.locator("#line li").count(), 2);
    await noSideScroll(page);
    await shot(page, `analysis-board-${width}`);
    await page.close();
  });

  test(`analysis board at ${width} px: the editor places pieces, names a position the rules refuse, and play goes on from the one set up`, async () => {
    const page = await newPage(width);
    await page.goto(`${BASE}/analysis?ruleset=acedrex`);
    await page.waitForFunction(() => document.body.dataset.position, null, POLL);
    await page.click("#edit");
    await page.waitForFunction(() => document.body.dataset.editing === "yes", null, POLL);
    // Every side's pieces of the ruleset: king, fers, fil, knight, rook, pawn for each.
    assert.equal(await page.locator('.piece-pick[data-seat="0"]').count(), 6);
    assert.equal(await page.locator('.piece-pick[data-seat="1"]').count(), 6);
    // An empty board has no kings: refused, saying so.
    await page.click("#edit-clear");
    await page.waitForFunction(() => document.body.dataset.editError === "yes", null, POLL);
    assert.match(await page.textContent("#edit-error"), /each side needs exactly one king/);
    // The mate-in-one position, piece by piece (White was to move at the start).
    const place = async (seat, piece, sq) => {
      await page.click(`.piece-pick[data-seat="${seat}"][data-piece="${piece}"]`);
      await page.click(`[data-sq="${sq}"]`);
    };
    await place(0, "K", "e6");
    await place(1, "K", "e8");
    await place(0, "R", "a1");
    await page.waitForFunction((p) => document.body.dataset.editPosition === p, MATE_IN_ONE, POLL);
    // A white pawn on the eighth rank is refused by name; the eraser takes it off again.
    await place(0, "P", "c8");
    await page.waitForFunction(() => document.body.dataset.editError === "yes", null, POLL);
    assert.match(await page.textContent("#edit-error"), /pawn stands unpromoted/);
    await page.click("#erase");
    await page.click('[data-sq="c8"]');
    await page.waitForFunction((p) => document.body.dataset.editPosition === p, MATE_IN_ONE, POLL);
    // Black to move, then White again.
    await page.selectOption("#edit-to-move", "1");
    await page.waitForFunction(() => document.body.dataset.editPosition === "4k3/8/4K3/8/8/8/8/R7 b - x 0 1", null, POLL);
    await page.selectOption("#edit-to-move", "0");
    await page.waitForFunction((p) => document.body.dataset.editPosition === p, MATE_IN_ONE, POLL);
    await noSideScroll(page);
    await shot(page, `analysis-editor-${width}`);
    // Done: the analysis goes on from the position set up, and the mate is played.
    await page.click("#edit");
    await page.waitForFunction((p) => document.body.dataset.editing === "" && document.body.dataset.position === p, MATE_IN_ONE, POLL);
    assert.match(page.url(), /position=4k3/);
    await page.click('[data-sq="a1"]');
    await page.click('[data-sq="a8"]');
    await page.waitForSelector("#result");
    assert.match(await page.textContent("#result"), /white wins/);
    await page.close();
  });

  test(`analysis board at ${width} px: Fallas waiting for dice, every roll with its odds and the one falla`, async () => {
    const page = await newPage(width);
    const startState = await apiGet("/api/analysis/state?ruleset=fallas");
    const id = startState.position.replace(/:roll-off$/, "");
    const toRoll = `${id}:white:roll`;
    await page.goto(`${BASE}/analysis?ruleset=fallas&position=${encodeURIComponent(toRoll)}`);
    await page.waitForFunction((p) => document.body.dataset.position === p, toRoll, POLL);
    assert.equal(await page.textContent("#play"), "Roll");
    // 56 distinct rolls of three dice, each with its odds.
    assert.equal(await page.locator("#move-select option").count(), 56);
    await page.click("#analyse");
    await page.waitForSelector('#rolls tr[data-roll="5-5-5"]', POLL);
    // By hand: at the start only 5-5-5 cannot be played (crates/tables/tests/reference.rs).
    assert.match(await page.textContent("#rolls-summary"), /falla on 1 of 216 rolls \(0\.5%\)/);
    assert.deepEqual(await page.locator("#rolls tr.falla").evaluateAll((rows) => rows.map((r) => r.dataset.roll)), ["5-5-5"]);
    assert.match(await page.textContent('#rolls tr[data-roll="6-5-4"]'), /6\/216/);
    await shot(page, `analysis-rolls-${width}`);
    // Stopping (or moving on) leaves no analysis running.
    await page.click("#stop").catch(() => {});

    // A roll chosen by hand, then a play from the list.
    await page.selectOption("#move-select", "6-4-1");
    await page.click("#play");
    await page.waitForFunction(() => document.querySelector("#turn")?.textContent.includes("white to move"), null, POLL);
    assert.equal(await page.locator('#board [data-die]').count(), 3);
    await page.selectOption("#move-select", { index: 0 });
    await page.click("#play");
    await page.waitForFunction(() => document.querySelector("#turn")?.textContent.includes("Dice to roll"), null, POLL);
    await noSideScroll(page);
    await page.close();
  });

  test(`game page at ${width} px: Analyse opens the position shown, with the game's options`, async () => {
    const created = await apiPost("/api/games", { ruleset: "forcado", players: ["human", "human"], options: { stalemate: "draw" } });
    const token = (i) => created.seats[i].link.split("#t=")[1];
    await apiPost(`/api/games/${created.id}/move`, { token: token(0), move: "e2e3" });
    await apiPost(`/api/games/${created.id}/move`, { token: token(1), move: "d7d6" });
    const page = await newPage(width);
    await page.goto(`${BASE}${created.seats[0].link}`);
    await page.waitForFunction(() => typeof S !== "undefined" && S.meta !== null && S.history.length === 2, null, POLL);
    // Browse back to after white's first move, then open it on the analysis board.
    await page.click("#prev");
    const href = await page.getAttribute("#analyse-link", "href");
    assert.equal(href, `/analysis?game=${created.id}&at=1`);
    const after1 = await apiGet(`/api/games/${created.id}/position?at=1`);
    await page.goto(`${BASE}${href}`);
    await page.waitForFunction((p) => document.body.dataset.position === p, after1.position, POLL);
    assert.match(page.url(), /options=stalemate%3Ddraw|options=stalemate=draw/);
    assert.match(await page.textContent("#turn"), /black to move/);
    await noSideScroll(page);
    await page.close();
  });
}
