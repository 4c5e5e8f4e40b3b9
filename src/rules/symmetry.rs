//! The eight symmetries of the board (the dihedral group of the square) on bitboards, and the
//! canonical representative of a position's symmetry class. The evaluation reads every copy of a
//! pattern through them; the opening book and the trainer store each class once.

/// Mirrors the board left to right (file a <-> file h).
#[inline(always)]
pub const fn mirror(b: u64) -> u64 {
    let b = ((b >> 1) & 0x5555_5555_5555_5555) | ((b & 0x5555_5555_5555_5555) << 1);
    let b = ((b >> 2) & 0x3333_3333_3333_3333) | ((b & 0x3333_3333_3333_3333) << 2);
    ((b >> 4) & 0x0F0F_0F0F_0F0F_0F0F) | ((b & 0x0F0F_0F0F_0F0F_0F0F) << 4)
}

/// Flips the board top to bottom (rank 1 <-> rank 8).
#[inline(always)]
pub const fn flip(b: u64) -> u64 {
    b.swap_bytes()
}

/// Reflects the board in the a1-h8 diagonal.
#[inline(always)]
pub const fn transpose(b: u64) -> u64 {
    let t = 0x0F0F_0F0F_0000_0000 & (b ^ (b << 28));
    let b = b ^ t ^ (t >> 28);
    let t = 0x3333_0000_3333_0000 & (b ^ (b << 14));
    let b = b ^ t ^ (t >> 14);
    let t = 0x5500_5500_5500_5500 & (b ^ (b << 7));
    b ^ t ^ (t >> 7)
}

/// Symmetry `k` of the board: mirrors if bit 0, flips if bit 1, transposes if bit 2 (in that order).
pub const fn symmetry(k: usize, b: u64) -> u64 {
    let b = if k & 1 != 0 { mirror(b) } else { b };
    let b = if k & 2 != 0 { flip(b) } else { b };
    if k & 4 != 0 {
        transpose(b)
    } else {
        b
    }
}

/// The square that symmetry `k` maps onto `square` (0 = a1 ... 63 = h8): the inverse image, for
/// reading a canonical square back on the board.
pub fn preimage(k: usize, square: u8) -> u8 {
    (0..64u8).find(|&q| symmetry(k, 1 << q) == 1 << square).unwrap_or(square)
}

/// All eight symmetries of a board, in the order of [`symmetry`].
#[inline(always)]
fn symmetries(b: u64) -> [u64; 8] {
    let m = mirror(b);
    let (f, mf) = (flip(b), flip(m));
    [b, m, f, mf, transpose(b), transpose(m), transpose(f), transpose(mf)]
}

/// The smallest of the eight symmetric images of a position: one representative per class.
pub fn canonical(p: u64, o: u64) -> (u64, u64) {
    let (ps, os) = (symmetries(p), symmetries(o));
    (0..8).map(|k| (ps[k], os[k])).min().unwrap_or((p, o))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn symmetries_are_bijections_of_squares() {
        for k in 0..8 {
            let image = (0..64).fold(0u64, |acc, s| acc | symmetry(k, 1 << s));
            assert_eq!(image, u64::MAX, "symmetry {k}");
            assert_eq!(symmetries(0x0123_4567_89AB_CDEF)[k], symmetry(k, 0x0123_4567_89AB_CDEF));
            for square in 0..64u8 {
                assert_eq!(symmetry(k, 1 << preimage(k, square)), 1 << square, "symmetry {k}, square {square}");
            }
        }
        assert_eq!(mirror(1), 1 << 7);
        assert_eq!(flip(1), 1 << 56);
        assert_eq!(transpose(1 << 1), 1 << 8);
    }

    #[test]
    fn symmetries_move_a1_to_the_four_corners_and_keep_the_centre() {
        let corners: u64 = (0..8).fold(0, |acc, k| acc | symmetry(k, 1));
        assert_eq!(corners, 1 | 1 << 7 | 1 << 56 | 1 << 63);
        let centre = 1u64 << 27 | 1 << 28 | 1 << 35 | 1 << 36;
        assert!((0..8).all(|k| symmetry(k, centre) == centre));
        // b1 goes to all eight squares next to a corner along an edge.
        let images: Vec<u64> = (0..8).map(|k| symmetry(k, 1 << 1)).collect();
        assert!(images.iter().enumerate().all(|(i, a)| images[i + 1..].iter().all(|b| a != b)), "{images:x?}");
    }

    #[test]
    fn canonical_is_the_same_for_every_image_and_is_one_of_them() {
        let (p, o) = (0x0000_0010_3800_0000u64, 0x0000_0808_0400_0000u64);
        let key = canonical(p, o);
        for k in 0..8 {
            assert_eq!(canonical(symmetry(k, p), symmetry(k, o)), key, "symmetry {k}");
        }
        assert!((0..8).any(|k| (symmetry(k, p), symmetry(k, o)) == key));
    }
}
