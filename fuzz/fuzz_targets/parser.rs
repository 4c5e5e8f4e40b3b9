//! The native line parser: never panics; a rejected line is one error line; an accepted one renders to
//! a canonical line that parses to the same command, and a board or move list in it is valid.
#![no_main]

use ebony::protocol::parser::{parse_line, Command};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(line) = std::str::from_utf8(data) else { return };
    match parse_line(line) {
        Ok(None) => assert!(line.trim().is_empty(), "{line:?} read as blank"),
        Ok(Some(command)) => {
            if let Command::SetBoard(position) = &command {
                assert_eq!(position.black() & position.white(), 0, "{line:?}: a square of both colours");
            }
            let canonical = ebony_fuzz::render(&command);
            assert_eq!(parse_line(&canonical), Ok(Some(command.clone())), "{line:?} rendered as {canonical:?}");
            // The command word is case-insensitive (board strings are not: `b` is black, `B` nothing).
            let start = line.len() - line.trim_start().len();
            let end = line[start..].find(char::is_whitespace).map_or(line.len(), |i| start + i);
            let upper = format!("{}{}{}", &line[..start], line[start..end].to_ascii_uppercase(), &line[end..]);
            assert_eq!(parse_line(&upper), Ok(Some(command)), "{line:?} with its first word upper-cased");
        }
        Err(e) => {
            let text = format!("error {e}");
            assert!(!text.contains(['\n', '\r']), "error of more than one line: {text:?}");
            assert!(text.chars().count() < 400, "error line of {} characters for {line:?}", text.chars().count());
        }
    }
});
