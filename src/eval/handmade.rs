//! Static evaluation v1: a hand-made estimate of the final disc difference for the side to move.
//! The learnt evaluation (`learned`) replaced it as the engine's; it stays a variant of the
//! `Evaluator` so that matches can measure the two against each other.
//!
//! Features: mobility, potential mobility (empty squares next to the opponent's discs), corners,
//! X- and C-squares next to an empty corner, stable discs, parity and the disc count. Each weight
//! moves linearly from an opening value (60 empties) to an endgame value (0 empties).

use crate::rules::board::Board;
use crate::rules::masks::{neighbours, CORNERS};
use crate::rules::movegen;
use crate::rules::stability::stable_discs;

/// Each corner with its X-square (diagonal neighbour) and C-squares (edge neighbours).
const CORNER_ZONES: [(u64, u64, u64); 4] = [
    (1 << 0, 1 << 9, (1 << 1) | (1 << 8)),
    (1 << 7, 1 << 14, (1 << 6) | (1 << 15)),
    (1 << 56, 1 << 49, (1 << 57) | (1 << 48)),
    (1 << 63, 1 << 54, (1 << 62) | (1 << 55)),
];

/// The weights are in 1/16 disc so that small features still count after rounding to discs.
const UNIT: i32 = 16;

/// (opening, endgame) weight of each feature, in 1/16 disc per unit of the feature.
struct Weight(i32, i32);

const MOBILITY: Weight = Weight(40, 20);
const POTENTIAL_MOBILITY: Weight = Weight(14, 6);
const CORNER: Weight = Weight(150, 100);
const X_SQUARE: Weight = Weight(-90, -30);
const C_SQUARE: Weight = Weight(-36, -12);
const STABLE: Weight = Weight(28, 24);
const PARITY: Weight = Weight(0, 40);
const DISCS: Weight = Weight(-3, 14);

impl Weight {
    /// The weight at `empties` empty squares.
    #[inline(always)]
    const fn at(&self, empties: i32) -> i32 {
        (self.0 * empties + self.1 * (60 - empties)) / 60
    }
}

/// An estimate of the final disc difference for the side to move, in -64..=64.
pub fn evaluate(board: &Board) -> i32 {
    evaluate_with_moves(board, board.moves())
}

/// [`evaluate`] when the caller already has the legal moves of the side to move (the search does).
#[inline]
pub fn evaluate_with_moves(board: &Board, moves: u64) -> i32 {
    let (p, o) = (board.player, board.opponent);
    let empty = !(p | o);
    let n = (empty.count_ones() as i32).min(60);
    let diff = |f: fn(u64, u64) -> i32| f(p, o) - f(o, p);

    let mobility = moves.count_ones() as i32 - movegen::moves(o, p).count_ones() as i32;
    // Empty squares next to the opponent's discs are where the side to move may later play.
    let potential = (neighbours(o) & empty).count_ones() as i32 - (neighbours(p) & empty).count_ones() as i32;
    let corners = diff(|a, _| (a & CORNERS).count_ones() as i32);
    let (mut x_squares, mut c_squares) = (0, 0);
    for &(corner, x, c) in &CORNER_ZONES {
        if empty & corner != 0 {
            x_squares += (p & x).count_ones() as i32 - (o & x).count_ones() as i32;
            c_squares += (p & c).count_ones() as i32 - (o & c).count_ones() as i32;
        }
    }
    let stable = if (p | o) & CORNERS != 0 { diff(|a, b| stable_discs(a, b).count_ones() as i32) } else { 0 };
    // With an odd number of empties the side to move should get the last move.
    let parity = if n % 2 == 1 { 1 } else { -1 };
    let discs = diff(|a, _| a.count_ones() as i32);

    let sum = MOBILITY.at(n) * mobility
        + POTENTIAL_MOBILITY.at(n) * potential
        + CORNER.at(n) * corners
        + X_SQUARE.at(n) * x_squares
        + C_SQUARE.at(n) * c_squares
        + STABLE.at(n) * stable
        + PARITY.at(n) * parity
        + DISCS.at(n) * discs;
    (sum.div_euclid(UNIT) + i32::from(sum.rem_euclid(UNIT) * 2 >= UNIT)).clamp(-64, 64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn symmetric_and_bounded() {
        let b = Board::START;
        assert_eq!(evaluate(&b), -evaluate(&b.pass()));
        let corner = Board::new(0x81 | (1 << 27), 1 << 28);
        assert!(evaluate(&corner) > 0);
        assert!((-64..=64).contains(&evaluate(&corner)));
    }
}
