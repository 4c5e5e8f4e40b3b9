//! The search API every front end drives: limits in, `Info` lines out through an observer that is
//! also polled for `stop`, a result with the best move and why the search stopped. Plain types only,
//! so that both the midgame search and the endgame solver below it can use them.

use super::probcut::Selectivity;
use crate::rules::board::Move;
use std::time::Duration;

/// How long to think. One of these per `go`.
/// From how many empties `go depth N` hands over to the solver instead of searching N plies: 12 at
/// depth 1, 17 at depth 8, 20 at 12, 22 at 16, 25 at 20 (one more for about every 1.5 plies), at
/// most 26, and N itself when N is more. The endgame search is far cheaper per empty than the
/// midgame's per ply, so a level that stopped at N plies would throw away discs in every endgame.
/// From here to [`exact_empties`] the solver proves only who wins (a win/loss/draw solve), as
/// ntest's depth N does from the same number of empties.
pub const fn solve_empties(depth: u32) -> u32 {
    let level = (1500 + 68 * (depth as i64 - 6)).div_euclid(100) + 1;
    let level = if level > MAX_LEVEL_SOLVE { MAX_LEVEL_SOLVE } else { level };
    if depth as i64 > level {
        depth
    } else {
        level as u32
    }
}

/// From how many empties `go depth N` solves the game exactly: [`WLD_SPAN`] fewer than
/// [`solve_empties`] (13 at depth 8, 16 at 12, 18 at 16), or N itself when N is more, where the
/// midgame search reaches the end anyway.
pub const fn exact_empties(depth: u32) -> u32 {
    let level = solve_empties(depth);
    if depth >= level {
        level
    } else {
        level - WLD_SPAN
    }
}

/// Empties solved win/loss/draw only before the exact solve under a depth limit. A win/loss/draw
/// solve costs a fraction of the exact one: ebony's bench positions to depth 12 take 0.48 s instead
/// of 0.66 s, and depth-8 games a move 1.3 ms instead of 1.5 ms, every game's outcome the same
/// (docs/research-log.md, "Win/loss/draw solves").
pub const WLD_SPAN: u32 = 4;

/// The most empties a `go depth` search solves before its depth reaches the end: about 10 s here.
const MAX_LEVEL_SOLVE: i64 = 26;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Limits {
    /// Search this many plies in the midgame, solve win/loss/draw from [`solve_empties`] of this
    /// depth on and exactly from [`exact_empties`] (a level, as other engines' depths are).
    Depth(u32),
    /// Stop after about this many nodes.
    Nodes(u64),
    /// Think at most this long on this move.
    MoveTime(Duration),
    /// A game clock: the time left for the side to move, the increment per move, the moves to the
    /// next time control if any.
    Clock { time_left: Duration, increment: Duration, moves_to_go: Option<u32> },
    /// Until the observer says stop.
    Infinite,
}

/// Progress of a search, sent to the observer after each completed iteration.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Info {
    pub depth: u32,
    /// Disc difference for the side to move.
    pub score: i32,
    /// The score is the exact final disc difference with perfect play.
    pub exact: bool,
    /// Who wins with perfect play, when the solver proved it but not the exact score (then `score`
    /// is an estimate on the proven side of 0); `None` when exact or not proven.
    pub outcome: Option<Outcome>,
    /// How selective the search that gave the score was (`Selectivity::EXACT` when it cut nothing
    /// unsoundly; always so when `exact`).
    pub selectivity: Selectivity,
    pub nodes: u64,
    pub elapsed: Duration,
    pub pv: Vec<Move>,
}

/// The outcome of a win/loss/draw solve that is not a draw (a draw is an exact score of 0).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Outcome {
    Win,
    Loss,
}

impl Outcome {
    /// The outcome of a score proven to be at least 1 (a win) or at most -1 (a loss).
    pub fn of(score: i32) -> Option<Outcome> {
        match score {
            1.. => Some(Outcome::Win),
            0 => None,
            _ => Some(Outcome::Loss),
        }
    }

    /// The same outcome seen from the other side.
    pub fn flip(self) -> Outcome {
        match self {
            Outcome::Win => Outcome::Loss,
            Outcome::Loss => Outcome::Win,
        }
    }

    /// The word `info` lines give it.
    pub fn word(self) -> &'static str {
        match self {
            Outcome::Win => "win",
            Outcome::Loss => "loss",
        }
    }
}

/// The word every line that shows a score puts after it: `exact`, `win` or `loss` for what the solver
/// proved, nothing for an estimate.
pub fn proof_word(exact: bool, outcome: Option<Outcome>) -> Option<&'static str> {
    if exact {
        Some("exact")
    } else {
        outcome.map(Outcome::word)
    }
}

/// Why a search ended (Edax records it too: a GUI or a log can tell a full answer from a cut one).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum StopReason {
    /// The last iteration asked for (the depth limit, or the empties) was completed, not exactly.
    Depth,
    /// The score is exact: the solver finished, a search reached the end of the game, or the game
    /// was already over.
    Solved,
    /// The time limit: the hard deadline aborted the search, or the next iteration would not have
    /// finished in time.
    Time,
    /// The observer said stop (a `stop` command).
    Stopped,
    /// The node limit was reached.
    Nodes,
}

impl Info {
    pub fn nps(&self) -> u64 {
        let micros = self.elapsed.as_micros().max(1);
        (self.nodes as u128 * 1_000_000 / micros) as u64
    }
}

/// What the observer wants after a poll.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Control {
    Continue,
    Stop,
}

/// The caller's side of a search: polled every few thousand nodes, told of every iteration.
pub trait Observer {
    fn poll(&mut self) -> Control {
        Control::Continue
    }
    fn info(&mut self, _info: &Info) {}
}

/// An observer that never stops a search and ignores its progress.
pub struct Silent;

impl Observer for Silent {}

/// The answer of a search.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct SearchResult {
    /// The move to play: `Move::Pass` when the side to move has none (or the game is over).
    pub best: Move,
    pub score: i32,
    pub exact: bool,
    /// What the solver proved when not exact (see [`Info::outcome`]).
    pub outcome: Option<Outcome>,
    /// Depth of the last completed iteration.
    pub depth: u32,
    /// The selectivity of that iteration.
    pub selectivity: Selectivity,
    pub nodes: u64,
    pub elapsed: Duration,
    pub pv: Vec<Move>,
    /// Why the search ended.
    pub stop: StopReason,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_solve_who_wins_then_the_score_from_more_empties_as_the_depth_grows() {
        // (depth, win/loss/draw from, exact from)
        let levels = [
            (1, 12, 8),
            (8, 17, 13),
            (12, 20, 16),
            (16, 22, 18),
            (20, 25, 21),
            (24, 26, 22),
            (26, 26, 26),
            (30, 30, 30),
            (60, 60, 60),
        ];
        for (depth, wld, exact) in levels {
            assert_eq!((solve_empties(depth), exact_empties(depth)), (wld, exact), "depth {depth}");
        }
        for d in 1..60 {
            assert!(exact_empties(d) <= solve_empties(d));
            assert!(solve_empties(d + 1) >= solve_empties(d) && exact_empties(d + 1) >= exact_empties(d));
        }
    }
}
