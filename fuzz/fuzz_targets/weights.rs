//! The weights file reader (`Weights::from_bytes`): never panics; a file that loads passes its
//! checksum and writes back (`to_bytes`) to bytes that load to the same weights, same checksum. The
//! input is read as it is (headers and short files), and as patches to the built-in weight file:
//! a mode byte, then 5-byte records (offset u32, byte); mode bit 1 cuts the file at each patched
//! offset, bit 0 makes the checksum right (so that the fuzzer gets past it).
#![no_main]

use ebony::eval::learned::{builtin, Weights};
use libfuzzer_sys::fuzz_target;
use std::sync::OnceLock;

const HEADER: usize = 32;

fn check(bytes: &[u8]) {
    let Ok(weights) = Weights::from_bytes(bytes) else { return };
    let written = weights.to_bytes();
    // A file of the current version (3) holds each class of configurations once, as the tables
    // read it: it is written back byte for byte (which also says it loads the same). An older
    // file is written in the current version: load it back.
    if bytes[4..8] == written[4..8] {
        assert!(bytes == &written[..], "a current-version file written differently");
    } else {
        let again = Weights::from_bytes(&written).expect("written weights load");
        assert_eq!(again.checksum(), weights.checksum());
        assert!(again == weights, "written weights load differently");
    }
}

fuzz_target!(|data: &[u8]| {
    static FILE: OnceLock<Vec<u8>> = OnceLock::new();
    check(data);
    let Some((&mode, patches)) = data.split_first() else { return };
    let mut file = FILE.get_or_init(|| builtin().to_bytes()).clone();
    for patch in patches.chunks_exact(5) {
        let at = u32::from_le_bytes([patch[0], patch[1], patch[2], patch[3]]) as usize % file.len();
        file[at] = patch[4];
        if mode & 2 != 0 {
            file.truncate(at.max(HEADER));
        }
    }
    if mode & 1 != 0 && file.len() >= HEADER {
        let sum = ebony_fuzz::fnv1a(&file[HEADER..]);
        file[24..32].copy_from_slice(&sum.to_le_bytes());
    }
    check(&file);
});
