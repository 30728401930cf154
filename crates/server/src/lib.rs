//! libro's web app: a lobby to start games of every shipped ruleset with human and AI seats,
//! a board for each family, live play over WebSocket, and every game stored (SQLite) so that
//! it survives a restart and can be exported and imported as a record; and the Lab, which
//! judges a ruleset's readings by self-play and stores each run's games as they finish.

mod ai;
pub mod analysis;
mod assets;
pub mod clock;
pub mod guard;
mod http;
pub mod hub;
pub mod lab;
pub mod limits;
pub mod pgn;
pub mod record;
pub mod store;
mod view;

pub use clock::ClockSpec;
pub use http::{router, ClientMessage, CreateRequest, MoveRequest};
pub use hub::{Hub, HubError};
pub use limits::Limits;
pub use record::{Event, Record, Setup};
pub use store::{SqliteStore, Store, StoreError};

use anyhow::Context;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;

/// `libro serve`: where to listen and where the database is.
#[derive(clap::Args, Clone, Debug)]
pub struct ServeArgs {
    /// Address to listen on.
    #[arg(long, default_value = "127.0.0.1")]
    pub addr: String,
    /// Port to listen on (0: any free port, printed at start).
    #[arg(long, default_value_t = 8080)]
    pub port: u16,
    /// The SQLite database file, created if missing.
    #[arg(long, default_value = "libro.db")]
    pub db: PathBuf,
    /// Threads a Lab run plays its games on (default: every core but one).
    #[arg(long)]
    pub lab_threads: Option<usize>,
    /// The largest `hash=` (MB) an AI seat may ask for; a game asking for more is refused.
    #[arg(long, default_value_t = limits::DEFAULT_MAX_AI_HASH_MB)]
    pub max_ai_hash_mb: usize,
    /// The longest `movetime=` (ms) an AI seat may ask for; every search stops by then.
    #[arg(long, default_value_t = limits::DEFAULT_MAX_AI_MOVETIME_MS)]
    pub max_ai_movetime: u64,
    /// AI searches run at once; the others wait their turn (default: every core but one).
    #[arg(long)]
    pub ai_threads: Option<usize>,
    /// Seconds a game with no one watching and no move stays in memory (it loads again when
    /// asked for).
    #[arg(long, default_value_t = limits::DEFAULT_IDLE_UNLOAD.as_secs())]
    pub idle_unload_secs: u64,
    /// Seconds after which a game never started (no move, no one watching) is deleted.
    #[arg(long, default_value_t = limits::DEFAULT_UNSTARTED_EXPIRY.as_secs())]
    pub unstarted_expiry_secs: u64,
    /// The URL browsers use to reach this server when it is not the address it listens on
    /// (behind a proxy: `https://libro.example`); pages from that origin may change games.
    #[arg(long, value_name = "URL")]
    pub public_url: Option<String>,
    /// HTTP connections served at once; more wait until one closes.
    #[arg(long, default_value_t = guard::DEFAULT_MAX_CONNECTIONS)]
    pub max_connections: usize,
    /// Games, imports and Lab runs one client (IP address) may create per minute (as many at
    /// once); more get 429 with Retry-After.
    #[arg(long, default_value_t = guard::DEFAULT_CREATE_PER_MINUTE)]
    pub max_new_games_per_minute: u32,
    /// Other HTTP writes one client may make per second (twice as many at once).
    #[arg(long, default_value_t = guard::DEFAULT_WRITE_PER_SECOND)]
    pub max_writes_per_second: u32,
}

impl ServeArgs {
    /// The operator's limits these flags set.
    pub fn limits(&self) -> Limits {
        Limits {
            max_ai_hash_mb: self.max_ai_hash_mb,
            max_ai_movetime_ms: self.max_ai_movetime,
            ai_threads: self
                .ai_threads
                .unwrap_or_else(limits::default_ai_threads)
                .max(1),
            idle_unload: std::time::Duration::from_secs(self.idle_unload_secs),
            unstarted_expiry: std::time::Duration::from_secs(self.unstarted_expiry_secs),
            public_url: self.public_url.clone(),
            max_connections: self.max_connections.max(1),
            new_games_per_minute: self.max_new_games_per_minute.max(1),
            writes_per_second: self.max_writes_per_second.max(1),
        }
    }
}

/// The lock one `serve` holds on its database for its whole life: an OS lock on the sidecar
/// file `<db>.lock`, so that a second server on the same file refuses to start.
pub struct DbLock {
    _file: std::fs::File,
}

impl DbLock {
    /// Takes the lock of `db`, or says that another process holds it.
    pub fn acquire(db: &std::path::Path) -> anyhow::Result<DbLock> {
        let mut name = db.as_os_str().to_owned();
        name.push(".lock");
        let path = PathBuf::from(name);
        let file = std::fs::OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&path)
            .with_context(|| format!("opening lock file {}", path.display()))?;
        match file.try_lock() {
            Ok(()) => Ok(DbLock { _file: file }),
            Err(std::fs::TryLockError::WouldBlock) => anyhow::bail!(
                "database {} is in use by another libro serve (it holds {}); stop that server or use another --db",
                db.display(),
                path.display()
            ),
            Err(std::fs::TryLockError::Error(e)) => {
                Err(e).with_context(|| format!("locking {}", path.display()))
            }
        }
    }
}

/// Opens the store, loads every game and serves until the listener fails or Ctrl-C.
pub async fn serve(listener: tokio::net::TcpListener, store: Arc<dyn Store>) -> anyhow::Result<()> {
    serve_with(listener, store, lab::Lab::default_threads()).await
}

/// [`serve`], with Lab runs played on `lab_threads` threads.
pub async fn serve_with(
    listener: tokio::net::TcpListener,
    store: Arc<dyn Store>,
    lab_threads: usize,
) -> anyhow::Result<()> {
    serve_limited(listener, store, lab_threads, Limits::default()).await
}

/// [`serve_with`], under the operator's `limits`.
pub async fn serve_limited(
    listener: tokio::net::TcpListener,
    store: Arc<dyn Store>,
    lab_threads: usize,
    limits: Limits,
) -> anyhow::Result<()> {
    let max_connections = limits.max_connections.max(1);
    let hub = Hub::open_limited(store, lab_threads, limits)
        .await
        .context("loading the stored games")?;
    let app = router(hub);
    accept_loop(listener, app, max_connections).await
}

/// Serves connections until Ctrl-C: at most `max_connections` at once (the others wait in
/// the listen queue), each closed if a request's headers take longer than
/// [`guard::HEADER_READ_TIMEOUT`] (which also ends idle keep-alive connections).
async fn accept_loop(
    listener: tokio::net::TcpListener,
    app: axum::Router,
    max_connections: usize,
) -> anyhow::Result<()> {
    use hyper_util::rt::{TokioExecutor, TokioIo, TokioTimer};
    use hyper_util::server::conn::auto;
    use tower::ServiceExt;

    let permits = Arc::new(tokio::sync::Semaphore::new(max_connections));
    let shutdown = tokio::signal::ctrl_c();
    tokio::pin!(shutdown);
    loop {
        let permit = tokio::select! {
            _ = &mut shutdown => return Ok(()),
            permit = permits.clone().acquire_owned() => permit.context("the connection limit closed")?,
        };
        let (stream, peer) = tokio::select! {
            _ = &mut shutdown => return Ok(()),
            accepted = listener.accept() => match accepted {
                Ok(a) => a,
                // Out of file descriptors and the like: wait a moment rather than spin.
                Err(_) => {
                    tokio::time::sleep(std::time::Duration::from_millis(50)).await;
                    continue;
                }
            },
        };
        let _ = stream.set_nodelay(true);
        let service = app.clone().map_request(
            move |mut request: axum::extract::Request<hyper::body::Incoming>| {
                request
                    .extensions_mut()
                    .insert(axum::extract::ConnectInfo(peer));
                request
            },
        );
        tokio::spawn(async move {
            // A client that sends nothing at all is dropped after the header timeout too
            // (hyper's own timer starts with the first byte of a request).
            let mut first = [0u8; 1];
            match tokio::time::timeout(guard::HEADER_READ_TIMEOUT, stream.peek(&mut first)).await {
                Ok(Ok(n)) if n > 0 => {}
                _ => return,
            }
            let mut builder = auto::Builder::new(TokioExecutor::new());
            builder
                .http1()
                .timer(TokioTimer::new())
                .header_read_timeout(guard::HEADER_READ_TIMEOUT);
            let service = hyper_util::service::TowerToHyperService::new(service);
            let _ = builder
                .serve_connection_with_upgrades(TokioIo::new(stream), service)
                .await;
            drop(permit);
        });
    }
}

/// Runs the server (blocking, on its own runtime).
pub fn run(args: ServeArgs) -> anyhow::Result<()> {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("starting the runtime")?;
    rt.block_on(async move {
        let _lock = DbLock::acquire(&args.db)?;
        let store = SqliteStore::open(&args.db)
            .with_context(|| format!("opening database {}", args.db.display()))?;
        let addr: SocketAddr = format!("{}:{}", args.addr, args.port)
            .parse()
            .with_context(|| {
                format!(
                    "`{}` with port {} is not an address to listen on",
                    args.addr, args.port
                )
            })?;
        let listener = tokio::net::TcpListener::bind(addr)
            .await
            .with_context(|| format!("listening on {addr}"))?;
        let local = listener.local_addr()?;
        println!(
            "libro serve: http://{local}/ (database {})",
            args.db.display()
        );
        let threads = args.lab_threads.unwrap_or_else(lab::Lab::default_threads);
        serve_limited(listener, Arc::new(store), threads, args.limits()).await
    })
}
