//! The web server's guard against other sites, floods and slow clients: where each request
//! may come from, how fast one client may write, how long a client may take to send a
//! request, how many connections are served at once, and the headers every answer carries.
//! Every limit is a constant here or a `serve` flag ([`crate::ServeArgs`]), listed in the
//! README's Limits table.

use axum::body::Body;
use axum::extract::{ConnectInfo, State};
use axum::http::{header, HeaderMap, HeaderValue, Method, Request, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::Json;
use governor::clock::{Clock, DefaultClock};
use governor::{DefaultKeyedRateLimiter, Quota, RateLimiter};
use serde_json::json;
use std::net::{IpAddr, SocketAddr};
use std::num::NonZeroU32;
use std::sync::Arc;
use std::time::Duration;

/// The largest request body accepted (a record of a long game fits easily).
pub const BODY_LIMIT: usize = 1 << 20;
/// The largest WebSocket message accepted from a browser.
pub const WS_LIMIT: usize = 16 << 10;
/// Messages one WebSocket may send per second (moves, pings); twice as many may come at once.
/// A message beyond it is answered with an error and dropped.
pub const WS_MESSAGES_PER_SECOND: u32 = 10;
/// Messages dropped in a row for the rate after which the socket is closed (code 1008): a
/// client that keeps flooding is not served further.
pub const WS_FLOOD_CLOSE: u32 = 50;
/// How long a client may take to send a request's headers, and how long an idle
/// keep-alive connection is kept.
pub const HEADER_READ_TIMEOUT: Duration = Duration::from_secs(10);
/// How long a client may take to send a request's body.
pub const BODY_READ_TIMEOUT: Duration = Duration::from_secs(10);
/// HTTP connections served at once unless `serve --max-connections` says otherwise; further
/// ones wait in the listen queue until one closes (a WebSocket, once open, does not count).
pub const DEFAULT_MAX_CONNECTIONS: usize = 512;
/// Games, imports and Lab runs one client (IP address) may create per minute unless `serve
/// --max-new-games-per-minute` says otherwise; as many may come at once.
pub const DEFAULT_CREATE_PER_MINUTE: u32 = 60;
/// Other HTTP writes (moves, game actions) one client may make per second unless `serve
/// --max-writes-per-second` says otherwise; twice as many may come at once. Messages sent
/// over a game's WebSocket have their own limit per socket ([`WS_MESSAGES_PER_SECOND`]).
pub const DEFAULT_WRITE_PER_SECOND: u32 = 20;
/// How often the rate limiters forget clients that have gone quiet.
const FORGET_EVERY: Duration = Duration::from_secs(60);

/// The security headers of every answer. The pages load only their own scripts (no inline
/// script); inline `style` attributes are allowed, since the boards are drawn with them.
pub const CONTENT_SECURITY_POLICY: &str = "default-src 'self'; script-src 'self'; \
    style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; \
    frame-ancestors 'none'; base-uri 'none'; form-action 'self'";

/// What the guard needs at run time.
#[derive(Clone)]
pub struct Guard {
    create_per_minute: u32,
    write_per_second: u32,
    /// The origin (`https://libro.example`) browsers reach this server by, when it is
    /// behind a proxy or reached by another name than its Host header says.
    public_origin: Option<String>,
    create: Arc<DefaultKeyedRateLimiter<IpAddr>>,
    write: Arc<DefaultKeyedRateLimiter<IpAddr>>,
}

impl Guard {
    /// A guard allowing `public_url`'s origin besides each request's own host, with these
    /// per-client rates (each at least 1).
    pub fn new(public_url: Option<&str>, create_per_minute: u32, write_per_second: u32) -> Guard {
        let per = |n: u32| NonZeroU32::new(n.max(1)).expect("at least 1");
        Guard {
            create_per_minute: create_per_minute.max(1),
            write_per_second: write_per_second.max(1),
            public_origin: public_url.map(origin_of),
            create: Arc::new(RateLimiter::keyed(
                Quota::per_minute(per(create_per_minute)).allow_burst(per(create_per_minute)),
            )),
            write: Arc::new(RateLimiter::keyed(
                Quota::per_second(per(write_per_second))
                    .allow_burst(per(write_per_second.saturating_mul(2))),
            )),
        }
    }

    /// Forgets quiet clients now and then, so the limiters' memory stays small.
    pub fn spawn_cleanup(&self) {
        let (create, write) = (self.create.clone(), self.write.clone());
        tokio::spawn(async move {
            loop {
                tokio::time::sleep(FORGET_EVERY).await;
                create.retain_recent();
                write.retain_recent();
            }
        });
    }
}

/// `scheme://host[:port]` of a URL, without path or trailing slash.
fn origin_of(url: &str) -> String {
    let url = url.trim().trim_end_matches('/');
    match url.find("://") {
        Some(i) => match url[i + 3..].find('/') {
            Some(j) => url[..i + 3 + j].to_string(),
            None => url.to_string(),
        },
        None => url.to_string(),
    }
}

fn refuse(status: StatusCode, message: String) -> Response {
    (status, Json(json!({ "error": message }))).into_response()
}

/// Whether a request changes state or opens a live socket, and so must come from this site.
fn needs_same_origin(method: &Method, headers: &HeaderMap) -> bool {
    let upgrade = headers
        .get(header::UPGRADE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.eq_ignore_ascii_case("websocket"));
    upgrade || !matches!(*method, Method::GET | Method::HEAD | Method::OPTIONS)
}

/// Refuses a state-changing request or a WebSocket upgrade that a browser sent from another
/// site: its `Origin` is neither this server's host nor `--public-url`, or the browser says
/// it is cross-site (`Sec-Fetch-Site`). Requests without either header (command-line
/// clients) pass. JSON bodies must say so (`Content-Type: application/json`): a form or a
/// `text/plain` post, which other sites can send without asking, is refused.
pub async fn same_origin(
    State(guard): State<Guard>,
    request: Request<Body>,
    next: Next,
) -> Response {
    let headers = request.headers();
    if needs_same_origin(request.method(), headers) {
        if headers
            .get("sec-fetch-site")
            .is_some_and(|v| v.as_bytes() == b"cross-site")
        {
            return refuse(
                StatusCode::FORBIDDEN,
                "cross-site request refused: only this site's pages may change games".into(),
            );
        }
        if let Some(origin) = headers.get(header::ORIGIN) {
            let origin = origin.to_str().unwrap_or("");
            let host = headers
                .get(header::HOST)
                .and_then(|h| h.to_str().ok())
                .unwrap_or("");
            let own = [format!("http://{host}"), format!("https://{host}")];
            let allowed =
                own.iter().any(|o| o == origin) || guard.public_origin.as_deref() == Some(origin);
            if !allowed {
                let shown: String = origin.chars().take(100).collect();
                return refuse(
                    StatusCode::FORBIDDEN,
                    format!(
                        "cross-origin request refused: origin `{shown}` is not this server (an operator behind a proxy sets --public-url)"
                    ),
                );
            }
        }
        let has_body = headers
            .get(header::CONTENT_LENGTH)
            .and_then(|v| v.to_str().ok())
            .is_none_or(|v| v.trim() != "0");
        let json = headers
            .get(header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.split(';').next())
            .is_some_and(|v| v.trim().eq_ignore_ascii_case("application/json"));
        if *request.method() == Method::POST && has_body && !json {
            return refuse(
                StatusCode::UNSUPPORTED_MEDIA_TYPE,
                "request bodies must be JSON, sent with `Content-Type: application/json`".into(),
            );
        }
    }
    next.run(request).await
}

/// Limits how fast one client may create games, imports and Lab runs, and make other
/// writes: over the limit, 429 with `Retry-After` in seconds.
pub async fn rate_limit(
    State(guard): State<Guard>,
    request: Request<Body>,
    next: Next,
) -> Response {
    if *request.method() == Method::POST {
        let ip = request
            .extensions()
            .get::<ConnectInfo<SocketAddr>>()
            .map(|c| c.0.ip());
        if let Some(ip) = ip {
            let path = request.uri().path();
            let creates = matches!(path, "/api/games" | "/api/import" | "/api/lab/runs");
            let limiter = if creates { &guard.create } else { &guard.write };
            if let Err(not_until) = limiter.check_key(&ip) {
                let wait = not_until.wait_time_from(DefaultClock::default().now());
                let secs = wait.as_secs() + u64::from(wait.subsec_nanos() > 0);
                let mut response = refuse(
                    StatusCode::TOO_MANY_REQUESTS,
                    format!(
                        "too many requests from this address: try again in {secs} s ({} per minute for new games, imports and Lab runs; {} per second for other writes)",
                        guard.create_per_minute, guard.write_per_second
                    ),
                );
                response
                    .headers_mut()
                    .insert(header::RETRY_AFTER, HeaderValue::from(secs.max(1)));
                return response;
            }
        }
    }
    next.run(request).await
}

/// Adds the security headers to an answer that does not set them itself.
pub async fn security_headers(request: Request<Body>, next: Next) -> Response {
    let mut response = next.run(request).await;
    let h = response.headers_mut();
    for (name, value) in [
        (header::CONTENT_SECURITY_POLICY, CONTENT_SECURITY_POLICY),
        (header::X_FRAME_OPTIONS, "DENY"),
        (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
        (header::REFERRER_POLICY, "no-referrer"),
    ] {
        if !h.contains_key(&name) {
            h.insert(name, HeaderValue::from_static(value));
        }
    }
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn origins_are_read_from_urls() {
        assert_eq!(origin_of("https://libro.example/"), "https://libro.example");
        assert_eq!(
            origin_of("https://libro.example:8443/games/x"),
            "https://libro.example:8443"
        );
        assert_eq!(origin_of(" http://10.0.0.2:8080 "), "http://10.0.0.2:8080");
    }

    #[test]
    fn reads_pass_and_writes_and_upgrades_are_checked() {
        let mut h = HeaderMap::new();
        assert!(!needs_same_origin(&Method::GET, &h));
        assert!(needs_same_origin(&Method::POST, &h));
        h.insert(header::UPGRADE, HeaderValue::from_static("WebSocket"));
        assert!(needs_same_origin(&Method::GET, &h));
    }
}

/// The message rate of one WebSocket: [`WS_MESSAGES_PER_SECOND`], bursts of twice that.
pub struct SocketRate {
    limiter: governor::DefaultDirectRateLimiter,
    dropped_in_a_row: u32,
}

/// What to do with a socket's message.
#[derive(Debug, PartialEq, Eq)]
pub enum SocketVerdict {
    /// Serve it.
    Serve,
    /// Refuse it with this message; the socket stays open.
    Refuse(String),
    /// Close the socket: it keeps flooding.
    Close,
}

impl Default for SocketRate {
    fn default() -> Self {
        let per_second = NonZeroU32::new(WS_MESSAGES_PER_SECOND).expect("a positive rate");
        let burst = NonZeroU32::new(2 * WS_MESSAGES_PER_SECOND).expect("a positive burst");
        SocketRate {
            limiter: RateLimiter::direct(Quota::per_second(per_second).allow_burst(burst)),
            dropped_in_a_row: 0,
        }
    }
}

impl SocketRate {
    /// Counts one incoming message.
    pub fn check(&mut self) -> SocketVerdict {
        if self.limiter.check().is_ok() {
            self.dropped_in_a_row = 0;
            return SocketVerdict::Serve;
        }
        self.dropped_in_a_row += 1;
        if self.dropped_in_a_row >= WS_FLOOD_CLOSE {
            SocketVerdict::Close
        } else {
            SocketVerdict::Refuse(format!(
                "too many messages: at most {WS_MESSAGES_PER_SECOND} a second on one socket \
                 ({} at once); this one was dropped",
                2 * WS_MESSAGES_PER_SECOND
            ))
        }
    }
}
