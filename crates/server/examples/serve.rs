//! The server on its own, without the rest of the CLI: `cargo run -p libro-server --example
//! serve -- --port 8080` (the same as `libro serve`).

use clap::Parser;

#[derive(Parser)]
struct Cli {
    #[command(flatten)]
    serve: libro_server::ServeArgs,
}

fn main() -> anyhow::Result<()> {
    libro_server::run(Cli::parse().serve)
}
