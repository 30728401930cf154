//! `libro conformance`: replay other engines' recorded games, and run the interface's own
//! random-playout checks on any ruleset.

use super::RuleOptions;
use anyhow::Context;
use libro_core::conformance::{random_playouts, PlayoutConfig, Report, Violation};
use libro_registry::{FamilyRules, Visit};
use std::process::ExitCode;
use std::sync::Arc;

#[derive(clap::Subcommand)]
pub enum Command {
    /// Replay Ludii's random playouts (a .jsonl file such as tests/reference/ludii/forcado.jsonl) move for move.
    Ludii {
        /// The playouts file.
        file: String,
        /// The ruleset reproducing Ludii's reading, e.g. acedrex-ludii.
        #[arg(long)]
        ruleset: String,
        #[command(flatten)]
        rules: RuleOptions,
    },
    /// Seeded random playouts checking every invariant of the game interface.
    Playouts {
        /// Ruleset name or file.
        ruleset: String,
        /// Number of games.
        #[arg(long, default_value_t = 20)]
        games: u32,
        /// Seed of the first game.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        #[command(flatten)]
        rules: RuleOptions,
    },
}

pub fn run(cmd: Command) -> anyhow::Result<ExitCode> {
    match cmd {
        Command::Ludii {
            file,
            ruleset,
            rules,
        } => {
            let rules = rules.load(&ruleset)?;
            let text = std::fs::read_to_string(&file).with_context(|| format!("reading {file}"))?;
            let (games, plies, mismatches) = rules.replay_ludii(&text)?;
            for mismatch in &mismatches {
                println!("mismatch: {mismatch}");
            }
            println!(
                "games {games}\nplies {plies}\nmismatches {}",
                mismatches.len()
            );
            Ok(if mismatches.is_empty() {
                ExitCode::SUCCESS
            } else {
                ExitCode::FAILURE
            })
        }
        Command::Playouts {
            ruleset,
            games,
            seed,
            rules,
        } => {
            let config = PlayoutConfig {
                games,
                seed,
                ..PlayoutConfig::default()
            };
            let report = rules.load(&ruleset)?.visit(Playouts(&config));
            match report {
                Ok(Report {
                    games,
                    plies,
                    endings,
                }) => {
                    println!("games {games}\nplies {plies}");
                    for (reason, count) in endings {
                        println!("ended by {reason}: {count}");
                    }
                    Ok(ExitCode::SUCCESS)
                }
                Err(violation) => {
                    println!("violation: {violation}");
                    Ok(ExitCode::FAILURE)
                }
            }
        }
    }
}

/// Random playouts under the conformance suite, on a ruleset of any family.
struct Playouts<'a>(&'a PlayoutConfig);

impl Visit for Playouts<'_> {
    type Output = Result<Report, Violation>;
    fn visit<R: FamilyRules>(self, rules: &[Arc<R>]) -> Self::Output {
        random_playouts(&rules[0], self.0)
    }
}
