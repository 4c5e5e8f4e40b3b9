//! Position and game files: obf (FFO/Edax test positions) and GGF (game records), and the checksum
//! of ebony's own binary files. Built on `rules`.

pub mod ggf;
pub mod obf;

use std::path::Path;

/// Writes `bytes` to `path` whole or not at all: into a temporary file in the same directory, then
/// renamed over `path` (a rename within a file system is atomic), so that a reader, or a crash
/// midway, never sees half a file. The temporary file is removed when anything fails.
pub fn replace_file(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let Some(name) = path.file_name() else {
        return Err(std::io::Error::new(std::io::ErrorKind::InvalidInput, "not a file name"));
    };
    let mut temp_name = std::ffi::OsString::from(".");
    temp_name.push(name);
    temp_name.push(format!(".{}.tmp", std::process::id()));
    let temp = path.with_file_name(temp_name);
    // The data reaches the disk before the rename makes it the file: after a power loss the path
    // holds the old file or the new one, never a renamed empty one.
    let written = std::fs::File::create(&temp)
        .and_then(|mut file| {
            std::io::Write::write_all(&mut file, bytes)?;
            file.sync_all()
        })
        .and_then(|()| std::fs::rename(&temp, path));
    if written.is_err() {
        let _ = std::fs::remove_file(&temp);
    }
    written
}

/// FNV-1a, 64 bits: the checksum of ebony's binary files (the evaluation's weights, the opening book)
/// and the fingerprint of the evaluation's feature layout.
pub(crate) fn fnv1a(bytes: impl IntoIterator<Item = u8>) -> u64 {
    bytes.into_iter().fold(0xCBF2_9CE4_8422_2325, |h, b| (h ^ b as u64).wrapping_mul(0x0000_0100_0000_01B3))
}
