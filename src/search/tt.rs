//! The transposition table: a fixed number of megabytes, power-of-two buckets of four entries, each
//! entry verified against the full board (no false hits), keeping a lower and an upper bound, the
//! best move, the draft and the search's age. Single-threaded: a probe is a plain read, no lock.

use crate::rules::board::Board;

/// No best move recorded.
pub const NO_MOVE: u8 = 64;

/// What the table knows about one position.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Entry {
    pub player: u64,
    pub opponent: u64,
    /// The score is at least `lower` and at most `upper` at this draft.
    pub lower: i8,
    pub upper: i8,
    /// Square index of the best move found, or [`NO_MOVE`].
    pub best: u8,
    pub depth: u8,
    pub age: u8,
}

impl Entry {
    const EMPTY: Entry = Entry { player: 0, opponent: 0, lower: -127, upper: 127, best: NO_MOVE, depth: 0, age: 0 };
}

const BUCKET: usize = 4;

#[derive(Clone, Copy)]
#[repr(align(32))]
struct Bucket([Entry; BUCKET]);

pub struct Table {
    buckets: Vec<Bucket>,
    mask: u64,
    age: u8,
}

impl Table {
    /// A table of at most `mb` megabytes (at least one bucket), rounded down to a power of two.
    pub fn new(mb: usize) -> Table {
        let bytes = mb.saturating_mul(1 << 20).max(std::mem::size_of::<Bucket>());
        let count = (bytes / std::mem::size_of::<Bucket>()).max(1);
        let count = 1usize << (usize::BITS - 1 - count.leading_zeros());
        Table { buckets: vec![Bucket([Entry::EMPTY; BUCKET]); count], mask: count as u64 - 1, age: 0 }
    }

    /// Forgets every entry.
    pub fn clear(&mut self) {
        self.buckets.fill(Bucket([Entry::EMPTY; BUCKET]));
        self.age = 0;
    }

    /// Marks a new search: entries of older searches become the first to be replaced.
    pub fn new_search(&mut self) {
        self.age = self.age.wrapping_add(1);
    }

    #[inline(always)]
    fn index(&self, board: &Board) -> usize {
        let h = (board.player.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ board.opponent.wrapping_mul(0xC2B2_AE3D_27D4_EB4F))
            .rotate_left(29)
            .wrapping_mul(0x1656_67B1_9E37_79F9);
        ((h >> 32) & self.mask) as usize
    }

    /// The entry of exactly this board, if stored.
    #[inline]
    pub fn probe(&self, board: &Board) -> Option<Entry> {
        let bucket = &self.buckets[self.index(board)];
        bucket.0.iter().find(|e| e.player == board.player && e.opponent == board.opponent && e.depth > 0).copied()
    }

    /// Records that `board` searched to `depth` in the window (`alpha`, `beta`) scored `score`.
    #[inline]
    pub fn store(&mut self, board: &Board, depth: u32, alpha: i32, beta: i32, score: i32, best: u8) {
        let age = self.age;
        let depth = depth.clamp(1, 255) as u8;
        let score = score.clamp(-127, 127) as i8;
        let (lower, upper) = if score as i32 <= alpha {
            (-127, score)
        } else if score as i32 >= beta {
            (score, 127)
        } else {
            (score, score)
        };
        let index = self.index(board);
        let bucket = &mut self.buckets[index].0;
        if let Some(e) = bucket.iter_mut().find(|e| e.player == board.player && e.opponent == board.opponent) {
            if depth > e.depth || e.depth == 0 {
                *e = Entry { player: board.player, opponent: board.opponent, lower, upper, best, depth, age };
            } else if depth == e.depth {
                // Same draft: both bounds hold, keep the tighter of each (a clash means the earlier
                // bound came from a different path; the new result wins).
                let (l, u) = (e.lower.max(lower), e.upper.min(upper));
                (e.lower, e.upper) = if l <= u { (l, u) } else { (lower, upper) };
                if best != NO_MOVE {
                    e.best = best;
                }
                e.age = age;
            } else {
                e.age = age;
                if best != NO_MOVE && e.best == NO_MOVE {
                    e.best = best;
                }
            }
            return;
        }
        // Replace the entry of the oldest search, then the shallowest.
        let victim = bucket.iter_mut().min_by_key(|e| (e.age == age, e.depth)).expect("a bucket has entries");
        *victim = Entry { player: board.player, opponent: board.opponent, lower, upper, best, depth, age };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn size_is_a_power_of_two_within_budget() {
        let t = Table::new(1);
        assert!(t.buckets.len().is_power_of_two());
        assert!(t.buckets.len() * std::mem::size_of::<Bucket>() <= 1 << 20);
        assert_eq!(Table::new(0).buckets.len(), 1);
    }

    #[test]
    fn store_probe_bounds() {
        let mut t = Table::new(1);
        let b = Board::START;
        assert_eq!(t.probe(&b), None);
        t.store(&b, 5, -3, 3, 10, 19);
        let e = t.probe(&b).expect("stored");
        assert_eq!((e.lower, e.upper, e.best, e.depth), (10, 127, 19, 5));
        t.store(&b, 5, 0, 20, 12, 19);
        let e = t.probe(&b).expect("stored");
        assert_eq!((e.lower, e.upper), (12, 12));
        // A different board with the same discs swapped is not a hit.
        assert_eq!(t.probe(&b.pass()), None);
        t.clear();
        assert_eq!(t.probe(&b), None);
    }
}
