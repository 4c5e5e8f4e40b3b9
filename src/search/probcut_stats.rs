//! Multi-ProbCut's error model, fitted by `ebony-train probcut-fit` on 48000 positions (see
//! data/README.md): the mean (`BIAS`) and the standard deviation (`SIGMA`), in discs, of a deep
//! search's score less its shallow search's, each a linear function of the empties, the depth and the
//! shallow depth: `c[0] + c[1] * empties + c[2] * depth + c[3] * shallow`; and for the endgame
//! solver's ProbCut, of the exact score less a shallow search's, `c[0] + c[1] * empties + c[2] *
//! (empties odd) + c[3] * shallow` (`END_BIAS`, `END_SIGMA`). Generated: do not edit.

pub const BIAS: [f64; 4] = [-0.37399778032654646, -0.0011127380633280286, -0.011618655232437429, 0.09132915512511308];
pub const SIGMA: [f64; 4] = [4.58422409447686, -0.05317275121845045, 0.2677454820060694, -0.5049138454710549];
pub const END_BIAS: [f64; 4] = [-0.32192846667264485, 0.02542863740915088, 0.15415468105870156, 0.027630000000000054];
pub const END_SIGMA: [f64; 4] = [6.103422153346954, 0.036165053955944215, -0.0564894614832851, -0.32182765425919224];
