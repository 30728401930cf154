//! The path every move takes over the live socket: what the mover, its opponent and a
//! spectator receive, in what order, and that a broadcast is the same text for all.

mod common;

use common::{post, start};
use futures_util::{SinkExt, StreamExt};
use libro_server::SqliteStore;
use serde_json::{json, Value};
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;

type Ws = tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<TcpStream>>;

async fn connect(addr: SocketAddr, id: &str, token: &str) -> Ws {
    let (ws, _) =
        tokio_tungstenite::connect_async(format!("ws://{addr}/api/games/{id}/ws?t={token}"))
            .await
            .unwrap();
    ws
}

/// The next text message, as sent.
async fn recv_text(ws: &mut Ws) -> String {
    loop {
        let msg = tokio::time::timeout(Duration::from_secs(20), ws.next())
            .await
            .expect("a message in time")
            .unwrap()
            .unwrap();
        if let Message::Text(t) = msg {
            return t.as_str().to_string();
        }
    }
}

async fn recv(ws: &mut Ws) -> Value {
    serde_json::from_str(&recv_text(ws).await).unwrap()
}

async fn send(ws: &mut Ws, v: Value) {
    ws.send(Message::Text(v.to_string().into())).await.unwrap();
}

/// A two-seat game of human players: its id and the seats' tokens.
async fn two_humans(addr: SocketAddr, ruleset: &str) -> (String, [String; 2]) {
    let (status, created) = post(
        addr,
        "/api/games",
        json!({"ruleset": ruleset, "players": ["human", "human"]}),
    )
    .await;
    assert_eq!(status, 200, "{created}");
    let token = |seat: usize| {
        let link = created["seats"][seat]["link"].as_str().unwrap();
        link.split("#t=").nth(1).unwrap().to_string()
    };
    (
        created["id"].as_str().unwrap().to_string(),
        [token(0), token(1)],
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_mover_gets_its_update_then_ok_and_everyone_the_same_update() {
    let srv = start().await;
    let (id, [w, b]) = two_humans(srv.addr, "acedrex").await;
    let mut white = connect(srv.addr, &id, &w).await;
    let mut black = connect(srv.addr, &id, &b).await;
    let mut watcher = connect(srv.addr, &id, "").await;
    for ws in [&mut white, &mut black, &mut watcher] {
        assert_eq!(recv(ws).await["type"], "full");
    }
    for (k, (mover, mv)) in [(0, "e2e4"), (1, "e7e5"), (0, "g1f3")]
        .into_iter()
        .enumerate()
    {
        let [me, other] = if mover == 0 {
            [&mut white, &mut black]
        } else {
            [&mut black, &mut white]
        };
        send(me, json!({"type": "move", "move": mv, "id": k})).await;
        // The move's own update first, then its answer.
        let mine = recv_text(me).await;
        let update: Value = serde_json::from_str(&mine).unwrap();
        assert_eq!(update["type"], "update", "{mine}");
        assert_eq!(update["from"], k);
        assert_eq!(update["entries"][0]["text"], mv);
        assert_eq!(update["entries"][0]["seat"], mover);
        assert_eq!(update["now"]["ply"], k + 1);
        assert_eq!(recv(me).await, json!({"type": "ok", "id": k}));
        // The opponent and the spectator get the very same text.
        assert_eq!(recv_text(other).await, mine);
        assert_eq!(recv_text(&mut watcher).await, mine);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_refused_move_is_answered_alone_and_a_ping_without_id_is_answered() {
    let srv = start().await;
    let (id, [w, _]) = two_humans(srv.addr, "acedrex").await;
    let mut white = connect(srv.addr, &id, &w).await;
    assert_eq!(recv(&mut white).await["type"], "full");
    send(&mut white, json!({"type": "move", "move": "e2e5", "id": 3})).await;
    let refused = recv(&mut white).await;
    assert_eq!(refused["type"], "error", "{refused}");
    assert_eq!(refused["id"], 3);
    send(&mut white, json!({"type": "ping"})).await;
    assert_eq!(recv(&mut white).await, json!({"type": "pong", "id": null}));
    // Nothing else was queued: the next message is the next move's update.
    send(&mut white, json!({"type": "move", "move": "e2e4"})).await;
    assert_eq!(recv(&mut white).await["type"], "update");
    assert_eq!(recv(&mut white).await, json!({"type": "ok", "id": null}));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn many_games_at_once_each_see_all_their_moves_in_order() {
    let store = Arc::new(SqliteStore::in_memory().unwrap());
    let srv = common::start_with(store, Some(1)).await;
    let mut games = Vec::new();
    for _ in 0..8 {
        let (id, [w, b]) = two_humans(srv.addr, "acedrex").await;
        let mut white = connect(srv.addr, &id, &w).await;
        let mut black = connect(srv.addr, &id, &b).await;
        recv(&mut white).await;
        recv(&mut black).await;
        games.push((white, black));
    }
    let plies = ["e2e4", "e7e5", "g1f3", "b8c6", "b1c3", "g8f6"];
    let tasks = games.into_iter().map(|(mut white, mut black)| {
        tokio::spawn(async move {
            for (k, mv) in plies.iter().enumerate() {
                let (me, other) = if k % 2 == 0 {
                    (&mut white, &mut black)
                } else {
                    (&mut black, &mut white)
                };
                send(me, json!({"type": "move", "move": mv})).await;
                // The mover: its update (with its own move), then ok; the opponent: the
                // same update, whatever the other games are doing meanwhile.
                let mine = recv(me).await;
                assert_eq!(mine["entries"][0]["text"], *mv);
                assert_eq!(recv(me).await["type"], "ok");
                assert_eq!(recv(other).await, mine);
            }
        })
    });
    for t in tasks.collect::<Vec<_>>() {
        t.await.unwrap();
    }
}
