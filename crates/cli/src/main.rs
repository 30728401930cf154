//! `libro`: play and study the games of Alfonso X's Libro de los Juegos from the terminal.

mod commands;
mod uci_client;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

/// mimalloc rather than the system allocator: the server's per-move work is many small
/// allocations from several threads, where glibc's malloc spent about a fifth of its time
/// under load (`perf` on `loadgen`; figures in the README).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[derive(Parser)]
#[command(
    name = "libro",
    version,
    about = "Play and study the games of Alfonso X's Libro de los Juegos (1283)"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// List the shipped rulesets, or validate a ruleset file.
    Rulesets(commands::rulesets::Args),
    /// Count the leaf positions of the move tree to a depth (chess family).
    Perft(commands::perft::Args),
    /// Search a fixed set of positions to fixed depths: node count (the search's signature)
    /// and speed.
    Bench(commands::bench::Args),
    /// Check libro against recorded games of other engines.
    #[command(subcommand)]
    Conformance(commands::conformance::Command),
    /// List the plays of a tables position for a roll, or the chance of a falla.
    Moves(commands::moves::Args),
    /// The reconstruction lab: judge a ruleset and its readings by self-play.
    Evaluate(commands::evaluate::Args),
    /// Play a game in the terminal, against the computer or another person.
    Play(commands::play::Args),
    /// Play AI against AI: wins, draws, losses, score and Elo.
    Match(commands::match_games::Args),
    /// Speak the Universal Chess Interface (two-player chess rulesets), for chess GUIs.
    Uci(commands::uci::Args),
    /// Serve the web app: lobby, live games in the browser, stored in SQLite.
    Serve(libro_server::ServeArgs),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let outcome = match cli.command {
        Command::Rulesets(args) => commands::rulesets::run(args),
        Command::Perft(args) => commands::perft::run(args),
        Command::Bench(args) => commands::bench::run(args),
        Command::Conformance(cmd) => commands::conformance::run(cmd),
        Command::Moves(args) => commands::moves::run(args),
        Command::Evaluate(args) => commands::evaluate::run(args),
        Command::Play(args) => commands::play::run(args),
        Command::Match(args) => commands::match_games::run(args),
        Command::Uci(args) => commands::uci::run(args),
        Command::Serve(args) => libro_server::run(args).map(|()| ExitCode::SUCCESS),
    };
    match outcome {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::from(2)
        }
    }
}
