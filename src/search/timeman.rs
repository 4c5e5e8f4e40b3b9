//! Time management: turns `go time` and the game-clock form into two deadlines. The soft one says
//! whether to start another iteration; the hard one aborts a running iteration.

use std::time::{Duration, Instant};

/// Kept back from a game clock for the protocol round trip and process scheduling.
const CLOCK_RESERVE_MAX: Duration = Duration::from_millis(50);
/// Moves assumed left for the side to move when the clock has no moves-to-go: about half the
/// empties, but the last dozen moves are solved fast, so they count for little.
const MIN_MOVES_LEFT: u32 = 4;
/// How much longer than the last iteration the next one is assumed to take when there is no
/// ratio to measure yet.
pub const DEFAULT_GROWTH: f64 = 3.0;

/// The deadlines of one search.
#[derive(Clone, Copy, Debug)]
pub struct Deadlines {
    /// When the search started.
    pub start: Instant,
    /// Do not start an iteration expected to end after this.
    pub soft: Instant,
    /// Abort the search at this instant.
    pub hard: Instant,
    /// Whether time not spent now is kept for later moves (a game clock): then an iteration is
    /// started only when it is predicted to end in time. Otherwise (`go time`) every iteration that
    /// can start before the deadline does, and one cut short still gives a move it proved better.
    pub saves: bool,
}

/// Kept back from a `go time` budget: the clock is polled every [`crate::search::POLL_INTERVAL`]
/// nodes (a fraction of a millisecond), but on a loaded machine the thread can lose the processor
/// for a few milliseconds around the deadline (measured: up to 5.3 ms over without a margin).
pub const MOVE_TIME_MARGIN_MAX: Duration = Duration::from_millis(3);

/// Deadlines for `go time`: the budget less a margin of up to an eighth of it.
pub fn move_time(start: Instant, budget: Duration) -> Deadlines {
    let end = start + budget - (budget / 8).min(MOVE_TIME_MARGIN_MAX);
    Deadlines { start, soft: end, hard: end, saves: false }
}

/// Deadlines for a game clock: an even share of the time left over the moves left, plus most of
/// the increment; the hard limit allows overrunning that share when an iteration runs long, but
/// never more than a third of the usable time, so the clock is never run out.
pub fn clock(
    start: Instant,
    time_left: Duration,
    increment: Duration,
    moves_to_go: Option<u32>,
    empties: u32,
) -> Deadlines {
    let reserve = (time_left / 10).min(CLOCK_RESERVE_MAX);
    let usable = time_left.saturating_sub(reserve);
    let moves_left = match moves_to_go {
        Some(n) => n.max(1),
        None => (empties.saturating_sub(10) / 2).max(MIN_MOVES_LEFT),
    };
    let share = (usable / moves_left + increment * 3 / 4).min(usable);
    let cap = if moves_left == 1 { usable } else { usable / 3 };
    let hard = (share * 3).min(cap);
    Deadlines { start, soft: start + share.min(hard), hard: start + hard, saves: true }
}

/// How much of its share a game-clock search spends, from what its iterations say: more while the
/// best move changes or the score falls, less while one move holds (Stockfish and Edax adjust
/// their time the same way).
#[derive(Clone, Copy, Debug)]
pub struct Pace {
    scale: f64,
    last: Option<(u8, i32)>,
}

/// The bounds of [`Pace`]'s scale of the soft deadline.
const PACE_MIN: f64 = 0.6;
const PACE_MAX: f64 = 2.0;
/// Iterations before this depth say too little to change the pace.
const PACE_MIN_DEPTH: u32 = 5;

impl Pace {
    pub fn new() -> Pace {
        Pace { scale: 1.0, last: None }
    }

    /// Takes the best move and score of an iteration just completed.
    pub fn update(&mut self, depth: u32, best: u8, score: i32) {
        if let Some((last_best, last_score)) = self.last.filter(|_| depth >= PACE_MIN_DEPTH) {
            self.scale = if best != last_best {
                self.scale.max(1.0) * 1.5
            } else if score <= last_score - 3 {
                self.scale.max(1.3)
            } else {
                self.scale * 0.9
            }
            .clamp(PACE_MIN, PACE_MAX);
        }
        self.last = Some((best, score));
    }

    /// The deadlines with the soft one moved by the pace (never past the hard one); a budget that
    /// does not carry over (`go time`) is spent whole anyway.
    pub fn apply(&self, d: &Deadlines) -> Deadlines {
        if !d.saves {
            return *d;
        }
        let soft = d.start + (d.soft - d.start).mul_f64(self.scale);
        Deadlines { soft: soft.min(d.hard), ..*d }
    }
}

impl Default for Pace {
    fn default() -> Pace {
        Pace::new()
    }
}

/// Whether to start the next iteration, given when the last one ended, how long it took and how
/// fast iterations have been growing.
pub fn start_next(deadlines: &Deadlines, now: Instant, last_iteration: Duration, growth: f64) -> bool {
    if !deadlines.saves {
        return now < deadlines.soft;
    }
    let predicted = last_iteration.mul_f64(growth.clamp(1.5, 8.0));
    now + predicted <= deadlines.hard && now < deadlines.soft
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clock_never_spends_more_than_usable() {
        let start = Instant::now();
        for ms in [1u64, 10, 100, 1000, 60_000] {
            for mtg in [None, Some(1), Some(2), Some(40)] {
                for inc in [0u64, 10, 1000] {
                    let left = Duration::from_millis(ms);
                    let d = clock(start, left, Duration::from_millis(inc), mtg, 40);
                    assert!(d.hard <= start + left, "{ms} {mtg:?} {inc}");
                    assert!(d.soft <= d.hard);
                }
            }
        }
    }

    #[test]
    fn the_pace_spends_more_when_the_best_move_changes() {
        let start = Instant::now();
        let d = clock(start, Duration::from_secs(60), Duration::ZERO, None, 40);
        let mut steady = Pace::new();
        let mut unsure = Pace::new();
        for depth in 1..12 {
            steady.update(depth, 19, 2);
            unsure.update(depth, 19 + (depth % 2) as u8, 2);
        }
        let (steady, unsure) = (steady.apply(&d), unsure.apply(&d));
        assert!(steady.soft < d.soft && d.soft < unsure.soft && unsure.soft <= d.hard);
        let fixed = move_time(start, Duration::from_millis(100));
        assert_eq!(Pace::new().apply(&fixed).soft, fixed.soft);
    }

    #[test]
    fn clock_share_grows_with_time() {
        let start = Instant::now();
        let a = clock(start, Duration::from_secs(10), Duration::ZERO, None, 40);
        let b = clock(start, Duration::from_secs(100), Duration::ZERO, None, 40);
        assert!(b.soft > a.soft);
    }
}
