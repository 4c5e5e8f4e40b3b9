//! Pattern evaluation: an estimate of the final disc difference as a sum of learnt weights, one per
//! configuration of each board pattern (the edges with their X-squares, corner blocks, lines and
//! diagonals). A pattern's weights are shared by all its symmetric copies on the board.
//!
//! The weights are learnt offline from exactly solved endgame positions (`scripts/train-eval`) and
//! embedded in the binary (`pattern_weights.bin`). Their first user is the endgame solver's move
//! ordering, where only the order of sibling scores matters.
//!
//! Each pattern is written once, as squares near a1. A copy elsewhere on the board is read by applying
//! one of the eight board symmetries and extracting the canonical squares, so every copy lists its
//! squares in the same order and the same table applies.

use std::sync::OnceLock;

/// One pattern: its squares in the canonical orientation, in the order their digits are read.
struct Shape {
    squares: &'static [u8],
}

/// The patterns (a1 = 0, h1 = 7, a2 = 8, ... h8 = 63).
const SHAPES: [Shape; 11] = [
    // The first rank with both X-squares.
    Shape { squares: &[0, 1, 2, 3, 4, 5, 6, 7, 9, 14] },
    // The 3x3 corner block.
    Shape { squares: &[0, 1, 2, 8, 9, 10, 16, 17, 18] },
    // The 5x2 corner block.
    Shape { squares: &[0, 1, 2, 3, 4, 8, 9, 10, 11, 12] },
    // The second, third and fourth ranks.
    Shape { squares: &[8, 9, 10, 11, 12, 13, 14, 15] },
    Shape { squares: &[16, 17, 18, 19, 20, 21, 22, 23] },
    Shape { squares: &[24, 25, 26, 27, 28, 29, 30, 31] },
    // The diagonals of length 8 down to 4.
    Shape { squares: &[0, 9, 18, 27, 36, 45, 54, 63] },
    Shape { squares: &[1, 10, 19, 28, 37, 46, 55] },
    Shape { squares: &[2, 11, 20, 29, 38, 47] },
    Shape { squares: &[3, 12, 21, 30, 39] },
    Shape { squares: &[4, 13, 22, 31] },
];

/// Copies of all patterns on the board (a copy per distinct set of squares among the symmetries).
pub const INSTANCES: usize = 4 + 4 + 8 + 4 + 4 + 4 + 2 + 4 + 4 + 4 + 4;

/// The longest pattern, in squares.
const MAX_SQUARES: usize = 10;

const POW3: [u32; MAX_SQUARES + 1] = {
    let mut t = [1u32; MAX_SQUARES + 1];
    let mut i = 1;
    while i <= MAX_SQUARES {
        t[i] = t[i - 1] * 3;
        i += 1;
    }
    t
};

/// `TERNARY[b]`: the bits of `b` read as base-3 digits (bit i worth 3^i).
static TERNARY: [u16; 1 << MAX_SQUARES] = {
    let mut t = [0u16; 1 << MAX_SQUARES];
    let mut b = 0;
    while b < 1 << MAX_SQUARES {
        let mut i = 0;
        while i < MAX_SQUARES {
            if b >> i & 1 != 0 {
                t[b] += POW3[i] as u16;
            }
            i += 1;
        }
        b += 1;
    }
    t
};

/// Mirrors the board left to right (file a <-> file h).
#[inline(always)]
const fn mirror(b: u64) -> u64 {
    let b = ((b >> 1) & 0x5555_5555_5555_5555) | ((b & 0x5555_5555_5555_5555) << 1);
    let b = ((b >> 2) & 0x3333_3333_3333_3333) | ((b & 0x3333_3333_3333_3333) << 2);
    ((b >> 4) & 0x0F0F_0F0F_0F0F_0F0F) | ((b & 0x0F0F_0F0F_0F0F_0F0F) << 4)
}

/// Flips the board top to bottom (rank 1 <-> rank 8).
#[inline(always)]
const fn flip(b: u64) -> u64 {
    b.swap_bytes()
}

/// Reflects the board in the a1-h8 diagonal.
#[inline(always)]
const fn transpose(b: u64) -> u64 {
    let t = 0x0F0F_0F0F_0000_0000 & (b ^ (b << 28));
    let b = b ^ t ^ (t >> 28);
    let t = 0x3333_0000_3333_0000 & (b ^ (b << 14));
    let b = b ^ t ^ (t >> 14);
    let t = 0x5500_5500_5500_5500 & (b ^ (b << 7));
    b ^ t ^ (t >> 7)
}

/// The eight symmetries of the board; symmetry `k` mirrors if bit 0, flips if bit 1, transposes if
/// bit 2 (in that order).
#[inline(always)]
fn symmetries(b: u64) -> [u64; 8] {
    let m = mirror(b);
    let (f, mf) = (flip(b), flip(m));
    [b, m, f, mf, transpose(b), transpose(m), transpose(f), transpose(mf)]
}

const fn symmetry(k: usize, b: u64) -> u64 {
    let b = if k & 1 != 0 { mirror(b) } else { b };
    let b = if k & 2 != 0 { flip(b) } else { b };
    if k & 4 != 0 {
        transpose(b)
    } else {
        b
    }
}

/// One copy of a pattern: read the canonical squares of the board under symmetry `symmetry`.
#[derive(Clone, Copy)]
struct Instance {
    symmetry: u8,
    mask: u64,
    /// Where this pattern's weights start.
    offset: u32,
}

struct Layout {
    instances: [Instance; INSTANCES],
    /// The number of weights: the sum of 3^len over the patterns.
    weights: usize,
}

fn layout() -> &'static Layout {
    static LAYOUT: OnceLock<Layout> = OnceLock::new();
    LAYOUT.get_or_init(|| {
        let mut instances = [Instance { symmetry: 0, mask: 0, offset: 0 }; INSTANCES];
        let (mut count, mut offset) = (0, 0u32);
        for shape in &SHAPES {
            // pext reads squares in increasing order: the canonical lists are written that way.
            debug_assert!(shape.squares.windows(2).all(|w| w[0] < w[1]));
            let mask = shape.squares.iter().fold(0u64, |m, &s| m | 1 << s);
            let mut seen: Vec<u64> = Vec::new();
            for k in 0..8 {
                // The squares of the original board that land on the canonical ones under symmetry k.
                let region = (0..64).filter(|&s| symmetry(k, 1 << s) & mask != 0).fold(0u64, |r, s| r | 1 << s);
                if !seen.contains(&region) {
                    seen.push(region);
                    instances[count] = Instance { symmetry: k as u8, mask, offset };
                    count += 1;
                }
            }
            offset += POW3[shape.squares.len()];
        }
        assert_eq!(count, INSTANCES, "INSTANCES must match the pattern shapes");
        Layout { instances, weights: offset as usize }
    })
}

/// For each weight index: the smallest index of the same configuration read under the
/// pattern's own symmetries (the 3x3 corner block is its own mirror image in the diagonal, a rank is
/// its own mirror image, ...). Copies read the same squares in different orders, so weights that
/// make the evaluation symmetric are equal across each such class: the trainer ties them.
pub fn canonical_indices() -> Vec<u32> {
    let mut table = Vec::with_capacity(weight_count());
    for shape in &SHAPES {
        let squares = shape.squares;
        let mask = squares.iter().fold(0u64, |m, &s| m | 1 << s);
        let offset = table.len() as u32;
        // Each self-symmetry as a permutation of digit positions.
        let perms: Vec<Vec<usize>> = (0..8)
            .filter(|&k| symmetry(k, mask) == mask)
            .map(|k| {
                squares
                    .iter()
                    .map(|&s| {
                        let image = symmetry(k, 1 << s).trailing_zeros() as u8;
                        squares
                            .iter()
                            .position(|&t| t == image)
                            .expect("a self-symmetry maps the squares onto themselves")
                    })
                    .collect()
            })
            .collect();
        for config in 0..POW3[squares.len()] {
            let digits: Vec<u32> = (0..squares.len()).map(|i| config / POW3[i] % 3).collect();
            let canon = perms
                .iter()
                .map(|perm| digits.iter().zip(perm).map(|(&d, &j)| d * POW3[j]).sum::<u32>())
                .min()
                .unwrap_or(config);
            table.push(offset + canon);
        }
    }
    table
}

/// The number of weights.
pub fn weight_count() -> usize {
    layout().weights
}

#[inline(always)]
fn extract(b: u64, mask: u64) -> u64 {
    #[cfg(all(target_arch = "x86_64", target_feature = "bmi2"))]
    {
        // SAFETY: the bmi2 target feature is enabled for this build.
        unsafe { std::arch::x86_64::_pext_u64(b, mask) }
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "bmi2")))]
    {
        let (mut out, mut bit, mut m) = (0u64, 1u64, mask);
        while m != 0 {
            if b & m & m.wrapping_neg() != 0 {
                out |= bit;
            }
            bit <<= 1;
            m &= m - 1;
        }
        out
    }
}

/// The weight index of every pattern copy on the board `p` (side to move), `o` (opponent): offset of
/// the pattern plus the configuration read as base-3 digits (0 empty, 1 own, 2 opponent's).
#[inline]
pub fn indices(p: u64, o: u64) -> [u32; INSTANCES] {
    let layout = layout();
    let (ps, os) = (symmetries(p), symmetries(o));
    let mut out = [0u32; INSTANCES];
    for (slot, inst) in out.iter_mut().zip(&layout.instances) {
        let k = inst.symmetry as usize;
        let own = TERNARY[extract(ps[k], inst.mask) as usize] as u32;
        let theirs = TERNARY[extract(os[k], inst.mask) as usize] as u32;
        *slot = inst.offset + own + 2 * theirs;
    }
    out
}

/// Weights are stored in 1/`SCALE` disc.
pub const SCALE: i32 = 64;

/// A learnt weight set: one weight per configuration of each pattern, for every stage of the game
/// (measured on FFO move pairs, one set ordered them better than sets per empty-count range, which
/// split the training data: 75.7% vs 71.9% with four ranges).
pub struct Weights {
    values: Vec<i16>,
}

const MAGIC: &[u8; 4] = b"EBPW";

impl Weights {
    /// All zero (every board scores 0).
    pub fn zero() -> Weights {
        Weights { values: vec![0; weight_count()] }
    }

    pub fn from_values(values: Vec<i16>) -> Result<Weights, String> {
        let want = weight_count();
        if values.len() != want {
            return Err(format!("{} weights, expected {want}", values.len()));
        }
        Ok(Weights { values })
    }

    /// Reads the file format: "EBPW", the weight count as u32 LE, then the i16 LE weights.
    pub fn from_bytes(bytes: &[u8]) -> Result<Weights, String> {
        if bytes.len() < 8 || &bytes[..4] != MAGIC {
            return Err("not a pattern weight file".to_string());
        }
        let count = u32::from_le_bytes([bytes[4], bytes[5], bytes[6], bytes[7]]) as usize;
        let body = &bytes[8..];
        if body.len() != 2 * count {
            return Err(format!("{} bytes of weights for a count of {count}", body.len()));
        }
        Weights::from_values(body.chunks_exact(2).map(|c| i16::from_le_bytes([c[0], c[1]])).collect())
    }

    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = MAGIC.to_vec();
        out.extend_from_slice(&(self.values.len() as u32).to_le_bytes());
        for v in &self.values {
            out.extend_from_slice(&v.to_le_bytes());
        }
        out
    }

    /// The estimate for the side to move, in 1/`SCALE` disc.
    #[inline]
    pub fn evaluate(&self, p: u64, o: u64) -> i32 {
        indices(p, o).iter().map(|&i| self.values[i as usize] as i32).sum()
    }
}

/// The weights built into the binary.
pub fn builtin() -> &'static Weights {
    static WEIGHTS: OnceLock<Weights> = OnceLock::new();
    // The file is part of the source: a mismatch with the patterns is a build error that the unit
    // tests catch, not an input to recover from.
    WEIGHTS.get_or_init(|| {
        Weights::from_bytes(include_bytes!("pattern_weights.bin")).expect("the embedded weights fit the patterns")
    })
}

/// How well `weights` order scored moves: over positions with exactly scored moves (obf entries), the
/// share of move pairs with different scores in which the better move's child looks worse for the
/// opponent (a tie counts half; 0.5 is chance). The trainer and the tests report it on FFO positions.
pub fn move_pair_order(weights: &Weights, entries: &[crate::formats::obf::ObfEntry]) -> f64 {
    let (mut right, mut pairs) = (0.0, 0usize);
    for entry in entries {
        let board = entry.position.board;
        let children: Vec<(i32, i32)> = entry
            .moves
            .iter()
            .filter_map(|&(mv, score)| match mv {
                crate::rules::board::Move::Play(sq) => {
                    let child = board.play(sq);
                    Some((weights.evaluate(child.player, child.opponent), score))
                }
                crate::rules::board::Move::Pass => None,
            })
            .collect();
        for a in &children {
            for b in children.iter().filter(|b| a.1 > b.1) {
                pairs += 1;
                right += match a.0.cmp(&b.0) {
                    std::cmp::Ordering::Less => 1.0,
                    std::cmp::Ordering::Equal => 0.5,
                    std::cmp::Ordering::Greater => 0.0,
                };
            }
        }
    }
    if pairs == 0 {
        0.5
    } else {
        right / pairs as f64
    }
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
        }
        // a1 goes to h1, a8 and a1 (transpose keeps the corner).
        assert_eq!(mirror(1), 1 << 7);
        assert_eq!(flip(1), 1 << 56);
        assert_eq!(transpose(1 << 1), 1 << 8);
    }

    #[test]
    fn every_square_is_covered_and_copies_are_distinct() {
        let layout = layout();
        let mut covered = 0u64;
        for inst in &layout.instances {
            let region = (0..64)
                .filter(|&s| symmetry(inst.symmetry as usize, 1 << s) & inst.mask != 0)
                .fold(0u64, |r, s| r | 1 << s);
            assert_eq!(region.count_ones(), inst.mask.count_ones());
            covered |= region;
        }
        assert_eq!(covered, u64::MAX);
    }

    fn random_tied_weights() -> Weights {
        let canon = canonical_indices();
        let values = canon.iter().map(|&c| (c % 2001) as i16 - 1000).collect();
        Weights::from_values(values).unwrap()
    }

    #[test]
    fn symmetric_boards_evaluate_alike() {
        // Weights tied as the trainer ties them: all eight symmetric copies of a board must agree.
        check_symmetric(&random_tied_weights());
        check_symmetric(builtin());
    }

    fn check_symmetric(weights: &Weights) {
        let mut rng = 0x9E37_79B9_7F4A_7C15u64;
        for _ in 0..200 {
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            let p = rng & 0x5A5A_F0F0_3C3C_0FF0;
            let o = !p & rng.rotate_left(17);
            let base = weights.evaluate(p, o);
            for k in 1..8 {
                assert_eq!(weights.evaluate(symmetry(k, p), symmetry(k, o)), base, "symmetry {k}");
            }
        }
    }

    #[test]
    fn indices_read_own_and_opponent_digits() {
        // Only a1 own: the first-rank pattern copy that starts at a1 reads digit 1 at position 0.
        let idx = indices(1, 0);
        assert_eq!(idx[0], 1);
        let idx = indices(0, 1);
        assert_eq!(idx[0], 2);
    }

    #[test]
    fn builtin_weights_load() {
        let bytes = include_bytes!("pattern_weights.bin");
        let weights = Weights::from_bytes(bytes).expect("the embedded weights match the patterns");
        let back = weights.to_bytes();
        assert_eq!(&back[..], &bytes[..]);
    }
}

#[cfg(test)]
mod quality {
    use super::*;

    #[test]
    fn builtin_weights_order_ffo_moves() {
        let text =
            [include_str!("../../tests/data/fforum-1-19.obf"), include_str!("../../tests/data/fforum-20-39.obf")];
        let entries = crate::formats::obf::parse(&text.concat()).expect("FFO files parse");
        assert_eq!(move_pair_order(&Weights::zero(), &entries), 0.5);
        let order = move_pair_order(builtin(), &entries);
        // The mean error of each position's own estimate against its best score, in discs.
        let error = entries
            .iter()
            .map(|e| {
                let best = e.moves.iter().map(|m| m.1).max().unwrap_or(0) as f64;
                let board = e.position.board;
                (builtin().evaluate(board.player, board.opponent) as f64 / SCALE as f64 - best).abs()
            })
            .sum::<f64>()
            / entries.len() as f64;
        eprintln!(
            "learnt weights: {:.1}% of FFO move pairs in the right order, mean error {error:.1} discs",
            100.0 * order
        );
        assert!(order > 0.7, "{order}");
        assert!(error < 12.0, "mean error {error:.1}");
    }
}
