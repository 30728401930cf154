//! The HTTP and WebSocket interface: pages, assets, the JSON API and the live game socket.

use crate::analysis::{self, AnalysisError};
use crate::assets;
use crate::guard::{self, Guard};
use crate::hub::{Hub, HubError, LiveGame};
use crate::lab::{Lab, LabRunError, RunRequest};
use crate::record::{Record, Setup};
use crate::view;
use axum::body::Bytes;
use axum::extract::ws::{Message, Utf8Bytes, WebSocket, WebSocketUpgrade};
use axum::extract::{DefaultBodyLimit, Path, Query, State};
use axum::http::{header, StatusCode};
use axum::response::{Html, IntoResponse, Response};
use axum::routing::{get, post};
use axum::{middleware, Json, Router};
use futures_util::SinkExt;
use libro_core::Seat;
use serde::Deserialize;
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use tokio::sync::broadcast::{
    self,
    error::{RecvError, TryRecvError},
};
use tower_http::compression::CompressionLayer;
use tower_http::timeout::RequestBodyTimeoutLayer;

use crate::guard::{SocketRate, SocketVerdict, BODY_LIMIT, WS_LIMIT};

/// An error answer: a status and a JSON `{"error": ..., "code": ...}`, the code a stable
/// word for the kind of error that pages translate (the message stays as the server wrote it).
pub struct ApiError {
    status: StatusCode,
    message: String,
    code: &'static str,
}

impl ApiError {
    /// An error answer whose code follows from its status.
    fn new(status: StatusCode, message: String) -> ApiError {
        let code = match status {
            StatusCode::BAD_REQUEST => "bad-request",
            StatusCode::FORBIDDEN => "forbidden",
            StatusCode::NOT_FOUND => "not-found",
            StatusCode::CONFLICT => "conflict",
            StatusCode::GONE => "damaged",
            _ => "internal",
        };
        ApiError {
            status,
            message,
            code,
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        // 410 Gone answers only a damaged stored game ([`HubError::Damaged`]).
        let body = if self.status == StatusCode::GONE {
            json!({"error": self.message, "code": self.code, "damaged": true})
        } else {
            json!({"error": self.message, "code": self.code})
        };
        (self.status, Json(body)).into_response()
    }
}

impl From<HubError> for ApiError {
    fn from(e: HubError) -> Self {
        let status = match &e {
            HubError::NoGame(_) => StatusCode::NOT_FOUND,
            HubError::Damaged { .. } => StatusCode::GONE,
            HubError::Limit(_) => StatusCode::BAD_REQUEST,
            HubError::NotASeat => StatusCode::FORBIDDEN,
            HubError::Taken(_) => StatusCode::CONFLICT,
            HubError::Illegal(_) | HubError::Record(_) => StatusCode::BAD_REQUEST,
            HubError::Store(_) | HubError::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        };
        ApiError {
            status,
            message: e.to_string(),
            code: e.code(),
        }
    }
}

impl From<LabRunError> for ApiError {
    fn from(e: LabRunError) -> Self {
        let status = match &e {
            LabRunError::BadRequest(_) => StatusCode::BAD_REQUEST,
            LabRunError::NoRun(_) => StatusCode::NOT_FOUND,
            LabRunError::Busy(_) | LabRunError::AlreadyRunning(_) | LabRunError::NotRunning(_) => {
                StatusCode::CONFLICT
            }
            LabRunError::Store(_) | LabRunError::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        };
        ApiError::new(status, e.to_string())
    }
}

impl From<AnalysisError> for ApiError {
    fn from(e: AnalysisError) -> Self {
        bad(e.to_string())
    }
}

fn bad(msg: impl Into<String>) -> ApiError {
    ApiError::new(StatusCode::BAD_REQUEST, msg.into())
}

/// Reads a JSON body, saying what is wrong with it (line, column) if it cannot.
fn parse_body<T: serde::de::DeserializeOwned>(body: &Bytes) -> Result<T, ApiError> {
    serde_json::from_slice(body).map_err(|e| bad(format!("malformed request body: {e}")))
}

/// The routes of the app.
pub fn router(hub: Arc<Hub>) -> Router {
    let limits = hub.limits();
    let guard = Guard::new(
        limits.public_url.as_deref(),
        limits.new_games_per_minute,
        limits.writes_per_second,
    );
    guard.spawn_cleanup();
    Router::new()
        .route("/", get(|headers: axum::http::HeaderMap| async move { page(assets::LOBBY_HTML, &headers) }))
        .route("/g/{id}", get(game_page))
        .route("/assets/{name}", get(asset))
        // Browsers ask for /favicon.ico whatever the page says: the same SVG icon.
        .route(
            "/favicon.ico",
            get(|| async { asset(Path("favicon.svg".to_string())).await }),
        )
        .route("/api/rulesets", get(rulesets))
        .route("/api/rulesets/{name}", get(ruleset))
        .route("/api/games", get(list_games).post(create_game))
        .route("/api/games/{id}", get(game_state))
        .route("/api/games/{id}/export", get(export))
        .route("/api/games/{id}/move", post(play_move))
        .route("/api/games/{id}/resign", post(resign))
        .route("/api/games/{id}/draw", post(draw))
        .route("/api/games/{id}/takeback", post(takeback))
        .route("/api/games/{id}/rematch", post(rematch))
        .route("/api/games/{id}/join", post(join))
        .route("/api/games/{id}/chat", get(chat_log).post(chat))
        .route("/api/games/{id}/ws", get(socket))
        .route("/api/games/{id}/position", get(game_position))
        .route("/api/import", post(import))
        .route("/analysis", get(|headers: axum::http::HeaderMap| async move { page(assets::ANALYSIS_HTML, &headers) }))
        .route("/api/analysis/state", get(analysis_state))
        .route("/api/analysis/setup", post(analysis_setup))
        .route("/api/analysis/ws", get(analysis_socket))
        .route("/lab", get(|headers: axum::http::HeaderMap| async move { page(assets::LAB_HTML, &headers) }))
        .route("/api/lab/runs", get(lab_runs).post(lab_create))
        .route("/api/lab/runs/{id}", get(lab_progress))
        .route("/api/lab/runs/{id}/stop", post(lab_stop))
        .route("/api/lab/runs/{id}/continue", post(lab_continue))
        .route("/api/lab/runs/{id}/report", get(lab_report))
        .route("/api/lab/runs/{id}/results", get(lab_results))
        .layer(DefaultBodyLimit::max(BODY_LIMIT))
        .layer(middleware::from_fn_with_state(
            guard.clone(),
            guard::rate_limit,
        ))
        .layer(middleware::from_fn_with_state(guard, guard::same_origin))
        .layer(RequestBodyTimeoutLayer::new(guard::BODY_READ_TIMEOUT))
        .layer(CompressionLayer::new())
        .layer(middleware::from_fn(guard::security_headers))
        .with_state(hub)
}

/// A page in the language the browser asks for (the `libro-lang` cookie, else
/// Accept-Language).
fn page(html: &'static str, headers: &axum::http::HeaderMap) -> Response {
    let lang = language(headers);
    (
        [(header::VARY, "Accept-Language, Cookie")],
        Html(assets::page(html, lang)),
    )
        .into_response()
}

/// The language a request is answered in (the `libro-lang` cookie, else Accept-Language).
fn language(headers: &axum::http::HeaderMap) -> &'static str {
    let text = |h: header::HeaderName| headers.get(h).and_then(|v| v.to_str().ok());
    assets::language(text(header::COOKIE), text(header::ACCEPT_LANGUAGE))
}

async fn asset(Path(name): Path<String>) -> Response {
    match assets::asset(&name) {
        Some(a) => (
            [
                (header::CONTENT_TYPE, a.content_type),
                (header::CACHE_CONTROL, "no-cache"),
            ],
            a.body,
        )
            .into_response(),
        None => ApiError::new(
            StatusCode::NOT_FOUND,
            format!("no asset `{}`", name.chars().take(60).collect::<String>()),
        )
        .into_response(),
    }
}

async fn rulesets() -> Result<Json<Value>, ApiError> {
    let mut out = Vec::new();
    for h in libro_registry::shipped() {
        match libro_registry::load(&h.name, &[]) {
            Ok(r) => out.push(view::ruleset_info(&r)),
            Err(e) => {
                return Err(ApiError::new(
                    StatusCode::INTERNAL_SERVER_ERROR,
                    e.to_string(),
                ))
            }
        }
    }
    Ok(Json(json!(out)))
}

async fn ruleset(Path(name): Path<String>) -> Result<Json<Value>, ApiError> {
    if name.contains('/') || name.contains('.') {
        return Err(bad("not a ruleset name"));
    }
    let r = libro_registry::load(&name, &[])
        .map_err(|e| ApiError::new(StatusCode::NOT_FOUND, e.to_string()))?;
    let mut info = view::ruleset_info(&r);
    let (record, seed) = assets::rules_texts(&name);
    info["rules_of_record"] = json!(record);
    info["seed"] = match seed {
        Some((file, game, text)) => json!({"file": file, "game": game, "text": text}),
        None => Value::Null,
    };
    Ok(Json(info))
}

/// Which page of the lobby list.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ListQuery {
    #[serde(default)]
    page: usize,
}

/// `GET /api/games?page=N`: page N (from 0) of the games, newest first, at most
/// [`crate::limits::LOBBY_PAGE`] to a page; a shorter page is the last.
async fn list_games(State(hub): State<Arc<Hub>>, Query(q): Query<ListQuery>) -> Json<Value> {
    Json(json!(hub.list_page(q.page).await))
}

/// A new game as the lobby asks for it (`POST /api/games`).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CreateRequest {
    pub ruleset: String,
    #[serde(default)]
    pub options: BTreeMap<String, String>,
    pub players: Vec<String>,
    #[serde(default)]
    pub stakes: Option<Vec<u32>>,
    #[serde(default)]
    pub seed: Option<u64>,
    /// A clock: `{"initial_s": S, "increment_s": I}` (bounds in [`crate::limits`]).
    #[serde(default)]
    pub clock: Option<crate::ClockSpec>,
}

impl CreateRequest {
    /// The setup asked for, before the hub checks it against the ruleset.
    pub fn setup(self) -> Result<Setup, String> {
        if self.options.len() > 32 || self.players.len() > libro_core::MAX_SEATS {
            return Err("too many options or players".to_string());
        }
        // Only options the ruleset has are passed on (the registry names any unknown one).
        Ok(Setup {
            ruleset: self.ruleset,
            options: self.options.into_iter().collect(),
            seed: self.seed.unwrap_or_else(rand::random),
            stakes: self.stakes,
            players: self.players,
            clock: self.clock,
            position: None,
        })
    }
}

/// `POST /api/games`: a player `open` is a human seat left for others to take (an open
/// challenge, listed in the lobby); every link comes absolute too (`url`), from
/// `--public-url` or the host the browser used.
async fn create_game(
    State(hub): State<Arc<Hub>>,
    headers: axum::http::HeaderMap,
    body: Bytes,
) -> Result<Json<Value>, ApiError> {
    let mut req: CreateRequest = parse_body(&body)?;
    let open: Vec<bool> = req.players.iter().map(|p| p == "open").collect();
    for p in req.players.iter_mut().filter(|p| *p == "open") {
        *p = "human".into();
    }
    let created = hub.create_open(req.setup().map_err(bad)?, open).await?;
    let mut v = json!(created);
    with_urls(&mut v, &origin(&hub, &headers));
    Ok(Json(v))
}

/// Adds each link's absolute `url` (the spectator's as `spectator_url`).
fn with_urls(created: &mut Value, origin: &str) {
    if let Some(s) = created["spectator"].as_str() {
        created["spectator_url"] = json!(format!("{origin}{s}"));
    }
    if let Some(seats) = created["seats"].as_array_mut() {
        for seat in seats {
            if let Some(l) = seat["link"].as_str() {
                seat["url"] = json!(format!("{origin}{l}"));
            }
        }
    }
}

/// A seat's chat message: `{"token": …, "text": …}`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ChatRequest {
    token: String,
    text: String,
}

/// `POST /api/games/{id}/chat`: a seat's message to everyone watching (spectators read).
async fn chat(
    State(hub): State<Arc<Hub>>,
    Path(id): Path<String>,
    body: Bytes,
) -> Result<Json<Value>, ApiError> {
    let req: ChatRequest = parse_body(&body)?;
    hub.chat(&id, &req.token, &req.text).await?;
    Ok(Json(json!({"ok": true})))
}

/// `GET /api/games/{id}/chat`: the chat kept, oldest first.
async fn chat_log(
    State(hub): State<Arc<Hub>>,
    Path(id): Path<String>,
) -> Result<Json<Value>, ApiError> {
    let cell = hub.get(&id).await?;
    let g = cell.lock().await;
    let log: Vec<Value> = g
        .chat
        .iter()
        .map(|(seat, text)| json!({"seat": seat, "text": text}))
        .collect();
    Ok(Json(json!(log)))
}

/// Taking an open seat: `{"seat": N}`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct JoinRequest {
    seat: usize,
}

/// `POST /api/games/{id}/join`: takes an open seat; answers its secret link.
async fn join(
    State(hub): State<Arc<Hub>>,
    Path(id): Path<String>,
    headers: axum::http::HeaderMap,
    body: Bytes,
) -> Result<Json<Value>, ApiError> {
    let req: JoinRequest = parse_body(&body)?;
    let token = hub.join(&id, req.seat).await?;
    let link = format!("/g/{id}#t={token}");
    let url = format!("{}{link}", origin(&hub, &headers));
    Ok(Json(
        json!({"id": id, "seat": req.seat, "link": link, "url": url}),
    ))
}

/// The game page: 404 for a game that does not exist, 410 for a damaged one (the page
/// then says so and does not try to connect).
async fn game_page(
    State(hub): State<Arc<Hub>>,
    Path(id): Path<String>,
    headers: axum::http::HeaderMap,
) -> Response {
    let status = match hub.get(&id).await {
        Ok(_) => StatusCode::OK,
        Err(HubError::Damaged { .. }) => StatusCode::GONE,
        Err(_) => StatusCode::NOT_FOUND,
    };
    (status, page(assets::GAME_HTML, &headers)).into_response()
}

async fn game_state(
    State(hub): State<Arc<Hub>>,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    let cell = hub.get(&id).await?;
    let msg = cell.lock().await.full_message(None);
    Ok(([(header::CONTENT_TYPE, "application/json")], msg).into_response())
}

/// Which record an export gives: `json` (the default), `pgn` (two-seat chess) or `text`
/// (PGN where the game has it, else libro's own text record: docs/records.md).
#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct ExportQuery {
    #[serde(default)]
    format: Option<String>,
}

/// The origin links are built from: `serve --public-url`, else the host the browser used.
fn origin(hub: &Hub, headers: &axum::http::HeaderMap) -> String {
    if let Some(url) = &hub.limits().public_url {
        return url.trim_end_matches('/').to_string();
    }
    let host = headers
        .get(header::HOST)
        .and_then(|h| h.to_str().ok())
        .filter(|h| {
            !h.is_empty()
                && h.chars()
                    .all(|c| c.is_ascii_alphanumeric() || "-.:[]".contains(c))
        })
        .unwrap_or("localhost");
    format!("http://{host}")
}

async fn export(
    State(hub): State<Arc<Hub>>,
    Path(id): Path<String>,
    Query(q): Query<ExportQuery>,
    headers: axum::http::HeaderMap,
) -> Result<Response, ApiError> {
    let cell = hub.get(&id).await?;
    match q.format.as_deref() {
        None | Some("json") => {}
        Some(f @ ("pgn" | "text")) => {
            let g = cell.lock().await;
            let kind = crate::pgn::Kind::of(&g.rules);
            if f == "pgn" && kind != crate::pgn::Kind::Pgn {
                return Err(bad(format!(
                    "`{}` is not a two-seat chess game: PGN cannot hold it; ask for format=text (docs/records.md)",
                    g.setup.ruleset
                )));
            }
            let site = format!("{}/g/{id}", origin(&hub, &headers));
            let text = crate::pgn::export(&g.setup, &g.rules, &g.played, g.created, &site);
            let ext = if kind == crate::pgn::Kind::Pgn {
                "pgn"
            } else {
                "txt"
            };
            let disposition = format!(
                "attachment; filename=\"libro-{}-{id}.{ext}\"",
                g.setup.ruleset
            );
            let mime = if ext == "pgn" {
                "application/x-chess-pgn"
            } else {
                "text/plain; charset=utf-8"
            };
            return Ok((
                [
                    (header::CONTENT_TYPE, mime.to_string()),
                    (header::CONTENT_DISPOSITION, disposition),
                ],
                text,
            )
                .into_response());
        }
        Some(f) => {
            return Err(bad(format!(
                "format `{}` is not json, pgn or text",
                f.chars().take(20).collect::<String>()
            )))
        }
    }
    let rec = cell.lock().await.record();
    let body = serde_json::to_string_pretty(&rec)
        .map_err(|e| ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()))?;
    let disposition = format!(
        "attachment; filename=\"libro-{}-{id}.json\"",
        rec.setup.ruleset
    );
    Ok((
        [
            (header::CONTENT_TYPE, "application/json".to_string()),
            (header::CONTENT_DISPOSITION, disposition),
        ],
        body,
    )
        .into_response())
}

/// What `POST /api/import` takes: a JSON record, or `{"text": …}` holding a PGN or a libro
/// text record (docs/records.md).
enum Imported {
    Record(Box<Record>),
    Text(Box<(Setup, Vec<crate::Event>)>),
}

/// A text record to import, wrapped in JSON (POST bodies are JSON).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TextImport {
    text: String,
}

async fn import(State(hub): State<Arc<Hub>>, body: Bytes) -> Result<Json<Value>, ApiError> {
    // A record of up to the body limit takes a while to read and replay: off the async
    // threads.
    let read = tokio::task::spawn_blocking(move || -> Result<Imported, ApiError> {
        let text_form = serde_json::from_slice::<Value>(&body)
            .ok()
            .is_some_and(|v| v.get("text").is_some());
        if text_form {
            let t: TextImport = parse_body(&body)?;
            let read = crate::pgn::import(&t.text).map_err(|e| bad(format!("record: {e}")))?;
            Ok(Imported::Text(Box::new(read)))
        } else {
            Ok(Imported::Record(Box::new(parse_body(&body)?)))
        }
    })
    .await
    .map_err(|e| {
        ApiError::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            format!("reading the record: {e}"),
        )
    })??;
    let created = match read {
        Imported::Record(rec) => hub.import(*rec).await?,
        Imported::Text(read) => {
            let (setup, events) = *read;
            hub.import_events(setup, events).await?
        }
    };
    Ok(Json(json!(created)))
}

/// A move sent over HTTP (the page uses the socket; scripts may use this).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MoveRequest {
    pub token: String,
    #[serde(rename = "move")]
    pub mv: String,
}

async fn play_move(
    State(hub): State<Arc<Hub>>,
    Path(id): Path<String>,
    body: Bytes,
) -> Result<Json<Value>, ApiError> {
    let req: MoveRequest = parse_body(&body)?;
    hub.play(&id, &req.token, &req.mv).await?;
    let cell = hub.get(&id).await?;
    let now = cell.lock().await.now.clone();
    Ok(Json(json!({"ok": true, "now": now})))
}

/// A seat's request about its game: its secret token.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SeatRequest {
    pub token: String,
}

/// The game's status after a seat's request.
async fn status_of(hub: &Arc<Hub>, id: &str) -> Result<Json<Value>, ApiError> {
    let cell = hub.get(id).await?;
    let now = cell.lock().await.now.clone();
    Ok(Json(json!({"ok": true, "now": now})))
}

async fn resign(
    State(hub): State<Arc<Hub>>,
    Path(id): Path<String>,
    body: Bytes,
) -> Result<Json<Value>, ApiError> {
    let req: SeatRequest = parse_body(&body)?;
    hub.resign(&id, &req.token).await?;
    status_of(&hub, &id).await
}

async fn draw(
    State(hub): State<Arc<Hub>>,
    Path(id): Path<String>,
    body: Bytes,
) -> Result<Json<Value>, ApiError> {
    let req: SeatRequest = parse_body(&body)?;
    hub.offer_draw(&id, &req.token).await?;
    status_of(&hub, &id).await
}

async fn takeback(
    State(hub): State<Arc<Hub>>,
    Path(id): Path<String>,
    body: Bytes,
) -> Result<Json<Value>, ApiError> {
    let req: SeatRequest = parse_body(&body)?;
    hub.takeback(&id, &req.token).await?;
    status_of(&hub, &id).await
}

async fn rematch(
    State(hub): State<Arc<Hub>>,
    Path(id): Path<String>,
    body: Bytes,
) -> Result<Json<Value>, ApiError> {
    let req: SeatRequest = parse_body(&body)?;
    let new = hub.rematch(&id, &req.token).await?;
    Ok(Json(
        json!({"id": new, "link": format!("/g/{new}#t={}", req.token)}),
    ))
}

#[derive(Deserialize)]
struct SocketQuery {
    #[serde(default)]
    t: String,
}

/// A message from a browser over the game's WebSocket.
#[derive(Deserialize)]
#[serde(tag = "type", rename_all = "lowercase", deny_unknown_fields)]
pub enum ClientMessage {
    Move {
        #[serde(rename = "move")]
        mv: String,
        #[serde(default)]
        id: Option<u64>,
    },
    Ping {
        #[serde(default)]
        id: Option<u64>,
    },
}

async fn socket(
    State(hub): State<Arc<Hub>>,
    Path(id): Path<String>,
    Query(q): Query<SocketQuery>,
    ws: WebSocketUpgrade,
) -> Result<Response, ApiError> {
    // Fail before upgrading if the game does not exist.
    hub.get(&id).await?;
    // Small buffers: a server holds thousands of mostly idle sockets, and the messages are
    // a few kilobytes (tungstenite's defaults are 128 KiB each way per socket). Messages
    // are queued and written together when the socket is flushed ([`live`]).
    Ok(ws
        .read_buffer_size(8 << 10)
        .write_buffer_size(WS_WRITE_BUFFER)
        .max_message_size(WS_LIMIT)
        .max_frame_size(WS_LIMIT)
        .on_upgrade(move |s| live(hub, id, q.t, s)))
}

/// The bytes a socket queues before writing them without waiting for its flush.
const WS_WRITE_BUFFER: usize = 16 << 10;

async fn send_text(socket: &mut WebSocket, text: impl Into<Utf8Bytes>) -> bool {
    socket.send(Message::Text(text.into())).await.is_ok()
}

/// Queues (without writing) every update broadcast to this socket and not yet sent, so
/// that they leave in one write with what follows; one missed (the socket lagged) is
/// replaced by the whole game. False if the socket is done.
async fn queue_ready(
    socket: &mut WebSocket,
    rx: &mut broadcast::Receiver<Utf8Bytes>,
    cell: &tokio::sync::Mutex<LiveGame>,
    seat: Option<Seat>,
) -> bool {
    loop {
        let text = match rx.try_recv() {
            Ok(m) => m,
            Err(TryRecvError::Empty) => return true,
            Err(TryRecvError::Lagged(_)) => cell.lock().await.full_message(seat).into(),
            Err(TryRecvError::Closed) => return false,
        };
        if socket.feed(Message::Text(text)).await.is_err() {
            return false;
        }
    }
}

/// The answer to a socket's move or ping, with its request id.
fn reply_text(kind: &str, id: Option<u64>) -> String {
    match id {
        Some(id) => format!(r#"{{"type":"{kind}","id":{id}}}"#),
        None => format!(r#"{{"type":"{kind}","id":null}}"#),
    }
}

/// One viewer's socket: the full game first, then every update; moves from a seat's link.
/// A move's own update and its `ok` leave in one write, as do updates that queued up.
async fn live(hub: Arc<Hub>, id: String, token: String, mut socket: WebSocket) {
    let Ok(cell) = hub.get(&id).await else { return };
    let (first, mut rx, seat) = {
        let g = cell.lock().await;
        let seat = g.seat_of(&token);
        (g.full_message(seat), g.tx.subscribe(), seat)
    };
    if !send_text(&mut socket, first).await {
        return;
    }
    if seat.is_none() && !token.is_empty() {
        let msg = json!({"type": "error", "message": HubError::NotASeat.to_string()}).to_string();
        if !send_text(&mut socket, msg).await {
            return;
        }
    }
    let mut rate = SocketRate::default();
    loop {
        tokio::select! {
            incoming = socket.recv() => {
                let Some(Ok(msg)) = incoming else { return };
                if matches!(msg, Message::Text(_) | Message::Binary(_)) {
                    match rate.check() {
                        SocketVerdict::Serve => {}
                        SocketVerdict::Refuse(why) => {
                            if !send_text(&mut socket, json!({"type": "error", "message": why}).to_string()).await { return }
                            continue;
                        }
                        SocketVerdict::Close => {
                            let _ = socket.send(Message::Close(Some(axum::extract::ws::CloseFrame {
                                code: axum::extract::ws::close_code::POLICY,
                                reason: "too many messages".into(),
                            }))).await;
                            return;
                        }
                    }
                }
                let text = match msg {
                    Message::Text(t) => t,
                    Message::Binary(_) => {
                        if !send_text(&mut socket, json!({"type": "error", "message": "binary messages are not understood"}).to_string()).await { return }
                        continue;
                    }
                    Message::Close(_) => return,
                    _ => continue,
                };
                let reply = match serde_json::from_str::<ClientMessage>(text.as_str()) {
                    Err(e) => json!({"type": "error", "message": format!("malformed message: {e}")}).to_string(),
                    Ok(ClientMessage::Ping { id }) => reply_text("pong", id),
                    Ok(ClientMessage::Move { mv, id: req }) => match hub.play(&id, &token, &mv).await {
                        Ok(()) => reply_text("ok", req),
                        Err(e) => json!({"type": "error", "id": req, "message": e.to_string(), "code": e.code()}).to_string(),
                    },
                };
                // The move's own update, broadcast before its answer, goes first.
                if !queue_ready(&mut socket, &mut rx, &cell, seat).await { return }
                if !send_text(&mut socket, reply).await { return }
            }
            update = rx.recv() => {
                let text = match update {
                    Ok(m) => m,
                    Err(RecvError::Lagged(_)) => cell.lock().await.full_message(seat).into(),
                    Err(RecvError::Closed) => return,
                };
                if socket.feed(Message::Text(text)).await.is_err() { return }
                if !queue_ready(&mut socket, &mut rx, &cell, seat).await { return }
                if socket.flush().await.is_err() { return }
            }
        }
    }
}

/// Runs a Lab call (database reads and writes, a report over many games) on the blocking
/// pool.
async fn lab_call<T: Send + 'static>(
    hub: &Arc<Hub>,
    f: impl FnOnce(&Arc<Lab>) -> Result<T, LabRunError> + Send + 'static,
) -> Result<T, ApiError> {
    let lab = hub.lab.clone();
    tokio::task::spawn_blocking(move || f(&lab))
        .await
        .map_err(|e| ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()))?
        .map_err(ApiError::from)
}

async fn lab_runs(State(hub): State<Arc<Hub>>) -> Result<Json<Value>, ApiError> {
    Ok(Json(lab_call(&hub, |lab| lab.list()).await?))
}

async fn lab_create(State(hub): State<Arc<Hub>>, body: Bytes) -> Result<Json<Value>, ApiError> {
    let req: RunRequest = parse_body(&body)?;
    Ok(Json(
        lab_call(&hub, move |lab| lab.create(req.study()?)).await?,
    ))
}

async fn lab_progress(
    State(hub): State<Arc<Hub>>,
    Path(id): Path<String>,
) -> Result<Json<Value>, ApiError> {
    let id = Lab::parse_id(&id)?;
    Ok(Json(lab_call(&hub, move |lab| lab.progress(id)).await?))
}

async fn lab_stop(
    State(hub): State<Arc<Hub>>,
    Path(id): Path<String>,
) -> Result<Json<Value>, ApiError> {
    let id = Lab::parse_id(&id)?;
    Ok(Json(lab_call(&hub, move |lab| lab.stop(id)).await?))
}

/// Continuing a run, perhaps with more games per reading.
#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct ContinueRequest {
    #[serde(default)]
    games: Option<u32>,
}

async fn lab_continue(
    State(hub): State<Arc<Hub>>,
    Path(id): Path<String>,
    body: Bytes,
) -> Result<Json<Value>, ApiError> {
    let id = Lab::parse_id(&id)?;
    let req: ContinueRequest = if body.iter().all(u8::is_ascii_whitespace) {
        ContinueRequest::default()
    } else {
        parse_body(&body)?
    };
    Ok(Json(
        lab_call(&hub, move |lab| lab.resume(id, req.games)).await?,
    ))
}

/// A run's report, its charts' words in the language the pages are shown in.
async fn lab_report(
    State(hub): State<Arc<Hub>>,
    Path(id): Path<String>,
    headers: axum::http::HeaderMap,
) -> Result<Response, ApiError> {
    let id = Lab::parse_id(&id)?;
    let lang = language(&headers);
    let report = lab_call(&hub, move |lab| lab.report(id, lang)).await?;
    Ok(([(header::VARY, "Accept-Language, Cookie")], Json(report)).into_response())
}

/// The run as a results file of `libro evaluate`, to download.
async fn lab_results(
    State(hub): State<Arc<Hub>>,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    let id = Lab::parse_id(&id)?;
    let (name, text) = lab_call(&hub, move |lab| lab.results_file(id)).await?;
    Ok((
        [
            (header::CONTENT_TYPE, "application/jsonl".to_string()),
            (
                header::CONTENT_DISPOSITION,
                format!("attachment; filename=\"{name}\""),
            ),
        ],
        text,
    )
        .into_response())
}

/// Which position of a game: after the first `at` events in force (all of them if none).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PositionQuery {
    #[serde(default)]
    at: Option<usize>,
}

/// `GET /api/games/{id}/position?at=N`: the game's ruleset, options and the position after
/// its first N events in force, for the analysis board.
async fn game_position(
    State(hub): State<Arc<Hub>>,
    Path(id): Path<String>,
    Query(q): Query<PositionQuery>,
) -> Result<Json<Value>, ApiError> {
    let cell = hub.get(&id).await?;
    let g = cell.lock().await;
    let events = &g.played.effective;
    let at = q.at.unwrap_or(events.len()).min(events.len());
    let mut game = g.played.start().clone_box();
    for ev in &events[..at] {
        if matches!(ev, crate::Event::Move { .. } | crate::Event::Roll { .. }) {
            crate::record::apply(game.as_mut(), ev)
                .map_err(|e| ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()))?;
        }
    }
    let options: BTreeMap<&str, &str> = g
        .setup
        .options
        .iter()
        .map(|(k, v)| (k.as_str(), v.as_str()))
        .collect();
    Ok(Json(json!({
        "ruleset": g.setup.ruleset,
        "options": options,
        "position": game.position(),
        "at": at,
    })))
}

/// A position of the analysis board, perhaps with a move to play in it: the options as
/// `KEY=VALUE,KEY=VALUE`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct StateQuery {
    ruleset: String,
    #[serde(default)]
    options: String,
    #[serde(default)]
    position: Option<String>,
    #[serde(default, rename = "move")]
    mv: Option<String>,
}

/// `GET /api/analysis/state`: the position (and, with `move`, the position after it, for
/// whichever seat is to move, or the dice outcome if a roll is pending) as the analysis
/// board shows it; a bad ruleset, position or move is named in a 400.
async fn analysis_state(Query(q): Query<StateQuery>) -> Result<Json<Value>, ApiError> {
    let setup = analysis::Setup {
        ruleset: q.ruleset,
        options: analysis::parse_options(&q.options)?,
        position: q.position,
    };
    let (rules, mut game) = setup.load()?;
    let played = match q.mv.as_deref() {
        Some(m) if m.len() > crate::limits::MAX_MOVE_TEXT => {
            return Err(bad(format!(
                "a move is at most {} characters",
                crate::limits::MAX_MOVE_TEXT
            )))
        }
        Some(m) => Some(analysis::play(game.as_mut(), m)?),
        None => None,
    };
    let mut v = analysis::state(&rules, game.as_ref());
    v["played"] = match played {
        Some((text, san)) => json!({"text": text, "san": san}),
        None => Value::Null,
    };
    Ok(Json(v))
}

/// Pieces placed by the analysis board's editor: the ruleset and its options, each piece
/// (`{"square": "e1", "seat": 0, "piece": "K"}`) and the seat to move.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PlacementRequest {
    ruleset: String,
    #[serde(default)]
    options: BTreeMap<String, String>,
    pieces: Vec<libro_registry::Placement>,
    to_move: u8,
}

/// `POST /api/analysis/setup`: the position the placed pieces make, as the analysis board
/// shows it (`/api/analysis/state`'s answer); a position the rules refuse is a 400 with code
/// `bad-setup` and `problem` naming what is wrong (`kings`, `unpromoted`,
/// `opponent-in-check`, `square`, `piece`, `seat`, …).
async fn analysis_setup(body: Bytes) -> Result<Json<Value>, Response> {
    let req: PlacementRequest = parse_body(&body).map_err(IntoResponse::into_response)?;
    let too_many = crate::limits::MAX_PLACED_PIECES;
    if req.pieces.len() > too_many {
        return Err(bad(format!("at most {too_many} pieces can be placed")).into_response());
    }
    let setup = analysis::Setup {
        ruleset: req.ruleset,
        options: req.options,
        position: None,
    };
    let (rules, _) = setup
        .load()
        .map_err(|e| ApiError::from(e).into_response())?;
    let position = rules.place(&req.pieces, req.to_move).map_err(|e| {
        let body =
            json!({"error": format!("setup: {e}"), "code": "bad-setup", "problem": e.problem});
        (StatusCode::BAD_REQUEST, Json(body)).into_response()
    })?;
    let game = rules.parse_position(&position).map_err(|e| {
        ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()).into_response()
    })?;
    Ok(Json(analysis::state(&rules, game.as_ref())))
}

/// A message of the analysis board's socket.
#[derive(Deserialize)]
#[serde(tag = "type", rename_all = "lowercase", deny_unknown_fields)]
enum AnalysisMessage {
    /// Analyse this position (stopping any analysis running).
    Analyse {
        ruleset: String,
        #[serde(default)]
        options: BTreeMap<String, String>,
        #[serde(default)]
        position: Option<String>,
    },
    /// Stop the analysis running.
    Stop,
}

async fn analysis_socket(State(hub): State<Arc<Hub>>, ws: WebSocketUpgrade) -> Response {
    ws.read_buffer_size(8 << 10)
        .write_buffer_size(WS_WRITE_BUFFER)
        .max_message_size(WS_LIMIT)
        .max_frame_size(WS_LIMIT)
        .on_upgrade(move |s| analysis_live(hub, s))
}

/// Sets the running analysis's stop flag when the socket's task ends, however it ends.
struct StopOnDrop(Option<Arc<AtomicBool>>);

impl StopOnDrop {
    fn replace(&mut self, next: Option<Arc<AtomicBool>>) {
        if let Some(old) = std::mem::replace(&mut self.0, next) {
            old.store(true, Ordering::Relaxed);
        }
    }
}

impl Drop for StopOnDrop {
    fn drop(&mut self) {
        self.replace(None);
    }
}

/// One analysis board's socket: each `analyse` stops the analysis running and starts one
/// of the new position on the AI pool; its reports (`line`, `rolls`) stream back, then
/// `done` (`stopped`: cut short by a new position, `stop` or the time ceiling).
async fn analysis_live(hub: Arc<Hub>, mut socket: WebSocket) {
    let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel::<Value>();
    let mut running = StopOnDrop(None);
    let mut job = 0u64;
    let mut rate = SocketRate::default();
    let hash_mb = analysis::hash_mb(hub.limits().max_ai_hash_mb);
    loop {
        tokio::select! {
            incoming = socket.recv() => {
                let Some(Ok(msg)) = incoming else { return };
                let text = match msg {
                    Message::Text(t) => t,
                    Message::Close(_) => return,
                    Message::Binary(_) => Utf8Bytes::from_static(""),
                    _ => continue,
                };
                match rate.check() {
                    SocketVerdict::Serve => {}
                    SocketVerdict::Refuse(why) => {
                        if !send_text(&mut socket, json!({"type": "error", "message": why}).to_string()).await { return }
                        continue;
                    }
                    SocketVerdict::Close => {
                        let _ = socket.send(Message::Close(Some(axum::extract::ws::CloseFrame {
                            code: axum::extract::ws::close_code::POLICY,
                            reason: "too many messages".into(),
                        }))).await;
                        return;
                    }
                }
                let reply = match serde_json::from_str::<AnalysisMessage>(text.as_str()) {
                    Err(e) => json!({"type": "error", "message": format!("malformed message: {e}")}),
                    Ok(AnalysisMessage::Stop) => {
                        running.replace(None);
                        continue;
                    }
                    Ok(AnalysisMessage::Analyse { ruleset, options, position }) => {
                        running.replace(None);
                        let setup = analysis::Setup { ruleset, options, position };
                        match setup.load() {
                            Err(e) => json!({"type": "error", "message": e.to_string()}),
                            Ok((_, game)) => {
                                job += 1;
                                let stop = Arc::new(AtomicBool::new(false));
                                running.replace(Some(stop.clone()));
                                let kind = if game.turn() == libro_core::Turn::Chance { "rolls" } else { "search" };
                                spawn_analysis(hub.clone(), job, game, hash_mb, stop, tx.clone());
                                json!({"type": "start", "job": job, "kind": kind})
                            }
                        }
                    }
                };
                if !send_text(&mut socket, reply.to_string()).await { return }
            }
            Some(report) = rx.recv() => {
                if !send_text(&mut socket, report.to_string()).await { return }
            }
        }
    }
}

/// Runs one analysis on the AI pool, sending its reports and its end to `tx`.
fn spawn_analysis(
    hub: Arc<Hub>,
    job: u64,
    game: Box<dyn libro_registry::DynGame>,
    hash_mb: usize,
    stop: Arc<AtomicBool>,
    tx: tokio::sync::mpsc::UnboundedSender<Value>,
) {
    tokio::spawn(async move {
        let (flag, out) = (stop.clone(), tx.clone());
        let ran = hub
            .on_ai_pool(stop, move || {
                if flag.load(Ordering::Relaxed) {
                    // Stopped while it waited for the pool.
                    return Ok(analysis::Ending::Stopped);
                }
                let mut send = |v: Value| {
                    let _ = out.send(v);
                };
                analysis::run(job, game.as_ref(), hash_mb, flag, &mut send)
            })
            .await;
        let end = match ran {
            Ok(Ok(ending)) => json!({"type": "done", "job": job,
                "stopped": ending == analysis::Ending::Stopped}),
            Ok(Err(e)) => json!({"type": "error", "job": job, "message": e.to_string()}),
            Err(e) => json!({"type": "error", "job": job, "message": e.to_string()}),
        };
        // The socket may have gone: nobody to tell.
        let _ = tx.send(end);
    });
}
