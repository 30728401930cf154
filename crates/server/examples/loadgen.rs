//! Load benchmark (not a test): many concurrent games over WebSocket against a running
//! `libro serve`, from a second process. Creates `--games` two-seat games, holds both seats'
//! sockets of each, and plays random legal moves with a think time between them, measuring
//! each move's round trip (sent → the server's `ok`, which comes after the move was stored
//! and broadcast) and its arrival at the opponent's socket.
//!
//! The generator shares the machine with the server, so it reads each message into a small
//! typed struct (its type, `from` and the legal moves; the board views are skipped unparsed)
//! with a small socket read buffer, instead of building a JSON tree per message; on the
//! mover's socket an update is recognised by its start, unparsed. It allocates with mimalloc,
//! as the server does.
//!
//! cargo run --release -p libro-server --example loadgen -- --url http://127.0.0.1:8080 --games 1000

use futures_util::{SinkExt, StreamExt};
use rand::{Rng, SeedableRng};
use serde::Deserialize;
use serde_json::{json, Value};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

type Ws = tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<TcpStream>>;

struct Opts {
    host: String,
    games: usize,
    moves: usize,
    think_ms: u64,
    ruleset: String,
}

fn parse_args() -> Opts {
    let mut o = Opts {
        host: "127.0.0.1:8080".into(),
        games: 1000,
        moves: 20,
        think_ms: 2000,
        ruleset: "acedrex".into(),
    };
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut i = 0;
    while i + 1 < args.len() {
        let v = args[i + 1].clone();
        match args[i].as_str() {
            "--url" => {
                o.host = v
                    .trim_start_matches("http://")
                    .trim_end_matches('/')
                    .to_string()
            }
            "--games" => o.games = v.parse().expect("--games N"),
            "--moves" => o.moves = v.parse().expect("--moves N (per game)"),
            "--think-ms" => {
                o.think_ms = v
                    .parse()
                    .expect("--think-ms MS (mean pause between a game's moves)")
            }
            "--ruleset" => o.ruleset = v,
            other => {
                panic!("unknown option {other} (--url, --games, --moves, --think-ms, --ruleset)")
            }
        }
        i += 2;
    }
    o
}

/// A JSON POST; `None` if the server cannot be reached or answers nonsense.
async fn post(host: &str, path: &str, body: &Value) -> Option<Value> {
    let mut s = TcpStream::connect(host).await.ok()?;
    let body = body.to_string();
    let req = format!("POST {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}", body.len());
    s.write_all(req.as_bytes()).await.ok()?;
    let mut raw = Vec::new();
    s.read_to_end(&mut raw).await.ok()?;
    let text = String::from_utf8_lossy(&raw);
    let (_, rest) = text.split_once("\r\n\r\n")?;
    serde_json::from_str(rest).ok()
}

/// What the generator reads of a server message: its type, the first history entry it
/// carries (`from`) and the legal moves now; everything else is skipped.
#[derive(Deserialize)]
struct Msg {
    #[serde(rename = "type")]
    kind: Kind,
    #[serde(default)]
    from: Option<u64>,
    #[serde(default)]
    now: Option<Now>,
}

#[derive(Deserialize, PartialEq)]
#[serde(rename_all = "lowercase")]
enum Kind {
    Full,
    Update,
    Ok,
    Error,
    #[serde(other)]
    Other,
}

#[derive(Deserialize)]
struct Now {
    #[serde(default)]
    legal: Vec<String>,
}

impl Msg {
    fn legal(self) -> Vec<String> {
        self.now.map(|n| n.legal).unwrap_or_default()
    }
}

/// The next message; with `skim`, an update (which the server starts with its type) is
/// answered as a bare update without reading it.
async fn next_msg(ws: &mut Ws, skim: bool) -> Option<Msg> {
    loop {
        match tokio::time::timeout(Duration::from_secs(30), ws.next()).await {
            Ok(Some(Ok(Message::Text(t)))) => {
                if skim && t.as_str().starts_with(r#"{"type":"update""#) {
                    return Some(Msg {
                        kind: Kind::Update,
                        from: None,
                        now: None,
                    });
                }
                return serde_json::from_str(t.as_str()).ok();
            }
            Ok(Some(Ok(_))) => continue,
            _ => return None,
        }
    }
}

#[derive(Default)]
struct Stats {
    round_trip: Mutex<Vec<Duration>>,
    to_opponent: Mutex<Vec<Duration>>,
    errors: AtomicUsize,
    held: AtomicUsize,
}

/// Creates a game and connects both seats; returns the sockets and the first legal moves.
async fn open_game(host: &str, ruleset: &str, seed: u64) -> Option<(Vec<Ws>, Vec<String>)> {
    let created = post(
        host,
        "/api/games",
        &json!({"ruleset": ruleset, "players": ["human", "human"], "seed": seed}),
    )
    .await?;
    let id = created["id"].as_str()?.to_string();
    let mut sockets = Vec::new();
    let mut legal: Vec<String> = Vec::new();
    for seat in 0..2 {
        let link = created["seats"][seat]["link"].as_str()?;
        let token = link.split("#t=").nth(1)?;
        // tungstenite's default read buffer (128 KiB, zeroed on every read) would cost more
        // than the messages themselves (an update is about 2 KiB).
        let config = tokio_tungstenite::tungstenite::protocol::WebSocketConfig::default()
            .read_buffer_size(4 << 10);
        let (mut ws, _) = tokio_tungstenite::connect_async_with_config(
            format!("ws://{host}/api/games/{id}/ws?t={token}"),
            Some(config),
            false,
        )
        .await
        .ok()?;
        let full = next_msg(&mut ws, false).await?;
        if full.kind != Kind::Full {
            return None;
        }
        legal = full.legal();
        sockets.push(ws);
    }
    Some((sockets, legal))
}

/// Plays random legal moves, alternating seats (chess: one event per move); false on any
/// error.
async fn play(
    sockets: &mut [Ws],
    mut legal: Vec<String>,
    moves: usize,
    think_ms: u64,
    seed: u64,
    stats: &Stats,
) -> bool {
    let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
    let mut seat = 0;
    for k in 0..moves {
        if legal.is_empty() {
            break;
        }
        let pause = rng.gen_range(think_ms / 2..=think_ms * 3 / 2);
        tokio::time::sleep(Duration::from_millis(pause)).await;
        let mv = legal[rng.gen_range(0..legal.len())].clone();
        let sent = Instant::now();
        if sockets[seat]
            .send(Message::Text(
                json!({"type": "move", "move": mv}).to_string().into(),
            ))
            .await
            .is_err()
        {
            return false;
        }
        // The mover's socket: `ok` (its update may come before or after it).
        loop {
            let Some(m) = next_msg(&mut sockets[seat], true).await else {
                return false;
            };
            match m.kind {
                Kind::Ok => break,
                Kind::Error => return false,
                _ => {}
            }
        }
        stats.round_trip.lock().unwrap().push(sent.elapsed());
        // The opponent's socket: the same update.
        let other = 1 - seat;
        loop {
            let Some(m) = next_msg(&mut sockets[other], false).await else {
                return false;
            };
            // Skip the update of this socket's own last move, if still queued behind its `ok`.
            if m.kind == Kind::Update && m.from == Some(k as u64) {
                stats.to_opponent.lock().unwrap().push(sent.elapsed());
                legal = m.legal();
                break;
            }
        }
        seat = other;
    }
    true
}

#[allow(clippy::too_many_arguments)]
async fn game_task(
    host: String,
    ruleset: String,
    moves: usize,
    think_ms: u64,
    seed: u64,
    stats: Arc<Stats>,
    gate: Arc<tokio::sync::Barrier>,
    limit: Arc<tokio::sync::Semaphore>,
) {
    let permit = limit.acquire().await.expect("the semaphore stays open");
    let opened = open_game(&host, &ruleset, seed).await;
    drop(permit);
    match &opened {
        Some(_) => stats.held.fetch_add(1, Ordering::Relaxed),
        None => stats.errors.fetch_add(1, Ordering::Relaxed),
    };
    gate.wait().await;
    if let Some((mut sockets, legal)) = opened {
        if !play(&mut sockets, legal, moves, think_ms, seed, &stats).await {
            stats.errors.fetch_add(1, Ordering::Relaxed);
        }
        // Hold the game (its sockets) until everyone is done.
        gate.wait().await;
    } else {
        gate.wait().await;
    }
}

fn percentile(v: &[Duration], p: f64) -> Duration {
    if v.is_empty() {
        return Duration::ZERO;
    }
    v[((v.len() as f64 - 1.0) * p).round() as usize]
}

fn report(name: &str, v: &mut [Duration]) {
    v.sort();
    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    println!(
        "{name}: {} moves, p50 {:.1} ms, p90 {:.1} ms, p99 {:.1} ms, max {:.1} ms",
        v.len(),
        ms(percentile(v, 0.5)),
        ms(percentile(v, 0.9)),
        ms(percentile(v, 0.99)),
        ms(percentile(v, 1.0))
    );
}

#[tokio::main]
async fn main() {
    let o = parse_args();
    let stats = Arc::new(Stats::default());
    let gate = Arc::new(tokio::sync::Barrier::new(o.games + 1));
    let setup = Instant::now();
    let mut tasks = Vec::new();
    let connect_limit = Arc::new(tokio::sync::Semaphore::new(50));
    for g in 0..o.games {
        let (host, ruleset, stats, gate, limit) = (
            o.host.clone(),
            o.ruleset.clone(),
            stats.clone(),
            gate.clone(),
            connect_limit.clone(),
        );
        let (moves, think) = (o.moves, o.think_ms);
        tasks.push(tokio::spawn(game_task(
            host,
            ruleset,
            moves,
            think,
            g as u64 + 1,
            stats,
            gate,
            limit,
        )));
    }
    // Wait for every game to be created and connected.
    while stats.held.load(Ordering::Relaxed) + stats.errors.load(Ordering::Relaxed) < o.games {
        tokio::time::sleep(Duration::from_millis(100)).await;
        if setup.elapsed() > Duration::from_secs(600) {
            break;
        }
    }
    println!(
        "{} games created and held ({} sockets) in {:.1} s; playing {} moves each, {} ms mean think time",
        stats.held.load(Ordering::Relaxed),
        2 * stats.held.load(Ordering::Relaxed),
        setup.elapsed().as_secs_f64(),
        o.moves,
        o.think_ms
    );
    let play = Instant::now();
    gate.wait().await;
    gate.wait().await;
    let secs = play.elapsed().as_secs_f64();
    let mut rt = std::mem::take(&mut *stats.round_trip.lock().unwrap());
    let mut opp = std::mem::take(&mut *stats.to_opponent.lock().unwrap());
    println!(
        "{} moves in {secs:.1} s ({:.0} moves/s), {} errors",
        rt.len(),
        rt.len() as f64 / secs,
        stats.errors.load(Ordering::Relaxed)
    );
    report("move round trip (sent -> ok)", &mut rt);
    report("move seen by the opponent", &mut opp);
    for t in tasks {
        let _ = t.await;
    }
}
