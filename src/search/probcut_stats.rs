//! Multi-ProbCut's error model, fitted by `ebony-train probcut-fit` on 48000 positions (see
//! docs/search.md): the mean (`BIAS`) and the standard deviation (`SIGMA`), in discs, of a deep
//! search's score less its shallow search's, each a linear function of the empties, the depth and the
//! shallow depth: `c[0] + c[1] * empties + c[2] * depth + c[3] * shallow`; and for the endgame
//! solver's ProbCut, of the exact score less a shallow search's, `c[0] + c[1] * empties + c[2] *
//! (empties odd) + c[3] * shallow` (`END_BIAS`, `END_SIGMA`). Generated: do not edit.

pub const BIAS: [f64; 4] = [-0.3706973380381304, 0.00218654720190231, -0.008910434060913696, 0.07214911684012622];
pub const SIGMA: [f64; 4] = [4.387363423269278, -0.057196536246563526, 0.2625335350878798, -0.48556758573101566];
pub const END_BIAS: [f64; 4] = [-0.4059524439082234, 0.0397595863360341, 0.0021411116657469743, 0.017083750000000085];
pub const END_SIGMA: [f64; 4] = [5.902818520822384, 0.04260405660956469, -0.018317106845495274, -0.3395554079573922];
