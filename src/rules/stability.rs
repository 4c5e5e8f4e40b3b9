//! Stable discs (discs no sequence of moves can ever flip), a lower bound used for stability cutoffs:
//! with `s` stable opponent discs the side to move scores at most `64 - 2 s`.
//!
//! Three sources, each conservative: edges (an exact 8-square table built once, each line from the
//! lines every edge move leads to), discs whose four lines are all full, and discs touching stable discs of
//! their own colour on each line that is not full (grown to a fixed point).

use std::sync::OnceLock;

use crate::rules::masks::{EDGES, FILE_A, FILE_H};

/// `EDGE[p * 256 + o]`: the discs of `p` on an 8-square line that never flip, whatever is played.
fn edge_table() -> &'static [u8; 65536] {
    static TABLE: OnceLock<Box<[u8; 65536]>> = OnceLock::new();
    TABLE.get_or_init(|| {
        // A disc is stable when it stays `p`'s and stable after every move of either side on any empty
        // square: each line is computed from lines with one empty fewer, filled in before it.
        let mut table = Box::new([0u8; 65536]);
        for empties in 0..=8 {
            for p in 0..256u32 {
                for o in 0..256u32 {
                    if p & o == 0 && (!(p | o) & 0xFF).count_ones() == empties {
                        table[(p * 256 + o) as usize] = edge_stable_from(&table, p as u8, o as u8);
                    }
                }
            }
        }
        table
    })
}

/// The stable discs of `p` on a line, given the table entries of every line with one empty fewer.
fn edge_stable_from(table: &[u8; 65536], p: u8, o: u8) -> u8 {
    let entry = |p: u8, o: u8| table[p as usize * 256 + o as usize];
    let mut stable = p;
    let empties = !(p | o);
    for x in 0..8 {
        if empties >> x & 1 == 0 {
            continue;
        }
        let bit = 1u8 << x;
        let f = line_flips(p, o, x);
        stable &= entry(p | bit | f, o & !f);
        let f = line_flips(o, p, x);
        stable &= entry(p & !f, o | bit | f);
    }
    stable
}

/// Builds the edge table on first use, so that the first timed solve does not pay for it.
pub fn init() {
    edge_table();
}

/// Discs flipped on a line of 8 when a disc of `p` lands on `x` (any empty square: on the board the
/// move can be legal through another line, so legality along this line is not required).
fn line_flips(p: u8, o: u8, x: u32) -> u8 {
    let mut flips = 0u8;
    for step in [-1i32, 1] {
        let mut run = 0u8;
        let mut y = x as i32 + step;
        while (0..8).contains(&y) && o >> y & 1 != 0 {
            run |= 1 << y;
            y += step;
        }
        if (0..8).contains(&y) && p >> y & 1 != 0 {
            flips |= run;
        }
    }
    flips
}

/// Packs the a file into a byte (a1 -> bit 0) and back.
#[inline(always)]
fn pack_a_file(x: u64) -> u64 {
    ((x & FILE_A).wrapping_mul(0x0102_0408_1020_4080)) >> 56
}

#[inline(always)]
fn unpack_a_file(x: u64) -> u64 {
    FILE_OF_BYTE[(x & 0xFF) as usize]
}

/// `FILE_OF_BYTE[b]`: bit i of `b` moved to square 8 i (the a file).
static FILE_OF_BYTE: [u64; 256] = {
    let mut table = [0u64; 256];
    let mut b = 0;
    while b < 256 {
        let mut i = 0;
        while i < 8 {
            if b >> i & 1 != 0 {
                table[b] |= 1u64 << (8 * i);
            }
            i += 1;
        }
        b += 1;
    }
    table
};

/// Stable discs of `p` on the four edges.
#[inline]
fn edges_stable(p: u64, o: u64) -> u64 {
    let t = edge_table();
    let row = |shift: u32| t[(((p >> shift) & 0xFF) * 256 + ((o >> shift) & 0xFF)) as usize] as u64;
    let mut stable = row(0) | row(56) << 56;
    let a = t[(pack_a_file(p) * 256 + pack_a_file(o)) as usize] as u64;
    let h = t[(pack_a_file(p >> 7) * 256 + pack_a_file(o >> 7)) as usize] as u64;
    stable |= unpack_a_file(a) | unpack_a_file(h) << 7;
    stable
}

/// Squares whose horizontal, vertical and both diagonal lines are all full, one mask per direction.
#[inline(always)]
fn full_lines(occ: u64) -> [u64; 4] {
    let mut h = occ & (occ >> 4);
    h &= h >> 2;
    h &= h >> 1;
    let h = (h & FILE_A).wrapping_mul(0xFF);
    let mut v = occ & (occ >> 32);
    v &= v >> 16;
    v &= v >> 8;
    let v = (v & 0xFF).wrapping_mul(FILE_A);
    let diag = |masks: &[u64; 15]| masks.iter().filter(|&&m| occ & m == m).fold(0, |acc, &m| acc | m);
    [h, v, diag(&DIAG_9), diag(&DIAG_7)]
}

/// The 15 diagonals along +9 (a1-h8 direction) and +7 (h1-a8 direction).
static DIAG_9: [u64; 15] = diagonals(9);
static DIAG_7: [u64; 15] = diagonals(7);

const fn diagonals(step: i32) -> [u64; 15] {
    let mut out = [0u64; 15];
    let mut sq = 0;
    while sq < 64 {
        let (f, r) = (sq % 8, sq / 8);
        // Squares on one diagonal share f - r (step 9) or f + r (step 7).
        let index = if step == 9 { f - r + 7 } else { f + r };
        out[index as usize] |= 1u64 << sq;
        sq += 1;
    }
    out
}

/// A lower bound on the stable discs of `p` (opponent `o`).
#[inline(always)]
pub fn stable_discs(p: u64, o: u64) -> u64 {
    let occ = p | o;
    let [h, v, d9, d7] = full_lines(occ);
    let mut stable = edges_stable(p, o) | (p & h & v & d9 & d7 & !EDGES);
    if stable == 0 {
        return 0;
    }
    let inner = p & !EDGES & !stable;
    loop {
        let horizontal = h | ((stable >> 1) & !FILE_H) | ((stable << 1) & !FILE_A);
        let vertical = v | (stable >> 8) | (stable << 8);
        let diag9 = d9 | ((stable >> 9) & !FILE_H) | ((stable << 9) & !FILE_A);
        let diag7 = d7 | ((stable >> 7) & !FILE_A) | ((stable << 7) & !FILE_H);
        let grown = stable | (inner & horizontal & vertical & diag9 & diag7);
        if grown == stable {
            return stable;
        }
        stable = grown;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
    use crate::rules::movegen;

    /// The definition, played out move by move: the discs of `stable` (a subset of the original `p`
    /// discs) that survive every continuation.
    fn edge_stable(p: u8, o: u8, mut stable: u8) -> u8 {
        stable &= p;
        let empties = !(p | o);
        if stable == 0 || empties == 0 {
            return stable;
        }
        for x in 0..8 {
            if empties >> x & 1 == 0 {
                continue;
            }
            let bit = 1u8 << x;
            let f = line_flips(p, o, x);
            stable = edge_stable(p | bit | f, o & !f, stable);
            if stable == 0 {
                return 0;
            }
            let f = line_flips(o, p, x);
            stable = edge_stable(p & !f, o | bit | f, stable);
            if stable == 0 {
                return 0;
            }
        }
        stable
    }

    /// The table built line from line agrees with the definition played out.
    #[test]
    fn edge_table_matches_the_definition() {
        let table = edge_table();
        for index in 0..65536u32 {
            let (p, o) = ((index >> 8) as u8, index as u8);
            if p & o == 0 {
                assert_eq!(table[index as usize], edge_stable(p, o, p), "p {p:#010b} o {o:#010b}");
            }
        }
    }

    #[test]
    fn file_packing_round_trips() {
        for byte in 0..256u64 {
            assert_eq!(pack_a_file(unpack_a_file(byte)), byte);
        }
    }

    #[test]
    fn corners_and_full_edges() {
        // A lone corner is stable, an X-square is not.
        assert_eq!(stable_discs(1, 0), 1);
        assert_eq!(stable_discs(1 << 9, 0), 0);
        // A full first rank of mixed discs: every disc on it is stable.
        assert_eq!(stable_discs(0x0F, 0xF0), 0x0F);
    }

    /// Discs counted stable must keep their colour to the end of random games.
    #[test]
    fn stable_discs_never_flip() {
        let mut seed = 0x2545_F491_4F6C_DD1Du64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        let mut found = 0u32;
        for _ in 0..300 {
            // (black, white) after each move; black moves first.
            let (mut black, mut white) = (0x0000_0008_1000_0000u64, 0x0000_0010_0800_0000u64);
            let mut black_to_move = true;
            let mut history = Vec::new();
            loop {
                let (p, o) = if black_to_move { (black, white) } else { (white, black) };
                let moves = movegen::moves(p, o);
                if moves == 0 {
                    if movegen::moves(o, p) == 0 {
                        break;
                    }
                    black_to_move = !black_to_move;
                    continue;
                }
                let mut m = moves;
                for _ in 0..next() % moves.count_ones() as u64 {
                    m &= m - 1;
                }
                let sq = m.trailing_zeros() as usize;
                let f = movegen::flips(p, o, sq);
                let (p, o) = (p ^ f ^ (1 << sq), o ^ f);
                (black, white) = if black_to_move { (p, o) } else { (o, p) };
                black_to_move = !black_to_move;
                history.push((black, white));
            }
            for (i, &(b, w)) in history.iter().enumerate() {
                let (sb, sw) = (stable_discs(b, w), stable_discs(w, b));
                found += (sb | sw).count_ones();
                for &(later_b, later_w) in &history[i..] {
                    assert_eq!(sb & !later_b, 0, "a stable black disc flipped");
                    assert_eq!(sw & !later_w, 0, "a stable white disc flipped");
                }
            }
        }
        assert!(found > 1000, "too few stable discs found: {found}");
    }
}
