//! What the browser is sent: the game's description, each position as a board view of its
//! family (squares and pieces for chess, points, bar and dice for tables) and the status
//! now (whose turn, the legal moves, a forced capture, the result).

use crate::hub::LiveGame;
use crate::record::Event;
use libro_catalog::{AnyRuleset, DynGame};
use libro_chess::{ChessGame, Square};
use libro_core::{GameResult, Turn};
use libro_tables::{Phase, TablesGame, TurnBuilder, BAR, OFF};
use serde_json::{json, Value};

/// The ruleset's full name.
pub fn title(rules: &AnyRuleset) -> String {
    match rules {
        AnyRuleset::Chess(r) => r.title().to_string(),
        AnyRuleset::Tables(r) => r.title().to_string(),
    }
}

/// The family's name: `chess` or `tables`.
pub fn family(rules: &AnyRuleset) -> &'static str {
    match rules {
        AnyRuleset::Chess(_) => "chess",
        AnyRuleset::Tables(_) => "tables",
    }
}

/// Where the ruleset's rules come from, in one line.
pub fn source(rules: &AnyRuleset) -> String {
    match rules {
        AnyRuleset::Chess(r) => r.source().to_string(),
        AnyRuleset::Tables(r) => r.source().to_string(),
    }
}

/// The ruleset's options: name, value, allowed values, explanation and source.
pub fn options(rules: &AnyRuleset) -> Vec<Value> {
    match rules {
        AnyRuleset::Chess(r) => r
            .options()
            .into_iter()
            .map(|o| json!({"name": o.name, "value": o.value, "allowed": o.allowed, "explanation": o.explanation, "source": o.source}))
            .collect(),
        AnyRuleset::Tables(r) => r
            .options()
            .iter()
            .map(|o| json!({"name": o.name, "value": o.value, "allowed": o.allowed.join(" | "), "explanation": o.explanation, "source": o.source}))
            .collect(),
    }
}

/// The pieces of a chess ruleset (letter, name, moves), for drawing and the rules panel.
fn pieces(rules: &AnyRuleset) -> Vec<Value> {
    match rules {
        AnyRuleset::Chess(r) => r
            .pieces()
            .iter()
            .map(|p| json!({"letter": p.letter.to_string(), "name": p.name, "betza": p.betza}))
            .collect(),
        AnyRuleset::Tables(_) => Vec::new(),
    }
}

/// Everything about a ruleset the lobby and the rules panel show.
pub fn ruleset_info(rules: &AnyRuleset) -> Value {
    let seats = rules.seat_names();
    json!({
        "name": rules.name(),
        "title": title(rules),
        "family": family(rules),
        "source": source(rules),
        "seats": seats,
        "options": options(rules),
        "pieces": pieces(rules),
        "stakes": matches!(rules, AnyRuleset::Chess(_)) && seats.len() > 2,
    })
}

/// The game's description for the page.
pub fn meta(g: &LiveGame) -> Value {
    let mut info = ruleset_info(&g.rules);
    info["id"] = json!(g.id);
    info["players"] = json!(g.setup.players);
    info["seed"] = json!(g.setup.seed);
    info["changed_options"] = json!(g.setup.options);
    info["stakes_set"] = json!(g.setup.stakes);
    info
}

/// How the game ended, for people and machines.
pub fn result(game: &dyn DynGame, _rules: &AnyRuleset) -> Value {
    match game.result() {
        Some(GameResult { reason, seats }) => json!({
            "reason": reason.name(),
            "describe": reason.describe(),
            "winner": GameResult { reason, seats: seats.clone() }.winner().map(|s| s.0),
            "seats": seats.iter().map(|s| json!({"rank": s.rank, "score": s.score})).collect::<Vec<_>>(),
        }),
        None => Value::Null,
    }
}

/// The board view of a position.
pub fn board(game: &dyn DynGame, _rules: &AnyRuleset) -> Value {
    if let Some(g) = game.as_any().downcast_ref::<ChessGame>() {
        chess_board(g)
    } else if let Some(g) = game.as_any().downcast_ref::<TablesGame>() {
        tables_board(g)
    } else {
        json!({"position": game.position()})
    }
}

/// One occupied square of a chess board view.
#[derive(serde::Serialize)]
struct SquareView {
    sq: String,
    seat: u8,
    pieces: Vec<String>,
}

/// A chess board view, serialised straight to text (every move's view is built: a map of
/// `Value`s per square costs more than the rest of the move).
#[derive(serde::Serialize)]
struct ChessView {
    family: &'static str,
    position: String,
    squares: Vec<SquareView>,
    check: Vec<String>,
    active: Vec<bool>,
    to_move: u8,
    /// Four seats: stakes, payments, pot, balances, who is out and each seat's target.
    #[serde(flatten, skip_serializing_if = "Option::is_none")]
    stakes: Option<StakesView>,
}

#[derive(serde::Serialize)]
struct StakesView {
    stakes: Vec<Option<u32>>,
    paid: Vec<u64>,
    pot: u64,
    balances: Vec<f64>,
    out: Vec<u8>,
    targets: Vec<u8>,
}

fn chess_view(g: &ChessGame) -> ChessView {
    let r = g.rules();
    let pos = g.position();
    let mut squares = Vec::new();
    for i in 0..64u8 {
        let sq = Square(i);
        if let Some(seat) = pos.seat_at(r, sq) {
            let types = pos.types_at(r, sq);
            // Bottom first: pawns under the piece sharing their square, as set up.
            let mut letters: Vec<(bool, String)> = (0..r.pieces().len())
                .filter(|t| types >> t & 1 != 0)
                .map(|t| (!r.pieces()[t].is_pawn(), r.pieces()[t].letter.to_string()))
                .collect();
            letters.sort();
            squares.push(SquareView {
                sq: sq.to_string(),
                seat,
                pieces: letters.into_iter().map(|(_, l)| l).collect(),
            });
        }
    }
    let n = r.seats().len();
    let check: Vec<String> = (0..n as u8)
        .filter(|&s| pos.is_active(s) && pos.in_check(r, s))
        .filter_map(|s| pos.king_square(r, s).map(|k| k.to_string()))
        .collect();
    let active: Vec<bool> = (0..n as u8).map(|s| pos.is_active(s)).collect();
    let stakes = (n > 2).then(|| StakesView {
        stakes: g.stakes(),
        paid: g.paid(),
        pot: g.pot(),
        balances: g.balances(),
        out: g.eliminated().to_vec(),
        targets: (0..n as u8).map(|s| pos.next_active(n, s)).collect(),
    });
    ChessView {
        family: "chess",
        position: g.to_string(),
        squares,
        check,
        active,
        to_move: pos.to_move(),
        stakes,
    }
}

fn chess_board(g: &ChessGame) -> Value {
    serde_json::to_value(chess_view(g)).unwrap_or(Value::Null)
}

fn tables_board(g: &TablesGame) -> Value {
    let r = g.rules();
    let b = g.board();
    // points[p - 1] for board point p (the first seat's numbering): [seat, count].
    let mut points = vec![json!(null); 24];
    let mut map = Vec::new();
    for seat in 0..2 {
        let mut own_to_board = vec![0u8; 26];
        for own in 1..=24u8 {
            let bp = r.board_point(seat, own);
            own_to_board[usize::from(own)] = bp;
            let c = b.count(seat, own);
            if c > 0 && (1..=24).contains(&bp) {
                points[usize::from(bp) - 1] = json!([seat, c]);
            }
        }
        own_to_board[usize::from(BAR)] = BAR;
        own_to_board[usize::from(OFF)] = OFF;
        map.push(own_to_board);
    }
    let (phase, seat, dice) = match g.phase() {
        Phase::RollOff => ("roll-off", None, vec![]),
        Phase::Roll(s) => ("roll", Some(s.0), vec![]),
        Phase::Move(s, d) => ("move", Some(s.0), d.values().to_vec()),
        Phase::Over(libro_tables::Ending::Falla { loser, dice }) => {
            ("falla", Some(loser.0), dice.values().to_vec())
        }
        Phase::Over(libro_tables::Ending::BoreOff { winner }) => {
            ("bore-off", Some(winner.0), vec![])
        }
    };
    json!({
        "family": "tables",
        "position": g.to_string(),
        "points": points,
        "bar": [b.count(0, BAR), b.count(1, BAR)],
        "off": [b.count(0, OFF), b.count(1, OFF)],
        "checkers": r.checkers(),
        "map": map,
        "phase": phase,
        "seat": seat,
        "dice": dice,
    })
}

/// A history entry: the event, its notation for people, and the board after it.
pub fn entry(ev: &Event, after: &dyn DynGame, rules: &AnyRuleset) -> String {
    let view = board_text(after, rules);
    match ev {
        Event::Move { seat, text } => format!(
            r#"{{"kind":"move","seat":{seat},"text":{},"view":{view}}}"#,
            json!(text)
        ),
        Event::Roll { roll } => {
            format!(r#"{{"kind":"roll","text":{},"view":{view}}}"#, json!(roll))
        }
    }
}

/// [`board`] as JSON text, written straight from the view for chess.
pub fn board_text(game: &dyn DynGame, rules: &AnyRuleset) -> String {
    match game.as_any().downcast_ref::<ChessGame>() {
        Some(g) => serde_json::to_string(&chess_view(g)).unwrap_or_else(|_| "null".into()),
        None => board(game, rules).to_string(),
    }
}

/// The die-by-die steps of the seat to move, as a tree: each node a step (die, from, to on
/// the mover's own points, hit) with the steps that may follow it, and at a finished turn the
/// play's notation. A browser offers only what leads to a legal play.
fn step_tree(b: &TurnBuilder, game: &TablesGame, budget: &mut usize) -> Vec<Value> {
    let mut out = Vec::new();
    for ds in b.legal_steps() {
        if *budget == 0 {
            break;
        }
        *budget -= 1;
        let mut next = b.clone();
        if next.step(ds.die, ds.step.from()).is_err() {
            continue;
        }
        let play = next.play().map(|p| libro_core::Game::move_text(game, p));
        let children = if play.is_some() {
            Vec::new()
        } else {
            step_tree(&next, game, budget)
        };
        out.push(json!({
            "die": ds.die,
            "from": ds.step.from(),
            "to": ds.step.to(),
            "hit": ds.step.hit(),
            "play": play,
            "next": children,
        }));
    }
    out
}

/// The status now: whose turn, what may be played, a forced capture, the result.
pub fn status(game: &dyn DynGame, rules: &AnyRuleset, thinking: bool) -> Value {
    let turn = match game.turn() {
        Turn::Seat(s) => json!({"kind": "seat", "seat": s.0}),
        Turn::Chance => json!({"kind": "chance"}),
        Turn::Over => json!({"kind": "over"}),
    };
    let mut v = json!({
        "turn": turn,
        "ply": game.ply(),
        "position": game.position(),
        "legal": [],
        "forced": null,
        "steps": null,
        "thinking": thinking,
        "result": result(game, rules),
    });
    if let Turn::Seat(_) = game.turn() {
        if let Some(g) = game.as_any().downcast_ref::<ChessGame>() {
            v["legal"] = json!(game.legal_moves());
            v["forced"] = json!(g.forced_capture_explanation());
        } else if let Some(g) = game.as_any().downcast_ref::<TablesGame>() {
            if let Ok(b) = TurnBuilder::new(g) {
                let mut budget = 20_000;
                v["steps"] = json!(step_tree(&b, g, &mut budget));
            }
            v["legal"] = json!(game.legal_moves());
        } else {
            v["legal"] = json!(game.legal_moves());
        }
    }
    v
}
