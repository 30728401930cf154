//! `libro conformance`: replay other engines' recorded games, and run the interface's own
//! random-playout checks on any ruleset.

use super::RuleOptions;
use anyhow::{bail, Context};
use libro_catalog::AnyRuleset;
use libro_core::conformance::{random_playouts, PlayoutConfig, Report};
use std::process::ExitCode;

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
            let AnyRuleset::Chess(rules) = rules.load(&ruleset)? else {
                bail!("Ludii replays exist for the chess-family rulesets only; `{ruleset}` is not one");
            };
            let text = std::fs::read_to_string(&file).with_context(|| format!("reading {file}"))?;
            let report = libro_chess::replay_ludii(&rules, &text);
            for mismatch in &report.mismatches {
                println!("mismatch: {mismatch}");
            }
            println!(
                "games {}\nplies {}\nmismatches {}",
                report.games,
                report.plies,
                report.mismatches.len()
            );
            Ok(if report.mismatches.is_empty() {
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
            let report = match rules.load(&ruleset)? {
                AnyRuleset::Chess(r) => random_playouts(&r, &config),
                AnyRuleset::Tables(r) => random_playouts(&r, &config),
            };
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
