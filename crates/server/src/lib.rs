//! libro's web app: a lobby to start games of every shipped ruleset with human and AI seats,
//! a board for each family, live play over WebSocket, and every game stored (SQLite) so that
//! it survives a restart and can be exported and imported as a record; and the Lab, which
//! judges a ruleset's readings by self-play and stores each run's games as they finish.

mod ai;
mod assets;
mod http;
pub mod hub;
pub mod lab;
pub mod record;
pub mod store;
mod view;

pub use http::router;
pub use hub::{Hub, HubError};
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
    let hub = Hub::open_with(store, lab_threads)
        .await
        .context("loading the stored games")?;
    let app = router(hub);
    axum::serve(listener, app)
        .with_graceful_shutdown(async {
            let _ = tokio::signal::ctrl_c().await;
        })
        .await
        .context("serving")?;
    Ok(())
}

/// Runs the server (blocking, on its own runtime).
pub fn run(args: ServeArgs) -> anyhow::Result<()> {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("starting the runtime")?;
    rt.block_on(async move {
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
        serve_with(listener, Arc::new(store), threads).await
    })
}
