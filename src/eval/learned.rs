//! The learnt evaluation: an estimate of the final disc difference for the side to move, as a sum of
//! weights fitted to ebony's own games (`ebony-train`), one weight set per game phase.
//!
//! Features, each a table of weights indexed by what the board shows:
//! - patterns: the edges with both X-squares, the edges' corners and middle with the middle of the
//!   second rank, the 3x3 and 5x2 corner blocks, the corner triangle, the second to fourth ranks
//!   (with corners or X-squares), the diagonals of 6 to 8 squares (the two longest with corners or
//!   X-squares), the diagonals of 5 and 4 squares next to each other as one pattern, a band along
//!   the long diagonal and two blocks of the second to fourth ranks' middle; every symmetric copy on
//!   the board reads the same table;
//! - the mobility of each side (legal moves), its potential mobility (empty squares next to the
//!   other side's discs), its frontier (its discs next to an empty square), and the parity of the
//!   empties (overall and by quadrant);
//! - each edge's legal moves, for both sides (which of its 8 squares each side can play now).
//!
//! A pattern is written once, as squares near a1; a copy elsewhere is read by applying one of the
//! eight board symmetries to the board and extracting the canonical squares (`pext`), so every copy
//! lists its squares in the same order and the same table applies.
//!
//! Two ways to the same values: [`features`] reads every copy from the bitboards (the trainer and
//! one-off evaluations); the searches keep them in [`Patterns`], updated as they play moves, which
//! took the bench positions to depth 16 in 2.96-3.01 s against 3.73-3.77 s (the same 39.3M nodes;
//! `scripts/bench-midgame BINARY --depth 16`, back to back). Where a node scores every child it
//! tries (one ply above the leaves, and the ordering by the children's evaluation), [`Children`]
//! scores each from the node's values, reading only the copies the move changes: the same sums, 5%
//! less time to depth 18 (commit dc3458c, 2026-11-25; docs/speed.md).
//!
//! The trainer fits weights in 1/[`SCALE`] disc; the evaluation reads the patterns' weights as 8-bit
//! multiples of a step (`Tables`), and weight files store them so. The phase is the number of empties in
//! steps of [`PHASE_WIDTH`]; neighbouring phases are tied in the fit so that the estimate moves
//! smoothly.

use crate::formats::fnv1a;
use crate::rules::masks::{neighbours, QUADRANTS};
use crate::rules::movegen;
use crate::rules::symmetry::{preimage, symmetry};
use std::fmt;
use std::sync::OnceLock;

/// Weights are stored in 1/`SCALE` disc.
pub const SCALE: i32 = 64;
/// Empty-square counts per phase.
pub const PHASE_WIDTH: u32 = 4;
/// Weight sets: empties 0-3, 4-7, ..., 56-60.
pub const PHASES: usize = 15;

/// The phase of a position with `empties` empty squares.
#[inline(always)]
pub const fn phase(empties: u32) -> usize {
    let p = (empties / PHASE_WIDTH) as usize;
    if p < PHASES {
        p
    } else {
        PHASES - 1
    }
}

/// The patterns, as squares in increasing order (a1 = 0, h1 = 7, a2 = 8, ... h8 = 63).
///
/// Widened and added 2026-11-26 (docs/research-log.md, "Patterns for the middle game"): the second
/// and third ranks, the long diagonal and the 7-square diagonal gained their corners or X-squares,
/// the 4-square diagonal gave way to three 10-square patterns nearer the centre. Held-out error 5.470
/// discs against 5.575 for the layout before, fitted on the same games; at 100 ms a move against the
/// build before, an SPRT accepted +24.7 Elo over 888 games. The 5-square diagonal took in its
/// 4-square neighbour on 2026-11-30 ("Two diagonals in one pattern").
const SHAPES: [&[u8]; 15] = [
    // The first rank with both X-squares.
    &[0, 1, 2, 3, 4, 5, 6, 7, 9, 14],
    // The 3x3 corner block.
    &[0, 1, 2, 8, 9, 10, 16, 17, 18],
    // The 5x2 corner block.
    &[0, 1, 2, 3, 4, 8, 9, 10, 11, 12],
    // The second rank with both corners, the third with both X-squares, the fourth.
    &[0, 7, 8, 9, 10, 11, 12, 13, 14, 15],
    &[9, 14, 16, 17, 18, 19, 20, 21, 22, 23],
    &[24, 25, 26, 27, 28, 29, 30, 31],
    // The long diagonal with b1 and a2; the 7-square diagonal with both its corners; the diagonal
    // of 6 squares; those of 5 and 4 squares side by side (d1-h5 with e1-h4).
    &[0, 1, 8, 9, 18, 27, 36, 45, 54, 63],
    &[0, 1, 10, 19, 28, 37, 46, 55, 63],
    &[2, 11, 20, 29, 38, 47],
    &[3, 4, 12, 13, 21, 22, 30, 31, 39],
    // The first rank's corners and its middle with the middle of the second rank (a1, c1-f1, h1,
    // c2-f2): added 2026-11-24, +1.1 and +1.9 points at depth 8 against ntest depth 8 over 500
    // openings, on two data sets (docs/evaluation.md).
    &[0, 2, 3, 4, 5, 7, 10, 11, 12, 13],
    // The corner triangle a1-d1, a2-c2, a3-b3, a4: added 2026-11-26, +3.7 points at depth 12
    // against ntest depth 12 over 2,000 XOT games, paired by opening against the weights before
    // (docs/evaluation.md).
    &[0, 1, 2, 3, 8, 9, 10, 16, 17, 24],
    // The band along the long diagonal from the corner to the centre (a1, b1, a2, b2, c2, b3, c3,
    // d3, c4, d4); b2-g2 with c3-f3; b3-g3 with c4-f4.
    &[0, 1, 8, 9, 10, 17, 18, 19, 26, 27],
    &[9, 10, 11, 12, 13, 14, 18, 19, 20, 21],
    &[17, 18, 19, 20, 21, 22, 26, 27, 28, 29],
];

/// Copies of all patterns on the board (a copy per distinct set of squares among the symmetries).
pub const INSTANCES: usize = copies_of(&SHAPES);

/// Where the evaluation reads them, pattern weights are 8-bit multiples of a step ([`Tables`]): the
/// first `COARSE_SHAPES` patterns of [`SHAPES`] have [`COARSE_STEP`], the others [`FINE_STEP`]. The
/// edge with both X-squares is the one pattern with many weights past 127 fine steps (7.9 discs):
/// 2,169 of its 885,735 (15 phases), up to 18.5 discs, where the other patterns have 237 of 8.7 M.
/// With 30 phases (fitted 2026-11-28, not kept), 78 of its 1.8 M weights lay past 127 coarse steps
/// (15.9 discs) and 335 of the others' 17.4 M past 127 fine steps, most in the opening phases.
const COARSE_SHAPES: usize = 1;
/// Their copies, the first lanes of a [`Patterns`] vector.
const COARSE_COPIES: usize = copies_of(SHAPES.split_at(COARSE_SHAPES).0);
/// The steps, in 1/[`SCALE`] disc: 1/8 and 1/16 disc.
const COARSE_STEP: i32 = 8;
const FINE_STEP: i32 = 4;

/// The copies on the board of all of `shapes`.
const fn copies_of(shapes: &[&[u8]]) -> usize {
    let mut total = 0;
    let mut i = 0;
    while i < shapes.len() {
        total += copies(shapes[i]);
        i += 1;
    }
    total
}

/// The distinct sets of squares that the eight symmetries make of `squares`.
const fn copies(squares: &[u8]) -> usize {
    let mut mask = 0u64;
    let mut i = 0;
    while i < squares.len() {
        mask |= 1 << squares[i];
        i += 1;
    }
    let mut seen = [0u64; 8];
    let mut count = 0;
    let mut k = 0;
    while k < 8 {
        let image = symmetry(k, mask);
        let mut j = 0;
        while j < count && seen[j] != image {
            j += 1;
        }
        if j == count {
            seen[count] = image;
            count += 1;
        }
        k += 1;
    }
    count
}

/// The global features and the size of each one's table: legal moves (own, opponent's), potential
/// mobility (own, opponent's), parity (empties odd or even, times the number of quadrants with an
/// odd number of empties), frontier discs (own, opponent's).
///
/// The frontier (added 2026-11-24, commit 2194725): depth 8 against ntest depth 8 scored 54.9% over 10,000
/// games against 52.9% without it, the held-out error 5.779 discs against 5.800 (docs/evaluation.md).
const GLOBALS: [u32; 7] =
    [MOBILITY_CAP + 1, MOBILITY_CAP + 1, POTENTIAL_CAP + 1, POTENTIAL_CAP + 1, 10, FRONTIER_CAP + 1, FRONTIER_CAP + 1];
const MOBILITY_CAP: u32 = 31;
const POTENTIAL_CAP: u32 = 39;
const FRONTIER_CAP: u32 = 40;

/// Each edge's legal moves for both sides: one table of 2^16 entries, indexed by the side to move's
/// 8 move bits and the opponent's 8, read from the corner that gives the smaller index, so that an
/// edge and its mirror image share an entry; four copies, one an edge.
///
/// Added 2026-11-25 (commit 143e05c): depth 8 against ntest depth 8 scored 57.1% over seeds 3-6 (4,000
/// games) against 55.9% without it, the held-out error 5.74 discs against 5.78 (docs/evaluation.md).
/// Half the table is never read (the larger of the two readings); the fit leaves it at 0.
const EDGE_MOVES_SIZE: u32 = 1 << 16;
const EDGES: usize = 4;
const EXTRAS: usize = GLOBALS.len() + EDGES;

/// Feature values of one position: one table index per pattern copy and per global feature.
pub const FEATURES: usize = INSTANCES + EXTRAS;

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

/// One copy of a pattern: the squares of the board that a symmetry maps onto the canonical ones.
#[derive(Clone, Copy)]
struct Instance {
    /// The copy's squares on the board.
    mask: u64,
    /// Where this copy's digit table starts in `Layout::digits`.
    digits: u32,
    /// Where this pattern's weights start.
    offset: u32,
}

struct Layout {
    instances: [Instance; INSTANCES],
    /// For each copy, indexed by its squares read in board order (`pext`): the base-3 value of the
    /// same squares in the canonical order, with every disc worth 1. The opponent's digits are read
    /// from the same table and doubled. Copies that read their squares in the canonical order share
    /// one table.
    digits: Vec<u16>,
    /// Where each global feature's table starts.
    globals: [u32; GLOBALS.len()],
    /// Where the edges' move table starts.
    edge_moves: u32,
    /// The weights of one phase.
    size: usize,
    /// The patterns' share of them (the global features and the edges' moves come after), and the
    /// coarse patterns' ([`COARSE_SHAPES`]), which come first.
    patterns_size: usize,
    coarse_size: usize,
    /// For each square, what a disc worth 1 there adds to each copy's base-3 value (0 for the copies
    /// without the square): what [`Patterns`] adds as moves are played.
    deltas: Box<[[u16; LANES]; 64]>,
    /// For each square, the copies (lanes) that contain it, as bits.
    lanes: [u64; 64],
    /// Where each copy's pattern weights start, lane by lane (0 in the padding lanes).
    offsets: [u32; LANES],
}

fn layout() -> &'static Layout {
    static LAYOUT: OnceLock<Layout> = OnceLock::new();
    LAYOUT.get_or_init(|| {
        let mut instances = [Instance { mask: 0, digits: 0, offset: 0 }; INSTANCES];
        let mut digits: Vec<u16> = Vec::new();
        let mut tables: Vec<(Vec<usize>, u32)> = Vec::new();
        let (mut count, mut offset, mut coarse_size) = (0, 0u32, 0);
        for (shape, squares) in SHAPES.iter().enumerate() {
            if shape == COARSE_SHAPES {
                coarse_size = offset as usize;
            }
            let mut seen: Vec<u64> = Vec::new();
            for k in 0..8 {
                // The board square that symmetry k maps onto each canonical square, in digit order.
                let sources: Vec<u8> = squares.iter().map(|&c| preimage(k, c)).collect();
                let region = sources.iter().fold(0u64, |r, &q| r | 1 << q);
                if seen.contains(&region) {
                    continue;
                }
                seen.push(region);
                // Digit i is bit `rank[i]` of the pext of the region.
                let rank: Vec<usize> =
                    sources.iter().map(|&q| (region & ((1u64 << q) - 1)).count_ones() as usize).collect();
                let start = match tables.iter().find(|(r, _)| *r == rank) {
                    Some(&(_, start)) => start,
                    None => {
                        let start = digits.len() as u32;
                        for bits in 0..1usize << squares.len() {
                            let value: u32 =
                                rank.iter().enumerate().map(|(i, &r)| ((bits >> r) as u32 & 1) * POW3[i]).sum();
                            digits.push(value as u16);
                        }
                        tables.push((rank, start));
                        start
                    }
                };
                instances[count] = Instance { mask: region, digits: start, offset };
                count += 1;
            }
            offset += POW3[squares.len()];
        }
        assert_eq!(count, INSTANCES, "the copies found must be the INSTANCES counted from SHAPES");
        let patterns_size = offset as usize;
        let mut globals = [0u32; GLOBALS.len()];
        for (start, size) in globals.iter_mut().zip(GLOBALS) {
            *start = offset;
            offset += size;
        }
        let edge_moves = offset;
        offset += EDGE_MOVES_SIZE;
        let mut deltas = Box::new([[0u16; LANES]; 64]);
        let mut lanes = [0u64; 64];
        for (lane, inst) in instances.iter().enumerate() {
            for sq in crate::rules::square::Squares(inst.mask) {
                let bit = 1u64 << sq.index();
                deltas[sq.index()][lane] = digits[inst.digits as usize + extract(bit, inst.mask) as usize];
                lanes[sq.index()] |= 1 << lane;
            }
        }
        let mut offsets = [0u32; LANES];
        for (lane, inst) in offsets.iter_mut().zip(&instances) {
            *lane = inst.offset;
        }
        Layout {
            instances,
            digits,
            globals,
            edge_moves,
            size: offset as usize,
            patterns_size,
            coarse_size,
            deltas,
            lanes,
            offsets,
        }
    })
}

/// The weights of one phase.
pub fn phase_size() -> usize {
    layout().size
}

#[inline(always)]
fn extract(b: u64, mask: u64) -> u64 {
    crate::cpu::pext(b, mask)
}

/// The table index of every feature of the position `p` (side to move) against `o`, whose legal
/// moves are `moves`: for patterns, the table's start plus the squares read as base-3 digits (0 empty,
/// 1 own, 2 opponent's).
#[inline]
pub fn features(p: u64, o: u64, moves: u64) -> [u32; FEATURES] {
    let layout = layout();
    let mut out = [0u32; FEATURES];
    for (slot, inst) in out.iter_mut().zip(&layout.instances) {
        let table = inst.digits as usize;
        // SAFETY: each copy's digit table has 2^squares entries (built with the layout), and pext of
        // the copy's mask has at most that many bits.
        let (own, theirs) = unsafe {
            (
                *layout.digits.get_unchecked(table + extract(p, inst.mask) as usize) as u32,
                *layout.digits.get_unchecked(table + extract(o, inst.mask) as usize) as u32,
            )
        };
        *slot = inst.offset + own + 2 * theirs;
    }
    out[INSTANCES..].copy_from_slice(&globals(layout, p, o, moves));
    out
}

/// The a-file of `b` as a byte, a1 in bit 0 (`pext(b, FILE_A)`): a multiplication lands each of its
/// squares, 8 bits apart, in the top byte, one 7-bit step short of the next, so no two products
/// overlap and nothing carries. As fast as `pext` and needs no instruction set.
#[inline(always)]
fn file_a(b: u64) -> u64 {
    (b & 0x0101_0101_0101_0101).wrapping_mul(0x0102_0408_1020_4080) >> 56
}

/// The table index of each global feature, then of each edge's moves.
#[inline(always)]
fn globals(layout: &Layout, p: u64, o: u64, moves: u64) -> [u32; EXTRAS] {
    let empty = !(p | o);
    let odd_quadrants = QUADRANTS.iter().filter(|&&q| (empty & q).count_ones() % 2 == 1).count() as u32;
    let replies = movegen::moves(o, p);
    let values = [
        moves.count_ones().min(MOBILITY_CAP),
        replies.count_ones().min(MOBILITY_CAP),
        (neighbours(o) & empty).count_ones().min(POTENTIAL_CAP),
        (neighbours(p) & empty).count_ones().min(POTENTIAL_CAP),
        (empty.count_ones() & 1) * 5 + odd_quadrants,
        (p & neighbours(empty)).count_ones().min(FRONTIER_CAP),
        (o & neighbours(empty)).count_ones().min(FRONTIER_CAP),
    ];
    let edge = |b: u64| [b & 0xFF, b >> 56, file_a(b), file_a(b >> 7)];
    let (own, theirs) = (edge(moves), edge(replies));
    std::array::from_fn(|i| {
        if i < GLOBALS.len() {
            layout.globals[i] + values[i]
        } else {
            let k = i - GLOBALS.len();
            let (a, b) = (own[k] as u32, theirs[k] as u32);
            let forward = a | b << 8;
            let backward = (a as u8).reverse_bits() as u32 | ((b as u8).reverse_bits() as u32) << 8;
            layout.edge_moves + forward.min(backward)
        }
    })
}

/// Lanes of a [`Patterns`] vector: the pattern copies, padded to a width that vector instructions
/// handle whole.
const LANES: usize = 64;
const _: () = assert!(INSTANCES <= LANES);
/// The lanes of the coarse patterns' copies.
const COARSE_LANES: u64 = (1 << COARSE_COPIES) - 1;

/// The base-3 value of every pattern copy of a position, read from both sides: what the learnt
/// evaluation looks up, kept up to date as the search plays moves ([`Patterns::play`]: a few vector
/// additions per flipped disc) instead of read from the bitboards at every node ([`features`]).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
#[repr(align(64))]
pub struct Patterns {
    /// Digits 1 for the side to move's discs, 2 for the opponent's.
    own: [u16; LANES],
    /// The same squares from the opponent's side: 1 for its discs, 2 for the side to move's.
    theirs: [u16; LANES],
}

impl Patterns {
    /// The values of the position `p` (side to move) against `o`, read from the bitboards.
    #[inline(always)]
    pub fn new(p: u64, o: u64) -> Patterns {
        let layout = layout();
        let mut patterns = Patterns { own: [0; LANES], theirs: [0; LANES] };
        // The flag tested once, not at each of the 128 gathers.
        let fill = |patterns: &mut Patterns, extract: fn(u64, u64) -> u64| {
            for (lane, inst) in layout.instances.iter().enumerate() {
                let table = &layout.digits[inst.digits as usize..];
                let (mine, yours) = (table[extract(p, inst.mask) as usize], table[extract(o, inst.mask) as usize]);
                patterns.own[lane] = mine + 2 * yours;
                patterns.theirs[lane] = yours + 2 * mine;
            }
        };
        #[cfg(target_arch = "x86_64")]
        if crate::cpu::has_fast_pext() {
            // SAFETY: the flag is set only when the processor has BMI2.
            fill(&mut patterns, |b, m| unsafe { crate::cpu::pext_bmi2(b, m) });
            return patterns;
        }
        fill(&mut patterns, crate::cpu::pext_soft);
        patterns
    }

    /// The values after the side to move plays `sq`, turning `flips`: seen from the opponent, who
    /// moves next.
    #[inline(always)]
    pub fn play(&self, sq: usize, flips: u64) -> Patterns {
        // The child's side to move is the opponent: its own discs are the parent's `theirs` digits.
        // The placed disc is the child's opponent's (2 for the child, 1 for the parent's side); a
        // turned one goes from the child's own (1) to its opponent's (2), the other way round from
        // the parent's side (2 to 1).
        let own = after_move(self.theirs, sq, flips, 2, 1);
        let theirs = after_move(self.own, sq, flips, 1, u16::MAX);
        Patterns { own, theirs }
    }

    /// The values after a pass: the same squares, the other side to move.
    #[inline(always)]
    pub fn pass(&self) -> Patterns {
        Patterns { own: self.theirs, theirs: self.own }
    }
}

/// The children of one position, scored from its [`Patterns`]: a move changes only the copies
/// through the squares it turns, so a child's sum is the parent's, read from the opponent's side in
/// the children's phase, corrected on those copies. The same sums as [`Weights::score_patterns`] on
/// each child, with about a third of its weight loads per child after the parent's: what a node one
/// ply above the leaves, which scores every child it tries, spends its time on.
pub struct Children<'a> {
    /// The children's phase's weights.
    phase: Phase<'a>,
    /// The parent's values from the opponent's side: each child's own before its move.
    theirs: &'a [u16; LANES],
    /// The weight of each copy at those values, and their sum.
    weights: [i16; LANES],
    sum: i32,
}

impl Children<'_> {
    /// The score of the child in which the parent's side to move has played `sq`, turning `flips`:
    /// the child is `p` (to move, the parent's opponent) against `o`, with the legal moves `moves`.
    /// In 1/[`SCALE`] disc, as [`Weights::score`] of the child.
    #[inline(always)]
    pub fn score(&self, sq: usize, flips: u64, p: u64, o: u64, moves: u64) -> i32 {
        let layout = layout();
        // As `Patterns::play`, for the child's side to move.
        let own = after_move(*self.theirs, sq, flips, 2, 1);
        let mut changed = layout.lanes[sq];
        let mut rest = flips;
        while rest != 0 {
            changed |= layout.lanes[rest.trailing_zeros() as usize];
            rest &= rest - 1;
        }
        let mut sum = self.sum;
        // Only copies contain squares, so every lane here is a copy's.
        let (mut coarse, mut fine) = (changed & COARSE_LANES, changed & !COARSE_LANES);
        while coarse != 0 {
            let lane = coarse.trailing_zeros() as usize;
            coarse &= coarse - 1;
            sum +=
                self.phase.weight::<COARSE_STEP>(layout.offsets[lane] + own[lane] as u32) - self.weights[lane] as i32;
        }
        while fine != 0 {
            let lane = fine.trailing_zeros() as usize;
            fine &= fine - 1;
            sum += self.phase.weight::<FINE_STEP>(layout.offsets[lane] + own[lane] as u32) - self.weights[lane] as i32;
        }
        sum + self.phase.extras(layout, p, o, moves)
    }

    /// [`Children::score`] in discs, as [`Weights::discs`] of the child.
    #[inline(always)]
    pub fn discs(&self, sq: usize, flips: u64, p: u64, o: u64, moves: u64) -> i32 {
        to_discs(self.score(sq, flips, p, o, moves))
    }
}

/// The sum of the pattern weights of one phase at `offsets` plus `values`, lane by lane over the
/// [`INSTANCES`] copies. (An AVX-512 gather of the weights measured no faster: the time goes into
/// reading the weights from memory, not into the indexing.)
#[inline(always)]
fn pattern_sum(phase: &Phase, offsets: &[u32; LANES], values: &[u16; LANES]) -> i32 {
    let mut sum = 0;
    for lane in 0..COARSE_COPIES {
        sum += phase.weight::<COARSE_STEP>(offsets[lane] + values[lane] as u32);
    }
    for lane in COARSE_COPIES..INSTANCES {
        sum += phase.weight::<FINE_STEP>(offsets[lane] + values[lane] as u32);
    }
    sum
}

/// `values` after a move on `sq` that turns `flips`: each copy's digit of `sq` goes from 0 to
/// `placed`, and each turned square's digit changes by `turned` (`u16::MAX` subtracts 1).
#[inline(always)]
fn after_move(mut values: [u16; LANES], sq: usize, flips: u64, placed: u16, turned: u16) -> [u16; LANES] {
    let deltas = &layout().deltas;
    add(&mut values, &deltas[sq], placed);
    let mut rest = flips;
    while rest != 0 {
        add(&mut values, &deltas[rest.trailing_zeros() as usize], turned);
        rest &= rest - 1;
    }
    values
}

/// `values += times * delta`, lane by lane, modulo 2^16 (`u16::MAX` subtracts).
#[inline(always)]
fn add(values: &mut [u16; LANES], delta: &[u16; LANES], times: u16) {
    for (v, &d) in values.iter_mut().zip(delta) {
        *v = v.wrapping_add(d.wrapping_mul(times));
    }
}

/// For each index of a phase's table: the smallest index of the same configuration read under the
/// pattern's own symmetries (a rank is its own mirror image, the 3x3 corner block its own image in
/// the diagonal, ...). The fit ties the weights of each such class, so that the evaluation of all
/// eight symmetric images of a board is the same; global features map to themselves. Built once.
pub fn canonical_indices() -> &'static [u32] {
    static CANONICAL: OnceLock<Vec<u32>> = OnceLock::new();
    CANONICAL.get_or_init(build_canonical_indices)
}

fn build_canonical_indices() -> Vec<u32> {
    let mut table = Vec::with_capacity(phase_size());
    for squares in SHAPES {
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
                        squares.iter().position(|&t| t == image).unwrap_or(0)
                    })
                    .collect()
            })
            .collect();
        // Each configuration's image under each self-symmetry, kept as the configurations are
        // counted in base 3 (no division).
        let mut digits = [0u32; MAX_SQUARES];
        let mut images = vec![0u32; perms.len()];
        for _ in 0..POW3[squares.len()] {
            table.push(offset + images.iter().copied().min().unwrap_or(0));
            for (i, digit) in digits.iter_mut().enumerate().take(squares.len()) {
                let carry = *digit == 2;
                *digit = if carry { 0 } else { *digit + 1 };
                for (image, perm) in images.iter_mut().zip(&perms) {
                    *image = if carry { *image - 2 * POW3[perm[i]] } else { *image + POW3[perm[i]] };
                }
                if !carry {
                    break;
                }
            }
        }
    }
    // The global features: each value its own class.
    let edge_moves = layout().edge_moves;
    let len = table.len() as u32;
    table.extend(len..edge_moves);
    // An edge's moves read from its other corner are the same configuration.
    for i in 0..EDGE_MOVES_SIZE {
        let (own, theirs) = ((i & 0xFF) as u8, (i >> 8) as u8);
        let reversed = own.reverse_bits() as u32 | (theirs.reverse_bits() as u32) << 8;
        table.push(edge_moves + i.min(reversed));
    }
    debug_assert_eq!(table.len(), phase_size());
    table
}

/// For each index of a phase's table: where its class comes among the phase's classes in a file
/// (its rank among the [`representatives`]). Built once.
fn class_ranks() -> &'static [u32] {
    static RANKS: OnceLock<Vec<u32>> = OnceLock::new();
    RANKS.get_or_init(|| {
        let canon = canonical_indices();
        let mut ranks = Vec::with_capacity(canon.len());
        let mut classes = 0;
        for (i, &c) in canon.iter().enumerate() {
            // A class's smallest index comes first.
            let rank = if c as usize == i {
                classes += 1;
                classes - 1
            } else {
                ranks[c as usize]
            };
            ranks.push(rank);
        }
        ranks
    })
}

/// The smallest index of each class of `canon` ([`canonical_indices`]), in increasing order: the
/// indices a weight file stores.
fn representatives(canon: &'static [u32]) -> impl Iterator<Item = usize> {
    canon.iter().enumerate().filter(|&(i, &c)| i == c as usize).map(|(i, _)| i)
}

/// What a weight file can be wrong about.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WeightsError {
    NotAWeightFile,
    Version(u32),
    /// Made for other features or phases than this build's.
    Layout,
    Size {
        expected: usize,
        found: usize,
    },
    Checksum,
    /// Weights that differ within a class of symmetric configurations (the fit ties them).
    Untied,
}

impl fmt::Display for WeightsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WeightsError::NotAWeightFile => write!(f, "not an ebony evaluation file"),
            WeightsError::Version(v) => write!(f, "evaluation file version {v}, this build reads version {VERSION}"),
            WeightsError::Layout => write!(f, "the evaluation file was made for other features than this build's"),
            WeightsError::Size { expected, found } => {
                write!(f, "the evaluation file holds {found} bytes of weights, expected {expected}")
            }
            WeightsError::Checksum => write!(f, "the evaluation file is corrupt (checksum mismatch)"),
            WeightsError::Untied => write!(f, "the weights differ within a class of symmetric configurations"),
        }
    }
}

impl std::error::Error for WeightsError {}

const MAGIC: &[u8; 4] = b"EBEV";
/// Version 3 stores each class of symmetric configurations once, as the evaluation reads it (the
/// patterns' weights as 8-bit steps, the others' as 16-bit weights), every phase after the first as
/// its change from the phase before; version 2 stored each class once as a 16-bit weight, version 1
/// every index's 16-bit weight (both read still, their patterns' weights rounded as they load).
const VERSION: u32 = 3;
const VERSION_CLASSES: u32 = 2;
const VERSION_FULL: u32 = 1;
const HEADER: usize = 4 + 4 + 8 + 4 + 4 + 8;

/// The little-endian `i16`s of a file's body.
fn little_endian(body: &[u8]) -> impl Iterator<Item = i16> + '_ {
    body.chunks_exact(2).map(|c| i16::from_le_bytes([c[0], c[1]]))
}

/// The little-endian `u32` at `at` of a header (its length checked).
fn u32_at(bytes: &[u8], at: usize) -> u32 {
    u32::from_le_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]])
}

/// The little-endian `u64` at `at` of a header (its length checked).
fn u64_at(bytes: &[u8], at: usize) -> u64 {
    u64::from(u32_at(bytes, at)) | u64::from(u32_at(bytes, at + 4)) << 32
}

/// A fingerprint of the features and phases: a file made for other ones is refused.
fn layout_fingerprint() -> u64 {
    let mut description = Vec::new();
    for squares in SHAPES {
        description.extend_from_slice(squares);
        description.push(0xFF);
    }
    for size in GLOBALS {
        description.extend_from_slice(&size.to_le_bytes());
    }
    description.extend_from_slice(&EDGE_MOVES_SIZE.to_le_bytes());
    description.extend_from_slice(&(PHASES as u32).to_le_bytes());
    description.extend_from_slice(&PHASE_WIDTH.to_le_bytes());
    fnv1a(description)
}

/// How many classes of symmetric configurations ([`representatives`]) a phase has: the coarse
/// patterns', all the patterns' (the coarse ones first), and all (the global features' and the
/// edges' moves after the patterns').
#[derive(Clone, Copy)]
struct ClassCounts {
    coarse: usize,
    patterns: usize,
    all: usize,
}

impl ClassCounts {
    fn get() -> ClassCounts {
        let (layout, ranks) = (layout(), class_ranks());
        // A pattern's first index (all its squares empty) is its class's own, so its rank counts the
        // classes before it.
        ClassCounts {
            coarse: ranks[layout.coarse_size] as usize,
            patterns: ranks[layout.patterns_size] as usize,
            all: representatives(canonical_indices()).count(),
        }
    }

    /// The classes after the patterns'.
    fn extras(self) -> usize {
        self.all - self.patterns
    }
}

/// A weight set: `PHASES` tables of `phase_size()` weights, as the evaluation reads them (`Tables`);
/// files and the trainer see them as 16-bit weights in 1/[`SCALE`] disc ([`Weights::values`]).
#[derive(PartialEq, Eq)]
pub struct Weights {
    tables: Tables,
}

/// The weights as the evaluation reads them: the patterns' as 8-bit multiples of a step (1/8 disc
/// for the edge with both X-squares, 1/16 for the others: [`COARSE_STEP`], [`FINE_STEP`]), rounded
/// to the nearest (halves to the even one, so that neither side gains on average), the few beyond 127
/// steps clipped; the global features' and the edges' moves 16-bit, in 1/[`SCALE`] disc. The
/// patterns' tables take 9.6 MB where 16 bits took 19.1, and a search runs a few percent faster
/// (docs/research-log.md, "Pattern weights in 8 bits, kept").
#[derive(PartialEq, Eq)]
struct Tables {
    /// `PHASES` blocks of `Layout::patterns_size` steps.
    patterns: Box<[i8]>,
    /// `PHASES` blocks of the weights after the patterns'.
    extras: Box<[i16]>,
}

impl Tables {
    /// The tables of each class's value, phase by phase: the patterns' in steps (`steps`, `PHASES`
    /// blocks of `ClassCounts::patterns`), the others' in 1/[`SCALE`] disc (`extras`, `PHASES` blocks
    /// of `ClassCounts::extras`), each copied to the indices of its class. 15 phases hold 9.6 M
    /// pattern weights; this is most of the start-up's time.
    fn new(steps: &[i8], extras: &[i16]) -> Tables {
        let (layout, ranks, counts) = (layout(), class_ranks(), ClassCounts::get());
        let (patterns_size, extras_size) = (layout.patterns_size, layout.size - layout.patterns_size);
        // Read at random at every evaluation, so huge pages spare TLB misses.
        let mut patterns = crate::memory::huge_vec(PHASES * patterns_size, 0i8);
        let mut table_extras = vec![0i16; PHASES * extras_size];
        let phases = patterns.chunks_exact_mut(patterns_size).zip(table_extras.chunks_exact_mut(extras_size));
        let classes = steps.chunks_exact(counts.patterns).zip(extras.chunks_exact(counts.extras()));
        for ((phase_steps, phase_extras), (steps, extras)) in phases.zip(classes) {
            spread(phase_steps, &ranks[..patterns_size], 0, steps);
            spread(phase_extras, &ranks[patterns_size..], counts.patterns, extras);
        }
        Tables { patterns: patterns.into_boxed_slice(), extras: table_extras.into_boxed_slice() }
    }

    /// Each class's value as the tables hold it, phase by phase, as [`Tables::new`] takes them.
    fn classes(&self) -> (Vec<i8>, Vec<i16>) {
        let (layout, counts) = (layout(), ClassCounts::get());
        let patterns_size = layout.patterns_size;
        let (mut steps, mut extras) =
            (Vec::with_capacity(PHASES * counts.patterns), Vec::with_capacity(PHASES * counts.extras()));
        for phase in 0..PHASES {
            let tables = self.phase(phase);
            for i in representatives(canonical_indices()) {
                if i < patterns_size {
                    steps.push(tables.patterns[i]);
                } else {
                    extras.push(tables.extras[i - patterns_size]);
                }
            }
        }
        (steps, extras)
    }

    /// The tables of one phase.
    #[inline(always)]
    fn phase(&self, phase: usize) -> Phase<'_> {
        let layout = layout();
        let extras_size = layout.size - layout.patterns_size;
        Phase {
            patterns: &self.patterns[phase * layout.patterns_size..][..layout.patterns_size],
            extras: &self.extras[phase * extras_size..][..extras_size],
        }
    }
}

/// Fills `out`, indices of one phase whose classes come at `ranks` among the phase's classes (as a
/// file stores them), with their classes' values: `classes`, which starts at the class of rank
/// `first`.
fn spread<T: Copy>(out: &mut [T], ranks: &[u32], first: usize, classes: &[T]) {
    for (out, &rank) in out.iter_mut().zip(ranks) {
        *out = classes[rank as usize - first];
    }
}

/// `steps[i]` = `weights[i]` in steps of `STEP`, as [`nearest_step`] rounds it, without its
/// division and branches: a shift and a mask, which the compiler vectorises.
fn round_to_steps<const STEP: i32>(steps: &mut [i8], weights: &[i16]) {
    const { assert!(STEP > 1 && STEP & (STEP - 1) == 0, "a power of two") };
    for (step, &weight) in steps.iter_mut().zip(weights) {
        let weight = i32::from(weight);
        let (quotient, rest) = (weight >> STEP.trailing_zeros(), weight & (STEP - 1));
        // Up past the half, and at the half to the even quotient.
        let up = i32::from(2 * rest > STEP) | (i32::from(2 * rest == STEP) & quotient);
        *step = (quotient + up).clamp(i8::MIN.into(), i8::MAX.into()) as i8;
    }
}

/// `weight` in multiples of `step`, rounded to the nearest (halves to the even one), within 8 bits:
/// the rounding that [`round_to_steps`] does faster, and the tests' reference.
#[cfg(test)]
fn nearest_step(weight: i16, step: i32) -> i8 {
    nearest_multiple(weight, step).clamp(i8::MIN.into(), i8::MAX.into()) as i8
}

/// `weight` in multiples of `step`, rounded to the nearest, halves to the even one.
#[cfg(test)]
fn nearest_multiple(weight: i16, step: i32) -> i32 {
    let (quotient, rest) = (i32::from(weight).div_euclid(step), i32::from(weight).rem_euclid(step));
    match (2 * rest).cmp(&step) {
        std::cmp::Ordering::Less => quotient,
        std::cmp::Ordering::Greater => quotient + 1,
        std::cmp::Ordering::Equal => quotient + (quotient & 1),
    }
}

/// One phase's [`Tables`].
#[derive(Clone, Copy)]
struct Phase<'a> {
    patterns: &'a [i8],
    extras: &'a [i16],
}

impl Phase<'_> {
    /// The weight at pattern index `index` (a copy's offset plus its value), whose pattern has the
    /// step `STEP`, in 1/[`SCALE`] disc.
    #[inline(always)]
    fn weight<const STEP: i32>(&self, index: u32) -> i32 {
        // SAFETY: a copy's value is below 3^squares, the size of its pattern's table at its offset,
        // and the patterns' tables make up the block.
        i32::from(unsafe { *self.patterns.get_unchecked(index as usize) }) * STEP
    }

    /// The weights of the global features and the edges' moves of the position `p` (to move) against
    /// `o`, whose legal moves are `moves`.
    #[inline(always)]
    fn extras(&self, layout: &Layout, p: u64, o: u64, moves: u64) -> i32 {
        globals(layout, p, o, moves).iter().map(|&i| self.extra(layout, i)).sum()
    }

    /// The weight at `index` of a phase's full table, for an index past the patterns'.
    #[inline(always)]
    fn extra(&self, layout: &Layout, index: u32) -> i32 {
        // SAFETY: global offsets plus capped values stay below `phase_size()`, and start at
        // `patterns_size`.
        unsafe { *self.extras.get_unchecked(index as usize - layout.patterns_size) }.into()
    }
}

impl fmt::Debug for Weights {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Weights({:016x})", self.checksum())
    }
}

impl Weights {
    /// All zero: every position scores 0.
    pub fn zero() -> Weights {
        Weights::new(vec![0; PHASES * phase_size()])
    }

    /// Weights tied as the fit ties them (checked by the caller).
    fn new(values: Vec<i16>) -> Weights {
        let canon = canonical_indices();
        let classes: Vec<i16> =
            values.chunks_exact(phase_size()).flat_map(|phase| representatives(canon).map(|i| phase[i])).collect();
        Weights::from_class_weights(&classes)
    }

    /// The weights of each class in 1/[`SCALE`] disc, phase by phase (a version-2 file's body): the
    /// patterns' rounded to their steps, each class once.
    fn from_class_weights(classes: &[i16]) -> Weights {
        let counts = ClassCounts::get();
        let mut steps = vec![0i8; PHASES * counts.patterns];
        let mut extras = Vec::with_capacity(PHASES * counts.extras());
        for (phase_steps, weights) in steps.chunks_exact_mut(counts.patterns).zip(classes.chunks_exact(counts.all)) {
            round_to_steps::<COARSE_STEP>(&mut phase_steps[..counts.coarse], &weights[..counts.coarse]);
            round_to_steps::<FINE_STEP>(&mut phase_steps[counts.coarse..], &weights[counts.coarse..counts.patterns]);
            extras.extend_from_slice(&weights[counts.patterns..]);
        }
        Weights { tables: Tables::new(&steps, &extras) }
    }

    /// Weights phase by phase, `PHASES * phase_size()` of them in 1/[`SCALE`] disc, tied as the fit
    /// ties them (every index of a class of symmetric configurations, [`canonical_indices`], has the
    /// same weight); the patterns' are rounded to their steps, as the evaluation reads them.
    pub fn from_values(values: Vec<i16>) -> Result<Weights, WeightsError> {
        let size = phase_size();
        let expected = PHASES * size;
        if values.len() != expected {
            return Err(WeightsError::Size { expected: 2 * expected, found: 2 * values.len() });
        }
        let canon = canonical_indices();
        for phase in values.chunks_exact(size) {
            if canon.iter().enumerate().any(|(i, &c)| phase[i] != phase[c as usize]) {
                return Err(WeightsError::Untied);
            }
        }
        Ok(Weights::new(values))
    }

    /// Every index's weight as the evaluation reads it (the patterns' a multiple of their step),
    /// phase by phase (`PHASES * phase_size()` of them), in 1/[`SCALE`] disc: made on each call, for
    /// the trainer and the tests.
    pub fn values(&self) -> Vec<i16> {
        let layout = layout();
        let mut values = Vec::with_capacity(PHASES * layout.size);
        for phase in 0..PHASES {
            let tables = self.tables.phase(phase);
            let (coarse, fine) = tables.patterns.split_at(layout.coarse_size);
            // A step times at most 128: within 16 bits.
            values.extend(coarse.iter().map(|&s| i16::from(s) * COARSE_STEP as i16));
            values.extend(fine.iter().map(|&s| i16::from(s) * FINE_STEP as i16));
            values.extend_from_slice(tables.extras);
        }
        values
    }

    /// The checksum that names a weight set in logs and data headers: FNV-1a of every index's
    /// weight ([`Weights::values`]) as little-endian bytes.
    pub fn checksum(&self) -> u64 {
        fnv1a(self.values().iter().flat_map(|v| v.to_le_bytes()))
    }

    /// The file format: "EBEV", version (u32), layout fingerprint (u64), phases (u32), weights a
    /// phase (u32), FNV-1a of the body's bytes (u64), all little-endian, then the body. Version 3's
    /// body: phase by phase, each class of symmetric configurations ([`canonical_indices`]) once,
    /// in the order of its smallest index, the patterns' as steps (`i8`), then the others' (`i16`),
    /// the first phase's as they are and every later phase's as its change from the phase before
    /// (wrapping; the same classes change little from one phase to the next, so git's compression
    /// takes the shipped weights' 6.4 MB file to 1.5 MB, where version 2's 11.8 MB took 5.6).
    /// Version 2's body: each class's weight once, as `i16`; version 1's: every index's (both read
    /// still).
    pub fn from_bytes(bytes: &[u8]) -> Result<Weights, WeightsError> {
        let (version, body) = Weights::body(bytes)?;
        if fnv1a(body.iter().copied()) != u64_at(bytes, 24) {
            return Err(WeightsError::Checksum);
        }
        Weights::decode(version, body)
    }

    /// Reads a weight file: one clear error (the file name and the reason) when it cannot be used,
    /// as [`crate::book::Book::read_file`] reads a book.
    pub fn read_file(path: &std::path::Path) -> Result<Weights, String> {
        let bytes = std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        Weights::from_bytes(&bytes).map_err(|e| format!("{}: {e}", path.display()))
    }

    /// [`Weights::from_bytes`] for the file built into the binary, whose checksum is left to the
    /// tests (a profile of the 30 phases' start-up put 32 ms on hashing their 23.6 MB), since the
    /// build, not a user, gives the file.
    fn from_embedded(bytes: &[u8]) -> Result<Weights, WeightsError> {
        let (version, body) = Weights::body(bytes)?;
        Weights::decode(version, body)
    }

    /// The weights of a body of `version`, its length checked.
    fn decode(version: u32, body: &[u8]) -> Result<Weights, WeightsError> {
        match version {
            VERSION => {
                let counts = ClassCounts::get();
                let mut steps: Vec<i8> = Vec::with_capacity(PHASES * counts.patterns);
                let mut extras: Vec<i16> = Vec::with_capacity(PHASES * counts.extras());
                for block in body.chunks_exact(counts.patterns + 2 * counts.extras()) {
                    let (changes, extra_changes) = block.split_at(counts.patterns);
                    steps.extend(changes.iter().map(|&b| b as i8));
                    extras.extend(little_endian(extra_changes));
                }
                // Every phase after the first: its changes added to the phase before, in order.
                for i in counts.patterns..steps.len() {
                    steps[i] = steps[i].wrapping_add(steps[i - counts.patterns]);
                }
                for i in counts.extras()..extras.len() {
                    extras[i] = extras[i].wrapping_add(extras[i - counts.extras()]);
                }
                Ok(Weights { tables: Tables::new(&steps, &extras) })
            }
            VERSION_CLASSES => Ok(Weights::from_class_weights(&little_endian(body).collect::<Vec<_>>())),
            _ => Weights::from_values(little_endian(body).collect()),
        }
    }

    /// A weight file's version and body, its header and length checked (not its checksum).
    fn body(bytes: &[u8]) -> Result<(u32, &[u8]), WeightsError> {
        if bytes.len() < HEADER || &bytes[..4] != MAGIC {
            return Err(WeightsError::NotAWeightFile);
        }
        let version = u32_at(bytes, 4);
        if !matches!(version, VERSION | VERSION_CLASSES | VERSION_FULL) {
            return Err(WeightsError::Version(version));
        }
        if u64_at(bytes, 8) != layout_fingerprint()
            || u32_at(bytes, 16) as usize != PHASES
            || u32_at(bytes, 20) as usize != phase_size()
        {
            return Err(WeightsError::Layout);
        }
        let counts = ClassCounts::get();
        let phase_bytes = match version {
            VERSION => counts.patterns + 2 * counts.extras(),
            VERSION_CLASSES => 2 * counts.all,
            _ => 2 * phase_size(),
        };
        let body = &bytes[HEADER..];
        let expected = PHASES * phase_bytes;
        if body.len() != expected {
            return Err(WeightsError::Size { expected, found: body.len() });
        }
        Ok((version, body))
    }

    /// The weights as a file of the current version ([`Weights::from_bytes`]).
    pub fn to_bytes(&self) -> Vec<u8> {
        let counts = ClassCounts::get();
        let (mut steps, mut extras) = self.tables.classes();
        // Every phase after the first as its change from the phase before, the last phase first.
        for i in (counts.patterns..steps.len()).rev() {
            steps[i] = steps[i].wrapping_sub(steps[i - counts.patterns]);
        }
        for i in (counts.extras()..extras.len()).rev() {
            extras[i] = extras[i].wrapping_sub(extras[i - counts.extras()]);
        }
        let mut body = Vec::with_capacity(PHASES * (counts.patterns + 2 * counts.extras()));
        for (steps, extras) in steps.chunks_exact(counts.patterns).zip(extras.chunks_exact(counts.extras())) {
            body.extend(steps.iter().map(|&s| s as u8));
            body.extend(extras.iter().flat_map(|w| w.to_le_bytes()));
        }
        let mut out = Vec::with_capacity(HEADER + body.len());
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&VERSION.to_le_bytes());
        out.extend_from_slice(&layout_fingerprint().to_le_bytes());
        out.extend_from_slice(&(PHASES as u32).to_le_bytes());
        out.extend_from_slice(&(phase_size() as u32).to_le_bytes());
        out.extend_from_slice(&fnv1a(body.iter().copied()).to_le_bytes());
        out.extend_from_slice(&body);
        out
    }

    /// The estimate for the side to move `p` against `o`, whose legal moves are `moves`, in
    /// 1/[`SCALE`] disc.
    #[inline(always)]
    pub fn score(&self, p: u64, o: u64, moves: u64) -> i32 {
        let layout = layout();
        let phase = self.tables.phase(phase((!(p | o)).count_ones()));
        // Every feature index is below `phase_size()` (pattern offsets plus base-3 values of their
        // squares, global offsets plus capped values; the tests check the bound), and the copies'
        // come first, the coarse patterns' before the others.
        let indices = features(p, o, moves);
        let (copies, extras) = indices.split_at(INSTANCES);
        let (coarse, fine) = copies.split_at(COARSE_COPIES);
        coarse.iter().map(|&i| phase.weight::<COARSE_STEP>(i)).sum::<i32>()
            + fine.iter().map(|&i| phase.weight::<FINE_STEP>(i)).sum::<i32>()
            + extras.iter().map(|&i| phase.extra(layout, i)).sum::<i32>()
    }

    /// [`Weights::score`] from the position's [`Patterns`], kept by the caller as moves are played.
    #[inline(always)]
    pub fn score_patterns(&self, patterns: &Patterns, p: u64, o: u64, moves: u64) -> i32 {
        let layout = layout();
        let phase = self.tables.phase(phase((!(p | o)).count_ones()));
        pattern_sum(&phase, &layout.offsets, &patterns.own) + phase.extras(layout, p, o, moves)
    }

    /// The children of the position whose values are `patterns`, with `empties` empty squares, to
    /// be scored one by one ([`Children`]).
    #[inline(always)]
    pub fn children<'a>(&'a self, patterns: &'a Patterns, empties: u32) -> Children<'a> {
        let layout = layout();
        let phase = self.tables.phase(phase(empties.saturating_sub(1)));
        let mut weights = [0i16; LANES];
        let mut sum = 0;
        for (lane, w) in weights.iter_mut().enumerate().take(INSTANCES) {
            let index = layout.offsets[lane] + patterns.theirs[lane] as u32;
            let weight = if lane < COARSE_COPIES {
                phase.weight::<COARSE_STEP>(index)
            } else {
                phase.weight::<FINE_STEP>(index)
            };
            // A step times at most 128: within 16 bits.
            *w = weight as i16;
            sum += weight;
        }
        Children { phase, theirs: &patterns.theirs, weights, sum }
    }

    /// The estimate in discs, rounded, within -64..=64.
    #[inline]
    pub fn discs(&self, p: u64, o: u64, moves: u64) -> i32 {
        to_discs(self.score(p, o, moves))
    }

    /// [`Weights::discs`] from the position's [`Patterns`].
    #[inline(always)]
    pub fn discs_patterns(&self, patterns: &Patterns, p: u64, o: u64, moves: u64) -> i32 {
        to_discs(self.score_patterns(patterns, p, o, moves))
    }
}

/// A score in 1/[`SCALE`] disc as discs, rounded, within -64..=64.
#[inline(always)]
fn to_discs(score: i32) -> i32 {
    ((score + SCALE / 2).div_euclid(SCALE)).clamp(-64, 64)
}

/// The weights built into the binary (`weights.ebev`, fitted by `ebony-train fit`; see
/// `docs/evaluation.md` for the commands that rebuild it).
pub fn builtin() -> &'static Weights {
    // The file is part of the source: a mismatch with the features is a build error that the unit
    // tests catch, not an input to recover from.
    try_builtin().expect("the embedded weights fit this build's features")
}

/// The built-in weights, or why they do not fit this build: a build whose features have changed
/// before new weights were fitted for them (the trainer's, while it fits them) has none.
pub fn try_builtin() -> Result<&'static Weights, WeightsError> {
    static WEIGHTS: OnceLock<Result<Weights, WeightsError>> = OnceLock::new();
    WEIGHTS.get_or_init(|| Weights::from_embedded(include_bytes!("weights.ebev"))).as_ref().map_err(Clone::clone)
}

/// How well `weights` order scored moves: over positions with exactly scored moves (obf entries), the
/// share of move pairs with different scores in which the better move's child looks worse for the
/// opponent (a tie counts half; 0.5 is chance). The fit and the tests report it on FFO positions.
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
                    Some((weights.score(child.player, child.opponent, child.moves()), score))
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
    use crate::rules::symmetry::canonical;

    #[test]
    fn the_a_file_by_multiplication_is_pext() {
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        for _ in 0..10_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            assert_eq!(file_a(x), crate::cpu::pext_soft(x, 0x0101_0101_0101_0101), "{x:#x}");
            assert_eq!(file_a(x >> 7), crate::cpu::pext_soft(x, 0x8080_8080_8080_8080), "{x:#x}");
        }
    }

    #[test]
    fn builtin_weights_order_ffo_moves_and_estimate_their_scores() {
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
                let b = e.position.board;
                (builtin().score(b.player, b.opponent, b.moves()) as f64 / SCALE as f64 - best).abs()
            })
            .sum::<f64>()
            / entries.len() as f64;
        eprintln!(
            "learnt weights: {:.1}% of FFO move pairs in the right order, mean error {error:.1} discs",
            100.0 * order
        );
        assert!(order > 0.72, "{order}");
        assert!(error < 10.0, "mean error {error:.1}");
    }

    #[test]
    fn builtin_weights_load_and_judge_corners() {
        let weights = builtin();
        assert_ne!(weights.checksum(), Weights::zero().checksum());
        // Loaded as a user's file would be, checksum and all, the embedded file gives the same.
        let file = Weights::from_bytes(include_bytes!("weights.ebev")).expect("the embedded file is sound");
        assert!(file == *weights);
        assert!(weights.to_bytes() == include_bytes!("weights.ebev"), "written back as the same file");
        // Black (to move) holds a1 and h8 in an otherwise quiet midgame position; the same position
        // with the corners given to white must look worse for black.
        let quiet_p = 0x0000_0018_1C00_0000u64;
        let quiet_o = 0x0000_2420_2000_0000u64;
        let corners = 1 | 1 << 63;
        let good = weights.score(quiet_p | corners, quiet_o, movegen::moves(quiet_p | corners, quiet_o));
        let bad = weights.score(quiet_p, quiet_o | corners, movegen::moves(quiet_p, quiet_o | corners));
        assert!(good > bad + 8 * SCALE, "corners: {good} vs {bad}");
    }

    /// The next state of a xorshift generator: the tests' random boards and moves.
    fn xorshift(rng: &mut u64) -> u64 {
        *rng ^= *rng << 13;
        *rng ^= *rng >> 7;
        *rng ^= *rng << 17;
        *rng
    }

    /// One of `moves` (not empty), drawn with `rng`.
    fn random_move(rng: &mut u64, moves: u64) -> crate::rules::square::Square {
        let k = xorshift(rng) % moves.count_ones() as u64;
        crate::rules::square::Squares(moves).nth(k as usize).expect("moves is not empty")
    }

    fn random_boards(count: usize) -> Vec<(u64, u64)> {
        let mut rng = 0x9E37_79B9_7F4A_7C15u64;
        (0..count)
            .map(|_| {
                let rng = xorshift(&mut rng);
                let p = rng & 0x5A5A_F0F0_3C3C_0FF0;
                (p, !p & rng.rotate_left(17))
            })
            .collect()
    }

    #[test]
    fn every_square_is_covered_and_copies_are_distinct() {
        let instances = &layout().instances;
        let covered = instances.iter().fold(0u64, |c, inst| c | inst.mask);
        assert_eq!(covered, u64::MAX);
        for (i, a) in instances.iter().enumerate() {
            assert!(instances[..i].iter().all(|b| b.mask != a.mask || b.offset != a.offset));
        }
    }

    /// The definition: a copy reads the canonical squares, in order, of one symmetric image of the
    /// board; the features are the pattern tables' indices of all copies.
    fn reference_pattern_indices(p: u64, o: u64) -> Vec<u32> {
        let mut out = Vec::new();
        let mut offset = 0;
        for squares in SHAPES {
            let mut seen = Vec::new();
            for k in 0..8 {
                let region = (0..64)
                    .filter(|&s| squares.contains(&((symmetry(k, 1u64 << s)).trailing_zeros() as u8)))
                    .fold(0u64, |r, s| r | 1 << s);
                if seen.contains(&region) {
                    continue;
                }
                seen.push(region);
                let (sp, so) = (symmetry(k, p), symmetry(k, o));
                let digit = |s: u8| u32::from(sp >> s & 1 != 0) + 2 * u32::from(so >> s & 1 != 0);
                out.push(offset + squares.iter().enumerate().map(|(i, &s)| digit(s) * POW3[i]).sum::<u32>());
            }
            offset += POW3[squares.len()];
        }
        out
    }

    #[test]
    fn features_match_their_definition() {
        for (p, o) in random_boards(500) {
            assert_eq!(features(p, o, movegen::moves(p, o))[..INSTANCES], reference_pattern_indices(p, o)[..]);
        }
    }

    #[test]
    fn edge_moves_read_each_edge_from_its_corners() {
        let layout = layout();
        // Square indices of each edge from one corner to the other.
        let edges: [[u8; 8]; 4] = [
            [0, 1, 2, 3, 4, 5, 6, 7],
            [56, 57, 58, 59, 60, 61, 62, 63],
            std::array::from_fn(|i| 8 * i as u8),
            std::array::from_fn(|i| 8 * i as u8 + 7),
        ];
        for (p, o) in random_boards(300) {
            let (moves, replies) = (movegen::moves(p, o), movegen::moves(o, p));
            let read = |squares: &mut dyn Iterator<Item = &u8>| {
                squares.enumerate().fold(0u32, |v, (i, &sq)| {
                    v | ((moves >> sq) as u32 & 1) << i | ((replies >> sq) as u32 & 1) << (i + 8)
                })
            };
            let mut expected: Vec<u32> =
                edges.iter().map(|e| layout.edge_moves + read(&mut e.iter()).min(read(&mut e.iter().rev()))).collect();
            let mut found = features(p, o, moves)[INSTANCES + GLOBALS.len()..].to_vec();
            expected.sort();
            found.sort();
            assert_eq!(found, expected);
        }
    }

    #[test]
    fn features_read_own_and_opponent_digits() {
        // Only a1 own: the first-rank copy that starts at a1 reads digit 1 at position 0.
        assert_eq!(features(1, 0, 0)[0], 1);
        assert_eq!(features(0, 1, 0)[0], 2);
        let f = features(1, 0, 0);
        assert!(f.iter().all(|&i| (i as usize) < phase_size()));
    }

    #[test]
    fn phases_cover_every_empty_count() {
        assert_eq!(phase(0), 0);
        assert_eq!(phase(PHASE_WIDTH - 1), 0);
        assert_eq!(phase(PHASE_WIDTH), 1);
        assert_eq!(phase(59), PHASES - 1);
        assert_eq!(phase(60), PHASES - 1);
        assert_eq!(phase(64), PHASES - 1);
    }

    #[test]
    fn a_class_is_a_configuration_and_its_images_under_the_patterns_own_symmetries() {
        let canon = canonical_indices();
        let mut offset = 0;
        for squares in SHAPES {
            let mask = squares.iter().fold(0u64, |m, &s| m | 1 << s);
            for config in 0..POW3[squares.len()] {
                // The board of the configuration, each of its images read back in the pattern's order.
                let (mut p, mut o) = (0u64, 0u64);
                for (i, &sq) in squares.iter().enumerate() {
                    match config / POW3[i] % 3 {
                        1 => p |= 1 << sq,
                        2 => o |= 1 << sq,
                        _ => {}
                    }
                }
                let least = (0..8)
                    .filter(|&k| symmetry(k, mask) == mask)
                    .map(|k| {
                        let (ip, io) = (symmetry(k, p), symmetry(k, o));
                        squares
                            .iter()
                            .enumerate()
                            .map(|(i, &sq)| POW3[i] * ((ip >> sq & 1) + 2 * (io >> sq & 1)) as u32)
                            .sum()
                    })
                    .min();
                assert_eq!(Some(canon[(offset + config) as usize] - offset), least, "{squares:?} {config}");
            }
            offset += POW3[squares.len()];
        }
        assert_eq!(class_ranks().iter().max().map(|&r| r as usize + 1), Some(representatives(canon).count()));
    }

    /// 16-bit weights tied as the fit ties them, different in every phase, many past 127 steps.
    fn tied_values() -> Vec<i16> {
        let canon = canonical_indices();
        (0..PHASES)
            .flat_map(|ph| canon.iter().map(move |&c| ((c as usize * 7 + ph * 13) % 2001) as i16 - 1000))
            .collect()
    }

    fn tied_weights() -> Weights {
        Weights::from_values(tied_values()).unwrap()
    }

    #[test]
    fn weights_round_to_the_nearest_step_halves_to_even() {
        let cases = [(0, 0), (1, 0), (2, 0), (3, 1), (5, 1), (6, 2), (10, 2), (-2, 0), (-3, -1), (-6, -2), (-10, -2)];
        for (weight, steps) in cases {
            assert_eq!(nearest_step(weight, FINE_STEP), steps, "{weight}");
        }
        assert_eq!(nearest_step(12, COARSE_STEP), 2);
        assert_eq!(nearest_step(-12, COARSE_STEP), -2);
        assert_eq!(nearest_step(508, FINE_STEP), 127);
        assert_eq!(nearest_step(600, FINE_STEP), 127);
        assert_eq!(nearest_step(-1000, FINE_STEP), -128);
        assert_eq!(nearest_step(i16::MAX, COARSE_STEP), 127);
        // The tables' vectorised rounding is the same, for every weight and both steps.
        let weights: Vec<i16> = (i16::MIN..=i16::MAX).collect();
        let mut steps = vec![0i8; weights.len()];
        round_to_steps::<COARSE_STEP>(&mut steps, &weights);
        assert!(weights.iter().zip(&steps).all(|(&w, &s)| s == nearest_step(w, COARSE_STEP)));
        round_to_steps::<FINE_STEP>(&mut steps, &weights);
        assert!(weights.iter().zip(&steps).all(|(&w, &s)| s == nearest_step(w, FINE_STEP)));
    }

    #[test]
    fn the_evaluation_reads_16_bit_weights_rounded_to_their_steps() {
        use crate::rules::board::Board;
        let layout = layout();
        // 16-bit weights as a fit writes them: the built-in ones (multiples of their steps) moved
        // by up to half a step either way, alike for a whole class (halves included, which the
        // rounding sends to the even step; most steps are 0, so halves up would move them), and a
        // few moved past 127 steps.
        let canon = canonical_indices();
        let mut values = builtin().values();
        for (phase, chunk) in values.chunks_exact_mut(layout.size).enumerate() {
            for (i, value) in chunk.iter_mut().enumerate().take(layout.patterns_size) {
                let step = if i < layout.coarse_size { COARSE_STEP } else { FINE_STEP };
                let hash = (canon[i] as usize * 2_654_435_761 + phase * 40_503) >> 7;
                let jitter = (hash % (step as usize + 1)) as i32 - step / 2;
                let past = if hash.is_multiple_of(997) { 130 * step } else { 0 };
                *value = (i32::from(*value) + jitter + past).clamp(-32768, 32767) as i16;
            }
        }
        let weights = Weights::from_values(values.clone()).expect("tied by class");
        let mut rng = 0x9E37_79B9_7F4A_7C15u64;
        let (mut positions, mut moved, mut reads, mut clipped) = (0, 0i64, 0, 0);
        for _ in 0..20 {
            let mut board = Board::START;
            while !board.is_game_over() {
                if board.moves() == 0 {
                    board = board.pass();
                    continue;
                }
                let (p, o, moves) = (board.player, board.opponent, board.moves());
                let phase = &values[phase(board.empty_count()) * layout.size..][..layout.size];
                let mut rounded = 0;
                for (k, &i) in features(p, o, moves).iter().enumerate() {
                    let weight = phase[i as usize];
                    let step = match k {
                        k if k < COARSE_COPIES => COARSE_STEP,
                        k if k < INSTANCES => FINE_STEP,
                        _ => 1,
                    };
                    let multiple = nearest_multiple(weight, step);
                    let read = if step == 1 { multiple } else { multiple.clamp(-128, 127) };
                    if read == multiple {
                        moved += i64::from(read * step - i32::from(weight));
                        reads += 1;
                    } else {
                        clipped += 1;
                    }
                    rounded += read * step;
                }
                assert_eq!(weights.score(p, o, moves), rounded);
                positions += 1;
                board = board.play(random_move(&mut rng, moves));
            }
        }
        // Rounding halves up would move every estimate by about 1/128 disc a copy here (two fifths
        // of the weights are halves, moved by half a step): about half a disc. The weights
        // past 127 steps are clipped, a change of another kind (the held-out error counts it).
        let bias = moved as f64 / positions as f64 / SCALE as f64;
        assert!(bias.abs() < 0.05, "the rounded estimates move by {bias:.3} discs on average");
        assert!(clipped > 0 && clipped * 100 < reads, "{clipped} of {reads} weights read clipped");
    }

    #[test]
    fn patterns_kept_by_moves_and_passes_and_children_match_the_bitboards() {
        use crate::rules::board::Board;
        use crate::rules::square::Squares;
        let weights = tied_weights();
        let mut rng = 0x2545_F491_4F6C_DD1Du64;
        let (mut positions, mut passes) = (0, 0);
        for _ in 0..40 {
            let mut board = Board::START;
            let mut patterns = Patterns::new(board.player, board.opponent);
            loop {
                assert_eq!(patterns, Patterns::new(board.player, board.opponent));
                let moves = board.moves();
                let (p, o) = (board.player, board.opponent);
                assert_eq!(weights.score_patterns(&patterns, p, o, moves), weights.score(p, o, moves));
                assert_eq!(builtin().discs_patterns(&patterns, p, o, moves), builtin().discs(p, o, moves));
                // Every child scored from this position's values, as on its own.
                let children = [
                    weights.children(&patterns, board.empty_count()),
                    builtin().children(&patterns, board.empty_count()),
                ];
                for sq in Squares(moves) {
                    let flips = board.flips(sq);
                    let child = board.play_flips(sq, flips);
                    let (cp, co, cm) = (child.player, child.opponent, child.moves());
                    assert_eq!(children[0].score(sq.index(), flips, cp, co, cm), weights.score(cp, co, cm));
                    assert_eq!(children[1].discs(sq.index(), flips, cp, co, cm), builtin().discs(cp, co, cm));
                }
                positions += 1;
                if moves == 0 {
                    if board.pass().moves() == 0 {
                        break;
                    }
                    (board, patterns) = (board.pass(), patterns.pass());
                    passes += 1;
                    continue;
                }
                let sq = random_move(&mut rng, moves);
                let flips = board.flips(sq);
                (board, patterns) = (board.play_flips(sq, flips), patterns.play(sq.index(), flips));
            }
        }
        assert!(positions > 2000 && passes > 0, "{positions} positions, {passes} passes");
    }

    #[test]
    fn symmetric_boards_evaluate_alike() {
        let weights = tied_weights();
        for (p, o) in random_boards(300) {
            let moves = movegen::moves(p, o);
            let base = weights.score(p, o, moves);
            for k in 1..8 {
                let (sp, so) = (symmetry(k, p), symmetry(k, o));
                assert_eq!(weights.score(sp, so, movegen::moves(sp, so)), base, "symmetry {k}");
            }
            let (cp, co) = canonical(p, o);
            assert_eq!(weights.score(cp, co, movegen::moves(cp, co)), base);
        }
    }

    #[test]
    fn weight_files_round_trip_and_refuse_damage() {
        let weights = tied_weights();
        let bytes = weights.to_bytes();
        let back = Weights::from_bytes(&bytes).unwrap();
        assert_eq!(back.values(), weights.values());
        let mut damaged = bytes.clone();
        damaged[HEADER + 1000] ^= 1;
        assert_eq!(Weights::from_bytes(&damaged).err(), Some(WeightsError::Checksum));
        assert_eq!(
            Weights::from_bytes(&bytes[..bytes.len() - 2]).err().map(|e| matches!(e, WeightsError::Size { .. })),
            Some(true)
        );
        assert_eq!(Weights::from_bytes(b"EBPW\0\0").err(), Some(WeightsError::NotAWeightFile));
        let mut other = bytes.clone();
        other[4] = 9;
        assert_eq!(Weights::from_bytes(&other).err(), Some(WeightsError::Version(9)));
        let mut other = bytes.clone();
        other[8] ^= 1;
        assert_eq!(Weights::from_bytes(&other).err(), Some(WeightsError::Layout));
        // Any body of the right length is a weight set (changes wrap): bytes scrambled anywhere,
        // the checksum made right, load and write back byte for byte.
        let mut scrambled = bytes;
        let mut rng = 0x0123_4567_89AB_CDEFu64;
        for _ in 0..5000 {
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            let at = HEADER + (rng >> 24) as usize % (scrambled.len() - HEADER);
            scrambled[at] = rng as u8;
        }
        let sum = fnv1a(scrambled[HEADER..].iter().copied());
        scrambled[24..32].copy_from_slice(&sum.to_le_bytes());
        let loaded = Weights::from_bytes(&scrambled).expect("a body of the right length loads");
        assert!(loaded.to_bytes() == scrambled, "written back as it was read");
    }

    #[test]
    fn files_store_each_class_once_and_older_versions_still_read() {
        let values = tied_values();
        let weights = Weights::from_values(values.clone()).unwrap();
        let compact = weights.to_bytes();
        let counts = ClassCounts::get();
        assert!(counts.all < phase_size() * 2 / 3, "{} classes of {} indices", counts.all, phase_size());
        let phase_bytes = counts.patterns + 2 * counts.extras();
        assert_eq!(compact.len(), HEADER + PHASES * phase_bytes);
        // Every phase after the first is stored as its change: the same weights in every phase
        // leave only zeros after the first phase's bytes.
        let first = &values[..phase_size()];
        let alike = Weights::from_values(first.repeat(PHASES)).unwrap();
        let bytes = alike.to_bytes();
        assert!(bytes[HEADER..][..phase_bytes].iter().any(|&b| b != 0));
        assert!(bytes[HEADER + phase_bytes..].iter().all(|&b| b == 0));
        assert_eq!(Weights::from_bytes(&bytes).unwrap().values(), alike.values());
        // An older file of the same 16-bit weights reads as the same tables, its patterns' weights
        // rounded to their steps as they load: version 2, each class's weight once...
        let with_body = |version: u32, body: Vec<u8>| {
            let mut file = compact[..HEADER].to_vec();
            file[4..8].copy_from_slice(&version.to_le_bytes());
            file[24..32].copy_from_slice(&fnv1a(body.iter().copied()).to_le_bytes());
            file.extend_from_slice(&body);
            file
        };
        let canon = canonical_indices();
        let classes = values.chunks_exact(phase_size()).flat_map(|phase| representatives(canon).map(|i| phase[i]));
        let classes = with_body(VERSION_CLASSES, classes.flat_map(i16::to_le_bytes).collect());
        assert!(Weights::from_bytes(&classes).unwrap() == weights);
        // ... and version 1, every index's.
        let full = with_body(VERSION_FULL, values.iter().flat_map(|v| v.to_le_bytes()).collect());
        assert!(Weights::from_bytes(&full).unwrap() == weights);
        // A full file whose weights differ inside a class is refused, as are such values.
        let (a, b) = (0..phase_size()).map(|i| (canon[i] as usize, i)).find(|(c, i)| c != i).unwrap();
        let mut untied_values = values.clone();
        untied_values[b] = untied_values[a].wrapping_add(1);
        assert_eq!(Weights::from_values(untied_values.clone()).err(), Some(WeightsError::Untied));
        let untied = with_body(VERSION_FULL, untied_values.iter().flat_map(|v| v.to_le_bytes()).collect());
        assert_eq!(Weights::from_bytes(&untied).err(), Some(WeightsError::Untied));
    }

    #[test]
    fn discs_round_and_clamp() {
        let size = phase_size();
        let mut values = vec![0i16; PHASES * size];
        // The start position (60 empties, last phase): the parity feature alone carries a weight.
        let f = features(0x0000_0008_1000_0000, 0x0000_0010_0800_0000, 0);
        values[(PHASES - 1) * size + f[INSTANCES + GLOBALS.len() - 1] as usize] = 96;
        let w = Weights::from_values(values).unwrap();
        assert_eq!(w.score(0x0000_0008_1000_0000, 0x0000_0010_0800_0000, 0), 96);
        assert_eq!(w.discs(0x0000_0008_1000_0000, 0x0000_0010_0800_0000, 0), 2);
    }
}
