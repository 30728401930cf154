//! One module per subcommand.

pub mod bench;
pub mod conformance;
pub mod engine_match;
pub mod evaluate;
pub mod match_games;
pub mod moves;
pub mod perft;
pub mod play;
pub mod rulesets;
pub mod uci;

use clap::Args as ClapArgs;

/// `--option K=V` overrides, accepted by every command that loads a ruleset.
#[derive(ClapArgs, Debug, Clone, Default)]
pub struct RuleOptions {
    /// Override a rule option of the ruleset, e.g. `--option pawn_double_step=first-move`.
    #[arg(long = "option", value_name = "KEY=VALUE")]
    pub options: Vec<String>,
}

impl RuleOptions {
    /// Loads `ruleset` (a shipped name or a file path) with these overrides.
    pub fn load(&self, ruleset: &str) -> anyhow::Result<libro_registry::AnyRuleset> {
        let overrides = libro_registry::parse_overrides(&self.options)?;
        Ok(libro_registry::load(ruleset, &overrides)?)
    }
}
