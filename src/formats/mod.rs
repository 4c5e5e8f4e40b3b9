//! Position and game files: obf (FFO/Edax test positions) and GGF (game records). Built on `rules`.

pub mod ggf;
pub mod obf;
