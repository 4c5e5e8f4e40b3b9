//! Move ordering, for the midgame search and the endgame solver: the one fastest-first key with its
//! square prior, the one selection step, and the midgame's move list (the moves of a node with their
//! flips and a sort key, best first). The midgame key puts the transposition-table move first, then
//! orders the others by the same key as the solver: moves that leave the opponent few replies first
//! (corners counted twice), the square prior breaking ties; from depth 3 on, the children's learnt
//! evaluation joins the key.
//!
//! Measured and dropped (nodes to depth 10 on the bench positions, `ebony bench --depth 10`):
//! a history table of cutoffs cost 12% more nodes; a shallow search at PV nodes without a table
//! move never ran (iterative deepening always leaves one). With the learnt evaluation, the midgame's
//! own key (a square table worth up to 5.6 replies added to the replies) took 100.7M nodes to depth 12
//! where the solver's key takes 84.4M (8.45 s against 7.41 s). Measured with throwaway code, not
//! kept (`scripts/bench-midgame --depth 16`, iteration-3 weights): a depth-1 search of each child as
//! the key from depth 6, 8 or 10 on took 41.7M, 39.1M and 38.0M nodes to depth 16 (shallow searches
//! counted) against 37.7M with the static evaluation alone; enhanced transposition cutoffs (a probe
//! of every child before searching any) from depth 4, 6 or 8 saved 1% of the nodes and no time.

use crate::eval::learned::Children;
use crate::rules::board::Board;
use crate::rules::masks::{by_symmetry, CORNERS};
use crate::rules::movegen;
use crate::rules::square::Square;

/// Which ordering features are on: all by default; `ebony bench --without` turns them off one by
/// one to measure what each buys in nodes to depth.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Features {
    pub tt_move: bool,
    pub fastest_first: bool,
    pub square_values: bool,
    /// The children's learnt evaluation, in the midgame from [`EVAL_ORDER_DEPTH`] on.
    pub evaluation: bool,
}

impl Features {
    pub const ALL: Features = Features { tt_move: true, fastest_first: true, square_values: true, evaluation: true };

    /// The names `--without` accepts.
    pub const NAMES: [&'static str; 4] = ["tt-move", "fastest-first", "square-values", "evaluation"];

    /// Turns off the feature of this name; false if the name is unknown.
    pub fn disable(&mut self, name: &str) -> bool {
        match name {
            "tt-move" => self.tt_move = false,
            "fastest-first" => self.fastest_first = false,
            "square-values" => self.square_values = false,
            "evaluation" => self.evaluation = false,
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

/// The prior per square, for ordering ties only: corners first, X and C squares last (a1, b1, c1, d1,
/// b2, c2, d2, c3, d3, d4).
pub const SQUARE_PRIOR: [i32; 64] = by_symmetry([18, 4, 16, 12, 2, 6, 8, 14, 10, 0]);

/// Ordering weight of the fastest-first key: the opponent's mobility (corners counted twice) decides,
/// the square prior only breaks ties. Measured in the solver on FFO #24-#33 (nodes): a quadrant-parity
/// bonus of 1/4 mobility point costs +15%, the opponent's potential mobility as a tie-break +1.3%, the
/// square prior as 1/16 to 1/4 of a mobility point -1% to +27%, no square prior at all +55%.
pub const MOBILITY_WEIGHT: i32 = 1 << 12;

/// The ordering key of the opponent's `replies` after a move, corners counted twice (the fewer the
/// better).
#[inline(always)]
fn replies_key(replies: u64) -> i32 {
    -((replies.count_ones() + (replies & CORNERS).count_ones()) as i32) * MOBILITY_WEIGHT
}

/// The ordering key of the move to `sq` that leaves the opponent `np` to play against `no` (fastest
/// first): the fewer replies the better, corners counted twice; the square prior breaks ties.
#[inline(always)]
pub fn fastest_first_key(np: u64, no: u64, sq: usize) -> i32 {
    replies_key(movegen::moves(np, no)) + SQUARE_PRIOR[sq]
}

/// Moves the best-keyed of `list[i..]` to `i` and returns it: a selection sort run one step at a
/// time, as a cutoff usually comes after the first few moves. Ties go to the earlier move.
#[inline(always)]
pub fn select_next<T: Copy>(list: &mut [T], i: usize, key: impl Fn(&T) -> i32) -> T {
    let mut top = i;
    for j in i + 1..list.len() {
        if key(&list[j]) > key(&list[top]) {
            top = j;
        }
    }
    list.swap(i, top);
    list[i]
}

const TT_MOVE_KEY: i32 = 1 << 30;

/// From this depth on, the midgame orders a node's moves by its children's learnt evaluation too.
/// Nodes to depth 16 on the bench positions (`scripts/bench-midgame BINARY --depth 16 [--without
/// evaluation]`): with the shipped weights 36.0M, against 42.0M without it (13.0M against 13.3M to
/// depth 12). When it was chosen, with the iteration-3 weights: 37.8M against 44.7M; with a weight of
/// 64, 38.1M from depth 3 and 39.5M from depth 4, and to depth 14 34.0M from depth 2 against 30.2M
/// without it.
pub const EVAL_ORDER_DEPTH: u32 = 3;

/// Key points per 1/64 disc of a child's evaluation: 32 makes a disc half a reply. Nodes to depth 16
/// from depth 3 with 16, 32, 48, 64, 128: 38.3M, 37.7M, 38.6M, 38.1M, 39.8M.
const EVAL_ORDER_WEIGHT: i32 = 32;

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
    /// The moves `moves` of `board`, keyed for ordering. `tt_move` is a square index or 64. With
    /// `evaluation` (the midgame, at [`EVAL_ORDER_DEPTH`] or more: the board's children under the
    /// learnt weights), each child's learnt evaluation joins the key: the worse the child looks for
    /// the opponent, the earlier the move.
    #[inline(always)]
    pub fn new<I: crate::cpu::Isa>(
        board: &Board,
        moves: u64,
        tt_move: u8,
        features: &Features,
        evaluation: Option<Children>,
    ) -> MoveList {
        let mut list =
            MoveList { moves: [Scored { sq: Square::from_index(0), flips: 0, key: 0 }; CAPACITY], len: 0, taken: 0 };
        let mut rest = moves;
        while rest != 0 {
            let sq = Square::first(rest);
            rest &= rest - 1;
            let flips = board.flips_at::<I>(sq);
            let key = if features.tt_move && sq.index() as u8 == tt_move {
                TT_MOVE_KEY
            } else {
                let mut key = 0;
                if features.square_values {
                    key += SQUARE_PRIOR[sq.index()];
                }
                if features.fastest_first || evaluation.is_some() {
                    let next = board.play_flips(sq, flips);
                    let replies = movegen::moves(next.player, next.opponent);
                    if features.fastest_first {
                        key += replies_key(replies);
                    }
                    if let Some(children) = &evaluation {
                        key -=
                            children.score(sq.index(), flips, next.player, next.opponent, replies) * EVAL_ORDER_WEIGHT;
                    }
                }
                key
            };
            list.moves[list.len] = Scored { sq, flips, key };
            list.len += 1;
        }
        list
    }

    /// The moves not taken yet, in no particular order.
    pub fn pending(&self) -> &[Scored] {
        &self.moves[self.taken..self.len]
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
        let next = select_next(&mut self.moves[..self.len], self.taken, |m| m.key);
        self.taken += 1;
        Some(next)
    }
}
