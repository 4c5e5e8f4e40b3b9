//! The search API every front end drives: limits in, `Info` lines out through an observer that is
//! also polled for `stop`, a result with the best move. The engine core does no I/O.

use crate::board::{Board, Move};
use crate::eval;
use crate::square::Squares;
use std::time::{Duration, Instant};

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
}

/// Owns what survives between searches of one game (the transposition table, later).
pub struct Searcher {
    nodes: u64,
    stopped: bool,
    deadline: Option<Instant>,
    node_limit: Option<u64>,
}

impl Searcher {
    /// A searcher with a transposition table of about `hash_mb` megabytes.
    pub fn new(_hash_mb: usize) -> Searcher {
        Searcher { nodes: 0, stopped: false, deadline: None, node_limit: None }
    }

    /// Resizes the transposition table (clearing it).
    pub fn set_hash_mb(&mut self, _hash_mb: usize) {}

    /// Forgets everything learnt in the previous game.
    pub fn new_game(&mut self) {}

    /// Searches `board` within `limits`, reporting progress to `observer`.
    pub fn search(&mut self, board: &Board, limits: &Limits, observer: &mut dyn Observer) -> SearchResult {
        let start = Instant::now();
        self.nodes = 0;
        self.stopped = false;
        self.node_limit = None;
        self.deadline = None;
        let max_depth = match *limits {
            Limits::Depth(d) => d.max(1),
            Limits::Nodes(n) => {
                self.node_limit = Some(n);
                64
            }
            Limits::MoveTime(t) => {
                self.deadline = Some(start + t);
                64
            }
            Limits::Clock { time_left, increment, moves_to_go } => {
                let moves = moves_to_go.unwrap_or(30).max(1);
                self.deadline = Some(start + time_left / moves + increment / 2);
                64
            }
            Limits::Infinite => 64,
        };
        let moves = board.moves();
        let mut result = SearchResult {
            best: if moves == 0 { Move::Pass } else { Move::Play(crate::square::Square::first(moves)) },
            score: 0,
            exact: false,
            depth: 0,
            nodes: 0,
            elapsed: Duration::ZERO,
            pv: Vec::new(),
        };
        if moves == 0 {
            result.exact = board.is_game_over();
            result.score = if result.exact { board.final_score() } else { 0 };
            return result;
        }
        let empties = board.empty_count();
        for depth in 1..=max_depth {
            let mut best = (i32::MIN, result.best);
            for sq in Squares(moves) {
                let score = -self.negamax(&board.play(sq), depth - 1, -64, 64, observer);
                if self.stopped {
                    break;
                }
                if score > best.0 {
                    best = (score, Move::Play(sq));
                }
            }
            if self.stopped {
                break;
            }
            result.best = best.1;
            result.score = best.0;
            result.depth = depth;
            result.exact = depth >= empties;
            result.pv = vec![best.1];
            result.nodes = self.nodes;
            result.elapsed = start.elapsed();
            observer.info(&Info {
                depth,
                score: result.score,
                exact: result.exact,
                nodes: self.nodes,
                elapsed: result.elapsed,
                pv: result.pv.clone(),
            });
            if result.exact {
                break;
            }
        }
        result.nodes = self.nodes;
        result.elapsed = start.elapsed();
        result
    }

    fn negamax(&mut self, board: &Board, depth: u32, mut alpha: i32, beta: i32, observer: &mut dyn Observer) -> i32 {
        self.nodes += 1;
        if self.nodes.is_multiple_of(1024) {
            let late = self.deadline.is_some_and(|d| Instant::now() >= d);
            let over = self.node_limit.is_some_and(|n| self.nodes >= n);
            if late || over || observer.poll() == Control::Stop {
                self.stopped = true;
            }
        }
        if self.stopped {
            return 0;
        }
        let moves = board.moves();
        if moves == 0 {
            if board.pass().moves() == 0 {
                return board.final_score();
            }
            return -self.negamax(&board.pass(), depth, -beta, -alpha, observer);
        }
        if depth == 0 {
            return eval::evaluate(board);
        }
        let mut best = -65;
        for sq in Squares(moves) {
            let score = -self.negamax(&board.play(sq), depth - 1, -beta, -alpha, observer);
            best = best.max(score);
            alpha = alpha.max(score);
            if alpha >= beta {
                break;
            }
        }
        best
    }
}
