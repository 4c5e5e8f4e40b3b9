//! The native front end fed arbitrary lines (searches cut to depth 2, file commands dropped): never
//! panics, writes only printable lines, and a line answered with `error` leaves the position as it
//! was (the `board` replies before and after it are the same).
#![no_main]

use ebony::protocol::native::Native;
use ebony::protocol::parser::parse_line;
use ebony_fuzz::{assert_printable, evaluator, input, lines, output, tame_native, HASH_MB};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let mut script = vec!["level 1".to_string(), "board".to_string()];
    let mut sent = Vec::new();
    for line in lines(data, 32) {
        let line = match parse_line(&line) {
            Ok(Some(command)) => match tame_native(&line, &command) {
                Some(line) => line,
                None => continue,
            },
            _ => line,
        };
        script.push(line.clone());
        script.push("board".to_string());
        sent.push(line);
    }
    let mut native = Native::new(input(&script), output(), HASH_MB, evaluator());
    native.run();
    let text = String::from_utf8(native.into_output()).expect("output is UTF-8");
    assert_printable(&text);
    if text.contains("lines dropped") {
        return;
    }
    // The output between the k-th and the (k+1)-th board replies is the k-th line's.
    let mut boards = Vec::new();
    let mut errors = Vec::new();
    let mut error = false;
    for out in text.lines() {
        if let Some(board) = out.strip_prefix("board ") {
            boards.push(board.to_string());
            errors.push(error);
            error = false;
        } else if out.starts_with("error") {
            error = true;
        }
    }
    for k in 1..boards.len() {
        if errors[k] {
            assert_eq!(boards[k - 1], boards[k], "the rejected line {:?} changed the position", sent[k - 1]);
        }
    }
});
