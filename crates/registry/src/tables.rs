//! The tables family in the registry: its rulesets described, its positions viewed as a
//! track of points, its turns given action ids and offered die by die.

use crate::family::{
    FamilyGame, FamilyRules, Geometry, OptionInfo, OptionKind, PieceInfo, RollPlays,
};
use crate::view::{BoardView, TrackView};
use libro_core::Game;
use libro_tables::{
    Ending, Phase, Play, TablesGame, TablesRules, TurnBuilder, BAR, MAX_DICE, MAX_PLAYS, OFF,
    POINTS,
};
use serde_json::{json, Value};

/// Step codes: 0 for no step, then one per (from, to) pair of own points 0 to 25.
const STEP_CODES: u64 = 26 * 26 + 1;

impl FamilyRules for TablesRules {
    type Played = TablesGame;
    const FAMILY: &'static str = "tables";

    fn title(&self) -> &str {
        TablesRules::title(self)
    }
    fn source(&self) -> &str {
        TablesRules::source(self)
    }
    fn options(&self) -> Vec<OptionInfo> {
        TablesRules::options(self)
            .iter()
            .map(|o| OptionInfo {
                name: o.name.to_string(),
                value: o.value.clone(),
                // Every listed option is one the family declares.
                kind: libro_tables::options::spec(o.name).map_or_else(
                    || OptionKind::Choice {
                        values: o.allowed.iter().map(|v| v.to_string()).collect(),
                    },
                    |spec| OptionKind::from(spec.kind),
                ),
                explanation: o.explanation.to_string(),
                source: o.source.clone(),
                multi_seat: false,
            })
            .collect()
    }
    fn pieces(&self) -> Vec<PieceInfo> {
        Vec::new()
    }
    fn geometry(&self) -> Geometry {
        Geometry::Track { points: POINTS }
    }
    fn canonical(&self) -> String {
        TablesRules::canonical(self)
    }
    fn num_distinct_actions(&self) -> u64 {
        STEP_CODES.pow(MAX_DICE as u32)
    }
    fn dice(&self) -> Option<(u8, u8)> {
        Some(TablesRules::dice(self))
    }
    /// The roll-off (one die each, ordered) or a roll, whichever has more outcomes.
    fn max_chance_outcomes(&self) -> usize {
        let sides = usize::from(TablesRules::dice(self).1);
        (sides * sides).max(self.rolls().len())
    }
    fn max_legal_actions(&self) -> Option<usize> {
        Some(MAX_PLAYS)
    }
}

impl FamilyGame for TablesGame {
    fn view(&self) -> BoardView {
        BoardView::Track(track_view(self))
    }
    /// A play's id: its steps, in the order played, as digits in base [`STEP_CODES`] (the
    /// first step lowest); the pass is 0.
    fn action(&self, play: Play) -> u64 {
        play.steps().enumerate().fold(0, |id, (i, step)| {
            let code = 1 + u64::from(step.from()) * 26 + u64::from(step.to());
            id + code * STEP_CODES.pow(i as u32)
        })
    }
    fn part_moves(&self) -> Option<Value> {
        let builder = TurnBuilder::new(self).ok()?;
        let mut budget = 20_000;
        Some(Value::Array(step_tree(&builder, self, &mut budget)))
    }
    fn roll_plays(&self, roll: Option<&str>) -> Result<Vec<RollPlays>, String> {
        // Before the roll-off nobody is on roll: analyse the position for the first seat.
        let reparsed;
        let game = if self.phase() == Phase::RollOff {
            reparsed = TablesGame::from_parts(
                self.rules().clone(),
                *self.board(),
                Phase::Roll(libro_core::Seat(0)),
            )
            .map_err(|e| e.to_string())?;
            &reparsed
        } else {
            self
        };
        let rules = game.rules();
        match roll {
            Some(text) => {
                let dice = rules
                    .parse_dice(text)
                    .map_err(|e| format!("reading the roll `{text}`: {e}"))?;
                let found = game.plays_for(dice).map_err(|e| e.to_string())?;
                let roll = rules
                    .rolls()
                    .iter()
                    .find(|r| r.outcome == found.dice)
                    .copied();
                Ok(vec![RollPlays {
                    roll: found.dice.to_string(),
                    weight: roll.map_or(0, |r| r.weight),
                    total: roll.map_or(0, |r| r.total),
                    plays: found.plays.iter().map(ToString::to_string).collect(),
                    falla: found.falla && rules.falla(),
                }])
            }
            None => rules
                .rolls()
                .iter()
                .map(|r| {
                    let found = game.plays_for(r.outcome).map_err(|e| e.to_string())?;
                    Ok(RollPlays {
                        roll: r.outcome.to_string(),
                        weight: r.weight,
                        total: r.total,
                        plays: found.plays.iter().map(ToString::to_string).collect(),
                        falla: found.falla && rules.falla(),
                    })
                })
                .collect(),
        }
    }
}

/// The track view of a tables position.
fn track_view(g: &TablesGame) -> TrackView {
    let r = g.rules();
    let b = g.board();
    let points_n = POINTS;
    let mut points = vec![None; usize::from(POINTS)];
    let mut map = Vec::new();
    let mut stacked = Vec::new();
    for seat in 0..2 {
        let mut own_to_board = vec![0u8; usize::from(points_n) + 2];
        for own in 1..=points_n {
            let bp = r.board_point(seat, own);
            own_to_board[usize::from(own)] = bp;
            let c = b.count(seat, own);
            if c > 0 && (1..=points_n).contains(&bp) {
                points[usize::from(bp) - 1] = Some([seat as u8, c]);
            }
            if b.stacked(seat) >> own & 1 == 1 {
                stacked.push(bp);
            }
        }
        own_to_board[usize::from(BAR)] = BAR;
        own_to_board[usize::from(OFF)] = OFF;
        map.push(own_to_board);
    }
    let (phase, seat, dice) = match g.phase() {
        Phase::RollOff => ("roll-off", None, vec![]),
        Phase::Roll(s) => ("roll", Some(s.0), vec![]),
        Phase::Move(s, d) => ("move", Some(s.0), d.values().to_vec()),
        Phase::Over(Ending::Falla { loser, dice }) => {
            ("falla", Some(loser.0), dice.values().to_vec())
        }
        Phase::Over(Ending::BoreOff { winner }) => ("bore-off", Some(winner.0), vec![]),
    };
    TrackView {
        position: g.to_string(),
        points,
        stacked,
        bar: [b.count(0, BAR), b.count(1, BAR)],
        off: [b.count(0, OFF), b.count(1, OFF)],
        checkers: r.checkers(),
        map,
        phase: phase.to_string(),
        seat,
        dice,
    }
}

/// The die-by-die steps of the seat to move, as a tree: each node a step (die, from, to on
/// the mover's own points, hit) with the steps that may follow it, and at a finished turn the
/// play's notation. A browser offers only what leads to a legal play.
fn step_tree(b: &TurnBuilder, game: &TablesGame, budget: &mut usize) -> Vec<Value> {
    let mut out = Vec::new();
    for ds in b.legal_steps() {
        if *budget == 0 {
            break;
        }
        *budget -= 1;
        let mut next = b.clone();
        if next.step(ds.die, ds.step.from()).is_err() {
            continue;
        }
        let play = next.play().map(|p| game.move_text(p));
        let children = if play.is_some() {
            Vec::new()
        } else {
            step_tree(&next, game, budget)
        };
        out.push(json!({
            "die": ds.die,
            "from": ds.step.from(),
            "to": ds.step.to(),
            "hit": ds.step.hit(),
            "play": play,
            "next": children,
        }));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use libro_core::{Ruleset, Turn};

    #[test]
    fn fallas_dice_and_chance_bounds_follow_from_three_six_sided_dice() {
        // Three dice of six sides: the unordered rolls are the multisets of size 3 from 6
        // faces, C(8, 3) = 56, more than the 6 x 6 = 36 ordered roll-off outcomes.
        let rules = crate::load("fallas", &[]).unwrap();
        assert_eq!(rules.dice(), Some((3, 6)));
        assert_eq!(rules.max_chance_outcomes(), 56);
        assert!(rules.max_legal_actions().is_some());
        let chess = crate::load("forcado", &[]).unwrap();
        assert_eq!(chess.dice(), None);
        assert_eq!(chess.max_chance_outcomes(), 0);
    }

    #[test]
    fn a_roll_played_in_part_is_no_falla_without_the_falla_rule() {
        // Doblet from the start: of 6-6-6 only one 6 lays down a pair (the one on point 6);
        // the other two cannot be played, which loses under the falla rule, and Doblet has
        // none: the roll is one play, no falla.
        let rules = crate::load("doblet", &[]).unwrap();
        let game = rules.new_game(0);
        let found = game.roll_plays(Some("6-6-6")).unwrap();
        assert_eq!(found[0].plays, ["6/down"]);
        assert!(!found[0].falla);
        assert!(game.roll_plays(None).unwrap().iter().all(|r| !r.falla));
    }

    #[test]
    fn action_ids_are_distinct_and_within_the_declared_range() {
        let rules = crate::load("fallas", &[]).unwrap();
        let tables = rules.downcast::<TablesRules>().unwrap();
        let limit = FamilyRules::num_distinct_actions(tables.as_ref());
        let mut game = tables.new_game(3);
        let mut seen_moves = 0;
        while seen_moves < 30 {
            match game.turn() {
                Turn::Chance => {
                    let roll = game.sample_chance();
                    game.apply_chance(roll);
                }
                Turn::Seat(_) => {
                    let mut list = <TablesGame as Game>::MoveList::default();
                    game.legal_moves(&mut list);
                    let ids: std::collections::HashSet<u64> =
                        list.as_slice().iter().map(|&m| game.action(m)).collect();
                    assert_eq!(ids.len(), list.as_slice().len(), "ids collide");
                    assert!(ids.iter().all(|&id| id < limit));
                    game.play(list.as_slice()[0]);
                    seen_moves += 1;
                }
                Turn::Over => break,
            }
        }
        assert!(seen_moves > 0);
    }
}
