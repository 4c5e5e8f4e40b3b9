//! Scripted sessions against the real `ebony` binary speaking the native protocol: a whole game, every
//! error case, the commands answered during a search, end of input and a shell pipe.

mod support;

use ebony::rules::board::{Move, Position};
use ebony::rules::game::Game;
use std::io::Write;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::thread;
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_ebony");
/// Longest wait for a reply before a test fails (generous: six agents share two cores).
const PATIENCE: Duration = Duration::from_secs(30);
/// Bound on the answer time of `isready`, `ping` and `stop` during a search. The protocol aims at
/// 10 ms (idle: under 1 ms); the bound is loose because the machine may be shared by more busy threads
/// than it has cores (`scripts/test-under-load`); an answer that waited for the search to end would
/// never come under `go infinite`. The measured times are printed.
const PROMPT: Duration = Duration::from_secs(1);

struct Engine {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    pings: u64,
}

impl Engine {
    fn start() -> Engine {
        let (child, stdin, lines) = support::spawn(&[]);
        Engine { child, stdin, lines, pings: 0 }
    }

    fn send_bytes(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        stdin.write_all(bytes).expect("writing to ebony");
        stdin.flush().expect("flushing");
    }

    fn send(&mut self, line: &str) {
        self.send_bytes(format!("{line}\n").as_bytes());
    }

    fn close_input(&mut self) {
        self.stdin = None;
    }

    /// The next line, or `None` at end of output.
    fn recv(&mut self) -> Option<String> {
        match self.lines.recv_timeout(PATIENCE) {
            Ok(line) => Some(line),
            Err(RecvTimeoutError::Disconnected) => None,
            Err(RecvTimeoutError::Timeout) => panic!("no reply from ebony within {PATIENCE:?}"),
        }
    }

    /// Lines up to and including the first that starts with one of `prefixes`.
    fn until(&mut self, prefixes: &[&str]) -> Vec<String> {
        let mut out = Vec::new();
        loop {
            let line = self.recv().unwrap_or_else(|| panic!("output ended; got {out:?}"));
            let done = prefixes.iter().any(|p| line.starts_with(p));
            out.push(line);
            if done {
                return out;
            }
        }
    }

    /// Every line printed before the reply to a fresh `ping`: what the previous commands printed.
    fn sync(&mut self) -> Vec<String> {
        self.pings += 1;
        let pong = format!("pong {}", self.pings);
        self.send(&format!("ping {}", self.pings));
        let mut out = Vec::new();
        loop {
            let line = self.recv().unwrap_or_else(|| panic!("output ended before {pong}; got {out:?}"));
            if line == pong {
                return out;
            }
            out.push(line);
        }
    }

    /// Replies to `line` (and whatever preceded it), up to the sync point.
    fn ask(&mut self, line: &str) -> Vec<String> {
        self.send(line);
        self.sync()
    }

    /// Waits for the process to exit on its own; its status.
    fn wait(&mut self, limit: Duration) -> std::process::ExitStatus {
        self.close_input();
        let start = Instant::now();
        loop {
            if let Some(status) = self.child.try_wait().expect("waiting") {
                return status;
            }
            assert!(start.elapsed() < limit, "ebony did not exit within {limit:?}");
            thread::sleep(Duration::from_millis(2));
        }
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Checks an `info` line's shape: `info depth D[@P%] score S [exact|win|loss] nodes N time MS nps N [pv MOVE ...]`.
fn check_info(line: &str) {
    let words: Vec<&str> = line.split(' ').collect();
    let mut w = words.iter().copied();
    assert_eq!(w.next(), Some("info"), "{line}");
    assert_eq!(w.next(), Some("depth"), "{line}");
    let depth = w.next().unwrap_or_default();
    let (plies, selectivity) = match depth.split_once('@') {
        Some((plies, percent)) => (plies, Some(percent)),
        None => (depth, None),
    };
    assert!(plies.parse::<u32>().is_ok(), "{line}");
    if let Some(percent) = selectivity {
        assert!(["58%", "73%", "87%", "95%", "98%", "99%"].contains(&percent), "{line}");
    }
    assert_eq!(w.next(), Some("score"), "{line}");
    let score: i32 = w.next().and_then(|s| s.parse().ok()).unwrap_or_else(|| panic!("bad score: {line}"));
    assert!((-64..=64).contains(&score), "{line}");
    let mut next = w.next();
    if next == Some("exact") {
        assert!(selectivity.is_none(), "{line}");
        next = w.next();
    } else if next == Some("win") || next == Some("loss") {
        // A win/loss/draw solve: sound, and its estimate on the proven side of 0.
        assert!(selectivity.is_none(), "{line}");
        assert_eq!(score.signum(), if next == Some("win") { 1 } else { -1 }, "{line}");
        next = w.next();
    }
    for key in ["nodes", "time", "nps"] {
        assert_eq!(next, Some(key), "{line}");
        assert!(w.next().and_then(|n| n.parse::<u64>().ok()).is_some(), "{line}");
        next = w.next();
    }
    if let Some(pv) = next {
        assert_eq!(pv, "pv", "{line}");
        let moves: Vec<&str> = w.collect();
        assert!(!moves.is_empty(), "{line}");
        for mv in moves {
            assert!(mv == "pass" || mv.parse::<ebony::Square>().is_ok(), "{line}");
        }
    }
}

/// The move of a `bestmove` line, after checking the lines before it are `info` lines.
fn best_move(lines: &[String]) -> Move {
    let (last, infos) = lines.split_last().expect("some output");
    infos.iter().for_each(|l| check_info(l));
    match last.strip_prefix("bestmove ") {
        Some("pass") => Move::Pass,
        Some(sq) => Move::Play(sq.parse().unwrap_or_else(|_| panic!("bad bestmove: {last}"))),
        None => panic!("expected bestmove, got {last}"),
    }
}

fn move_name(mv: Move) -> String {
    match mv {
        Move::Play(sq) => sq.to_string(),
        Move::Pass => "pass".to_string(),
    }
}

#[test]
fn a_whole_game_played_by_go_and_move() {
    let mut engine = Engine::start();
    let mut game = Game::default();
    let limits = ["go depth 3", "go nodes 3000", "go time 20", "go clock 2000 inc 10 movestogo 30"];
    for turn in 0.. {
        engine.send(limits[turn % limits.len()]);
        let lines = engine.until(&["bestmove ", "error "]);
        if lines.last().is_some_and(|l| l.starts_with("error ")) {
            assert_eq!(lines, ["error go: the game is over (new starts another, undo takes back moves)"]);
            break;
        }
        let mv = best_move(&lines);
        assert!(game.play(mv).is_ok(), "ebony chose the illegal {mv:?} on turn {turn}");
        assert_eq!(engine.ask(&format!("move {}", move_name(mv))), Vec::<String>::new());
        assert!(turn < 200, "the game does not end");
    }
    assert!(game.is_over());
    assert!(game.moves().len() >= 58, "a game from the start has at least 58 moves");
    let record: Vec<String> = game.moves().map(move_name).collect();
    assert_eq!(engine.ask("moves"), [format!("moves {}", record.join(" "))]);
    let show = engine.ask("show");
    let position = game.position();
    let black_score = match position.side {
        ebony::Color::Black => position.board.final_score(),
        ebony::Color::White => -position.board.final_score(),
    };
    let result = match black_score {
        0 => "draw".to_string(),
        s if s > 0 => format!("black wins by {s}"),
        s => format!("white wins by {}", -s),
    };
    assert_eq!(show[11], format!("game over {result}"));
    assert_eq!(show[12], format!("board {position}"));
    engine.send("quit");
    assert!(engine.wait(PATIENCE).success());
}

#[test]
fn every_bad_line_gets_one_error_and_changes_nothing() {
    let mut engine = Engine::start();
    assert_eq!(engine.ask("move f5 d6"), Vec::<String>::new());
    let state = |engine: &mut Engine| [engine.ask("show"), engine.ask("moves")].concat();
    let before = state(&mut engine);
    let unknown = |w: &str| format!("error unknown command '{w}' (try help)");
    let cases: Vec<(Vec<u8>, String)> = vec![
        (b"fly".to_vec(), unknown("fly")),
        (b"gox depth 3".to_vec(), "error unknown command 'gox' (did you mean go? try help)".into()),
        (b"go".to_vec(), "error go: expected depth N, time MS, nodes N, infinite or clock MS, found end of line".into()),
        (b"go depth".to_vec(), "error go: expected depth, found end of line".into()),
        (b"go depth 3x".to_vec(), "error go: bad number '3x' for depth: expected an integer from 1 to 60".into()),
        (b"go depth 99".to_vec(), "error go: depth 99 out of range 1 to 60".into()),
        (b"go time -5".to_vec(), "error go: bad number '-5' for milliseconds: expected an integer from 1 to 1000000000".into()),
        (b"go nodes 0".to_vec(), "error go: nodes 0 out of range 1 to 18446744073709551615".into()),
        (b"go clock 100 inc x".to_vec(), "error go: bad number 'x' for increment milliseconds: expected an integer from 0 to 1000000000".into()),
        (b"go infinite 5".to_vec(), "error go: unexpected '5' (usage: go depth N | time MS | nodes N | infinite | clock MS [inc MS] [movestogo N])".into()),
        (b"move".to_vec(), "error move: expected a move, found end of line".into()),
        (b"move j9".to_vec(), "error move: bad move 'j9': expected a square a1 to h8, pass, or squares run together like f5d6c3".into()),
        (b"move f5".to_vec(), "error move: f5 is occupied (legal: c3 c4 c5 c6 c7)".into()),
        (b"move a1".to_vec(), "error move: a1 flips no disc (legal: c3 c4 c5 c6 c7)".into()),
        (b"move pass".to_vec(), "error move: cannot pass: a move is available (legal: c3 c4 c5 c6 c7)".into()),
        (b"move c3 d3 h8".to_vec(), "error move: move 3 of 3 (h8) is illegal: h8 flips no disc (legal there: c2 e3 c4 c5 c6 c7); no move played".into()),
        (b"move c3d3h8".to_vec(), "error move: move 3 of 3 (h8) is illegal: h8 flips no disc (legal there: c2 e3 c4 c5 c6 c7); no move played".into()),
        (b"undo 3".to_vec(), "error undo: cannot undo 3, moves played: 2 (undo 2 takes them all back)".into()),
        (b"undo x".to_vec(), "error undo: bad number 'x' for the number of moves: expected an integer from 1 to 64".into()),
        (b"setboard".to_vec(), "error setboard: expected a board string or start, found end of line".into()),
        (b"setboard XO-".to_vec(), "error setboard: bad board: board has 3 squares, expected 64".into()),
        (
            format!("setboard {}Z", "-".repeat(63)).into_bytes(),
            "error setboard: bad board: bad character 'Z' at h8: expected X x * b (black), O o w (white) or - . (empty)".into(),
        ),
        (format!("setboard {}", "-".repeat(64)).into_bytes(), "error setboard: bad board: missing side to move after the 64 squares".into()),
        (
            format!("setboard {} Y", "-".repeat(64)).into_bytes(),
            "error setboard: bad board: bad side to move 'Y': expected X (black) or O (white)".into(),
        ),
        (b"set hash 0".to_vec(), "error set: hash megabytes 0 out of range 1 to 4096".into()),
        (b"set threads 2".to_vec(), "error set: expected an option: hash, selectivity or book, found 'threads'".into()),
        (b"ping pong".to_vec(), "error ping: bad number 'pong' for the ping number: expected an integer from 0 to 18446744073709551615".into()),
        (b"show me".to_vec(), "error show: unexpected 'me' (usage: show)".into()),
        (b"set book sometimes".to_vec(), "error set: expected on, off or randomness N, found 'sometimes'".into()),
        (b"set book randomness -1".to_vec(), "error set: bad number '-1' for randomness discs: expected an integer from 0 to 64".into()),
        (b"learn deep".to_vec(), "error learn: expected depth N, found 'deep'".into()),
        (b"\xff\xfe\x00\x1b[2J".to_vec(), unknown("\u{fffd}\u{fffd}\\0\\u{1b}[2J")),
        (b"SHOW\tBOARD\r".to_vec(), "error show: unexpected 'BOARD' (usage: show)".into()),
        (vec![b'x'; 70_000], "error line too long: 70001 bytes, at most 65536".into()),
    ];
    for (bytes, want) in cases {
        let mut line = bytes.clone();
        line.push(b'\n');
        engine.send_bytes(&line);
        let label = String::from_utf8_lossy(&bytes[..bytes.len().min(40)]).into_owned();
        assert_eq!(engine.sync(), [want], "for {label:?}");
        assert_eq!(state(&mut engine), before, "state changed by {label:?}");
    }
    // A finished game: black filled the board.
    let full = format!("setboard {} O", "X".repeat(64));
    assert_eq!(engine.ask(&full), Vec::<String>::new());
    let before = state(&mut engine);
    assert_eq!(engine.ask("go depth 5"), ["error go: the game is over (new starts another, undo takes back moves)"]);
    assert_eq!(engine.ask("move pass"), ["error move: the game is over (new starts another, undo takes back moves)"]);
    assert_eq!(state(&mut engine), before);
}

#[test]
fn forgiving_about_case_spaces_crlf_and_blank_lines() {
    let mut engine = Engine::start();
    engine.send_bytes(b"\n   \n\t\r\n  MOVE   F5\t d6  \r\n");
    engine.send_bytes(b"Moves\r\n");
    engine.send_bytes(b"IsReady\r\n");
    engine.send_bytes(b"PING 17\r\n");
    engine.send_bytes(b"setBoard START\r\nmoves\n");
    assert_eq!(engine.sync(), ["moves f5 d6", "readyok", "pong 17", "moves"]);
    // A stop with no search running is silent.
    assert_eq!(engine.ask("stop"), Vec::<String>::new());
}

#[test]
fn isready_ping_and_stop_are_prompt_during_go_infinite() {
    let mut engine = Engine::start();
    engine.send("go infinite");
    let first = engine.until(&["info "]);
    check_info(&first[0]);
    let mut latencies = Vec::new();
    for i in 0..10 {
        let (question, answer) = if i % 2 == 0 {
            ("isready".to_string(), "readyok".to_string())
        } else {
            (format!("ping {i}"), format!("pong {i}"))
        };
        let sent = Instant::now();
        engine.send(&question);
        loop {
            let line = engine.recv().expect("a reply");
            if line == answer {
                break;
            }
            check_info(&line);
        }
        latencies.push(sent.elapsed());
        thread::sleep(Duration::from_millis(20));
    }
    // A command that must wait for the search waits, and a bad line's error waits with it.
    engine.send("move f5");
    engine.send("nonsense");
    thread::sleep(Duration::from_millis(50));
    let sent = Instant::now();
    engine.send("stop");
    let lines = engine.until(&["bestmove "]);
    let stop_latency = sent.elapsed();
    let mv = best_move(&lines);
    assert_ne!(mv, Move::Pass);
    assert_eq!(engine.sync(), ["error unknown command 'nonsense' (try help)"]);
    assert_eq!(engine.ask("moves"), ["moves f5"]);
    let worst = latencies.iter().max().copied().unwrap_or_default();
    eprintln!("isready/ping answer times {latencies:?}, stop answer time {stop_latency:?}");
    assert!(worst < PROMPT, "isready/ping took {worst:?}");
    assert!(stop_latency < PROMPT, "stop took {stop_latency:?}");
}

#[test]
fn quit_during_a_search_prints_bestmove_and_exits_at_once() {
    let mut engine = Engine::start();
    engine.send("go infinite");
    engine.until(&["info "]);
    // One write: the engine may exit before a second one, which would then fail with a broken pipe.
    engine.send("quit\nshow");
    let lines = engine.until(&["bestmove "]);
    best_move(&lines);
    assert_eq!(engine.recv(), None, "nothing after quit's bestmove");
    assert!(engine.wait(PATIENCE).success());
}

#[test]
fn quit_when_idle_exits_and_drops_the_rest() {
    let mut engine = Engine::start();
    engine.send("quit\nping 1");
    assert_eq!(engine.recv(), None);
    assert!(engine.wait(PATIENCE).success());
}

#[test]
fn end_of_input_lets_a_finite_search_finish() {
    let mut engine = Engine::start();
    engine.send("go depth 7\nmove f5\nmoves");
    engine.close_input();
    let lines = engine.until(&["bestmove "]);
    best_move(&lines);
    assert!(lines.iter().any(|l| l.starts_with("info depth 7@87% ")), "the search was cut short: {lines:?}");
    assert_eq!(engine.recv().as_deref(), Some("moves f5"));
    assert_eq!(engine.recv(), None);
    assert!(engine.wait(PATIENCE).success());
}

#[test]
fn end_of_input_stops_go_infinite() {
    let mut engine = Engine::start();
    engine.send("go infinite");
    engine.until(&["info "]);
    engine.close_input();
    let lines = engine.until(&["bestmove "]);
    best_move(&lines);
    assert_eq!(engine.recv(), None);
    assert!(engine.wait(PATIENCE).success());
}

#[test]
fn go_in_a_shell_pipe() {
    let script = format!("printf 'go depth 8\\n' | '{BIN}' --no-book");
    let output = Command::new("sh").arg("-c").arg(&script).stderr(Stdio::null()).output().expect("running sh");
    assert!(output.status.success());
    let stdout = String::from_utf8_lossy(&output.stdout);
    let lines: Vec<String> = stdout.lines().map(str::to_string).collect();
    best_move(&lines);
    assert!(lines.iter().any(|l| l.starts_with("info depth 8@87% ")), "the search was cut short: {lines:?}");
}

#[test]
fn go_depth_is_deterministic_and_never_moves() {
    let mut engine = Engine::start();
    let strip = |lines: Vec<String>| -> Vec<String> {
        lines.iter().map(|l| l.split(" time ").next().unwrap_or_default().to_string()).collect()
    };
    engine.send("go depth 6");
    let first = strip(engine.until(&["bestmove "]));
    assert_eq!(engine.ask("moves"), ["moves"]);
    assert_eq!(engine.ask("show").last().cloned(), Some(format!("board {}", Position::START)));
    engine.send("new");
    engine.send("go depth 6");
    let second = strip(engine.until(&["bestmove "]));
    assert_eq!(first, second);
}

/// `setboard` keeps the transposition table (a referee sends the position before every move), `new`
/// clears it: the same search again after `setboard` reuses what the first learnt, after `new` it
/// repeats the first node for node.
#[test]
fn setboard_keeps_the_table_and_new_clears_it() {
    let mut engine = Engine::start();
    let nodes = |lines: Vec<String>| -> u64 {
        let last = lines.iter().rev().find(|l| l.starts_with("info ")).expect("an info line");
        let words: Vec<&str> = last.split(' ').collect();
        let at = words.iter().position(|&w| w == "nodes").expect("nodes");
        words[at + 1].parse().expect("a node count")
    };
    let position = "setboard ------------------XO-O----XXOO-----XOX-----OOX------O----------- X";
    assert_eq!(engine.ask(position), Vec::<String>::new(), "a valid board");
    engine.send("go depth 12");
    let first = nodes(engine.until(&["bestmove "]));
    engine.send(&format!("{position}\ngo depth 12"));
    let again = nodes(engine.until(&["bestmove "]));
    engine.send(&format!("new\n{position}\ngo depth 12"));
    let fresh = nodes(engine.until(&["bestmove "]));
    // A cleared table repeats the first search node for node (as after `new`); how many nodes a
    // kept one saves depends on the weights (more than half with those before the corner triangle,
    // 29% with it).
    assert!(again < first, "the table was cleared: {first} then {again} nodes");
    assert_eq!(fresh, first);
}

#[test]
fn pass_is_searched_and_played() {
    let mut engine = Engine::start();
    let board = format!("XO{} O", "-".repeat(62));
    assert_eq!(engine.ask(&format!("setboard {board}")), Vec::<String>::new());
    engine.send("go depth 4");
    assert_eq!(best_move(&engine.until(&["bestmove "])), Move::Pass);
    assert_eq!(engine.ask("move pass"), Vec::<String>::new());
    engine.send("go depth 4");
    assert_eq!(move_name(best_move(&engine.until(&["bestmove "]))), "c1");
}
