//! `libro moves RULESET --position ID --dice 6-4-1`: the distinct full-turn plays of a tables
//! position for a roll (or that the roll is a falla), or with `--all-rolls` the chance that
//! the player on roll cannot play all its dice.

use super::RuleOptions;
use anyhow::{bail, Context};
use serde_json::json;
use std::process::ExitCode;

#[derive(clap::Args)]
pub struct Args {
    /// Ruleset name or file (a game with dice).
    ruleset: String,
    /// The position: a gnubg Position ID (the player on roll as gnubg encodes it), or a full
    /// libro position string `ID:seat:dice`. Default: the start position.
    #[arg(long)]
    position: Option<String>,
    /// The roll, e.g. 6-4-1.
    #[arg(long, conflicts_with = "all_rolls")]
    dice: Option<String>,
    /// Every roll, with its probability, its number of plays, and whether it is a falla.
    #[arg(long)]
    all_rolls: bool,
    /// JSON output; the last line sums it up.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    rules: RuleOptions,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let rules = args.rules.load(&args.ruleset)?;
    let game = match &args.position {
        Some(text) => rules.parse_position(text).context("reading --position")?,
        None => rules.new_game(0),
    };
    if args.all_rolls {
        let rolls = game.roll_plays(None).map_err(anyhow::Error::msg)?;
        let total = rolls.first().map_or(1, |r| r.total);
        let falla_weight: u32 = rolls.iter().filter(|r| r.falla).map(|r| r.weight).sum();
        for roll in &rolls {
            let p = f64::from(roll.weight) / f64::from(roll.total);
            if args.json {
                println!(
                    "{}",
                    json!({ "dice": roll.roll, "probability": p, "plays": roll.plays.len(), "falla": roll.falla })
                );
            } else {
                let verdict = if roll.falla {
                    "falla".to_string()
                } else {
                    format!("{} plays", roll.plays.len())
                };
                println!(
                    "{:7} {:>3}/{}  {verdict}",
                    roll.roll, roll.weight, roll.total
                );
            }
        }
        let fallas = rolls.iter().filter(|r| r.falla).count();
        let probability = f64::from(falla_weight) / f64::from(total);
        if args.json {
            println!(
                "{}",
                json!({ "falla_probability": probability, "falla_weight": falla_weight, "total": total, "falla_rolls": fallas })
            );
        } else {
            println!(
                "falla probability {probability:.6} ({falla_weight}/{total}, {fallas} of {} rolls)",
                rolls.len()
            );
        }
        return Ok(ExitCode::SUCCESS);
    }
    let Some(dice) = &args.dice else {
        bail!("give --dice (e.g. --dice 6-4-1) or --all-rolls");
    };
    let found = game
        .roll_plays(Some(dice))
        .map_err(anyhow::Error::msg)
        .with_context(|| format!("reading --dice `{dice}`"))?;
    let found = &found[0];
    if args.json {
        for t in &found.plays {
            println!("{}", json!({ "play": t }));
        }
        println!(
            "{}",
            json!({ "plays": found.plays.len(), "falla": found.falla, "dice": found.roll })
        );
    } else if found.falla && found.plays.is_empty() {
        println!(
            "{}: falla — the dice cannot all be played, so the player on roll loses",
            found.roll
        );
    } else {
        for t in &found.plays {
            println!("{t}");
        }
        println!("{} distinct plays", found.plays.len());
    }
    Ok(ExitCode::SUCCESS)
}
