//! The native protocol for a person: at a terminal (a pseudo-terminal from util-linux `script`) the
//! board after each move, a search on one line that leaves typed keys alone, a prompt, help in 80
//! columns, escape sequences refused without an echo, Ctrl-C that stops a search, passes of ebony's
//! own played and said, lines typed during a search run after it in order; in a pipe, `mode` makes
//! ebony answer moves by itself and nothing of the terminal's rendering appears. `hint`, `analyze`,
//! `undo` and `redo` as a person uses them: at the level, and ebony moving after a take-back.

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

    /// Reads until `needle` appears after the first `anchor` of all the output; panics after a minute.
    fn wait_after(&mut self, anchor: &str, needle: &str) {
        let start = Instant::now();
        loop {
            if let Some(at) = self.seen.find(anchor) {
                if self.seen[at + anchor.len()..].contains(needle) {
                    return;
                }
            }
            let left = Duration::from_secs(60).saturating_sub(start.elapsed());
            match self.chunks.recv_timeout(left) {
                Ok(chunk) => self.seen.push_str(&String::from_utf8_lossy(&chunk)),
                Err(_) => panic!("no {needle:?} after {anchor:?} from ebony at a terminal; got:\n{}", self.seen),
            }
        }
    }

    /// Sends `quit` and gives back everything ebony wrote.
    fn finish(mut self) -> String {
        self.send(b"quit\n");
        self.wait_exit()
    }

    /// Waits for ebony to end by itself (a minute at most) and gives back everything it wrote.
    fn wait_exit(mut self) -> String {
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

/// The lines a terminal shows once `output` is written to it, prompts left out (see [`screen`]).
fn screen_lines(output: &str) -> Vec<String> {
    screen(output).into_iter().map(|row| without_prompt(&row).to_string()).collect()
}

/// `row` without a prompt at its start (`black to move (you) > `), as lines typed ahead may follow
/// one on its row.
fn without_prompt(row: &str) -> &str {
    let prompted =
        row.starts_with("black to move (") || row.starts_with("white to move (") || row.starts_with("game over (");
    match row.split_once(") > ") {
        Some((_, rest)) if prompted => rest,
        _ => row,
    }
}

/// The rows a terminal shows once `output` is written to it: a small terminal that knows what ebony
/// and the terminal's echo send (carriage return, line feed, backspace, erase to the end of the line,
/// cursor saved, restored, moved up and to a column), as wide and as long as needed (the widths are
/// checked on its rows).
fn screen(output: &str) -> Vec<String> {
    let mut rows: Vec<Vec<char>> = vec![Vec::new()];
    let (mut row, mut col) = (0usize, 0usize);
    let mut saved = (0, 0);
    let mut chars = output.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\r' => col = 0,
            '\n' => {
                row += 1;
                if rows.len() <= row {
                    rows.push(Vec::new());
                }
            }
            '\x08' => col = col.saturating_sub(1),
            '\x1b' => match chars.next() {
                Some('7') => saved = (row, col),
                Some('8') => (row, col) = saved,
                Some('[') => {
                    let mut count = String::new();
                    while let Some(&d) = chars.peek() {
                        chars.next();
                        if d.is_ascii_digit() || d == ';' || d == '?' {
                            count.push(d);
                            continue;
                        }
                        match d {
                            'K' => rows[row].truncate(col),
                            'A' => row = row.saturating_sub(count.parse().unwrap_or(1)),
                            'G' => col = count.parse::<usize>().unwrap_or(1).saturating_sub(1),
                            _ => {}
                        }
                        break;
                    }
                }
                _ => {}
            },
            c if c.is_control() => {}
            c => {
                let line = &mut rows[row];
                while line.len() < col {
                    line.push(' ');
                }
                if col < line.len() {
                    line[col] = c;
                } else {
                    line.push(c);
                }
                col += 1;
            }
        }
    }
    rows.into_iter().map(|r| r.into_iter().collect::<String>().trim_end().to_string()).collect()
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
    // The search: one line rewritten in place (from its first column, no newline), never `info` lines.
    assert!(out.contains("\x1b[Gdepth 10") && out.contains("\x1b[K"), "{out}");
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

/// The depth of each `hint` or `analysis` line on screen (`depth 4@87%` is 4), in order.
fn depths(lines: &[String], label: &str) -> Vec<u32> {
    lines
        .iter()
        .filter(|l| l.starts_with(label) && l.contains(" score "))
        .filter_map(|l| l.split(" depth ").nth(1))
        .filter_map(|d| d.split(|c: char| !c.is_ascii_digit()).next()?.parse().ok())
        .collect()
}

/// `hint` and `analyze` without limits think at the level, whatever the last `go` used; limits given
/// to one of them hold for that command only.
#[test]
fn hint_and_analyze_think_at_the_level() {
    let Some(mut tty) = Tty::start() else { return };
    tty.wait_for(", black to move", 1);
    tty.send(b"level 4\nf5\ngo depth 9\n");
    tty.wait_for("bestmove ", 1);
    tty.send(b"hint 1\nanalyze\nhint 1 depth 6\nhint 1\nping 1\n");
    tty.wait_for("pong 1", 1);
    let out = tty.finish();
    let lines = screen_lines(&out);
    assert_eq!(depths(&lines, "hint "), [4, 6, 4], "{out}");
    let analysis = depths(&lines, "analysis ");
    assert!(!analysis.is_empty() && analysis.iter().all(|&d| d == 4), "{out}");
    assert!(lines.iter().any(|l| l == "analysis end") && !out.contains("error"), "{out}");
}

/// Under `mode`, a take-back that leaves ebony's side to move makes it move, as at the start of a
/// game; `undo 2` gives the person the move back.
#[test]
fn undo_and_redo_under_mode_let_ebony_move() {
    let Some(mut tty) = Tty::start() else { return };
    tty.wait_for(", black to move", 1);
    tty.send(b"level 2\nmode white\nf5\n");
    tty.wait_for("bestmove ", 1);
    // ebony's answer taken back: white is to move, and ebony plays again.
    tty.send(b"undo\nping 1\n");
    tty.wait_for("pong 1", 1);
    tty.send(b"moves\nundo 2\nmoves\nredo\nmoves\nping 2\n");
    tty.wait_for("pong 2", 1);
    let out = tty.finish();
    let lines = screen_lines(&out);
    assert_eq!(lines.iter().filter(|l| l.starts_with("bestmove ")).count(), 3, "{out}");
    let replies: Vec<usize> =
        lines.iter().filter(|l| l.starts_with("moves")).map(|l| l.split(' ').count() - 1).collect();
    // The echoed `moves` lines have no move; the replies: two moves, none, then f5 redone and answered.
    assert_eq!(replies.iter().filter(|&&n| n > 0).copied().collect::<Vec<_>>(), [2, 2], "{out}");
    assert!(!out.contains("error"), "{out}");
}

/// A pass of ebony's own under `mode both` is played and said; nobody is asked to type it.
#[test]
fn ebony_passes_by_itself_and_says_so() {
    let Some(mut tty) = Tty::start() else { return };
    tty.wait_for(", black to move", 1);
    // Black takes one row or the other; white then has a disc left and no move, black its second row.
    let board = format!("XO-OX---{}XO------ X", "-".repeat(48));
    tty.send(format!("setboard {board}\nlevel 2\nmode both\n").as_bytes());
    tty.wait_for(", game over: ", 1);
    let out = tty.finish();
    let lines = screen_lines(&out);
    assert!(lines.iter().any(|l| l == "white has no move: ebony passes"), "{out}");
    assert!(!out.contains("type pass"), "{out}");
    assert_eq!(lines.iter().filter(|l| l.starts_with("bestmove ")).count(), 3, "{out}");
    assert!(lines.iter().any(|l| l == "bestmove pass"), "{out}");
}

/// Lines typed during a search run after it in the order typed, `quit` too: it stops the search and
/// waits its turn.
#[test]
fn lines_typed_during_a_search_run_in_order_quit_included() {
    let Some(mut tty) = Tty::start() else { return };
    tty.wait_for(", black to move", 1);
    tty.send(b"f5\ngo infinite\n");
    tty.wait_for("depth 5@", 1);
    tty.send(b"moves\nping 7\nquit\n");
    let out = tty.wait_exit();
    let lines = screen_lines(&out);
    let bestmove = lines.iter().position(|l| l.starts_with("bestmove ")).expect("bestmove");
    let after = &lines[bestmove..];
    let moves = after.iter().position(|l| l == "moves f5").unwrap_or_else(|| panic!("no moves reply:\n{out}"));
    let pong = after.iter().position(|l| l == "pong 7").unwrap_or_else(|| panic!("no pong:\n{out}"));
    assert!(moves < pong, "{out}");
}

/// A prompt before each line a person types says whose move it is and who plays it; a pipe never
/// gets one.
#[test]
fn a_prompt_says_whose_move_it_is_never_in_a_pipe() {
    let Some(mut tty) = Tty::start() else { return };
    tty.wait_for("black to move (you) > ", 1);
    tty.send(b"level 2\n");
    tty.wait_for("black to move (you) > ", 2);
    tty.send(b"mode white\n");
    tty.wait_for("black to move (you) > ", 3);
    tty.send(b"f5\n");
    tty.wait_for("black to move (you) > ", 4);
    // ebony's answer taken back with nobody playing white: the person is to play it.
    tty.send(b"mode neither\nundo\n");
    tty.wait_for("white to move (you) > ", 1);
    let board = format!("{} O", "X".repeat(64));
    tty.send(format!("setboard {board}\n").as_bytes());
    tty.wait_for("game over (new, undo) > ", 1);
    let out = tty.finish();
    let rows = screen(&out);
    // The prompt and what was typed after it share a row.
    assert!(rows.iter().any(|r| r == "black to move (you) > f5"), "{out}");
    // ebony's rows fit in 80 columns (the typed setboard does not).
    for row in rows.iter().filter(|r| !r.contains("setboard")) {
        assert!(row.chars().count() <= 80, "wider than 80 columns: {row:?}");
    }
    let piped = run_to_end(&[], "level 2\nmode white\nf5\nmoves\n");
    let text = String::from_utf8_lossy(&piped.stdout);
    assert!(!text.contains(" > ") && !text.contains("to move"), "{text}");
    assert!(text.ends_with("\nmoves f5 ") || text.lines().last().is_some_and(|l| l.starts_with("moves f5 ")), "{text}");
}

/// Ctrl-C during a search stops it and ebony plays the move found (an analysis prints what it has);
/// at the prompt, once says how to quit and twice quits.
#[test]
fn ctrl_c_stops_a_search_and_twice_at_the_prompt_quits() {
    let Some(mut tty) = Tty::start() else { return };
    tty.wait_for(", black to move", 1);
    tty.send(b"level 60\nmode white\nf5\n");
    tty.wait_for("@87%", 1);
    tty.send(b"\x03");
    tty.wait_for("bestmove ", 1);
    tty.wait_for(", black to move", 2);
    // The analysis runs once the ping during it is answered.
    tty.send(b"analyze depth 60\nping 3\n");
    tty.wait_for("pong 3", 1);
    tty.send(b"\x03");
    tty.wait_for("analysis end", 1);
    tty.wait_after("analysis end", "black to move (you) > ");
    tty.send(b"\x03");
    tty.wait_for("Ctrl-C again to quit", 1);
    tty.send(b"\x03");
    let out = tty.wait_exit();
    let lines = screen_lines(&out);
    let moves_line = lines.iter().filter(|l| l.starts_with("black X 3 white O 3, black to move")).count();
    assert_eq!(moves_line, 1, "ebony's move was played:\n{out}");
    assert!(!out.contains("error"), "{out}");
}

/// In a pipe Ctrl-C (SIGINT) ends ebony, a search under way included, as a script expects.
#[cfg(unix)]
#[test]
fn in_a_pipe_sigint_ends_ebony() {
    use std::os::unix::process::ExitStatusExt;
    let (mut child, stdin, lines) = support::spawn(&["--hash", "16"]);
    let mut stdin = stdin.expect("stdin");
    writeln!(stdin, "go infinite").expect("write");
    stdin.flush().expect("flush");
    lines.recv_timeout(support::TIMEOUT).expect("an info line");
    let killed = std::process::Command::new("kill").args(["-INT", &child.id().to_string()]).status();
    assert!(killed.is_ok_and(|s| s.success()));
    let status = child.wait().expect("wait");
    assert_eq!(status.signal(), Some(2), "{status}");
}

/// The search line is rewritten above the row where the person types: keys typed during a search
/// stay as typed (Ctrl-C ends the search, with its echo after them; the next case types a line whole).
#[test]
fn the_search_line_leaves_typed_keys_alone() {
    let Some(mut tty) = Tty::start() else { return };
    tty.wait_for(", black to move", 1);
    tty.send(b"go infinite\n");
    tty.wait_for("depth 5@", 1);
    tty.send(b"pin");
    // A rewrite of the search line after the keys' echo, then Ctrl-C (which the terminal echoes).
    tty.wait_after("pin", "\x1b[K");
    tty.send(b"\x03");
    tty.wait_for("bestmove ", 1);
    let out = tty.finish();
    let rows = screen(&out);
    assert!(rows.iter().any(|r| r == "pin^C"), "{out}");
    let search = rows.iter().position(|r| r.starts_with("depth ")).expect("search line");
    assert_eq!(rows[search + 1], "pin^C", "{out}");
    assert!(rows[search + 2].starts_with("bestmove "), "{out}");
}

/// A line typed whole during a search stays as typed under the search line, which is left as it
/// stands from then on; the reply comes under the line.
#[test]
fn a_line_typed_during_a_search_stays_under_the_search_line() {
    let Some(mut tty) = Tty::start() else { return };
    tty.wait_for(", black to move", 1);
    tty.send(b"go infinite\n");
    tty.wait_for("depth 5@", 1);
    tty.send(b"ping 5\n");
    tty.wait_for("pong 5", 1);
    // Searching on past the line: a new search line opens under the reply.
    tty.wait_after("pong 5", "\x1b[K");
    tty.send(b"stop\n");
    tty.wait_for("bestmove ", 1);
    let out = tty.finish();
    let rows = screen(&out);
    let typed = rows.iter().position(|r| r == "ping 5").unwrap_or_else(|| panic!("no row 'ping 5':\n{out}"));
    assert!(rows[typed - 1].starts_with("depth "), "{out}");
    assert_eq!(rows[typed + 1], "pong 5", "{out}");
}
