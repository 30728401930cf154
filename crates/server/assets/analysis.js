// The analysis board: any position of any ruleset, moves played for whichever side is to
// move (the server checks each one), stepping back and forth, and the server's engine
// analysing the position shown over a WebSocket.
"use strict";

const A = {
  ruleset: null,
  options: {},
  info: null, // the ruleset's description (pieces, seats)
  states: [], // [{st, played}]: the position set up, then one per move played
  idx: 0, // the state shown
  sel: null, // chess: the selected square
  flip: false,
  ws: null,
  job: 0, // the analysis whose reports are shown
  game: null, // the game this position came from, if any
  edit: null, // the board editor: {squares: {sq: {seat, pieces}}, toMove, pick, st, error, asked}
};

function cur() {
  return A.states[A.idx].st;
}
function seatKey(i) {
  return (cur().seats || [])[i] ?? `seat ${i}`;
}
/// A seat's name as people read it, in the page's language.
function seatName(i) {
  return seatLabel(seatKey(i));
}
function toast(msg) {
  const t = document.getElementById("toast");
  t.textContent = msg;
  t.hidden = false;
  clearTimeout(toast.timer);
  toast.timer = setTimeout(() => (t.hidden = true), 6000);
}
function optionsText(o) {
  return Object.entries(o).map(([k, v]) => `${k}=${v}`).join(",");
}

/// The position `position` (the start if none), after `move` if given, as the server sees it.
async function fetchState(position, move) {
  const p = new URLSearchParams({ ruleset: A.ruleset });
  if (Object.keys(A.options).length) p.set("options", optionsText(A.options));
  if (position) p.set("position", position);
  if (move) p.set("move", move);
  return api(`/api/analysis/state?${p}`);
}

function updateUrl() {
  const p = new URLSearchParams({ ruleset: A.ruleset });
  if (Object.keys(A.options).length) p.set("options", optionsText(A.options));
  p.set("position", cur().position);
  history.replaceState(null, "", `/analysis?${p}`);
}

/// Starts afresh on `position` of ruleset `name`; a position that cannot be read is named
/// under the position box and the board stays as it was.
async function setUp(name, options, position) {
  const errBox = document.getElementById("position-error");
  const before = { ruleset: A.ruleset, options: A.options };
  A.ruleset = name;
  A.options = options || {};
  try {
    const st = await fetchState(position);
    if (!A.info || A.info.name !== name) A.info = await api(`/api/rulesets/${encodeURIComponent(name)}`);
    A.states = [{ st, played: null }];
    A.idx = 0;
    A.sel = null;
    A.edit = null;
    errBox.textContent = "";
    document.getElementById("ruleset").value = name;
    stopEngine();
    clearEngine();
    updateUrl();
    render();
    return true;
  } catch (e) {
    A.ruleset = before.ruleset;
    A.options = before.options;
    errBox.textContent = e.message;
    if (A.ruleset) document.getElementById("ruleset").value = A.ruleset;
    return false;
  }
}

async function playMove(text) {
  if (A.edit) return;
  try {
    const st = await fetchState(cur().position, text);
    A.states.length = A.idx + 1;
    A.states.push({ st, played: st.played });
    A.idx += 1;
    A.sel = null;
    stopEngine();
    clearEngine();
    updateUrl();
    render();
  } catch (e) {
    toast(e.message);
  }
}

function go(i) {
  if (A.edit) return;
  if (i < 0 || i >= A.states.length || i === A.idx) return;
  A.idx = i;
  A.sel = null;
  stopEngine();
  clearEngine();
  updateUrl();
  render();
}

// ---------- the board ----------

const FILES = "abcdefghijklmnop";
function parseChessMove(text) {
  const m = /^([A-Z])?([a-p](?:1[0-6]|[1-9]))([a-p](?:1[0-6]|[1-9]))$/.exec(text);
  return m ? { text, piece: m[1] || null, from: m[2], to: m[3] } : null;
}
function pieceName(letter) {
  const p = ((A.info && A.info.pieces) || []).find((x) => x.letter === letter);
  return p ? p.name : letter;
}

function renderChess(view) {
  const board = document.getElementById("board");
  board.className = A.edit ? "chess editing" : "chess";
  board.innerHTML = "";
  const st = cur();
  const bySq = {};
  for (const s of view.squares) bySq[s.sq] = s;
  const legal = A.edit ? [] : st.legal.map(parseChessMove).filter(Boolean);
  const froms = new Set(legal.map((m) => m.from));
  const targets = new Set(A.sel ? legal.filter((m) => m.from === A.sel).map((m) => m.to) : []);
  const last = !A.edit && A.states[A.idx].played ? parseChessMove(A.states[A.idx].played.text) : null;
  const files = view.files, ranks = view.ranks;
  const grid = el("div", { class: "grid" });
  grid.style.setProperty("--files", files);
  grid.style.setProperty("--ranks", ranks);
  for (let row = 0; row < ranks; row++) {
    for (let col = 0; col < files; col++) {
      const file = A.flip ? files - 1 - col : col;
      const rank = A.flip ? row : ranks - 1 - row;
      const sq = FILES[file] + (rank + 1);
      const cls = ["sq", (rank + file) % 2 === 0 ? "dark" : "light"];
      if (last && (last.from === sq || last.to === sq)) cls.push("last");
      if (view.check.includes(sq)) cls.push("check");
      if (A.sel === sq) cls.push("selected");
      if (targets.has(sq)) cls.push(bySq[sq] ? "target capture" : "target");
      if (!A.sel && froms.has(sq)) cls.push("movable");
      const cell = el("div", { class: cls.join(" "), "data-sq": sq });
      const occ = bySq[sq];
      if (occ) {
        const colour = seatColour(seatKey(occ.seat));
        occ.pieces.forEach((l, i) => {
          const wrap = el("div", { class: occ.pieces.length > 1 ? `stack s${i}` : "single" });
          wrap.innerHTML = pieceSvg(pieceName(l), colour);
          cell.append(wrap);
        });
        cell.title = `${seatName(occ.seat)} ${occ.pieces.map((l) => word("piece", pieceName(l))).join(t("game.and"))}`;
      }
      if (col === 0) cell.append(el("span", { class: "coord rank" }, rank + 1));
      if (row === ranks - 1) cell.append(el("span", { class: "coord file" }, FILES[file]));
      grid.append(cell);
    }
  }
  board.append(grid);
}

function chessClick(sq) {
  const legal = cur().legal.map(parseChessMove).filter(Boolean);
  if (A.sel && sq !== A.sel) {
    const moves = legal.filter((m) => m.from === A.sel && m.to === sq);
    if (moves.length === 1) return playMove(moves[0].text);
    if (moves.length > 1) {
      // Two pieces of a shared square can reach it: the list says which.
      document.getElementById("move-select").value = moves[0].text;
      toast(t("analysis.choose_piece"));
      return;
    }
  }
  A.sel = legal.some((m) => m.from === sq) && A.sel !== sq ? sq : null;
  render();
}

/// A tables board: points 1-6 bottom right round to 19-24 top right (the first seat's
/// numbering), the bar, the borne-off trays and the dice.
function renderTables(v) {
  const board = document.getElementById("board");
  board.className = "tables";
  board.innerHTML = "";
  const W = 760, H = 440, PW = 46, top = 20, bottom = H - 20, tri = 170;
  const turned = A.flip;
  const root = svg("svg", { viewBox: `0 0 ${W} ${H}`, class: "tables-board" });
  root.append(svg("rect", { x: 0, y: 0, width: W, height: H, rx: 10, class: "frame" }));
  root.append(svg("rect", { x: 14, y: 14, width: 604, height: H - 28, class: "felt" }));
  for (let p = 1; p <= 24; p++) {
    const q = turned ? 25 - p : p;
    const col = q <= 12 ? 12 - q : q - 13;
    const up = q > 12;
    const x = 20 + col * PW + (col >= 6 ? 40 : 0);
    const y0 = up ? top : bottom, y1 = up ? top + tri : bottom - tri;
    const g = svg("g", { "data-point": String(p), class: `point ${p % 2 ? "odd" : "even"}` });
    g.append(svg("polygon", { points: `${x + 2},${y0} ${x + PW - 2},${y0} ${x + PW / 2},${y1}`, class: "tri" }));
    g.append(svg("text", { x: x + PW / 2, y: up ? 12 : H - 5, class: "num" }, String(p)));
    const occ = v.points[p - 1];
    if (occ) drawCheckers(g, occ, (v.stacked || []).includes(p), { x, up, top, bottom, PW }, (s) => seatColour(seatKey(s)));
    root.append(g);
  }
  const barX = 20 + 6 * PW;
  const barG = svg("g", { "data-point": "bar", class: "bar" });
  barG.append(svg("rect", { x: barX, y: 14, width: 40, height: H - 28, class: "barrect" }));
  [0, 1].forEach((seat) => {
    const n = v.bar[seat];
    const low = (seat === 0) !== turned;
    if (n > 0) {
      barG.append(svg("circle", { cx: barX + 20, cy: low ? H / 2 + 40 : H / 2 - 40, r: 17, class: `checker ${seatColour(seatKey(seat))}` }));
      barG.append(svg("text", { x: barX + 20, y: low ? H / 2 + 46 : H / 2 - 34, class: `count ${seatColour(seatKey(seat))}` }, String(n)));
    }
  });
  root.append(barG);
  const offG = svg("g", { "data-point": "off", class: "off" });
  offG.append(svg("rect", { x: 628, y: 14, width: 118, height: H - 28, class: "tray" }));
  [0, 1].forEach((seat) => {
    const low = (seat === 0) !== turned;
    offG.append(svg("text", { x: 687, y: low ? H / 2 + 30 : H / 2 - 20, class: "label" }, `${seatName(seat)}: ${v.off[seat]}`));
  });
  root.append(offG);
  (v.dice || []).forEach((d, i) => root.append(drawDie(d, i, H, `die ${seatColour(seatKey(v.seat ?? 0))}`)));
  board.append(root);
}

// ---------- the panels ----------

function resultText(r) {
  const who = r.winner !== null && r.winner !== undefined ? t("result.wins", { seat: seatName(r.winner) }) : t("result.drawn");
  return t("result.game_over", { who, why: reasonText(r) });
}

function renderStatus() {
  const st = cur();
  const box = document.getElementById("status");
  box.innerHTML = "";
  box.append(el("p", { class: "title" }, el("b", {}, st.title)));
  if (st.result) box.append(el("p", { class: "result", id: "result" }, resultText(st.result)));
  else if (st.turn.kind === "seat") {
    box.append(el("p", { class: "turn", id: "turn" }, el("span", { class: `swatch ${seatColour(seatKey(st.turn.seat))}` }), ` ${t("game.to_move", { seat: seatName(st.turn.seat) })}`));
  } else box.append(el("p", { class: "turn", id: "turn" }, t("analysis.dice_to_roll")));
  if (st.view.board === "grid" && st.view.check.length) box.append(el("p", { class: "check-note" }, t("game.check")));
  if (st.forced) box.append(el("p", { class: "forced-note" }, st.forced));
}

function renderPlay() {
  const st = cur();
  const select = document.getElementById("move-select");
  const keep = select.value;
  select.innerHTML = "";
  const chance = st.turn.kind === "chance";
  const items = chance
    ? st.chance.map((c) => [c.outcome, `${c.outcome} (${(c.probability * 100).toFixed(1)}%)`])
    : st.legal.map((m) => [m, m]);
  for (const [value, label] of items) select.append(el("option", { value }, label));
  if (items.some(([v]) => v === keep)) select.value = keep;
  document.getElementById("play").textContent = chance ? t("analysis.roll") : t("analysis.play");
  document.getElementById("play").disabled = !items.length;
  document.getElementById("play-hint").textContent = t(chance ? "analysis.hint_roll" : st.view.board === "grid" ? "analysis.hint_grid" : "analysis.hint_track");
}

function renderLine() {
  const box = document.getElementById("line");
  box.innerHTML = "";
  A.states.forEach((s, i) => {
    if (i === 0) return;
    box.append(el("li", { class: `mv ${i === A.idx ? "current" : ""}`, "data-index": i, onclick: () => go(i) }, s.played.san));
  });
  document.getElementById("back").disabled = A.idx === 0;
  document.getElementById("forward").disabled = A.idx >= A.states.length - 1;
}

function render() {
  if (!A.states.length) return;
  const st = cur();
  document.body.dataset.board = st.view.board;
  document.body.dataset.ruleset = st.ruleset;
  document.body.dataset.position = st.position;
  if (A.edit) renderChess(editView());
  else if (st.view.board === "grid") renderChess(st.view);
  else renderTables(st.view);
  renderEditor();
  renderStatus();
  renderPlay();
  renderLine();
  const pos = document.getElementById("position");
  if (document.activeElement !== pos) pos.value = st.position;
  document.getElementById("analyse").disabled = st.turn.kind === "over" || !!A.edit;
  document.getElementById("play").disabled ||= !!A.edit;
}

// ---------- the board editor ----------

/// The editor's board as a grid view.
function editView() {
  const v = cur().view;
  const squares = Object.entries(A.edit.squares).map(([sq, o]) => ({ sq, seat: o.seat, pieces: o.pieces }));
  return { files: v.files, ranks: v.ranks, squares, check: [] };
}

/// Starts editing from the position shown.
function startEditing() {
  const squares = {};
  for (const s of cur().view.squares) squares[s.sq] = { seat: s.seat, pieces: s.pieces.slice() };
  const st = cur();
  const toMove = st.turn.kind === "seat" ? st.turn.seat : st.view.to_move || 0;
  const first = (A.info.pieces || [])[0];
  A.edit = { squares, toMove, pick: first ? { seat: 0, piece: first.letter } : "erase", st, error: null, asked: 0 };
  A.sel = null;
  stopEngine();
  clearEngine();
  render();
}

/// Leaves the editor, the analysis going on from the position set up; a position the rules
/// refuse keeps the editor open, saying why.
async function stopEditing() {
  const asked = await checkPlacement();
  if (!asked || !A.edit) return;
  if (A.edit.error) return toast(t("edit.fix_first", { why: A.edit.error }));
  const st = A.edit.st;
  A.edit = null;
  A.states = [{ st, played: null }];
  A.idx = 0;
  updateUrl();
  render();
}

/// Sends the placed pieces to the server, which makes the position or names the problem.
async function checkPlacement() {
  if (!A.edit) return false;
  const ask = ++A.edit.asked;
  const pieces = [];
  for (const [square, o] of Object.entries(A.edit.squares)) for (const piece of o.pieces) pieces.push({ square, seat: o.seat, piece });
  const body = { ruleset: A.ruleset, options: A.options, pieces, to_move: A.edit.toMove };
  const res = await fetch("/api/analysis/setup", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
  const data = await res.json().catch(() => ({ error: `HTTP ${res.status}` }));
  if (!A.edit || ask !== A.edit.asked) return false; // a later change asked again
  if (res.ok) {
    A.edit.st = data;
    A.edit.error = null;
  } else {
    const kind = data.problem ? t(`setup.${data.problem}`) : null;
    A.edit.error = kind && kind !== `setup.${data.problem}` ? `${kind} (${data.error})` : errorText(data) || `HTTP ${res.status}`;
  }
  renderEditor();
  return true;
}

function editClick(sq) {
  const e = A.edit;
  const here = e.squares[sq];
  if (e.pick === "erase") delete e.squares[sq];
  else if (here && here.seat === e.pick.seat && here.pieces.length === 1 && here.pieces[0] === e.pick.piece) delete e.squares[sq];
  else e.squares[sq] = { seat: e.pick.seat, pieces: [e.pick.piece] };
  render();
  checkPlacement();
}

function renderEditor() {
  const grid = cur().view.board === "grid";
  document.getElementById("edit-box").hidden = !grid;
  const editor = document.getElementById("editor");
  const button = document.getElementById("edit");
  document.body.dataset.editing = A.edit ? "yes" : "";
  editor.hidden = !A.edit;
  document.getElementById("play-box").hidden = !!A.edit;
  button.textContent = t(A.edit ? "edit.done" : "edit.start_editing");
  if (!A.edit) {
    document.getElementById("edit-hint").textContent = t("edit.hint");
    return;
  }
  document.getElementById("edit-hint").textContent = t("edit.placing");
  const palette = document.getElementById("palette");
  palette.innerHTML = "";
  const seats = cur().seats || [];
  seats.forEach((key, seat) => {
    const row = el("div", { class: "palette-row" });
    for (const p of A.info.pieces || []) {
      const picked = A.edit.pick !== "erase" && A.edit.pick.seat === seat && A.edit.pick.piece === p.letter;
      const b = el("button", { type: "button", class: picked ? "piece-pick picked" : "piece-pick", "data-seat": seat, "data-piece": p.letter, title: t("edit.piece_title", { seat: seatName(seat), piece: word("piece", p.name) }), "aria-pressed": picked ? "true" : "false" });
      b.innerHTML = pieceSvg(p.name, seatColour(key));
      b.addEventListener("click", () => { A.edit.pick = { seat, piece: p.letter }; renderEditor(); });
      row.append(b);
    }
    palette.append(row);
  });
  const erasing = A.edit.pick === "erase";
  const eraser = el("button", { type: "button", id: "erase", class: erasing ? "piece-pick picked" : "piece-pick", "aria-pressed": erasing ? "true" : "false" }, t("edit.erase"));
  eraser.addEventListener("click", () => { A.edit.pick = "erase"; renderEditor(); });
  palette.append(eraser);
  const toMove = document.getElementById("edit-to-move");
  toMove.innerHTML = "";
  seats.forEach((_, seat) => toMove.append(el("option", { value: seat }, seatName(seat))));
  toMove.value = String(A.edit.toMove);
  const status = document.getElementById("edit-status");
  const error = document.getElementById("edit-error");
  status.textContent = A.edit.error ? "" : t("edit.valid", { position: A.edit.st.position });
  error.textContent = A.edit.error ? t("edit.invalid", { why: A.edit.error }) : "";
  document.body.dataset.editPosition = A.edit.error ? "" : A.edit.st.position;
  document.body.dataset.editError = A.edit.error ? "yes" : "";
}

/// The start position's pieces, for the editor.
async function editFromStart() {
  const st = await fetchState(null);
  A.edit.squares = {};
  for (const s of st.view.squares) A.edit.squares[s.sq] = { seat: s.seat, pieces: s.pieces.slice() };
  A.edit.toMove = st.turn.kind === "seat" ? st.turn.seat : 0;
  render();
  checkPlacement();
}

// ---------- the engine ----------

/// A score from the side to move's view: mate in n, an equity, or pawns.
function scoreText(m) {
  if (m.score && m.score.mate !== undefined) return m.score.mate > 0 ? t("engine.mate_in", { n: m.score.mate }) : t("engine.mated_in", { n: -m.score.mate });
  if (m.equity !== null && m.equity !== undefined) return t("engine.equity", { value: `${m.equity >= 0 ? "+" : ""}${m.equity.toFixed(3)}` });
  const cp = m.score ? m.score.cp : 0;
  return `${cp >= 0 ? "+" : ""}${(cp / 100).toFixed(2)}`;
}

function clearEngine() {
  document.getElementById("engine-lines").innerHTML = "";
  document.getElementById("rolls").innerHTML = "";
  document.getElementById("rolls-box").hidden = true;
  document.getElementById("engine-status").textContent = t("engine.press");
  document.body.dataset.engine = "";
}

function stopEngine() {
  if (A.ws && A.ws.readyState === WebSocket.OPEN && A.job) A.ws.send(JSON.stringify({ type: "stop" }));
  A.job = 0;
  document.getElementById("stop").hidden = true;
}

function engineSocket() {
  return new Promise((resolve, reject) => {
    if (A.ws && A.ws.readyState === WebSocket.OPEN) return resolve(A.ws);
    const proto = location.protocol === "https:" ? "wss" : "ws";
    const ws = new WebSocket(`${proto}://${location.host}/api/analysis/ws`);
    ws.onopen = () => resolve(ws);
    ws.onerror = () => reject(new Error(t("engine.unreachable")));
    ws.onmessage = (e) => onEngine(JSON.parse(e.data));
    ws.onclose = () => {
      if (A.ws === ws) A.ws = null;
    };
    A.ws = ws;
  });
}

async function analyse() {
  clearEngine();
  try {
    const ws = await engineSocket();
    A.job = -1; // the next `start` is ours
    ws.send(JSON.stringify({ type: "analyse", ruleset: A.ruleset, options: A.options, position: cur().position }));
    document.getElementById("engine-status").textContent = t("engine.waiting");
  } catch (e) {
    document.getElementById("engine-status").textContent = e.message;
  }
}

function onEngine(m) {
  const status = document.getElementById("engine-status");
  if (m.type === "start") {
    if (A.job !== -1) return;
    A.job = m.job;
    document.getElementById("stop").hidden = false;
    status.textContent = t(m.kind === "rolls" ? "engine.analysing_rolls" : "engine.analysing");
    document.body.dataset.engine = "running";
    return;
  }
  if (m.type === "error" && (m.job === undefined || m.job === A.job || A.job === -1)) {
    status.textContent = m.message;
    status.className = "error";
    document.getElementById("stop").hidden = true;
    document.body.dataset.engine = "error";
    return;
  }
  if (m.job !== A.job) return;
  status.className = "hint";
  if (m.type === "line") {
    const table = document.getElementById("engine-lines");
    if (!table.children.length) table.append(el("tr", {}, el("th", {}, t("engine.depth")), el("th", {}, t("engine.value")), el("th", {}, t("engine.best_line"))));
    const mover = cur().turn.kind === "seat" ? seatName(cur().turn.seat) : "";
    const row = el("tr", { class: "line", "data-depth": m.depth }, el("td", {}, String(m.depth)), el("td", { class: "value" }, scoreText(m)), el("td", { class: "pv" }, m.san.join(" ")));
    table.children[0].after(row);
    while (table.children.length > 9) table.lastChild.remove();
    status.textContent = t("engine.status", { depth: m.depth, nodes: m.nodes.toLocaleString(LANG), seconds: (m.time_ms / 1000).toFixed(1), seat: mover });
    document.body.dataset.depth = m.depth;
  } else if (m.type === "rolls") {
    document.getElementById("rolls-box").hidden = false;
    const seat = m.seat !== null && m.seat !== undefined ? seatName(m.seat) : t("engine.on_roll");
    const eq = m.equity !== null && m.equity !== undefined ? t("engine.equity_for", { value: `${m.equity >= 0 ? "+" : ""}${m.equity.toFixed(3)}`, seat }) : "";
    document.getElementById("rolls-summary").textContent = t("engine.rolls_summary", { depth: m.depth, equity: eq, fallas: m.falla_weight, total: m.total, percent: (m.falla_probability * 100).toFixed(1) });
    const table = document.getElementById("rolls");
    table.innerHTML = "";
    table.append(el("tr", {}, ...["roll", "odds", "plays", "best_play", "equity_head"].map((h) => el("th", {}, t(`engine.${h}`)))));
    for (const r of m.rolls) {
      table.append(el("tr", { class: r.falla ? "falla" : "", "data-roll": r.roll },
        el("td", {}, r.roll),
        el("td", {}, `${r.weight}/${m.total}`),
        el("td", {}, r.falla ? t("engine.falla") : String(r.plays)),
        el("td", {}, r.best_san || (r.falla ? "—" : "")),
        el("td", {}, r.equity !== null && r.equity !== undefined ? r.equity.toFixed(3) : "")));
    }
    status.textContent = t("engine.rolls_depth", { depth: m.depth });
    document.body.dataset.depth = m.depth;
  } else if (m.type === "done") {
    status.textContent += ` ${t(m.stopped ? "engine.stopped" : "engine.done")}`;
    document.getElementById("stop").hidden = true;
    document.body.dataset.engine = "done";
  }
}

// ---------- start ----------

function pointerDown(ev) {
  const t = ev.target.closest && ev.target.closest("[data-sq]");
  if (!t || !A.states.length || cur().view.board !== "grid") return;
  ev.preventDefault();
  if (A.edit) editClick(t.dataset.sq);
  else chessClick(t.dataset.sq);
}

async function main() {
  const rulesets = await api("/api/rulesets");
  const select = document.getElementById("ruleset");
  for (const r of rulesets) select.append(el("option", { value: r.name }, r.title));
  select.addEventListener("change", () => setUp(select.value, {}, null));
  document.getElementById("rules-button").addEventListener("click", () => A.ruleset && showRules(A.ruleset));
  document.getElementById("flip").addEventListener("click", () => { A.flip = !A.flip; render(); });
  document.getElementById("back").addEventListener("click", () => go(A.idx - 1));
  document.getElementById("forward").addEventListener("click", () => go(A.idx + 1));
  document.getElementById("play").addEventListener("click", () => {
    const v = document.getElementById("move-select").value;
    if (v) playMove(v);
  });
  document.getElementById("analyse").addEventListener("click", analyse);
  document.getElementById("stop").addEventListener("click", stopEngine);
  document.getElementById("load").addEventListener("click", () => setUp(A.ruleset, A.options, document.getElementById("position").value.trim()));
  document.getElementById("reset").addEventListener("click", () => setUp(A.ruleset, A.options, null));
  document.getElementById("board").addEventListener("pointerdown", pointerDown);
  document.getElementById("edit").addEventListener("click", () => (A.edit ? stopEditing() : startEditing()));
  document.getElementById("edit-to-move").addEventListener("change", (e) => {
    A.edit.toMove = Number(e.target.value);
    checkPlacement();
  });
  document.getElementById("edit-clear").addEventListener("click", () => {
    A.edit.squares = {};
    render();
    checkPlacement();
  });
  document.getElementById("edit-start").addEventListener("click", editFromStart);
  document.addEventListener("keydown", (e) => {
    if (e.target.closest && e.target.closest("input,textarea,select")) return;
    if (e.key === "ArrowLeft") go(A.idx - 1);
    if (e.key === "ArrowRight") go(A.idx + 1);
  });

  const q = new URLSearchParams(location.search);
  let ruleset = q.get("ruleset") || rulesets[0].name;
  let options = {};
  for (const kv of (q.get("options") || "").split(",").filter(Boolean)) {
    const [k, ...v] = kv.split("=");
    options[k] = v.join("=");
  }
  let position = q.get("position");
  if (q.get("game")) {
    // From a game page: its ruleset, options and the position shown there.
    try {
      const at = q.get("at");
      const g = await api(`/api/games/${encodeURIComponent(q.get("game"))}/position${at !== null ? `?at=${encodeURIComponent(at)}` : ""}`);
      ruleset = g.ruleset;
      options = g.options;
      position = g.position;
      A.game = q.get("game");
      const back = document.getElementById("from-game");
      back.href = `/g/${encodeURIComponent(A.game)}`;
      back.hidden = false;
    } catch (e) {
      document.getElementById("position-error").textContent = e.message;
    }
  }
  if (!(await setUp(ruleset, options, position)) && !A.states.length) {
    // The address's position cannot be read (named under the position box): show the start
    // of its ruleset, or of the first one, so that the board is usable.
    const known = rulesets.some((r) => r.name === ruleset) ? ruleset : rulesets[0].name;
    const error = document.getElementById("position-error").textContent;
    await setUp(known, known === ruleset ? options : {}, null);
    document.getElementById("position-error").textContent = error;
  }
}

main();
