//! The server against other sites, floods and slow clients: foreign origins and non-JSON
//! bodies are refused, every answer carries the security headers, one client's creations
//! are rate limited, and idle or half-sent connections neither block others nor stay open.

mod common;

use common::{start, start_limited, Server};
use libro_server::{Limits, SqliteStore};
use std::sync::Arc;
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// Sends a raw request; answers the status, the head (lower-cased) and the body.
async fn raw(server: &Server, request: String) -> (u16, String, String) {
    let mut s = TcpStream::connect(server.addr).await.unwrap();
    s.write_all(request.as_bytes()).await.unwrap();
    let mut bytes = Vec::new();
    tokio::time::timeout(Duration::from_secs(30), s.read_to_end(&mut bytes))
        .await
        .expect("the server answers")
        .unwrap();
    let text = String::from_utf8_lossy(&bytes).to_string();
    let (head, body) = text.split_once("\r\n\r\n").expect("an HTTP answer");
    let status = head.split_whitespace().nth(1).unwrap().parse().unwrap();
    (status, head.to_ascii_lowercase(), body.to_string())
}

/// A POST of `body` with these extra header lines.
fn post(server: &Server, path: &str, extra: &str, content_type: &str, body: &str) -> String {
    format!(
        "POST {path} HTTP/1.1\r\nHost: {}\r\nConnection: close\r\n{extra}Content-Type: {content_type}\r\nContent-Length: {}\r\n\r\n{body}",
        server.addr,
        body.len()
    )
}

const NEW_GAME: &str = r#"{"ruleset":"shatranj","players":["human","human"]}"#;

#[tokio::test]
async fn other_sites_cannot_change_games_and_bodies_must_be_json() {
    let server = start().await;
    let own = format!("Origin: http://{}\r\n", server.addr);
    // The server's own pages, and tools that send no Origin, may create games.
    for extra in [own.as_str(), ""] {
        let (status, _, body) = raw(
            &server,
            post(&server, "/api/games", extra, "application/json", NEW_GAME),
        )
        .await;
        assert_eq!(status, 200, "{extra:?}: {body}");
    }
    // A page of another site may not, with JSON or with a form-like text body.
    for (extra, content_type) in [
        ("Origin: http://evil.example\r\n", "application/json"),
        ("Origin: http://evil.example\r\n", "text/plain"),
        ("Origin: null\r\n", "application/json"),
        ("Sec-Fetch-Site: cross-site\r\n", "application/json"),
    ] {
        let (status, _, body) = raw(
            &server,
            post(&server, "/api/games", extra, content_type, NEW_GAME),
        )
        .await;
        assert_eq!(status, 403, "{extra:?}: {body}");
        assert!(body.contains("refused"), "{body}");
    }
    // A body that is not declared JSON is refused even without an Origin.
    let (status, _, body) = raw(
        &server,
        post(&server, "/api/games", "", "text/plain", NEW_GAME),
    )
    .await;
    assert_eq!(status, 415, "{body}");
    assert!(body.contains("application/json"), "{body}");
    // A WebSocket from another site is refused before it opens.
    let upgrade = |origin: &str| {
        format!(
            "GET /api/games/nosuch/ws HTTP/1.1\r\nHost: {}\r\nConnection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nOrigin: {origin}\r\n\r\n",
            server.addr
        )
    };
    let (status, _, body) = raw(&server, upgrade("http://evil.example")).await;
    assert_eq!(status, 403, "{body}");
}

#[tokio::test]
async fn a_configured_public_url_may_change_games() {
    let limits = Limits {
        public_url: Some("https://libro.example/".into()),
        ..Limits::default()
    };
    let server = start_limited(Arc::new(SqliteStore::in_memory().unwrap()), limits).await;
    let (status, _, body) = raw(
        &server,
        post(
            &server,
            "/api/games",
            "Origin: https://libro.example\r\n",
            "application/json",
            NEW_GAME,
        ),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    let (status, _, _) = raw(
        &server,
        post(
            &server,
            "/api/games",
            "Origin: https://other.example\r\n",
            "application/json",
            NEW_GAME,
        ),
    )
    .await;
    assert_eq!(status, 403);
}

#[tokio::test]
async fn every_answer_carries_the_security_headers_and_text_is_compressed() {
    let server = start().await;
    for path in [
        "/",
        "/lab",
        "/api/rulesets",
        "/assets/game.js",
        "/api/games/nosuch",
    ] {
        let (_, head, _) = raw(
            &server,
            format!(
                "GET {path} HTTP/1.1\r\nHost: {}\r\nConnection: close\r\n\r\n",
                server.addr
            ),
        )
        .await;
        assert!(
            head.contains("content-security-policy: default-src 'self'; script-src 'self';"),
            "{path}: {head}"
        );
        assert!(head.contains("frame-ancestors 'none'"), "{path}: {head}");
        assert!(head.contains("x-frame-options: deny"), "{path}: {head}");
        assert!(
            head.contains("x-content-type-options: nosniff"),
            "{path}: {head}"
        );
        assert!(
            head.contains("referrer-policy: no-referrer"),
            "{path}: {head}"
        );
    }
    let (_, head, _) = raw(
        &server,
        format!(
            "GET /assets/game.js HTTP/1.1\r\nHost: {}\r\nAccept-Encoding: gzip\r\nConnection: close\r\n\r\n",
            server.addr
        ),
    )
    .await;
    assert!(head.contains("content-encoding: gzip"), "{head}");
}

#[tokio::test]
async fn one_client_creating_too_fast_gets_429_with_retry_after() {
    let limits = Limits {
        new_games_per_minute: 3,
        ..Limits::default()
    };
    let server = start_limited(Arc::new(SqliteStore::in_memory().unwrap()), limits).await;
    for _ in 0..3 {
        let (status, _, body) = raw(
            &server,
            post(&server, "/api/games", "", "application/json", NEW_GAME),
        )
        .await;
        assert_eq!(status, 200, "{body}");
    }
    let (status, head, body) = raw(
        &server,
        post(&server, "/api/games", "", "application/json", NEW_GAME),
    )
    .await;
    assert_eq!(status, 429, "{body}");
    // 3 a minute: the next one is about 20 s away.
    let retry: u64 = head
        .lines()
        .find_map(|l| l.strip_prefix("retry-after: "))
        .expect("a Retry-After header")
        .trim()
        .parse()
        .unwrap();
    assert!((1..=21).contains(&retry), "{retry}");
    // Reading is not limited.
    let (status, _, _) = raw(
        &server,
        format!(
            "GET /api/games HTTP/1.1\r\nHost: {}\r\nConnection: close\r\n\r\n",
            server.addr
        ),
    )
    .await;
    assert_eq!(status, 200);
}

#[tokio::test]
async fn idle_and_half_sent_connections_neither_block_others_nor_stay_open() {
    let server = start().await;
    let mut idle = Vec::new();
    for _ in 0..200 {
        idle.push(TcpStream::connect(server.addr).await.unwrap());
    }
    let mut half = Vec::new();
    for _ in 0..50 {
        let mut s = TcpStream::connect(server.addr).await.unwrap();
        s.write_all(b"POST /api/games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{")
            .await
            .unwrap();
        half.push(s);
    }
    // A keep-alive connection left idle after its answer.
    let mut kept = TcpStream::connect(server.addr).await.unwrap();
    kept.write_all(b"GET /api/rulesets HTTP/1.1\r\nHost: x\r\n\r\n")
        .await
        .unwrap();
    let mut slow_head = TcpStream::connect(server.addr).await.unwrap();
    slow_head
        .write_all(b"GET / HTTP/1.1\r\nHost: x\r\n")
        .await
        .unwrap();
    // Others are answered meanwhile.
    let (status, _, _) = raw(
        &server,
        format!(
            "GET /api/rulesets HTTP/1.1\r\nHost: {}\r\nConnection: close\r\n\r\n",
            server.addr
        ),
    )
    .await;
    assert_eq!(status, 200);
    // And the server closes the idle, the half-sent and the slow ones by itself (after the
    // header and body read timeouts, 10 s each).
    let closed = |mut s: TcpStream| async move {
        let mut buf = Vec::new();
        tokio::time::timeout(Duration::from_secs(30), s.read_to_end(&mut buf))
            .await
            .is_ok()
    };
    assert!(
        closed(idle.pop().unwrap()).await,
        "an idle connection stayed open"
    );
    assert!(closed(slow_head).await, "a half-sent head stayed open");
    assert!(
        closed(half.pop().unwrap()).await,
        "a half-sent body stayed open"
    );
    assert!(
        closed(kept).await,
        "an idle keep-alive connection stayed open"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_socket_flooding_messages_is_refused_then_closed_and_others_are_served() {
    use futures_util::{SinkExt, StreamExt};
    use tokio_tungstenite::tungstenite::Message;
    let server = start().await;
    let (status, created) = common::post(
        server.addr,
        "/api/games",
        serde_json::json!({"ruleset": "acedrex", "players": ["human", "human"]}),
    )
    .await;
    assert_eq!(status, 200, "{created}");
    let id = created["id"].as_str().unwrap().to_string();
    let url = format!("ws://{}/api/games/{id}/ws", server.addr);
    let (mut flood, _) = tokio_tungstenite::connect_async(&url).await.unwrap();
    // Pings at once: the first ones (the burst) are answered, then each one beyond the rate
    // gets an error, and the WS_FLOOD_CLOSE-th of those in a row closes the socket. (Exactly
    // that many are sent: the server reads them all before it closes, so no reset discards
    // its answers.)
    let burst = 2 * libro_server::guard::WS_MESSAGES_PER_SECOND as usize;
    let flood_close = libro_server::guard::WS_FLOOD_CLOSE as usize;
    for i in 0..burst + flood_close {
        let ping = serde_json::json!({"type": "ping", "id": i}).to_string();
        if flood.send(Message::Text(ping.into())).await.is_err() {
            break;
        }
    }
    let (mut pongs, mut refused, mut closed) = (0, 0, false);
    while let Ok(Some(msg)) = tokio::time::timeout(Duration::from_secs(10), flood.next()).await {
        match msg {
            Ok(Message::Text(t)) => {
                let v: serde_json::Value = serde_json::from_str(&t).unwrap();
                match v["type"].as_str() {
                    Some("pong") => pongs += 1,
                    Some("error") if v["message"].as_str().unwrap().contains("too many") => {
                        refused += 1
                    }
                    _ => {}
                }
            }
            Ok(Message::Close(frame)) => {
                closed = true;
                assert_eq!(frame.map(|f| u16::from(f.code)), Some(1008));
                break;
            }
            Ok(_) => {}
            Err(_) => {
                closed = true;
                break;
            }
        }
    }
    assert_eq!(pongs, burst, "the burst is served");
    assert_eq!(refused, flood_close - 1, "then each message is refused");
    assert!(closed, "a flooding socket is closed");
    // Another socket of the same game is served as usual.
    let (mut calm, _) = tokio_tungstenite::connect_async(&url).await.unwrap();
    let first = calm.next().await.unwrap().unwrap();
    assert!(first.to_text().unwrap().contains("\"type\""));
    let ping = serde_json::json!({"type": "ping", "id": 7}).to_string();
    calm.send(Message::Text(ping.into())).await.unwrap();
    loop {
        let m = tokio::time::timeout(Duration::from_secs(10), calm.next())
            .await
            .unwrap()
            .unwrap()
            .unwrap();
        if m.to_text().unwrap().contains("pong") {
            break;
        }
    }
}
