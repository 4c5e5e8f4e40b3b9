//! The GTP front end fed arbitrary lines (searches limited to depth 2: the time commands and
//! `ebony-limit` dropped): never panics, gives one reply per command, and a command answered with
//! `?` leaves the board as it was (the `showboard` replies before and after it are the same).
#![no_main]

use ebony::protocol::gtp::{split_line, Gtp};
use ebony_fuzz::{assert_printable, evaluator, input, lines, output, HASH_MB};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let mut script = vec!["ebony-limit depth 2".to_string(), "showboard".to_string()];
    let mut sent = Vec::new();
    for line in lines(data, 32) {
        let Some(parsed) = split_line(&line) else { continue };
        if ["time_settings", "time_left", "ebony-limit", "kgs-time_settings"].contains(&parsed.name.as_str()) {
            continue;
        }
        script.push(line.clone());
        script.push("showboard".to_string());
        sent.push(line);
    }
    let mut gtp = Gtp::new(input(&script), output(), HASH_MB, evaluator());
    gtp.run();
    let text = String::from_utf8(gtp.into_output()).expect("output is UTF-8");
    assert_printable(&text);
    let replies: Vec<&str> = text.split_terminator("\n\n").collect();
    assert!(replies.len() <= script.len(), "{} replies to {} commands:\n{text}", replies.len(), script.len());
    // Replies: the limit, then (board, line) pairs; a run cut short by `quit` has fewer.
    let board = |k: usize| replies.get(1 + 2 * k).copied();
    for (k, line) in sent.iter().enumerate() {
        let (Some(before), Some(reply), Some(after)) = (board(k), replies.get(2 + 2 * k), board(k + 1)) else {
            break;
        };
        if reply.starts_with('?') {
            assert_eq!(before, after, "the rejected command {line:?} changed the board");
        }
    }
});
