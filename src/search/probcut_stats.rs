//! Multi-ProbCut's error model, fitted by `ebony-train probcut-fit` on 48000 positions (see
//! docs/search.md): the mean (`BIAS`) and the standard deviation (`SIGMA`), in discs, of a deep
//! search's score less its shallow search's, each a linear function of the empties, the depth and the
//! shallow depth: `c[0] + c[1] * empties + c[2] * depth + c[3] * shallow`; and for the endgame
//! solver's ProbCut, of the exact score less a shallow search's, `c[0] + c[1] * empties + c[2] *
//! (empties odd) + c[3] * shallow` (`END_BIAS`, `END_SIGMA`). Generated: do not edit.

pub const BIAS: [f64; 4] = [-0.36190650899385657, 0.002028291328866152, -0.010350951999913182, 0.0726604644155188];
pub const SIGMA: [f64; 4] = [4.481120081251027, -0.055762307243716544, 0.26514824271496695, -0.49213544515007207];
pub const END_BIAS: [f64; 4] = [-0.44696345495891454, 0.029820085213173003, 0.19665164854540004, 0.027747500000000064];
pub const END_SIGMA: [f64; 4] = [6.155707983027552, 0.02843423829509121, -0.022559262127719318, -0.33501607023239915];
