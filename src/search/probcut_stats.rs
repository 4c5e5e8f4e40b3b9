//! Multi-ProbCut's error model, fitted by `ebony-train probcut-fit` on 48000 positions (see
//! docs/search.md): the mean (`BIAS`) and the standard deviation (`SIGMA`), in discs, of a deep
//! search's score less its shallow search's, each a linear function of the empties, the depth and the
//! shallow depth: `c[0] + c[1] * empties + c[2] * depth + c[3] * shallow`; and for the endgame
//! solver's ProbCut, of the exact score less a shallow search's, `c[0] + c[1] * empties + c[2] *
//! (empties odd) + c[3] * shallow` (`END_BIAS`, `END_SIGMA`). Generated: do not edit.

pub const BIAS: [f64; 4] = [-0.3508493619504326, 0.0019674824858089946, -0.009636255964535007, 0.06989389380576129];
pub const SIGMA: [f64; 4] = [4.388288570268546, -0.057339151459263764, 0.26088977767253124, -0.4826719704790537];
pub const END_BIAS: [f64; 4] = [-0.305693065095636, 0.03257301087607633, 0.009401053742290643, 0.022907500000000112];
pub const END_SIGMA: [f64; 4] = [5.922521685567792, 0.040167241585248696, -0.02027446487717735, -0.33845337759491523];
