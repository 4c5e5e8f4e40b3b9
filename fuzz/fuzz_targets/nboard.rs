//! The NBoard front end fed arbitrary lines, `set game` GGF records included (depths cut to 2, `learn`
//! dropped): never panics, and every line it writes is one printable line.
#![no_main]

use ebony::protocol::nboard::{parse, Command, NBoard};
use ebony_fuzz::{assert_printable, evaluator, input, lines, output, HASH_MB};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let mut script = vec!["nboard 2".to_string(), "set depth 1".to_string()];
    for line in lines(data, 32) {
        match parse(&line) {
            Ok(Some(Command::Learn)) => continue,
            Ok(Some(Command::SetDepth(d))) if d > 2 => script.push("set depth 2".into()),
            _ => script.push(line),
        }
    }
    let mut nboard = NBoard::new(input(&script), output(), HASH_MB, evaluator());
    nboard.run();
    let text = String::from_utf8(nboard.into_output()).expect("output is UTF-8");
    assert_printable(&text);
});
