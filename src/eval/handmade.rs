//! Static evaluation v1: a hand-made estimate of the final disc difference for the side to move.
//! Every caller goes through [`evaluate`], so a learned pattern evaluation can replace this one
//! without touching the search.
//!
//! Features: mobility, potential mobility (empty squares next to the opponent's discs), corners,
//! X- and C-squares next to an empty corner, stable discs, parity and the disc count. Each weight
//! moves linearly from an opening value (60 empties) to an endgame value (0 empties).

use crate::rules::board::Board;
use crate::rules::masks::{CORNERS, EDGES, FILE_A, FILE_H, RANK_1, RANK_8};
use crate::rules::movegen;

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

/// The squares next to a disc of `x` in any of the eight directions.
#[inline(always)]
fn neighbours(x: u64) -> u64 {
    let h = ((x << 1) & !FILE_A) | ((x >> 1) & !FILE_H);
    let row = x | h;
    h | (row << 8) | (row >> 8)
}

/// Squares of the lines that are full in each direction: (horizontal, vertical, a1-h8 diagonals,
/// h1-a8 diagonals).
fn full_lines(occupied: u64) -> (u64, u64, u64, u64) {
    let mut h = 0;
    for r in 0..8 {
        if (occupied >> (8 * r)) & 0xFF == 0xFF {
            h |= 0xFF << (8 * r);
        }
    }
    let mut col = occupied;
    col &= col >> 32;
    col &= col >> 16;
    col &= col >> 8;
    let v = (col & 0xFF).wrapping_mul(FILE_A);
    let (mut d9, mut d7) = (0, 0);
    for line in DIAGONALS_9.iter() {
        if occupied & line == *line {
            d9 |= line;
        }
    }
    for line in DIAGONALS_7.iter() {
        if occupied & line == *line {
            d7 |= line;
        }
    }
    (h, v, d9, d7)
}

/// The discs of `p` that can never be flipped: along each of the four axes the line is full or a
/// neighbour on that axis is the board's edge or a stable disc of `p`. Iterated to a fixed point.
pub fn stable_discs(p: u64, o: u64) -> u64 {
    let (fh, fv, fd9, fd7) = full_lines(p | o);
    let base_h = fh | FILE_A | FILE_H;
    let base_v = fv | RANK_1 | RANK_8;
    let base_d9 = fd9 | EDGES;
    let base_d7 = fd7 | EDGES;
    let mut stable = 0u64;
    loop {
        let h = base_h | ((stable << 1) & !FILE_A) | ((stable >> 1) & !FILE_H);
        let v = base_v | (stable << 8) | (stable >> 8);
        let d9 = base_d9 | ((stable << 9) & !FILE_A) | ((stable >> 9) & !FILE_H);
        let d7 = base_d7 | ((stable << 7) & !FILE_H) | ((stable >> 7) & !FILE_A);
        let next = p & h & v & d9 & d7;
        if next == stable {
            return stable;
        }
        stable = next;
    }
}

/// The a1-h8 diagonals (step +9) of at least two squares.
static DIAGONALS_9: [u64; 13] = diagonals(9);
/// The h1-a8 diagonals (step +7) of at least two squares.
static DIAGONALS_7: [u64; 13] = diagonals(7);

const fn diagonals(step: i32) -> [u64; 13] {
    let mut out = [0u64; 13];
    let mut i = 0;
    // Start squares: along rank 1 and down the first file of the direction.
    let mut start = 0;
    while start < 15 {
        let (mut file, mut rank) = if start < 8 { (start, 0) } else { (if step == 9 { 0 } else { 7 }, start - 7) };
        if step == 7 && start < 8 {
            file = 7 - start;
        }
        let df = if step == 9 { 1 } else { -1 };
        let mut mask = 0u64;
        while file >= 0 && file < 8 && rank < 8 {
            mask |= 1 << (rank * 8 + file);
            file += df;
            rank += 1;
        }
        if mask.count_ones() >= 2 {
            out[i] = mask;
            i += 1;
        }
        start += 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn diagonals_cover_the_board_but_the_two_single_corners() {
        let all9 = DIAGONALS_9.iter().fold(0, |a, d| a | d);
        let all7 = DIAGONALS_7.iter().fold(0, |a, d| a | d);
        assert_eq!(all9, !((1u64 << 7) | (1u64 << 56)));
        assert_eq!(all7, !((1u64 << 0) | (1u64 << 63)));
        assert_eq!(DIAGONALS_9.iter().map(|d| d.count_ones()).sum::<u32>(), 62);
        assert!(DIAGONALS_9.contains(&0x8040_2010_0804_0201));
        assert!(DIAGONALS_7.contains(&0x0102_0408_1020_4080));
    }

    #[test]
    fn stable_discs_from_a_corner() {
        // Black holds a1, b1, a2; nothing else near: all three are stable, a lone centre disc is not.
        let p = 1 | (1 << 1) | (1 << 8) | (1 << 27);
        let o = 1 << 36;
        assert_eq!(stable_discs(p, o), 1 | (1 << 1) | (1 << 8));
        assert_eq!(stable_discs(o, p), 0);
    }

    #[test]
    fn full_board_is_all_stable() {
        let p = 0x0F0F_0F0F_0F0F_0F0F;
        assert_eq!(stable_discs(p, !p), p);
    }

    #[test]
    fn symmetric_and_bounded() {
        let b = Board::START;
        assert_eq!(evaluate(&b), -evaluate(&b.pass()));
        let corner = Board::new(0x81 | (1 << 27), 1 << 28);
        assert!(evaluate(&corner) > 0);
        assert!((-64..=64).contains(&evaluate(&corner)));
    }
}
