//! Game clocks over HTTP: the time control checked on creation, a flag that falls with
//! nobody moving, clocks kept across a restart (the increment earned, the deadline stored),
//! an AI seat that budgets its own time, and the flag kept in the record.

mod common;

use common::{get, post, start, start_with, temp_db};
use libro_server::SqliteStore;
use serde_json::{json, Value};
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

async fn create(addr: SocketAddr, body: Value) -> (String, Value) {
    let (status, v) = post(addr, "/api/games", body).await;
    assert_eq!(status, 200, "{v}");
    (v["id"].as_str().unwrap().to_string(), v)
}

fn token_of(created: &Value, seat: usize) -> String {
    let link = created["seats"][seat]["link"].as_str().unwrap();
    link.split("#t=").nth(1).unwrap().to_string()
}

async fn play(addr: SocketAddr, id: &str, token: &str, mv: &str) -> (u16, Value) {
    post(
        addr,
        &format!("/api/games/{id}/move"),
        json!({"token": token, "move": mv}),
    )
    .await
}

async fn state(addr: SocketAddr, id: &str) -> Value {
    let (status, v) = get(addr, &format!("/api/games/{id}")).await;
    assert_eq!(status, 200, "{v}");
    v
}

/// The game's state once `done` holds of it (polled; fails after 20 s).
async fn until(addr: SocketAddr, id: &str, done: impl Fn(&Value) -> bool) -> Value {
    for _ in 0..400 {
        let s = state(addr, id).await;
        if done(&s) {
            return s;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("game {id} never got there: {}", state(addr, id).await);
}

#[tokio::test]
async fn a_clock_out_of_bounds_or_misspelt_is_refused_naming_what_is_wrong() {
    let srv = start().await;
    let cases = [
        (json!({"initial_s": 0, "increment_s": 0}), "initial_s"),
        (json!({"initial_s": 10_801, "increment_s": 0}), "10800"),
        (json!({"initial_s": 60, "increment_s": 181}), "increment_s"),
        (json!({"initial_s": 60, "increment": 2}), "increment"),
        (json!({"initial_s": -5, "increment_s": 0}), "`-5`"),
    ];
    for (clock, named) in cases {
        let body = json!({"ruleset": "acedrex", "players": ["human", "human"], "clock": clock});
        let (status, v) = post(srv.addr, "/api/games", body).await;
        assert_eq!(status, 400, "{clock}: {v}");
        let e = v["error"].as_str().unwrap();
        assert!(e.contains(named), "{clock}: {e}");
    }
    // Nothing was created.
    let (_, list) = get(srv.addr, "/api/games").await;
    assert_eq!(list.as_array().unwrap().len(), 0, "{list}");
}

#[tokio::test]
async fn the_flag_falls_with_nobody_moving_and_the_late_seat_loses_on_time() {
    let srv = start().await;
    let (id, created) = create(
        srv.addr,
        json!({"ruleset": "acedrex", "players": ["human", "human"],
               "clock": {"initial_s": 1, "increment_s": 0}}),
    )
    .await;
    let (w, b) = (token_of(&created, 0), token_of(&created, 1));
    let s = state(srv.addr, &id).await;
    assert_eq!(
        s["now"]["clock"]["running"],
        Value::Null,
        "not before the first move"
    );
    assert_eq!(s["now"]["clock"]["left_ms"], json!([1000, 1000]));
    assert_eq!(play(srv.addr, &id, &w, "e2e3").await.0, 200);
    let s = state(srv.addr, &id).await;
    assert_eq!(s["now"]["clock"]["running"], 1, "Black's clock runs");
    // Nobody moves: the server ends the game itself.
    let s = until(srv.addr, &id, |s| !s["now"]["result"].is_null()).await;
    let result = &s["now"]["result"];
    assert_eq!(result["reason"], "time", "{result}");
    assert_eq!(result["winner"], 0, "Black ran out: White wins");
    assert_eq!(s["now"]["clock"]["left_ms"][1], 0);
    assert_eq!(s["now"]["clock"]["running"], Value::Null);
    let last = s["history"].as_array().unwrap().last().unwrap().clone();
    assert_eq!(
        (last["kind"].as_str(), last["seat"].as_u64()),
        (Some("flag"), Some(1))
    );
    // Too late to move.
    let (status, v) = play(srv.addr, &id, &b, "e7e6").await;
    assert_eq!(status, 400, "{v}");
    // The flag is in the record, and an import replays it to the same ending.
    let (status, rec) = get(srv.addr, &format!("/api/games/{id}/export")).await;
    assert_eq!(status, 200);
    let events = rec["events"].as_array().unwrap();
    assert_eq!(events.last().unwrap(), &json!({"kind": "flag", "seat": 1}));
    assert!(events[0]["at"].is_i64(), "a timed move says when: {rec}");
    let (status, imported) = post(srv.addr, "/api/import", rec.clone()).await;
    assert_eq!(status, 200, "{imported}");
    let s = state(srv.addr, imported["id"].as_str().unwrap()).await;
    assert_eq!(s["now"]["result"]["reason"], "time");
    // A flag for a seat not to move is refused on import, naming the event.
    let mut bad = rec;
    let n = bad["events"].as_array().unwrap().len();
    bad["events"][n - 1] = json!({"kind": "flag", "seat": 0});
    let (status, v) = post(srv.addr, "/api/import", bad).await;
    assert_eq!(status, 400, "{v}");
    let e = v["error"].as_str().unwrap();
    assert!(
        e.contains(&format!("event {}", n - 1)) && e.contains("not to move"),
        "{e}"
    );
}

#[tokio::test]
async fn clocks_survive_a_restart_with_the_increment_earned_and_the_deadline_kept() {
    let db = temp_db("clock-restart");
    let (id, short) = {
        let srv = start_with(Arc::new(SqliteStore::open(&db).unwrap()), None).await;
        let clock = json!({"initial_s": 60, "increment_s": 5});
        let (id, created) = create(
            srv.addr,
            json!({"ruleset": "acedrex", "players": ["human", "human"], "clock": clock}),
        )
        .await;
        let (w, b) = (token_of(&created, 0), token_of(&created, 1));
        assert_eq!(play(srv.addr, &id, &w, "e2e3").await.0, 200);
        assert_eq!(play(srv.addr, &id, &b, "e7e6").await.0, 200);
        // A second game on a one-second clock, Black to move when the server stops.
        let (short, created) = create(
            srv.addr,
            json!({"ruleset": "acedrex", "players": ["human", "human"],
                   "clock": {"initial_s": 1, "increment_s": 0}}),
        )
        .await;
        assert_eq!(
            play(srv.addr, &short, &token_of(&created, 0), "e2e3")
                .await
                .0,
            200
        );
        (id, short)
    };
    // The server is down past the short game's deadline.
    tokio::time::sleep(Duration::from_millis(1500)).await;
    let srv = start_with(Arc::new(SqliteStore::open(&db).unwrap()), None).await;
    let s = state(srv.addr, &id).await;
    let clock = &s["now"]["clock"];
    assert_eq!(
        (clock["initial_s"].as_u64(), clock["increment_s"].as_u64()),
        (Some(60), Some(5))
    );
    assert_eq!(clock["running"], 0, "White to move: {clock}");
    let left: Vec<i64> = serde_json::from_value(clock["left_ms"].clone()).unwrap();
    // Black moved within seconds and earned 5 s; White's first move was free and its clock
    // has run since Black's move.
    assert!(left[1] > 60_000 && left[1] <= 65_000, "{left:?}");
    assert!(left[0] <= 60_000, "{left:?}");
    // The short game's deadline passed while the server was down: Black lost on time.
    let s = until(srv.addr, &short, |s| !s["now"]["result"].is_null()).await;
    assert_eq!(s["now"]["result"]["reason"], "time");
    assert_eq!(s["now"]["result"]["winner"], 0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_ai_seat_budgets_its_search_from_its_own_clock() {
    let srv = start().await;
    // The AI may think 10 s a move by its spec, but has 3 s on its clock: it must answer
    // before its flag falls.
    let (id, created) = create(
        srv.addr,
        json!({"ruleset": "acedrex", "players": ["human", "ai:movetime=10000"],
               "clock": {"initial_s": 3, "increment_s": 0}}),
    )
    .await;
    assert_eq!(
        play(srv.addr, &id, &token_of(&created, 0), "e2e3").await.0,
        200
    );
    let s = until(srv.addr, &id, |s| {
        s["now"]["ply"].as_u64() >= Some(2) || !s["now"]["result"].is_null()
    })
    .await;
    assert!(
        s["now"]["result"].is_null(),
        "the AI lost on time: {}",
        s["now"]
    );
    assert_eq!(s["now"]["clock"]["running"], 0);
    assert!(s["now"]["clock"]["left_ms"][1].as_i64().unwrap() > 0);
}

/// The board after the game's last event.
fn last_view(s: &Value) -> Value {
    s["history"].as_array().unwrap().last().unwrap()["view"].clone()
}

#[tokio::test]
async fn in_cuatro_tiempos_a_seat_out_of_time_leaves_and_the_others_play_on_across_a_restart() {
    // Two seconds each. Green (seat 0) moves first, for free; Red's clock then runs out and
    // Red leaves as if its king were taken; Black moves at once; the server restarts; White
    // and then Green run out, and Black, the last seat left, wins.
    let db = temp_db("cuatro-flag");
    let id = {
        let srv = start_with(Arc::new(SqliteStore::open(&db).unwrap()), None).await;
        let (id, created) = create(
            srv.addr,
            json!({"ruleset": "cuatro-tiempos", "players": ["human", "human", "human", "human"],
                   "stakes": [1, 1, 1, 1], "clock": {"initial_s": 2, "increment_s": 0}}),
        )
        .await;
        let s = state(srv.addr, &id).await;
        let first = s["now"]["legal"][0].as_str().unwrap().to_string();
        assert_eq!(
            play(srv.addr, &id, &token_of(&created, 0), &first).await.0,
            200
        );
        let s = until(srv.addr, &id, |s| s["now"]["turn"]["seat"] == 2).await;
        assert_eq!(s["now"]["result"], Value::Null, "the game goes on");
        let last = s["history"].as_array().unwrap().last().unwrap().clone();
        assert_eq!(
            (last["kind"].as_str(), last["seat"].as_u64()),
            (Some("flag"), Some(1))
        );
        let view = last_view(&s);
        assert_eq!(view["out"], json!([1]), "{view}");
        assert_eq!(view["active"], json!([true, false, true, true]));
        // Red paid its stake at the start and once for each of its eight pieces.
        assert_eq!(view["paid"], json!([1, 9, 1, 1]));
        assert_eq!(s["now"]["clock"]["running"], 2, "Black's clock runs");
        assert_eq!(s["now"]["clock"]["left_ms"][1], 0);
        // Red can no longer move; Black can.
        let red_try = play(srv.addr, &id, &token_of(&created, 1), "a1a2").await;
        assert_eq!(red_try.0, 400, "{}", red_try.1);
        let black = token_of(&created, 2);
        let mv = s["now"]["legal"][0].as_str().unwrap().to_string();
        let (status, v) = play(srv.addr, &id, &black, &mv).await;
        assert_eq!(status, 200, "{v}");
        id
    };
    let srv = start_with(Arc::new(SqliteStore::open(&db).unwrap()), None).await;
    let s = state(srv.addr, &id).await;
    assert_eq!(last_view(&s)["out"], json!([1]), "Red is still out");
    assert_eq!(s["now"]["result"], Value::Null);
    assert_eq!(
        s["now"]["clock"]["running"], 3,
        "White's clock runs: {}",
        s["now"]
    );
    let s = until(srv.addr, &id, |s| !s["now"]["result"].is_null()).await;
    let result = &s["now"]["result"];
    assert_eq!(result["reason"], "elimination", "{result}");
    assert_eq!(result["winner"], 2, "{result}");
    let ranks: Vec<f64> = result["seats"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["rank"].as_f64().unwrap())
        .collect();
    // First out ranks last: Red, then White, then Green.
    assert_eq!(ranks, [2.0, 4.0, 1.0, 3.0], "{result}");
    let flags: Vec<u64> = s["history"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["kind"] == "flag")
        .map(|e| e["seat"].as_u64().unwrap())
        .collect();
    assert_eq!(flags, [1, 3, 0]);
    // The pot: each seat's stake, and eight more from each seat out; Black takes it.
    let view = last_view(&s);
    assert_eq!(view["pot"], 28, "{view}");
    assert_eq!(view["balances"], json!([-9.0, -9.0, 27.0, -9.0]));
    assert_eq!(s["now"]["clock"]["running"], Value::Null);
    // The record keeps the flags in order, and replays to the same ending, as a record and
    // as the text record of rounds.
    let (_, rec) = get(srv.addr, &format!("/api/games/{id}/export")).await;
    let (status, imported) = post(srv.addr, "/api/import", rec).await;
    assert_eq!(status, 200, "{imported}");
    let s = state(srv.addr, imported["id"].as_str().unwrap()).await;
    assert_eq!(s["now"]["result"]["winner"], 2);
    let (status, text) = get(srv.addr, &format!("/api/games/{id}/export?format=text")).await;
    assert_eq!(status, 200);
    let text = text.as_str().unwrap().to_string();
    // Round 1: Green's move, Red out of time, Black's move, White out of time; round 2:
    // Green out of time.
    let rounds: Vec<&str> = text.split("\n\n").nth(1).unwrap().lines().collect();
    assert_eq!(rounds.len(), 2, "{text}");
    let cells: Vec<&str> = rounds[0].split(" | ").collect();
    assert_eq!((cells[1], cells[3]), ("time", "time"), "{text}");
    assert_eq!(rounds[1], "2. time | - | - | -", "{text}");
    let (status, imported) = post(srv.addr, "/api/import", json!({"text": text})).await;
    assert_eq!(status, 200, "{imported}");
    let s = state(srv.addr, imported["id"].as_str().unwrap()).await;
    assert_eq!(s["now"]["result"]["winner"], 2);
    assert!(!text.contains("LibroEnding"), "{text}");
}

#[tokio::test]
async fn a_flag_against_a_side_that_cannot_win_is_a_draw() {
    // Acedrex with stalemate a draw: Black has only its king, White a rook. Black to move
    // runs out of time: White wins. White to move runs out: Black, a lone king that can
    // neither mate nor win by stalemate, cannot win, so the game is drawn.
    let srv = start().await;
    for (position, mover, reason, winner) in [
        ("4k3/8/8/8/8/8/8/R3K3 w - x 0 1", "e1e2", "time", json!(0)),
        (
            "4k3/8/8/8/8/8/8/R3K3 b - x 0 1",
            "e8e7",
            "time-vs-insufficient",
            Value::Null,
        ),
    ] {
        // A game from a position comes in as a PGN.
        let pgn = format!(
            "[Variant \"acedrex\"]\n[LibroOptions \"stalemate=draw\"]\n[SetUp \"1\"]\n\
             [FEN \"{position}\"]\n[TimeControl \"1+0\"]\n[Result \"*\"]\n\n*\n"
        );
        let (status, created) = post(srv.addr, "/api/import", json!({ "text": pgn })).await;
        assert_eq!(status, 200, "{created}");
        let id = created["id"].as_str().unwrap().to_string();
        let seat = if position.contains(" w ") { 0 } else { 1 };
        let (status, v) = play(srv.addr, &id, &token_of(&created, seat), mover).await;
        assert_eq!(status, 200, "{v}");
        let s = until(srv.addr, &id, |s| !s["now"]["result"].is_null()).await;
        let result = &s["now"]["result"];
        assert_eq!(result["reason"], reason, "{position}: {result}");
        assert_eq!(result["winner"], winner, "{position}: {result}");
        if winner.is_null() {
            assert_eq!(result["seats"][0]["score"], 0.5);
            assert_eq!(result["seats"][1]["score"], 0.5);
        }
    }
}
