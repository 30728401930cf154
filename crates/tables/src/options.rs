//! The rule options of the tables family, declared once with libro-core's
//! [`rule_options!`](libro_core::rule_options) as the chess family's are: name, values,
//! default and explanation here; a ruleset file gives each value it sets a `source`.

use libro_core::options::{OptionKind, OptionValue};

libro_core::option_choice! {
    /// How checkers are borne off.
    pub enum BearOff {
        /// A die of n bears off from point n; a die higher than the highest occupied point
        /// bears off from that point.
        Standard = "standard",
        /// A die of n bears off only from point n.
        Exact = "exact",
    }
}

libro_core::option_choice! {
    /// What a roll whose dice all show the same number gives.
    pub enum Doubles {
        /// Nothing more: it is played like any roll.
        Once = "once",
        /// Another roll for the same player, once it is played.
        RollAgain = "roll-again",
    }
}

libro_core::option_choice! {
    /// What becomes of dice a player cannot play (without the falla).
    pub enum Unplayable {
        /// They are lost.
        Lost = "lost",
        /// The opponent plays them on its next turn instead of rolling.
        ToOpponent = "to-opponent",
        /// The opponent plays them at once, for itself, and then rolls its own turn.
        ToOpponentExtra = "to-opponent-extra",
    }
}

libro_core::option_choice! {
    /// Whether checkers move along the board.
    pub enum Moves {
        /// Along their path, a die's number of points, as in every tables game.
        Path = "path",
        /// Never along the board: a die only lays down a stacked pair or bears a checker off.
        BearOffOnly = "bear-off-only",
    }
}

/// The own point a checker on the bar (or in hand) enters on with a 1: 7 to 24.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct EntryPoint(pub u8);

/// The entry points, highest first, as the option lists them.
const ENTRY_POINTS: &[&str] = &[
    "24", "23", "22", "21", "20", "19", "18", "17", "16", "15", "14", "13", "12", "11", "10", "9",
    "8", "7",
];

impl OptionValue for EntryPoint {
    const KIND: OptionKind = OptionKind::Choice(ENTRY_POINTS);
    fn read(text: &str) -> Option<EntryPoint> {
        if !ENTRY_POINTS.contains(&text) {
            return None;
        }
        text.parse().ok().map(EntryPoint)
    }
    fn write(self) -> String {
        self.0.to_string()
    }
}

libro_core::rule_options! {
    /// The rule options of a tables ruleset. The defaults are the family's (backgammon's
    /// ways); a file sets what its game does differently, saying where it comes from.
    pub struct Options;
    /// Every option of the family, in the order they are listed.
    pub const SPECS;
    bear_off: BearOff = BearOff::Standard; listed always,
        "standard: a die higher than the highest occupied point bears off from that point; exact: a die bears off only from its own point";
    doubles: Doubles = Doubles::Once; listed when_set,
        "once: dice showing the same number are played once each, like any roll; roll-again: after playing a roll whose dice all show the same number, the same player rolls again";
    unplayable: Unplayable = Unplayable::Lost; listed when_set,
        "without the falla, dice a player cannot play are lost; to-opponent: the opponent plays them on its next turn instead of rolling; to-opponent-extra: the opponent plays them at once and then rolls its own turn (either way once: what it cannot play of them is lost)";
    moves: Moves = Moves::Path; listed when_set,
        "path: a die moves a checker that many points along its path; bear-off-only: checkers never move along the board, a die of n only lays down the pair stacked on point n or bears a checker off from point n";
    entry: EntryPoint = EntryPoint(24); listed when_set,
        "the own point a checker on the bar (or in hand) enters on with a 1; a die of n enters it on point entry + 1 - n, so 24 enters in the first table of the path";
}

/// The spec of a named option.
pub fn spec(name: &str) -> Option<&'static libro_core::options::OptionSpec> {
    SPECS.iter().find(|s| s.name == name)
}

#[cfg(test)]
mod tests {
    use super::*;
    use libro_core::options::{OptionError, RuleOptions, Sources};

    #[test]
    fn defaults_are_backgammon_s_and_only_bear_off_is_always_listed() {
        let o = Options::default();
        assert_eq!(
            (o.bear_off, o.doubles, o.unplayable, o.entry),
            (
                BearOff::Standard,
                Doubles::Once,
                Unplayable::Lost,
                EntryPoint(24)
            )
        );
        let always: Vec<&str> = SPECS.iter().filter(|s| !s.quiet).map(|s| s.name).collect();
        assert_eq!(always, ["bear_off"]);
        assert_eq!(Options::default_text("entry"), "24");
    }

    #[test]
    fn entry_takes_the_points_7_to_24_only() {
        let mut o = Options::default();
        o.set("entry", "12").unwrap();
        assert_eq!(o.entry, EntryPoint(12));
        for bad in ["6", "25", "012", "twelve", ""] {
            let e = o.set("entry", bad).unwrap_err();
            assert!(
                matches!(&e, OptionError::BadValue { name: "entry", value, .. } if value == bad),
                "{bad}: {e}"
            );
        }
        assert_eq!(o.entry, EntryPoint(12), "a refused value changes nothing");
    }

    #[test]
    fn sources_list_quiet_options_once_set() {
        let mut o = Options::default();
        let mut sources = Sources::default();
        sources
            .set(&mut o, "doubles", "roll-again", "--option")
            .unwrap();
        let listed: Vec<&str> = sources
            .listing(&o, "default")
            .into_iter()
            .filter(|e| !e.spec.quiet || e.set)
            .map(|e| e.spec.name)
            .collect();
        assert_eq!(listed, ["bear_off", "doubles"]);
        assert!(matches!(
            sources.set(&mut o, "doubling", "on", "x"),
            Err(OptionError::Unknown { .. })
        ));
    }
}
