// The pieces of the Libro de los Juegos, drawn after its miniatures and the abstract
// Islamic-style chessmen of the time: the king enthroned under a crown, the fers a
// counsellor in a round cap, the fil an elephant with tusks, the knight a bridled horse's
// head, the rook the split-topped rukh (a chariot, not a castle), the pawn a foot soldier.
"use strict";

const PIECE_SHAPES = {
  // King: a throne-backed figure with a three-lobed crown.
  king: `
    <path class="body" d="M22 90 L78 90 L74 80 L68 80 L66 46 C66 38 60 34 50 34 C40 34 34 38 34 46 L32 80 L26 80 Z"/>
    <circle class="body" cx="50" cy="27" r="9"/>
    <path class="body" d="M36 20 L39 8 L45 15 L50 5 L55 15 L61 8 L64 20 Z"/>
    <circle class="mark" cx="50" cy="5" r="2.2"/>
    <path class="line" d="M40 56 L60 56 M42 66 L58 66 M36 80 L64 80"/>`,
  // Fers (the counsellor): a robed figure with a round cap and a plain collar.
  fers: `
    <path class="body" d="M26 90 L74 90 L70 80 L64 78 L62 50 C62 42 57 38 50 38 C43 38 38 42 38 50 L36 78 L30 80 Z"/>
    <circle class="body" cx="50" cy="29" r="9"/>
    <path class="body" d="M39 24 C39 12 61 12 61 24 Z"/>
    <circle class="mark" cx="50" cy="13" r="3"/>
    <path class="line" d="M42 50 C46 54 54 54 58 50 M50 54 L50 78"/>`,
  // Fil (the elephant): a head with ears, a trunk and two tusks on a round base.
  fil: `
    <path class="body" d="M24 90 L76 90 L72 80 L28 80 Z"/>
    <path class="body" d="M32 80 C28 64 30 50 36 42 C30 40 22 34 24 24 C26 16 36 16 40 22 C44 18 56 18 60 22 C64 16 74 16 76 24 C78 34 70 40 64 42 C70 50 72 64 68 80 Z"/>
    <path class="body" d="M46 46 C46 58 44 66 38 72 C36 74 38 77 41 75 C50 68 54 58 54 46 Z"/>
    <path class="tusk" d="M43 50 C38 56 33 58 29 57 M57 50 C62 56 67 58 71 57"/>
    <circle class="mark" cx="42" cy="36" r="2.4"/><circle class="mark" cx="58" cy="36" r="2.4"/>`,
  // Knight: a bridled horse's head on a round base.
  knight: `
    <path class="body" d="M24 90 L76 90 L72 80 L28 80 Z"/>
    <path class="body" d="M32 80 C32 64 40 56 44 50 C38 52 30 56 24 54 C20 50 22 44 28 40 C36 32 40 22 48 16 L50 8 L56 16 C70 20 76 40 74 56 C72 66 70 74 70 80 Z"/>
    <path class="line" d="M48 16 C44 26 36 36 30 42 M58 18 C66 28 68 40 66 52 M60 30 L44 44"/>
    <circle class="mark" cx="45" cy="30" r="2.6"/>`,
  // Rook (the rukh): a block with the split, horned top of the medieval chessman.
  rook: `
    <path class="body" d="M22 90 L78 90 L74 80 L26 80 Z"/>
    <path class="body" d="M30 80 L32 44 C22 40 18 28 20 14 L30 14 C30 24 36 32 44 34 L50 26 L56 34 C64 32 70 24 70 14 L80 14 C82 28 78 40 68 44 L70 80 Z"/>
    <path class="line" d="M36 54 L64 54 M36 66 L64 66"/>`,
  // Pawn: a foot soldier, round head on a cloaked body.
  pawn: `
    <path class="body" d="M30 90 L70 90 L66 80 L60 78 L58 56 C58 50 55 48 50 48 C45 48 42 50 42 56 L40 78 L34 80 Z"/>
    <circle class="body" cx="50" cy="38" r="11"/>
    <path class="line" d="M44 64 L56 64"/>`,
};

// Colours of the seats: the two-player sides, and the four seasons' colours of Cuatro Tiempos.
const SEAT_COLOURS = {
  white: { fill: "#f4ead2", stroke: "#3b2a1a", mark: "#8a1c1c" },
  black: { fill: "#2b2420", stroke: "#e8dcc0", mark: "#d9b44a" },
  red: { fill: "#b3261e", stroke: "#2a0c08", mark: "#f5d27a" },
  green: { fill: "#2f7d3a", stroke: "#0c2410", mark: "#f5d27a" },
};

/// The drawing for a piece name (`fers`, `side pawn`, ...).
function pieceShape(name) {
  const n = (name || "").toLowerCase();
  for (const k of ["king", "fers", "fil", "knight", "rook"]) if (n.includes(k)) return k;
  if (n.includes("alfil") || n.includes("elephant")) return "fil";
  if (n.includes("queen") || n.includes("counsellor")) return "fers";
  return "pawn";
}

/// An SVG element string for a piece of a seat colour (attributes inline: a <style> in
/// inline SVG would apply to the whole page).
function pieceSvg(name, colour, extraClass) {
  const c = SEAT_COLOURS[colour] || SEAT_COLOURS.white;
  const kind = pieceShape(name);
  const shape = PIECE_SHAPES[kind]
    .replaceAll('class="body"', `fill="${c.fill}" stroke="${c.stroke}" stroke-width="3" stroke-linejoin="round"`)
    .replaceAll('class="line"', `fill="none" stroke="${c.stroke}" stroke-width="2.5" stroke-linecap="round"`)
    .replaceAll('class="tusk"', `fill="none" stroke="${c.mark}" stroke-width="4" stroke-linecap="round"`)
    .replaceAll('class="mark"', `fill="${c.mark}"`);
  return `<svg class="piece ${extraClass || ""}" viewBox="0 0 100 100" data-piece="${kind}" data-colour="${colour}">${shape}</svg>`;
}
