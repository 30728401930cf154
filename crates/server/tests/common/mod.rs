//! What the server's integration tests share: a server on a free port, a fresh database
//! file, and plain HTTP requests.

// Each test file uses the helpers it needs.
#![allow(dead_code)]

use libro_server::{SqliteStore, Store};
use serde_json::Value;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
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
    let mut s = TcpStream::connect(addr).await.unwrap();
    let body = body.unwrap_or("");
    let req = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
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
