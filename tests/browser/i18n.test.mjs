// Browser tests of the interface in Spanish: the lobby, a game page, the rule options'
// explanations, the Lab page's dynamic text and charts, and the analysis board shown in
// Spanish when the browser asks for it (Accept-Language), and the language switch,
// remembered from page to page.
// Needs a running `libro serve`:
//   LIBRO_URL=http://127.0.0.1:8080 node --test i18n.test.mjs
// Screenshots at 1280 px and at 390 px (a phone).

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { chromium } from "playwright-core";

const BASE = process.env.LIBRO_URL;
if (!BASE) throw new Error("set LIBRO_URL to a running libro serve, e.g. http://127.0.0.1:8080");
const SHOTS = process.env.SCREENSHOT_DIR || path.resolve(import.meta.dirname, "../../target/screenshots");
const CHROMIUM = process.env.CHROMIUM || "/usr/bin/chromium";
fs.mkdirSync(SHOTS, { recursive: true });
const POLL = { polling: 50, timeout: 60_000 };

let browser;
const pageErrors = [];

before(async () => {
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });
});

after(async () => {
  await browser?.close();
  assert.deepEqual(pageErrors, [], "no script errors on any page");
});

/// A page in a fresh browser context (no cookie) whose browser speaks `lang` first: its
/// Accept-Language.
async function newPage(width, lang) {
  const context = await browser.newContext({
    viewport: { width, height: width === 1280 ? 900 : 844 },
    locale: lang === "es" ? "es-ES" : "en-GB",
  });
  const page = await context.newPage();
  page.on("pageerror", (e) => pageErrors.push(`${page.url()}: ${e.message}`));
  // Closing the context may race the browser's own close at the end of the run: that
  // rejection is not a test failure.
  page.on("close", () => context.close().catch(() => {}));
  return page;
}

async function shot(page, name) {
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });
}

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

for (const width of [1280, 390]) {
  test(`lobby in Spanish at ${width} px (Accept-Language: es)`, async () => {
    const page = await newPage(width, "es");
    await page.goto(`${BASE}/`);
    await page.waitForSelector("#player-0");
    assert.equal(await page.getAttribute("html", "lang"), "es");
    assert.equal(await page.inputValue("#lang"), "es");
    assert.equal(await page.textContent("#create"), "Crear partida");
    assert.equal(await page.textContent("#new-game h2"), "Nueva partida");
    assert.equal(await page.textContent("#analysis-link"), "Tablero de análisis");
    // The seats in the games' own words, the players' choices translated.
    assert.match(await page.textContent("#seats"), /blancas/);
    assert.match(await page.textContent("#seats"), /negras/);
    assert.ok(await page.locator('#player-0 option[value="ai:3"]', { hasText: "IA nivel 3" }).count());
    assert.match(await page.title(), /los juegos del Libro de los Juegos/);
    // A server error: its kind translated from its code, the server's words after it.
    await page.fill("#import-text", "no es un registro");
    await page.click("#import");
    await page.waitForFunction(() => document.getElementById("import-error").textContent.length > 0, null, POLL);
    assert.match(await page.textContent("#import-error"), /^Petición no válida \(.+\)$/);
    await noSideScroll(page);
    await shot(page, `i18n-lobby-es-${width}`);
    await page.close();
  });

  test(`game page in Spanish at ${width} px: the turn, the actions, the result`, async () => {
    const created = await apiPost("/api/games", { ruleset: "acedrex", players: ["human", "human"] });
    const page = await newPage(width, "es");
    await page.goto(`${BASE}${created.seats[0].link}`);
    await page.waitForFunction(() => typeof S !== "undefined" && S.meta !== null && S.now !== null, null, POLL);
    assert.equal(await page.textContent("#turn"), " Te toca (blancas)");
    assert.equal(await page.textContent("#resign"), "Abandonar");
    assert.equal(await page.textContent("#draw"), "Ofrecer tablas");
    assert.equal(await page.textContent("#flip"), "Girar el tablero");
    assert.equal(await page.textContent("#analyse-link"), "Analizar");
    assert.equal(await page.textContent("#you"), "blancas");
    // Piece names in the games' own Spanish words.
    assert.equal(await page.getAttribute('[data-sq="d1"]', "title"), "blancas alferza");
    assert.equal(await page.getAttribute('[data-sq="a1"]', "title"), "blancas roque");
    await shot(page, `i18n-game-es-${width}`);
    // Black resigns: the result, from its reason code, in Spanish.
    const token = created.seats[1].link.split("#t=")[1];
    await apiPost(`/api/games/${created.id}/resign`, { token });
    await page.waitForSelector("#result");
    assert.equal(await page.textContent("#result"), "Fin de la partida: ganan blancas — abandono.");
    await noSideScroll(page);
    await page.close();
  });
}

/// The cells' text of option `name`'s row in the page's options table.
async function optionRow(page, name) {
  await page.waitForFunction((name) => [...document.querySelectorAll("#options tbody b")].some((b) => b.textContent === name), name, POLL);
  return page.$$eval("#options tbody tr", (rows, name) =>
    [...rows.find((r) => r.querySelector("b")?.textContent === name).children].map((td) => td.textContent), name);
}

test("rule options explained in Spanish: the lobby, its rules panel and the Lab", async () => {
  const fersLeap = "en su primera jugada, la alferza original puede en cambio saltar dos casillas (a una casilla vacía, sin capturar nunca)";
  const page = await newPage(1280, "es");
  await page.goto(`${BASE}/`);
  await page.waitForSelector('#ruleset option[value="acedrex"]', { state: "attached" });
  await page.selectOption("#ruleset", "acedrex");
  // The lobby's table: option, value, explanation, source (the citation as the file has it).
  const [, , explanation, source] = await optionRow(page, "fers_leap");
  assert.equal(explanation, fersLeap);
  assert.match(source, /^seed 004: /);
  // An option the ruleset file declares (Grant Acedrex's readings) is translated too.
  await page.selectOption("#ruleset", "grant-acedrex");
  assert.equal((await optionRow(page, "unicorn"))[2], "el unicornio (el rinoceronte de Ludii)");
  // The rules panel: `name = value — explanation [source]`.
  await page.selectOption("#ruleset", "acedrex");
  await page.click("#show-rules");
  await page.waitForSelector("#rules-dialog[open] ul.options li");
  const items = await page.$$eval("#rules-dialog ul.options li", (lis) => lis.map((li) => li.textContent));
  const item = items.find((i) => i.startsWith("fers_leap = "));
  assert.ok(item && item.includes(`— ${fersLeap} [seed 004: `), item);
  await page.close();
  // The Lab's options table: option, value, vary over, explanation.
  const lab = await newPage(1280, "es");
  await lab.goto(`${BASE}/lab`);
  await lab.waitForSelector('#ruleset option[value="acedrex"]', { state: "attached" });
  await lab.selectOption("#ruleset", "acedrex");
  assert.equal((await optionRow(lab, "fers_leap"))[3], fersLeap);
  await lab.close();
});

test("the Lab page's dynamic text in Spanish: the readings count, the run's progress and status, the report", async () => {
  const page = await newPage(1280, "es");
  await page.goto(`${BASE}/lab`);
  await page.waitForSelector('#ruleset option[value="fallas"]', { state: "attached" });
  await page.selectOption("#ruleset", "fallas");
  await page.selectOption("#player-0", "random");
  await page.selectOption("#player-1", "random");
  await page.fill("#games", "4");
  await page.fill("#seed", "7");
  assert.equal(await page.textContent("#readings-count"), "1 lectura × 4 partidas = 4 partidas");
  await page.click("#start");
  await page.waitForSelector("#run:not([hidden])");
  await page.waitForFunction(() => document.querySelector("#run-count").textContent.startsWith("4 / 4"), null, POLL);
  await page.waitForSelector("#report-table tbody tr");
  assert.equal(await page.textContent("#run-count"), "4 / 4 partidas (100.0%)");
  assert.match(await page.textContent("#run-title"), /^Serie \S+$/);
  assert.equal(await page.textContent("#run-status"), "terminada");
  assert.match(await page.textContent("#run-what"), /^fallas; jugadores random; 4 partidas por lectura; semilla 7/);
  assert.match(await page.textContent("#report-what"), /^fallas — random( \/ random)? — 4 de 4 partidas jugadas, semilla 7/);
  assert.match(await page.textContent("#findings"), /Una sola lectura: nada que comparar/);
  const labels = await page.$$eval("#report-table tbody th", (ths) => ths.map((t) => t.textContent));
  for (const l of ["partidas", "partidas distintas", "Blancas: puntuación", "tablas", "ramificación", "cobertura del tablero", "ventaja de la salida (quien gana la tirada inicial)", "ficha: jugadas / capturas"]) {
    assert.ok(labels.includes(l), `${l} in ${labels.join(", ")}`);
  }
  // Each way the games ended, in the games' own Spanish words (a falla, or all checkers off).
  const ends = labels.filter((l) => l.startsWith("finales: "));
  assert.ok(ends.length > 0, labels.join(", "));
  for (const e of ends) assert.ok(["finales: falla: no se pudieron jugar todos los dados", "finales: sacó todas sus piezas"].includes(e), e);
  assert.equal(await page.textContent("#report-table thead th:nth-child(2)"), "como está");
  assert.match(await page.textContent("#report-stamp"), /^libro \d+\.\d+\.\d+.*huella de las reglas [0-9a-f]{16}$/);
  await page.waitForSelector("#charts figure[data-chart=outcomes] svg");
  const captions = await page.$$eval("#charts figcaption", (cs) => cs.map((c) => c.textContent));
  assert.ok(captions.includes("Resultados por lectura") && captions.includes("Cómo terminan las partidas, por lectura"), captions.join(", "));
  // The table `libro evaluate` prints stays English, and its label says so.
  assert.match(await page.textContent('[data-i18n="lab.as_printed"]'), /en inglés/);
  // The words inside the charts (the server draws them in the page's language).
  const svg = (name) => page.$eval(`#charts figure[data-chart=${name}] svg`, (s) => s.textContent);
  const outcomes = await svg("outcomes");
  for (const words of ["Resultados por lectura", "ganan blancas", "ganan negras", "sin un único ganador", "% de las partidas", "como está (4 partidas)"]) {
    assert.ok(outcomes.includes(words), `${words} in ${outcomes}`);
  }
  const endsChart = await svg("end-reasons");
  assert.ok(endsChart.includes("Cómo terminan las partidas") && /falla: no se pudieron jugar todos los dados|sacó todas sus piezas/.test(endsChart), endsChart);
  assert.ok((await svg("durations")).includes("medias jugadas"));
  for (const name of ["outcomes", "end-reasons", "durations", "heatmap"]) {
    const text = await svg(name);
    assert.ok(!/ games\)| wins|no single winner|% of games/.test(text), `${name}: ${text}`);
  }
  await shot(page, "i18n-lab-es-1280");
  await page.setViewportSize({ width: 390, height: 844 });
  await noSideScroll(page);
  await shot(page, "i18n-lab-es-390");
  await page.close();
});

test("the language switch: English to Spanish, remembered on the next pages, and back", async () => {
  const page = await newPage(1280, "en");
  await page.goto(`${BASE}/`);
  await page.waitForSelector("#player-0");
  assert.equal(await page.textContent("#create"), "Create game");
  await Promise.all([page.waitForEvent("load"), page.selectOption("#lang", "es")]);
  await page.waitForSelector("#player-0");
  assert.equal(await page.textContent("#create"), "Crear partida");
  // Remembered (a cookie) even though the browser asks for English.
  await page.goto(`${BASE}/lab`);
  await page.waitForSelector("#lang");
  assert.equal(await page.textContent("#new-run h2"), "Nuevo estudio");
  await page.goto(`${BASE}/analysis?ruleset=fallas`);
  await page.waitForFunction(() => document.body.dataset.position, null, POLL);
  assert.equal(await page.textContent("#analyse"), "Analizar");
  assert.equal(await page.textContent("#title"), "Tablero de análisis");
  assert.match(await page.textContent("#turn"), /Toca tirar los dados/);
  await shot(page, "i18n-analysis-es-1280");
  await Promise.all([page.waitForEvent("load"), page.selectOption("#lang", "en")]);
  await page.waitForFunction(() => document.body.dataset.position, null, POLL);
  assert.equal(await page.textContent("#analyse"), "Analyse");
  await page.close();
});
