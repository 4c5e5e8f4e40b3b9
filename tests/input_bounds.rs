//! The bounds on input, run against the real binary in all three protocols: a line's length counts its
//! newline (the exact boundary of protocol.md), and the lines that wait for a search are bounded, so a
//! flood of input during a search neither grows the process nor keeps `stop` (or its equivalent) out.

mod support;

use support::Engine;

/// Bytes of one flood line: under the line limit, so each one is a line that must wait.
const FLOOD_LINE: usize = 60_000;
/// Flood lines sent during one search: 300 MB, which all waited in memory before the bound.
const FLOOD_LINES: usize = 5_000;
/// Peak resident size allowed while flooded (the table is 1 MB; the binary and its stacks a few).
const MAX_PEAK_KB: u64 = 100 * 1024;

/// The peak resident size of a process, in kB (Linux).
fn peak_kb(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).expect("/proc status");
    let line = status.lines().find(|l| l.starts_with("VmHWM:")).expect("VmHWM line");
    line.split_whitespace().nth(1).expect("a number").parse().expect("kB")
}

/// Sends the flood: `FLOOD_LINES` lines of `FLOOD_LINE` bytes made of `filler` (a line each protocol
/// keeps for after the search, not one that stops it).
fn flood(engine: &mut Engine, filler: &str) {
    let mut line = filler.repeat(FLOOD_LINE / filler.len());
    line.push('\n');
    for _ in 0..FLOOD_LINES {
        engine.send_bytes(line.as_bytes());
    }
}

fn assert_bounded(engine: &Engine) {
    let peak = peak_kb(engine.id());
    assert!(peak < MAX_PEAK_KB, "peak resident size {peak} kB after a {} MB flood", (FLOOD_LINE * FLOOD_LINES) >> 20);
}

#[test]
fn native_queue_is_bounded_and_stop_gets_through() {
    let mut engine = Engine::with_args(&["--hash", "1"]);
    engine.send("go infinite");
    flood(&mut engine, "bogus ");
    assert_bounded(&engine);
    engine.send("stop");
    engine.read_until(|l| l.starts_with("bestmove "));
    // The lines kept are answered in order, then one line stands for all those dropped.
    let errors = engine.read_until(|l| l.starts_with("error input queue full: "));
    let (drop, kept) = errors.split_last().expect("lines");
    assert!(!kept.is_empty() && kept.iter().all(|l| l.starts_with("error unknown command 'bogus")), "{kept:?}");
    let dropped: usize = drop.split(' ').nth(4).expect("count").parse().expect("a number");
    assert_eq!(kept.len() + dropped, FLOOD_LINES, "{drop}");
    engine.send("ping 9");
    assert_eq!(engine.read(), "pong 9");
    engine.finish();
}

#[test]
fn nboard_queue_is_bounded_and_ping_gets_through() {
    let mut engine = Engine::with_args(&["--protocol", "nboard", "--hash", "1"]);
    engine.send("nboard 2");
    assert_eq!(engine.read(), "set myname ebony");
    engine.send("set depth 60");
    engine.send("go");
    assert_eq!(engine.read(), "status ebony is thinking");
    // Lines NBoard may send that ebony does not know wait for the search (and are then ignored).
    flood(&mut engine, "unknown ");
    assert_bounded(&engine);
    engine.send("ping 1");
    let lines = engine.read_until(|l| l == "pong 1");
    let drops: Vec<&String> = lines.iter().filter(|l| l.contains("lines dropped")).collect();
    assert_eq!(drops.len(), 1, "{lines:?}");
    assert!(drops[0].starts_with("status ebony: "), "{}", drops[0]);
    engine.finish();
}

#[test]
fn gtp_queue_is_bounded_and_quit_gets_through() {
    let mut engine = Engine::with_args(&["--protocol", "gtp", "--hash", "1"]);
    engine.send("ebony-limit depth 60");
    assert_eq!(engine.read(), "=");
    assert_eq!(engine.read(), "");
    engine.send("genmove black");
    // Comments get no reply, but they wait in the queue like any line.
    flood(&mut engine, "#comment ");
    assert_bounded(&engine);
    engine.send("quit");
    let lines = engine.read_until(|l| l == "=");
    assert!(lines[0].starts_with("= "), "genmove answers first: {lines:?}");
    let drops = lines.iter().filter(|l| l.starts_with("? ") && l.contains("commands dropped")).count();
    assert_eq!(drops, 1, "{lines:?}");
    engine.finish();
}

#[test]
fn native_line_length_counts_the_newline() {
    let mut engine = Engine::with_args(&["--hash", "1"]);
    let padded = |text: &str, length: usize| format!("{text}{}\n", " ".repeat(length - text.len()));
    // 65,535 bytes and the newline: 65,536, the most taken.
    engine.send_bytes(padded("ping 1", 65_535).as_bytes());
    assert_eq!(engine.read(), "pong 1");
    // 65,536 bytes and the newline: one too many.
    engine.send_bytes(padded("ping 2", 65_536).as_bytes());
    assert_eq!(engine.read(), "error line too long: 65537 bytes, at most 65536");
    // With \r\n, the \r counts too.
    engine.send_bytes(format!("ping 3{}\r\n", " ".repeat(65_534 - 6)).as_bytes());
    assert_eq!(engine.read(), "pong 3");
    engine.send("ping 4");
    assert_eq!(engine.read(), "pong 4");
    engine.finish();
}
