//! The players' own endings and requests over HTTP: resigning, a draw offered and agreed,
//! a takeback asked and granted (at once against an AI, never past a roll), and a rematch
//! with the seats swapped — each kept across a restart where it changes the game.

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

async fn act(addr: SocketAddr, id: &str, action: &str, token: &str) -> (u16, Value) {
    post(
        addr,
        &format!("/api/games/{id}/{action}"),
        json!({ "token": token }),
    )
    .await
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

fn history(s: &Value) -> Vec<String> {
    s["history"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["text"].as_str().unwrap().to_string())
        .collect()
}

#[tokio::test]
async fn a_resignation_ends_the_game_for_the_other_seat_and_survives_a_restart() {
    let db = temp_db("resign");
    let id = {
        let srv = start_with(Arc::new(SqliteStore::open(&db).unwrap()), None).await;
        let (id, created) = create(
            srv.addr,
            json!({"ruleset": "acedrex", "players": ["human", "human"]}),
        )
        .await;
        let (w, b) = (token_of(&created, 0), token_of(&created, 1));
        assert_eq!(play(srv.addr, &id, &w, "e2e3").await.0, 200);
        // A spectator's link cannot resign for anyone.
        let (status, _) = act(srv.addr, &id, "resign", "").await;
        assert_eq!(status, 403);
        let (status, v) = act(srv.addr, &id, "resign", &b).await;
        assert_eq!(status, 200, "{v}");
        let result = &v["now"]["result"];
        assert_eq!(result["reason"], "resignation");
        assert_eq!(result["winner"], 0, "black resigned: white wins");
        assert_eq!(v["now"]["turn"]["kind"], "over");
        // Nothing more is played.
        let (status, v) = play(srv.addr, &id, &b, "e7e6").await;
        assert_eq!(status, 400, "{v}");
        assert!(v["error"].as_str().unwrap().contains("over"), "{v}");
        id
    };
    let srv = start_with(Arc::new(SqliteStore::open(&db).unwrap()), None).await;
    let s = state(srv.addr, &id).await;
    assert_eq!(s["now"]["result"]["reason"], "resignation");
    assert_eq!(s["now"]["result"]["winner"], 0);
    assert_eq!(history(&s), ["e2e3", "resigns"]);
    // Moves carry their SAN for the move list: the pawn's step e2e3 is written `e3`.
    assert_eq!(s["history"][0]["san"], "e3");
}

#[tokio::test]
async fn a_draw_needs_every_seat_and_a_move_withdraws_the_offer() {
    let srv = start().await;
    let (id, created) = create(
        srv.addr,
        json!({"ruleset": "shatranj", "players": ["human", "human"]}),
    )
    .await;
    let (w, b) = (token_of(&created, 0), token_of(&created, 1));
    let (status, v) = act(srv.addr, &id, "draw", &w).await;
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["now"]["draw_offers"], json!([true, false]));
    assert_eq!(v["now"]["turn"]["kind"], "seat", "one offer draws nothing");
    // White moves: its offer lapses.
    assert_eq!(play(srv.addr, &id, &w, "e2e3").await.0, 200);
    let (_, v) = act(srv.addr, &id, "draw", &b).await;
    assert_eq!(v["now"]["draw_offers"], json!([false, true]));
    let (status, v) = act(srv.addr, &id, "draw", &w).await;
    assert_eq!(status, 200, "{v}");
    let result = &v["now"]["result"];
    assert_eq!(result["reason"], "agreement");
    assert_eq!(result["winner"], Value::Null);
    assert_eq!(result["seats"][0]["score"], 0.5);
    assert_eq!(result["seats"][1]["score"], 0.5);
}

#[tokio::test]
async fn a_takeback_is_asked_granted_and_replayed_after_a_restart() {
    let db = temp_db("takeback");
    let (id, w) = {
        let srv = start_with(Arc::new(SqliteStore::open(&db).unwrap()), None).await;
        let (id, created) = create(
            srv.addr,
            json!({"ruleset": "acedrex", "players": ["human", "human"]}),
        )
        .await;
        let (w, b) = (token_of(&created, 0), token_of(&created, 1));
        // Nothing to take back yet.
        assert_eq!(act(srv.addr, &id, "takeback", &w).await.0, 400);
        for (t, mv) in [(&w, "e2e3"), (&b, "e7e6"), (&w, "d2d3")] {
            assert_eq!(play(srv.addr, &id, t, mv).await.0, 200, "{mv}");
        }
        // Black asks to take back e7e6: white's d2d3 goes too (two plies).
        let (status, v) = act(srv.addr, &id, "takeback", &b).await;
        assert_eq!(status, 200, "{v}");
        assert_eq!(v["now"]["takeback_ask"], 1);
        assert_eq!(history(&state(srv.addr, &id).await).len(), 3, "only asked");
        let (status, v) = act(srv.addr, &id, "takeback", &w).await;
        assert_eq!(status, 200, "{v}");
        assert_eq!(v["now"]["takeback_ask"], Value::Null);
        let s = state(srv.addr, &id).await;
        assert_eq!(history(&s), ["e2e3"]);
        assert_eq!(s["now"]["turn"], json!({"kind": "seat", "seat": 1}));
        // Black plays another move instead.
        assert_eq!(play(srv.addr, &id, &b, "d7d6").await.0, 200);
        (id, w)
    };
    let srv = start_with(Arc::new(SqliteStore::open(&db).unwrap()), None).await;
    let s = state(srv.addr, &id).await;
    assert_eq!(history(&s), ["e2e3", "d7d6"]);
    assert_eq!(play(srv.addr, &id, &w, "d2d3").await.0, 200);
    // The record keeps every event, the takeback included, and imports as the same game.
    let (_, rec) = get(srv.addr, &format!("/api/games/{id}/export")).await;
    let kinds: Vec<&str> = rec["events"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["kind"].as_str().unwrap())
        .collect();
    assert_eq!(kinds, ["move", "move", "move", "takeback", "move", "move"]);
    let (status, imported) = post(srv.addr, "/api/import", rec.clone()).await;
    assert_eq!(status, 200, "{imported}");
    let again = state(srv.addr, imported["id"].as_str().unwrap()).await;
    assert_eq!(history(&again), ["e2e3", "d7d6", "d2d3"]);
}

#[tokio::test]
async fn against_an_ai_a_takeback_is_granted_at_once() {
    let srv = start().await;
    let (id, created) = create(
        srv.addr,
        json!({"ruleset": "shatranj", "players": ["human", "ai:1"]}),
    )
    .await;
    let w = token_of(&created, 0);
    assert_eq!(play(srv.addr, &id, &w, "e2e3").await.0, 200);
    // Wait for the AI's reply.
    let mut s = state(srv.addr, &id).await;
    for _ in 0..200 {
        if history(&s).len() == 2 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
        s = state(srv.addr, &id).await;
    }
    assert_eq!(history(&s).len(), 2, "the AI answered");
    let (status, v) = act(srv.addr, &id, "takeback", &w).await;
    assert_eq!(status, 200, "{v}");
    let s = state(srv.addr, &id).await;
    assert!(history(&s).is_empty(), "{:?}", history(&s));
    assert_eq!(s["now"]["turn"], json!({"kind": "seat", "seat": 0}));
}

#[tokio::test]
async fn in_a_dice_game_a_move_is_never_taken_back_past_a_roll() {
    let srv = start().await;
    let (id, created) = create(
        srv.addr,
        json!({"ruleset": "fallas", "players": ["human", "human"], "seed": 3}),
    )
    .await;
    let tokens = [token_of(&created, 0), token_of(&created, 1)];
    // Play the seat to move's first legal play; the server rolls the next seat's dice.
    let s = state(srv.addr, &id).await;
    let seat = s["now"]["turn"]["seat"].as_u64().unwrap() as usize;
    let mv = s["now"]["legal"][0].as_str().unwrap().to_string();
    assert_eq!(play(srv.addr, &id, &tokens[seat], &mv).await.0, 200);
    let (status, v) = act(srv.addr, &id, "takeback", &tokens[seat]).await;
    assert_eq!(status, 400, "{v}");
    assert!(v["error"].as_str().unwrap().contains("rolled"), "{v}");
}

#[tokio::test]
async fn a_rematch_swaps_the_seats_and_each_link_keeps_its_player() {
    let srv = start().await;
    let (id, created) = create(
        srv.addr,
        json!({"ruleset": "acedrex", "players": ["human", "human"]}),
    )
    .await;
    let (w, b) = (token_of(&created, 0), token_of(&created, 1));
    // Only after the game.
    assert_eq!(act(srv.addr, &id, "rematch", &w).await.0, 400);
    assert_eq!(act(srv.addr, &id, "resign", &w).await.0, 200);
    let (status, v) = act(srv.addr, &id, "rematch", &b).await;
    assert_eq!(status, 200, "{v}");
    let new = v["id"].as_str().unwrap().to_string();
    assert_ne!(new, id);
    // Asked again, by either player: the same game.
    let (_, again) = act(srv.addr, &id, "rematch", &w).await;
    assert_eq!(again["id"], new.as_str());
    assert_eq!(state(srv.addr, &id).await["now"]["rematch"], new.as_str());
    // Black's link now holds white: it moves first; white's old link cannot.
    let (status, v) = play(srv.addr, &new, &w, "e2e3").await;
    assert_eq!(status, 400, "{v}");
    assert_eq!(play(srv.addr, &new, &b, "e2e3").await.0, 200);
    assert_eq!(play(srv.addr, &new, &w, "e7e6").await.0, 200);
}

#[tokio::test]
async fn the_page_of_an_unknown_game_is_not_found() {
    let srv = start().await;
    let (status, page) = get(srv.addr, "/g/nosuchgame1").await;
    assert_eq!(status, 404);
    assert!(
        page.as_str().unwrap().contains("<html"),
        "the page still loads to say so"
    );
    let (id, _) = create(
        srv.addr,
        json!({"ruleset": "acedrex", "players": ["human", "human"]}),
    )
    .await;
    assert_eq!(get(srv.addr, &format!("/g/{id}")).await.0, 200);
}
