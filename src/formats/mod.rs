//! Position and game files: obf (FFO/Edax test positions) and GGF (game records), and the checksum
//! of ebony's own binary files. Built on `rules`.

pub mod ggf;
pub mod obf;

/// FNV-1a, 64 bits: the checksum of ebony's binary files (the evaluation's weights, the opening book)
/// and the fingerprint of the evaluation's feature layout.
pub(crate) fn fnv1a(bytes: impl IntoIterator<Item = u8>) -> u64 {
    bytes.into_iter().fold(0xCBF2_9CE4_8422_2325, |h, b| (h ^ b as u64).wrapping_mul(0x0000_0100_0000_01B3))
}
