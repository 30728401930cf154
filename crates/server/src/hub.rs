//! The games being played: each in memory behind its own lock, with a broadcast channel to
//! everyone watching it. Every event is stored before it is applied and announced; AI moves
//! are computed on the blocking pool, at most [`Limits::ai_threads`] at once, so that no game
//! waits for another's search and searches cannot starve the server. An AI move or a dice
//! roll that could not be stored is tried again ([`crate::limits::AI_RETRY`]).
//!
//! A stored game that cannot be resumed (an unreadable row, a move its rules refuse, a player
//! above this server's limits) is logged and held as damaged: asking for it answers
//! [`HubError::Damaged`], and every other game plays on.

use crate::clock::{self, Clock};
use crate::lab::Lab;
use crate::limits::{LimitError, Limits, AI_RETRY, LOBBY_PAGE, MAX_MOVE_TEXT};
use crate::record::Played;
use crate::record::{self, Event, Record, RecordError, Setup};
use crate::store::{hash_matches, token_hash, Append, Loaded, Store, StoreError};
use crate::view;
use axum::extract::ws::Utf8Bytes;
use libro_core::{Seat, Turn};
use libro_registry::{AnyRuleset, DynGame};
use rand::Rng;
use serde_json::{json, Value};
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{SystemTime, UNIX_EPOCH};
use tokio::sync::{broadcast, mpsc, oneshot, Mutex, RwLock, Semaphore};

/// What went wrong with a request about a game.
#[derive(Debug, thiserror::Error)]
pub enum HubError {
    #[error("no game `{0}`")]
    NoGame(String),
    #[error("game `{id}` is damaged and cannot be played or shown: {reason}")]
    Damaged { id: String, reason: String },
    #[error(transparent)]
    Limit(#[from] LimitError),
    #[error("this link does not hold a seat of this game (spectators cannot move)")]
    NotASeat,
    #[error("seat {0} is not open: someone holds it, or it is the server's")]
    Taken(String),
    #[error("{0}")]
    Illegal(String),
    #[error(transparent)]
    Record(#[from] RecordError),
    #[error("storage failed, nothing was changed: {0}")]
    Store(#[from] StoreError),
    #[error("internal error: {0}")]
    Internal(String),
}

impl HubError {
    /// A stable word for the kind of error, which pages translate (`error.CODE` in the
    /// catalogues): the message itself stays as written.
    pub fn code(&self) -> &'static str {
        match self {
            HubError::NoGame(_) => "no-game",
            HubError::Damaged { .. } => "damaged",
            HubError::Limit(_) => "limit",
            HubError::NotASeat => "not-a-seat",
            HubError::Taken(_) => "taken",
            HubError::Illegal(_) => "illegal",
            HubError::Record(_) => "record",
            HubError::Store(_) => "store",
            HubError::Internal(_) => "internal",
        }
    }
}

/// One game in play.
pub struct LiveGame {
    pub id: String,
    pub setup: Setup,
    pub rules: AnyRuleset,
    /// The hash of each seat's secret token (`None` for AI seats).
    pub tokens: Vec<Option<String>>,
    pub created: i64,
    /// The game as played: the position, the events in force, a chosen ending.
    pub played: Played,
    /// Every event stored, in order (takebacks included): the record of the game.
    pub events: Vec<Event>,
    /// The board view of the start position.
    pub start_view: String,
    /// One entry per event in force ([`Played::effective`]): what happened and the board
    /// after it, as JSON text (kept as text: thousands of games' boards as JSON values would
    /// take far more memory).
    pub history: Vec<String>,
    /// Seats offering a draw (cleared by any move).
    pub draw_offers: Vec<bool>,
    /// The seat asking to take its last move back (cleared by any move).
    pub takeback_ask: Option<Seat>,
    /// The game a rematch of this one created.
    pub rematch: Option<String>,
    /// The status (turn, legal moves, result) now, recomputed after every event.
    pub now: Value,
    /// Each update, serialised once: every socket watching sends the same shared bytes.
    pub tx: broadcast::Sender<Utf8Bytes>,
    /// An AI search for this game is running.
    pub thinking: bool,
    /// When the game was loaded or last had an event (for unloading when idle).
    pub last_active: std::time::Instant,
    /// Each seat's time, for a game on a clock.
    pub clock: Option<Clock>,
    /// The task that ends the game when the seat to move's time runs out.
    flag_timer: Option<tokio::task::AbortHandle>,
    /// The seats' chat, newest last, at most [`crate::limits::CHAT_KEPT`] (memory only).
    pub chat: std::collections::VecDeque<(u8, String)>,
}

impl LiveGame {
    /// The seat a secret token holds, if any (compared with each seat's hash in constant
    /// time).
    pub fn seat_of(&self, token: &str) -> Option<Seat> {
        if token.is_empty() {
            return None;
        }
        // Hashed once, compared with every seat's hash in constant time.
        let hash = token_hash(token);
        self.tokens
            .iter()
            .position(|t| t.as_deref().is_some_and(|h| hash_matches(&hash, h)))
            .map(|i| Seat(i as u8))
    }

    /// A game made live from its setup's start position and its events (each checked),
    /// with the events as the game writes them; on error, the index of the bad event.
    #[allow(clippy::too_many_arguments)]
    fn build(
        id: String,
        setup: Setup,
        rules: AnyRuleset,
        tokens: Vec<Option<String>>,
        created: i64,
        start: Box<dyn DynGame>,
        events: &[Event],
    ) -> Result<(LiveGame, Vec<Event>), (usize, libro_registry::PlayError)> {
        let n = start.num_seats();
        let start_view = view::board_text(start.as_ref());
        let (tx, _) = broadcast::channel(64);
        let mut live = LiveGame {
            id,
            setup,
            rules,
            tokens,
            created,
            played: Played::new(start),
            events: Vec::with_capacity(events.len()),
            start_view,
            history: Vec::with_capacity(events.len()),
            draw_offers: vec![false; n],
            takeback_ask: None,
            rematch: None,
            now: Value::Null,
            tx,
            thinking: false,
            last_active: std::time::Instant::now(),
            clock: None,
            flag_timer: None,
            chat: Default::default(),
        };
        live.clock = live.setup.clock.map(|spec| Clock::new(spec, n));
        for (index, ev) in events.iter().enumerate() {
            let san = live.played.describe_next(ev);
            let before = live.played.turn();
            let ev = live.played.apply(ev).map_err(|e| (index, e))?;
            live.tick(before, &ev);
            live.commit(ev, san);
        }
        live.refresh_now();
        let canonical = live.events.clone();
        Ok((live, canonical))
    }

    /// The position now.
    pub fn game(&self) -> &dyn DynGame {
        self.played.game.as_ref()
    }

    /// Whether the game is over.
    pub fn is_over(&self) -> bool {
        self.played.turn() == Turn::Over
    }

    /// The first message a new viewer gets: the game, its history and its status.
    pub fn full_message(&self, you: Option<Seat>) -> String {
        // The clocks as of now, not as of the last event.
        let fresh;
        let now = match &self.clock {
            Some(_) => {
                let mut now = self.now.clone();
                now["clock"] = view::clock(self);
                fresh = now;
                &fresh
            }
            None => &self.now,
        };
        format!(
            r#"{{"type":"full","you":{},"game":{},"start":{},"history":[{}],"now":{}}}"#,
            json!(you.map(|s| s.0)),
            view::meta(self),
            self.start_view,
            self.history.join(","),
            now
        )
    }

    /// Updates the clocks for an event just applied (`before`: whose turn it was).
    fn tick(&mut self, before: Turn, ev: &Event) {
        let after = self.played.turn();
        if let Some(c) = &mut self.clock {
            c.on_event(before, ev, after);
        }
    }

    /// The seat to move and its deadline (Unix ms), if its clock runs.
    pub fn deadline(&self) -> Option<(Seat, i64)> {
        self.clock.as_ref()?.deadline(self.played.turn())
    }

    /// When the game is on a clock: the time of an event (Unix ms), now.
    fn stamp(&self) -> Option<i64> {
        self.clock.as_ref().map(|_| clock::now_ms())
    }

    /// The record of the game for export.
    pub fn record(&self) -> Record {
        Record {
            format: record::FORMAT.to_string(),
            setup: self.setup.clone(),
            events: self.events.clone(),
            position: Some(self.game().position()),
            result: self
                .played
                .result()
                .map(|r| serde_json::to_value(r).unwrap_or(Value::Null)),
        }
    }

    /// A line for the list of games.
    pub fn summary(&self) -> Value {
        json!({
            "id": self.id,
            "ruleset": self.setup.ruleset,
            "title": self.rules.title(),
            "players": self.setup.players,
            "seats": self.rules.seat_names(),
            "ply": self.game().ply(),
            "over": self.is_over(),
            "result": view::result(&self.played),
            "created": self.created,
            "open": self.open_seats(),
            "clock": self.setup.clock,
        })
    }

    /// The human seats nobody holds yet (an open challenge's), by index.
    pub fn open_seats(&self) -> Vec<usize> {
        self.setup
            .players
            .iter()
            .zip(&self.tokens)
            .enumerate()
            .filter(|(_, (p, t))| *p == "human" && t.is_none())
            .map(|(i, _)| i)
            .collect()
    }

    fn refresh_now(&mut self) {
        self.now = view::status(self, self.thinking);
    }

    /// Records an event already applied to [`LiveGame::played`] and stored: its history
    /// entry (or, after a takeback, the history cut back), offers cleared by a move.
    fn commit(&mut self, event: Event, san: Option<String>) {
        match &event {
            Event::Takeback { .. } => self.history.truncate(self.played.effective.len()),
            _ => {
                let entry = view::entry(&event, san.as_deref(), self.played.game.as_ref());
                self.history.push(entry);
            }
        }
        if matches!(event, Event::Move { .. } | Event::Takeback { .. }) {
            self.draw_offers.iter_mut().for_each(|o| *o = false);
            self.takeback_ask = None;
        }
        self.events.push(event);
        self.last_active = std::time::Instant::now();
        self.refresh_now();
    }

    /// Whether the game waits for no one but a human (or is over): nothing of the server's
    /// own is pending, so it may leave memory.
    fn waits_for_a_human(&self) -> bool {
        // A running clock is the server's to watch: the game stays until it ends.
        if self.deadline().is_some() {
            return false;
        }
        match self.played.turn() {
            Turn::Over => true,
            Turn::Seat(s) => self.setup.players[s.index()] == "human" && !self.thinking,
            Turn::Chance => false,
        }
    }

    fn announce(&self, from: usize) {
        let entries = &self.history[from..];
        let now = self.now.to_string();
        let mut msg = String::with_capacity(
            48 + entries.iter().map(|e| e.len() + 1).sum::<usize>() + now.len(),
        );
        msg.push_str(r#"{"type":"update","from":"#);
        msg.push_str(&from.to_string());
        msg.push_str(r#","entries":["#);
        for (i, e) in entries.iter().enumerate() {
            if i > 0 {
                msg.push(',');
            }
            msg.push_str(e);
        }
        msg.push_str(r#"],"now":"#);
        msg.push_str(&now);
        msg.push('}');
        // No receivers is fine: nobody is watching.
        let _ = self.tx.send(Utf8Bytes::from(msg));
    }
}

/// What [`Hub::apply_stored`] restores when an event cannot be stored.
enum Undo {
    /// The whole game as it was (before a takeback).
    Whole(Played),
    /// The position and chosen ending before one more event in force.
    Last(Box<dyn DynGame>, Option<libro_core::GameResult>),
}

/// The pause before each move of a game with no human seat.
const AI_ONLY_PACE: std::time::Duration = std::time::Duration::from_millis(200);

/// The link tokens and ids: random letters and digits.
fn random_id(len: usize) -> String {
    const CHARS: &[u8] = b"abcdefghijkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789";
    let mut rng = rand::thread_rng();
    (0..len)
        .map(|_| CHARS[rng.gen_range(0..CHARS.len())] as char)
        .collect()
}

fn now_secs() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs() as i64)
        .unwrap_or(0)
}

/// The most events one commit of the [`GroupWriter`] takes.
const MAX_BATCH: usize = 1024;

type Pending = (Append, oneshot::Sender<Result<(), StoreError>>);

/// Group commit: one thread writes the events of every game, taking all that are waiting
/// as one batch ([`Store::append_batch`]: one transaction, one sync) and answering each
/// writer once the batch is durable. Under load many moves share a sync; alone, a move is
/// written at once.
struct GroupWriter {
    tx: mpsc::UnboundedSender<Pending>,
}

impl GroupWriter {
    fn start(store: Arc<dyn Store>) -> GroupWriter {
        let (tx, mut rx) = mpsc::unbounded_channel::<Pending>();
        std::thread::Builder::new()
            .name("libro-writer".into())
            .spawn(move || {
                // Ends when the hub (the last sender) is gone.
                while let Some(first) = rx.blocking_recv() {
                    let mut batch = vec![first];
                    while batch.len() < MAX_BATCH {
                        match rx.try_recv() {
                            Ok(p) => batch.push(p),
                            Err(_) => break,
                        }
                    }
                    let (appends, replies): (Vec<Append>, Vec<_>) = batch.into_iter().unzip();
                    let results = store.append_batch(&appends);
                    for (reply, result) in replies.into_iter().zip(results) {
                        // The asker may have gone (a closed connection): nothing to tell.
                        let _ = reply.send(result);
                    }
                }
            })
            .expect("the writer thread starts");
        GroupWriter { tx }
    }

    /// Appends one event; returns once it is durable.
    async fn append(&self, a: Append) -> Result<(), StoreError> {
        let (reply, answer) = oneshot::channel();
        let gone = || StoreError::Batch("the writer thread has stopped".into());
        self.tx.send((a, reply)).map_err(|_| gone())?;
        answer.await.map_err(|_| gone())?
    }
}

/// Every game of the server, and its Lab.
pub struct Hub {
    store: Arc<dyn Store>,
    /// The group-commit writer of events ([`GroupWriter`]).
    writer: GroupWriter,
    games: RwLock<HashMap<String, Arc<Mutex<LiveGame>>>>,
    /// Stored games that cannot be resumed, with the reason.
    damaged: RwLock<HashMap<String, String>>,
    /// Games that left memory when idle, by their lobby summary; loaded again when asked for.
    unloaded: RwLock<HashMap<String, Value>>,
    limits: Limits,
    /// One permit per AI search allowed at once.
    ai_pool: Arc<Semaphore>,
    /// AI searches running now, and the most that ever ran at once.
    ai_running: Arc<AtomicUsize>,
    ai_peak: Arc<AtomicUsize>,
    /// The Lab's studies, stored in the same database.
    pub lab: Arc<Lab>,
}

/// A newly created game's links.
#[derive(serde::Serialize)]
pub struct Created {
    pub id: String,
    pub spectator: String,
    /// One per seat: its name, its player and, for humans, its secret link.
    pub seats: Vec<Value>,
}

async fn blocking<T: Send + 'static>(
    f: impl FnOnce() -> T + Send + 'static,
) -> Result<T, HubError> {
    tokio::task::spawn_blocking(f)
        .await
        .map_err(|e| HubError::Internal(e.to_string()))
}

/// Runs a short blocking call (a database write): in place on a multi-threaded runtime,
/// which hands this worker's other tasks to another thread instead of moving the call to the
/// blocking pool and back; on the blocking pool otherwise.
async fn store_call<T: Send + 'static>(
    f: impl FnOnce() -> T + Send + 'static,
) -> Result<T, HubError> {
    if tokio::runtime::Handle::current().runtime_flavor()
        == tokio::runtime::RuntimeFlavor::MultiThread
    {
        Ok(tokio::task::block_in_place(f))
    } else {
        blocking(f).await
    }
}

impl Hub {
    /// Loads every stored game, replaying its events, and restarts the AI where it is to move.
    pub async fn open(store: Arc<dyn Store>) -> Result<Arc<Hub>, HubError> {
        Self::open_with(store, Lab::default_threads()).await
    }

    /// [`Hub::open`], with Lab runs played on `lab_threads` threads.
    pub async fn open_with(
        store: Arc<dyn Store>,
        lab_threads: usize,
    ) -> Result<Arc<Hub>, HubError> {
        Self::open_limited(store, lab_threads, Limits::default()).await
    }

    /// The operator's limits this hub runs under.
    pub fn limits(&self) -> &Limits {
        &self.limits
    }

    /// [`Hub::open_with`], under the operator's `limits`.
    pub async fn open_limited(
        store: Arc<dyn Store>,
        lab_threads: usize,
        limits: Limits,
    ) -> Result<Arc<Hub>, HubError> {
        let st = store.clone();
        let stored = store_call(move || st.load_all()).await??;
        let st = store.clone();
        let lab = store_call(move || Lab::open(st, lab_threads)).await??;
        let hub = Arc::new(Hub {
            writer: GroupWriter::start(store.clone()),
            store,
            games: RwLock::new(HashMap::new()),
            damaged: RwLock::new(HashMap::new()),
            unloaded: RwLock::new(HashMap::new()),
            ai_pool: Arc::new(Semaphore::new(limits.ai_threads.max(1))),
            ai_running: Arc::new(AtomicUsize::new(0)),
            ai_peak: Arc::new(AtomicUsize::new(0)),
            limits,
            lab: Arc::new(lab),
        });
        let mut resume = Vec::new();
        for loaded in stored {
            // A game that no longer replays is left in the database as it is, reported, and
            // held as damaged; the others still start.
            match hub.replay_stored(loaded) {
                Ok(live) => {
                    resume.push(live.id.clone());
                    hub.games
                        .write()
                        .await
                        .insert(live.id.clone(), Arc::new(Mutex::new(live)));
                }
                Err((id, reason)) => {
                    eprintln!("libro serve: game {id} is damaged, not resuming it: {reason}");
                    hub.damaged.write().await.insert(id, reason);
                }
            }
        }
        for id in resume {
            hub.clone().kick(&id).await;
        }
        let weak = Arc::downgrade(&hub);
        let every = hub.limits.sweep_every();
        tokio::spawn(async move {
            loop {
                tokio::time::sleep(every).await;
                // Ends with the hub.
                let Some(hub) = weak.upgrade() else { return };
                hub.sweep().await;
            }
        });
        Ok(hub)
    }

    /// Unloads games idle for [`Limits::idle_unload`] and deletes games never started
    /// older than [`Limits::unstarted_expiry`]; a game someone holds (a socket, a request,
    /// an AI search) or watches is left alone.
    async fn sweep(&self) {
        let mut expired = Vec::new();
        {
            let mut games = self.games.write().await;
            let mut unloaded = self.unloaded.write().await;
            let now = now_secs();
            let mut gone = Vec::new();
            for (id, cell) in games.iter() {
                // Only the map holds it, and it is not locked: no one is using it.
                if Arc::strong_count(cell) > 1 {
                    continue;
                }
                let Ok(g) = cell.try_lock() else { continue };
                if g.tx.receiver_count() > 0 || !g.waits_for_a_human() {
                    continue;
                }
                let age = u64::try_from(now.saturating_sub(g.created)).unwrap_or(0);
                if g.events.is_empty() {
                    if age >= self.limits.unstarted_expiry.as_secs() {
                        expired.push(id.clone());
                        gone.push(id.clone());
                    }
                } else if g.last_active.elapsed() >= self.limits.idle_unload {
                    unloaded.insert(id.clone(), g.summary());
                    gone.push(id.clone());
                }
            }
            for id in gone {
                games.remove(&id);
            }
        }
        for id in expired {
            let store = self.store.clone();
            let gid = id.clone();
            match store_call(move || store.delete_game(&gid)).await {
                Ok(Ok(())) => {}
                Ok(Err(e)) => eprintln!("libro serve: deleting expired game {id}: {e}"),
                Err(e) => eprintln!("libro serve: deleting expired game {id}: {e}"),
            }
        }
    }

    /// Loads an unloaded game again from the store.
    async fn reload(&self, id: &str) -> Result<Arc<Mutex<LiveGame>>, HubError> {
        let (store, gid) = (self.store.clone(), id.to_string());
        let loaded = store_call(move || store.load_game(&gid)).await??;
        let Some(loaded) = loaded else {
            self.unloaded.write().await.remove(id);
            return Err(HubError::NoGame(id.chars().take(40).collect()));
        };
        let mut games = self.games.write().await;
        if let Some(g) = games.get(id) {
            // Another request loaded it first.
            return Ok(g.clone());
        }
        match self.replay_stored(loaded) {
            Ok(live) => {
                let cell = Arc::new(Mutex::new(live));
                games.insert(id.to_string(), cell.clone());
                self.unloaded.write().await.remove(id);
                Ok(cell)
            }
            Err((_, reason)) => {
                eprintln!("libro serve: game {id} is damaged, not resuming it: {reason}");
                self.unloaded.write().await.remove(id);
                self.damaged
                    .write()
                    .await
                    .insert(id.to_string(), reason.clone());
                Err(HubError::Damaged {
                    id: id.to_string(),
                    reason,
                })
            }
        }
    }

    /// A stored game made live, or its id and why it cannot be.
    fn replay_stored(&self, loaded: Loaded) -> Result<LiveGame, (String, String)> {
        let g = match loaded {
            Ok(g) => g,
            Err(StoreError::Corrupt { game, reason }) => return Err((game, reason)),
            Err(e) => return Err((String::new(), e.to_string())),
        };
        let damaged = |reason: String| (g.id.clone(), reason);
        self.limits
            .check_players(&g.setup.players)
            .map_err(|e| damaged(e.to_string()))?;
        let (rules, game) = record::start(&g.setup).map_err(|e| damaged(e.to_string()))?;
        if g.tokens.len() != g.setup.players.len() {
            return Err(damaged(format!(
                "{} seat tokens for {} players",
                g.tokens.len(),
                g.setup.players.len()
            )));
        }
        let (live, _) = LiveGame::build(
            g.id.clone(),
            g.setup,
            rules,
            g.tokens,
            g.created,
            game,
            &g.events,
        )
        .map_err(|(index, e)| damaged(format!("event {index}: {e}")))?;
        Ok(live)
    }

    /// The game with this id.
    pub async fn get(&self, id: &str) -> Result<Arc<Mutex<LiveGame>>, HubError> {
        if let Some(g) = self.games.read().await.get(id) {
            return Ok(g.clone());
        }
        if self.unloaded.read().await.contains_key(id) {
            return self.reload(id).await;
        }
        if let Some(reason) = self.damaged.read().await.get(id) {
            return Err(HubError::Damaged {
                id: id.to_string(),
                reason: reason.clone(),
            });
        }
        Err(HubError::NoGame(id.chars().take(40).collect()))
    }

    /// Page `page` (from 0) of the summaries of the games held, newest first, at most
    /// [`LOBBY_PAGE`] to a page; a page past the last is empty.
    pub async fn list_page(&self, page: usize) -> Vec<Value> {
        let mut all = self.list().await;
        let from = page.saturating_mul(LOBBY_PAGE).min(all.len());
        let to = (from + LOBBY_PAGE).min(all.len());
        all.truncate(to);
        all.split_off(from)
    }

    /// Summaries of every game (held or unloaded), newest first.
    pub async fn list(&self) -> Vec<Value> {
        let games: Vec<_> = self.games.read().await.values().cloned().collect();
        let mut out: Vec<Value> = self.unloaded.read().await.values().cloned().collect();
        for g in games {
            out.push(g.lock().await.summary());
        }
        out.sort_by(|a, b| {
            b["created"]
                .as_i64()
                .cmp(&a["created"].as_i64())
                .then(a["id"].as_str().cmp(&b["id"].as_str()))
        });
        out
    }

    /// How many games are held in memory.
    pub async fn len(&self) -> usize {
        self.games.read().await.len()
    }

    /// Whether the game `id` is held in memory (not unloaded, expired or unknown).
    pub async fn is_loaded(&self, id: &str) -> bool {
        self.games.read().await.contains_key(id)
    }

    /// Whether no game is held.
    pub async fn is_empty(&self) -> bool {
        self.len().await == 0
    }

    /// Creates a game from a setup (checked), stores it, and starts it.
    pub async fn create(self: &Arc<Self>, setup: Setup) -> Result<Created, HubError> {
        self.create_with_events(setup, Vec::new()).await
    }

    /// [`Hub::create`] with the seats marked in `open` (human seats) left for others to
    /// take ([`Hub::join`]): an open challenge, listed in the lobby.
    pub async fn create_open(
        self: &Arc<Self>,
        setup: Setup,
        open: Vec<bool>,
    ) -> Result<Created, HubError> {
        self.create_seated(setup, Vec::new(), &open).await
    }

    /// Takes an open seat of a game: answers the seat's secret token, once; the game starts
    /// when no seat is open.
    pub async fn join(self: &Arc<Self>, id: &str, seat: usize) -> Result<String, HubError> {
        let cell = self.get(id).await?;
        {
            let mut g = cell.lock().await;
            let names = g.rules.seat_names();
            let name = names.get(seat).ok_or_else(|| {
                HubError::Illegal(format!(
                    "there is no seat {seat}: the seats are 0 to {}",
                    names.len() - 1
                ))
            })?;
            if !g.open_seats().contains(&seat) {
                return Err(HubError::Taken(name.clone()));
            }
            let token = random_id(22);
            let mut tokens = g.tokens.clone();
            tokens[seat] = Some(token_hash(&token));
            let (store, gid, stored) = (self.store.clone(), g.id.clone(), tokens.clone());
            store_call(move || store.set_tokens(&gid, &stored)).await??;
            g.tokens = tokens;
            g.refresh_now();
            let from = g.history.len();
            g.announce(from);
            drop(g);
            self.clone().kick(id).await;
            Ok(token)
        }
    }

    /// Imports a record: replays it (so a bad record is refused whole) and stores it as a
    /// new game with new links.
    pub async fn import(self: &Arc<Self>, rec: Record) -> Result<Created, HubError> {
        record::replay(&rec)?;
        // The record's times are not this game's: its clocks start afresh.
        let events = rec.events.into_iter().map(record::untimed).collect();
        self.create_with_events(rec.setup, events).await
    }

    /// Imports a game read from a text record ([`crate::pgn`]): its events are checked again
    /// as it is stored, under new links.
    pub async fn import_events(
        self: &Arc<Self>,
        setup: Setup,
        events: Vec<Event>,
    ) -> Result<Created, HubError> {
        self.create_with_events(setup, events).await
    }

    async fn create_with_events(
        self: &Arc<Self>,
        setup: Setup,
        events: Vec<Event>,
    ) -> Result<Created, HubError> {
        self.create_seated(setup, events, &[]).await
    }

    /// Creates the game with a secret link for each human seat not marked in `open`.
    async fn create_seated(
        self: &Arc<Self>,
        setup: Setup,
        events: Vec<Event>,
        open: &[bool],
    ) -> Result<Created, HubError> {
        let tokens: Vec<Option<String>> = setup
            .players
            .iter()
            .enumerate()
            .map(|(i, p)| {
                (p == "human" && !open.get(i).copied().unwrap_or(false)).then(|| random_id(22))
            })
            .collect();
        let hashes: Vec<Option<String>> = tokens
            .iter()
            .map(|t| t.as_deref().map(token_hash))
            .collect();
        let (id, names) = self.create_stored(setup.clone(), hashes, events).await?;
        let seats = names
            .iter()
            .zip(&setup.players)
            .zip(&tokens)
            .map(|((name, player), token)| {
                json!({
                    "name": name,
                    "player": player,
                    "link": token.as_ref().map(|t| format!("/g/{id}#t={t}")),
                    "open": player == "human" && token.is_none(),
                })
            })
            .collect();
        Ok(Created {
            spectator: format!("/g/{id}"),
            id,
            seats,
        })
    }

    /// Checks a setup and its events, stores the game with these seat token hashes, and
    /// starts it; answers its id and seat names.
    async fn create_stored(
        self: &Arc<Self>,
        setup: Setup,
        hashes: Vec<Option<String>>,
        events: Vec<Event>,
    ) -> Result<(String, Vec<String>), HubError> {
        self.limits.check_players(&setup.players)?;
        let (rules, game) = record::start(&setup)?;
        let names = rules.seat_names();
        let id = random_id(10);
        let created = now_secs();
        let (live, canonical) = LiveGame::build(
            id.clone(),
            setup.clone(),
            rules,
            hashes.clone(),
            created,
            game,
            &events,
        )
        .map_err(|(index, e)| RecordError::Event {
            index,
            reason: e.to_string(),
        })?;
        {
            let (store, id) = (self.store.clone(), id.clone());
            store_call(move || -> Result<(), StoreError> {
                store.create_game(&id, &setup, &hashes, created)?;
                for (i, ev) in canonical.iter().enumerate() {
                    store.append_event(&id, i as u32, ev)?;
                }
                Ok(())
            })
            .await??;
        }
        self.games
            .write()
            .await
            .insert(id.clone(), Arc::new(Mutex::new(live)));
        self.clone().kick(&id).await;
        Ok((id, names))
    }

    /// Plays a move for the seat whose secret token is given.
    pub async fn play(self: &Arc<Self>, id: &str, token: &str, text: &str) -> Result<(), HubError> {
        if text.len() > MAX_MOVE_TEXT {
            return Err(HubError::Illegal(format!(
                "a move is at most {MAX_MOVE_TEXT} characters"
            )));
        }
        let cell = self.get(id).await?;
        let flagged = {
            let mut g = cell.lock().await;
            let seat = g.seat_of(token).ok_or(HubError::NotASeat)?;
            if let Some(&open) = g.open_seats().first() {
                let name = g.rules.seat_names()[open].clone();
                return Err(HubError::Illegal(format!(
                    "the game starts when every seat is taken: {name} is still open"
                )));
            }
            match self.flag_if_due(&mut g).await? {
                Some(flagged) => {
                    let name = g.rules.seat_names()[flagged.index()].clone();
                    Some(if g.played.turn() == Turn::Over {
                        format!("time is up: {name} ran out of time and lost")
                    } else {
                        format!("time is up: {name} ran out of time and is out")
                    })
                }
                None => {
                    let ev = Event::Move {
                        seat: seat.0,
                        text: text.to_string(),
                        at: g.stamp(),
                    };
                    self.apply_stored(&mut g, ev).await?;
                    None
                }
            }
        };
        // The move (or a flag) is stored and applied: what follows (dice, the AI, the next
        // seat's clock) is the server's work, retried on its own if storage fails, and not
        // this player's error.
        self.clone().kick(id).await;
        match flagged {
            Some(e) => Err(HubError::Illegal(e)),
            None => Ok(()),
        }
    }

    /// The game and the seat a token holds in it, locked; refused for a spectator's link.
    async fn seat_in(
        &self,
        id: &str,
        token: &str,
    ) -> Result<(tokio::sync::OwnedMutexGuard<LiveGame>, Seat), HubError> {
        let cell = self.get(id).await?;
        let g = cell.lock_owned().await;
        let seat = g.seat_of(token).ok_or(HubError::NotASeat)?;
        Ok((g, seat))
    }

    /// A seat says something to the others: 1 to [`crate::limits::MAX_CHAT_CHARS`]
    /// characters (control characters become spaces), sent to everyone watching and kept in
    /// memory only.
    pub async fn chat(self: &Arc<Self>, id: &str, token: &str, text: &str) -> Result<(), HubError> {
        use crate::limits::{CHAT_KEPT, MAX_CHAT_CHARS};
        let (mut g, seat) = self.seat_in(id, token).await?;
        let blanked: String = text
            .chars()
            .map(|c| if c.is_control() { ' ' } else { c })
            .collect();
        let text = blanked.trim().to_string();
        let n = text.chars().count();
        if n == 0 || n > MAX_CHAT_CHARS {
            return Err(HubError::Illegal(format!(
                "a chat message is 1 to {MAX_CHAT_CHARS} characters, not {n}"
            )));
        }
        let msg = json!({"type": "chat", "seat": seat.0, "text": text}).to_string();
        if g.chat.len() >= CHAT_KEPT {
            g.chat.pop_front();
        }
        g.chat.push_back((seat.0, text));
        let _ = g.tx.send(Utf8Bytes::from(msg));
        Ok(())
    }

    /// A seat resigns: it loses, and the seats still playing share the game.
    pub async fn resign(self: &Arc<Self>, id: &str, token: &str) -> Result<(), HubError> {
        let (mut g, seat) = self.seat_in(id, token).await?;
        self.apply_stored(&mut g, Event::Resign { seat: seat.0 })
            .await
    }

    /// A seat offers a draw, or accepts the others' offer: once every seat still playing
    /// has offered, the game is drawn by agreement. An AI seat never agrees; any move
    /// withdraws the offers.
    pub async fn offer_draw(self: &Arc<Self>, id: &str, token: &str) -> Result<(), HubError> {
        let (mut g, seat) = self.seat_in(id, token).await?;
        if g.is_over() {
            return Err(HubError::Illegal("the game is over".into()));
        }
        g.draw_offers[seat.index()] = true;
        let agreed = g.played.in_play().iter().all(|s| g.draw_offers[s.index()]);
        if agreed {
            return self.apply_stored(&mut g, Event::Agreement).await;
        }
        g.refresh_now();
        let from = g.history.len();
        g.announce(from);
        Ok(())
    }

    /// A seat asks to take its last move back, or grants another seat's asking. Against
    /// AI seats only, the asking is granted at once. Dice rolled since the move forbid it.
    pub async fn takeback(self: &Arc<Self>, id: &str, token: &str) -> Result<(), HubError> {
        let (mut g, seat) = self.seat_in(id, token).await?;
        if g.is_over() {
            return Err(HubError::Illegal("the game is over".into()));
        }
        let illegal = |e: libro_registry::PlayError| HubError::Illegal(e.to_string());
        match g.takeback_ask {
            Some(asker) if asker != seat => {
                let plies = g.played.takeback_plies(asker).map_err(illegal)?;
                let at = g.stamp();
                self.apply_stored(&mut g, Event::Takeback { plies, at })
                    .await?;
                drop(g);
                self.clone().kick(id).await;
                Ok(())
            }
            Some(_) => Ok(()),
            None => {
                let plies = g.played.takeback_plies(seat).map_err(illegal)?;
                let in_play = g.played.in_play();
                let human_opponent = in_play
                    .iter()
                    .any(|s| *s != seat && g.setup.players[s.index()] == "human");
                if human_opponent {
                    g.takeback_ask = Some(seat);
                    g.refresh_now();
                    let from = g.history.len();
                    g.announce(from);
                    Ok(())
                } else {
                    let at = g.stamp();
                    self.apply_stored(&mut g, Event::Takeback { plies, at })
                        .await?;
                    drop(g);
                    self.clone().kick(id).await;
                    Ok(())
                }
            }
        }
    }

    /// A new game of the same rules after this one ended, each player one seat on (two
    /// seats: colours swapped), with a new seed; each player's link keeps its token, so
    /// `/g/NEW#t=TOKEN` is its seat in the new game. A second asking answers the same game.
    pub async fn rematch(self: &Arc<Self>, id: &str, token: &str) -> Result<String, HubError> {
        let (mut g, _) = self.seat_in(id, token).await?;
        if !g.is_over() {
            return Err(HubError::Illegal(
                "a rematch follows a finished game".into(),
            ));
        }
        if let Some(new) = &g.rematch {
            return Ok(new.clone());
        }
        let n = g.setup.players.len();
        let on = |i: usize| (i + n - 1) % n;
        let mut setup = g.setup.clone();
        setup.players = (0..n).map(|i| g.setup.players[on(i)].clone()).collect();
        setup.stakes = g
            .setup
            .stakes
            .as_ref()
            .map(|st| (0..n).map(|i| st[on(i)]).collect());
        setup.seed = rand::random();
        let hashes = (0..n).map(|i| g.tokens[on(i)].clone()).collect();
        let (new, _) = self.create_stored(setup, hashes, Vec::new()).await?;
        g.rematch = Some(new.clone());
        g.refresh_now();
        let from = g.history.len();
        g.announce(from);
        Ok(new)
    }

    /// Flags the seat to move if its deadline has passed (it loses, or with more than two
    /// seats leaves the game): stores the flag and answers the seat; `None` if its time is
    /// not up (or no clock runs).
    async fn flag_if_due(&self, g: &mut LiveGame) -> Result<Option<Seat>, HubError> {
        match g.deadline() {
            Some((seat, deadline)) if clock::now_ms() >= deadline => {
                self.apply_stored(g, Event::Flag { seat: seat.0 }).await?;
                Ok(Some(seat))
            }
            _ => Ok(None),
        }
    }

    /// Sets the game's flag timer for the seat to move's deadline (replacing the last one),
    /// so that a flag falls even if nobody moves; none while no clock runs.
    fn arm_clock(self: &Arc<Self>, g: &mut LiveGame) {
        if let Some(old) = g.flag_timer.take() {
            old.abort();
        }
        let Some((_, deadline)) = g.deadline() else {
            return;
        };
        let (hub, id) = (Arc::downgrade(self), g.id.clone());
        let wait = u64::try_from(deadline - clock::now_ms()).unwrap_or(0);
        let task = tokio::spawn(async move {
            // A little after the deadline, so that the flag is due when looked at.
            tokio::time::sleep(std::time::Duration::from_millis(wait + 5)).await;
            // Its own task: the kick re-arms the timer, which aborts this one.
            if let Some(hub) = hub.upgrade() {
                tokio::spawn(hub.kick(&id));
            }
        });
        g.flag_timer = Some(task.abort_handle());
    }

    /// [`Hub::advance`], logging a failure; one of storage is tried again after
    /// [`AI_RETRY`], so that a game with no human to move is never left stuck.
    fn kick(self: Arc<Self>, id: &str) -> impl std::future::Future<Output = ()> + Send + 'static {
        let id = id.to_string();
        async move {
            if let Err(e) = self.clone().advance(&id).await {
                eprintln!("libro serve: game {id}: {e}");
                if matches!(e, HubError::Store(_)) {
                    self.retry_later(id);
                }
            }
        }
    }

    /// Moves the game on again after [`AI_RETRY`].
    fn retry_later(self: Arc<Self>, id: String) {
        tokio::spawn(async move {
            tokio::time::sleep(AI_RETRY).await;
            // Boxed: `kick` and `retry_later` call each other.
            let again: std::pin::Pin<Box<dyn std::future::Future<Output = ()> + Send>> =
                Box::pin(self.kick(&id));
            again.await;
        });
    }

    /// Applies an event (checked: on error nothing changes), stores it, and announces it;
    /// if it cannot be stored, the game is put back as it was.
    async fn apply_stored(&self, g: &mut LiveGame, ev: Event) -> Result<(), HubError> {
        // What storing may have to undo: a takeback rebuilds the game, anything else adds
        // one event in force to a position.
        let undo = match ev {
            Event::Takeback { .. } => Undo::Whole(g.played.clone()),
            _ => Undo::Last(g.played.game.clone(), g.played.ended.clone()),
        };
        let san = g.played.describe_next(&ev);
        let before = g.played.turn();
        let ev = g
            .played
            .apply(&ev)
            .map_err(|e| HubError::Illegal(e.to_string()))?;
        let (id, index, stored) = (g.id.clone(), g.events.len() as u32, ev.clone());
        let over = g.played.turn() == Turn::Over;
        let appended = self
            .writer
            .append(Append {
                game: id,
                index,
                event: stored,
                status: over.then_some("over"),
            })
            .await;
        if let Err(e) = appended {
            match undo {
                Undo::Whole(before) => g.played = before,
                Undo::Last(game, ended) => {
                    g.played.game = game;
                    g.played.ended = ended;
                    g.played.effective.pop();
                }
            }
            return Err(e.into());
        }
        let from = g.history.len().min(g.played.effective.len());
        g.tick(before, &ev);
        g.commit(ev, san);
        g.announce(from.min(g.history.len()));
        Ok(())
    }

    /// Moves the game on as far as it goes without a human: rolls pending dice and starts
    /// the AI if an AI seat is to move.
    fn advance(
        self: Arc<Self>,
        id: &str,
    ) -> impl std::future::Future<Output = Result<(), HubError>> + Send + 'static {
        let id = id.to_string();
        async move {
            let cell = self.get(&id).await?;
            let mut g = cell.lock().await;
            if !g.open_seats().is_empty() {
                // An open challenge: nothing happens until every seat is taken.
                return Ok(());
            }
            // Flags due (several, after a restart with more than two seats); the game may
            // go on without them.
            while self.flag_if_due(&mut g).await?.is_some() {}
            loop {
                match g.played.turn() {
                    Turn::Over => return Ok(()),
                    Turn::Chance => {
                        let mut probe = g.game().clone_box();
                        let roll = probe
                            .roll()
                            .map_err(|e| HubError::Internal(e.to_string()))?;
                        self.apply_stored(&mut g, Event::Roll { roll }).await?;
                    }
                    Turn::Seat(s) => {
                        self.arm_clock(&mut g);
                        let player = g.setup.players[s.index()].clone();
                        if player == "human" || g.thinking {
                            return Ok(());
                        }
                        g.thinking = true;
                        g.refresh_now();
                        let from = g.history.len();
                        g.announce(from);
                        let all_ai = g.setup.players.iter().all(|p| p != "human");
                        let snapshot = g.game().clone_box();
                        // The version the search answers: any event since makes it stale.
                        let version = g.events.len();
                        let ply = g.game().ply();
                        let seed =
                            g.setup.seed ^ u64::from(ply).wrapping_mul(0x9E37_79B9_7F4A_7C15);
                        let clock = g.deadline().map(|(_, deadline)| libro_ai::Clock {
                            remaining: std::time::Duration::from_millis(
                                (deadline - clock::now_ms()).max(0) as u64,
                            ),
                            increment: std::time::Duration::from_secs(u64::from(
                                g.setup.clock.map_or(0, |c| c.increment_s),
                            )),
                            moves_to_go: None,
                        });
                        drop(g);
                        let hub = self.clone();
                        tokio::spawn(async move {
                            if all_ai {
                                // A game among AIs only is paced so that people can watch it.
                                tokio::time::sleep(AI_ONLY_PACE).await;
                            }
                            let chosen = hub.search(snapshot, player, seed, clock).await;
                            hub.finish_ai(&id, s, version, chosen).await;
                        });
                        return Ok(());
                    }
                }
            }
        }
    }

    /// One AI search: waits for a permit of the pool, then runs on the blocking pool and is
    /// stopped at the operator's longest move time whatever its own budget.
    async fn search(
        &self,
        snapshot: Box<dyn DynGame>,
        player: String,
        seed: u64,
        clock: Option<libro_ai::Clock>,
    ) -> Result<Result<String, String>, HubError> {
        let stop = Arc::new(AtomicBool::new(false));
        // On a clock the search budgets its own time from the seat's time left.
        let control = libro_ai::Control {
            clock,
            ..libro_ai::Control::with_stop(stop.clone())
        };
        self.on_ai_pool(stop, move || {
            crate::ai::choose(snapshot.as_ref(), &player, seed, &control)
        })
        .await
    }

    /// Runs an AI job (a search, an analysis) once a permit of the pool is free, on the
    /// blocking pool; `stop` is set at the operator's longest move time, so no job holds a
    /// permit longer. A job stopped while it waited for its permit still runs, and should
    /// look at `stop` first.
    pub(crate) async fn on_ai_pool<T: Send + 'static>(
        &self,
        stop: Arc<AtomicBool>,
        job: impl FnOnce() -> T + Send + 'static,
    ) -> Result<T, HubError> {
        let _permit = self
            .ai_pool
            .clone()
            .acquire_owned()
            .await
            .map_err(|e| HubError::Internal(e.to_string()))?;
        let deadline = self.limits.search_deadline();
        let timer = tokio::spawn(async move {
            tokio::time::sleep(deadline).await;
            stop.store(true, Ordering::Relaxed);
        });
        let (running, peak) = (self.ai_running.clone(), self.ai_peak.clone());
        let done = blocking(move || {
            let now = running.fetch_add(1, Ordering::SeqCst) + 1;
            peak.fetch_max(now, Ordering::SeqCst);
            let done = job();
            running.fetch_sub(1, Ordering::SeqCst);
            done
        })
        .await;
        timer.abort();
        done
    }

    /// The most AI searches that have run at once since the server started (at most
    /// [`Limits::ai_threads`]).
    pub fn ai_peak(&self) -> usize {
        self.ai_peak.load(Ordering::SeqCst)
    }

    async fn finish_ai(
        self: Arc<Self>,
        id: &str,
        seat: Seat,
        version: usize,
        chosen: Result<Result<String, String>, HubError>,
    ) {
        let Ok(cell) = self.get(id).await else { return };
        {
            let mut g = cell.lock().await;
            g.thinking = false;
            let late = match self.flag_if_due(&mut g).await {
                Ok(flagged) => flagged.is_some(),
                Err(e) => {
                    eprintln!("libro serve: game {id}: {e}");
                    false
                }
            };
            let at = g.stamp();
            let result = match chosen {
                _ if late => Err((false, "the AI ran out of time".to_string())),
                Ok(Ok(text)) if g.events.len() == version => self
                    .apply_stored(
                        &mut g,
                        Event::Move {
                            seat: seat.0,
                            text,
                            at,
                        },
                    )
                    .await
                    .map_err(|e| (matches!(e, HubError::Store(_)), e.to_string())),
                Ok(Ok(_)) => Err((
                    false,
                    "the game moved on while the AI was thinking".to_string(),
                )),
                Ok(Err(e)) => Err((false, e)),
                Err(e) => Err((false, e.to_string())),
            };
            if let Err((storage, e)) = result {
                eprintln!("libro serve: AI move in game {id} failed: {e}");
                g.refresh_now();
                let from = g.history.len();
                g.announce(from);
                if storage {
                    // The move was not stored: the AI searches again once storage answers.
                    drop(g);
                    self.retry_later(id.to_string());
                    return;
                }
                if !late {
                    return;
                }
                // Out of time: with more than two seats the game goes on without it.
            }
        }
        self.kick(id).await;
    }
}
