//! Multi-ProbCut's error model, fitted by `ebony-train probcut-fit` on 48000 positions (see
//! docs/search.md): the mean (`BIAS`) and the standard deviation (`SIGMA`), in discs, of a deep
//! search's score less its shallow search's, each a linear function of the empties, the depth and the
//! shallow depth: `c[0] + c[1] * empties + c[2] * depth + c[3] * shallow`; and for the endgame
//! solver's ProbCut, of the exact score less a shallow search's, `c[0] + c[1] * empties + c[2] *
//! (empties odd) + c[3] * shallow` (`END_BIAS`, `END_SIGMA`). Generated: do not edit.

pub const BIAS: [f64; 4] = [-0.37814368981884106, 0.002156807316529634, -0.01063131967720856, 0.07537897951539316];
pub const SIGMA: [f64; 4] = [4.464869173012428, -0.05605003650276333, 0.2561015613367605, -0.4883686019838331];
pub const END_BIAS: [f64; 4] = [-0.4544328242591455, 0.03168293840452961, 0.19518863196574798, 0.023956250000000054];
pub const END_SIGMA: [f64; 4] = [5.9901699487251125, 0.03338002813348725, -0.02342837957253543, -0.3383956849454418];
