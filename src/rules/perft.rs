//! Perft: the number of move sequences of a given length, the standard check of a move generator.
//!
//! Convention (OEIS A124004, `perft.txt`): a forced pass is a ply of its own; a position where
//! neither side can move is one leaf wherever it is reached, whatever depth is left.

use crate::cpu::Isa;
use crate::rules::board::Board;
use crate::rules::square::Squares;

/// Counts the leaves `depth` plies below `board`.
pub fn perft(board: &Board, depth: u32) -> u64 {
    crate::dispatch!(I => perft_at::<I>(board, depth))
}

/// [`perft`] at the instruction-set level `I` (`crate::cpu`).
fn perft_at<I: Isa>(board: &Board, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => leaves_1(board),
        _ => perft_inner::<I>(board, depth),
    }
}

/// Depth 1, counted in bulk: the moves, or one pass (or game-over leaf) when there is none.
#[inline(always)]
fn leaves_1(board: &Board) -> u64 {
    (board.moves().count_ones() as u64).max(1)
}

#[inline(always)]
fn perft_inner<I: Isa>(board: &Board, depth: u32) -> u64 {
    I::run(
        #[inline(always)]
        move || perft_node::<I>(board, depth),
    )
}

#[inline(always)]
fn perft_node<I: Isa>(board: &Board, depth: u32) -> u64 {
    let moves = board.moves();
    if moves == 0 {
        let passed = board.pass();
        return if passed.moves() == 0 { 1 } else { perft_at::<I>(&passed, depth - 1) };
    }
    if depth == 2 {
        return Squares(moves).map(|sq| leaves_1(&board.play_at::<I>(sq))).sum();
    }
    Squares(moves).map(|sq| perft_inner::<I>(&board.play_at::<I>(sq), depth - 1)).sum()
}

/// The leaves under each legal move (a single `None` entry for a forced pass).
pub fn divide(board: &Board, depth: u32) -> Vec<(Option<crate::rules::square::Square>, u64)> {
    if depth == 0 {
        return Vec::new();
    }
    let moves = board.moves();
    if moves == 0 {
        return if board.pass().moves() == 0 { Vec::new() } else { vec![(None, perft(&board.pass(), depth - 1))] };
    }
    Squares(moves).map(|sq| (Some(sq), perft(&board.play(sq), depth - 1))).collect()
}
