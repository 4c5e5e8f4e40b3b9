//! Multi-ProbCut's error model, fitted by `ebony-train probcut-fit` on 48000 positions (see
//! docs/search.md): the mean (`BIAS`) and the standard deviation (`SIGMA`), in discs, of a deep
//! search's score less its shallow search's, each a linear function of the empties, the depth and the
//! shallow depth: `c[0] + c[1] * empties + c[2] * depth + c[3] * shallow`; and for the endgame
//! solver's ProbCut, of the exact score less a shallow search's, `c[0] + c[1] * empties + c[2] *
//! (empties odd) + c[3] * shallow` (`END_BIAS`, `END_SIGMA`). Generated: do not edit.

pub const BIAS: [f64; 4] = [-0.37735178965583804, 0.0024568524363296216, -0.01204713477666203, 0.07564058129453341];
pub const SIGMA: [f64; 4] = [4.438888428687829, -0.05535170242276687, 0.256445872754055, -0.4870115412977289];
pub const END_BIAS: [f64; 4] = [-0.4697247590617803, 0.03125354902886927, 0.2453632173677653, 0.024426250000000038];
pub const END_SIGMA: [f64; 4] = [5.996815287138685, 0.030824232684771125, -0.03413453239717892, -0.334229040901265];
