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
  const [scroll, client] = await page.evaluate(() => [document.documentElement.scrollWidth, document.documentElement.clientWidth]);
  assert.ok(scroll <= client, `no horizontal scrolling (${scroll} > ${client})`);
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
