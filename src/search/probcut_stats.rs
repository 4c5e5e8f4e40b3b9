//! Multi-ProbCut's error model, fitted by `ebony-train probcut-fit` on 48000 positions (see
//! docs/search.md): the mean (`BIAS`) and the standard deviation (`SIGMA`), in discs, of a deep
//! search's score less its shallow search's, each a linear function of the empties, the depth and the
//! shallow depth: `c[0] + c[1] * empties + c[2] * depth + c[3] * shallow`; and for the endgame
//! solver's ProbCut, of the exact score less a shallow search's, `c[0] + c[1] * empties + c[2] *
//! (empties odd) + c[3] * shallow` (`END_BIAS`, `END_SIGMA`). Generated: do not edit.

pub const BIAS: [f64; 4] = [-0.3820996532735151, 0.002165387475259819, -0.01136346749289344, 0.07711547123135216];
pub const SIGMA: [f64; 4] = [4.314081634108618, -0.055245832986712186, 0.2727806682821637, -0.5045693628173893];
pub const END_BIAS: [f64; 4] = [-0.3920054852761307, 0.02972154072853926, 0.18060023513681517, 0.023795000000000066];
pub const END_SIGMA: [f64; 4] = [5.951342332664108, 0.032327160547491025, -0.02612368161456602, -0.3349847387182272];
