//! Multi-ProbCut's error model, fitted by `ebony-train probcut-fit` on 48000 positions (see
//! docs/search.md): the mean (`BIAS`) and the standard deviation (`SIGMA`), in discs, of a deep
//! search's score less its shallow search's, each a linear function of the empties, the depth and the
//! shallow depth: `c[0] + c[1] * empties + c[2] * depth + c[3] * shallow`; and for the endgame
//! solver's ProbCut, of the exact score less a shallow search's, `c[0] + c[1] * empties + c[2] *
//! (empties odd) + c[3] * shallow` (`END_BIAS`, `END_SIGMA`). Generated: do not edit.

pub const BIAS: [f64; 4] = [-0.38400719437678094, 0.0018066525050646723, -0.01181225451441886, 0.07993112358094621];
pub const SIGMA: [f64; 4] = [4.451711286752081, -0.054411474722898756, 0.2524716575991938, -0.4825335598806951];
pub const END_BIAS: [f64; 4] = [-0.38642754688103537, 0.028174927901150934, 0.18753546046333186, 0.026702500000000053];
pub const END_SIGMA: [f64; 4] = [5.974120579884306, 0.030416869408269365, -0.030376578177219442, -0.33025547755607976];
