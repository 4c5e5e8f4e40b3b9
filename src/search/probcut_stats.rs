//! Multi-ProbCut's error model, fitted by `ebony-train probcut-fit` on 48000 positions (see
//! data/README.md): the mean (`BIAS`) and the standard deviation (`SIGMA`), in discs, of a deep
//! search's score less its shallow search's, each a linear function of the empties, the depth and the
//! shallow depth: `c[0] + c[1] * empties + c[2] * depth + c[3] * shallow`; and for the endgame
//! solver's ProbCut, of the exact score less a shallow search's, `c[0] + c[1] * empties + c[2] *
//! (empties odd) + c[3] * shallow` (`END_BIAS`, `END_SIGMA`). Generated: do not edit.

pub const BIAS: [f64; 4] = [-0.3714137120892759, 0.0020862706081902944, -0.009982767132833385, 0.07426876292298765];
pub const SIGMA: [f64; 4] = [4.51294561345432, -0.056870330934170224, 0.27196602777839435, -0.4968590446150496];
pub const END_BIAS: [f64; 4] = [-0.44110694015418955, 0.029148066607738547, 0.15126227295649086, 0.02802375000000007];
pub const END_SIGMA: [f64; 4] = [6.195844164803819, 0.03297301325770627, -0.04434199376099772, -0.33584074946126513];
