// The Lab page: set up a study (ruleset, options set and varied, players, games), start it,
// follow its progress, stop and continue it, and read its report and charts.
"use strict";

let RULESETS = [];
const PLAYERS = [["random", t("player.random")], ["greedy", t("player.greedy")], ...[1, 2, 3, 4, 5, 6, 7, 8].map((l) => [`ai:${l}`, t("player.ai_level", { level: l })])];
const LAB = { run: null, timer: null, shownReport: null };

function current() {
  return RULESETS.find((r) => r.name === document.getElementById("ruleset").value);
}

function allowedValues(o) {
  return o.allowed.split("|").map((s) => s.trim()).filter((s) => s && !s.includes(" "));
}

function renderRuleset() {
  const r = current();
  const seats = document.getElementById("seats");
  seats.innerHTML = "";
  r.seats.forEach((name, i) => {
    const sel = el("select", { id: `player-${i}` }, PLAYERS.map(([v, l]) => el("option", { value: v }, l)));
    seats.append(el("label", { class: "seat" }, el("span", { class: `swatch ${seatColour(name)}` }), ` ${seatLabel(name)} `, sel));
  });
  const body = document.querySelector("#options tbody");
  body.innerHTML = "";
  for (const o of r.options) {
    const allowed = allowedValues(o);
    let fixed;
    let vary;
    if (allowed.length > 1) {
      fixed = el("select", { "data-fixed": o.name, "data-default": o.value }, allowed.map((v) => el("option", { value: v }, v)));
      if (!allowed.includes(o.value)) fixed.append(el("option", { value: o.value }, o.value));
      vary = el("span", { class: "vary" }, allowed.map((v) =>
        el("label", {}, el("input", { type: "checkbox", "data-vary": o.name, value: v, onchange: updateReadings }), ` ${v} `)));
    } else {
      fixed = el("input", { "data-fixed": o.name, "data-default": o.value, size: 8 });
      vary = el("input", { "data-vary-text": o.name, size: 12, placeholder: "v1, v2", oninput: updateReadings });
    }
    fixed.value = o.value;
    body.append(el("tr", {}, el("td", {}, el("b", {}, o.name)), el("td", {}, fixed), el("td", {}, vary), el("td", {}, optionText(o))));
  }
  updateReadings();
}

// The options set and varied as the form has them.
function formOptions() {
  const vary = {};
  document.querySelectorAll("[data-vary]:checked").forEach((c) => (vary[c.dataset.vary] ||= []).push(c.value));
  document.querySelectorAll("[data-vary-text]").forEach((i) => {
    const values = i.value.split(",").map((s) => s.trim()).filter((s) => s);
    if (values.length) vary[i.dataset.varyText] = values;
  });
  const options = {};
  document.querySelectorAll("[data-fixed]").forEach((i) => {
    const name = i.dataset.fixed;
    i.disabled = name in vary;
    if (!(name in vary) && i.value.trim() !== i.dataset.default) options[name] = i.value.trim();
  });
  return { options, vary: Object.entries(vary).map(([option, values]) => ({ option, values })) };
}

function updateReadings() {
  const { vary } = formOptions();
  const n = vary.reduce((k, v) => k * v.values.length, 1);
  const games = Number(document.getElementById("games").value) || 0;
  document.getElementById("readings-count").textContent =
    t(n === 1 ? "lab.readings_one" : "lab.readings", { n, games, total: n * games });
}

async function start() {
  const r = current();
  const err = document.getElementById("start-error");
  err.textContent = "";
  const { options, vary } = formOptions();
  const players = r.seats.map((_, i) => document.getElementById(`player-${i}`).value);
  const num = (id) => Number(document.getElementById(id).value);
  const body = { ruleset: r.name, options, vary, players: players.every((p) => p === players[0]) ? [players[0]] : players,
    games: num("games"), seed: num("seed"), max_plies: num("max-plies"), opening_moves: num("opening-moves") };
  try {
    const run = await api("/api/lab/runs", body);
    location.hash = `run=${run.id}`;
    showRun(run);
    loadRuns();
  } catch (e) {
    err.textContent = e.message;
  }
}

function describeStudy(s) {
  const set = s.options.map(([k, v]) => `${k}=${v}`).join(", ");
  const varied = s.vary.map(([k, vs]) => `${k} ∈ {${vs.join(", ")}}`).join(", ");
  return t("lab.study", { ruleset: s.ruleset, players: s.players.join(" / "), games: s.games, seed: s.seed, cap: s.max_plies }) +
    (s.opening_moves ? t("lab.study_openings", { n: s.opening_moves }) : "") +
    (set ? t("lab.study_set", { set }) : "") + (varied ? t("lab.study_varied", { varied }) : "");
}

function showRun(run) {
  LAB.run = run;
  document.getElementById("run").hidden = false;
  document.getElementById("run-title").textContent = t("lab.run", { id: run.id });
  document.getElementById("run-what").textContent = describeStudy(run.study);
  const bar = document.getElementById("run-progress");
  bar.max = run.games_total;
  bar.value = run.games_done;
  document.getElementById("run-status").textContent = word("lab.status", run.status);
  document.getElementById("run-status").className = `status ${run.status}`;
  const pct = run.games_total ? (100 * run.games_done / run.games_total).toFixed(1) : "0";
  document.getElementById("run-count").textContent = t("lab.count", { done: run.games_done, total: run.games_total, pct });
  const s = run.session;
  document.getElementById("run-speed").textContent = s
    ? t(run.threads === 1 ? "lab.speed_one" : "lab.speed", { rate: s.games_per_second.toFixed(1), played: s.played, seconds: s.seconds.toFixed(1), threads: run.threads })
    : "";
  document.getElementById("run-message").textContent = run.stopping
    ? t("lab.stopping")
    : run.message || "";
  const running = run.status === "running";
  document.getElementById("stop").hidden = !running || run.stopping;
  document.getElementById("continue").hidden = running;
  document.getElementById("more-games").parentElement.hidden = running;
  const more = document.getElementById("more-games");
  if (!more.value || Number(more.value) < run.study.games) more.value = run.study.games;
  document.getElementById("results-link").href = `/api/lab/runs/${run.id}/results`;
  clearTimeout(LAB.timer);
  if (running) {
    LAB.timer = setTimeout(() => poll(run.id), 500);
  } else if (LAB.shownReport !== `${run.id}:${run.games_done}`) {
    loadReport(run.id);
  }
  // The list of runs follows the run shown (a short run may finish before the first poll).
  const listed = document.querySelector(`#runs li[data-run="${run.id}"] .status`);
  if (!running && (!listed || listed.textContent !== run.status)) loadRuns();
}

async function poll(id) {
  try {
    const run = await api(`/api/lab/runs/${id}`);
    if (LAB.run && LAB.run.id === id) {
      showRun(run);
      if (run.status !== "running") loadRuns();
    }
  } catch (e) {
    document.getElementById("run-error").textContent = e.message;
  }
}

async function runAction(path, body) {
  const err = document.getElementById("run-error");
  err.textContent = "";
  try {
    showRun(await api(`/api/lab/runs/${LAB.run.id}/${path}`, body));
    loadRuns();
  } catch (e) {
    err.textContent = e.message;
  }
}

// Half an interval's width; an end the data cannot bound comes as null (∞).
function margin(e, scale, digits) {
  return e.low === null || e.high === null ? "∞" : (scale * (e.high - e.low) / 2).toFixed(digits);
}

function pct(e) {
  return `${(100 * e.value).toFixed(1)}% ± ${margin(e, 100, 1)}`;
}

function plain(e, digits) {
  return `${e.value.toFixed(digits)} ± ${margin(e, 1, digits)}`;
}

function title(s) {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

// The report as a table: a column per reading, a row per figure, as `libro evaluate` prints it.
function reportTable(rep) {
  const rs = rep.readings;
  const rows = [];
  const row = (label, f) => rows.push([label, rs.map(f)]);
  row(t("lab.row_games"), (r) => String(r.games));
  row(t("lab.row_distinct"), (r) => String(r.distinct) + (r.distinct < r.games ? " ⚠" : ""));
  rep.seats.forEach((s, i) => row(t("lab.row_score", { seat: title(seatLabel(s)) }), (r) => pct(r.seats[i].score)));
  rep.seats.forEach((s, i) => row(t("lab.row_wins", { seat: title(seatLabel(s)) }), (r) => pct(r.seats[i].wins)));
  const first = rs.find((r) => r.first_mover);
  if (first) {
    row(t("lab.row_first_move", { seat: seatLabel(first.first_mover) }), (r) => r.first_move_advantage
      ? t("lab.points", { value: `${r.first_move_advantage.value >= 0 ? "+" : ""}${(100 * r.first_move_advantage.value).toFixed(1)}`, margin: margin(r.first_move_advantage, 100, 1) }) : "");
  }
  row(t("lab.row_draws"), (r) => pct(r.draws));
  row(t("lab.row_decisive"), (r) => pct(r.decisive));
  const reasons = [...new Set(rs.flatMap((r) => r.end_reasons.map((x) => x.reason)))].sort();
  for (const reason of reasons) {
    row(t("lab.row_ends", { reason: word("reason", reason) }), (r) => {
      const x = r.end_reasons.find((y) => y.reason === reason);
      return x ? pct(x.share) : "0.0%";
    });
  }
  row(t("lab.row_plies_mean"), (r) => plain(r.plies.mean, 1));
  row(t("lab.row_plies_median"), (r) => `${r.plies.median.toFixed(0)} [${r.plies.q1.toFixed(0)}–${r.plies.q3.toFixed(0)}]`);
  row(t("lab.row_plies_sd"), (r) => `${r.plies.sd.toFixed(0)}, ${r.plies.min.toFixed(0)}–${r.plies.max.toFixed(0)}`);
  row(t("lab.row_branching"), (r) => plain(r.branching, 2));
  if (rs.some((r) => r.heatmap.length)) {
    row(t("lab.row_coverage"), (r) => pct(r.coverage));
    row(t("lab.row_lead"), (r) => plain(r.lead_changes, 1));
    const pieces = [...new Set(rs.flatMap((r) => r.pieces.map((p) => p.piece)))];
    for (const piece of pieces) {
      row(t("lab.row_piece", { piece: word("piece", piece) }), (r) => {
        const p = r.pieces.find((x) => x.piece === piece);
        return p ? `${p.moves.value.toFixed(1)} / ${p.captures.value.toFixed(2)} (${(100 * p.share).toFixed(0)}%)` : "";
      });
    }
  }
  if (rs.some((r) => r.stakes)) {
    rep.seats.forEach((s, i) => {
      row(t("lab.row_paid", { seat: title(seatLabel(s)) }), (r) => r.stakes ? `${r.stakes[i].paid.value.toFixed(1)} / ${r.stakes[i].won.value.toFixed(1)}` : "");
      row(t("lab.row_balance", { seat: title(seatLabel(s)) }), (r) => r.stakes ? `${r.stakes[i].balance.value >= 0 ? "+" : ""}${plain(r.stakes[i].balance, 2)}` : "");
    });
  }
  const table = document.getElementById("report-table");
  table.innerHTML = "";
  table.append(
    el("thead", {}, el("tr", {}, el("th", {}, ""), rs.map((r) => el("th", {}, r.key || t("lab.as_set"))))),
    el("tbody", {}, rows.map(([label, cells]) => el("tr", {}, el("th", {}, label), cells.map((c) => el("td", {}, c))))),
  );
}

// The largest difference each option's comparisons could have missed (80% power, 5%).
function detectableText(rep) {
  const main = [`${rep.seats[0]} score`, "draws", "plies"];
  const parts = [];
  for (const option of [...new Set(rep.tests.map((t) => t.option))]) {
    const bits = [];
    for (const metric of main) {
      const ds = rep.tests.filter((t) => t.option === option && t.metric === metric).map((t) => t.detectable);
      if (!ds.length || ds.some((d) => d === null)) continue;
      const worst = Math.max(...ds);
      bits.push(metric === "plies" ? `length ±${worst.toFixed(0)} plies` : `${metric} ±${(100 * worst).toFixed(0)} points`);
    }
    if (bits.length) parts.push(`${option}: ${bits.join(", ")}`);
  }
  return parts.length ? t("lab.detectable", { parts: parts.join("; ") }) : "";
}

async function loadReport(id) {
  try {
    const res = await api(`/api/lab/runs/${id}/report`);
    if (!LAB.run || LAB.run.id !== id) return;
    LAB.shownReport = `${id}:${res.games_done}`;
    const rep = res.report;
    document.getElementById("report").hidden = false;
    document.getElementById("report-what").textContent =
      t("lab.report_what", { ruleset: rep.ruleset, players: rep.players.join(" / "), done: res.games_done, total: res.games_total, seed: rep.seed, openings: rep.study.opening_moves });
    const rules = [...new Set(rep.stamp.rules.map(([, d]) => d))];
    document.getElementById("report-stamp").textContent =
      `libro ${rep.stamp.libro}${rep.stamp.commit ? ` (${rep.stamp.commit})` : ""}; ${t("lab.rules_digest")} ${rules.length === 1 ? rules[0] : rep.stamp.rules.map(([k, d]) => `${k || t("lab.as_set")}: ${d}`).join("; ")}`;
    document.getElementById("report-methods").textContent = rep.methods;
    const warnings = document.getElementById("report-warnings");
    warnings.innerHTML = "";
    for (const w of rep.warnings) warnings.append(el("li", {}, w));
    warnings.hidden = !rep.warnings.length;
    reportTable(rep);
    const findings = document.getElementById("findings");
    findings.innerHTML = "";
    if (rep.readings.length < 2) {
      findings.append(el("li", { class: "hint" }, t("lab.one_reading")));
    } else if (!rep.comparisons) {
      findings.append(el("li", {}, t("lab.no_comparison")));
    } else if (!rep.findings.length) {
      findings.append(el("li", {}, t("lab.no_difference", { n: rep.comparisons })));
    } else {
      findings.append(el("li", { class: "hint" }, t("lab.significant", { k: rep.findings.length, n: rep.comparisons })));
      for (const f of rep.findings) findings.append(el("li", {}, f.text));
    }
    const detectable = detectableText(rep);
    if (detectable) findings.append(el("li", { class: "hint" }, detectable));
    document.getElementById("report-text").textContent = res.table;
    const charts = document.getElementById("charts");
    charts.innerHTML = "";
    for (const c of res.charts) {
      const fig = el("figure", { class: "chart", "data-chart": c.name }, el("figcaption", {}, CATALOGUES[LANG][`lab.chart.${c.name}`] ?? c.title));
      // The SVG comes from the server's own chart code (plotters) over catalog-checked names.
      fig.insertAdjacentHTML("beforeend", c.svg);
      charts.append(fig);
    }
  } catch (e) {
    document.getElementById("run-error").textContent = e.message;
  }
}

async function openRun(id) {
  document.getElementById("run-error").textContent = "";
  document.getElementById("report").hidden = true;
  LAB.shownReport = null;
  try {
    showRun(await api(`/api/lab/runs/${id}`));
  } catch (e) {
    document.getElementById("run").hidden = false;
    document.getElementById("run-error").textContent = e.message;
  }
}

async function loadRuns() {
  // Only the latest call draws: an earlier answer arriving late must not undo a later one.
  const call = (LAB.runsCall = (LAB.runsCall || 0) + 1);
  const runs = await api("/api/lab/runs");
  if (call !== LAB.runsCall) return;
  const list = document.getElementById("runs");
  list.innerHTML = "";
  for (const r of runs) {
    if (!r.study) {
      list.append(el("li", {}, `Run ${r.id}: ${r.status} — ${r.message}`));
      continue;
    }
    const n = r.readings.length;
    list.append(el("li", { "data-run": r.id },
      el("a", { href: `#run=${r.id}` }, t("lab.run", { id: r.id })),
      t(n === 1 ? "lab.run_line_one" : "lab.run_line", { ruleset: r.study.ruleset, players: r.study.players.join(" / "), n, done: r.games_done, total: r.games_total }),
      el("span", { class: `status ${r.status}` }, word("lab.status", r.status)),
      r.message ? el("span", { class: "hint" }, ` (${r.message})`) : null));
  }
  if (!list.children.length) list.append(el("li", { class: "hint" }, t("lab.none_yet")));
}

function fromHash() {
  const m = /run=(\d+)/.exec(location.hash);
  if (m) openRun(Number(m[1]));
}

async function main() {
  RULESETS = await api("/api/rulesets");
  const sel = document.getElementById("ruleset");
  for (const r of RULESETS) sel.append(el("option", { value: r.name }, `${r.title} (${r.name})`));
  sel.addEventListener("change", renderRuleset);
  document.getElementById("games").addEventListener("input", updateReadings);
  document.getElementById("show-rules").addEventListener("click", () => showRules(sel.value));
  document.getElementById("start").addEventListener("click", start);
  document.getElementById("stop").addEventListener("click", () => runAction("stop", {}));
  document.getElementById("continue").addEventListener("click", () => {
    const games = Number(document.getElementById("more-games").value);
    runAction("continue", games > LAB.run.study.games ? { games } : {});
  });
  document.getElementById("refresh-report").addEventListener("click", () => LAB.run && loadReport(LAB.run.id));
  window.addEventListener("hashchange", fromHash);
  renderRuleset();
  loadRuns();
  fromHash();
}

main().catch((e) => (document.getElementById("start-error").textContent = e.message));
