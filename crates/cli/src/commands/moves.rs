//! `libro moves RULESET --position ID --dice 6-4-1`: the distinct full-turn plays of a tables
//! position for a roll (or that the roll is a falla), or with `--all-rolls` the chance that
//! the player on roll cannot play all its dice.

use super::RuleOptions;
use anyhow::{bail, Context};
use libro_catalog::AnyRuleset;
use libro_core::Ruleset;
use libro_tables::Dice;
use serde_json::json;
use std::process::ExitCode;

#[derive(clap::Args)]
pub struct Args {
    /// Ruleset name or file (tables family).
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
    let AnyRuleset::Tables(rules) = args.rules.load(&args.ruleset)? else {
        bail!(
            "`moves` lists tables plays; `{}` is not a tables-family ruleset",
            args.ruleset
        );
    };
    let game = match &args.position {
        Some(text) => rules.parse_position(text).context("reading --position")?,
        None => rules.parse_position(&rules.new_game(0).gnubg_id())?,
    };
    if args.all_rolls {
        let odds = game.falla_odds()?;
        for roll in &odds.rolls {
            let p = f64::from(roll.weight) / f64::from(odds.total);
            if args.json {
                println!(
                    "{}",
                    json!({ "dice": roll.dice.to_string(), "probability": p, "plays": roll.plays, "falla": roll.falla })
                );
            } else {
                let verdict = if roll.falla {
                    "falla".to_string()
                } else {
                    format!("{} plays", roll.plays)
                };
                println!(
                    "{:7} {:>3}/{}  {verdict}",
                    roll.dice.to_string(),
                    roll.weight,
                    odds.total
                );
            }
        }
        let fallas = odds.rolls.iter().filter(|r| r.falla).count();
        if args.json {
            println!(
                "{}",
                json!({ "falla_probability": odds.probability(), "falla_weight": odds.falla_weight, "total": odds.total, "falla_rolls": fallas })
            );
        } else {
            println!(
                "falla probability {:.6} ({}/{}, {fallas} of {} rolls)",
                odds.probability(),
                odds.falla_weight,
                odds.total,
                odds.rolls.len()
            );
        }
        return Ok(ExitCode::SUCCESS);
    }
    let Some(dice) = &args.dice else {
        bail!("give --dice (e.g. --dice 6-4-1) or --all-rolls");
    };
    let dice: Dice = dice
        .parse()
        .with_context(|| format!("reading --dice `{dice}`"))?;
    let found = game.plays_for(dice)?;
    let texts: Vec<String> = found.plays.iter().map(ToString::to_string).collect();
    if args.json {
        for t in &texts {
            println!("{}", json!({ "play": t }));
        }
        println!(
            "{}",
            json!({ "plays": texts.len(), "falla": found.falla, "dice": found.dice.to_string() })
        );
    } else if found.falla && texts.is_empty() {
        println!(
            "{}: falla — the dice cannot all be played, so the player on roll loses",
            found.dice
        );
    } else {
        for t in &texts {
            println!("{t}");
        }
        println!("{} distinct plays", texts.len());
    }
    Ok(ExitCode::SUCCESS)
}
