//! The lobby over HTTP: open challenges (a game with open seats, listed, that starts when
//! someone takes the seat and gets its secret link), and links built from the host the
//! client used or from `--public-url`.

mod common;

use common::{get, post, start, start_limited};
use libro_server::{Limits, SqliteStore};
use serde_json::{json, Value};
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

async fn state(addr: SocketAddr, id: &str) -> Value {
    let (status, v) = get(addr, &format!("/api/games/{id}")).await;
    assert_eq!(status, 200, "{v}");
    v
}

async fn listed(addr: SocketAddr, id: &str) -> Value {
    let (_, list) = get(addr, "/api/games").await;
    list.as_array()
        .unwrap()
        .iter()
        .find(|g| g["id"] == id)
        .cloned()
        .expect("the game is listed")
}

fn token(link: &str) -> String {
    link.split("#t=").nth(1).unwrap().to_string()
}

#[tokio::test]
async fn an_open_challenge_is_listed_waits_for_its_seat_and_starts_once_taken() {
    let srv = start().await;
    let (status, created) = post(
        srv.addr,
        "/api/games",
        json!({"ruleset": "acedrex", "players": ["human", "open"]}),
    )
    .await;
    assert_eq!(status, 200, "{created}");
    let id = created["id"].as_str().unwrap().to_string();
    assert_eq!(created["seats"][1]["link"], Value::Null);
    assert_eq!(created["seats"][1]["open"], true);
    assert_eq!(created["seats"][1]["player"], "human");
    let white = token(created["seats"][0]["link"].as_str().unwrap());
    assert_eq!(listed(srv.addr, &id).await["open"], json!([1]));
    assert_eq!(state(srv.addr, &id).await["now"]["open"], json!([1]));
    // Nobody moves before the seat is taken.
    let mv = |t: String, m: &'static str| {
        let id = id.clone();
        async move {
            post(
                srv.addr,
                &format!("/api/games/{id}/move"),
                json!({"token": t, "move": m}),
            )
            .await
        }
    };
    let (status, v) = mv(white.clone(), "e2e3").await;
    assert_eq!(status, 400, "{v}");
    assert!(
        v["error"].as_str().unwrap().contains("black is still open"),
        "{v}"
    );
    // Someone takes it: a secret link of its own, absolute too.
    let (status, joined) = post(
        srv.addr,
        &format!("/api/games/{id}/join"),
        json!({"seat": 1}),
    )
    .await;
    assert_eq!(status, 200, "{joined}");
    let link = joined["link"].as_str().unwrap();
    assert!(link.starts_with(&format!("/g/{id}#t=")), "{joined}");
    assert_eq!(joined["url"], format!("http://{}{link}", srv.addr));
    let black = token(link);
    assert_ne!(black, white);
    // Taken once only.
    let (status, v) = post(
        srv.addr,
        &format!("/api/games/{id}/join"),
        json!({"seat": 1}),
    )
    .await;
    assert_eq!(status, 409, "{v}");
    assert!(v["error"].as_str().unwrap().contains("black"), "{v}");
    assert_eq!(listed(srv.addr, &id).await["open"], json!([]));
    assert_eq!(mv(white, "e2e3").await.0, 200);
    assert_eq!(mv(black, "e7e6").await.0, 200);
    assert_eq!(state(srv.addr, &id).await["now"]["ply"], 2);
}

#[tokio::test]
async fn seats_that_are_not_open_cannot_be_taken() {
    let srv = start().await;
    let (_, created) = post(
        srv.addr,
        "/api/games",
        json!({"ruleset": "acedrex", "players": ["human", "ai:1"]}),
    )
    .await;
    let id = created["id"].as_str().unwrap();
    for (body, status, named) in [
        (json!({"seat": 0}), 409, "white"),
        (json!({"seat": 1}), 409, "black"),
        (json!({"seat": 7}), 400, "seats are 0 to 1"),
        (json!({"seat": "x"}), 400, "malformed"),
    ] {
        let (s, v) = post(srv.addr, &format!("/api/games/{id}/join"), body.clone()).await;
        assert_eq!(s, status, "{body}: {v}");
        assert!(v["error"].as_str().unwrap().contains(named), "{body}: {v}");
    }
    let (s, _) = post(srv.addr, "/api/games/nope/join", json!({"seat": 0})).await;
    assert_eq!(s, 404);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_ai_waits_for_the_open_seat_and_the_open_seat_survives_a_restart() {
    let db = common::temp_db("open-restart");
    let id = {
        let srv = common::start_with(Arc::new(SqliteStore::open(&db).unwrap()), None).await;
        let (_, created) = post(
            srv.addr,
            "/api/games",
            json!({"ruleset": "acedrex", "players": ["ai:1", "open"]}),
        )
        .await;
        created["id"].as_str().unwrap().to_string()
    };
    let srv = common::start_with(Arc::new(SqliteStore::open(&db).unwrap()), None).await;
    assert_eq!(listed(srv.addr, &id).await["open"], json!([1]));
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(state(srv.addr, &id).await["now"]["ply"], 0, "the AI waits");
    let (status, joined) = post(
        srv.addr,
        &format!("/api/games/{id}/join"),
        json!({"seat": 1}),
    )
    .await;
    assert_eq!(status, 200, "{joined}");
    for _ in 0..200 {
        if state(srv.addr, &id).await["now"]["ply"] == 1 {
            return;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("the AI never moved once the seat was taken");
}

#[tokio::test]
async fn links_use_the_public_url_when_the_operator_sets_one() {
    let limits = Limits {
        public_url: Some("https://libro.example/".into()),
        ..Limits::default()
    };
    let srv = start_limited(Arc::new(SqliteStore::in_memory().unwrap()), limits).await;
    let (status, created) = post(
        srv.addr,
        "/api/games",
        json!({"ruleset": "fallas", "players": ["human", "open"]}),
    )
    .await;
    assert_eq!(status, 200, "{created}");
    let id = created["id"].as_str().unwrap();
    assert_eq!(
        created["spectator_url"],
        format!("https://libro.example/g/{id}")
    );
    let url = created["seats"][0]["url"].as_str().unwrap();
    assert!(
        url.starts_with(&format!("https://libro.example/g/{id}#t=")),
        "{url}"
    );
    let (_, pgn) = get(srv.addr, &format!("/api/games/{id}/export?format=text")).await;
    assert!(
        pgn.as_str()
            .unwrap()
            .contains(&format!("[Site \"https://libro.example/g/{id}\"]")),
        "{pgn}"
    );
}
