//! The score of a board with one empty square: the board is full but for it, so only the number of
//! discs each side would flip there matters, and no flip mask is built.
//!
//! With BMI2, `pext` gathers the side to move's discs on each of the four lines through the square into
//! a small pattern, and one table lookup per line gives both sides' flip counts (the line is full, so
//! the pattern says whose every square is). Without it (or where `pext` is slow: `crate::cpu`), the
//! eight rays are walked with bit tricks.

use crate::rules::movegen;

/// The final score for `p` when only square `x` is empty (the opponent has every other square): `p`
/// plays it if it can, else the opponent does, else nobody can and the empty square goes to the winner.
#[inline(always)]
pub fn score_1<I: crate::cpu::Isa>(p: u64, x: u32) -> i32 {
    let n = p.count_ones() as i32;
    let (flipped, suffered) = if I::PEXT {
        // Both counts from one pass: the opponent's is only needed when `p` cannot play, which is rare.
        let counts = line_counts(p, x);
        ((counts & 0xFF) as i32, (counts >> 8) as i32)
    } else {
        let o = !p & !(1u64 << x);
        let neighbours = super::NEIGHBOURS[x as usize];
        let flipped = if neighbours & o != 0 { last_flip_count(p, x) } else { 0 };
        if flipped != 0 {
            return 2 * (n + flipped + 1) - 64;
        }
        (0, if neighbours & p != 0 { last_flip_count(o, x) } else { 0 })
    };
    if flipped != 0 {
        return 2 * (n + flipped + 1) - 64;
    }
    if suffered != 0 {
        return 2 * (n - suffered) - 64;
    }
    // Nobody can play: 63 discs, the empty goes to the winner (no draw is possible).
    if 2 * n > 63 {
        2 * n - 62
    } else {
        2 * n - 64
    }
}

/// The discs `p` flips by playing the last empty square `x` (all others filled: the opponent owns
/// the rest of the board), counted along each ray up to the first `p` disc.
#[inline(always)]
fn last_flip_count(p: u64, x: u32) -> i32 {
    let rays = movegen::rays(x as usize);
    let mut count = 0;
    for &ray in &rays[..4] {
        // Towards higher bits: the squares below the first `p` disc on the ray are all the opponent's.
        let mine = p & ray;
        if mine != 0 {
            count += (ray & (mine & mine.wrapping_neg()).wrapping_sub(1)).count_ones();
        }
    }
    for &ray in &rays[4..] {
        let mine = p & ray;
        if mine != 0 {
            let top = 1u64 << (63 - mine.leading_zeros());
            count += (ray & !(top | top.wrapping_sub(1))).count_ones();
        }
    }
    count as i32
}

/// The four lines (rank, file, both diagonals) through a square, and where each line's entries start
/// in [`LINE_COUNTS`] (they depend on the line's length and the square's place on it).
struct Lines {
    masks: [u64; 4],
    offsets: [u16; 4],
}

/// Entries of [`LINE_COUNTS`] before those of lines of `len` squares: `sum l 2^l` over `l < len`.
const fn line_base(len: u32) -> usize {
    let mut base = 0;
    let mut l = 1;
    while l < len {
        base += (l as usize) << l;
        l += 1;
    }
    base
}

/// `LINE_COUNTS[line_base(len) + (pos << len) + pattern]` for a full line of `len` squares but the
/// empty `pos`, `pattern` holding the mover's squares (bit i: the line's i-th square from its lowest):
/// the discs the mover flips on the line by playing `pos` (low byte) and those the other side flips
/// there (high byte). Lines are at most 8 long, so 8 times 6 flips never carry into the high byte.
static LINE_COUNTS: [u16; line_base(9)] = {
    let mut table = [0u16; line_base(9)];
    let mut len = 1;
    while len <= 8 {
        let mut pos = 0;
        while pos < len {
            let mut pattern = 0;
            while pattern < 1 << len {
                if pattern >> pos & 1 == 0 {
                    let mover = line_flip_count(pattern, len, pos, 1);
                    let other = line_flip_count(pattern, len, pos, 0);
                    table[line_base(len) + (pos << len) as usize + pattern as usize] = mover | other << 8;
                }
                pattern += 1;
            }
            pos += 1;
        }
        len += 1;
    }
    table
};

/// Squares flipped on a full line by the side whose squares have bit `side` in `pattern`, playing `pos`.
const fn line_flip_count(pattern: u32, len: u32, pos: u32, side: u32) -> u16 {
    let mut total = 0;
    let mut i = pos + 1;
    while i < len && pattern >> i & 1 != side {
        i += 1;
    }
    if i < len {
        total += i - pos - 1;
    }
    let mut i = pos as i32 - 1;
    while i >= 0 && pattern >> i & 1 != side {
        i -= 1;
    }
    if i >= 0 {
        total += pos - i as u32 - 1;
    }
    total as u16
}

static LINES: [Lines; 64] = {
    const EMPTY: Lines = Lines { masks: [0; 4], offsets: [0; 4] };
    let mut lines = [EMPTY; 64];
    let mut sq = 0;
    while sq < 64 {
        let (f, r) = (sq as i32 % 8, sq as i32 / 8);
        let mut k = 0;
        while k < 4 {
            let mut mask = 0u64;
            let mut other = 0;
            while other < 64 {
                let (g, s) = (other % 8, other / 8);
                let on_line = match k {
                    0 => s == r,
                    1 => g == f,
                    2 => g - s == f - r,
                    _ => g + s == f + r,
                };
                if on_line {
                    mask |= 1u64 << other;
                }
                other += 1;
            }
            let len = mask.count_ones();
            let pos = (mask & ((1u64 << sq) - 1)).count_ones();
            lines[sq].masks[k] = mask;
            lines[sq].offsets[k] = (line_base(len) + (pos << len) as usize) as u16;
            k += 1;
        }
        sq += 1;
    }
    lines
};

/// Flips of `p` (low byte) and of its opponent (high byte) on the last empty square `x`; only where
/// `pext` is fast.
#[inline(always)]
fn line_counts(p: u64, x: u32) -> u32 {
    let lines = &LINES[x as usize];
    let mut counts = 0;
    for k in 0..4 {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: called only at a level with `PEXT`, which runs only where the processor has BMI2.
        let pattern = unsafe { crate::cpu::pext_bmi2(p, lines.masks[k]) } as usize;
        #[cfg(not(target_arch = "x86_64"))]
        let pattern = crate::cpu::pext_soft(p, lines.masks[k]) as usize;
        counts += LINE_COUNTS[lines.offsets[k] as usize + pattern] as u32;
    }
    counts
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The pattern of `p` on the line `mask`, gathered without `pext`.
    fn gather(p: u64, mask: u64) -> usize {
        let mut pattern = 0;
        for (i, sq) in crate::rules::square::Squares(mask).enumerate() {
            pattern |= ((p >> sq.index() & 1) as usize) << i;
        }
        pattern
    }

    /// The line table and the ray walk agree on boards full but for one square.
    #[test]
    fn line_table_matches_the_ray_walk() {
        let mut seed = 0x9E37_79B9_7F4A_7C15u64;
        for _ in 0..20_000 {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let x = (seed >> 58) as u32;
            let p = seed.rotate_left(17) & !(1u64 << x);
            let o = !p & !(1u64 << x);
            let lines = &LINES[x as usize];
            let counts: u32 =
                (0..4).map(|k| LINE_COUNTS[lines.offsets[k] as usize + gather(p, lines.masks[k])] as u32).sum();
            assert_eq!((counts & 0xFF) as i32, last_flip_count(p, x), "p {p:#x} x {x}");
            assert_eq!((counts >> 8) as i32, last_flip_count(o, x), "p {p:#x} x {x}");
        }
    }
}
