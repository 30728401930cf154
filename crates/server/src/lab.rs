//! The Lab: studies of a ruleset's readings by self-play ([`libro_lab`]), started from the
//! web page, played on their own threads and stored game by game in the database, so that
//! a run stopped (or cut short by a server restart) continues with the games it lacks.

use crate::store::{Store, StoreError, StoredRun};
use libro_lab::{GameRow, Report, RunPlan, Study};
use serde::Deserialize;
use serde_json::{json, Value};
use std::collections::{BTreeMap, HashMap};
use std::fmt;
use std::str::FromStr;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The most games per reading a run may ask for.
pub const MAX_GAMES: u32 = 100_000;
/// The most games a run may ask for over all its readings.
pub const MAX_TOTAL_GAMES: u64 = 200_000;
/// The most readings (combinations of varied values) of a run.
pub const MAX_READINGS: usize = 64;
/// The largest ply cap of a game.
pub const MAX_PLIES: u32 = 100_000;
/// The most random opening moves.
pub const MAX_OPENING_MOVES: u32 = 200;
/// Finished games are stored together once this many wait...
const FLUSH_ROWS: usize = 256;
/// ...or once the oldest has waited this long.
const FLUSH_EVERY: Duration = Duration::from_millis(200);

/// What went wrong with a request about a lab run.
#[derive(Debug, thiserror::Error)]
pub enum LabRunError {
    #[error("{0}")]
    BadRequest(String),
    #[error("no lab run {0}")]
    NoRun(String),
    #[error("the server plays one study at a time and run {0} is playing: stop it or wait for it to finish")]
    Busy(i64),
    #[error("run {0} is already playing")]
    AlreadyRunning(i64),
    #[error("run {0} is not playing")]
    NotRunning(i64),
    #[error("storage failed: {0}")]
    Store(#[from] StoreError),
    #[error("internal error: {0}")]
    Internal(String),
}

/// Where a run is.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum RunStatus {
    /// Playing now.
    Running,
    /// Stopped by a user or by a server restart before all its games were played.
    Stopped,
    /// Every game played.
    Done,
    /// Ended by an error (its message says which).
    Failed,
}

impl RunStatus {
    fn name(self) -> &'static str {
        match self {
            RunStatus::Running => "running",
            RunStatus::Stopped => "stopped",
            RunStatus::Done => "done",
            RunStatus::Failed => "failed",
        }
    }
}

impl fmt::Display for RunStatus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for RunStatus {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        Ok(match s {
            "running" => RunStatus::Running,
            "stopped" => RunStatus::Stopped,
            "done" => RunStatus::Done,
            "failed" => RunStatus::Failed,
            _ => return Err(format!("unknown status `{s}`")),
        })
    }
}

/// A new run as the Lab page asks for it.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RunRequest {
    pub ruleset: String,
    /// Options set for every reading.
    #[serde(default)]
    pub options: BTreeMap<String, String>,
    /// Options varied: every combination of their values is a reading.
    #[serde(default)]
    pub vary: Vec<VaryRequest>,
    /// One player for every seat, or one per seat: `random`, `greedy`, `ai:1`..`ai:8`.
    pub players: Vec<String>,
    pub games: u32,
    #[serde(default)]
    pub seed: Option<u64>,
    #[serde(default)]
    pub max_plies: Option<u32>,
    #[serde(default)]
    pub opening_moves: Option<u32>,
}

/// An option varied over its values.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct VaryRequest {
    pub option: String,
    pub values: Vec<String>,
}

/// What the server knows of a run it is playing (or played since it started).
struct Session {
    stop: Arc<AtomicBool>,
    /// Games of the run stored, counting those stored before this session.
    stored: AtomicU64,
    /// Games played by this session.
    played: AtomicU64,
    started: Instant,
    /// Set when the session ends: how long it played.
    elapsed: Mutex<Option<Duration>>,
}

impl Session {
    fn running(&self) -> bool {
        lock(&self.elapsed).is_none()
    }

    fn seconds(&self) -> f64 {
        lock(&self.elapsed)
            .unwrap_or_else(|| self.started.elapsed())
            .as_secs_f64()
    }
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// The Lab's runs: stored in the database, played one at a time on their own threads.
pub struct Lab {
    store: Arc<dyn Store>,
    threads: usize,
    sessions: Mutex<HashMap<i64, Arc<Session>>>,
}

fn now_secs() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs() as i64)
        .unwrap_or(0)
}

/// Whether a player is one the Lab page offers.
fn offered_player(p: &str) -> bool {
    matches!(p, "random" | "greedy")
        || p.strip_prefix("ai:")
            .is_some_and(|l| matches!(l, "1" | "2" | "3" | "4" | "5" | "6" | "7" | "8"))
}

/// Checks the sizes a study may have on the server.
fn check_size(study: &Study) -> Result<(), LabRunError> {
    let bad = |m: String| Err(LabRunError::BadRequest(m));
    if study.games == 0 {
        return bad("games: a run needs at least one game per reading".into());
    }
    if study.games > MAX_GAMES {
        return bad(format!(
            "games: {} per reading is more than the {MAX_GAMES} the server plays in one run",
            study.games
        ));
    }
    let readings: u64 = study
        .vary
        .iter()
        .map(|(_, v)| v.len() as u64)
        .try_fold(1u64, |a, n| a.checked_mul(n))
        .unwrap_or(u64::MAX);
    if readings > MAX_READINGS as u64 {
        return bad(format!(
            "vary: {readings} readings is more than the {MAX_READINGS} the server compares in one run"
        ));
    }
    let total = readings.saturating_mul(u64::from(study.games));
    if total > MAX_TOTAL_GAMES {
        return bad(format!(
            "{total} games ({readings} readings × {}) is more than the {MAX_TOTAL_GAMES} the server plays in one run",
            study.games
        ));
    }
    Ok(())
}

impl RunRequest {
    /// The study asked for, checked: a shipped ruleset, options it has with values it
    /// takes, players the page offers, sizes within the server's limits.
    pub fn study(self) -> Result<Study, LabRunError> {
        let bad = |m: String| LabRunError::BadRequest(m);
        let shipped: Vec<String> = libro_registry::shipped()
            .into_iter()
            .map(|h| h.name)
            .collect();
        if !shipped.contains(&self.ruleset) {
            return Err(bad(format!(
                "ruleset: no shipped ruleset is called `{}`; the Lab plays {}",
                self.ruleset.chars().take(60).collect::<String>(),
                shipped.join(", ")
            )));
        }
        if self.options.len() > 64 || self.players.len() > libro_core::MAX_SEATS {
            return Err(bad("too many options or players".into()));
        }
        if let Some(p) = self.players.iter().find(|p| !offered_player(p)) {
            return Err(bad(format!(
                "players: `{}` is not a Lab player (random, greedy, ai:1 … ai:8)",
                p.chars().take(40).collect::<String>()
            )));
        }
        let max_plies = self.max_plies.unwrap_or(10_000);
        if max_plies == 0 || max_plies > MAX_PLIES {
            return Err(bad(format!(
                "max_plies: {max_plies} is not between 1 and {MAX_PLIES}"
            )));
        }
        let opening_moves = self
            .opening_moves
            .unwrap_or(libro_lab::DEFAULT_OPENING_MOVES);
        if opening_moves > MAX_OPENING_MOVES {
            return Err(bad(format!(
                "opening_moves: {opening_moves} is more than {MAX_OPENING_MOVES}"
            )));
        }
        let study = Study {
            ruleset: self.ruleset,
            seats: Vec::new(),
            options: self.options.into_iter().collect(),
            vary: self
                .vary
                .into_iter()
                .map(|v| (v.option, v.values))
                .collect(),
            players: self.players,
            games: self.games,
            seed: self.seed.unwrap_or_else(rand::random),
            max_plies,
            opening_moves,
            stamp: Default::default(),
            board: Default::default(),
        };
        check_size(&study)?;
        libro_lab::prepare(study).map_err(|e| bad(e.to_string()))
    }
}

/// A stored run read back: its study and status.
struct RunInfo {
    stored: StoredRun,
    study: Study,
    status: RunStatus,
}

impl RunInfo {
    fn read(stored: StoredRun) -> Result<RunInfo, StoreError> {
        let study = stored.study()?;
        let status = stored
            .status
            .parse()
            .map_err(|reason| StoreError::CorruptRun {
                run: stored.id,
                reason,
            })?;
        Ok(RunInfo {
            stored,
            study,
            status,
        })
    }

    fn total(&self) -> u64 {
        self.study.readings().len() as u64 * u64::from(self.study.games)
    }
}

impl Lab {
    /// The Lab over `store`, playing each run on `threads` threads. Runs the database
    /// still says are playing were cut short by a restart: they are marked stopped.
    pub fn open(store: Arc<dyn Store>, threads: usize) -> Result<Lab, StoreError> {
        for run in store.runs(None)? {
            if run.status == RunStatus::Running.name() {
                store.set_run_status(
                    run.id,
                    RunStatus::Stopped.name(),
                    "interrupted when the server stopped; continue it to play the rest",
                )?;
            }
        }
        Ok(Lab {
            store,
            threads: threads.max(1),
            sessions: Mutex::new(HashMap::new()),
        })
    }

    /// The threads a run plays on by default: every core but one, so the server and its
    /// live games stay responsive.
    pub fn default_threads() -> usize {
        std::thread::available_parallelism()
            .map_or(1, |n| n.get())
            .saturating_sub(1)
            .max(1)
    }

    fn run_info(&self, id: i64) -> Result<RunInfo, LabRunError> {
        let stored = self
            .store
            .runs(Some(id))?
            .pop()
            .ok_or_else(|| LabRunError::NoRun(id.to_string()))?;
        Ok(RunInfo::read(stored)?)
    }

    /// Reads a run number from a path.
    pub fn parse_id(text: &str) -> Result<i64, LabRunError> {
        text.parse::<i64>()
            .map_err(|_| LabRunError::NoRun(text.chars().take(40).collect()))
    }

    /// The run playing now, if any.
    fn running(&self) -> Option<i64> {
        lock(&self.sessions)
            .iter()
            .find(|(_, s)| s.running())
            .map(|(id, _)| *id)
    }

    /// Stores a new run of `study` and starts it.
    pub fn create(self: &Arc<Self>, study: Study) -> Result<Value, LabRunError> {
        if let Some(other) = self.running() {
            return Err(LabRunError::Busy(other));
        }
        let text =
            serde_json::to_string(&study).map_err(|e| LabRunError::Internal(e.to_string()))?;
        let id = self
            .store
            .create_run(&text, RunStatus::Stopped.name(), now_secs())?;
        self.start(id, study, Vec::new())?;
        self.progress(id)
    }

    /// Continues a stopped run, with `games` per reading if more are asked for.
    pub fn resume(self: &Arc<Self>, id: i64, games: Option<u32>) -> Result<Value, LabRunError> {
        let mut info = self.run_info(id)?;
        if info.status == RunStatus::Running || self.running() == Some(id) {
            return Err(LabRunError::AlreadyRunning(id));
        }
        if let Some(other) = self.running() {
            return Err(LabRunError::Busy(other));
        }
        if let Some(games) = games {
            if games < info.study.games {
                return Err(LabRunError::BadRequest(format!(
                    "games: run {id} already asks for {} per reading; a run can only grow",
                    info.study.games
                )));
            }
            let grown = Study {
                games,
                ..info.study.clone()
            };
            check_size(&grown)?;
            if games != info.study.games {
                let text = serde_json::to_string(&grown)
                    .map_err(|e| LabRunError::Internal(e.to_string()))?;
                self.store.set_run_study(id, &text)?;
                info.study = grown;
            }
        }
        // Games played under another libro or other rules do not mix with new ones.
        let current = libro_lab::prepare(info.study.clone())
            .map_err(|e| LabRunError::BadRequest(e.to_string()))?;
        let changes = info.study.stamp.changes(&current.stamp);
        if !changes.is_empty() {
            return Err(LabRunError::BadRequest(format!(
                "run {id} was played under another stamp: {}; start a new run to play under this libro and these rules",
                changes.join("; ")
            )));
        }
        let rows = self.store.run_games(id)?;
        if libro_lab::pending(&info.study, &plan_for(&rows, 1, None)).is_empty() {
            return Err(LabRunError::BadRequest(format!(
                "run {id} has played all its {} games; ask for more games per reading to continue it",
                info.total()
            )));
        }
        self.start(id, info.study, rows)?;
        self.progress(id)
    }

    /// Asks a playing run to stop: games under way finish and are stored, no new one starts.
    pub fn stop(&self, id: i64) -> Result<Value, LabRunError> {
        let session = lock(&self.sessions).get(&id).cloned();
        match session {
            Some(s) if s.running() => s.stop.store(true, Ordering::Relaxed),
            _ => {
                self.run_info(id)?;
                return Err(LabRunError::NotRunning(id));
            }
        }
        self.progress(id)
    }

    /// Marks the run playing and plays its pending games on a thread of its own.
    fn start(
        self: &Arc<Self>,
        id: i64,
        study: Study,
        rows: Vec<GameRow>,
    ) -> Result<(), LabRunError> {
        let session = Arc::new(Session {
            stop: Arc::new(AtomicBool::new(false)),
            stored: AtomicU64::new(rows.len() as u64),
            played: AtomicU64::new(0),
            started: Instant::now(),
            elapsed: Mutex::new(None),
        });
        {
            let mut sessions = lock(&self.sessions);
            if let Some((&other, _)) = sessions.iter().find(|(_, s)| s.running()) {
                return Err(LabRunError::Busy(other));
            }
            sessions.insert(id, session.clone());
        }
        if let Err(e) = self.store.set_run_status(id, RunStatus::Running.name(), "") {
            *lock(&session.elapsed) = Some(Duration::ZERO);
            return Err(e.into());
        }
        let plan = plan_for(&rows, self.threads, Some(session.stop.clone()));
        let (lab, playing) = (self.clone(), session.clone());
        let spawned = std::thread::Builder::new()
            .name(format!("lab-run-{id}"))
            .spawn(move || {
                let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                    lab.play(id, &study, &plan, &playing)
                }))
                .unwrap_or_else(|panic| {
                    let what = panic
                        .downcast_ref::<&str>()
                        .map(|s| s.to_string())
                        .or_else(|| panic.downcast_ref::<String>().cloned())
                        .unwrap_or_default();
                    Err(format!("the run panicked: {what}"))
                });
                let (status, message) = match outcome {
                    Ok(true) => (RunStatus::Done, String::new()),
                    Ok(false) => (RunStatus::Stopped, "stopped".to_string()),
                    Err(e) => (RunStatus::Failed, e),
                };
                if let Err(e) = lab.store.set_run_status(id, status.name(), &message) {
                    eprintln!("libro serve: lab run {id}: {e}");
                }
                *lock(&playing.elapsed) = Some(playing.started.elapsed());
            });
        if let Err(e) = spawned {
            *lock(&session.elapsed) = Some(Duration::ZERO);
            self.store
                .set_run_status(id, RunStatus::Failed.name(), &e.to_string())?;
            return Err(LabRunError::Internal(format!("starting run {id}: {e}")));
        }
        Ok(())
    }

    /// Plays the run's pending games, storing them as they come; whether every game of
    /// the study is now stored.
    fn play(
        &self,
        id: i64,
        study: &Study,
        plan: &RunPlan,
        session: &Session,
    ) -> Result<bool, String> {
        let mut waiting: Vec<GameRow> = Vec::new();
        let mut since = Instant::now();
        let mut failed: Option<String> = None;
        let flush = |rows: &mut Vec<GameRow>, failed: &mut Option<String>| {
            if rows.is_empty() || failed.is_some() {
                return;
            }
            match self.store.append_run_games(id, rows) {
                Ok(()) => {
                    session
                        .stored
                        .fetch_add(rows.len() as u64, Ordering::Relaxed);
                    rows.clear();
                }
                Err(e) => {
                    *failed = Some(e.to_string());
                    session.stop.store(true, Ordering::Relaxed);
                }
            }
        };
        let result = libro_lab::run_study(study, plan, &mut |row| {
            session.played.fetch_add(1, Ordering::Relaxed);
            if waiting.is_empty() {
                since = Instant::now();
            }
            waiting.push(row.clone());
            if waiting.len() >= FLUSH_ROWS || since.elapsed() >= FLUSH_EVERY {
                flush(&mut waiting, &mut failed);
            }
        });
        flush(&mut waiting, &mut failed);
        if let Some(e) = failed {
            return Err(e);
        }
        result.map_err(|e| e.to_string())?;
        let total = study.readings().len() as u64 * u64::from(study.games);
        Ok(session.stored.load(Ordering::Relaxed) >= total)
    }

    /// A run's progress: status, games stored of all it asks, and the pace of its last
    /// session on this server.
    pub fn progress(&self, id: i64) -> Result<Value, LabRunError> {
        let info = self.run_info(id)?;
        Ok(self.describe(&info))
    }

    fn describe(&self, info: &RunInfo) -> Value {
        let id = info.stored.id;
        let session = lock(&self.sessions).get(&id).cloned();
        // While a session plays, its counter is ahead of the row count read a moment ago
        // only by games stored since; after it ends, the database has them all.
        let (status, done) = match &session {
            Some(s) if s.running() => (
                RunStatus::Running,
                s.stored.load(Ordering::Relaxed).max(info.stored.games),
            ),
            _ if info.status == RunStatus::Running => (RunStatus::Running, info.stored.games),
            _ => (info.status, info.stored.games),
        };
        let stopping = session
            .as_ref()
            .is_some_and(|s| s.running() && s.stop.load(Ordering::Relaxed));
        let pace = session.map(|s| {
            let played = s.played.load(Ordering::Relaxed);
            let seconds = s.seconds();
            json!({
                "played": played,
                "seconds": seconds,
                "games_per_second": played as f64 / seconds.max(1e-3),
            })
        });
        let study = &info.study;
        json!({
            "id": id,
            "study": study,
            "readings": study.readings().iter().map(|r| r.label().to_string()).collect::<Vec<_>>(),
            "status": status.name(),
            "stopping": stopping,
            "message": info.stored.message,
            "created": info.stored.created,
            "games_done": done,
            "games_total": info.total(),
            "session": pace,
            "threads": self.threads,
        })
    }

    /// Every run, newest first; a run whose stored record cannot be read is listed with
    /// the reason.
    pub fn list(&self) -> Result<Value, LabRunError> {
        let mut out = Vec::new();
        for stored in self.store.runs(None)?.into_iter().rev() {
            let (id, created) = (stored.id, stored.created);
            match RunInfo::read(stored) {
                Ok(info) => out.push(self.describe(&info)),
                Err(e) => out.push(json!({
                    "id": id,
                    "created": created,
                    "status": "unreadable",
                    "message": e.to_string(),
                })),
            }
        }
        Ok(Value::Array(out))
    }

    /// The report of a run from the games stored so far: the figures (JSON), the table
    /// `libro evaluate` prints, and the charts as SVG with their words in `lang`.
    pub fn report(&self, id: i64, lang: &str) -> Result<Value, LabRunError> {
        let info = self.run_info(id)?;
        let rows = self.store.run_games(id)?;
        let report = Report::new(&info.study, &rows);
        let charts = libro_lab::render_charts(&report, &crate::assets::chart_text(lang))
            .map_err(|e| LabRunError::Internal(e.to_string()))?;
        Ok(json!({
            "id": id,
            "games_done": rows.len(),
            "games_total": info.total(),
            "report": report,
            "table": report.to_table(),
            "charts": charts,
        }))
    }

    /// The run as a results file of `libro evaluate` (JSON lines: the study, then one line
    /// per game), which `libro evaluate --merge` reads.
    pub fn results_file(&self, id: i64) -> Result<(String, String), LabRunError> {
        let info = self.run_info(id)?;
        let rows = self.store.run_games(id)?;
        let line = |l: &libro_lab::Line| {
            serde_json::to_string(l).map_err(|e| LabRunError::Internal(e.to_string()))
        };
        let mut text = line(&libro_lab::Line::Study(info.study.clone()))?;
        text.push('\n');
        for row in rows {
            text.push_str(&line(&libro_lab::Line::Game(row))?);
            text.push('\n');
        }
        Ok((format!("lab-{id}-{}.jsonl", info.study.ruleset), text))
    }
}

/// The plan of a run that has `rows` stored already.
fn plan_for(rows: &[GameRow], threads: usize, stop: Option<Arc<AtomicBool>>) -> RunPlan {
    RunPlan {
        threads,
        done: rows.iter().map(|r| (r.reading.clone(), r.index)).collect(),
        stop,
        ..RunPlan::default()
    }
}
