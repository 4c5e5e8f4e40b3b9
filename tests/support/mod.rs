//! Test support shared by the session tests of every front end: the real binary behind pipes or a
//! pseudo-terminal, its output lines on a channel with a timeout, the `>` lines of a captured GUI
//! log, a seeded RNG.

#![allow(dead_code)]

use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::thread;
use std::time::Duration;

/// Longest wait for one reply line: generous, as the test machine is shared.
pub const TIMEOUT: Duration = Duration::from_secs(60);

/// The binary under test: the one cargo built, or `EBONY_TEST_BIN` when set (to check that a new test
/// fails on an older binary).
pub fn bin() -> PathBuf {
    std::env::var_os("EBONY_TEST_BIN").map_or_else(|| PathBuf::from(env!("CARGO_BIN_EXE_ebony")), PathBuf::from)
}

/// The session tests exercise the search, the clocks and the protocols' forms, mostly from the start
/// position: they run without the opening book, which `tests/book.rs` covers.
const NO_BOOK: &str = "--no-book";

/// Starts the real binary with `args` (and no book); its output lines arrive on the channel from a
/// reader thread.
pub fn spawn(args: &[&str]) -> (Child, Option<ChildStdin>, Receiver<String>) {
    let mut child = Command::new(bin())
        .arg(NO_BOOK)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("starting ebony");
    let stdout = child.stdout.take().expect("stdout");
    let (tx, lines) = mpsc::channel();
    thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            let Ok(line) = line else { break };
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    let stdin = child.stdin.take();
    (child, stdin, lines)
}

/// Starts the shell command `command` behind a pseudo-terminal (util-linux `script`), its input and
/// the terminal's output piped: the output comes as a terminal receives it, the echo of the input
/// included and lines ending `\r\n`. None when `script` is missing, so that a terminal case is
/// skipped, with a note, where it cannot run.
pub fn spawn_tty(command: &str) -> Option<Child> {
    if Command::new("script").arg("--version").output().is_err() {
        eprintln!("no `script` here: the terminal case is not run");
        return None;
    }
    let child = Command::new("script")
        .args(["-q", "-e", "-c", command, "/dev/null"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("script");
    Some(child)
}

/// Runs the real binary with `args` (and no book) to its end on `input`, with its stdout and stderr.
pub fn run_to_end(args: &[&str], input: &str) -> std::process::Output {
    let mut all = vec![NO_BOOK];
    all.extend_from_slice(args);
    run_with(&all, input)
}

/// Runs the real binary with exactly `args` to its end on `input`, with its stdout and stderr.
pub fn run_with(args: &[&str], input: &str) -> std::process::Output {
    let mut child = Command::new(bin())
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("starting ebony");
    child.stdin.take().expect("stdin").write_all(input.as_bytes()).expect("writing input");
    child.wait_with_output().expect("ebony ends")
}

pub struct Engine {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    /// Every line read, for failure messages.
    pub transcript: Vec<String>,
}

impl Engine {
    pub fn start(protocol: &str) -> Engine {
        Engine::with_args(&["--protocol", protocol, "--hash", "16"])
    }

    pub fn with_args(args: &[&str]) -> Engine {
        let (child, stdin, lines) = spawn(args);
        Engine { child, stdin, lines, transcript: Vec::new() }
    }

    /// The process id, to read /proc.
    pub fn id(&self) -> u32 {
        self.child.id()
    }

    /// Writes raw bytes (lines not logged in the transcript).
    pub fn send_bytes(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        stdin.write_all(bytes).expect("writing to ebony");
        stdin.flush().expect("flushing to ebony");
    }

    /// Lines up to and including the first for which `last` is true.
    pub fn read_until(&mut self, last: impl Fn(&str) -> bool) -> Vec<String> {
        let mut lines = Vec::new();
        loop {
            let line = self.read();
            let done = last(&line);
            lines.push(line);
            if done {
                return lines;
            }
        }
    }

    pub fn send(&mut self, line: &str) {
        self.transcript.push(format!("> {line}"));
        let stdin = self.stdin.as_mut().expect("stdin open");
        writeln!(stdin, "{line}").expect("writing to ebony");
        stdin.flush().expect("flushing to ebony");
    }

    /// The next line, or a panic with the transcript after [`TIMEOUT`].
    pub fn read(&mut self) -> String {
        match self.lines.recv_timeout(TIMEOUT) {
            Ok(line) => {
                self.transcript.push(format!("< {line}"));
                line
            }
            Err(e) => panic!("no reply from ebony ({e}); transcript:\n{}", self.tail()),
        }
    }

    /// The next line if one comes within `wait`.
    pub fn try_read(&mut self, wait: Duration) -> Option<String> {
        let line = self.lines.recv_timeout(wait).ok()?;
        self.transcript.push(format!("< {line}"));
        Some(line)
    }

    /// The last lines of the transcript.
    pub fn tail(&self) -> String {
        let from = self.transcript.len().saturating_sub(40);
        self.transcript[from..].join("\n")
    }

    /// Closes stdin and checks the engine exits cleanly.
    pub fn finish(mut self) {
        drop(self.stdin.take());
        let status = self.child.wait().expect("waiting for ebony");
        assert!(status.success(), "ebony exited with {status}");
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        if thread::panicking() {
            let _ = self.child.kill();
        }
    }
}

/// The GUI-to-engine lines (`>`) of a captured session in tests/data/protocol-logs/.
pub fn gui_lines(log: &str) -> Vec<String> {
    let path: PathBuf = [env!("CARGO_MANIFEST_DIR"), "tests", "data", "protocol-logs", log].iter().collect();
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    text.lines()
        .filter_map(|line| {
            let rest = line.trim_start().split_once(' ')?.1;
            rest.strip_prefix("> ").or_else(|| (rest == ">").then_some("")).map(str::to_string)
        })
        .collect()
}

/// The one seeded generator of the tests (xorshift64), so that random games and boards are the same
/// on every run and a failure reproduces. The seed must not be 0.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// A number in `0..n` (`n` > 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}
