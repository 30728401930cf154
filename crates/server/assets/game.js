// The game page: the board of the game's family, the move list, the players, live over a
// WebSocket. The server checks every move; the page only offers the legal ones.
"use strict";

const S = {
  id: location.pathname.split("/").pop(),
  token: new URLSearchParams(location.hash.slice(1)).get("t") || "",
  you: null,
  meta: null,
  start: null,
  history: [],
  now: null,
  viewIndex: null, // null: the live position; else the number of events shown
  sel: null, // chess: selected square; tables: selected board point or "bar"
  path: [], // tables: the die steps chosen so far this turn
  ws: null,
  drag: null,
  flip: false, // the viewer turned the board round
  pre: null, // a premove: {from, to} squares, played when it is this seat's turn
};

// ---------- helpers ----------

function shownIndex() {
  return S.viewIndex === null ? S.history.length : S.viewIndex;
}
function isLive() {
  return S.viewIndex === null || S.viewIndex === S.history.length;
}
function viewAt(i) {
  return i === 0 ? S.start : S.history[i - 1].view;
}
function seatKey(i) {
  return S.meta.seats[i] ?? `seat ${i}`;
}
/// A seat's name as people read it, in the page's language.
function seatName(i) {
  return seatLabel(seatKey(i));
}
function myTurn() {
  return isLive() && S.now && S.now.turn.kind === "seat" && S.you !== null && S.now.turn.seat === S.you && !S.now.thinking;
}
function toast(msg) {
  const t = document.getElementById("toast");
  t.textContent = msg;
  t.hidden = false;
  clearTimeout(toast.timer);
  toast.timer = setTimeout(() => (t.hidden = true), 6000);
}
function send(obj) {
  if (S.ws && S.ws.readyState === WebSocket.OPEN) S.ws.send(JSON.stringify(obj));
  else toast(t("game.not_connected"));
}
function sendMove(text) {
  S.sel = null;
  S.path = [];
  send({ type: "move", move: text });
}

// ---------- chess ----------

// Files a to p and ranks 1 to 16: boards up to 16x16, as the ruleset's geometry says.
const FILES = "abcdefghijklmnop";
function parseChessMove(text) {
  const m = /^([A-Z])?([a-p](?:1[0-6]|[1-9]))([a-p](?:1[0-6]|[1-9]))$/.exec(text);
  return m ? { text, piece: m[1] || null, from: m[2], to: m[3] } : null;
}
function pieceName(letter) {
  const p = (S.meta.pieces || []).find((x) => x.letter === letter);
  return p ? p.name : letter;
}
/// A piece's name as people read it, in the page's language.
function pieceWord(letter) {
  return word("piece", pieceName(letter));
}
function lastChessMove(idx) {
  for (let i = idx - 1; i >= 0; i--) {
    const e = S.history[i];
    if (e.kind === "move") return parseChessMove(e.text);
  }
  return null;
}
function chessLegal() {
  if (!myTurn()) return [];
  return S.now.legal.map(parseChessMove).filter(Boolean);
}

/// The edge of the board shown at the bottom: the viewer's own seat's (each seat sees its
/// side at the bottom), turned on by the flip button.
function viewSide() {
  const sides = S.meta.seat_sides || [];
  const order = ["south", "west", "north", "east"];
  const own = S.you !== null && S.you !== undefined && sides[S.you] ? sides[S.you] : "south";
  return order[(order.indexOf(own) + 2 * (S.flip ? 1 : 0)) % 4];
}

/// The (file, rank) shown at (row, col) from the top left, with `side` at the bottom.
function squareAt(side, row, col, files, ranks) {
  switch (side) {
    case "north": return [files - 1 - col, row];
    case "west": return [files - 1 - row, ranks - 1 - col];
    case "east": return [row, col];
    default: return [col, ranks - 1 - row];
  }
}

function renderChess(view) {
  const board = document.getElementById("board");
  board.className = "chess";
  board.innerHTML = "";
  const side = viewSide();
  const bySq = {};
  for (const s of view.squares) bySq[s.sq] = s;
  const legal = chessLegal();
  const fromSquares = new Set(legal.map((m) => m.from));
  const targets = S.sel ? legal.filter((m) => m.from === S.sel) : [];
  const targetSet = new Set(targets.map((m) => m.to));
  const last = lastChessMove(shownIndex());
  const files = view.files, ranks = view.ranks;
  const grid = el("div", { class: "grid" });
  // The square's size comes from the stylesheet (72 px on 8x8, the same width for larger
  // boards, narrower on a phone); the board says how many files and ranks it has.
  // Turned a quarter, the board shows its ranks across and its files down.
  const across = side === "west" || side === "east";
  const cols = across ? ranks : files, rows = across ? files : ranks;
  grid.style.setProperty("--files", cols);
  grid.style.setProperty("--ranks", rows);
  for (let row = 0; row < rows; row++) {
    for (let col = 0; col < cols; col++) {
      const [file, rank] = squareAt(side, row, col, files, ranks);
      const sq = FILES[file] + (rank + 1);
      const cls = ["sq", (rank + file) % 2 === 0 ? "dark" : "light"];
      if (last && (last.from === sq || last.to === sq)) cls.push("last");
      if (view.check.includes(sq)) cls.push("check");
      if (S.sel === sq) cls.push("selected");
      if (S.pre && (S.pre.from === sq || S.pre.to === sq)) cls.push("premove");
      if (targetSet.has(sq)) cls.push(bySq[sq] ? "target capture" : "target");
      if (!S.sel && fromSquares.has(sq)) cls.push("movable");
      const cell = el("div", { class: cls.join(" "), "data-sq": sq });
      const occ = bySq[sq];
      if (occ) {
        const colour = seatColour(seatKey(occ.seat));
        if (occ.pieces.length > 1) {
          cell.classList.add("shared");
          cell.title = t("game.shared_square", { pieces: occ.pieces.map(pieceWord).join(t("game.and")), seat: seatName(occ.seat) });
        }
        occ.pieces.forEach((l, i) => {
          const wrap = el("div", { class: occ.pieces.length > 1 ? `stack s${i}` : "single" });
          wrap.innerHTML = pieceSvg(pieceName(l), colour);
          cell.append(wrap);
        });
        if (!cell.title) cell.title = `${seatName(occ.seat)} ${pieceWord(occ.pieces[0])}`;
      }
      if (col === 0) cell.append(el("span", { class: "coord rank" }, across ? FILES[file] : rank + 1));
      if (row === rows - 1) cell.append(el("span", { class: "coord file" }, across ? rank + 1 : FILES[file]));
      grid.append(cell);
    }
  }
  board.append(grid);
  document.getElementById("pass").hidden = !(myTurn() && S.now.legal.includes("pass"));
  document.getElementById("undo-step").hidden = true;
}

// Premove (two-seat chess): while the other seat is to move, a piece of one's own and a
// square are remembered and played the moment it is one's turn, if legal then.
function canPremove() {
  return isLive() && S.you !== null && S.meta.seats.length === 2 && S.now && !S.now.result && S.now.turn.kind === "seat" && (S.now.turn.seat !== S.you || S.now.thinking);
}
function premovePointer(sq, isDown) {
  const view = viewAt(shownIndex());
  const own = view.squares.some((s) => s.sq === sq && s.seat === S.you);
  if (S.pre && !S.pre.to && sq !== S.pre.from) {
    S.pre.to = sq;
  } else if (isDown && own) {
    S.pre = S.pre && S.pre.from === sq && !S.pre.to ? null : { from: sq, to: null };
  } else if (isDown) {
    S.pre = null;
  }
  render();
}
/// Plays the premove once it is this seat's turn, if it is legal then; else forgets it.
function playPremove() {
  if (!S.pre || !myTurn()) return;
  const pre = S.pre;
  S.pre = null;
  if (!pre.to) return render();
  const move = chessLegal().find((m) => m.from === pre.from && m.to === pre.to);
  if (move) sendMove(move.text);
  else {
    toast(t("game.premove_illegal", { from: pre.from, to: pre.to }));
    render();
  }
}

function chessPointer(sq, isDown) {
  if (!myTurn() && canPremove()) return premovePointer(sq, isDown);
  const legal = chessLegal();
  if (S.sel && sq !== S.sel) {
    const moves = legal.filter((m) => m.from === S.sel && m.to === sq);
    if (moves.length === 1) return sendMove(moves[0].text);
    if (moves.length > 1) return choosePiece(moves);
  }
  if (!isDown) return;
  if (legal.some((m) => m.from === sq)) {
    S.sel = S.sel === sq ? null : sq;
    return render();
  }
  if (myTurn() && S.now.forced) toast(t("game.not_allowed", { why: S.now.forced }));
  else if (!myTurn() && S.you !== null && isLive() && S.now.turn.kind === "seat") toast(t("game.their_turn", { seat: seatName(S.now.turn.seat) }));
  S.sel = null;
  render();
}

// Two pieces on one square (Short Assize) may both reach the same square: ask which moves.
function choosePiece(moves) {
  const box = document.getElementById("chooser");
  box.innerHTML = "";
  box.append(el("p", {}, t("game.which_piece")));
  for (const m of moves) {
    const b = el("button", { type: "button", onclick: () => { box.hidden = true; sendMove(m.text); } });
    b.innerHTML = pieceSvg(pieceName(m.piece), seatColour(seatKey(S.you))) + pieceWord(m.piece);
    box.append(b);
  }
  box.append(el("button", { type: "button", onclick: () => (box.hidden = true) }, t("game.cancel")));
  box.hidden = false;
}

// ---------- tables ----------

function tablesOptions() {
  if (!myTurn() || !S.now.steps) return [];
  let opts = S.now.steps;
  for (const n of S.path) opts = n.next;
  return opts;
}

// The board with the chosen steps of this turn applied, for display.
function tablesShown(view) {
  const v = JSON.parse(JSON.stringify(view));
  if (!isLive() || !S.path.length) return v;
  const me = S.now.turn.seat;
  const other = 1 - me;
  for (const n of S.path) {
    const from = v.map[me][n.from];
    if (n.from === n.to) {
      // A lay-down: the pair stays on its point, no longer stacked.
      v.stacked = (v.stacked || []).filter((p) => p !== from);
      continue;
    }
    if (n.from === 25) v.bar[me]--;
    else {
      const p = v.points[from - 1];
      p[1]--;
      if (p[1] === 0) v.points[from - 1] = null;
    }
    if (n.to === 0) v.off[me]++;
    else {
      const to = v.map[me][n.to];
      if (n.hit) {
        v.points[to - 1] = null;
        v.bar[other]++;
      }
      const p = v.points[to - 1];
      v.points[to - 1] = p ? [me, p[1] + 1] : [me, 1];
    }
  }
  v.used = S.path.map((n) => n.die);
  return v;
}

function pointKey(seat, map, own) {
  if (own === 25) return "bar";
  if (own === 0) return "off";
  return String(map[seat][own]);
}

/// The board points (and "bar", "off") the last move shown left and reached: tables steps
/// `24/21 21/15 6/5*` are in the mover's own numbering, mapped by the view.
function lastTablesMove(idx) {
  for (let i = idx - 1; i >= 0; i--) {
    const e = S.history[i];
    if (e.kind !== "move") continue;
    const map = e.view.map[e.seat];
    const keys = new Set();
    for (const step of e.text.split(/\s+/)) {
      const m = /^(bar|\d+)\/(off|down|\d+)\*?$/.exec(step);
      if (!m) continue;
      keys.add(m[1] === "bar" ? "bar" : String(map[Number(m[1])]));
      if (m[2] !== "down") keys.add(m[2] === "off" ? "off" : String(map[Number(m[2])]));
    }
    return keys;
  }
  return new Set();
}

function renderTables(view) {
  const board = document.getElementById("board");
  board.className = "tables";
  board.innerHTML = "";
  const v = tablesShown(view);
  const opts = tablesOptions();
  const me = S.now && S.now.turn.kind === "seat" ? S.now.turn.seat : null;
  const froms = new Set(opts.map((n) => pointKey(me, v.map, n.from)));
  const targets = new Set(S.sel ? opts.filter((n) => pointKey(me, v.map, n.from) === S.sel).map((n) => pointKey(me, v.map, n.to)) : []);
  const W = 760, H = 440, PW = 46, top = 20, bottom = H - 20, tri = 170;
  const last = lastTablesMove(shownIndex());
  // The second seat sees the board turned round: its own home at the bottom right, its own
  // point numbers; the flip button turns it for anyone.
  const turned = (S.you === 1) !== !!S.flip;
  const low = (seat) => (seat === 0) !== turned;
  const label = (p) => {
    if (!turned) return p;
    const own = v.map[1].indexOf(p);
    return own > 0 && own <= 24 ? own : p;
  };
  const root = svg("svg", { viewBox: `0 0 ${W} ${H}`, class: "tables-board" });
  root.append(svg("rect", { x: 0, y: 0, width: W, height: H, rx: 10, class: "frame" }));
  root.append(svg("rect", { x: 14, y: 14, width: 604, height: H - 28, class: "felt" }));
  const xOf = (p) => {
    // Board point p (first seat's numbering): 1-6 bottom right, 7-12 bottom left,
    // 13-18 top left, 19-24 top right.
    let col, up;
    if (p <= 12) { col = 12 - p; up = false; } else { col = p - 13; up = true; }
    const x = 20 + col * PW + (col >= 6 ? 40 : 0);
    return { x, up };
  };
  for (let p = 1; p <= 24; p++) {
    const { x, up } = xOf(turned ? 25 - p : p);
    const y0 = up ? top : bottom, y1 = up ? top + tri : bottom - tri;
    const key = String(p);
    const cls = ["point", p % 2 ? "odd" : "even"];
    if (last.has(key)) cls.push("last");
    if (targets.has(key)) cls.push("target");
    if (S.sel === key) cls.push("selected");
    else if (!S.sel && froms.has(key)) cls.push("movable");
    const g = svg("g", { "data-point": key, class: cls.join(" ") });
    g.append(svg("rect", { x, y: up ? top : bottom - tri - 30, width: PW, height: tri + 30, class: "hit" }));
    g.append(svg("polygon", { points: `${x + 2},${y0} ${x + PW - 2},${y0} ${x + PW / 2},${y1}`, class: "tri" }));
    g.append(svg("text", { x: x + PW / 2, y: up ? 12 : H - 5, class: "num" }, String(label(p))));
    const occ = v.points[p - 1];
    if (occ) drawCheckers(g, occ, (v.stacked || []).includes(p), { x, up, top, bottom, PW }, (s) => seatColour(seatKey(s)));
    root.append(g);
  }
  // The bar, between the two halves.
  const barX = 20 + 6 * PW;
  const barG = svg("g", { "data-point": "bar", class: `bar ${last.has("bar") ? "last" : ""} ${S.sel === "bar" ? "selected" : !S.sel && froms.has("bar") ? "movable" : ""}` });
  barG.append(svg("rect", { x: barX, y: 14, width: 40, height: H - 28, class: "barrect" }));
  barG.append(svg("text", { x: barX + 20, y: H / 2 + 5, class: "label" }, "bar"));
  [0, 1].forEach((seat) => {
    const n = v.bar[seat];
    for (let i = 0; i < Math.min(n, 4); i++) {
      const cy = low(seat) ? H / 2 + 40 + i * 26 : H / 2 - 40 - i * 26;
      barG.append(svg("circle", { cx: barX + 20, cy, r: 17, class: `checker ${seatColour(seatKey(seat))}` }));
    }
    if (n > 0) barG.append(svg("text", { x: barX + 20, y: low(seat) ? H / 2 + 46 : H / 2 - 34, class: `count ${seatColour(seatKey(seat))}` }, String(n)));
  });
  root.append(barG);
  // Borne-off trays: the first seat's at the bottom, the second's at the top.
  const offG = svg("g", { "data-point": "off", class: `off ${last.has("off") ? "last" : ""} ${targets.has("off") ? "target" : ""}` });
  offG.append(svg("rect", { x: 628, y: 14, width: 118, height: H - 28, class: "tray" }));
  [0, 1].forEach((seat) => {
    const n = v.off[seat];
    for (let i = 0; i < n; i++) {
      const y = low(seat) ? bottom - 8 - i * 9 : top + i * 9;
      offG.append(svg("rect", { x: 640, y, width: 94, height: 7, rx: 2, class: `checker ${seatColour(seatKey(seat))}` }));
    }
    offG.append(svg("text", { x: 687, y: low(seat) ? H / 2 + 30 : H / 2 - 20, class: "label" }, `${seatName(seat)} off: ${n}`));
  });
  root.append(offG);
  // The dice, on the right half; used ones faded.
  const used = [...(v.used || [])];
  const dice = v.dice || [];
  dice.forEach((d, i) => {
    const k = used.indexOf(d);
    const isUsed = k >= 0;
    if (isUsed) used.splice(k, 1);
    root.append(drawDie(d, i, H, `die ${isUsed ? "used" : ""} ${seatColour(seatKey(v.seat ?? 0))}`));
  });
  if (v.phase === "roll-off") root.append(svg("text", { x: 470, y: H / 2 + 5, class: "label" }, "roll-off"));
  board.append(root);
  document.getElementById("pass").hidden = !(myTurn() && S.now.legal.includes("pass"));
  document.getElementById("undo-step").hidden = !(myTurn() && S.path.length);
}

function tablesPointer(key, isDown) {
  const opts = tablesOptions();
  if (!opts.length) {
    if (isDown && S.you !== null && isLive() && S.now.turn.kind === "seat" && S.now.turn.seat !== S.you) toast(t("game.their_turn", { seat: seatName(S.now.turn.seat) }));
    return;
  }
  const me = S.now.turn.seat;
  const map = viewAt(shownIndex()).map;
  // Laying down a stacked pair: one click on its point.
  const down = isDown && opts.find((o) => o.from === o.to && pointKey(me, map, o.from) === key);
  if (down) {
    S.path.push(down);
    S.sel = null;
    if (down.play !== null) return sendMove(down.play);
    return render();
  }
  if (S.sel && key !== S.sel) {
    const n = opts.find((o) => pointKey(me, map, o.from) === S.sel && pointKey(me, map, o.to) === key);
    if (n) {
      S.path.push(n);
      S.sel = null;
      if (n.play !== null) return sendMove(n.play);
      return render();
    }
  }
  if (!isDown) return;
  if (opts.some((o) => pointKey(me, map, o.from) === key)) {
    S.sel = S.sel === key ? null : key;
  } else {
    S.sel = null;
    if (opts.some((o) => o.from === 25)) toast(t("game.bar_first"));
  }
  render();
}

// ---------- common rendering ----------

function render() {
  if (!S.meta) return;
  const idx = shownIndex();
  document.getElementById("analyse-link").href = `/analysis?game=${encodeURIComponent(S.id)}&at=${idx}`;
  const view = viewAt(idx);
  if (S.meta.geometry.kind === "grid") renderChess(view);
  else renderTables(view);
  renderStatus(view);
  renderClocks();
  renderActions();
  renderPlayers(view);
  renderMoves();
}

function renderStatus(view) {
  const st = document.getElementById("status");
  st.innerHTML = "";
  const now = S.now;
  if (!isLive()) st.append(el("p", { class: "history-note" }, `${t("game.viewing", { shown: shownIndex(), total: S.history.length })} `, el("button", { type: "button", onclick: () => { S.viewIndex = null; render(); } }, t("game.back_to_game"))));
  if (now.result) {
    const r = now.result;
    const who = r.winner !== null && r.winner !== undefined ? t("result.wins", { seat: seatName(r.winner) }) : t("result.drawn");
    st.append(el("p", { class: "result", id: "result" }, t("result.game_over", { who, why: reasonText(r) })));
    if (r.seats.length > 2) st.append(el("p", {}, r.seats.map((s, i) => t("result.place", { seat: seatName(i), rank: s.rank })).join(", ")));
  } else if (now.open && now.open.length) {
    // An open challenge: it starts when every seat is taken.
    st.append(el("p", { class: "turn", id: "waiting" }, t(now.open.length === 1 ? "game.waiting_one" : "game.waiting_many", { seats: now.open.map(seatName).join(", ") })));
    if (S.you === null) {
      for (const i of now.open) st.append(el("button", { type: "button", class: "join", "data-seat": i, onclick: () => takeSeat(i) }, t("lobby.play_seat", { seat: seatName(i) })));
    } else st.append(el("p", { class: "hint" }, t("game.send_spectator")));
  } else if (now.turn.kind === "seat") {
    const s = now.turn.seat;
    const mine = S.you === s;
    const who = mine ? t("game.your_move", { seat: seatName(s) }) : t("game.to_move", { seat: seatName(s) });
    st.append(el("p", { class: `turn ${mine ? "mine" : ""}`, id: "turn" }, el("span", { class: `swatch ${seatColour(seatKey(s))}` }), ` ${who}`, now.thinking ? ` ${t("game.thinking")}` : ""));
  } else {
    st.append(el("p", { class: "turn" }, t("game.rolling")));
  }
  if (view.board === "grid" && view.check.length) st.append(el("p", { class: "check-note", id: "check" }, t("game.check")));
  if (view.board === "track" && view.dice && view.dice.length) st.append(el("p", {}, t("game.dice", { dice: view.dice.join("-") })));
  const f = document.getElementById("forced");
  if (isLive() && now.forced && !now.result) {
    f.hidden = false;
    f.innerHTML = "";
    f.append(el("h3", {}, t("game.forced")), el("p", { id: "forced-text" }, now.forced));
  } else f.hidden = true;
}

// ---------- clocks ----------

/// A time in ms as the clock shows it: m:ss, with tenths under ten seconds.
function clockText(ms) {
  const t = Math.max(0, ms);
  if (t < 10000) return `0:0${(t / 1000).toFixed(1)}`;
  const s = Math.ceil(t / 1000);
  const h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), r = s % 60;
  const mm = h ? `${h}:${String(m).padStart(2, "0")}` : String(m);
  return `${mm}:${String(r).padStart(2, "0")}`;
}

/// Each seat's time left now: the server's figures, less the time since they came for the
/// seat whose clock runs.
function clockLeft(i) {
  const c = S.now.clock;
  const left = c.left_ms[i];
  return c.running === i ? left - (performance.now() - S.clockAt) : left;
}

function renderClocks() {
  const box = document.getElementById("clocks");
  const c = S.now && S.now.clock;
  box.hidden = !c;
  if (!c) return;
  box.innerHTML = "";
  box.append(el("h3", {}, t("game.clocks", { control: `${c.initial_s >= 60 ? `${c.initial_s / 60} min` : `${c.initial_s} s`} + ${c.increment_s} s` })));
  S.meta.seats.forEach((name, i) => {
    const cls = ["clock", c.running === i ? "running" : "", S.you === i ? "mine" : ""].join(" ");
    box.append(el("div", { class: cls, "data-seat": i }, el("span", { class: `swatch ${seatColour(name)}` }), ` ${seatName(i)}`, el("b", { class: "time" }, clockText(clockLeft(i)))));
  });
  tickClocks();
}

/// Counts the running clock down between the server's messages.
function tickClocks() {
  const c = S.now && S.now.clock;
  if (!c) return;
  for (const row of document.querySelectorAll("#clocks .clock")) {
    const i = Number(row.dataset.seat);
    const left = clockLeft(i);
    row.querySelector(".time").textContent = clockText(left);
    row.classList.toggle("low", left < 10000);
  }
}

/// Takes an open seat of this game and reloads the page with its secret link.
async function takeSeat(seat) {
  try {
    const res = await api(`/api/games/${encodeURIComponent(S.id)}/join`, { seat });
    location.hash = res.link.split("#")[1];
    location.reload();
  } catch (e) {
    toast(e.message);
  }
}

// ---------- a seat's requests: resign, draw, takeback, rematch ----------

async function seatAction(action) {
  try {
    const res = await api(`/api/games/${encodeURIComponent(S.id)}/${action}`, { token: S.token });
    if (action === "rematch" && res.link) location.href = res.link;
  } catch (e) {
    toast(e.message);
  }
}

function renderActions() {
  const box = document.getElementById("actions");
  box.innerHTML = "";
  const now = S.now;
  const others = (list) => list.map((v, i) => (v && i !== S.you ? i : null)).filter((i) => i !== null);
  const offers = now.draw_offers ? others(now.draw_offers) : [];
  if (offers.length) box.append(el("p", { id: "draw-note" }, t(offers.length === 1 ? "game.offers_draw" : "game.offer_draw", { seats: offers.map(seatName).join(", ") })));
  if (now.takeback_ask !== null && now.takeback_ask !== undefined && now.takeback_ask !== S.you) {
    box.append(el("p", { id: "takeback-note" }, t("game.takeback_note", { seat: seatName(now.takeback_ask) })));
  }
  if (S.you !== null && S.you !== undefined) {
    const button = (id, label, action, disabled) =>
      el("button", { type: "button", id, disabled, onclick: () => seatAction(action) }, label);
    if (!now.result) {
      const mine = now.draw_offers && now.draw_offers[S.you];
      const asked = now.takeback_ask !== null && now.takeback_ask !== undefined;
      box.append(
        button("resign", t("game.resign"), "resign"),
        button("draw", offers.length ? t("game.accept_draw") : mine ? t("game.draw_offered") : t("game.offer_draw_button"), "draw", mine),
        button("takeback", asked && now.takeback_ask !== S.you ? t("game.accept_takeback") : asked ? t("game.takeback_asked") : t("game.takeback"), "takeback", asked && now.takeback_ask === S.you),
      );
    } else if (now.rematch) {
      box.append(el("a", { class: "button", id: "rematch-link", href: `/g/${now.rematch}#t=${S.token}` }, t("game.go_rematch")));
    } else {
      box.append(button("rematch", t("game.rematch"), "rematch"));
    }
  } else if (now.rematch) {
    box.append(el("a", { class: "button", id: "rematch-link", href: `/g/${now.rematch}` }, t("game.watch_rematch")));
  }
  box.hidden = !box.children.length;
}

function renderPlayers(view) {
  const box = document.getElementById("players");
  box.innerHTML = "";
  box.append(el("h3", {}, t("lobby.players")));
  const four = view.board === "grid" && view.stakes;
  if (four) box.append(el("p", { class: "pot", id: "pot" }, t("game.pot", { pot: view.pot })));
  const table = el("table", { class: "seats" });
  if (four) table.append(el("tr", {}, ...["seat", "player", "captures", "stake", "paid", "balance"].map((h) => el("th", {}, t(`stakes.${h}`)))));
  const lost = view.board === "grid" ? capturedBySeat(view) : null;
  S.meta.seats.forEach((name, i) => {
    const row = el("tr", { class: `${view.to_move === i || view.seat === i ? "to-move" : ""} ${view.active && !view.active[i] ? "out" : ""}` },
      el("td", {}, el("span", { class: `swatch ${seatColour(name)}` }), ` ${seatName(i)}`, S.you === i ? ` ${t("game.you")}` : "",
        lost && lost[i].length ? el("span", { class: "lost", "data-seat": i, title: t("game.has_lost", { seat: seatName(i), pieces: lost[i].map(pieceWord).join(", ") }) }, ` −${lost[i].join("")}`) : null),
      el("td", {}, playerLabel(S.meta.players[i])));
    if (four) {
      row.append(
        el("td", {}, view.active[i] ? `→ ${seatName(view.targets[i])}` : t("stakes.out")),
        el("td", {}, view.stakes[i] ?? "–"),
        el("td", {}, view.paid[i]),
        el("td", { class: "balance" }, String(Math.round(view.balances[i] * 100) / 100)));
    }
    table.append(row);
  });
  box.append(table);
  if (view.board === "track") {
    // Games whose checkers never move along the board (Doblet) get their own hint.
    const offOnly = (S.meta.options || []).some((o) => o.name === "moves" && o.value === "bear-off-only");
    box.append(el("p", { class: "hint" }, offOnly ? t("game.off_only_hint") : t("game.track_hint", { first: seatName(0), second: seatName(1) })));
  }
}

function entryText(e, i) {
  if (e.kind === "move") return `${seatName(e.seat)}: ${e.text}`;
  if (e.kind === "resign") return t("entry.resigns", { seat: seatName(e.seat) });
  if (e.kind === "agreement") return t("entry.agreement");
  if (e.kind === "flag") return t("entry.flag", { seat: seatName(e.seat) });
  const v = e.view;
  if (v.board === "track" && v.phase !== "roll-off" && i === 0) return t("entry.roll_off", { roll: e.text });
  if (v.board === "track" && v.seat !== null) return t("entry.rolls", { seat: seatName(v.seat), roll: e.text });
  return t("entry.roll", { roll: e.text });
}

function renderMoves() {
  const box = document.getElementById("moves");
  box.innerHTML = "";
  const idx = shownIndex();
  const show = (i) => () => { S.viewIndex = i + 1; S.sel = null; render(); };
  const cell = (e, i, text) => el("span", { class: `mv ${i + 1 === idx ? "current" : ""} ${e.kind}`, "data-index": i + 1, onclick: show(i) }, text);
  if (S.meta.geometry.kind === "grid") {
    // One row per round, each seat's move in its own column: paired SAN with two seats
    // (`1. e3 e6`), four columns in the four-seat game.
    box.className = "rounds";
    const n = S.meta.seats.length;
    let row = null, last = -1, round = 0;
    S.history.forEach((e, i) => {
      if (e.kind !== "move") {
        box.append(el("li", { class: "note" }, cell(e, i, entryText(e, i))));
        row = null;
        return;
      }
      if (!row || e.seat <= last) {
        round += 1;
        row = el("li", { class: "round" }, el("span", { class: "no" }, `${round}.`));
        for (let k = 0; k < n; k++) row.append(el("span", { class: "mv empty" }));
        box.append(row);
      }
      row.children[1 + e.seat].replaceWith(cell(e, i, e.san || e.text));
      last = e.seat;
    });
  } else {
    box.className = "";
    S.history.forEach((e, i) => box.append(el("li", {}, cell(e, i, entryText(e, i)))));
  }
  const cur = box.querySelector(".current");
  if (cur && isLive()) cur.scrollIntoView({ block: "nearest" });
}

/// The pieces each seat has lost since the start (a promoted pawn counts as lost, its new
/// piece as gained back), from the start view and the shown one.
function capturedBySeat(view) {
  const count = (v) => {
    const c = S.meta.seats.map(() => ({}));
    for (const sq of v.squares) for (const l of sq.pieces) c[sq.seat][l] = (c[sq.seat][l] || 0) + 1;
    return c;
  };
  const before = count(S.start), now = count(view);
  return before.map((had, seat) => {
    const lost = [];
    for (const [l, k] of Object.entries(had)) for (let j = (now[seat][l] || 0); j < k; j++) lost.push(l);
    return lost;
  });
}

function step(to) {
  const n = S.history.length;
  const i = Math.max(0, Math.min(n, to));
  S.viewIndex = i === n ? null : i;
  S.sel = null;
  render();
}

// ---------- pointer: click or drag ----------

function targetKey(node) {
  const t = node && node.closest ? node.closest("[data-sq],[data-point]") : null;
  if (!t) return null;
  return t.dataset.sq || t.dataset.point;
}

function onPointerDown(ev) {
  const key = targetKey(ev.target);
  if (!key || !S.meta) return;
  ev.preventDefault();
  const before = S.sel;
  S.drag = { key, moved: false };
  if (S.meta.geometry.kind === "grid") chessPointer(key, true);
  else tablesPointer(key, true);
  if (S.sel && S.sel !== before) {
    const src = document.querySelector(`[data-sq="${S.sel}"] svg.piece, [data-point="${S.sel}"] circle.checker`);
    if (src && S.meta.geometry.kind === "grid") {
      const ghost = el("div", { id: "ghost" });
      ghost.innerHTML = src.outerHTML;
      document.body.append(ghost);
      moveGhost(ev);
    }
  }
}
function moveGhost(ev) {
  const g = document.getElementById("ghost");
  if (g) {
    g.style.left = `${ev.clientX - 30}px`;
    g.style.top = `${ev.clientY - 30}px`;
  }
}
function onPointerMove(ev) {
  if (!S.drag) return;
  S.drag.moved = true;
  moveGhost(ev);
}
function onPointerUp(ev) {
  const g = document.getElementById("ghost");
  if (g) g.remove();
  const drag = S.drag;
  S.drag = null;
  if (!drag || !drag.moved || !S.sel) return;
  const key = targetKey(document.elementFromPoint(ev.clientX, ev.clientY));
  if (!key || key === drag.key) return;
  if (S.meta.geometry.kind === "grid") chessPointer(key, false);
  else tablesPointer(key, false);
}

// ---------- connection ----------

function onMessage(msg) {
  if (msg.type === "full") {
    S.meta = msg.game;
    S.start = msg.start;
    S.history = msg.history;
    S.now = msg.now;
    S.clockAt = performance.now();
    S.you = msg.you;
    S.sel = null;
    S.path = [];
    document.getElementById("title").textContent = S.meta.title;
    document.title = `libro — ${S.meta.title}`;
    document.getElementById("you").textContent = S.you === null ? t("game.spectator") : seatName(S.you);
    // Two-seat chess exports PGN; the other games their own text record.
    const pgn = S.meta.geometry.kind === "grid" && S.meta.seats.length === 2;
    document.getElementById("export-text").textContent = pgn ? "PGN" : t("game.text_record");
    document.getElementById("seat-link-box").hidden = S.you === null;
    document.getElementById("chat-form").hidden = S.you === null;
    loadChat();
    document.body.dataset.board = S.meta.geometry.kind;
    document.body.dataset.ruleset = S.meta.name;
  } else if (msg.type === "update") {
    S.history.length = Math.min(S.history.length, msg.from);
    S.history.push(...msg.entries);
    S.now = msg.now;
    S.clockAt = performance.now();
    if (msg.entries.length) {
      S.sel = null;
      S.path = [];
      soundFor(msg.entries[msg.entries.length - 1]);
    }
    if (S.now.turn.kind !== "seat" || S.now.result) S.pre = null;
  } else if (msg.type === "chat") {
    return addChat(msg);
  } else if (msg.type === "error") {
    toast(errorText({ error: msg.message, code: msg.code }));
    S.path = [];
    S.sel = null;
  } else return;
  document.body.dataset.ply = S.now ? S.now.ply : "";
  document.body.dataset.turn = S.now ? (S.now.turn.kind === "seat" ? `seat${S.now.turn.seat}${S.now.thinking ? "-thinking" : ""}` : S.now.turn.kind) : "";
  render();
  playPremove();
}

// ---------- chat between seats ----------

function addChat(m) {
  const log = document.getElementById("chat-log");
  log.append(el("li", { class: "chat-line" }, el("b", {}, `${seatName(m.seat)}: `), m.text));
  log.scrollTop = log.scrollHeight;
}
async function loadChat() {
  const log = document.getElementById("chat-log");
  try {
    const lines = await api(`/api/games/${encodeURIComponent(S.id)}/chat`);
    log.innerHTML = "";
    lines.forEach(addChat);
  } catch {
    // The chat is a nicety: the game goes on without it.
  }
}
async function sendChat(ev) {
  ev.preventDefault();
  const input = document.getElementById("chat-text");
  const text = input.value.trim();
  if (!text) return;
  try {
    await api(`/api/games/${encodeURIComponent(S.id)}/chat`, { token: S.token, text });
    input.value = "";
  } catch (e) {
    toast(e.message);
  }
}

// ---------- sounds (WebAudio: no files) ----------

const SOUND = { ctx: null, on: localStorage.getItem("libro-sound") !== "off", played: [] };

/// The audio context, made on a user's gesture (browsers start audio only then).
function audio() {
  if (!SOUND.ctx && (window.AudioContext || window.webkitAudioContext)) SOUND.ctx = new (window.AudioContext || window.webkitAudioContext)();
  return SOUND.ctx;
}

/// A short tone: `freq` Hz for `ms`, `delay` ms from now.
function tone(freq, ms, type = "sine", delay = 0, gain = 0.12) {
  const ctx = audio();
  if (!ctx) return;
  const t = ctx.currentTime + delay / 1000;
  const osc = ctx.createOscillator();
  const g = ctx.createGain();
  osc.type = type;
  osc.frequency.value = freq;
  g.gain.setValueAtTime(gain, t);
  g.gain.exponentialRampToValueAtTime(0.0001, t + ms / 1000);
  osc.connect(g).connect(ctx.destination);
  osc.start(t);
  osc.stop(t + ms / 1000 + 0.02);
}

/// Plays the sound of a history entry: a move, a capture, a check or the dice.
function soundFor(e) {
  let kind = null;
  if (e.kind === "roll") kind = "dice";
  else if (e.kind === "move") {
    const text = e.san || e.text;
    if (e.view && e.view.board === "grid" && e.view.check && e.view.check.length) kind = "check";
    else if (text.includes("x") || text.includes("*")) kind = "capture";
    else kind = "move";
  }
  if (!kind) return;
  SOUND.played.push(kind);
  if (!SOUND.on || !SOUND.ctx) return;
  if (kind === "move") tone(520, 90, "triangle");
  else if (kind === "capture") { tone(300, 120, "square", 0, 0.08); tone(220, 140, "triangle", 60); }
  else if (kind === "check") { tone(880, 110, "sine"); tone(660, 160, "sine", 110); }
  else for (let i = 0; i < 3; i++) tone(180 + 90 * i, 45, "square", 55 * i, 0.06);
}

function connect() {
  const proto = location.protocol === "https:" ? "wss" : "ws";
  const ws = new WebSocket(`${proto}://${location.host}/api/games/${encodeURIComponent(S.id)}/ws?t=${encodeURIComponent(S.token)}`);
  S.ws = ws;
  const conn = document.getElementById("conn");
  ws.onopen = () => (conn.textContent = t("game.live"));
  ws.onmessage = (e) => onMessage(JSON.parse(e.data));
  ws.onclose = async () => {
    // A game that is gone or damaged (410) says so instead of reconnecting forever.
    const res = await fetch(`/api/games/${encodeURIComponent(S.id)}`).catch(() => null);
    if (res && (res.status === 404 || res.status === 410)) {
      const data = await res.json().catch(() => ({}));
      conn.textContent = data.error || `HTTP ${res.status}`;
      if (res.status === 404) {
        document.getElementById("title").textContent = t("game.no_such");
        document.body.dataset.missing = "yes";
      }
      document.body.dataset.damaged = res.status === 410 ? "yes" : "";
      return;
    }
    conn.textContent = t("game.reconnecting");
    setTimeout(connect, 1500);
  };
}

function main() {
  const spec = `${location.origin}/g/${S.id}`;
  const a = document.getElementById("spectator-link");
  a.href = spec;
  a.textContent = spec;
  const exp = document.getElementById("export");
  exp.href = `/api/games/${encodeURIComponent(S.id)}/export`;
  document.getElementById("export-text").href = `/api/games/${encodeURIComponent(S.id)}/export?format=text`;
  document.getElementById("copy-spectator-box").append(copyButton(spec, "copy-spectator"));
  document.getElementById("copy-seat-box").append(copyButton(location.href, "copy-seat"));
  document.getElementById("rules-button").addEventListener("click", () => S.meta && showRules(S.meta.name));
  document.getElementById("pass").addEventListener("click", () => sendMove("pass"));
  document.getElementById("flip").addEventListener("click", () => { S.flip = !S.flip; render(); });
  document.getElementById("undo-step").addEventListener("click", () => { S.path.pop(); S.sel = null; render(); });
  document.getElementById("first").addEventListener("click", () => step(0));
  document.getElementById("prev").addEventListener("click", () => step(shownIndex() - 1));
  document.getElementById("next").addEventListener("click", () => step(shownIndex() + 1));
  document.getElementById("last").addEventListener("click", () => step(S.history.length));
  const board = document.getElementById("board");
  board.addEventListener("pointerdown", onPointerDown);
  window.addEventListener("pointermove", onPointerMove);
  window.addEventListener("pointerup", onPointerUp);
  document.addEventListener("keydown", (e) => {
    if (e.target.closest && e.target.closest("input,textarea,select")) return;
    if (e.key === "ArrowLeft") step(shownIndex() - 1);
    if (e.key === "ArrowRight") step(shownIndex() + 1);
  });
  setInterval(tickClocks, 100);
  document.getElementById("chat-form").addEventListener("submit", sendChat);
  const sound = document.getElementById("sound");
  const label = () => (sound.textContent = SOUND.on ? t("game.sound_on") : t("game.sound_off"));
  label();
  sound.addEventListener("click", () => {
    SOUND.on = !SOUND.on;
    localStorage.setItem("libro-sound", SOUND.on ? "on" : "off");
    if (SOUND.on) audio();
    label();
  });
  // Audio may start only after a gesture on the page.
  window.addEventListener("pointerdown", () => SOUND.on && audio(), { once: true });
  connect();
}

main();
