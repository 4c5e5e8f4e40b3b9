//! Move generation and flips on two bitboards (`p` the side to move, `o` its opponent), branch-free.
//!
//! `moves` is a Kogge-Stone fill in the eight directions. `flips` looks along the eight rays of the
//! played square with precomputed ray masks: towards higher bits an add carries through the run of
//! opponent discs and lands on the outflanking square; towards lower bits the highest non-opponent
//! square is found with a leading-zero count. With AVX-512 (VL and CD) `flips` runs four rays to a
//! vector; the scalar version is the fallback (chosen at run time: `crate::cpu`).

/// Every square but the a and h files: a horizontal or diagonal shift must not wrap across them.
const NOT_EDGE_FILES: u64 = 0x7E7E_7E7E_7E7E_7E7E;

/// Squares reached from a `p` disc over a run of 1..6 `o` discs along one direction, as a shift of
/// `SHIFT` (positive: towards higher bits). `o` is already masked so the shift cannot wrap.
#[inline(always)]
fn fill_moves<const SHIFT: i32>(p: u64, o: u64) -> u64 {
    #[inline(always)]
    fn sh<const S: i32>(x: u64, n: i32) -> u64 {
        if S > 0 {
            x << (S * n)
        } else {
            x >> (-S * n)
        }
    }
    let mut f = o & sh::<SHIFT>(p, 1);
    f |= o & sh::<SHIFT>(f, 1);
    let pre = o & sh::<SHIFT>(o, 1);
    f |= pre & sh::<SHIFT>(f, 2);
    f |= pre & sh::<SHIFT>(f, 2);
    sh::<SHIFT>(f, 1)
}

/// The legal moves of `p` against `o` (the empty squares that flip at least one disc).
#[inline(always)]
pub fn moves(p: u64, o: u64) -> u64 {
    let oh = o & NOT_EDGE_FILES;
    let m = fill_moves::<1>(p, oh)
        | fill_moves::<-1>(p, oh)
        | fill_moves::<8>(p, o)
        | fill_moves::<-8>(p, o)
        | fill_moves::<7>(p, oh)
        | fill_moves::<-7>(p, oh)
        | fill_moves::<9>(p, oh)
        | fill_moves::<-9>(p, oh);
    m & !(p | o)
}

/// Ray masks of each square: `[0..4]` run towards higher bits (+1, +7, +8, +9),
/// `[4..8]` towards lower bits (-1, -7, -8, -9). The square itself is excluded.
static RAYS: Rays = Rays(build_rays());

/// Aligned so that each square's two halves load as whole vectors, never across a cache line.
#[repr(C, align(64))]
struct Rays([[u64; 8]; 64]);

/// The eight ray masks of square `sq` (`[0..4]` towards higher bits: +1, +7, +8, +9; `[4..8]` towards
/// lower bits), for code that walks the rays itself, like the solver's last-move flip count.
#[inline(always)]
pub fn rays(sq: usize) -> &'static [u64; 8] {
    &RAYS.0[sq]
}

const fn build_rays() -> [[u64; 8]; 64] {
    // (file step, rank step) for the eight directions, in the order of the table.
    const DIRS: [(i32, i32); 8] = [(1, 0), (-1, 1), (0, 1), (1, 1), (-1, 0), (1, -1), (0, -1), (-1, -1)];
    let mut rays = [[0u64; 8]; 64];
    let mut sq = 0;
    while sq < 64 {
        let mut d = 0;
        while d < 8 {
            let (df, dr) = DIRS[d];
            let mut f = (sq % 8) as i32 + df;
            let mut r = (sq / 8) as i32 + dr;
            let mut mask = 0u64;
            while f >= 0 && f < 8 && r >= 0 && r < 8 {
                mask |= 1u64 << (r * 8 + f);
                f += df;
                r += dr;
            }
            rays[sq][d] = mask;
            d += 1;
        }
        sq += 1;
    }
    rays
}

/// Discs flipped along a ray towards higher bits.
#[inline(always)]
fn flips_up(p: u64, o: u64, sq_bit: u64, ray: u64) -> u64 {
    // Squares off the ray are set, so the carry from just above the square runs through them and
    // through the opponent run, stopping on the first ray square that is not the opponent's.
    let outflank = (o | !ray).wrapping_add(sq_bit << 1) & ray & p;
    outflank.wrapping_sub((outflank != 0) as u64) & ray
}

/// Discs flipped along a ray towards lower bits.
#[inline(always)]
fn flips_down(p: u64, o: u64, ray: u64) -> u64 {
    let not_o = (!o & ray) | 1;
    let outflank = (0x8000_0000_0000_0000u64 >> not_o.leading_zeros()) & ray & p;
    outflank.wrapping_neg().wrapping_shl(1) & ray
}

/// The discs of `o` that `p` flips by playing on the empty square `sq` (0 if the move is illegal).
#[inline(always)]
pub fn flips(p: u64, o: u64, sq: usize) -> u64 {
    #[cfg(target_arch = "x86_64")]
    if crate::cpu::has_avx512() {
        // SAFETY: the flag is set only when the processor has AVX-512 F, VL and CD.
        return unsafe { flips_avx512(p, o, sq) };
    }
    flips_scalar(p, o, sq)
}

/// [`flips`] at the instruction-set level `I`: the choice of the AVX-512 path is a constant there.
#[inline(always)]
pub fn flips_at<I: crate::cpu::Isa>(p: u64, o: u64, sq: usize) -> u64 {
    #[cfg(target_arch = "x86_64")]
    if I::AVX512 {
        // SAFETY: a level with AVX512 set runs only where `crate::cpu` found AVX-512 F, VL and CD.
        return unsafe { flips_avx512(p, o, sq) };
    }
    flips_scalar(p, o, sq)
}

/// [`flips`] one ray at a time.
#[inline(always)]
pub fn flips_scalar(p: u64, o: u64, sq: usize) -> u64 {
    let r = &RAYS.0[sq];
    let bit = 1u64 << sq;
    flips_up(p, o, bit, r[0])
        | flips_up(p, o, bit, r[1])
        | flips_up(p, o, bit, r[2])
        | flips_up(p, o, bit, r[3])
        | flips_down(p, o, r[4])
        | flips_down(p, o, r[5])
        | flips_down(p, o, r[6])
        | flips_down(p, o, r[7])
}

/// [`flips`] with the same two tricks as the scalar version, four rays to a vector: the rays towards
/// higher bits in one, those towards lower bits in the other (AVX-512 brings the per-lane
/// leading-zero count they need).
///
/// # Safety
/// The processor must have AVX-512 F, VL and CD.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512vl,avx512cd")]
#[inline]
pub unsafe fn flips_avx512(p: u64, o: u64, sq: usize) -> u64 {
    use std::arch::x86_64::*;
    let rays = RAYS.0[sq].as_ptr().cast::<__m256i>();
    // SAFETY: `rays` points at the 8 masks of `sq` (two whole vectors); the intrinsics' features are
    // this function's.
    unsafe {
        let up = _mm256_loadu_si256(rays);
        let down = _mm256_loadu_si256(rays.add(1));
        let pv = _mm256_set1_epi64x(p as i64);
        let ov = _mm256_set1_epi64x(o as i64);

        // Towards higher bits: the carry from just above `sq` runs through the opponent's run (and
        // through the squares off the ray, all set) and stops on the first ray square not `o`'s.
        let run = _mm256_ternarylogic_epi64::<0xF3>(ov, up, up); // o | !up
        let carry = _mm256_add_epi64(run, _mm256_set1_epi64x((2u64 << sq) as i64));
        let outflank = _mm256_ternarylogic_epi64::<0x80>(carry, up, pv); // carry & up & p
        let found = _mm256_test_epi64_mask(outflank, outflank);
        let below = _mm256_add_epi64(outflank, _mm256_set1_epi64x(-1));
        let flipped_up = _mm256_maskz_and_epi64(found, below, up);

        // Towards lower bits: the highest ray square that is not `o`'s, found by a leading-zero count
        // (bit 0 is set so that the count is defined when the whole ray is `o`'s).
        let not_o = _mm256_ternarylogic_epi64::<0xAE>(ov, down, _mm256_set1_epi64x(1)); // (!o & down) | 1
        let top = _mm256_srlv_epi64(_mm256_set1_epi64x(i64::MIN), _mm256_lzcnt_epi64(not_o));
        let outflank = _mm256_ternarylogic_epi64::<0x80>(top, down, pv); // top & down & p
        let above = _mm256_sub_epi64(_mm256_setzero_si256(), _mm256_add_epi64(outflank, outflank));
        let flipped_down = _mm256_and_si256(above, down);

        let all = _mm256_or_si256(flipped_up, flipped_down);
        let half = _mm_or_si128(_mm256_castsi256_si128(all), _mm256_extracti128_si256::<1>(all));
        _mm_cvtsi128_si64(_mm_or_si128(half, _mm_unpackhi_epi64(half, half))) as u64
    }
}

/// Slow, obviously correct move rules: walk each direction square by square.
/// The fast functions above are tested against these.
pub mod reference {
    const DIRS: [(i32, i32); 8] = [(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1)];

    pub fn flips(p: u64, o: u64, sq: usize) -> u64 {
        if (p | o) >> sq & 1 != 0 {
            return 0;
        }
        let mut all = 0;
        for (df, dr) in DIRS {
            let (mut f, mut r) = ((sq % 8) as i32 + df, (sq / 8) as i32 + dr);
            let mut run = 0u64;
            while (0..8).contains(&f) && (0..8).contains(&r) {
                let bit = 1u64 << (r * 8 + f);
                if o & bit != 0 {
                    run |= bit;
                } else {
                    if p & bit != 0 {
                        all |= run;
                    }
                    break;
                }
                f += df;
                r += dr;
            }
        }
        all
    }

    pub fn moves(p: u64, o: u64) -> u64 {
        (0..64).filter(|&sq| flips(p, o, sq) != 0).fold(0, |m, sq| m | 1 << sq)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cpu::{Base, Isa, Level};

    /// Random boards (disjoint `p` and `o`) from a fixed seed.
    fn boards() -> impl Iterator<Item = (u64, u64)> {
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        std::iter::repeat_with(move || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let occupied = x | x.rotate_left(29);
            let p = occupied & x.rotate_left(11);
            (p, occupied & !p)
        })
        .take(3_000)
    }

    fn agrees_with_the_reference<I: Isa>() {
        for (p, o) in boards() {
            for sq in (0..64).filter(|&sq| (p | o) >> sq & 1 == 0) {
                let expected = reference::flips(p, o, sq);
                assert_eq!(flips_at::<I>(p, o, sq), expected, "p {p:#x} o {o:#x} sq {sq}");
                assert_eq!(flips_scalar(p, o, sq), expected, "p {p:#x} o {o:#x} sq {sq}");
            }
        }
    }

    #[test]
    fn every_level_flips_as_the_reference() {
        agrees_with_the_reference::<Base>();
        #[cfg(target_arch = "x86_64")]
        {
            let level = crate::cpu::level();
            if level >= Level::V4 {
                agrees_with_the_reference::<crate::cpu::V4>();
            }
            if level >= Level::V3 {
                agrees_with_the_reference::<crate::cpu::V3>();
            }
        }
    }
}
