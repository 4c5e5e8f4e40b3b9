//! Multi-ProbCut's error model, fitted by `ebony-train probcut-fit` on 48000 positions (see
//! data/README.md): the mean (`BIAS`) and the standard deviation (`SIGMA`), in discs, of a deep
//! search's score less its shallow search's, each a linear function of the empties, the depth and the
//! shallow depth: `c[0] + c[1] * empties + c[2] * depth + c[3] * shallow`; and for the endgame
//! solver's ProbCut, of the exact score less a shallow search's, `c[0] + c[1] * empties + c[2] *
//! (empties odd) + c[3] * shallow` (`END_BIAS`, `END_SIGMA`). Generated: do not edit.

pub const BIAS: [f64; 4] = [-0.3768882702009761, 0.0017303280717005068, -0.009845813685704046, 0.07652703501456798];
pub const SIGMA: [f64; 4] = [4.508348921404569, -0.05657449061104826, 0.274639551950078, -0.499468680739351];
pub const END_BIAS: [f64; 4] = [-0.43772100637737626, 0.02843604618672747, 0.15104477773693448, 0.028365000000000067];
pub const END_SIGMA: [f64; 4] = [6.185148237995526, 0.034877543638576994, -0.044729140032033606, -0.33721420763638704];
