//! The native protocol for a person typing, run against the real binary: the hint at a terminal and in
//! `--help`, `play` (the engine plays its own move) and the last move in `show`, `analyze` (every
//! move scored), loading and saving games, and `eval` saying whose score it is and the result.

mod support;

use ebony::rules::board::{Move, Position};
use ebony::rules::game::Game;
use std::process::Command;
use std::time::{Duration, Instant};
use support::{run_to_end, Engine};

/// The shortest game: black wipes white out in nine moves (white is to move at the end).
const WIPEOUT: &str = "e6f4e3f6g5d6e7f5c5";

fn stdout(args: &[&str], input: &str) -> Vec<String> {
    let out = run_to_end(args, input);
    assert!(out.status.success(), "{input:?}: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout).lines().map(str::to_string).collect()
}

fn temp_dir(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("ebony-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

#[test]
fn help_says_no_subcommand_is_the_protocol() {
    let out = Command::new(support::bin()).arg("--help").output().expect("ebony --help");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("With no subcommand, ebony speaks a protocol on stdin/stdout"), "{text}");
}

#[test]
fn a_terminal_gets_a_hint_on_stderr_and_a_pipe_does_not() {
    // In a pipe: nothing on stderr.
    let out = run_to_end(&[], "quit\n");
    assert!(out.stderr.is_empty(), "{}", String::from_utf8_lossy(&out.stderr));
    // At a terminal (util-linux `script` gives the engine a pseudo-terminal): the hint on stderr only.
    let dir = temp_dir("tty");
    let stderr = dir.join("stderr");
    let command = format!("{} 2>{}", support::bin().display(), stderr.display());
    let Some(mut child) = support::spawn_tty(&command) else {
        std::fs::remove_dir_all(&dir).ok();
        return;
    };
    std::io::Write::write_all(child.stdin.as_mut().expect("stdin"), b"quit\n").expect("write");
    let out = child.wait_with_output().expect("script ends");
    let hint = std::fs::read_to_string(&stderr).expect("stderr file");
    assert!(hint.starts_with("ebony: type commands, one a line (help lists them"), "{hint:?}");
    assert!(!String::from_utf8_lossy(&out.stdout).contains("type commands"), "the hint went to stdout");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn play_searches_and_plays_and_show_marks_the_last_move() {
    let out = stdout(&[], "go depth 1\nplay\nmoves\nplay depth 2\nmoves\nshow\n");
    let best: Vec<&str> = out.iter().filter_map(|l| l.strip_prefix("bestmove ")).collect();
    assert_eq!(best.len(), 3, "{out:?}");
    // `play` without limits thinks as the last `go`: depth 1.
    let play_infos: Vec<&String> =
        out.iter().skip_while(|l| !l.starts_with("bestmove")).skip(1).take_while(|l| l.starts_with("info")).collect();
    assert!(play_infos.iter().all(|l| l.starts_with("info depth 1@87% ")), "{out:?}");
    let moves: Vec<&String> = out.iter().filter(|l| l.starts_with("moves")).collect();
    assert_eq!(*moves[0], format!("moves {}", best[1]));
    assert_eq!(*moves[1], format!("moves {} {}", best[1], best[2]));
    // The last move's disc in lower case in the diagram; the board string is unchanged.
    let last: ebony::rules::square::Square = best[2].parse().unwrap();
    let row = &out[out.len() - 13 + 1 + last.rank() as usize];
    let cell = row.as_bytes()[2 + 2 * last.file() as usize];
    assert_eq!(cell, b'o', "{row}");
    assert_eq!(out.iter().flat_map(|l| l.split(' ')).filter(|w| *w == "o" || *w == "x").count(), 1);
    // On a finished game, play refuses.
    let out = stdout(&[], &format!("move {WIPEOUT}\nplay depth 1\n"));
    assert_eq!(out, ["error play: the game is over (new starts another, undo takes back moves)"]);
}

/// `analyze` lines: (move, score, exact).
fn analysis(lines: &[String]) -> Vec<(String, i32, bool)> {
    lines
        .iter()
        .filter_map(|l| l.strip_prefix("analysis "))
        .filter(|l| *l != "end")
        .map(|l| {
            let words: Vec<&str> = l.split(' ').collect();
            assert_eq!(words[1], "score", "{l}");
            (words[0].to_string(), words[2].parse().unwrap(), words[3] == "exact")
        })
        .collect()
}

#[test]
fn analyze_scores_every_move_best_first() {
    let out = stdout(&[], "move f5\nanalyze depth 4\n");
    assert_eq!(out.len(), 4, "three moves, then the end: {out:?}");
    assert_eq!(out.last().unwrap(), "analysis end");
    let scored = analysis(&out);
    let mut moves: Vec<&str> = scored.iter().map(|(m, _, _)| m.as_str()).collect();
    moves.sort();
    assert_eq!(moves, ["d6", "f4", "f6"]);
    assert!(scored.windows(2).all(|w| w[0].1 >= w[1].1), "{out:?}");
    assert!(out
        .iter()
        .filter(|l| l.starts_with("analysis ") && *l != "analysis end")
        .all(|l| l.contains(" depth 4@87% pv ")));
    // Near the end every score is exact and matches the solver's best.
    let board = "OOOOXOOXXXXXXOOXXXXOOXXXXXXXOXOXXOXXOOOXXOOXOXXXX-XOOX--XX--O--- X";
    let out = stdout(&[], &format!("setboard {board}\nanalyze depth 10\n"));
    let scored = analysis(&out);
    assert!(!scored.is_empty() && scored.iter().all(|s| s.2), "{out:?}");
    assert_eq!(scored[0].1, 14, "protocol.md's exact score of this position");
}

#[test]
fn analyze_stops_on_stop_with_the_last_depth_done() {
    let mut engine = Engine::with_args(&["--hash", "16"]);
    engine.send("analyze time 100000");
    std::thread::sleep(Duration::from_millis(500));
    let start = Instant::now();
    engine.send("stop");
    let lines = engine.read_until(|l| l == "analysis end");
    assert!(start.elapsed() < Duration::from_secs(5), "{:?}", start.elapsed());
    assert_eq!(analysis(&lines).len(), 4, "{lines:?}");
    engine.send("ping 1");
    assert_eq!(engine.read(), "pong 1");
    engine.finish();
}

#[test]
fn games_are_saved_loaded_and_printed() {
    let dir = temp_dir("games");
    let ggf = dir.join("game 1.ggf");
    let text = dir.join("game.txt");
    let (ggf_name, text_name) = (ggf.to_str().unwrap(), text.to_str().unwrap());
    let out = stdout(&[], &format!("move f5d6c3\nsave ggf {ggf_name}\nsave transcript {text_name}\nsave transcript\n"));
    assert_eq!(out, ["transcript f5d6c3"]);
    let record = std::fs::read_to_string(&ggf).unwrap();
    assert!(record.starts_with("(;GM[Othello]") && record.ends_with(";)\n"), "{record}");
    assert_eq!(std::fs::read_to_string(&text).unwrap(), "f5d6c3\n");
    // Each file loads back to the same game, in a fresh engine.
    for name in [ggf_name, text_name] {
        assert_eq!(stdout(&[], &format!("load {name}\nmoves\n")), ["moves f5 d6 c3"]);
    }
    // A transcript leaves passes out; loading plays them.
    let with_pass = dir.join("pass.txt");
    let mut game = Game::default();
    let mut transcript = String::new();
    let mut rng = support::Rng(7);
    while !game.is_over() {
        let legal = game.position().board.legal_moves();
        let mv = legal[rng.below(legal.len())];
        if let Move::Play(sq) = mv {
            transcript.push_str(&sq.to_string());
        }
        game.play(mv).unwrap();
    }
    std::fs::write(&with_pass, &transcript).unwrap();
    let out = stdout(&[], &format!("load {}\nsave transcript\nsave ggf\nshow\n", with_pass.display()));
    assert_eq!(out[0], format!("transcript {transcript}"));
    let board = format!("board {}", game.position());
    assert_eq!(out.last().unwrap(), &board);
    // The printed GGF loads back to the same end position.
    std::fs::write(&ggf, out[1].strip_prefix("ggf ").unwrap()).unwrap();
    assert_eq!(stdout(&[], &format!("load {ggf_name}\nshow\n")).last().unwrap(), &board);
    // Errors: one line each, and the game is unchanged.
    std::fs::write(&text, "f5d6a1").unwrap();
    let missing = dir.join("missing.ggf");
    let out = stdout(
        &[],
        &format!(
            "move f5\nload {}\nload {text_name}\nsetboard {}\nsave transcript\nmoves\n",
            missing.display(),
            Position::START
        ),
    );
    assert_eq!(out.len(), 4, "{out:?}");
    assert!(out[0].starts_with("error load: cannot read '"), "{}", out[0]);
    assert!(
        out[1].starts_with("error load: '")
            && out[1].ends_with(": not a transcript: line 1: move 3 is illegal: it flips no disc"),
        "{}",
        out[1]
    );
    assert_eq!(out[2], "transcript");
    assert_eq!(out[3], "moves");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn eval_names_the_side_and_gives_the_result_of_a_finished_game() {
    let out = stdout(&[], &format!("eval\nmove e6\neval\nmove {}\neval\n", &WIPEOUT[2..]));
    // The number first (what a script reads), then what it is: no search stands behind it.
    assert!(out[0].starts_with("eval ") && out[0].ends_with(" for black (static evaluation, no search)"), "{}", out[0]);
    assert!(out[1].ends_with(" for white (static evaluation, no search)"), "{}", out[1]);
    assert_eq!(out[2], "eval -64 for white game over black wins by 64");
}

#[test]
fn a_depth_searches_at_87_percent_and_nodes_at_58_until_a_level_is_set() {
    let out = stdout(
        &[],
        "go depth 6\ngo nodes 20000\nset selectivity 95\ngo depth 6\ngo nodes 20000\nset selectivity auto\ngo depth 6\n",
    );
    assert_levels(&out, &["87%", "58%", "95%", "95%", "87%"]);
}

/// The level of each search's `info` lines, search by search, must be `expected`.
fn assert_levels(out: &[String], expected: &[&str]) {
    let mut levels: Vec<Vec<&str>> = vec![Vec::new()];
    for line in out {
        if line.starts_with("bestmove ") {
            levels.push(Vec::new());
        } else if let Some(depth) = line.strip_prefix("info depth ").and_then(|r| r.split(' ').next()) {
            levels.last_mut().unwrap().push(depth.split_once('@').map_or("100%", |(_, p)| p));
        }
    }
    levels.pop();
    assert_eq!(levels.len(), expected.len(), "{out:?}");
    for (seen, want) in levels.iter().zip(expected) {
        assert!(!seen.is_empty() && seen.iter().all(|p| p == want), "{want}: {out:?}");
    }
}

/// A search given a short time searches at 58%, one given 150 ms or more (a fixed time, or a game
/// clock's share) at 73%; a level set by hand holds whatever the time.
#[test]
fn a_short_time_searches_at_58_percent_and_a_long_one_at_73() {
    let out = stdout(&[], "go time 149\ngo time 150\ngo clock 5000\nset selectivity 58\ngo time 200\n");
    assert_levels(&out, &["58%", "73%", "73%", "58%"]);
}

/// `show` lists the legal moves in one fixed order, that of the squares a1, b1, ..., h8 (row by row
/// from the top), whatever the position: along a game of random moves.
#[test]
fn legal_moves_come_in_square_order() {
    let mut rng = support::Rng(0x2545_f491_4f6c_dd1d);
    let mut game = Game::default();
    let mut input = String::new();
    let mut expected = Vec::new();
    while !game.is_over() {
        let legal = game.position().board.legal_moves();
        let mut sorted = legal.clone();
        sorted.sort_by_key(|mv| match mv {
            Move::Play(sq) => (sq.rank(), sq.file()),
            Move::Pass => (8, 8),
        });
        assert_eq!(legal, sorted);
        expected.push(format!("legal {}", legal.iter().map(|m| m.to_string()).collect::<Vec<_>>().join(" ")));
        input.push_str("show\n");
        let mv = legal[rng.below(legal.len())];
        input.push_str(&format!("move {mv}\n"));
        game.play(mv).expect("legal");
    }
    let out = stdout(&[], &input);
    let shown: Vec<&String> = out.iter().filter(|l| l.starts_with("legal")).collect();
    assert_eq!(shown, expected.iter().collect::<Vec<_>>());
}
