//! The solver's own transposition table: buckets of two entries keyed by the full board, each holding a
//! lower and an upper bound on the exact score and the best move found.
//!
//! The depth of an endgame entry is its empty count (always searched to the end), so the first slot
//! keeps the entry with the most empties (the most work saved) and the second is replaced always.
//!
//! Bounds found by a selective pass (ProbCut) are marked with its level: the exact pass uses only its
//! own bounds, but takes the selective passes' moves for its ordering.

/// No move stored.
pub const NO_MOVE: u8 = 64;

#[derive(Clone, Copy)]
pub struct Entry {
    pub player: u64,
    pub opponent: u64,
    pub lower: i8,
    pub upper: i8,
    pub best: u8,
    pub empties: u8,
    pub generation: u8,
    /// How far the bounds can be trusted: [`EXACT`], or the level of the selective pass that found them.
    pub level: u8,
}

/// The level of bounds from an exact search.
pub const EXACT: u8 = u8::MAX;

const EMPTY_ENTRY: Entry =
    Entry { player: 0, opponent: 0, lower: -64, upper: 64, best: NO_MOVE, empties: 0, generation: 0, level: 0 };

/// A bucket fills one cache line and starts on one, so a probe reads one line, never two.
#[derive(Clone, Copy)]
#[repr(align(64))]
struct Bucket([Entry; 2]);

pub struct Table {
    buckets: Vec<Bucket>,
    mask: usize,
    generation: u8,
    /// The level of the pass now storing (see [`Entry::level`]).
    level: u8,
}

impl Table {
    /// A table of about `mb` megabytes (at least one bucket; a power of two buckets).
    pub fn new(mb: usize) -> Table {
        let bytes = mb.max(1).saturating_mul(1 << 20);
        let wanted = (bytes / std::mem::size_of::<Bucket>()).max(1);
        let count = if wanted.is_power_of_two() { wanted } else { wanted.next_power_of_two() / 2 };
        let mut buckets = Vec::with_capacity(count);
        advise_huge_pages(buckets.spare_capacity_mut());
        buckets.resize(count, Bucket([EMPTY_ENTRY; 2]));
        Table { buckets, mask: count - 1, generation: 1, level: EXACT }
    }

    /// Forgets every entry.
    pub fn clear(&mut self) {
        self.buckets.fill(Bucket([EMPTY_ENTRY; 2]));
        self.generation = 1;
        self.level = EXACT;
    }

    /// Marks older entries as replaceable (a new search), keeping them usable.
    pub fn new_search(&mut self) {
        self.generation = self.generation.wrapping_add(1).max(1);
        self.level = EXACT;
    }

    /// Sets the level of the pass that stores from now on: [`EXACT`] or a selective pass's (lower).
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

    #[inline(always)]
    pub fn probe(&self, player: u64, opponent: u64) -> Option<Entry> {
        let bucket = &self.buckets[self.index(player, opponent)].0;
        bucket.iter().find(|e| e.player == player && e.opponent == opponent && e.empties != 0).copied()
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

    /// Records bounds for a board, merging them with what the table already knows of it.
    #[inline]
    pub fn store(&mut self, player: u64, opponent: u64, empties: u32, lower: i32, upper: i32, best: u8) {
        let level = self.level;
        let generation = self.generation;
        let index = self.index(player, opponent);
        let bucket = &mut self.buckets[index].0;
        let mut entry = Entry {
            player,
            opponent,
            lower: lower as i8,
            upper: upper as i8,
            best,
            empties: empties as u8,
            generation,
            level,
        };
        for slot in bucket.iter_mut() {
            if slot.player == player && slot.opponent == opponent && slot.empties != 0 {
                if slot.level > level {
                    // Surer bounds stay; the selective pass only adds a move where there is none.
                    if slot.best == NO_MOVE {
                        slot.best = best;
                    }
                    return;
                }
                if slot.level == level {
                    entry.lower = entry.lower.max(slot.lower);
                    entry.upper = entry.upper.min(slot.upper);
                }
                if best == NO_MOVE {
                    entry.best = slot.best;
                }
                *slot = entry;
                return;
            }
        }
        if bucket[0].generation != generation || bucket[0].empties as u32 <= empties {
            bucket[1] = bucket[0];
            bucket[0] = entry;
        } else {
            bucket[1] = entry;
        }
    }
}

/// Asks Linux to back the (not yet touched) memory with 2 MB pages: probes land anywhere in the table,
/// and with 4 KB pages nearly each one misses the TLB as well as the cache. Only advice: when it is
/// not followed (huge pages disabled, another system) the table works the same.
#[cfg(target_os = "linux")]
fn advise_huge_pages<T>(memory: &mut [T]) {
    extern "C" {
        fn madvise(addr: *mut std::ffi::c_void, len: usize, advice: i32) -> i32;
    }
    const MADV_HUGEPAGE: i32 = 14;
    const HUGE_PAGE: usize = 1 << 21;
    let start = memory.as_mut_ptr() as usize;
    let end = start + std::mem::size_of_val(memory);
    // Only whole huge pages inside the allocation.
    let first = start.next_multiple_of(HUGE_PAGE);
    let last = end / HUGE_PAGE * HUGE_PAGE;
    if first < last {
        // SAFETY: the range lies inside `memory`, which this process owns; the advice changes how the
        // kernel backs those pages, never their contents. A failure (return value) is harmless.
        unsafe {
            madvise(first as *mut std::ffi::c_void, last - first, MADV_HUGEPAGE);
        }
    }
}

#[cfg(not(target_os = "linux"))]
fn advise_huge_pages<T>(_memory: &mut [T]) {}

#[cfg(test)]
mod tests {
    use super::*;

    const P: u64 = 0x0000_0010_0800_0000;
    const O: u64 = 0x0000_0008_1000_0000;

    #[test]
    fn bounds_of_the_same_level_are_merged() {
        let mut table = Table::new(1);
        table.store(P, O, 20, 4, 64, 19);
        table.store(P, O, 20, -64, 10, NO_MOVE);
        let e = table.probe(P, O).unwrap();
        assert_eq!((e.lower, e.upper, e.best, e.level), (4, 10, 19, EXACT));
    }

    #[test]
    fn selective_bounds_never_replace_exact_ones() {
        let mut table = Table::new(1);
        table.store(P, O, 20, 4, 64, NO_MOVE);
        table.set_level(1);
        table.store(P, O, 20, 20, 64, 37);
        let e = table.probe(P, O).unwrap();
        assert_eq!((e.lower, e.upper, e.level), (4, 64, EXACT));
        assert_eq!(e.best, 37, "a move is taken where the exact entry had none");
    }

    #[test]
    fn exact_bounds_replace_selective_ones() {
        let mut table = Table::new(1);
        table.set_level(1);
        table.store(P, O, 20, 20, 64, 37);
        table.set_level(EXACT);
        table.store(P, O, 20, -64, 6, 26);
        let e = table.probe(P, O).unwrap();
        assert_eq!((e.lower, e.upper, e.best, e.level), (-64, 6, 26, EXACT));
    }
}
