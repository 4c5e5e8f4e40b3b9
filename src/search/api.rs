//! The search API every front end drives: limits in, `Info` lines out through an observer that is
//! also polled for `stop`, a result with the best move and why the search stopped. Plain types only,
//! so that both the midgame search and the endgame solver below it can use them.

use crate::rules::board::Move;
use std::time::Duration;

/// How long to think. One of these per `go`.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Limits {
    /// Search to this many plies (exactly, when the empties are at most this many).
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
    pub nodes: u64,
    pub elapsed: Duration,
    pub pv: Vec<Move>,
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
    /// Depth of the last completed iteration.
    pub depth: u32,
    pub nodes: u64,
    pub elapsed: Duration,
    pub pv: Vec<Move>,
    /// Why the search ended.
    pub stop: StopReason,
}
