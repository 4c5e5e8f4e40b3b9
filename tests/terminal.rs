//! The native protocol for a person: at a terminal (a pseudo-terminal from util-linux `script`) the
//! board after each move, a search on one line, help in 80 columns, escape sequences refused without
//! an echo; in a pipe, `mode` makes ebony answer moves by itself and nothing of the terminal's
//! rendering appears.

mod support;

use std::io::{Read, Write};
use std::process::{Child, ChildStdin};
use std::sync::mpsc::{self, Receiver};
use std::time::{Duration, Instant};
use support::{run_to_end, Engine};

/// ebony behind a pseudo-terminal: what it writes, as the terminal receives it (the echo of the input
/// included, lines ending `\r\n`).
struct Tty {
    child: Child,
    stdin: Option<ChildStdin>,
    chunks: Receiver<Vec<u8>>,
    seen: String,
}

impl Tty {
    /// None when `script` is missing (the terminal cases are then not run).
    fn start() -> Option<Tty> {
        let command = format!("{} --no-book --hash 16 2>/dev/null", support::bin().display());
        let mut child = support::spawn_tty(&command)?;
        let mut stdout = child.stdout.take().expect("stdout");
        let (tx, chunks) = mpsc::channel();
        std::thread::spawn(move || {
            let mut buf = [0u8; 4096];
            while let Ok(n) = stdout.read(&mut buf) {
                if n == 0 || tx.send(buf[..n].to_vec()).is_err() {
                    break;
                }
            }
        });
        let stdin = child.stdin.take();
        Some(Tty { child, stdin, chunks, seen: String::new() })
    }

    fn send(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("stdin");
        stdin.write_all(bytes).expect("write");
        stdin.flush().expect("flush");
    }

    /// Reads until `needle` has been seen `count` times in all the output; panics after a minute.
    fn wait_for(&mut self, needle: &str, count: usize) {
        let start = Instant::now();
        while self.seen.matches(needle).count() < count {
            let left = Duration::from_secs(60).saturating_sub(start.elapsed());
            match self.chunks.recv_timeout(left) {
                Ok(chunk) => self.seen.push_str(&String::from_utf8_lossy(&chunk)),
                Err(_) => panic!("no {needle:?} (x{count}) from ebony at a terminal; got:\n{}", self.seen),
            }
        }
    }

    /// Sends `quit` and gives back everything ebony wrote.
    fn finish(mut self) -> String {
        self.send(b"quit\n");
        drop(self.stdin.take());
        let start = Instant::now();
        while self.child.try_wait().expect("wait").is_none() {
            assert!(start.elapsed() < Duration::from_secs(60), "ebony did not quit");
            while let Ok(chunk) = self.chunks.try_recv() {
                self.seen.push_str(&String::from_utf8_lossy(&chunk));
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        // The rest of the output, up to its end (the reader thread ends there): however late a
        // loaded machine lets it come.
        while let Ok(chunk) = self.chunks.recv_timeout(Duration::from_secs(60)) {
            self.seen.push_str(&String::from_utf8_lossy(&chunk));
        }
        self.seen
    }
}

/// The lines a terminal shows: each line's text after its last carriage return (a progress line is
/// rewritten in place), escape sequences removed.
fn screen_lines(output: &str) -> Vec<String> {
    output
        .split('\n')
        .map(|line| {
            let shown = line.trim_end_matches('\r').rsplit('\r').next().unwrap_or("");
            shown.replace("\x1b[K", "")
        })
        .collect()
}

#[test]
fn a_terminal_shows_the_board_after_each_move_and_a_search_on_one_line() {
    let Some(mut tty) = Tty::start() else { return };
    // The board at the start: the legal moves marked.
    tty.wait_for("black X 2 white O 2, black to move", 1);
    tty.send(b"level 10\nmode white\nf5\n");
    tty.wait_for("bestmove ", 1);
    tty.wait_for(", black to move", 2);
    // A hint's pv is cut to the width, as is every line.
    // (FFO #13, 16 empties: solved at level 14, its whole line of 16 moves too long for a line.)
    tty.send(b"setboard --XXXXX--OOOXX---OOOXXXX-OXOXOXXOXXXOXXX--XOXOXX--OXOOO--OOOOO-- X\nmode neither\n");
    tty.send(b"level 14\nhint 1\n");
    tty.wait_for("\nhint ", 1);
    tty.send(b"help\n\x1b[A\n");
    tty.wait_for("help COMMAND says more of one", 1);
    tty.wait_for("error arrow keys", 1);
    let out = tty.finish();
    let lines = screen_lines(&out);
    assert!(lines.iter().any(|l| l == "3 - - - . - - - - 3"), "{out}");
    // The search: one line rewritten in place (carriage returns, no newline), never `info` lines.
    assert!(out.contains("\rdepth 10") && out.contains("\x1b[K"), "{out}");
    assert!(!out.contains("info depth"), "{out}");
    let searches = lines.iter().filter(|l| l.starts_with("depth ")).count();
    assert_eq!(searches, 1, "one progress line stays per search:\n{out}");
    // ebony's answer and the board after it, its move in lower case.
    let answer = lines.iter().position(|l| l.starts_with("bestmove ")).expect("bestmove");
    let after = &lines[answer + 1..];
    assert!(after.iter().take(12).any(|l| l.contains(" o ") || l.contains(" o\r")), "{out}");
    assert!(after.iter().take(12).any(|l| l.starts_with("black X 3 white O 3, black to move")), "{out}");
    // Help in 80 columns, every line; the escape sequence refused in one line, not echoed back.
    for line in &lines {
        assert!(line.chars().count() <= 80, "wider than 80 columns: {line:?}");
    }
    assert!(lines.iter().any(|l| l.starts_with("mode       who ebony plays by itself")), "{out}");
    assert!(lines.iter().any(|l| l.starts_with("hint ") && l.contains(" exact ") && l.ends_with("...")), "{out}");
    assert!(out.contains("error arrow keys and other escape sequences do nothing here (try help)"), "{out}");
    assert!(!out.contains("\\u{1b}") && !out.contains("unknown command"), "{out}");
}

#[test]
fn verbose_settles_how_much_of_a_search_a_terminal_shows() {
    let Some(mut tty) = Tty::start() else { return };
    tty.send(b"verbose 2\ngo depth 3\n");
    tty.wait_for("bestmove ", 1);
    tty.send(b"verbose 0\ngo depth 3\nf5\nping 1\n");
    tty.wait_for("pong 1", 1);
    let out = tty.finish();
    let lines = screen_lines(&out);
    let first = lines.iter().position(|l| l.starts_with("bestmove ")).expect("bestmove");
    assert_eq!(lines[..first].iter().filter(|l| l.starts_with("info depth ")).count(), 3, "{out}");
    let rest = &lines[first + 1..];
    assert!(!rest.iter().any(|l| l.starts_with("info ") || l.starts_with("depth ")), "{out}");
    // verbose 0: no board after f5 either (the start board came before).
    assert!(!rest.iter().any(|l| l.starts_with("black X ")), "{out}");
}

/// In a pipe `mode` makes ebony answer each move by itself, and the terminal's rendering (boards,
/// progress lines) never appears; `help` is the terminal's, in 80 columns.
#[test]
fn in_a_pipe_mode_answers_moves_and_nothing_is_rendered() {
    let mut engine = Engine::with_args(&["--hash", "16"]);
    engine.send("level 3");
    engine.send("mode white");
    let mut seen = Vec::new();
    for _ in 0..2 {
        // One of the legal moves, then ebony's answer.
        engine.send("show");
        let shown = engine.read_until(|l| l.starts_with("board "));
        let legal = shown.iter().find_map(|l| l.strip_prefix("legal ")).expect("legal moves").to_string();
        let mine = legal.split(' ').next().expect("a move").to_string();
        engine.send(&mine);
        seen.extend(shown);
        seen.extend(engine.read_until(|l| l.starts_with("bestmove ")));
    }
    engine.send("moves");
    let moves = engine.read();
    assert_eq!(moves.split(' ').count(), 5, "two moves and two answers: {moves}");
    engine.send("mode neither");
    engine.send("help");
    seen.extend(engine.read_until(|l| l.starts_with("a move alone ")));
    engine.finish();
    let text = seen.join("\n");
    assert!(!text.contains('\r') && !text.contains('\x1b'), "{text:?}");
    // The counts line of show, never the terminal's board status line.
    assert!(!seen.iter().any(|l| l.contains(", black to move")), "{text}");
    assert!(seen.iter().any(|l| l.starts_with("mode       who ebony plays")), "{text}");
    // Without mode (the default), a move gets no answer.
    let out = run_to_end(&[], "f5\nmoves\n");
    assert_eq!(String::from_utf8_lossy(&out.stdout), "moves f5\n");
}

/// `mode both` plays the game out; the finished game's board names nobody to move.
#[test]
fn mode_both_plays_to_the_end_and_show_names_nobody_to_move() {
    let end = "OOOOXOOXXXXXXOOXXXXOOXXXXXXXOXOXXOXXOOOXXOOXOXXXX-XOOX--XX--O--- X";
    let out = run_to_end(&[], &format!("setboard {end}\nlevel 2\nmode both\nshow\n"));
    let text = String::from_utf8_lossy(&out.stdout);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.iter().filter(|l| l.starts_with("bestmove ")).count(), 8, "{text}");
    let counts = lines.iter().find(|l| l.starts_with("black X ")).expect("counts line");
    assert!(counts.ends_with(" game over") && !counts.contains(" to move"), "{counts}");
    assert!(lines.iter().any(|l| l.starts_with("game over ")), "{text}");
    assert!(!lines.iter().any(|l| l.starts_with("legal")), "{text}");
}

/// With `mode both` at a terminal each of ebony's moves is followed by its board, once.
#[test]
fn a_terminal_shows_each_move_of_mode_both() {
    let Some(mut tty) = Tty::start() else { return };
    tty.wait_for(", black to move", 1);
    tty.send(b"setboard OOOOXOOXXXXXXOOXXXXOOXXXXXXXOXOXXOXXOOOXXOOXOXXXX-XOOX--XX--O--- X\nlevel 2\nmode both\n");
    tty.wait_for(", game over: black wins by 14", 1);
    let out = tty.finish();
    let lines = screen_lines(&out);
    let boards: Vec<usize> = (0..lines.len()).filter(|&i| lines[i].starts_with("black X ")).collect();
    // The start, the position set up, then one board after each of the 8 moves.
    assert_eq!(boards.len(), 10, "{out}");
    let answers = lines.iter().filter(|l| l.starts_with("bestmove ")).count();
    assert_eq!(answers, 8, "{out}");
}
