//! The board's fixed square sets (files, ranks, edges, corners, X- and C-squares, quadrants) and the
//! one way square tables are written: by symmetry class, so that every table has the board's eight
//! symmetries by construction. Every other module takes its masks from here.

pub const FILE_A: u64 = 0x0101_0101_0101_0101;
pub const FILE_H: u64 = 0x8080_8080_8080_8080;
pub const RANK_1: u64 = 0x0000_0000_0000_00FF;
pub const RANK_8: u64 = 0xFF00_0000_0000_0000;
pub const EDGES: u64 = FILE_A | FILE_H | RANK_1 | RANK_8;
pub const CORNERS: u64 = 0x8100_0000_0000_0081;
/// The squares diagonally next to a corner.
pub const X_SQUARES: u64 = 0x0042_0000_0000_4200;
/// The edge squares next to a corner.
pub const C_SQUARES: u64 = 0x4281_0000_0000_8142;
/// The four 4x4 quadrants (a1-d4, e1-h4, a5-d8, e5-h8).
pub const QUADRANTS: [u64; 4] =
    [0x0000_0000_0F0F_0F0F, 0x0000_0000_F0F0_F0F0, 0x0F0F_0F0F_0000_0000, 0xF0F0_F0F0_0000_0000];

/// The squares next to a disc of `x` in any of the eight directions.
#[inline(always)]
pub const fn neighbours(x: u64) -> u64 {
    let h = ((x << 1) & !FILE_A) | ((x >> 1) & !FILE_H);
    let row = x | h;
    h | (row << 8) | (row >> 8)
}

/// A table over the 64 squares from one value per symmetry class, in the order a1, b1, c1, d1, b2,
/// c2, d2, c3, d3, d4 (the triangle a1-d1-d4; the other squares are its mirror images).
pub const fn by_symmetry(class: [i32; 10]) -> [i32; 64] {
    let mut table = [0; 64];
    let mut sq = 0;
    while sq < 64 {
        let (mut f, mut r) = (sq % 8, sq / 8);
        if f > 3 {
            f = 7 - f;
        }
        if r > 3 {
            r = 7 - r;
        }
        let (lo, hi) = if f < r { (f, r) } else { (r, f) };
        // Row `lo` of the triangle starts at index 0, 4, 7, 9 and holds squares `hi` = lo..=3.
        let start = [0, 4, 7, 9][lo];
        table[sq] = class[start + hi - lo];
        sq += 1;
    }
    table
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn masks_are_the_named_squares() {
        let bits = |names: &[&str]| {
            names.iter().map(|n| n.parse::<crate::rules::square::Square>().expect("square").bit()).fold(0, |a, b| a | b)
        };
        assert_eq!(CORNERS, bits(&["a1", "h1", "a8", "h8"]));
        assert_eq!(X_SQUARES, bits(&["b2", "g2", "b7", "g7"]));
        assert_eq!(C_SQUARES, bits(&["b1", "g1", "a2", "h2", "a7", "h7", "b8", "g8"]));
        assert_eq!(EDGES.count_ones(), 28);
        assert_eq!(QUADRANTS.iter().fold(0, |a, q| a | q), u64::MAX);
    }

    #[test]
    fn tables_by_symmetry_are_symmetric() {
        let t = by_symmetry([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
        assert_eq!(&t[..8], &[1, 2, 3, 4, 4, 3, 2, 1]);
        assert_eq!(&t[8..16], &[2, 5, 6, 7, 7, 6, 5, 2]);
        assert_eq!(&t[16..24], &[3, 6, 8, 9, 9, 8, 6, 3]);
        assert_eq!(&t[24..32], &[4, 7, 9, 10, 10, 9, 7, 4]);
        for sq in 0..64 {
            let (f, r) = (sq % 8, sq / 8);
            assert_eq!(t[sq], t[r * 8 + f], "diagonal mirror");
            assert_eq!(t[sq], t[(7 - r) * 8 + f], "vertical mirror");
        }
    }
}
