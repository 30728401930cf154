//! What the server's integration tests share: a server on a free port, a fresh database
//! file, and plain HTTP requests.

// Each test file uses the helpers it needs.
#![allow(dead_code)]

use libro_lab::GameRow;
use libro_server::store::{Loaded, StoredRun};
use libro_server::{Event, Limits, Setup, SqliteStore, Store, StoreError};
use serde_json::Value;
use std::collections::VecDeque;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::Mutex;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// A server on a free local port, stopped when dropped.
pub struct Server {
    pub addr: SocketAddr,
    task: tokio::task::JoinHandle<()>,
}

impl Drop for Server {
    fn drop(&mut self) {
        self.task.abort();
    }
}

/// Serves `store`, playing Lab studies on `lab_threads` threads (the default if `None`).
pub async fn start_with(store: Arc<dyn Store>, lab_threads: Option<usize>) -> Server {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let task = tokio::spawn(async move {
        match lab_threads {
            Some(n) => libro_server::serve_with(listener, store, n).await.unwrap(),
            None => libro_server::serve(listener, store).await.unwrap(),
        }
    });
    Server { addr, task }
}

/// Serves `store` under the operator's `limits` (Lab runs on one thread).
pub async fn start_limited(store: Arc<dyn Store>, limits: Limits) -> Server {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let task = tokio::spawn(async move {
        libro_server::serve_limited(listener, store, 1, limits)
            .await
            .unwrap()
    });
    Server { addr, task }
}

/// A store that fails the writes it is told to (a disk full), in front of an in-memory
/// SQLite store.
pub struct FaultyStore {
    inner: SqliteStore,
    /// The outcome of each coming event write, in order (`true`: it fails); once empty,
    /// every write succeeds.
    plan: Mutex<VecDeque<bool>>,
}

impl FaultyStore {
    pub fn new() -> Arc<FaultyStore> {
        Arc::new(FaultyStore {
            inner: SqliteStore::in_memory().unwrap(),
            plan: Mutex::new(VecDeque::new()),
        })
    }

    /// Sets the outcomes of the next event writes (`true`: fails).
    pub fn plan(&self, outcomes: &[bool]) {
        *self.plan.lock().unwrap() = outcomes.iter().copied().collect();
    }

    /// Event writes planned but not yet tried.
    pub fn planned(&self) -> usize {
        self.plan.lock().unwrap().len()
    }

    fn fault(&self) -> Result<(), StoreError> {
        if self.plan.lock().unwrap().pop_front() == Some(true) {
            return Err(StoreError::Db(rusqlite::Error::SqliteFailure(
                rusqlite::ffi::Error::new(rusqlite::ffi::SQLITE_FULL),
                Some("database or disk is full (injected)".into()),
            )));
        }
        Ok(())
    }
}

impl Store for FaultyStore {
    fn create_game(
        &self,
        id: &str,
        setup: &Setup,
        tokens: &[Option<String>],
        created: i64,
    ) -> Result<(), StoreError> {
        self.inner.create_game(id, setup, tokens, created)
    }
    fn append_event(&self, id: &str, index: u32, event: &Event) -> Result<(), StoreError> {
        self.fault()?;
        self.inner.append_event(id, index, event)
    }
    fn set_status(&self, id: &str, status: &str) -> Result<(), StoreError> {
        self.inner.set_status(id, status)
    }
    fn set_tokens(&self, id: &str, tokens: &[Option<String>]) -> Result<(), StoreError> {
        self.inner.set_tokens(id, tokens)
    }
    fn load_all(&self) -> Result<Vec<Loaded>, StoreError> {
        self.inner.load_all()
    }
    fn load_game(&self, id: &str) -> Result<Option<Loaded>, StoreError> {
        self.inner.load_game(id)
    }
    fn delete_game(&self, id: &str) -> Result<(), StoreError> {
        self.inner.delete_game(id)
    }
    fn create_run(&self, study: &str, status: &str, created: i64) -> Result<i64, StoreError> {
        self.inner.create_run(study, status, created)
    }
    fn set_run_study(&self, run: i64, study: &str) -> Result<(), StoreError> {
        self.inner.set_run_study(run, study)
    }
    fn set_run_status(&self, run: i64, status: &str, message: &str) -> Result<(), StoreError> {
        self.inner.set_run_status(run, status, message)
    }
    fn append_run_games(&self, run: i64, rows: &[GameRow]) -> Result<(), StoreError> {
        self.inner.append_run_games(run, rows)
    }
    fn runs(&self, only: Option<i64>) -> Result<Vec<StoredRun>, StoreError> {
        self.inner.runs(only)
    }
    fn run_games(&self, run: i64) -> Result<Vec<GameRow>, StoreError> {
        self.inner.run_games(run)
    }
}

/// Serves an in-memory database.
pub async fn start() -> Server {
    start_with(Arc::new(SqliteStore::in_memory().unwrap()), None).await
}

/// A database path in a fresh directory of its own.
pub fn temp_db(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("libro-server-test-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir.join("libro.db")
}

/// A plain HTTP/1.1 request; the status and the body (JSON if it parses, else text).
pub async fn http(addr: SocketAddr, method: &str, path: &str, body: Option<&str>) -> (u16, Value) {
    http_with(addr, method, path, body, "").await
}

/// A plain HTTP/1.1 request with more header lines (each ending in `\r\n`).
pub async fn http_with(
    addr: SocketAddr,
    method: &str,
    path: &str,
    body: Option<&str>,
    headers: &str,
) -> (u16, Value) {
    let mut s = TcpStream::connect(addr).await.unwrap();
    let body = body.unwrap_or("");
    let req = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n{headers}Content-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    s.write_all(req.as_bytes()).await.unwrap();
    let mut raw = Vec::new();
    s.read_to_end(&mut raw).await.unwrap();
    let text = String::from_utf8_lossy(&raw).to_string();
    let (head, rest) = text.split_once("\r\n\r\n").expect("an HTTP response");
    let status: u16 = head.split_whitespace().nth(1).unwrap().parse().unwrap();
    let value = serde_json::from_str(rest).unwrap_or(Value::String(rest.to_string()));
    (status, value)
}

pub async fn post(addr: SocketAddr, path: &str, body: Value) -> (u16, Value) {
    http(addr, "POST", path, Some(&body.to_string())).await
}

pub async fn get(addr: SocketAddr, path: &str) -> (u16, Value) {
    http(addr, "GET", path, None).await
}
