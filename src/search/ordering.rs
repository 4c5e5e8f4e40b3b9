//! Move ordering: the moves of a node with their flips and a sort key, best first. The key puts the
//! transposition-table move first, then prefers moves that leave the opponent few replies
//! ("fastest first"), corners, and avoids X- and C-squares.
//!
//! Measured and dropped (nodes to depth 10 on the bench positions, `ebony bench --depth 10`):
//! a history table of cutoffs cost 12% more nodes; a shallow search at PV nodes without a table
//! move never ran (iterative deepening always leaves one).

use crate::rules::board::Board;
use crate::rules::square::Square;

/// Which ordering features are on: all by default; `ebony bench --without` turns them off one by
/// one to measure what each buys in nodes to depth.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Features {
    pub tt_move: bool,
    pub fastest_first: bool,
    pub square_values: bool,
}

impl Features {
    pub const ALL: Features = Features { tt_move: true, fastest_first: true, square_values: true };

    /// The names `--without` accepts.
    pub const NAMES: [&'static str; 3] = ["tt-move", "fastest-first", "square-values"];

    /// Turns off the feature of this name; false if the name is unknown.
    pub fn disable(&mut self, name: &str) -> bool {
        match name {
            "tt-move" => self.tt_move = false,
            "fastest-first" => self.fastest_first = false,
            "square-values" => self.square_values = false,
            _ => return false,
        }
        true
    }
}

impl Default for Features {
    fn default() -> Features {
        Features::ALL
    }
}

/// A static value per square: corners good, X-squares bad, C-squares poor, the rest by rough region.
#[rustfmt::skip]
const SQUARE_VALUE: [i32; 64] = [
    90, -20, 10,  5,  5, 10, -20,  90,
   -20, -40, -2, -2, -2, -2, -40, -20,
    10,  -2,  4,  1,  1,  4,  -2,  10,
     5,  -2,  1,  0,  0,  1,  -2,   5,
     5,  -2,  1,  0,  0,  1,  -2,   5,
    10,  -2,  4,  1,  1,  4,  -2,  10,
   -20, -40, -2, -2, -2, -2, -40, -20,
    90, -20, 10,  5,  5, 10, -20,  90,
];

/// Cost of each reply left to the opponent, against [`SQUARE_VALUE`].
const OPPONENT_MOBILITY_WEIGHT: i32 = 16;
/// Corner squares the opponent could take next: worse than one ordinary reply.
const OPPONENT_CORNER_WEIGHT: i32 = 24;
const CORNERS: u64 = 0x8100_0000_0000_0081;
const TT_MOVE_KEY: i32 = 1 << 30;

/// One move of a node.
#[derive(Clone, Copy, Debug)]
pub struct Scored {
    pub sq: Square,
    pub flips: u64,
    pub key: i32,
}

/// At most 33 moves are legal in any Othello position; 48 leaves room.
const CAPACITY: usize = 48;

/// The moves of one node with their sort keys; its iterator picks the best remaining.
pub struct MoveList {
    moves: [Scored; CAPACITY],
    len: usize,
    taken: usize,
}

impl MoveList {
    /// The moves `moves` of `board`, keyed for ordering. `tt_move` is a square index or 64.
    #[inline]
    pub fn new(board: &Board, moves: u64, tt_move: u8, features: &Features) -> MoveList {
        let mut list =
            MoveList { moves: [Scored { sq: Square::from_index(0), flips: 0, key: 0 }; CAPACITY], len: 0, taken: 0 };
        let mut rest = moves;
        while rest != 0 {
            let sq = Square::first(rest);
            rest &= rest - 1;
            let flips = board.flips(sq);
            let key = if features.tt_move && sq.index() as u8 == tt_move {
                TT_MOVE_KEY
            } else {
                let mut key = 0;
                if features.square_values {
                    key += SQUARE_VALUE[sq.index()];
                }
                if features.fastest_first {
                    let next = board.play_flips(sq, flips);
                    let replies = next.moves();
                    key -= OPPONENT_MOBILITY_WEIGHT * replies.count_ones() as i32
                        + OPPONENT_CORNER_WEIGHT * (replies & CORNERS).count_ones() as i32;
                }
                key
            };
            list.moves[list.len] = Scored { sq, flips, key };
            list.len += 1;
        }
        list
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

impl Iterator for MoveList {
    type Item = Scored;

    /// The best move not yet taken (selection sort: cutoffs usually come early).
    #[inline]
    fn next(&mut self) -> Option<Scored> {
        if self.taken >= self.len {
            return None;
        }
        let mut best = self.taken;
        for i in self.taken + 1..self.len {
            if self.moves[i].key > self.moves[best].key {
                best = i;
            }
        }
        self.moves.swap(self.taken, best);
        self.taken += 1;
        Some(self.moves[self.taken - 1])
    }
}
