//! The server over real HTTP and WebSocket connections: creating games, seat links, moves,
//! refusals of wrong seats and malformed requests, restart from the database, and records.

mod common;

use common::{get, http, post, start, start_with, temp_db};
use futures_util::{SinkExt, StreamExt};
use libro_server::SqliteStore;
use serde_json::{json, Value};
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;

type Ws = tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<TcpStream>>;

fn token_of(created: &Value, seat: usize) -> String {
    let link = created["seats"][seat]["link"]
        .as_str()
        .expect("a human seat has a link");
    link.split("#t=").nth(1).unwrap().to_string()
}

async fn connect(addr: SocketAddr, id: &str, token: &str) -> Ws {
    let (ws, _) =
        tokio_tungstenite::connect_async(format!("ws://{addr}/api/games/{id}/ws?t={token}"))
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

/// Reads messages until one of type `kind` arrives.
async fn recv_type(ws: &mut Ws, kind: &str) -> Value {
    loop {
        let m = recv(ws).await;
        if m["type"] == kind {
            return m;
        }
    }
}

async fn send(ws: &mut Ws, v: Value) {
    ws.send(Message::Text(v.to_string().into())).await.unwrap();
}

async fn state(addr: SocketAddr, id: &str) -> Value {
    let (status, v) = get(addr, &format!("/api/games/{id}")).await;
    assert_eq!(status, 200, "{v}");
    v
}

async fn create(addr: SocketAddr, body: Value) -> (String, Value) {
    let (status, created) = post(addr, "/api/games", body).await;
    assert_eq!(status, 200, "{created}");
    (created["id"].as_str().unwrap().to_string(), created)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_seats_join_by_their_links_and_everyone_sees_the_move() {
    let srv = start().await;
    let (id, created) = create(
        srv.addr,
        json!({"ruleset": "acedrex", "players": ["human", "human"]}),
    )
    .await;
    assert_eq!(created["spectator"], format!("/g/{id}"));
    let (w, b) = (token_of(&created, 0), token_of(&created, 1));
    assert_ne!(w, b);

    let mut white = connect(srv.addr, &id, &w).await;
    let mut black = connect(srv.addr, &id, &b).await;
    let mut watcher = connect(srv.addr, &id, "").await;
    let full = recv_type(&mut white, "full").await;
    assert_eq!(full["you"], 0);
    assert_eq!(recv_type(&mut black, "full").await["you"], 1);
    assert_eq!(recv_type(&mut watcher, "full").await["you"], Value::Null);
    // Acedrex: white to move first; e2e4 is the pawn's double step (allowed until a capture).
    assert_eq!(full["now"]["turn"], json!({"kind": "seat", "seat": 0}));
    assert!(full["now"]["legal"]
        .as_array()
        .unwrap()
        .contains(&json!("e2e4")));
    // The start position shows the pawn on e2 and the fers on d1 (seed 004: fers beside the king).
    let squares = full["start"]["squares"].as_array().unwrap();
    assert!(squares.contains(&json!({"sq": "e2", "seat": 0, "pieces": ["P"]})));
    assert!(squares.contains(&json!({"sq": "d1", "seat": 0, "pieces": ["F"]})));

    send(&mut white, json!({"type": "move", "move": "e2e4", "id": 1})).await;
    // The mover is told its move is done (after it was stored and announced).
    assert_eq!(recv_type(&mut white, "ok").await["id"], 1);
    for ws in [&mut black, &mut watcher] {
        let up = recv_type(ws, "update").await;
        assert_eq!(up["entries"][0]["kind"], "move");
        assert_eq!(up["entries"][0]["seat"], 0);
        assert_eq!(up["entries"][0]["text"], "e2e4");
        assert_eq!(up["now"]["turn"], json!({"kind": "seat", "seat": 1}));
    }
    send(&mut black, json!({"type": "move", "move": "e7e5"})).await;
    let up = recv_type(&mut watcher, "update").await;
    assert_eq!(up["entries"][0]["seat"], 1);
    assert_eq!(
        state(srv.addr, &id).await["history"]
            .as_array()
            .unwrap()
            .len(),
        2
    );
    // The list of games shows it in progress.
    let (_, list) = get(srv.addr, "/api/games").await;
    let mine = list
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["id"] == id.as_str())
        .unwrap();
    assert_eq!(mine["over"], false);
    assert_eq!(mine["ply"], 2);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn only_the_holder_of_a_seat_link_moves_for_that_seat() {
    let srv = start().await;
    let (id, created) = create(
        srv.addr,
        json!({"ruleset": "forcado", "players": ["human", "human"]}),
    )
    .await;
    let b = token_of(&created, 1);
    // Black's link on white's turn.
    let mut black = connect(srv.addr, &id, &b).await;
    recv_type(&mut black, "full").await;
    send(&mut black, json!({"type": "move", "move": "e2e3"})).await;
    let err = recv_type(&mut black, "error").await;
    assert!(err["message"].as_str().unwrap().contains("turn"), "{err}");
    send(&mut black, json!({"type": "move", "move": "e7e6"})).await;
    recv_type(&mut black, "error").await;
    // A spectator, and a made-up token, cannot move at all.
    let mut watcher = connect(srv.addr, &id, "").await;
    recv_type(&mut watcher, "full").await;
    send(&mut watcher, json!({"type": "move", "move": "e2e3"})).await;
    assert!(recv_type(&mut watcher, "error").await["message"]
        .as_str()
        .unwrap()
        .contains("does not hold a seat"));
    let mut forger = connect(srv.addr, &id, "AAAAAAAAAAAAAAAAAAAAAA").await;
    let first = recv(&mut forger).await;
    assert_eq!(first["you"], Value::Null);
    send(&mut forger, json!({"type": "move", "move": "e2e3"})).await;
    recv_type(&mut forger, "error").await;
    // Over HTTP too: a token of another game's seat is no good here.
    let (_, other) = create(
        srv.addr,
        json!({"ruleset": "forcado", "players": ["human", "human"]}),
    )
    .await;
    let (status, body) = post(
        srv.addr,
        &format!("/api/games/{id}/move"),
        json!({"token": token_of(&other, 0), "move": "e2e3"}),
    )
    .await;
    assert_eq!(status, 403, "{body}");
    assert_eq!(
        state(srv.addr, &id).await["now"]["ply"],
        0,
        "nothing was played"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn malformed_and_hostile_requests_get_an_error_and_change_nothing() {
    let srv = start().await;
    let a = srv.addr;
    let (id, created) = create(
        a,
        json!({"ruleset": "forcado", "players": ["human", "human"]}),
    )
    .await;
    let w = token_of(&created, 0);

    for (body, needle) in [
        ("{not json", "malformed"),
        (
            r#"{"ruleset": "no-such-game", "players": ["human", "human"]}"#,
            "no ruleset",
        ),
        (
            r#"{"ruleset": "../../etc/passwd", "players": ["human", "human"]}"#,
            "not a shipped",
        ),
        (r#"{"ruleset": "forcado", "players": ["human"]}"#, "2 seats"),
        (
            r#"{"ruleset": "forcado", "players": ["human", "ai:99"]}"#,
            "ai:99",
        ),
        (
            r#"{"ruleset": "forcado", "players": ["human", "human"], "stakes": [1, 2]}"#,
            "no stakes",
        ),
        (
            r#"{"ruleset": "cuatro-tiempos", "players": ["human", "human", "human", "human"], "stakes": [1, 0, 1, 1]}"#,
            "stake",
        ),
        (
            r#"{"ruleset": "forcado", "players": ["human", "human"], "options": {"forced_capture": "sometimes"}}"#,
            "forced_capture",
        ),
        (
            r#"{"ruleset": "forcado", "players": ["human", "human"], "evil": true}"#,
            "evil",
        ),
    ] {
        let (status, v) = http(a, "POST", "/api/games", Some(body)).await;
        assert_eq!(status, 400, "{body} -> {v}");
        assert!(
            v["error"].as_str().unwrap().contains(needle),
            "{body} -> {v}"
        );
    }
    let (_, list) = get(a, "/api/games").await;
    assert_eq!(
        list.as_array().unwrap().len(),
        1,
        "no game was created by a bad request"
    );

    // Bad moves over HTTP: illegal, nonsense, over-long, wrong fields, unknown game.
    for body in [
        json!({"token": w, "move": "e2e5"}),
        json!({"token": w, "move": "Zz9"}),
        json!({"token": w, "move": "x".repeat(10_000)}),
        json!({"token": w, "mv": "e2e3"}),
        json!({"token": w, "move": ""}),
    ] {
        let (status, v) = post(a, &format!("/api/games/{id}/move"), body.clone()).await;
        assert_eq!(status, 400, "{body} -> {v}");
        assert!(v["error"].is_string());
    }
    let (status, _) = post(
        a,
        "/api/games/nosuchgame/move",
        json!({"token": w, "move": "e2e3"}),
    )
    .await;
    assert_eq!(status, 404);
    let (status, _) = get(a, "/api/games/nosuchgame").await;
    assert_eq!(status, 404);
    let (status, _) = get(a, "/assets/..%2F..%2FCargo.toml").await;
    assert_eq!(status, 404);

    // Bad messages over the socket.
    let mut ws = connect(a, &id, &w).await;
    recv_type(&mut ws, "full").await;
    for text in [
        "garbage",
        "{}",
        r#"{"type":"move"}"#,
        r#"{"type":"resign","move":"e2e3"}"#,
        r#"{"type":"move","move":7}"#,
    ] {
        ws.send(Message::Text(text.into())).await.unwrap();
        let err = recv_type(&mut ws, "error").await;
        assert!(
            err["message"].as_str().unwrap().contains("malformed"),
            "{text} -> {err}"
        );
    }
    send(&mut ws, json!({"type": "move", "move": "e2e5"})).await;
    assert!(recv_type(&mut ws, "error").await["message"]
        .as_str()
        .unwrap()
        .contains("e2e5"));
    ws.send(Message::Binary(vec![0u8; 10].into()))
        .await
        .unwrap();
    recv_type(&mut ws, "error").await;
    // The socket still works afterwards, and nothing was played.
    send(&mut ws, json!({"type": "ping", "id": 5})).await;
    assert_eq!(recv_type(&mut ws, "pong").await["id"], 5);
    assert_eq!(state(a, &id).await["now"]["ply"], 0);
    // A message over the size limit closes that socket, and the server lives on.
    let _ = ws.send(Message::Text("y".repeat(100_000).into())).await;
    assert_eq!(state(a, &id).await["now"]["ply"], 0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn forcado_tells_why_a_capture_is_forced() {
    let srv = start().await;
    let (id, created) = create(
        srv.addr,
        json!({"ruleset": "forcado", "players": ["human", "human"]}),
    )
    .await;
    let (w, b) = (token_of(&created, 0), token_of(&created, 1));
    // 1. e2e3 d7d6 2. e3e4 d6d5: now white's e4 pawn can take the d5 pawn, and must.
    for (tok, mv) in [(&w, "e2e3"), (&b, "d7d6"), (&w, "e3e4"), (&b, "d6d5")] {
        let (status, v) = post(
            srv.addr,
            &format!("/api/games/{id}/move"),
            json!({"token": tok, "move": mv}),
        )
        .await;
        assert_eq!(status, 200, "{mv}: {v}");
    }
    let now = state(srv.addr, &id).await["now"].clone();
    assert_eq!(
        now["legal"],
        json!(["e4d5"]),
        "the only legal move is the capture"
    );
    let why = now["forced"].as_str().expect("an explanation");
    assert!(why.contains("d5") && why.contains("e4"), "{why}");
    let (status, v) = post(
        srv.addr,
        &format!("/api/games/{id}/move"),
        json!({"token": w, "move": "a2a3"}),
    )
    .await;
    assert_eq!(status, 400);
    assert!(v["error"].as_str().unwrap().contains("capture"), "{v}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_restarted_server_continues_every_game_where_it_was() {
    let db = temp_db("restart");
    let (id, w, b, history) = {
        let srv = start_with(Arc::new(SqliteStore::open(&db).unwrap()), None).await;
        let (id, created) = create(
            srv.addr,
            json!({"ruleset": "short-assize", "players": ["human", "human"]}),
        )
        .await;
        let (w, b) = (token_of(&created, 0), token_of(&created, 1));
        for (tok, mv) in [(&w, "d2c4"), (&b, "d7c5")] {
            let (status, v) = post(
                srv.addr,
                &format!("/api/games/{id}/move"),
                json!({"token": tok, "move": mv}),
            )
            .await;
            assert_eq!(status, 200, "{mv}: {v}");
        }
        let (fid, _) = create(
            srv.addr,
            json!({"ruleset": "fallas", "players": ["human", "human"], "seed": 42}),
        )
        .await;
        let fallas = state(srv.addr, &fid).await;
        (id, w, b, (fid, fallas))
    };
    // A new server on the same file.
    let srv = start_with(Arc::new(SqliteStore::open(&db).unwrap()), None).await;
    let s = state(srv.addr, &id).await;
    let texts: Vec<&str> = s["history"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["text"].as_str().unwrap())
        .collect();
    assert_eq!(texts, ["d2c4", "d7c5"]);
    assert_eq!(s["now"]["turn"], json!({"kind": "seat", "seat": 0}));
    // The old links still hold their seats.
    let (status, v) = post(
        srv.addr,
        &format!("/api/games/{id}/move"),
        json!({"token": w, "move": "e2d4"}),
    )
    .await;
    assert_eq!(status, 200, "{v}");
    let (status, _) = post(
        srv.addr,
        &format!("/api/games/{id}/move"),
        json!({"token": w, "move": "a3a4"}),
    )
    .await;
    assert_eq!(status, 400, "not white's turn any more");
    let _ = b;
    // The dice of the tables game were stored: the same rolls come back, not new ones.
    let (fid, before) = history;
    let after = state(srv.addr, &fid).await;
    assert_eq!(before["history"], after["history"]);
    assert_eq!(before["now"]["position"], after["now"]["position"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_exported_and_imported_is_the_same_game() {
    let srv = start().await;
    let a = srv.addr;
    let (id, created) = create(
        a,
        json!({"ruleset": "fallas", "players": ["human", "human"], "seed": 7}),
    )
    .await;
    let tokens = [token_of(&created, 0), token_of(&created, 1)];
    // Play three turns of Fallas: the server rolls, the seat to move plays its first legal play.
    for _ in 0..3 {
        let s = state(a, &id).await;
        let seat = s["now"]["turn"]["seat"].as_u64().expect("a seat to move") as usize;
        let play = s["now"]["legal"][0].as_str().unwrap().to_string();
        let (status, v) = post(
            a,
            &format!("/api/games/{id}/move"),
            json!({"token": tokens[seat], "move": play}),
        )
        .await;
        assert_eq!(status, 200, "{v}");
    }
    let (status, rec) = get(a, &format!("/api/games/{id}/export")).await;
    assert_eq!(status, 200);
    assert_eq!(rec["format"], "libro-record/1");
    assert_eq!(rec["ruleset"], "fallas");
    let events = rec["events"].as_array().unwrap();
    assert!(
        events.iter().filter(|e| e["kind"] == "roll").count() >= 4,
        "roll-off and three rolls: {rec}"
    );
    assert_eq!(events.iter().filter(|e| e["kind"] == "move").count(), 3);

    let (status, imported) = post(a, "/api/import", rec.clone()).await;
    assert_eq!(status, 200, "{imported}");
    let new_id = imported["id"].as_str().unwrap();
    assert_ne!(new_id, id);
    let (old, new) = (state(a, &id).await, state(a, new_id).await);
    assert_eq!(old["history"], new["history"]);
    assert_eq!(old["now"]["position"], new["now"]["position"]);
    let (_, rec2) = get(a, &format!("/api/games/{new_id}/export")).await;
    assert_eq!(rec["events"], rec2["events"]);

    // A record with a changed roll or an illegal move is refused, naming the event.
    let mut bad = rec.clone();
    let i = events.iter().position(|e| e["kind"] == "move").unwrap();
    bad["events"][i]["text"] = json!("24/1");
    let (status, v) = post(a, "/api/import", bad).await;
    assert_eq!(status, 400);
    assert!(
        v["error"].as_str().unwrap().contains(&format!("event {i}")),
        "{v}"
    );
    let mut bad = rec.clone();
    bad["format"] = json!("something-else");
    assert_eq!(post(a, "/api/import", bad).await.0, 400);
    let (_, list) = get(a, "/api/games").await;
    assert_eq!(
        list.as_array().unwrap().len(),
        2,
        "refused imports create nothing"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_ai_replies_on_the_server_and_four_seats_pay_their_stakes() {
    let srv = start().await;
    let (id, created) = create(
        srv.addr,
        json!({"ruleset": "acedrex", "players": ["human", "ai:1"]}),
    )
    .await;
    let w = token_of(&created, 0);
    let mut ws = connect(srv.addr, &id, &w).await;
    recv_type(&mut ws, "full").await;
    send(&mut ws, json!({"type": "move", "move": "d2d3"})).await;
    loop {
        let up = recv_type(&mut ws, "update").await;
        if let Some(e) = up["entries"]
            .as_array()
            .unwrap()
            .iter()
            .find(|e| e["seat"] == 1)
        {
            assert_eq!(e["kind"], "move");
            assert_eq!(up["now"]["turn"], json!({"kind": "seat", "seat": 0}));
            break;
        }
    }
    // Cuatro Tiempos with four AI seats of different stakes: each paid its stake at the start.
    let (cid, created) = create(
        srv.addr,
        json!({"ruleset": "cuatro-tiempos", "players": ["random", "random", "human", "random"], "stakes": [1, 2, 3, 4]}),
    )
    .await;
    assert!(
        created["seats"][0]["link"].is_null(),
        "AI seats get no link"
    );
    let s = state(srv.addr, &cid).await;
    assert_eq!(s["start"]["stakes"], json!([1, 2, 3, 4]));
    assert_eq!(s["start"]["paid"], json!([1, 2, 3, 4]));
    assert_eq!(s["start"]["pot"], 10);
    // Green moves first and targets red (its right-hand neighbour).
    assert_eq!(s["start"]["targets"], json!([1, 2, 3, 0]));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn other_games_are_answered_while_an_ai_is_thinking() {
    let srv = start().await;
    // The strongest AI opens this game: its search runs on the blocking pool.
    let (slow, _) = create(
        srv.addr,
        json!({"ruleset": "acedrex", "players": ["ai:8", "human"]}),
    )
    .await;
    let (id, created) = create(
        srv.addr,
        json!({"ruleset": "forcado", "players": ["human", "human"]}),
    )
    .await;
    let w = token_of(&created, 0);
    let (status, v) = post(
        srv.addr,
        &format!("/api/games/{id}/move"),
        json!({"token": w, "move": "e2e3"}),
    )
    .await;
    assert_eq!(status, 200, "{v}");
    let (_, list) = get(srv.addr, "/api/games").await;
    assert_eq!(
        list.as_array().unwrap().len(),
        2,
        "the listing is answered too"
    );
    let s = state(srv.addr, &slow).await;
    assert_eq!(
        s["now"]["thinking"], true,
        "the other game moved while the search was still running"
    );
    assert_eq!(s["now"]["ply"], 0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ai_seats_play_fallas_with_the_dice_the_server_rolls() {
    let srv = start().await;
    let (id, _) = create(
        srv.addr,
        json!({"ruleset": "fallas", "players": ["ai:1", "greedy"], "seed": 3}),
    )
    .await;
    let deadline = std::time::Instant::now() + Duration::from_secs(60);
    loop {
        let s = state(srv.addr, &id).await;
        let history = s["history"].as_array().unwrap();
        let moved = |seat: u64| {
            history
                .iter()
                .any(|e| e["kind"] == "move" && e["seat"] == seat)
        };
        if (moved(0) && moved(1)) || !s["now"]["result"].is_null() {
            // Every move follows a roll of its mover's dice.
            for (i, e) in history
                .iter()
                .enumerate()
                .filter(|(_, e)| e["kind"] == "move")
            {
                assert_eq!(history[i - 1]["kind"], "roll", "event {i}: {e}");
            }
            break;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "both AI seats moved within a minute: {s}"
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}
