//! Multi-ProbCut's error model, fitted by `ebony-train probcut-fit` on 48000 positions (see
//! docs/search.md): the mean (`BIAS`) and the standard deviation (`SIGMA`), in discs, of a deep
//! search's score less its shallow search's, each a linear function of the empties, the depth and the
//! shallow depth: `c[0] + c[1] * empties + c[2] * depth + c[3] * shallow`; and for the endgame
//! solver's ProbCut, of the exact score less a shallow search's, `c[0] + c[1] * empties + c[2] *
//! (empties odd) + c[3] * shallow` (`END_BIAS`, `END_SIGMA`). Generated: do not edit.

pub const BIAS: [f64; 4] = [-0.3685553894044516, 0.0020090092914198093, -0.010404787584770092, 0.07452436319742489];
pub const SIGMA: [f64; 4] = [4.467142502680731, -0.055417111952965524, 0.2664349467084134, -0.48981185699323576];
pub const END_BIAS: [f64; 4] = [-0.3721574815333113, 0.024520837323253816, 0.16190472540659254, 0.03114875000000006];
pub const END_SIGMA: [f64; 4] = [6.1252381116658645, 0.03165472243307776, -0.036279410045765965, -0.3311243302482134];
