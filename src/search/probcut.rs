//! Multi-ProbCut (Buro, 1997): a null-window node at depth d first searches d' plies
//! ([`shallow_depth`]) and takes the node's bound from that when the shallow score clears the window
//! by t standard deviations of the deep score around it ([`sigma`], fitted by `ebony-train
//! probcut-fit` on ebony's own searches and stored in `probcut_stats.rs`). The larger t, the surer
//! each cut and the fewer of them: the selectivity levels ([`Selectivity`]) are values of t, named by
//! how often a cut at that level agrees with the deep search when the error is normal.

use super::probcut_stats::{BIAS, END_BIAS, END_SIGMA, SIGMA};

/// How selective a search is: a Multi-ProbCut level, or none (every bound sound).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug, Hash)]
pub struct Selectivity(u8);

/// The levels: the cut threshold t in standard deviations and the two-sided normal probability it
/// stands for, in percent.
/// 58% (t = 0.8), the most selective, is the level of short timed searches: against 73% at 50 ms a
/// move it scored +26.7 Elo [+1.5, +52.2] over 600 games; searches of 150 ms or more run at 73%
/// (docs/research-log.md, "Selectivity by the time a move").
const LEVELS: [(f64, u32); 6] = [(0.8, 58), (1.1, 73), (1.5, 87), (2.0, 95), (2.4, 98), (2.6, 99)];

impl Selectivity {
    /// No Multi-ProbCut: the search prunes nothing unsoundly.
    pub const EXACT: Selectivity = Selectivity(LEVELS.len() as u8);
    /// The most selective level.
    pub const MOST: Selectivity = Selectivity(0);

    /// The level named by its percentage (58, 73, 87, 95, 98, 99, or 100 for none).
    pub const fn from_percent(percent: u32) -> Option<Selectivity> {
        if percent == 100 {
            return Some(Selectivity::EXACT);
        }
        let mut i = 0;
        while i < LEVELS.len() {
            if LEVELS[i].1 == percent {
                return Some(Selectivity(i as u8));
            }
            i += 1;
        }
        None
    }

    /// [`Selectivity::from_percent`] for a constant: a percentage that is not a level fails the build.
    pub const fn level(percent: u32) -> Selectivity {
        match Selectivity::from_percent(percent) {
            Some(level) => level,
            None => panic!("not a selectivity level"),
        }
    }

    /// [`Selectivity::from_percent`] for user input: the error names the levels there are.
    pub fn parse_percent(percent: u32) -> Result<Selectivity, String> {
        Selectivity::from_percent(percent).ok_or_else(|| format!("{percent} is not a level: {}", Selectivity::listed()))
    }

    /// The levels' percentages as a user reads them: `58, 73, 87, 95, 98, 99, 100`.
    pub fn listed() -> String {
        Selectivity::percents().map(|p| p.to_string()).collect::<Vec<_>>().join(", ")
    }

    /// The percentages of every level, most selective first, 100 last.
    pub fn percents() -> impl Iterator<Item = u32> {
        LEVELS.iter().map(|&(_, p)| p).chain(std::iter::once(100))
    }

    /// The level's percentage (100 when exact).
    pub fn percent(self) -> u32 {
        LEVELS.get(self.0 as usize).map_or(100, |&(_, p)| p)
    }

    pub fn is_exact(self) -> bool {
        self == Selectivity::EXACT
    }

    /// The next surer level, if any.
    pub fn surer(self) -> Option<Selectivity> {
        (self < Selectivity::EXACT).then_some(Selectivity(self.0 + 1))
    }

    /// The cut threshold in standard deviations (infinite when exact).
    pub fn t(self) -> f64 {
        LEVELS.get(self.0 as usize).map_or(f64::INFINITY, |&(t, _)| t)
    }

    /// The level as the table stores it: higher is surer, [`super::tt::EXACT`] is exact.
    pub fn table_level(self) -> u8 {
        if self.is_exact() {
            super::tt::EXACT
        } else {
            self.0
        }
    }
}

/// A depth as the protocols print it: `D`, or `D@P%` for a selective search (`22@95%`).
pub struct DepthLabel(pub u32, pub Selectivity);

impl std::fmt::Display for DepthLabel {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.1.is_exact() {
            write!(f, "{}", self.0)
        } else {
            write!(f, "{}@{}%", self.0, self.1.percent())
        }
    }
}

/// Nodes with at least this depth try a cut.
pub const MIN_DEPTH: u32 = 3;

/// The depth of the shallow search that predicts a search of `depth` plies: about half of it,
/// with the same parity (the evaluation's score swings between odd and even depths, so a prediction
/// across parities would need a wider margin).
#[inline]
pub fn shallow_depth(depth: u32) -> u32 {
    let d = depth / 4 * 2 + (depth & 1);
    if d >= depth {
        depth - 2
    } else {
        d
    }
}

/// The model `c[0] + c[1] * empties + c[2] * depth + c[3] * shallow` of `probcut_stats`.
#[inline(always)]
fn model(c: &[f64; 4], empties: u32, depth: u32, shallow: u32) -> f64 {
    c[0] + c[1] * empties as f64 + c[2] * depth as f64 + c[3] * shallow as f64
}

/// The standard deviation, in discs, of a `depth`-ply search's score around a `shallow`-ply one's at
/// `empties` empties.
#[inline]
pub fn sigma(empties: u32, depth: u32, shallow: u32) -> f64 {
    model(&SIGMA, empties, depth, shallow).max(0.5)
}

/// The window a shallow search must clear for a cut at `t` standard deviations: a `depth`-ply node at
/// `empties` empties with the null window (`beta - 1`, `beta`) fails high when its shallow search
/// scores at least the first bound, low when at most the second. The deep score is modelled as the
/// shallow score plus a bias, with an error of standard deviation sigma.
#[inline]
pub fn cut_bounds(empties: u32, depth: u32, shallow: u32, beta: i32, t: f64) -> (i32, i32) {
    let sigma = sigma(empties, depth, shallow);
    let bias = model(&BIAS, empties, depth, shallow);
    let margin = t * sigma;
    let high = (beta as f64 + margin - bias).ceil() as i32;
    let low = ((beta - 1) as f64 - margin - bias).floor() as i32;
    (high, low)
}

/// Below this threshold (the 58% level) every ProbCut test is tried: the shallow search clears the
/// window so often that skipping a test loses more cuts than it saves searches (every gate tried
/// there cost 3-19% more nodes to depth 20 on the bench positions).
const GATE_MIN_T: f64 = 1.1;

/// Whether [`eval_gate`] can skip a test at threshold `t`: callers evaluate the node only then.
#[inline]
pub fn is_gated(t: f64) -> bool {
    t >= GATE_MIN_T
}

/// Whether the high and the low ProbCut test of a null-window node at (`beta - 1`, `beta`) are worth
/// their shallow search, judged by the node's static evaluation `eval`: from `GATE_MIN_T` on, the
/// high test only when the evaluation is at least (t - 1.1) sigma above the window, the low test only
/// when it is that far below it. Most tests whose node the evaluation puts near the window fail and
/// cost a shallow search each (Edax gates its ProbCut by the evaluation too). Skipping a test only
/// makes the search less selective, never less sound. Bench positions (`scripts/bench-midgame
/// BINARY --depth D --selectivity P`), nodes without the gate and with it: 73% to depth 18 46.8M and
/// 43.0M, 87% to depth 16 37.7M and 29.5M, 95% to depth 14 25.7M and 21.1M, 99% to depth 14 42.5M
/// and 31.1M.
#[inline]
pub fn eval_gate(empties: u32, depth: u32, shallow: u32, beta: i32, t: f64, eval: i32) -> (bool, bool) {
    if !is_gated(t) {
        return (true, true);
    }
    let margin = (t - GATE_MIN_T) * sigma(empties, depth, shallow);
    let eval = eval as f64;
    (eval >= beta as f64 + margin, eval <= (beta - 1) as f64 - margin)
}

/// The endgame solver's ProbCut: the mean and the standard deviation, in discs, of the exact score
/// of a position at `empties` empties less a `shallow`-ply estimate of it.
#[inline]
pub fn end_model(empties: u32, shallow: u32) -> (f64, f64) {
    let x = [1.0, empties as f64, (empties & 1) as f64, shallow as f64];
    let dot = |c: &[f64; 4]| c.iter().zip(x).map(|(c, x)| c * x).sum::<f64>();
    (dot(&END_BIAS), dot(&END_SIGMA).max(0.5))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_run_from_most_selective_to_exact() {
        let mut level = Selectivity::MOST;
        let mut seen = vec![level.percent()];
        while let Some(next) = level.surer() {
            assert!(next.t() > level.t());
            level = next;
            seen.push(level.percent());
        }
        assert_eq!(level, Selectivity::EXACT);
        assert_eq!(seen, Selectivity::percents().collect::<Vec<_>>());
        assert_eq!(seen, [58, 73, 87, 95, 98, 99, 100]);
        assert!(seen.iter().all(|&p| Selectivity::from_percent(p).is_some_and(|s| s.percent() == p)));
        assert_eq!(Selectivity::from_percent(50), None);
    }

    #[test]
    fn the_shallow_search_is_shallower_with_the_same_parity() {
        for depth in MIN_DEPTH..=60 {
            let d = shallow_depth(depth);
            assert!(d < depth && (depth - d).is_multiple_of(2), "{depth} -> {d}");
        }
    }

    #[test]
    fn the_evaluation_gates_the_tests_from_73_percent_on() {
        let (most, t73, t99) = (Selectivity::MOST.t(), Selectivity::level(73).t(), Selectivity::level(99).t());
        // The most selective level tries both tests wherever the evaluation stands.
        for eval in [-64, 0, 64] {
            assert_eq!(eval_gate(40, 10, 4, 0, most, eval), (true, true));
        }
        // At 73% the evaluation's side of the window picks the test; at the window, the high one.
        assert_eq!(eval_gate(40, 10, 4, 0, t73, 5), (true, false));
        assert_eq!(eval_gate(40, 10, 4, 0, t73, -5), (false, true));
        assert_eq!(eval_gate(40, 10, 4, 0, t73, 0), (true, false));
        // Surer levels want the evaluation further out: near the window, no test at all.
        let sigma = sigma(40, 10, 4);
        assert_eq!(eval_gate(40, 10, 4, 0, t99, 1), (false, false));
        let far = ((t99 - GATE_MIN_T) * sigma).ceil() as i32;
        assert_eq!(eval_gate(40, 10, 4, 0, t99, far), (true, false));
        assert_eq!(eval_gate(40, 10, 4, 0, t99, -far - 1), (false, true));
    }

    #[test]
    fn cuts_need_a_margin_that_grows_with_t() {
        for empties in 10..=60 {
            for depth in MIN_DEPTH..empties {
                let shallow = shallow_depth(depth);
                let (high, low) = cut_bounds(empties, depth, shallow, 0, 1.1);
                assert!(high > low + 1, "{empties} {depth}: {high} {low}");
                let (surer_high, surer_low) = cut_bounds(empties, depth, shallow, 0, 2.6);
                assert!(surer_high >= high && surer_low <= low);
            }
        }
    }
}
