//! Game clocks: each seat's time, worked out from the times the server stored with the
//! events (a move's `at`, a takeback's `at`), so that a replay after a restart gives the same
//! clocks. The clock starts with the first move (that move is free) and then runs for the
//! seat to move (for the seat to play, in dice games); a move adds the increment to its
//! seat's time. A restart does not stop it: the seat to move's deadline is its last event's
//! time plus its time left, so a seat whose deadline passed while the server was down loses
//! on time when the game is loaded. An imported game's clocks start afresh.

use crate::limits::{MAX_CLOCK_INCREMENT_S, MAX_CLOCK_INITIAL_S};
use crate::record::Event;
use libro_core::{Seat, Turn};
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

/// The time now, in Unix milliseconds.
pub fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_millis() as i64)
        .unwrap_or(0)
}

/// A time control: each seat's time at the start and the time added after each of its
/// moves, in seconds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ClockSpec {
    pub initial_s: u32,
    pub increment_s: u32,
}

impl ClockSpec {
    /// Checks the bounds ([`MAX_CLOCK_INITIAL_S`], [`MAX_CLOCK_INCREMENT_S`]): the one place
    /// a game's clock is checked, on creation, import and replay alike.
    pub fn check(&self) -> Result<(), String> {
        if self.initial_s == 0 || self.initial_s > MAX_CLOCK_INITIAL_S {
            return Err(format!(
                "initial_s must be from 1 to {MAX_CLOCK_INITIAL_S} seconds, not {}",
                self.initial_s
            ));
        }
        if self.increment_s > MAX_CLOCK_INCREMENT_S {
            return Err(format!(
                "increment_s must be from 0 to {MAX_CLOCK_INCREMENT_S} seconds, not {}",
                self.increment_s
            ));
        }
        Ok(())
    }
}

/// Each seat's time as the events so far leave it.
#[derive(Clone, Debug)]
pub struct Clock {
    pub spec: ClockSpec,
    /// Each seat's time left (ms) as of `since`; the seat to move's clock runs from then.
    pub left_ms: Vec<i64>,
    /// When the last timed event was stored (Unix ms); `None` before the first move, after
    /// an untimed one (an imported game's) and once the game is over.
    pub since: Option<i64>,
}

impl Clock {
    /// Full time for each of `seats`, not yet running.
    pub fn new(spec: ClockSpec, seats: usize) -> Clock {
        Clock {
            spec,
            left_ms: vec![i64::from(spec.initial_s) * 1000; seats],
            since: None,
        }
    }

    /// Takes an event just applied: `before` is whose turn it was, `after` whose it is now.
    /// A timed move or takeback charges the seat that was to move with the time since the
    /// last one (a move then earns the increment); a flag empties its seat's clock, and the
    /// next seat's runs from the flag's deadline.
    pub fn on_event(&mut self, before: Turn, ev: &Event, after: Turn) {
        let at = match ev {
            Event::Move { at, .. } | Event::Takeback { at, .. } => *at,
            // The flag fell at the deadline: from then the next seat's clock runs (a seat
            // out of time with more than two seats).
            Event::Flag { .. } => self.deadline(before).map(|(_, deadline)| deadline),
            Event::Roll { .. } => return,
            Event::Resign { .. } | Event::Agreement => None,
        };
        if let (Some(at), Some(since), Turn::Seat(s)) = (at, self.since, before) {
            if let Some(left) = self.left_ms.get_mut(s.index()) {
                *left -= (at - since).max(0);
                if matches!(ev, Event::Move { .. }) {
                    *left += i64::from(self.spec.increment_s) * 1000;
                }
            }
        }
        if let Event::Flag { seat } = ev {
            if let Some(left) = self.left_ms.get_mut(usize::from(*seat)) {
                *left = 0;
            }
        }
        self.since = if after == Turn::Over { None } else { at };
    }

    /// The seat whose clock runs when it is `turn`'s move, and its deadline (Unix ms).
    pub fn deadline(&self, turn: Turn) -> Option<(Seat, i64)> {
        match (turn, self.since) {
            (Turn::Seat(s), Some(since)) => Some((s, since + self.left_ms.get(s.index())?)),
            _ => None,
        }
    }

    /// Each seat's time left at `now` (Unix ms), never below 0.
    pub fn left_at(&self, turn: Turn, now: i64) -> Vec<i64> {
        let mut left = self.left_ms.clone();
        if let Some((s, deadline)) = self.deadline(turn) {
            left[s.index()] = deadline - now;
        }
        left.iter().map(|&l| l.max(0)).collect()
    }

    /// The clocks for the page: the time control, each seat's time left at `now` and whose
    /// clock runs (the page counts it down from there).
    pub fn view(&self, turn: Turn, now: i64) -> Value {
        json!({
            "initial_s": self.spec.initial_s,
            "increment_s": self.spec.increment_s,
            "left_ms": self.left_at(turn, now),
            "running": self.deadline(turn).map(|(s, _)| s.0),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mv(seat: u8, at: i64) -> Event {
        Event::Move {
            seat,
            text: "x".into(),
            at: Some(at),
        }
    }

    #[test]
    fn the_first_move_is_free_then_the_seat_to_move_is_charged_and_earns_the_increment() {
        let spec = ClockSpec {
            initial_s: 60,
            increment_s: 2,
        };
        let mut c = Clock::new(spec, 2);
        let (w, b) = (Turn::Seat(Seat(0)), Turn::Seat(Seat(1)));
        assert_eq!(c.deadline(w), None, "not running before the first move");
        c.on_event(w, &mv(0, 1_000), b);
        assert_eq!(c.left_ms, [60_000, 60_000]);
        assert_eq!(c.deadline(b), Some((Seat(1), 61_000)));
        assert_eq!(c.left_at(b, 11_000), [60_000, 50_000]);
        c.on_event(b, &mv(1, 6_000), w);
        assert_eq!(c.left_ms, [60_000, 57_000], "5 s spent, 2 s back");
        // A roll changes nothing: the seat to play's clock runs from the move.
        c.on_event(Turn::Chance, &Event::Roll { roll: "1-2".into() }, w);
        assert_eq!(c.deadline(w), Some((Seat(0), 66_000)));
        assert_eq!(c.left_at(w, 100_000), [0, 57_000], "never below 0");
        c.on_event(w, &Event::Flag { seat: 0 }, Turn::Over);
        assert_eq!((c.left_ms[0], c.deadline(Turn::Over)), (0, None));
    }

    #[test]
    fn a_takeback_charges_the_seat_that_was_to_move_and_an_untimed_move_stops_the_clock() {
        let spec = ClockSpec {
            initial_s: 10,
            increment_s: 0,
        };
        let mut c = Clock::new(spec, 2);
        let (w, b) = (Turn::Seat(Seat(0)), Turn::Seat(Seat(1)));
        c.on_event(w, &mv(0, 0), b);
        let tb = Event::Takeback {
            plies: 1,
            at: Some(3_000),
        };
        c.on_event(b, &tb, w);
        assert_eq!(c.left_ms, [10_000, 7_000]);
        assert_eq!(c.deadline(w), Some((Seat(0), 13_000)));
        let untimed = Event::Move {
            seat: 0,
            text: "x".into(),
            at: None,
        };
        c.on_event(w, &untimed, b);
        assert_eq!(c.deadline(b), None);
    }

    #[test]
    fn bounds_are_named() {
        let ok = ClockSpec {
            initial_s: MAX_CLOCK_INITIAL_S,
            increment_s: MAX_CLOCK_INCREMENT_S,
        };
        assert_eq!(ok.check(), Ok(()));
        let e = ClockSpec {
            initial_s: 0,
            increment_s: 0,
        }
        .check()
        .unwrap_err();
        assert!(e.contains("initial_s") && e.contains("not 0"), "{e}");
        let e = ClockSpec {
            increment_s: MAX_CLOCK_INCREMENT_S + 1,
            ..ok
        }
        .check()
        .unwrap_err();
        assert!(e.contains("increment_s"), "{e}");
    }
}
