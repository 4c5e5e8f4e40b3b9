//! Keeps protocol.md true: runs every `session` example in it against the real binary, and checks its
//! command headings against the command table that also prints `help`.
//!
//! A `session` block lists input lines (`> ` then the line) and the expected output lines. Each block
//! runs in a fresh `ebony`: all input is written at once, then standard input is closed; the whole
//! output must match and the exit status must be 0. In expected output, a line `...` matches any
//! number of lines, a word `*` matches any one word, and a last word `...` matches the rest of a line.

use ebony::protocol::parser::COMMANDS;
use std::io::Write;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const DOC: &str = include_str!("../protocol.md");

struct Session {
    /// Line number of the opening fence, for failure messages.
    line: usize,
    input: Vec<String>,
    expected: Vec<String>,
}

fn sessions() -> Vec<Session> {
    let mut out = Vec::new();
    let mut current: Option<Session> = None;
    for (number, line) in DOC.lines().enumerate() {
        match (&mut current, line) {
            (None, "```session") => current = Some(Session { line: number + 1, input: vec![], expected: vec![] }),
            (Some(_), "```") => out.extend(current.take()),
            (Some(session), line) => match line.strip_prefix("> ") {
                Some(input) => session.input.push(input.to_string()),
                None => session.expected.push(line.to_string()),
            },
            (None, _) => {}
        }
    }
    assert!(current.is_none(), "unclosed session block");
    out
}

/// The binary under test: the one cargo built, or `EBONY_TEST_BIN` (the Windows build under Wine, the
/// aarch64 one under qemu: `scripts/test-windows`, `scripts/test-aarch64`).
fn bin() -> std::ffi::OsString {
    std::env::var_os("EBONY_TEST_BIN").unwrap_or_else(|| env!("CARGO_BIN_EXE_ebony").into())
}

fn run(input: &[String]) -> (String, bool) {
    let mut child = Command::new(bin())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("starting ebony");
    let mut stdin = child.stdin.take().expect("stdin");
    let text: String = input.iter().map(|l| format!("{l}\n")).collect();
    stdin.write_all(text.as_bytes()).expect("writing input");
    drop(stdin);
    let start = Instant::now();
    while child.try_wait().expect("waiting").is_none() {
        if start.elapsed() > Duration::from_secs(60) {
            child.kill().ok();
            panic!("ebony did not exit within 60 s on {input:?}");
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    let output = child.wait_with_output().expect("reading output");
    (String::from_utf8_lossy(&output.stdout).into_owned(), output.status.success())
}

fn line_matches(pattern: &str, line: &str) -> bool {
    if !pattern.split(' ').any(|w| w == "*" || w == "...") {
        return pattern == line;
    }
    let (pattern, line): (Vec<&str>, Vec<&str>) = (pattern.split(' ').collect(), line.split(' ').collect());
    for (i, word) in pattern.iter().enumerate() {
        if *word == "..." && i + 1 == pattern.len() {
            return true;
        }
        match line.get(i) {
            Some(got) if *word == "*" || word == got => {}
            _ => return false,
        }
    }
    pattern.len() == line.len()
}

fn lines_match(pattern: &[String], lines: &[&str]) -> bool {
    match pattern.split_first() {
        None => lines.is_empty(),
        Some((first, rest)) if first == "..." => (0..=lines.len()).any(|skip| lines_match(rest, &lines[skip..])),
        Some((first, rest)) => {
            lines.split_first().is_some_and(|(l, ls)| line_matches(first, l) && lines_match(rest, ls))
        }
    }
}

#[test]
fn every_session_example_matches_the_binary() {
    let sessions = sessions();
    assert!(sessions.len() >= 10, "only {} session blocks found", sessions.len());
    for session in sessions {
        let (stdout, success) = run(&session.input);
        let lines: Vec<&str> = stdout.lines().collect();
        assert!(
            lines_match(&session.expected, &lines),
            "protocol.md line {}: input {:?}\nexpected:\n{}\ngot:\n{}",
            session.line,
            session.input,
            session.expected.join("\n"),
            stdout
        );
        assert!(success, "protocol.md line {}: exit status not 0", session.line);
    }
}

#[test]
fn headings_are_the_command_table() {
    let headings: Vec<&str> =
        DOC.lines().filter_map(|l| l.strip_prefix("### `").and_then(|l| l.strip_suffix('`'))).collect();
    let usages: Vec<String> = COMMANDS.iter().map(|spec| spec.usage()).collect();
    assert_eq!(headings, usages, "protocol.md command headings differ from the command table");
}

#[test]
fn the_matcher_can_fail() {
    let p = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    assert!(lines_match(&p(&["...", "bestmove *"]), &["info x", "bestmove d3"]));
    assert!(!lines_match(&p(&["...", "bestmove *"]), &["bestmove d3", "extra"]));
    assert!(!lines_match(&p(&["bestmove *"]), &["bestmove d3 x"]));
    assert!(lines_match(&p(&["info depth * ..."]), &["info depth 3 score 2"]));
    assert!(!lines_match(&p(&["readyok"]), &[]));
}
