//! The analysis board over real HTTP and WebSocket connections: positions set up and played
//! through, bad input named, the engine's analysis streamed for a chess position and for a
//! position waiting for dice, and every analysis stopped when its socket asks about another
//! position or closes (so that the AI pool is free for the next one).

mod common;

use common::{get, post, start, start_limited};
use futures_util::{SinkExt, StreamExt};
use libro_server::{Limits, SqliteStore};
use serde_json::{json, Value};
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;

type Ws = tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<TcpStream>>;

/// Acedrex, white to move: black king e8, white king e6, white rook a1. Ra8 is mate (the
/// rook holds the eighth rank, the king d7, e7 and f7) and the only mate in one.
const MATE_IN_ONE: &str = "4k3/8/4K3/8/8/8/8/R7 w - x 0 1";

/// Percent-encodes a query value.
fn enc(s: &str) -> String {
    s.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' => (b as char).to_string(),
            _ => format!("%{b:02X}"),
        })
        .collect()
}

async fn state(addr: SocketAddr, query: &str) -> (u16, Value) {
    get(addr, &format!("/api/analysis/state?{query}")).await
}

async fn connect(addr: SocketAddr) -> Ws {
    let (ws, _) = tokio_tungstenite::connect_async(format!("ws://{addr}/api/analysis/ws"))
        .await
        .unwrap();
    ws
}

async fn recv(ws: &mut Ws) -> Value {
    loop {
        let msg = tokio::time::timeout(Duration::from_secs(20), ws.next())
            .await
            .expect("a message in time")
            .unwrap()
            .unwrap();
        if let Message::Text(t) = msg {
            return serde_json::from_str(t.as_str()).unwrap();
        }
    }
}

async fn send(ws: &mut Ws, v: Value) {
    ws.send(Message::Text(v.to_string().into())).await.unwrap();
}

/// Every message up to and including the `done` (or `error`) of job `job`.
async fn until_done(ws: &mut Ws, job: u64) -> Vec<Value> {
    let mut seen = Vec::new();
    loop {
        let m = recv(ws).await;
        let end = m["job"] == job && (m["type"] == "done" || m["type"] == "error");
        seen.push(m);
        if end {
            return seen;
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn positions_are_set_up_played_and_bad_input_is_named() {
    let srv = start().await;
    let a = srv.addr;
    // The start position when none is given: Forçado's setup, as written in its file.
    let (status, v) = state(a, "ruleset=forcado").await;
    assert_eq!(status, 200, "{v}");
    assert_eq!(
        v["position"],
        "rnafkanr/pppppppp/8/8/8/8/PPPPPPPP/RNAFKANR w - - 0 1"
    );
    assert_eq!(v["turn"], json!({"kind": "seat", "seat": 0}));
    assert!(v["legal"].as_array().unwrap().contains(&json!("e2e3")));
    // A move for whichever seat is to move: white's e3, then black's answer.
    let q = format!(
        "ruleset=forcado&position={}&move=e2e3",
        enc(v["position"].as_str().unwrap())
    );
    let (status, v) = state(a, &q).await;
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["played"]["san"], "e3");
    assert_eq!(v["turn"], json!({"kind": "seat", "seat": 1}));
    let q = format!(
        "ruleset=forcado&position={}&move=d7d6",
        enc(v["position"].as_str().unwrap())
    );
    let (status, v) = state(a, &q).await;
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["turn"], json!({"kind": "seat", "seat": 0}));

    // The mate ends the game: white wins.
    let q = format!("ruleset=acedrex&position={}&move=a1a8", enc(MATE_IN_ONE));
    let (status, v) = state(a, &q).await;
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["played"]["san"], "Ra8#");
    assert_eq!(v["turn"]["kind"], "over");
    assert_eq!(v["result"]["winner"], 0);

    // Bad input, each named.
    let (status, v) = state(a, "ruleset=no-such-game").await;
    assert_eq!(status, 400);
    assert!(v["error"].as_str().unwrap().contains("no-such-game"), "{v}");
    // Every error answer carries a stable code beside its words (pages translate it).
    assert_eq!(v["code"], "bad-request");
    let (status, v) = state(a, "ruleset=..%2Fetc").await;
    assert_eq!(status, 400, "{v}");
    let (status, v) = state(a, "ruleset=acedrex&position=4k3%2F9%20w").await;
    assert_eq!(status, 400);
    let e = v["error"].as_str().unwrap();
    assert!(e.contains("position `4k3/9 w` cannot be read"), "{e}");
    let q = format!("ruleset=acedrex&position={}&move=a1b2", enc(MATE_IN_ONE));
    let (status, v) = state(a, &q).await;
    assert_eq!(status, 400);
    assert!(v["error"].as_str().unwrap().contains("move `a1b2`"), "{v}");
    let (status, v) = state(a, "ruleset=acedrex&options=stalemate").await;
    assert_eq!(status, 400);
    assert!(
        v["error"]
            .as_str()
            .unwrap()
            .contains("`stalemate` is not KEY=VALUE"),
        "{v}"
    );
    let (status, v) = state(a, "ruleset=acedrex&options=no_such_option%3D1").await;
    assert_eq!(status, 400);
    assert!(
        v["error"].as_str().unwrap().contains("no_such_option"),
        "{v}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn dice_are_set_by_hand_and_the_only_falla_of_the_start_loses() {
    let srv = start().await;
    let a = srv.addr;
    // Fallas starts with the roll-off; the same board with white to roll is `ID:white:roll`.
    let (_, v) = state(a, "ruleset=fallas").await;
    let start = v["position"].as_str().unwrap().to_string();
    let id = start.strip_suffix(":roll-off").expect("the roll-off first");
    let to_roll = format!("{id}:white:roll");
    let (status, v) = state(a, &format!("ruleset=fallas&position={}", enc(&to_roll))).await;
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["turn"]["kind"], "chance");
    // Three dice, unordered: C(8, 3) = 56 distinct rolls.
    assert_eq!(v["chance"].as_array().unwrap().len(), 56);
    // 6-4-1 leaves white to play those dice; 5-5-5 is the falla (see the rolls test below).
    let q = format!("ruleset=fallas&position={}&move=6-4-1", enc(&to_roll));
    let (status, v) = state(a, &q).await;
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["turn"], json!({"kind": "seat", "seat": 0}));
    let q = format!("ruleset=fallas&position={}&move=5-5-5", enc(&to_roll));
    let (status, v) = state(a, &q).await;
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["result"]["reason"], "falla");
    assert_eq!(v["result"]["winner"], 1);
    let q = format!("ruleset=fallas&position={}&move=7-1-1", enc(&to_roll));
    let (status, v) = state(a, &q).await;
    assert_eq!(status, 400, "{v}");
    assert!(v["error"].as_str().unwrap().contains("7-1-1"), "{v}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_engine_streams_the_mate_in_one() {
    let srv = start().await;
    let mut ws = connect(srv.addr).await;
    send(
        &mut ws,
        json!({"type": "analyse", "ruleset": "acedrex", "position": MATE_IN_ONE}),
    )
    .await;
    let start = recv(&mut ws).await;
    assert_eq!(start, json!({"type": "start", "job": 1, "kind": "search"}));
    let seen = until_done(&mut ws, 1).await;
    let done = seen.last().unwrap();
    assert_eq!(done["type"], "done", "{done}");
    let lines: Vec<&Value> = seen.iter().filter(|m| m["type"] == "line").collect();
    assert!(!lines.is_empty(), "{seen:?}");
    let last = lines.last().unwrap();
    assert_eq!(last["score"], json!({"mate": 1}), "{last}");
    assert_eq!(last["pv"][0], "a1a8");
    assert_eq!(last["san"][0], "Ra8#");
    assert!(last["depth"].as_u64().unwrap() >= 1);
    // Chess results are mate scores, not a share of a game: no equity.
    assert_eq!(last["equity"], Value::Null);

    // Bad input on the socket is answered, and the socket goes on.
    send(
        &mut ws,
        json!({"type": "analyse", "ruleset": "acedrex", "position": "8/8 w"}),
    )
    .await;
    let e = recv(&mut ws).await;
    assert_eq!(e["type"], "error");
    assert!(
        e["message"].as_str().unwrap().contains("position `8/8 w`"),
        "{e}"
    );
    send(&mut ws, json!({"type": "analyse", "ruleset": "nope"})).await;
    let e = recv(&mut ws).await;
    assert!(e["message"].as_str().unwrap().contains("nope"), "{e}");
    send(&mut ws, json!({"type": "think"})).await;
    let e = recv(&mut ws).await;
    assert!(
        e["message"].as_str().unwrap().contains("malformed message"),
        "{e}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_roll_of_the_fallas_start_with_its_odds_and_its_falla() {
    let srv = start().await;
    let (_, v) = state(srv.addr, "ruleset=fallas").await;
    let id = v["position"]
        .as_str()
        .unwrap()
        .strip_suffix(":roll-off")
        .unwrap()
        .to_string();
    let mut ws = connect(srv.addr).await;
    send(
        &mut ws,
        json!({"type": "analyse", "ruleset": "fallas", "position": format!("{id}:white:roll")}),
    )
    .await;
    assert_eq!(recv(&mut ws).await["kind"], "rolls");
    let seen = until_done(&mut ws, 1).await;
    let pass = seen
        .iter()
        .find(|m| m["type"] == "rolls")
        .unwrap_or_else(|| panic!("a first pass: {seen:?}"));
    // By hand (crates/tables/tests/reference.rs): at the start only the 5s are blocked (24/19
    // and 6/1), and any other die opens a 5 from where it lands, so 5-5-5 is the one falla:
    // 1 of 216.
    let rolls = pass["rolls"].as_array().unwrap();
    assert_eq!(rolls.len(), 56);
    assert_eq!(
        (pass["falla_weight"].as_u64(), pass["total"].as_u64()),
        (Some(1), Some(216))
    );
    let weights: u64 = rolls.iter().map(|r| r["weight"].as_u64().unwrap()).sum();
    assert_eq!(weights, 216);
    let fallas: Vec<&str> = rolls
        .iter()
        .filter(|r| r["falla"] == true)
        .map(|r| r["roll"].as_str().unwrap())
        .collect();
    assert_eq!(fallas, ["5-5-5"]);
    // The falla loses the game: equity -1 for white on roll; every other roll has a play.
    for r in rolls {
        if r["falla"] == true {
            assert_eq!(r["equity"], -1.0, "{r}");
            assert_eq!(r["best"], Value::Null);
        } else {
            assert!(r["best"].is_string(), "{r}");
            assert!(r["plays"].as_u64().unwrap() >= 1);
        }
    }
    // Three different dice come in 3! = 6 orders; three alike in one.
    let r654 = rolls.iter().find(|r| r["roll"] == "6-5-4").unwrap();
    assert_eq!(r654["weight"], 6);
    let r555 = rolls.iter().find(|r| r["roll"] == "5-5-5").unwrap();
    assert_eq!(r555["weight"], 1);
    let eq = pass["equity"].as_f64().unwrap();
    assert!((-1.0..=1.0).contains(&eq), "{eq}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_new_position_or_a_closed_socket_stops_the_analysis() {
    // One AI thread and a time ceiling far beyond the test's waits: a second analysis can
    // only be answered if the first one was stopped.
    let limits = Limits {
        ai_threads: 1,
        max_ai_movetime_ms: 600_000,
        ..Limits::default()
    };
    let srv = start_limited(Arc::new(SqliteStore::in_memory().unwrap()), limits).await;
    let mut ws = connect(srv.addr).await;
    // The start of Acedrex to depth 30: far more than the waits here.
    send(&mut ws, json!({"type": "analyse", "ruleset": "acedrex"})).await;
    assert_eq!(recv(&mut ws).await["job"], 1);
    send(
        &mut ws,
        json!({"type": "analyse", "ruleset": "acedrex", "position": MATE_IN_ONE}),
    )
    .await;
    let mut seen = until_done(&mut ws, 2).await;
    // The first analysis's end may come before or after the second's.
    if !seen.iter().any(|m| m["type"] == "done" && m["job"] == 1) {
        seen.extend(until_done(&mut ws, 1).await);
    }
    let first_done = seen
        .iter()
        .find(|m| m["type"] == "done" && m["job"] == 1)
        .unwrap();
    assert_eq!(first_done["stopped"], true);
    let mate = seen
        .iter()
        .rev()
        .find(|m| m["type"] == "line" && m["job"] == 2)
        .unwrap();
    assert_eq!(mate["san"][0], "Ra8#");

    // Closing the socket stops its analysis: a new socket gets the pool's one thread.
    send(&mut ws, json!({"type": "analyse", "ruleset": "acedrex"})).await;
    assert_eq!(recv(&mut ws).await["job"], 3);
    ws.close(None).await.unwrap();
    drop(ws);
    let mut other = connect(srv.addr).await;
    send(
        &mut other,
        json!({"type": "analyse", "ruleset": "acedrex", "position": MATE_IN_ONE}),
    )
    .await;
    assert_eq!(recv(&mut other).await["job"], 1);
    let seen = until_done(&mut other, 1).await;
    assert_eq!(seen.last().unwrap()["type"], "done", "{seen:?}");

    // `stop` ends the analysis running, saying it was cut short.
    send(&mut other, json!({"type": "analyse", "ruleset": "acedrex"})).await;
    assert_eq!(recv(&mut other).await["job"], 2);
    send(&mut other, json!({"type": "stop"})).await;
    let seen = until_done(&mut other, 2).await;
    assert_eq!(seen.last().unwrap()["stopped"], true, "{seen:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_gives_the_position_of_any_move_for_the_analysis_board() {
    let srv = start().await;
    let a = srv.addr;
    let (status, created) = post(
        a,
        "/api/games",
        json!({"ruleset": "forcado", "players": ["human", "human"], "options": {"stalemate": "draw"}}),
    )
    .await;
    assert_eq!(status, 200, "{created}");
    let id = created["id"].as_str().unwrap();
    let token = |seat: usize| {
        created["seats"][seat]["link"]
            .as_str()
            .unwrap()
            .split("#t=")
            .nth(1)
            .unwrap()
            .to_string()
    };
    for (seat, mv) in [(0, "e2e3"), (1, "d7d6")] {
        let (status, v) = post(
            a,
            &format!("/api/games/{id}/move"),
            json!({"token": token(seat), "move": mv}),
        )
        .await;
        assert_eq!(status, 200, "{v}");
    }
    let (status, at0) = get(a, &format!("/api/games/{id}/position?at=0")).await;
    assert_eq!(status, 200, "{at0}");
    assert_eq!(at0["ruleset"], "forcado");
    assert_eq!(at0["options"], json!({"stalemate": "draw"}));
    assert_eq!(
        at0["position"],
        "rnafkanr/pppppppp/8/8/8/8/PPPPPPPP/RNAFKANR w - - 0 1"
    );
    let (_, at1) = get(a, &format!("/api/games/{id}/position?at=1")).await;
    let (_, now) = get(a, &format!("/api/games/{id}/position")).await;
    assert_eq!(now["at"], 2);
    // The position after e3 is the analysis board's after e3 from the start.
    let (_, after) = state(a, "ruleset=forcado&move=e2e3").await;
    assert_eq!(at1["position"], after["position"]);
    let q = format!(
        "ruleset=forcado&position={}&move=d7d6",
        enc(at1["position"].as_str().unwrap())
    );
    let (_, after) = state(a, &q).await;
    assert_eq!(now["position"], after["position"]);
    let (status, v) = get(a, "/api/games/nosuchgame/position").await;
    assert_eq!(status, 404);
    assert_eq!(v["code"], "no-game");
}

#[tokio::test]
async fn the_editor_s_placed_pieces_become_a_position_or_a_named_refusal() {
    let srv = start().await;
    let piece = |square: &str, seat: u8, piece: &str| json!({"square": square, "seat": seat, "piece": piece});
    // The mate-in-one position, placed piece by piece: Black's king e8, White's king e6 and
    // rook a1, White to move.
    let body = json!({"ruleset": "acedrex", "to_move": 0,
        "pieces": [piece("e8", 1, "K"), piece("e6", 0, "K"), piece("a1", 0, "R")]});
    let (status, v) = post(srv.addr, "/api/analysis/setup", body).await;
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["position"], MATE_IN_ONE);
    assert_eq!(v["turn"]["seat"], 0);
    assert!(
        v["legal"].as_array().unwrap().iter().any(|m| m == "a1a8"),
        "{v}"
    );
    // Refusals name the problem: two white kings; a white pawn unpromoted on the eighth
    // rank; Black in check with White to move; a piece the ruleset does not have.
    let cases = [
        (
            vec![
                piece("e1", 0, "K"),
                piece("d1", 0, "K"),
                piece("e8", 1, "K"),
            ],
            0,
            "kings",
        ),
        (
            vec![
                piece("e1", 0, "K"),
                piece("e8", 1, "K"),
                piece("a8", 0, "P"),
            ],
            0,
            "unpromoted",
        ),
        (
            vec![
                piece("e1", 0, "K"),
                piece("e8", 1, "K"),
                piece("e4", 0, "R"),
            ],
            0,
            "opponent-in-check",
        ),
        (vec![piece("e1", 0, "K"), piece("e8", 1, "Q")], 0, "piece"),
        (vec![piece("e1", 0, "K"), piece("i9", 1, "K")], 0, "square"),
    ];
    for (pieces, to_move, problem) in cases {
        let body = json!({"ruleset": "acedrex", "to_move": to_move, "pieces": pieces});
        let (status, v) = post(srv.addr, "/api/analysis/setup", body).await;
        assert_eq!(status, 400, "{v}");
        assert_eq!(
            (v["code"].as_str(), v["problem"].as_str()),
            (Some("bad-setup"), Some(problem)),
            "{v}"
        );
        assert!(v["error"].as_str().unwrap().starts_with("setup: "), "{v}");
    }
    // A malformed body, an unknown ruleset and a game without pieces to place.
    let (status, v) = post(
        srv.addr,
        "/api/analysis/setup",
        json!({"ruleset": "acedrex"}),
    )
    .await;
    assert_eq!(
        (status, v["code"].as_str()),
        (400, Some("bad-request")),
        "{v}"
    );
    let body = json!({"ruleset": "nope", "to_move": 0, "pieces": []});
    let (status, v) = post(srv.addr, "/api/analysis/setup", body).await;
    assert_eq!(status, 400, "{v}");
    assert!(v["error"].as_str().unwrap().contains("nope"), "{v}");
    let body = json!({"ruleset": "fallas", "to_move": 0, "pieces": []});
    let (status, v) = post(srv.addr, "/api/analysis/setup", body).await;
    assert_eq!(
        (status, v["problem"].as_str()),
        (400, Some("unsupported")),
        "{v}"
    );
}
