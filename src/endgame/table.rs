//! The solver's own transposition table: buckets of two entries keyed by the full board, each holding a
//! lower and an upper bound on the exact score and the best move found.
//!
//! The depth of an endgame entry is its empty count (always searched to the end), so the first slot
//! keeps the entry with the most empties (the most work saved) and the second is replaced always.

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
}

const EMPTY_ENTRY: Entry =
    Entry { player: 0, opponent: 0, lower: -64, upper: 64, best: NO_MOVE, empties: 0, generation: 0 };

/// A bucket fills one cache line and starts on one, so a probe reads one line, never two.
#[derive(Clone, Copy)]
#[repr(align(64))]
struct Bucket([Entry; 2]);

pub struct Table {
    buckets: Vec<Bucket>,
    mask: usize,
    generation: u8,
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
        Table { buckets, mask: count - 1, generation: 1 }
    }

    /// Forgets every entry.
    pub fn clear(&mut self) {
        self.buckets.fill(Bucket([EMPTY_ENTRY; 2]));
        self.generation = 1;
    }

    /// Marks older entries as replaceable (a new search), keeping them usable.
    pub fn new_search(&mut self) {
        self.generation = self.generation.wrapping_add(1).max(1);
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

    /// Records bounds for a board, merging them with what the table already knows of it.
    #[inline]
    pub fn store(&mut self, player: u64, opponent: u64, empties: u32, lower: i32, upper: i32, best: u8) {
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
        };
        for slot in bucket.iter_mut() {
            if slot.player == player && slot.opponent == opponent && slot.empties != 0 {
                entry.lower = entry.lower.max(slot.lower);
                entry.upper = entry.upper.min(slot.upper);
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
