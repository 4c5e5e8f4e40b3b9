//! Squares `a1`..`h8`: bit `8 * rank + file`, so `a1` is bit 0 (top-left) and `h8` bit 63 (bottom-right),
//! as Edax, Egaroucid and the FFO files number them.

use std::fmt;
use std::str::FromStr;

/// One of the 64 squares, always valid by construction.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct Square(u8);

/// Why a square name was refused.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct SquareParseError(pub String);

impl fmt::Display for SquareParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "bad square '{}': expected a file a-h and a rank 1-8, like d3", self.0)
    }
}

impl std::error::Error for SquareParseError {}

impl Square {
    /// The square with this bit index, if it is below 64.
    #[inline]
    pub const fn new(index: u8) -> Option<Square> {
        if index < 64 {
            Some(Square(index))
        } else {
            None
        }
    }

    /// The square from a bit index the caller knows to be below 64 (a bit of a non-empty mask).
    #[inline(always)]
    pub const fn from_index(index: u32) -> Square {
        debug_assert!(index < 64);
        Square(index as u8 & 63)
    }

    /// The lowest set bit of a non-empty mask.
    #[inline(always)]
    pub const fn first(mask: u64) -> Square {
        debug_assert!(mask != 0);
        Square::from_index(mask.trailing_zeros())
    }

    /// File 0..8 (a..h) and rank 0..8 (1..8).
    #[inline]
    pub const fn from_file_rank(file: u8, rank: u8) -> Option<Square> {
        if file < 8 && rank < 8 {
            Some(Square(rank * 8 + file))
        } else {
            None
        }
    }

    #[inline(always)]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    #[inline(always)]
    pub const fn bit(self) -> u64 {
        1u64 << self.0
    }

    #[inline]
    pub const fn file(self) -> u8 {
        self.0 & 7
    }

    #[inline]
    pub const fn rank(self) -> u8 {
        self.0 >> 3
    }

    /// All 64 squares, a1 first.
    pub fn all() -> impl Iterator<Item = Square> {
        (0..64).map(Square)
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let file = (b'a' + self.file()) as char;
        let rank = (b'1' + self.rank()) as char;
        write!(f, "{file}{rank}")
    }
}

impl FromStr for Square {
    type Err = SquareParseError;

    /// Case-insensitive: `d3` and `D3` are the same square.
    fn from_str(s: &str) -> Result<Square, SquareParseError> {
        let bytes = s.as_bytes();
        if bytes.len() != 2 {
            return Err(SquareParseError(s.to_string()));
        }
        let file = bytes[0].to_ascii_lowercase().wrapping_sub(b'a');
        let rank = bytes[1].wrapping_sub(b'1');
        Square::from_file_rank(file, rank).ok_or_else(|| SquareParseError(s.to_string()))
    }
}

/// Iterates the squares of a bit mask, lowest bit first.
#[derive(Clone, Copy, Debug)]
pub struct Squares(pub u64);

impl Iterator for Squares {
    type Item = Square;

    #[inline(always)]
    fn next(&mut self) -> Option<Square> {
        if self.0 == 0 {
            return None;
        }
        let sq = Square::first(self.0);
        self.0 &= self.0 - 1;
        Some(sq)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for Squares {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for sq in Square::all() {
            assert_eq!(sq.to_string().parse::<Square>(), Ok(sq));
        }
        assert_eq!("a1".parse::<Square>().map(Square::index), Ok(0));
        assert_eq!("h1".parse::<Square>().map(Square::index), Ok(7));
        assert_eq!("A2".parse::<Square>().map(Square::index), Ok(8));
        assert_eq!("h8".parse::<Square>().map(Square::index), Ok(63));
    }

    #[test]
    fn bad_names_rejected() {
        for bad in ["", "a", "a0", "a9", "i1", "11", "a11", "pass", "é1"] {
            assert!(bad.parse::<Square>().is_err(), "{bad} accepted");
        }
    }

    #[test]
    fn squares_iterates_bits_in_order() {
        let v: Vec<usize> = Squares(0x8000_0000_0000_0101).map(Square::index).collect();
        assert_eq!(v, vec![0, 8, 63]);
    }
}
