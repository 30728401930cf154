//! What the browser is sent: the game's description, each position as the registry's board
//! view (a grid of squares, or a track of points with the bar and dice) and the status now
//! (whose turn, the legal moves, a forced capture, the result).

use crate::hub::LiveGame;
use crate::record::{Event, Played};
use libro_core::{GameResult, Turn};
use libro_registry::{AnyRuleset, DynGame};
use serde_json::{json, Value};

/// Everything about a ruleset the lobby and the rules panel show.
pub fn ruleset_info(rules: &AnyRuleset) -> Value {
    let options: Vec<Value> = rules
        .options()
        .into_iter()
        .filter(|o| !o.multi_seat || rules.seat_names().len() > 2)
        .map(|o| {
            json!({
                "name": o.name,
                "value": o.value,
                "allowed": o.kind.allowed(),
                "values": o.kind.values(),
                "explanation": o.explanation,
                "source": o.source,
            })
        })
        .collect();
    json!({
        "name": rules.name(),
        "title": rules.title(),
        "family": rules.family(),
        "geometry": rules.geometry(),
        "source": rules.source(),
        "seats": rules.seat_names(),
        "seat_sides": rules.seat_sides(),
        "options": options,
        "pieces": rules.pieces(),
        "stakes": rules.has_stakes(),
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
pub fn result(played: &Played) -> Value {
    match played.result() {
        Some(GameResult { reason, seats }) => json!({
            "reason": reason.name(),
            "describe": reason.describe(),
            "winner": GameResult { reason, seats: seats.clone() }.winner().map(|s| s.0),
            "seats": seats.iter().map(|s| json!({"rank": s.rank, "score": s.score})).collect::<Vec<_>>(),
        }),
        None => Value::Null,
    }
}

/// A history entry: the event, its notation for people (`san`: SAN for chess moves), and
/// the board after it.
pub fn entry(ev: &Event, san: Option<&str>, after: &dyn DynGame) -> String {
    let view = board_text(after);
    match ev {
        Event::Move { seat, text, .. } => format!(
            r#"{{"kind":"move","seat":{seat},"text":{},"san":{},"view":{view}}}"#,
            json!(text),
            json!(san.unwrap_or(text))
        ),
        Event::Roll { roll } => {
            format!(r#"{{"kind":"roll","text":{},"view":{view}}}"#, json!(roll))
        }
        Event::Resign { seat } => {
            format!(r#"{{"kind":"resign","seat":{seat},"text":"resigns","view":{view}}}"#)
        }
        Event::Agreement => {
            format!(r#"{{"kind":"agreement","text":"draw agreed","view":{view}}}"#)
        }
        Event::Takeback { plies, .. } => {
            format!(r#"{{"kind":"takeback","text":"{plies} taken back","view":{view}}}"#)
        }
        Event::Flag { seat } => {
            format!(r#"{{"kind":"flag","seat":{seat},"text":"out of time","view":{view}}}"#)
        }
    }
}

/// The board view as JSON text, written straight from the view (every move's view is built: a
/// map of `Value`s per square would cost more than the rest of the move).
pub fn board_text(game: &dyn DynGame) -> String {
    serde_json::to_string(&game.view()).unwrap_or_else(|_| "null".into())
}

/// The status now: whose turn, what may be played (move by move, or part by part where a
/// move is made of parts such as a tables turn's dice), a forced capture, the result, and
/// the players' offers (a draw, a takeback).
pub fn status(live: &LiveGame, thinking: bool) -> Value {
    let (played, game) = (&live.played, live.game());
    let turn = match played.turn() {
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
        "result": result(played),
        "draw_offers": live.draw_offers,
        "takeback_ask": live.takeback_ask.map(|s| s.0),
        "rematch": live.rematch,
        "clock": clock(live),
        "open": live.open_seats(),
    });
    if let Turn::Seat(_) = played.turn() {
        // Moved in, not copied: this runs after every event.
        v["legal"] = Value::from(game.legal_moves());
        v["forced"] = json!(game.forced_note());
        v["steps"] = json!(game.part_moves());
    }
    v
}

/// The game's clocks now (`null` for a game without one).
pub fn clock(live: &LiveGame) -> Value {
    match &live.clock {
        Some(c) => c.view(live.played.turn(), crate::clock::now_ms()),
        None => Value::Null,
    }
}
