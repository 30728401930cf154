//! The table's smaller things over HTTP: the favicon, and the chat between seats (seats
//! only, length-capped, control characters blanked, under the write rate limit).

mod common;

use common::{get, http, post, start, start_limited};
use libro_server::{Limits, SqliteStore};
use serde_json::json;
use std::sync::Arc;

#[tokio::test]
async fn the_favicon_is_served_where_browsers_ask_for_it() {
    let srv = start().await;
    for path in ["/favicon.ico", "/assets/favicon.svg"] {
        let (status, body) = http(srv.addr, "GET", path, None).await;
        assert_eq!(status, 200, "{path}");
        assert!(body.as_str().unwrap().starts_with("<svg"), "{path}: {body}");
    }
}

#[tokio::test]
async fn seats_chat_within_the_cap_and_spectators_only_read() {
    let srv = start().await;
    let (_, created) = post(
        srv.addr,
        "/api/games",
        json!({"ruleset": "acedrex", "players": ["human", "human"]}),
    )
    .await;
    let id = created["id"].as_str().unwrap();
    let token = |i: usize| {
        created["seats"][i]["link"]
            .as_str()
            .unwrap()
            .split("#t=")
            .nth(1)
            .unwrap()
            .to_string()
    };
    let say = |t: String, text: String| async move {
        post(
            srv.addr,
            &format!("/api/games/{id}/chat"),
            json!({"token": t, "text": text}),
        )
        .await
    };
    assert_eq!(
        say(String::new(), "hello".into()).await.0,
        403,
        "spectators cannot talk"
    );
    let (status, v) = say(token(0), "   ".into()).await;
    assert_eq!(status, 400);
    assert!(v["error"].as_str().unwrap().contains("not 0"), "{v}");
    let (status, v) = say(token(0), "x".repeat(301)).await;
    assert_eq!(status, 400);
    assert!(
        v["error"]
            .as_str()
            .unwrap()
            .contains("1 to 300 characters, not 301"),
        "{v}"
    );
    assert_eq!(
        say(token(0), "é".repeat(300)).await.0,
        200,
        "300 characters, not bytes"
    );
    assert_eq!(say(token(1), "<b>gg</b>\u{7}\n".into()).await.0, 200);
    let (status, log) = get(srv.addr, &format!("/api/games/{id}/chat")).await;
    assert_eq!(status, 200);
    // Kept as written (the page shows it as text), the bell blanked and the ends trimmed.
    assert_eq!(log[1], json!({"seat": 1, "text": "<b>gg</b>"}));
    assert_eq!(log[0]["seat"], 0);
    assert_eq!(log.as_array().unwrap().len(), 2);
}

#[tokio::test]
async fn chat_is_rate_limited_by_the_write_guard() {
    let limits = Limits {
        writes_per_second: 1,
        ..Limits::default()
    };
    let srv = start_limited(Arc::new(SqliteStore::in_memory().unwrap()), limits).await;
    let (_, created) = post(
        srv.addr,
        "/api/games",
        json!({"ruleset": "acedrex", "players": ["human", "human"]}),
    )
    .await;
    let id = created["id"].as_str().unwrap();
    let t = created["seats"][0]["link"]
        .as_str()
        .unwrap()
        .split("#t=")
        .nth(1)
        .unwrap();
    let mut statuses = Vec::new();
    for i in 0..10 {
        let (status, _) = post(
            srv.addr,
            &format!("/api/games/{id}/chat"),
            json!({"token": t, "text": format!("line {i}")}),
        )
        .await;
        statuses.push(status);
    }
    assert!(statuses.contains(&429), "{statuses:?}");
    assert_eq!(statuses[0], 200, "{statuses:?}");
}
