//! How long a search may run: fixed limits (depth, nodes, time per move), a game clock with
//! its time budget, and a stop flag, all checked through one [`Stopper`].

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The fixed budget of one search, as a player is defined (`ai:nodes=100000`) or as UCI's
/// `go depth` / `go nodes` / `go movetime` give it. `None` everywhere searches until
/// stopped (UCI `go infinite`) or until the depth cap.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// Deepest iteration, in plies of moves (chance events do not count).
    pub depth: Option<u32>,
    /// Most positions visited; the search never visits more.
    pub nodes: Option<u64>,
    /// Time for this move.
    pub movetime: Option<Duration>,
    /// Stop once a win in at most this many moves of the side to move is found (UCI's
    /// `go mate N`); without one the search runs on to its other limits.
    pub mate: Option<u32>,
}

/// The clock of the seat to move, as UCI's `wtime`/`btime`, `winc`/`binc` and `movestogo`
/// give it: the search budgets its own time from it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Clock {
    /// Time left on the clock.
    pub remaining: Duration,
    /// Time added after each move.
    pub increment: Duration,
    /// Moves until the next time control, if the control has one.
    pub moves_to_go: Option<u32>,
}

/// Time reserved for everything outside the search (move transmission, drawing the board).
pub const CLOCK_OVERHEAD: Duration = Duration::from_millis(30);

/// How a search spends its time on one move.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct TimeBudget {
    /// No new iteration is started after this much time.
    pub soft: Duration,
    /// The search is abandoned at this point, mid-iteration if need be.
    pub hard: Duration,
}

impl Clock {
    /// The budget for this move: an even share of the time left over the moves to go
    /// (30 when the control does not say) plus three quarters of the increment; the search
    /// may run on to four times that when an iteration is under way, never past 80% of
    /// what is left.
    pub fn budget(&self) -> TimeBudget {
        let left = self.remaining.saturating_sub(CLOCK_OVERHEAD);
        let moves = self.moves_to_go.unwrap_or(30).clamp(1, 50);
        let cap = left * 4 / 5;
        let base = left / moves + self.increment * 3 / 4;
        TimeBudget {
            soft: base.min(cap),
            hard: (base * 4).min(cap),
        }
    }
}

/// What the caller controls while a search runs: a flag to stop it (UCI `stop`) and the
/// clock, if the game is played on one.
#[derive(Clone, Debug, Default)]
pub struct Control {
    /// Set from another thread to end the search; it then answers with its best so far.
    pub stop: Option<Arc<AtomicBool>>,
    /// The clock of the seat to move.
    pub clock: Option<Clock>,
}

impl Control {
    /// A control with a stop flag.
    pub fn with_stop(stop: Arc<AtomicBool>) -> Self {
        Control {
            stop: Some(stop),
            clock: None,
        }
    }
}

/// Decides when a running search must end: counts nodes and watches the limits, the
/// deadline and the stop flag. Once it says stop it keeps saying so.
pub(crate) struct Stopper {
    start: Instant,
    max_nodes: u64,
    soft: Option<Duration>,
    hard: Option<Duration>,
    stop: Option<Arc<AtomicBool>>,
    /// [`Limits::mate`]: the deepening stops at a win this near.
    pub mate: Option<u32>,
    pub nodes: u64,
    pub stopped: bool,
}

/// How many nodes pass between two looks at the clock (a power of two).
const CLOCK_CHECK_INTERVAL: u64 = 1024;

impl Stopper {
    pub fn new(limits: &Limits, control: &Control) -> Self {
        let mut soft = limits.movetime;
        let mut hard = limits.movetime;
        if let Some(clock) = control.clock {
            let b = clock.budget();
            soft = Some(soft.map_or(b.soft, |s| s.min(b.soft)));
            hard = Some(hard.map_or(b.hard, |h| h.min(b.hard)));
        }
        Stopper {
            start: Instant::now(),
            max_nodes: limits.nodes.unwrap_or(u64::MAX),
            soft,
            hard,
            stop: control.stop.clone(),
            mate: limits.mate,
            nodes: 0,
            stopped: false,
        }
    }

    /// Called on entering a node: counts it, or says the search must end (then the node
    /// is not counted, so `nodes` never exceeds the node limit).
    #[inline]
    pub fn enter(&mut self) -> bool {
        if self.stopped {
            return false;
        }
        if self.nodes >= self.max_nodes
            || self
                .stop
                .as_ref()
                .is_some_and(|s| s.load(Ordering::Relaxed))
        {
            self.stopped = true;
            return false;
        }
        if self.nodes & (CLOCK_CHECK_INTERVAL - 1) == 0 && self.nodes > 0 {
            if let Some(hard) = self.hard {
                if self.start.elapsed() >= hard {
                    self.stopped = true;
                    return false;
                }
            }
        }
        self.nodes += 1;
        true
    }

    /// Whether another iteration may start: the stop flag is down, nodes remain, and the
    /// soft time limit has not passed.
    pub fn may_deepen(&mut self) -> bool {
        if self.stopped || self.nodes >= self.max_nodes {
            return false;
        }
        if self
            .stop
            .as_ref()
            .is_some_and(|s| s.load(Ordering::Relaxed))
        {
            self.stopped = true;
            return false;
        }
        match self.soft {
            Some(soft) => self.start.elapsed() < soft,
            None => true,
        }
    }

    /// Time since the search began.
    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(v: u64) -> Duration {
        Duration::from_millis(v)
    }

    #[test]
    fn clock_budget_shares_the_time_left() {
        // 60 s left, no increment, no moves-to-go: (60000-30)/30 = 1999 ms, hard 4x.
        let b = Clock {
            remaining: ms(60_000),
            increment: ms(0),
            moves_to_go: None,
        }
        .budget();
        assert_eq!(b.soft, ms(1999));
        assert_eq!(b.hard, ms(7996));
        // 10 s + 1 s increment, 20 moves to go: 9970/20 + 750 = 498.5 + 750 ms.
        let b = Clock {
            remaining: ms(10_000),
            increment: ms(1000),
            moves_to_go: Some(20),
        }
        .budget();
        assert_eq!(b.soft, Duration::from_micros(1_248_500));
        assert_eq!(b.hard, Duration::from_micros(4_994_000));
        // The last move before the control: everything, but never past 80% of what is left.
        let b = Clock {
            remaining: ms(1030),
            increment: ms(0),
            moves_to_go: Some(1),
        }
        .budget();
        assert_eq!(b.soft, ms(800));
        assert_eq!(b.hard, ms(800));
        // Less time than the overhead: nothing to spend.
        let b = Clock {
            remaining: ms(10),
            increment: ms(0),
            moves_to_go: None,
        }
        .budget();
        assert_eq!(b.hard, ms(0));
    }

    #[test]
    fn node_limit_is_never_exceeded() {
        let limits = Limits {
            nodes: Some(5),
            ..Limits::default()
        };
        let mut s = Stopper::new(&limits, &Control::default());
        let entered = (0..10).filter(|_| s.enter()).count();
        assert_eq!(entered, 5);
        assert_eq!(s.nodes, 5);
        assert!(!s.may_deepen());
    }

    #[test]
    fn stop_flag_ends_the_search() {
        let flag = Arc::new(AtomicBool::new(false));
        let mut s = Stopper::new(&Limits::default(), &Control::with_stop(flag.clone()));
        assert!(s.enter());
        assert!(s.may_deepen());
        flag.store(true, Ordering::Relaxed);
        assert!(!s.enter());
        assert!(s.stopped);
        assert!(!s.may_deepen());
    }
}
