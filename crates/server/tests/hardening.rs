//! The server's storage and AI under bad conditions: damaged stored games, the operator's
//! AI ceilings and pool, failing writes, a second server on one database, and seat tokens
//! kept out of the database.

mod common;

use common::{get, post, start_limited, temp_db, FaultyStore};
use futures_util::{SinkExt, StreamExt};
use libro_server::{DbLock, Event, Hub, Limits, Setup, SqliteStore, Store};
use serde_json::{json, Value};
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;
use tokio_tungstenite::tungstenite::Message;

type Ws =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

fn token_of(created: &Value, seat: usize) -> String {
    let link = created["seats"][seat]["link"].as_str().unwrap();
    link.split("#t=").nth(1).unwrap().to_string()
}

async fn recv_type(ws: &mut Ws, kind: &str) -> Value {
    loop {
        let msg = tokio::time::timeout(Duration::from_secs(20), ws.next())
            .await
            .expect("a message in time")
            .unwrap()
            .unwrap();
        if let Message::Text(t) = msg {
            let v: Value = serde_json::from_str(t.as_str()).unwrap();
            if v["type"] == kind {
                return v;
            }
        }
    }
}

async fn history_len(addr: SocketAddr, id: &str) -> usize {
    let (status, v) = get(addr, &format!("/api/games/{id}")).await;
    assert_eq!(status, 200, "{v}");
    v["history"].as_array().unwrap().len()
}

/// Waits (up to 20 s) until the game has `n` events.
async fn wait_for_events(addr: SocketAddr, id: &str, n: usize) {
    for _ in 0..200 {
        if history_len(addr, id).await >= n {
            return;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("game {id} never reached {n} events");
}

fn limits(hash: usize, movetime: u64, threads: usize) -> Limits {
    Limits {
        max_ai_hash_mb: hash,
        max_ai_movetime_ms: movetime,
        ai_threads: threads,
        ..Limits::default()
    }
}

fn setup(ruleset: &str, players: &[&str]) -> Setup {
    Setup {
        ruleset: ruleset.into(),
        options: vec![],
        seed: 1,
        stakes: None,
        players: players.iter().map(|p| p.to_string()).collect(),
        clock: None,
        position: None,
    }
}

fn white(text: &str) -> Event {
    Event::Move {
        seat: 0,
        text: text.into(),
        at: None,
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn stored_games_that_cannot_resume_are_damaged_and_the_others_play_on() {
    let db = temp_db("damaged");
    {
        let s = SqliteStore::open(&db).unwrap();
        let human = [Some(libro_server::store::token_hash("tok")), None];
        let two = [
            Some(libro_server::store::token_hash("tok")),
            Some(libro_server::store::token_hash("blk")),
        ];
        s.create_game("good", &setup("short-assize", &["human", "human"]), &two, 1)
            .unwrap();
        s.append_event("good", 0, &white("d2c4")).unwrap();
        // An event row that is not JSON.
        s.create_game(
            "badjson",
            &setup("short-assize", &["human", "human"]),
            &two,
            2,
        )
        .unwrap();
        // A move the rules refuse (a rook through its own pawn).
        s.create_game(
            "illegal",
            &setup("short-assize", &["human", "human"]),
            &two,
            3,
        )
        .unwrap();
        s.append_event("illegal", 0, &white("a1a5")).unwrap();
        s.create_game(
            "unknown",
            &setup("no-such-ruleset", &["human", "human"]),
            &two,
            4,
        )
        .unwrap();
        // An AI above this server's ceiling of 16 MB.
        s.create_game(
            "greedy",
            &setup("short-assize", &["human", "ai:hash=32"]),
            &human,
            5,
        )
        .unwrap();
        drop(s);
        let conn = rusqlite::Connection::open(&db).unwrap();
        conn.execute(
            "INSERT INTO events (game, idx, event) VALUES ('badjson', 0, '{\"kind\":')",
            [],
        )
        .unwrap();
    }
    let srv = start_limited(
        Arc::new(SqliteStore::open(&db).unwrap()),
        limits(16, 1_000, 1),
    )
    .await;
    for (id, why) in [
        ("badjson", "event 0"),
        ("illegal", "event 0"),
        ("unknown", "no-such-ruleset"),
        ("greedy", "16 MB"),
    ] {
        for path in [
            format!("/api/games/{id}"),
            format!("/api/games/{id}/export"),
        ] {
            let (status, v) = get(srv.addr, &path).await;
            assert_eq!(status, 410, "{path}: {v}");
            assert_eq!(v["damaged"], true, "{path}: {v}");
            let e = v["error"].as_str().unwrap();
            assert!(e.contains(id) && e.contains(why), "{path}: {e}");
        }
        let (status, _) = post(
            srv.addr,
            &format!("/api/games/{id}/move"),
            json!({"token": "tok", "move": "d2c4"}),
        )
        .await;
        assert_eq!(status, 410);
    }
    // The good game is there and goes on: black answers.
    assert_eq!(history_len(srv.addr, "good").await, 1);
    let (status, v) = post(
        srv.addr,
        "/api/games/good/move",
        json!({"token": "blk", "move": "d7c5"}),
    )
    .await;
    assert_eq!(status, 200, "{v}");
    assert_eq!(history_len(srv.addr, "good").await, 2);
    let (status, list) = get(srv.addr, "/api/games").await;
    assert_eq!(status, 200);
    let ids: Vec<&str> = list
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["id"].as_str().unwrap())
        .collect();
    assert_eq!(ids, ["good"], "damaged games are not listed");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn players_above_the_operators_ceilings_are_refused_naming_the_bound() {
    let srv = start_limited(
        Arc::new(SqliteStore::in_memory().unwrap()),
        limits(16, 1_000, 1),
    )
    .await;
    let (status, v) = post(
        srv.addr,
        "/api/games",
        json!({"ruleset": "acedrex", "players": ["ai:hash=4000", "human"]}),
    )
    .await;
    assert_eq!(status, 400, "{v}");
    let e = v["error"].as_str().unwrap();
    assert!(e.contains("player 0") && e.contains("16 MB"), "{e}");
    // Beyond what any player may ask (the bound where settings are parsed).
    let (status, v) = post(
        srv.addr,
        "/api/games",
        json!({"ruleset": "acedrex", "players": ["ai:hash=65536", "human"]}),
    )
    .await;
    assert_eq!(status, 400, "{v}");
    let e = v["error"].as_str().unwrap();
    assert!(e.contains("at most 4096"), "{e}");
    let record = json!({
        "format": "libro-record/1", "ruleset": "short-assize", "seed": 1,
        "players": ["human", "ai:movetime=1001"], "events": []
    });
    let (status, v) = post(srv.addr, "/api/import", record).await;
    assert_eq!(status, 400, "{v}");
    let e = v["error"].as_str().unwrap();
    assert!(e.contains("player 1") && e.contains("1000 ms"), "{e}");
    // Nothing was stored.
    let (_, list) = get(srv.addr, "/api/games").await;
    assert_eq!(list, json!([]));
    // At the ceilings is allowed.
    let (status, v) = post(
        srv.addr,
        "/api/games",
        json!({"ruleset": "short-assize", "players": ["human", "ai:hash=16,movetime=1000"]}),
    )
    .await;
    assert_eq!(status, 200, "{v}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ai_searches_wait_for_the_pool_and_stop_at_the_longest_move_time() {
    // One search at a time, each stopped after 200 ms: a depth-30 search of a chess game
    // would otherwise run for hours.
    let hub = Hub::open_limited(
        Arc::new(SqliteStore::in_memory().unwrap()),
        1,
        limits(16, 200, 1),
    )
    .await
    .unwrap();
    let mut ids = Vec::new();
    for _ in 0..3 {
        let created = hub
            .create(setup("short-assize", &["ai:depth=30", "human"]))
            .await
            .unwrap();
        ids.push(created.id);
    }
    for id in &ids {
        let mut answered = false;
        for _ in 0..200 {
            if hub.get(id).await.unwrap().lock().await.events.len() == 1 {
                answered = true;
                break;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        assert!(answered, "game {id}: the AI never moved");
    }
    // Three searches were asked for at once; the pool ran them one by one.
    assert_eq!(hub.ai_peak(), 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_failed_write_is_reported_not_applied_and_the_game_goes_on() {
    let store = FaultyStore::new();
    let srv = start_limited(store.clone(), limits(16, 1_000, 1)).await;
    let (status, created) = post(
        srv.addr,
        "/api/games",
        json!({"ruleset": "short-assize", "players": ["human", "random"]}),
    )
    .await;
    assert_eq!(status, 200, "{created}");
    let id = created["id"].as_str().unwrap().to_string();
    let tok = token_of(&created, 0);
    let path = format!("/api/games/{id}/move");

    // Over HTTP: an error answer, nothing applied.
    store.plan(&[true]);
    let (status, v) = post(srv.addr, &path, json!({"token": tok, "move": "d2c4"})).await;
    assert_eq!(status, 500, "{v}");
    assert!(
        v["error"].as_str().unwrap().contains("storage failed"),
        "{v}"
    );
    assert_eq!(history_len(srv.addr, &id).await, 0);

    // Over the socket: an error message for that move, nothing applied.
    let (mut ws, _) =
        tokio_tungstenite::connect_async(format!("ws://{}/api/games/{id}/ws?t={tok}", srv.addr))
            .await
            .unwrap();
    recv_type(&mut ws, "full").await;
    store.plan(&[true]);
    ws.send(Message::Text(
        json!({"type": "move", "move": "d2c4", "id": 7})
            .to_string()
            .into(),
    ))
    .await
    .unwrap();
    let e = recv_type(&mut ws, "error").await;
    assert_eq!(e["id"], 7);
    assert!(
        e["message"].as_str().unwrap().contains("storage failed"),
        "{e}"
    );
    assert_eq!(history_len(srv.addr, &id).await, 0);

    // Writes succeed again for the player's move; the AI's reply fails twice, then is
    // stored on a later try without any restart.
    store.plan(&[false, true, true]);
    ws.send(Message::Text(
        json!({"type": "move", "move": "d2c4", "id": 8})
            .to_string()
            .into(),
    ))
    .await
    .unwrap();
    let ok = recv_type(&mut ws, "ok").await;
    assert_eq!(ok["id"], 8);
    wait_for_events(srv.addr, &id, 2).await;
    assert_eq!(
        store.planned(),
        0,
        "both failed writes of the AI were tried"
    );
    let (_, s) = get(srv.addr, &format!("/api/games/{id}")).await;
    assert_eq!(s["history"][0]["text"], "d2c4");
    assert_eq!(s["now"]["turn"], json!({"kind": "seat", "seat": 0}));
    assert_eq!(s["now"]["thinking"], false);
}

#[test]
fn a_second_server_on_one_database_refuses_to_start() {
    let db = temp_db("lock");
    let first = DbLock::acquire(&db).unwrap();
    let e = DbLock::acquire(&db).err().expect("the lock is held");
    assert!(
        e.to_string().contains("in use by another libro serve"),
        "{e}"
    );
    // `serve` itself refuses before listening.
    let args = libro_server::ServeArgs {
        addr: "127.0.0.1".into(),
        port: 0,
        db: db.clone(),
        lab_threads: Some(1),
        max_ai_hash_mb: 16,
        max_ai_movetime: 1_000,
        ai_threads: Some(1),
        idle_unload_secs: 600,
        unstarted_expiry_secs: 3600,
        public_url: None,
        max_connections: 16,
        max_new_games_per_minute: 60,
        max_writes_per_second: 20,
    };
    let e = libro_server::run(args).unwrap_err();
    assert!(
        format!("{e:#}").contains("in use by another libro serve"),
        "{e:#}"
    );
    // Once the first is gone the file is free again.
    drop(first);
    DbLock::acquire(&db).unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_database_holds_seat_token_hashes_not_tokens() {
    let db = temp_db("tokens");
    let srv = start_limited(
        Arc::new(SqliteStore::open(&db).unwrap()),
        limits(16, 1_000, 1),
    )
    .await;
    let (status, created) = post(
        srv.addr,
        "/api/games",
        json!({"ruleset": "short-assize", "players": ["human", "human"]}),
    )
    .await;
    assert_eq!(status, 200);
    let id = created["id"].as_str().unwrap();
    let (w, b) = (token_of(&created, 0), token_of(&created, 1));
    let conn = rusqlite::Connection::open(&db).unwrap();
    let stored: String = conn
        .query_row("SELECT tokens FROM games WHERE id = ?1", [id], |r| r.get(0))
        .unwrap();
    assert!(!stored.contains(&w) && !stored.contains(&b), "{stored}");
    let hashes: Vec<Option<String>> = serde_json::from_str(&stored).unwrap();
    assert_eq!(
        hashes,
        [
            Some(libro_server::store::token_hash(&w)),
            Some(libro_server::store::token_hash(&b))
        ]
    );
    // The links still hold their seats; a wrong token holds none.
    let path = format!("/api/games/{id}/move");
    let (status, _) = post(srv.addr, &path, json!({"token": b, "move": "d2c4"})).await;
    assert_eq!(status, 400, "black is not to move");
    let (status, _) = post(srv.addr, &path, json!({"token": "x", "move": "d2c4"})).await;
    assert_eq!(status, 403);
    let (status, v) = post(srv.addr, &path, json!({"token": w, "move": "d2c4"})).await;
    assert_eq!(status, 200, "{v}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_lobby_list_comes_fifty_games_to_a_page() {
    let srv = start_limited(
        Arc::new(SqliteStore::in_memory().unwrap()),
        limits(16, 1_000, 1),
    )
    .await;
    let mut made = Vec::new();
    for _ in 0..53 {
        let (status, c) = post(
            srv.addr,
            "/api/games",
            json!({"ruleset": "short-assize", "players": ["human", "human"]}),
        )
        .await;
        assert_eq!(status, 200);
        made.push(c["id"].as_str().unwrap().to_string());
    }
    let ids = |v: &Value| -> Vec<String> {
        v.as_array()
            .unwrap()
            .iter()
            .map(|g| g["id"].as_str().unwrap().to_string())
            .collect()
    };
    let (_, first) = get(srv.addr, "/api/games").await;
    let (_, page0) = get(srv.addr, "/api/games?page=0").await;
    let (_, page1) = get(srv.addr, "/api/games?page=1").await;
    let (_, page2) = get(srv.addr, "/api/games?page=2").await;
    assert_eq!(first, page0, "no page is page 0");
    // 53 games: 50 on the first page, the 3 left on the second, none after.
    assert_eq!((ids(&page0).len(), ids(&page1).len()), (50, 3));
    assert_eq!(page2, json!([]));
    let mut all = [ids(&page0), ids(&page1)].concat();
    all.sort();
    made.sort();
    assert_eq!(all, made, "every game on exactly one page");
    let (status, _) = get(srv.addr, "/api/games?page=x").await;
    assert_eq!(status, 400);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn idle_games_leave_memory_and_come_back_and_unstarted_games_expire() {
    let store = Arc::new(SqliteStore::in_memory().unwrap());
    let hub = Hub::open_limited(
        store.clone(),
        1,
        Limits {
            idle_unload: Duration::from_millis(300),
            unstarted_expiry: Duration::from_secs(1),
            ..limits(16, 1_000, 1)
        },
    )
    .await
    .unwrap();
    let started = hub
        .create(setup("short-assize", &["human", "human"]))
        .await
        .unwrap();
    let white_token = token_of(&serde_json::to_value(&started).unwrap(), 0);
    let black_token = token_of(&serde_json::to_value(&started).unwrap(), 1);
    hub.play(&started.id, &white_token, "d2c4").await.unwrap();
    let unstarted = hub
        .create(setup("short-assize", &["human", "human"]))
        .await
        .unwrap();
    assert_eq!(hub.len().await, 2);
    // The started game leaves memory once idle, and is still listed.
    let mut unloaded = false;
    for _ in 0..50 {
        tokio::time::sleep(Duration::from_millis(100)).await;
        // (The unstarted game may expire in the same sweep: ask for this game itself.)
        if !hub.is_loaded(&started.id).await {
            unloaded = true;
            break;
        }
    }
    assert!(unloaded, "the idle game stayed in memory");
    let listed: Vec<Value> = hub.list().await;
    assert!(listed.iter().any(|g| g["id"] == started.id.as_str()));
    // The game never started is deleted after its second (created times are whole
    // seconds: wait out two).
    tokio::time::sleep(Duration::from_millis(2_500)).await;
    assert!(matches!(
        hub.get(&unstarted.id).await,
        Err(libro_server::HubError::NoGame(_))
    ));
    assert!(store.load_game(&unstarted.id).unwrap().is_none());
    assert!(hub
        .list()
        .await
        .iter()
        .all(|g| g["id"] != unstarted.id.as_str()));
    // Asked for, the idle game loads again from the store and plays on.
    {
        let cell = hub.get(&started.id).await.unwrap();
        let g = cell.lock().await;
        assert_eq!(g.events, [white("d2c4")]);
    }
    hub.play(&started.id, &black_token, "d7c5").await.unwrap();
    assert_eq!(
        hub.get(&started.id)
            .await
            .unwrap()
            .lock()
            .await
            .events
            .len(),
        2
    );
    assert_eq!(
        store
            .load_game(&started.id)
            .unwrap()
            .unwrap()
            .unwrap()
            .events
            .len(),
        2
    );
}
