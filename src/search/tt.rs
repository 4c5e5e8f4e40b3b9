//! The transposition table, one for the midgame search and the endgame solver: a fixed number of
//! megabytes of power-of-two buckets, each bucket one cache line of two entries. An entry is keyed by
//! the full board (no false hits) and keeps a lower and an upper bound, the best move, the draft, the
//! search's age and the selectivity level of the search that found the bounds. Single-threaded: a
//! probe is a plain read, no lock.
//!
//! The draft is the depth searched; a search to the end of the game has a draft of at least the
//! empties, so the solver's entries (draft = empties) are exact and usable by the midgame at any
//! depth, and the solver trusts a midgame entry only when it reached the end. The level says how
//! selective that search was: [`EXACT`] for a search that prunes nothing unsound, lower for a
//! selective pass (the midgame's Multi-ProbCut levels, `crate::search::probcut`, 0 for the most
//! selective; the solver's ProbCut pre-search stores level 0 too).
//! A search trusts bounds of its own level or surer, and takes any entry's move for its ordering.
//!
//! Replacement: the first slot keeps the entry of the current search with the most draft (the most
//! work saved), the second is replaced always.

use crate::rules::board::Board;

/// No move stored.
pub const NO_MOVE: u8 = 64;

/// The level of bounds from a search that prunes nothing unsound.
pub const EXACT: u8 = u8::MAX;

/// What the table knows about one position.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Entry {
    pub player: u64,
    pub opponent: u64,
    /// The score is at least `lower` and at most `upper` at this draft (scores are disc differences,
    /// so -64 and 64 say nothing).
    pub lower: i8,
    pub upper: i8,
    /// Square index of the best move found, or [`NO_MOVE`].
    pub best: u8,
    /// The depth searched; 0 marks an empty slot.
    pub draft: u8,
    pub age: u8,
    /// How far the bounds can be trusted: [`EXACT`], or the level of the selective pass that found them.
    pub level: u8,
}

const EMPTY_ENTRY: Entry =
    Entry { player: 0, opponent: 0, lower: -64, upper: 64, best: NO_MOVE, draft: 0, age: 0, level: 0 };

/// A bucket fills one cache line and starts on one, so a probe reads one line, never two.
#[derive(Clone, Copy)]
#[repr(align(64))]
struct Bucket([Entry; 2]);

const _: () = assert!(std::mem::size_of::<Bucket>() == 64);

pub struct Table {
    buckets: Vec<Bucket>,
    mask: usize,
    age: u8,
    /// The level of the pass now storing and probing (see [`Entry::level`]).
    level: u8,
}

impl Table {
    /// A table of about `mb` megabytes (at least one; a power of two buckets).
    pub fn new(mb: usize) -> Table {
        let bytes = mb.max(1).saturating_mul(1 << 20);
        let wanted = (bytes / std::mem::size_of::<Bucket>()).max(1);
        let count = if wanted.is_power_of_two() { wanted } else { wanted.next_power_of_two() / 2 };
        // Probes land anywhere in the table: with 4 KB pages nearly each one would miss the TLB too.
        let buckets = crate::memory::huge_vec(count, Bucket([EMPTY_ENTRY; 2]));
        Table { buckets, mask: count - 1, age: 1, level: EXACT }
    }

    /// Forgets every entry.
    pub fn clear(&mut self) {
        self.buckets.fill(Bucket([EMPTY_ENTRY; 2]));
        self.age = 1;
        self.level = EXACT;
    }

    /// Marks a new search: entries of older searches become the first to be replaced, and stay usable.
    pub fn new_search(&mut self) {
        // Age 0 is never current, so that an empty slot never looks like this search's.
        self.age = self.age.wrapping_add(1).max(1);
        self.level = EXACT;
    }

    /// Sets the level of the pass that stores and probes from now on: [`EXACT`] or a selective
    /// pass's (lower).
    pub fn set_level(&mut self, level: u8) {
        self.level = level;
    }

    /// Whether an entry's bounds hold for the current pass: they come from a pass at least as sure.
    #[inline(always)]
    pub fn trusted(&self, entry: &Entry) -> bool {
        entry.level >= self.level
    }

    #[inline(always)]
    fn index(&self, player: u64, opponent: u64) -> usize {
        let h = (player ^ opponent.rotate_left(23)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        let h = h ^ (opponent.wrapping_mul(0xC2B2_AE3D_27D4_EB4F) >> 29);
        (h >> 20) as usize & self.mask
    }

    /// The entry of exactly this board (`player` to move against `opponent`), if stored.
    #[inline(always)]
    pub fn probe(&self, player: u64, opponent: u64) -> Option<Entry> {
        let bucket = &self.buckets[self.index(player, opponent)].0;
        bucket.iter().find(|e| e.player == player && e.opponent == opponent && e.draft != 0).copied()
    }

    /// [`Table::probe`] for a board.
    #[inline(always)]
    pub fn probe_board(&self, board: &Board) -> Option<Entry> {
        self.probe(board.player, board.opponent)
    }

    /// Starts loading a board's bucket into the cache, so that a probe soon after does not wait.
    #[inline(always)]
    pub fn prefetch(&self, player: u64, opponent: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            let bucket: *const Bucket = &self.buckets[self.index(player, opponent)];
            // SAFETY: a prefetch is only a hint: it reads nothing the program sees and cannot fault,
            // and the address is that of a live bucket.
            unsafe { std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(bucket.cast()) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = (player, opponent);
    }

    /// Records bounds found at `draft` for a board, merging them with what the table knows of it:
    /// deeper bounds stay, then surer ones (a shallower or less sure search only adds a move where
    /// there is none); bounds of the same draft and level are intersected.
    #[inline(always)]
    pub fn store(&mut self, player: u64, opponent: u64, draft: u32, lower: i32, upper: i32, best: u8) {
        let level = self.level;
        let age = self.age;
        let draft = draft.clamp(1, 255) as u8;
        let index = self.index(player, opponent);
        let bucket = &mut self.buckets[index].0;
        let mut entry = Entry {
            player,
            opponent,
            lower: lower.clamp(-64, 64) as i8,
            upper: upper.clamp(-64, 64) as i8,
            best,
            draft,
            age,
            level,
        };
        for slot in bucket.iter_mut() {
            if slot.player == player && slot.opponent == opponent && slot.draft != 0 {
                // Deeper first, then surer: (draft, level) decides which bounds stay.
                if (slot.draft, slot.level) > (draft, level) {
                    // This search only adds a move where there is none. A deeper entry it met again
                    // is worth keeping, so it becomes this search's; a surer one of the same draft
                    // does not (a selective pass only passes through).
                    if slot.best == NO_MOVE {
                        slot.best = best;
                    }
                    if slot.draft > draft {
                        slot.age = age;
                    }
                    return;
                }
                if (slot.draft, slot.level) == (draft, level) {
                    let (l, u) = (entry.lower.max(slot.lower), entry.upper.min(slot.upper));
                    // A clash means the earlier bound came from another path; the new result wins.
                    if l <= u {
                        (entry.lower, entry.upper) = (l, u);
                    }
                }
                if best == NO_MOVE {
                    entry.best = slot.best;
                }
                *slot = entry;
                return;
            }
        }
        if bucket[0].age != age || bucket[0].draft <= draft {
            bucket[1] = bucket[0];
            bucket[0] = entry;
        } else {
            bucket[1] = entry;
        }
    }

    /// Records the result `score` of a fail-soft search of `board` at `draft` in the window
    /// (`alpha`, `beta`): an upper bound at or below alpha, a lower bound at or above beta, else exact.
    #[inline(always)]
    pub fn store_result(&mut self, board: &Board, draft: u32, alpha: i32, beta: i32, score: i32, best: u8) {
        let (lower, upper) = bounds(score, alpha, beta);
        self.store(board.player, board.opponent, draft, lower, upper, best);
    }
}

/// The bounds a fail-soft `score` in the window (`alpha`, `beta`) gives: an upper bound at or below
/// alpha, a lower bound at or above beta, else the exact value.
#[inline(always)]
pub fn bounds(score: i32, alpha: i32, beta: i32) -> (i32, i32) {
    if score <= alpha {
        (-64, score)
    } else if score >= beta {
        (score, 64)
    } else {
        (score, score)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const P: u64 = 0x0000_0010_0800_0000;
    const O: u64 = 0x0000_0008_1000_0000;

    #[test]
    fn size_is_a_power_of_two_within_budget() {
        let t = Table::new(1);
        assert!(t.buckets.len().is_power_of_two());
        assert_eq!(t.buckets.len() * std::mem::size_of::<Bucket>(), 1 << 20);
        assert_eq!(Table::new(3).buckets.len() * 64, 2 << 20);
    }

    #[test]
    fn results_become_bounds_and_boards_are_verified() {
        let mut t = Table::new(1);
        let b = Board::START;
        assert_eq!(t.probe_board(&b), None);
        t.store_result(&b, 5, -3, 3, 10, 19);
        let e = t.probe_board(&b).expect("stored");
        assert_eq!((e.lower, e.upper, e.best, e.draft, e.level), (10, 64, 19, 5, EXACT));
        t.store_result(&b, 5, 0, 20, 12, 19);
        let e = t.probe_board(&b).expect("stored");
        assert_eq!((e.lower, e.upper), (12, 12));
        // The same discs with the other side to move are another board.
        assert_eq!(t.probe_board(&b.pass()), None);
        t.clear();
        assert_eq!(t.probe_board(&b), None);
    }

    #[test]
    fn deeper_drafts_replace_and_shallower_ones_only_add_a_move() {
        let mut t = Table::new(1);
        t.store(P, O, 4, -64, 3, NO_MOVE);
        t.store(P, O, 8, 5, 64, 19);
        t.store(P, O, 6, -64, -10, 37);
        let e = t.probe(P, O).expect("stored");
        assert_eq!((e.lower, e.upper, e.best, e.draft), (5, 64, 19, 8));
    }

    #[test]
    fn bounds_of_the_same_level_are_merged() {
        let mut table = Table::new(1);
        table.store(P, O, 20, 4, 64, 19);
        table.store(P, O, 20, -64, 10, NO_MOVE);
        let e = table.probe(P, O).expect("stored");
        assert_eq!((e.lower, e.upper, e.best, e.level), (4, 10, 19, EXACT));
    }

    #[test]
    fn selective_bounds_never_replace_exact_ones() {
        let mut table = Table::new(1);
        table.store(P, O, 20, 4, 64, NO_MOVE);
        table.set_level(1);
        table.store(P, O, 20, 20, 64, 37);
        let e = table.probe(P, O).expect("stored");
        assert_eq!((e.lower, e.upper, e.level), (4, 64, EXACT));
        assert_eq!(e.best, 37, "a move is taken where the exact entry had none");
        assert!(!table.trusted(&EMPTY_ENTRY) && table.trusted(&e));
    }

    #[test]
    fn exact_bounds_replace_selective_ones() {
        let mut table = Table::new(1);
        table.set_level(1);
        table.store(P, O, 20, 20, 64, 37);
        table.set_level(EXACT);
        table.store(P, O, 20, -64, 6, 26);
        let e = table.probe(P, O).expect("stored");
        assert_eq!((e.lower, e.upper, e.best, e.level), (-64, 6, 26, EXACT));
    }

    #[test]
    fn the_first_slot_keeps_the_deepest_entry_of_the_search() {
        let mut t = Table::new(1);
        // Boards that share a bucket: search for three.
        let index = t.index(P, O);
        let others: Vec<u64> = (1..u64::MAX).filter(|&o| t.index(P, o) == index).take(2).collect();
        t.store(P, O, 20, 0, 0, 19);
        t.store(P, others[0], 10, 0, 0, 19);
        t.store(P, others[1], 12, 0, 0, 19);
        assert!(t.probe(P, O).is_some(), "the deepest stays in the first slot");
        assert!(t.probe(P, others[0]).is_none(), "the second slot is replaced");
        assert!(t.probe(P, others[1]).is_some());
    }
}
