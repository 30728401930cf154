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

#[tokio::test]
async fn in_cuatro_tiempos_the_flagged_seat_loses_and_the_others_share() {
    let srv = start().await;
    let (id, created) = create(
        srv.addr,
        json!({"ruleset": "cuatro-tiempos", "players": ["human", "human", "human", "human"],
               "stakes": [1, 1, 1, 1], "clock": {"initial_s": 1, "increment_s": 0}}),
    )
    .await;
    let s = state(srv.addr, &id).await;
    let first = s["now"]["legal"][0].as_str().unwrap().to_string();
    assert_eq!(
        play(srv.addr, &id, &token_of(&created, 0), &first).await.0,
        200
    );
    let s = until(srv.addr, &id, |s| !s["now"]["result"].is_null()).await;
    let result = &s["now"]["result"];
    assert_eq!(result["reason"], "time");
    let scores: Vec<f64> = result["seats"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["score"].as_f64().unwrap())
        .collect();
    let third = 1.0 / 3.0;
    assert!(
        scores[1] == 0.0 && [0, 2, 3].iter().all(|&i| (scores[i] - third).abs() < 1e-6),
        "{result}"
    );
}
