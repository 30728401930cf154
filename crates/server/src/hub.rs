//! The games being played: each in memory behind its own lock, with a broadcast channel to
//! everyone watching it. Every event is stored before it is applied and announced; AI moves
//! are computed on the blocking pool so that no game waits for another's search.

use crate::lab::Lab;
use crate::record::{self, Event, Record, RecordError, Setup};
use crate::store::{Store, StoreError};
use crate::view;
use libro_catalog::{AnyRuleset, DynGame};
use libro_core::{Seat, Turn};
use rand::Rng;
use serde_json::{json, Value};
use std::collections::HashMap;
use std::sync::Arc;
use std::time::{SystemTime, UNIX_EPOCH};
use tokio::sync::{broadcast, Mutex, RwLock};

/// What went wrong with a request about a game.
#[derive(Debug, thiserror::Error)]
pub enum HubError {
    #[error("no game `{0}`")]
    NoGame(String),
    #[error("this link does not hold a seat of this game (spectators cannot move)")]
    NotASeat,
    #[error("{0}")]
    Illegal(String),
    #[error(transparent)]
    Record(#[from] RecordError),
    #[error("storage failed, nothing was changed: {0}")]
    Store(#[from] StoreError),
    #[error("internal error: {0}")]
    Internal(String),
}

/// One game in play.
pub struct LiveGame {
    pub id: String,
    pub setup: Setup,
    pub rules: AnyRuleset,
    pub tokens: Vec<Option<String>>,
    pub created: i64,
    pub game: Box<dyn DynGame>,
    pub events: Vec<Event>,
    /// The board view of the start position.
    pub start_view: String,
    /// One entry per event: what happened and the board after it, as JSON text (kept as
    /// text: thousands of games' boards as JSON values would take far more memory).
    pub history: Vec<String>,
    /// The status (turn, legal moves, result) now, recomputed after every event.
    pub now: Value,
    pub tx: broadcast::Sender<Arc<str>>,
    /// An AI search for this game is running.
    pub thinking: bool,
}

impl LiveGame {
    /// The seat a secret token holds, if any.
    pub fn seat_of(&self, token: &str) -> Option<Seat> {
        if token.is_empty() {
            return None;
        }
        self.tokens
            .iter()
            .position(|t| t.as_deref() == Some(token))
            .map(|i| Seat(i as u8))
    }

    /// Whether the game is over.
    pub fn is_over(&self) -> bool {
        self.game.turn() == Turn::Over
    }

    /// The first message a new viewer gets: the game, its history and its status.
    pub fn full_message(&self, you: Option<Seat>) -> String {
        format!(
            r#"{{"type":"full","you":{},"game":{},"start":{},"history":[{}],"now":{}}}"#,
            json!(you.map(|s| s.0)),
            view::meta(self),
            self.start_view,
            self.history.join(","),
            self.now
        )
    }

    /// The record of the game for export.
    pub fn record(&self) -> Record {
        Record {
            format: record::FORMAT.to_string(),
            setup: self.setup.clone(),
            events: self.events.clone(),
            position: Some(self.game.position()),
            result: self
                .game
                .result()
                .map(|r| serde_json::to_value(r).unwrap_or(Value::Null)),
        }
    }

    /// A line for the list of games.
    pub fn summary(&self) -> Value {
        json!({
            "id": self.id,
            "ruleset": self.setup.ruleset,
            "title": view::title(&self.rules),
            "players": self.setup.players,
            "seats": self.rules.seat_names(),
            "ply": self.game.ply(),
            "over": self.is_over(),
            "result": view::result(self.game.as_ref(), &self.rules),
            "created": self.created,
        })
    }

    fn refresh_now(&mut self) {
        self.now = view::status(self.game.as_ref(), &self.rules, self.thinking);
    }

    /// Applies an event already stored, recording its history entry.
    fn commit(&mut self, next: Box<dyn DynGame>, event: Event) {
        let entry = view::entry(&event, next.as_ref(), &self.rules).to_string();
        self.game = next;
        self.events.push(event);
        self.history.push(entry);
        self.refresh_now();
    }

    fn announce(&self, from: usize) {
        let msg = format!(
            r#"{{"type":"update","from":{from},"entries":[{}],"now":{}}}"#,
            self.history[from..].join(","),
            self.now
        );
        // No receivers is fine: nobody is watching.
        let _ = self.tx.send(Arc::from(msg));
    }
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

/// Every game of the server, and its Lab.
pub struct Hub {
    store: Arc<dyn Store>,
    games: RwLock<HashMap<String, Arc<Mutex<LiveGame>>>>,
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
        let st = store.clone();
        let stored = store_call(move || st.load_all()).await??;
        let st = store.clone();
        let lab = store_call(move || Lab::open(st, lab_threads)).await??;
        let hub = Arc::new(Hub {
            store,
            games: RwLock::new(HashMap::new()),
            lab: Arc::new(lab),
        });
        let mut resume = Vec::new();
        for g in stored {
            // A game that no longer replays (a ruleset file changed under it) is left in the
            // database and reported, and the others still start.
            match Self::replay_stored(g) {
                Ok(live) => {
                    resume.push(live.id.clone());
                    hub.games
                        .write()
                        .await
                        .insert(live.id.clone(), Arc::new(Mutex::new(live)));
                }
                Err(e) => eprintln!("libro serve: not resuming a stored game: {e}"),
            }
        }
        for id in resume {
            hub.clone().advance(&id).await?;
        }
        Ok(hub)
    }

    fn replay_stored(g: crate::store::StoredGame) -> Result<LiveGame, HubError> {
        let (rules, mut game) = record::start(&g.setup)
            .map_err(|e| HubError::Internal(format!("game {}: {e}", g.id)))?;
        let start_view = view::board(game.as_ref(), &rules).to_string();
        let mut history = Vec::with_capacity(g.events.len());
        for (index, ev) in g.events.iter().enumerate() {
            record::apply(game.as_mut(), ev).map_err(|e| RecordError::Event {
                index,
                reason: format!("game {}: {e}", g.id),
            })?;
            history.push(view::entry(ev, game.as_ref(), &rules).to_string());
        }
        let (tx, _) = broadcast::channel(64);
        let mut live = LiveGame {
            id: g.id,
            setup: g.setup,
            rules,
            tokens: g.tokens,
            created: g.created,
            game,
            events: g.events,
            start_view,
            history,
            now: Value::Null,
            tx,
            thinking: false,
        };
        live.refresh_now();
        Ok(live)
    }

    /// The game with this id.
    pub async fn get(&self, id: &str) -> Result<Arc<Mutex<LiveGame>>, HubError> {
        self.games
            .read()
            .await
            .get(id)
            .cloned()
            .ok_or_else(|| HubError::NoGame(id.chars().take(40).collect()))
    }

    /// Summaries of every game, newest first.
    pub async fn list(&self) -> Vec<Value> {
        let games: Vec<_> = self.games.read().await.values().cloned().collect();
        let mut out = Vec::with_capacity(games.len());
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

    /// How many games are held.
    pub async fn len(&self) -> usize {
        self.games.read().await.len()
    }

    /// Whether no game is held.
    pub async fn is_empty(&self) -> bool {
        self.len().await == 0
    }

    /// Creates a game from a setup (checked), stores it, and starts it.
    pub async fn create(self: &Arc<Self>, setup: Setup) -> Result<Created, HubError> {
        self.create_with_events(setup, Vec::new()).await
    }

    /// Imports a record: replays it (so a bad record is refused whole) and stores it as a
    /// new game with new links.
    pub async fn import(self: &Arc<Self>, rec: Record) -> Result<Created, HubError> {
        record::replay(&rec)?;
        self.create_with_events(rec.setup, rec.events).await
    }

    async fn create_with_events(
        self: &Arc<Self>,
        setup: Setup,
        events: Vec<Event>,
    ) -> Result<Created, HubError> {
        let (rules, mut game) = record::start(&setup)?;
        let start_view = view::board(game.as_ref(), &rules).to_string();
        let mut history = Vec::with_capacity(events.len());
        let mut canonical = Vec::with_capacity(events.len());
        for (index, ev) in events.iter().enumerate() {
            let ev = record::apply(game.as_mut(), ev).map_err(|e| RecordError::Event {
                index,
                reason: e.to_string(),
            })?;
            history.push(view::entry(&ev, game.as_ref(), &rules).to_string());
            canonical.push(ev);
        }
        let id = random_id(10);
        let tokens: Vec<Option<String>> = setup
            .players
            .iter()
            .map(|p| (p == "human").then(|| random_id(22)))
            .collect();
        let created = now_secs();
        {
            let (store, id, setup, tokens, events) = (
                self.store.clone(),
                id.clone(),
                setup.clone(),
                tokens.clone(),
                canonical.clone(),
            );
            store_call(move || -> Result<(), StoreError> {
                store.create_game(&id, &setup, &tokens, created)?;
                for (i, ev) in events.iter().enumerate() {
                    store.append_event(&id, i as u32, ev)?;
                }
                Ok(())
            })
            .await??;
        }
        let names = rules.seat_names();
        let seats = names
            .iter()
            .zip(&setup.players)
            .zip(&tokens)
            .map(|((name, player), token)| {
                json!({
                    "name": name,
                    "player": player,
                    "link": token.as_ref().map(|t| format!("/g/{id}#t={t}")),
                })
            })
            .collect();
        let (tx, _) = broadcast::channel(64);
        let mut live = LiveGame {
            id: id.clone(),
            setup,
            rules,
            tokens,
            created,
            game,
            events: canonical,
            start_view,
            history,
            now: Value::Null,
            tx,
            thinking: false,
        };
        live.refresh_now();
        self.games
            .write()
            .await
            .insert(id.clone(), Arc::new(Mutex::new(live)));
        self.clone().advance(&id).await?;
        Ok(Created {
            spectator: format!("/g/{id}"),
            id,
            seats,
        })
    }

    /// Plays a move for the seat whose secret token is given.
    pub async fn play(self: &Arc<Self>, id: &str, token: &str, text: &str) -> Result<(), HubError> {
        if text.len() > 200 {
            return Err(HubError::Illegal("a move is at most 200 characters".into()));
        }
        let cell = self.get(id).await?;
        {
            let mut g = cell.lock().await;
            let seat = g.seat_of(token).ok_or(HubError::NotASeat)?;
            let ev = Event::Move {
                seat: seat.0,
                text: text.to_string(),
            };
            self.apply_stored(&mut g, ev).await?;
        }
        self.clone().advance(id).await
    }

    /// Checks an event on a copy, stores it, then applies and announces it.
    async fn apply_stored(&self, g: &mut LiveGame, ev: Event) -> Result<(), HubError> {
        let mut next = g.game.clone_box();
        let ev = record::apply(next.as_mut(), &ev).map_err(|e| HubError::Illegal(e.to_string()))?;
        let (store, id, index, stored) = (
            self.store.clone(),
            g.id.clone(),
            g.events.len() as u32,
            ev.clone(),
        );
        let over = next.turn() == Turn::Over;
        store_call(move || -> Result<(), StoreError> {
            store.append_event(&id, index, &stored)?;
            if over {
                store.set_status(&id, "over")?;
            }
            Ok(())
        })
        .await??;
        let from = g.history.len();
        g.commit(next, ev);
        g.announce(from);
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
            loop {
                match g.game.turn() {
                    Turn::Over => return Ok(()),
                    Turn::Chance => {
                        let mut probe = g.game.clone_box();
                        let roll = probe
                            .roll()
                            .map_err(|e| HubError::Internal(e.to_string()))?;
                        self.apply_stored(&mut g, Event::Roll { roll }).await?;
                    }
                    Turn::Seat(s) => {
                        let player = g.setup.players[s.index()].clone();
                        if player == "human" || g.thinking {
                            return Ok(());
                        }
                        g.thinking = true;
                        g.refresh_now();
                        let from = g.history.len();
                        g.announce(from);
                        let all_ai = g.setup.players.iter().all(|p| p != "human");
                        let snapshot = g.game.clone_box();
                        let ply = g.game.ply();
                        let seed =
                            g.setup.seed ^ u64::from(ply).wrapping_mul(0x9E37_79B9_7F4A_7C15);
                        drop(g);
                        let hub = self.clone();
                        tokio::spawn(async move {
                            if all_ai {
                                // A game among AIs only is paced so that people can watch it.
                                tokio::time::sleep(AI_ONLY_PACE).await;
                            }
                            let chosen = blocking(move || {
                                crate::ai::choose(snapshot.as_ref(), &player, seed)
                            })
                            .await;
                            hub.finish_ai(&id, s, ply, chosen).await;
                        });
                        return Ok(());
                    }
                }
            }
        }
    }

    async fn finish_ai(
        self: Arc<Self>,
        id: &str,
        seat: Seat,
        ply: u32,
        chosen: Result<Result<String, String>, HubError>,
    ) {
        let Ok(cell) = self.get(id).await else { return };
        {
            let mut g = cell.lock().await;
            g.thinking = false;
            let result = match chosen {
                Ok(Ok(text)) if g.game.ply() == ply => self
                    .apply_stored(&mut g, Event::Move { seat: seat.0, text })
                    .await
                    .map_err(|e| e.to_string()),
                Ok(Ok(_)) => Err("the game moved on while the AI was thinking".to_string()),
                Ok(Err(e)) => Err(e),
                Err(e) => Err(e.to_string()),
            };
            if let Err(e) = result {
                eprintln!("libro serve: AI move in game {id} failed: {e}");
                g.refresh_now();
                let from = g.history.len();
                g.announce(from);
                return;
            }
        }
        if let Err(e) = self.clone().advance(id).await {
            eprintln!("libro serve: game {id}: {e}");
        }
    }
}
