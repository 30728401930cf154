// Browser tests of the game table beyond the moves: clocks, PGN and text records, the
// lobby's open challenges and live games, copy-link buttons. Needs a running `libro serve`:
//   LIBRO_URL=http://127.0.0.1:8080 node --test table.test.mjs
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

let browser;
let profile;
const pageErrors = [];

before(async () => {
  profile = fs.mkdtempSync(path.join(os.tmpdir(), "libro-chromium-"));
  browser = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    viewport: { width: 1280, height: 900 },
    permissions: ["clipboard-read", "clipboard-write"],
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

/// Both widths: the page has no horizontal scrolling.
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

async function openGame(page, link) {
  await page.goto(`${BASE}${link}`);
  await page.waitForFunction(() => typeof S !== "undefined" && S.meta !== null && S.now !== null, null, POLL);
}

for (const width of [1280, 390]) {
  test(`clocks at ${width} px: created in the lobby, counting down for the seat to move, a flag ends the game`, async () => {
    const page = await newPage(width);
    await page.goto(`${BASE}/`);
    await page.waitForSelector('#ruleset option[value="acedrex"]', { state: "attached" });
    await page.selectOption("#ruleset", "acedrex");
    await page.selectOption("#player-0", "human");
    await page.selectOption("#player-1", "human");
    await page.fill("#clock-minutes", "0.05");
    await page.fill("#clock-increment", "0");
    await page.click("#create");
    await page.waitForSelector("#links a.seat-link");
    const white = await page.getAttribute('#links a.seat-link[data-seat="0"]', "href");
    await openGame(page, white);
    // Three seconds each, not yet running.
    await page.waitForSelector("#clocks:not([hidden]) .clock");
    assert.equal(await page.locator("#clocks .clock").count(), 2);
    assert.equal(await page.textContent('#clocks .clock[data-seat="1"] .time'), "0:03.0");
    assert.equal(await page.locator("#clocks .clock.running").count(), 0);
    await page.click('[data-sq="e2"]');
    await page.click('[data-sq="e3"]');
    await page.waitForFunction(() => S.history.length >= 1, null, POLL);
    // Black's clock runs and counts down on the page.
    await page.waitForSelector('#clocks .clock.running[data-seat="1"]');
    const before = await page.textContent('#clocks .clock[data-seat="1"] .time');
    await page.waitForFunction((b) => document.querySelector('#clocks .clock[data-seat="1"] .time').textContent !== b, before, POLL);
    await shot(page, `clock-running-${width}`);
    // Nobody moves: the server ends it on time.
    await page.waitForFunction(() => S.now.result !== null, null, POLL);
    assert.equal(await page.evaluate(() => S.now.result.reason), "time");
    assert.match(await page.textContent("#result"), /white wins — out of time/);
    assert.equal(await page.textContent('#clocks .clock[data-seat="1"] .time'), "0:00.0");
    await noSideScroll(page);
    await shot(page, `clock-flag-${width}`);
    await page.close();
  });
}

test("four clocks in Cuatro Tiempos, one per seat", async () => {
  const created = await apiPost("/api/games", { ruleset: "cuatro-tiempos", players: ["human", "ai:1", "ai:1", "ai:1"], stakes: [1, 1, 1, 1], clock: { initial_s: 300, increment_s: 2 } });
  const page = await newPage();
  await openGame(page, created.seats[0].link);
  await page.waitForSelector("#clocks .clock");
  assert.equal(await page.locator("#clocks .clock").count(), 4);
  assert.match(await page.textContent("#clocks h3"), /5 min \+ 2 s/);
  await shot(page, "clock-cuatro");
  await page.close();
});

async function apiGet(p) {
  const res = await fetch(`${BASE}${p}`);
  assert.ok(res.ok, `${p}: HTTP ${res.status}`);
  return res.json();
}

/// Plays `n` moves through the API, each a legal move of the seat to move.
async function playSome(id, tokens, n) {
  for (let k = 0; k < n; k++) {
    const s = await apiGet(`/api/games/${id}`);
    if (s.now.turn.kind !== "seat") break;
    const legal = s.now.legal;
    await apiPost(`/api/games/${id}/move`, { token: tokens[s.now.turn.seat], move: legal[(3 * k) % legal.length] });
  }
}

const tokensOf = (created) => created.seats.map((s) => (s.link ? s.link.split("#t=")[1] : null));

for (const width of [1280, 390]) {
  test(`records at ${width} px: the page exports PGN (a text record for Fallas) and the lobby imports it into the same game`, async () => {
    for (const ruleset of ["acedrex", "fallas"]) {
      const created = await apiPost("/api/games", { ruleset, players: ["human", "human"] });
      await playSome(created.id, tokensOf(created), 6);
      const page = await newPage(width);
      await openGame(page, created.spectator);
      assert.equal(await page.textContent("#export-text"), ruleset === "acedrex" ? "PGN" : "Text record");
      const href = await page.getAttribute("#export-text", "href");
      const text = await page.evaluate(async (h) => (await fetch(h)).text(), href);
      assert.match(text, new RegExp(`\\[Variant "${ruleset}"\\]`));
      if (ruleset === "acedrex") assert.match(text, /\n1\. \S+ \S+ 2\. /);
      else assert.match(text, /\n1\. \d:\d/);
      const original = await page.evaluate(() => S.history.map((e) => e.san || e.text));
      await page.goto(`${BASE}/`);
      await page.fill("#import-text", text);
      await page.click("#import");
      await page.waitForSelector("#links .spectator-link");
      await noSideScroll(page);
      await shot(page, `import-${ruleset}-${width}`);
      await openGame(page, await page.getAttribute("#links .spectator-link", "href"));
      assert.deepEqual(await page.evaluate(() => S.history.map((e) => e.san || e.text)), original);
      await page.close();
    }
  });

  test(`open challenges at ${width} px: created in the lobby with a copy button, taken from another lobby`, async () => {
    const host = await newPage(width);
    await host.goto(`${BASE}/`);
    await host.waitForSelector('#ruleset option[value="acedrex"]', { state: "attached" });
    await host.selectOption("#ruleset", "acedrex");
    await host.selectOption("#player-0", "human");
    await host.selectOption("#player-1", "open");
    await host.click("#create");
    await host.waitForSelector("#links .spectator-link");
    assert.equal(await host.locator("#links .open-seat").count(), 1);
    const spectator = await host.textContent("#links .spectator-link");
    assert.ok(spectator.startsWith(BASE), `an absolute link from the host the browser used: ${spectator}`);
    await host.click("#copy-spectator");
    await host.waitForSelector("#copy-spectator[data-copied]");
    assert.equal(await host.getAttribute("#copy-spectator", "data-copied"), spectator);
    await noSideScroll(host);
    await shot(host, `lobby-open-created-${width}`);
    const id = spectator.split("/g/")[1];
    const white = await host.getAttribute('#links a.seat-link[data-seat="0"]', "href");
    await openGame(host, white);
    await host.waitForSelector("#waiting");
    // Someone else finds it in the lobby and takes the seat.
    const guest = await newPage(width);
    await guest.goto(`${BASE}/`);
    await guest.waitForSelector(`#games-open li[data-game="${id}"] button.join`, POLL);
    await noSideScroll(guest);
    await shot(guest, `lobby-open-challenges-${width}`);
    await guest.click(`#games-open li[data-game="${id}"] button.join`);
    await guest.waitForURL(new RegExp(`/g/${id}#t=`));
    await guest.waitForFunction(() => typeof S !== "undefined" && S.now !== null && S.you === 1, null, POLL);
    // The host's page sees the game start: its move.
    await host.waitForFunction(() => S.now.turn.kind === "seat" && S.now.turn.seat === 0 && !(S.now.open || []).length, null, POLL);
    assert.equal(await host.locator("#waiting").count(), 0);
    await host.click('[data-sq="e2"]');
    await host.click('[data-sq="e3"]');
    await guest.waitForFunction(() => S.history.length === 1, null, POLL);
    await shot(guest, `open-challenge-joined-${width}`);
    await host.close();
    await guest.close();
  });
}

test("a spectator of an open challenge takes the seat from the game page", async () => {
  const created = await apiPost("/api/games", { ruleset: "fallas", players: ["open", "human"] });
  const page = await newPage();
  await openGame(page, created.spectator);
  await page.waitForSelector('#status button.join[data-seat="0"]');
  await shot(page, "open-challenge-spectator");
  await page.click('#status button.join[data-seat="0"]');
  await page.waitForFunction(() => typeof S !== "undefined" && S.now !== null && S.you === 0, null, POLL);
  assert.equal(await page.textContent("#you"), "white");
  assert.ok(!(await page.isHidden("#seat-link-box")), "the seat's own link is offered");
  await page.close();
});

for (const width of [1280, 390]) {
  test(`premove, sounds and chat at ${width} px`, async () => {
    const created = await apiPost("/api/games", { ruleset: "acedrex", players: ["human", "human"] });
    const [white, black] = tokensOf(created);
    const page = await newPage(width);
    await openGame(page, created.seats[0].link);
    assert.equal(await page.getAttribute('link[rel="icon"]', "href"), "/assets/favicon.svg");
    assert.equal(await page.evaluate(async () => (await fetch("/favicon.ico")).status), 200);
    await apiPost(`/api/games/${created.id}/move`, { token: white, move: "e2e4" });
    await page.waitForFunction(() => S.history.length === 1, null, POLL);
    // Black to move: White sets a premove e4 takes d5, shown on the board.
    await page.click('[data-sq="e4"]');
    await page.click('[data-sq="d5"]');
    assert.equal(await page.locator(".sq.premove").count(), 2);
    await shot(page, `premove-${width}`);
    await apiPost(`/api/games/${created.id}/move`, { token: black, move: "d7d5" });
    // It is played the moment it is White's turn, with the capture's sound.
    await page.waitForFunction(() => S.history.length === 3, null, POLL);
    assert.equal(await page.evaluate(() => S.history[2].san), "exd5");
    assert.deepEqual(await page.evaluate(() => SOUND.played), ["move", "move", "capture"]);
    assert.equal(await page.locator(".sq.premove").count(), 0);
    // A premove that is not legal when the turn comes is dropped with a note.
    await page.click('[data-sq="d1"]');
    await page.click('[data-sq="h8"]');
    await apiPost(`/api/games/${created.id}/move`, { token: black, move: "e7e6" });
    await page.waitForSelector("#toast:not([hidden])");
    assert.match(await page.textContent("#toast"), /Premove d1-h8 is not legal now/);
    assert.equal(await page.evaluate(() => S.history.length), 4);
    // Chat: what a seat writes is shown as text, never as markup.
    await page.fill("#chat-text", "good luck <b>bold</b>");
    await page.click("#chat-form button");
    await page.waitForSelector("#chat-log li");
    assert.equal(await page.textContent("#chat-log li"), "white: good luck <b>bold</b>");
    assert.equal(await page.locator("#chat-log li b").count(), 1, "only the seat's name is bold");
    await noSideScroll(page);
    await shot(page, `chat-${width}`);
    // Spectators read the chat but have no box to write in.
    const watcher = await newPage(width);
    await openGame(watcher, created.spectator);
    await watcher.waitForSelector("#chat-log li");
    assert.ok(await watcher.isHidden("#chat-form"));
    await watcher.close();
    await page.close();
  });
}
