//! Multi-ProbCut's error model, fitted by `ebony-train probcut-fit` on 48000 positions (see
//! data/README.md): the mean (`BIAS`) and the standard deviation (`SIGMA`), in discs, of a deep
//! search's score less its shallow search's, each a linear function of the empties, the depth and the
//! shallow depth: `c[0] + c[1] * empties + c[2] * depth + c[3] * shallow`; and for the endgame
//! solver's ProbCut, of the exact score less a shallow search's, `c[0] + c[1] * empties + c[2] *
//! (empties odd) + c[3] * shallow` (`END_BIAS`, `END_SIGMA`). Generated: do not edit.

pub const BIAS: [f64; 4] = [-0.37314788504795793, 0.0010865431592259305, -0.009796083999167616, 0.07840337805855174];
pub const SIGMA: [f64; 4] = [4.524865920995648, -0.056202340491421775, 0.27629540675225267, -0.5047951354343405];
pub const END_BIAS: [f64; 4] = [-0.3995256422601355, 0.026495989506381466, 0.18578807367910963, 0.026062500000000037];
pub const END_SIGMA: [f64; 4] = [6.213425794517294, 0.03549760982657472, -0.04326744708994242, -0.33994501101939306];
