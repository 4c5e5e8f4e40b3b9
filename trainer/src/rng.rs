//! The trainer's random numbers: SplitMix64, seeded per game so that any game can be replayed alone.

pub struct Rng(u64);

impl Rng {
    /// The generator of game `index` in a run seeded with `seed`: independent of every other game, so
    /// shards and resumed runs play exactly the games a single run would.
    pub fn for_game(seed: u64, index: u64) -> Rng {
        let mut rng = Rng(seed ^ 0x6A09_E667_F3BC_C908);
        rng.0 = rng.0.wrapping_add(index.wrapping_mul(0xBB67_AE85_84CA_A73B));
        rng.next();
        rng
    }

    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `0..n` (`n` > 0).
    pub fn below(&mut self, n: u64) -> u64 {
        ((self.next() as u128 * n as u128) >> 64) as u64
    }

    /// True with probability `1 / n`.
    pub fn one_in(&mut self, n: u64) -> bool {
        self.below(n) == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn games_are_independent_and_repeatable() {
        let a: Vec<u64> = (0..4).map(|_| Rng::for_game(7, 3).next()).collect();
        assert!(a.windows(2).all(|w| w[0] == w[1]));
        assert_ne!(Rng::for_game(7, 3).next(), Rng::for_game(7, 4).next());
        assert_ne!(Rng::for_game(7, 3).next(), Rng::for_game(8, 3).next());
    }

    #[test]
    fn below_stays_in_range_and_covers_it() {
        let mut rng = Rng::for_game(1, 0);
        let mut seen = [0u32; 5];
        for _ in 0..1000 {
            seen[rng.below(5) as usize] += 1;
        }
        assert!(seen.iter().all(|&c| c > 150), "{seen:?}");
    }
}
