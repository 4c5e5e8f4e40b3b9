//! The obf reader: never panics; an entry read from a line writes back (board, side, `move:score`
//! fields) to a line read as the same entry; a whole file reads as its lines do.
#![no_main]

use ebony::formats::obf::{parse, parse_line, ObfEntry};
use libfuzzer_sys::fuzz_target;

fn write(entry: &ObfEntry) -> String {
    let mut line = entry.position.to_string();
    for (mv, score) in &entry.moves {
        line.push_str(&format!("; {mv}:{score:+}"));
    }
    line.push(';');
    line
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let mut entries = Vec::new();
    let mut first_error = None;
    for (index, line) in text.lines().enumerate() {
        match parse_line(line) {
            Ok(Some(entry)) => {
                assert_eq!(entry.position.black() & entry.position.white(), 0, "{line:?}");
                let written = write(&entry);
                assert_eq!(parse_line(&written), Ok(Some(entry.clone())), "{line:?} written as {written:?}");
                entries.push(entry);
            }
            Ok(None) => {}
            Err(e) => {
                first_error.get_or_insert((index + 1, e));
            }
        }
    }
    match first_error {
        None => assert_eq!(parse(text), Ok(entries)),
        Some(error) => assert_eq!(parse(text), Err(error)),
    }
});
