//! NBoard sessions against the real binary: the captured NBoard GUI logs replayed line by line (waiting
//! where the GUI waits), every reply checked for form and every move for legality on a board tracked
//! here; passes both ways, `ping` interrupting searches, bad input, `learn` and `analyze`.

mod support;

use ebony::formats::ggf;
use ebony::rules::board::{Move, Position};
use ebony::rules::game::Game;
use std::time::Duration;
use support::{gui_lines, Engine};

const START_BO: &str = "BO[8 ---------------------------O*------*O--------------------------- *]";
/// White to move has no move; black has (f8 takes the row back).
const WHITE_MUST_PASS: &str = "BO[8 OOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOO*OOOO--* O]";

fn parse_nb_move(text: &str) -> Option<Move> {
    if text == "PA" {
        Some(Move::Pass)
    } else if text.len() == 2 && text.chars().all(|c| c.is_ascii_uppercase() || c.is_ascii_digit()) {
        text.parse().ok().map(Move::Play)
    } else {
        None
    }
}

fn is_number(text: &str) -> bool {
    text.parse::<f64>().is_ok_and(f64::is_finite)
}

/// Plays a PV written without spaces (`F5D6PA`) from `position`; an error names the first bad move.
fn check_pv(position: &Position, pv: &str) -> Result<(), String> {
    if pv.is_empty() || !pv.len().is_multiple_of(2) {
        return Err(format!("bad pv {pv:?}"));
    }
    let mut position = *position;
    for i in (0..pv.len()).step_by(2) {
        let mv = parse_nb_move(&pv[i..i + 2]).ok_or(format!("bad move in pv {pv:?}"))?;
        position = position.try_play(mv).map_err(|e| format!("pv {pv:?}: {} illegal: {e}", &pv[i..i + 2]))?;
    }
    Ok(())
}

/// Checks one engine line against the protocol and the position it answers.
fn check_line(line: &str, position: &Position) -> Result<(), String> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let ok = match words.as_slice() {
        ["set", "myname", _name] => true,
        ["pong", n] => n.parse::<u64>().is_ok(),
        ["status", ..] => true,
        ["nodestats", nodes, time] => nodes.parse::<u64>().is_ok() && is_number(time),
        ["===", answer] => {
            let mut parts = answer.split('/');
            let mv = parts.next().and_then(parse_nb_move).ok_or(format!("bad move in {line:?}"))?;
            position.try_play(mv).map_err(|e| format!("{line:?} is illegal: {e}"))?;
            parts.all(is_number)
        }
        ["search", pv, eval, "0", depth] => {
            check_pv(position, pv)?;
            is_number(eval) && (*depth == "100%" || depth.parse::<u32>().is_ok())
        }
        ["learned"] => true,
        ["analysis", made, eval] => made.parse::<u32>().is_ok() && is_number(eval),
        _ => false,
    };
    if ok {
        Ok(())
    } else {
        Err(format!("malformed line {line:?}"))
    }
}

/// Reads lines, checking each, until one satisfies `last`; returns them all.
fn read_until(engine: &mut Engine, position: &Position, last: impl Fn(&str) -> bool) -> Vec<String> {
    let mut lines = Vec::new();
    loop {
        let line = engine.read();
        if let Err(e) = check_line(&line, position) {
            panic!("{e}\ntranscript:\n{}", engine.tail());
        }
        let done = last(&line);
        lines.push(line);
        if done {
            return lines;
        }
    }
}

/// Replays the GUI side of a captured session, reacting as NBoard does: it waits for `pong` after a
/// `ping`, for `===` after a `go`, and here also for the end of each hint to check all its lines.
fn replay(log: &str) -> (usize, usize) {
    let mut engine = Engine::start("nboard");
    let mut game = Game::default();
    let (mut goes, mut hints) = (0, 0);
    for line in gui_lines(log) {
        engine.send(&line);
        let position = *game.position();
        let (word, rest) = line.split_once(' ').unwrap_or((&line, ""));
        match word {
            "nboard" => {
                read_until(&mut engine, &position, |l| l.starts_with("set myname"));
            }
            "set" if rest.starts_with("game ") => {
                game = ggf::parse(&rest[5..]).and_then(|r| r.to_game()).expect("the log's GGF");
            }
            "move" => {
                let mv = ggf::parse_move(position.side, rest).expect("the log's move").mv;
                game.play(mv).expect("the log's move is legal");
            }
            "ping" => {
                let pong = format!("pong {rest}");
                read_until(&mut engine, &position, |l| l == pong);
            }
            "go" => {
                read_until(&mut engine, &position, |l| l.starts_with("=== "));
                goes += 1;
            }
            "hint" if !position.board.legal_moves().is_empty() => {
                let lines = read_until(&mut engine, &position, |l| l == "status ebony is waiting");
                let searches = lines.iter().filter(|l| l.starts_with("search ")).count();
                assert!(searches > 0, "hint gave no search line:\n{}", engine.tail());
                hints += 1;
            }
            _ => {}
        }
    }
    // After the log's end of input the engine exits; nothing it says then may be malformed.
    let position = *game.position();
    while let Some(line) = engine.try_read(Duration::from_millis(300)) {
        check_line(&line, &position).unwrap();
    }
    engine.finish();
    (goes, hints)
}

#[test]
fn replays_nboard_engine_vs_engine_session() {
    let (goes, hints) = replay("nboard-gui-with-edax.log");
    assert_eq!((goes, hints), (61, 1));
}

#[test]
fn replays_nboard_human_vs_engine_session_with_human_passes() {
    let (goes, hints) = replay("nboard-gui-with-edax-2.log");
    assert_eq!((goes, hints), (28, 27));
}

fn set_game(engine: &mut Engine, board: &str, moves: &str) {
    engine.send(&format!("set game (;GM[Othello]PC[NBoard]TY[8]{board}{moves};)"));
}

fn go_answer(engine: &mut Engine, position: &Position) -> Move {
    let lines = read_until(engine, position, |l| l.starts_with("=== "));
    let answer = lines.last().unwrap()[4..].split('/').next().unwrap().to_string();
    parse_nb_move(&answer).unwrap()
}

#[test]
fn passes_in_both_directions() {
    let mut engine = Engine::start("nboard");
    engine.send("nboard 2");
    engine.send("set depth 3");
    // The engine must pass: it says so.
    set_game(&mut engine, WHITE_MUST_PASS, "");
    let position = ggf::parse(&format!("(;{WHITE_MUST_PASS};)")).unwrap().start;
    engine.send("go");
    assert_eq!(go_answer(&mut engine, &position), Move::Pass);
    // The GUI sends the pass back as a move, then asks black.
    engine.send("move PA");
    let after = position.try_play(Move::Pass).unwrap();
    engine.send("go");
    assert_eq!(go_answer(&mut engine, &after), Move::Play("f8".parse().unwrap()));
    // A record ending with a pass (the case Edax once got wrong): black is to move.
    set_game(&mut engine, WHITE_MUST_PASS, "W[PA//1.5]");
    engine.send("go");
    assert_eq!(go_answer(&mut engine, &after), Move::Play("f8".parse().unwrap()));
    // A hint for the side that must pass evaluates the pass.
    set_game(&mut engine, WHITE_MUST_PASS, "");
    engine.send("hint 3");
    let lines = read_until(&mut engine, &position, |l| l == "status ebony is waiting");
    assert!(lines.iter().any(|l| l.starts_with("search PA")), "{lines:?}");
    engine.finish();
}

#[test]
fn ping_interrupts_deep_go_and_hint() {
    let mut engine = Engine::start("nboard");
    engine.send("nboard 2");
    engine.send("set depth 60");
    set_game(&mut engine, START_BO, "");
    for (i, command) in ["go", "hint 4"].iter().enumerate() {
        engine.send(command);
        std::thread::sleep(Duration::from_millis(300));
        let pong = format!("pong {i}");
        engine.send(&format!("ping {i}"));
        let lines = read_until(&mut engine, &Position::START, |l| l == pong);
        assert!(!lines.iter().any(|l| l.starts_with("===")), "an interrupted go answers nothing: {lines:?}");
        // Nothing about the old search may follow the pong.
        let later = engine.try_read(Duration::from_millis(500));
        assert!(later.as_deref().is_none_or(|l| l.starts_with("status")), "after pong: {later:?}");
    }
    engine.finish();
}

#[test]
fn bad_lines_get_one_status_line_and_change_nothing() {
    let mut engine = Engine::start("nboard");
    engine.send("nboard 2");
    assert_eq!(engine.read(), "set myname ebony");
    engine.send("set depth 2");
    set_game(&mut engine, START_BO, "B[F5]");
    let position = Position::START.try_play(Move::Play("f5".parse().unwrap())).unwrap();
    for bad in ["set game (;GM[Othello]BO[8 nonsense];)", "move Z9", "move A1", "set depth x", "ping y", "hint 0"] {
        engine.send(bad);
        let line = engine.read();
        assert!(line.starts_with("status ebony: "), "{bad}: {line}");
    }
    engine.send("set depth 0");
    assert_eq!(engine.read(), "status ebony: set depth: 0 is not in 1..=60");
    engine.send("hint 0");
    assert_eq!(engine.read(), "status ebony: hint: 0 is not in 1..=64");
    // Lines NBoard may send that ebony does not use are ignored without a word.
    engine.send("set contempt 0");
    engine.send("remove_tree");
    engine.send("ping 5");
    assert_eq!(engine.read(), "pong 5");
    engine.send("go");
    go_answer(&mut engine, &position);
    engine.finish();
}

#[test]
fn learn_and_retrograde_analysis() {
    let mut engine = Engine::start("nboard");
    engine.send("set depth 2");
    set_game(&mut engine, START_BO, "B[F5]W[D6]B[C3]");
    engine.send("learn");
    assert_eq!(engine.read(), "learned");
    engine.send("analyze");
    let lines = read_until(&mut engine, &Position::START, |l| l == "status ebony is waiting");
    let made: Vec<&str> =
        lines.iter().filter(|l| l.starts_with("analysis ")).map(|l| l.split(' ').nth(1).unwrap()).collect();
    assert_eq!(made, ["3", "2", "1", "0"]);
    engine.send("quit");
    engine.finish();
}

/// The shortest game: black wipes white out in nine moves (white is to move at the end).
const WIPEOUT: &str = "B[E6]W[F4]B[E3]W[F6]B[G5]W[D6]B[E7]W[F5]B[C5]";

#[test]
fn analysis_values_are_from_blacks_side() {
    let mut engine = Engine::start("nboard");
    engine.send("set depth 4");
    set_game(&mut engine, START_BO, WIPEOUT);
    engine.send("analyze");
    let lines = read_until(&mut engine, &Position::START, |l| l == "status ebony is waiting");
    let values: Vec<(usize, f64)> = lines
        .iter()
        .filter_map(|l| l.strip_prefix("analysis "))
        .map(|l| {
            let (made, value) = l.split_once(' ').unwrap();
            (made.parse().unwrap(), value.parse().unwrap())
        })
        .collect();
    assert_eq!(values.len(), 10, "{lines:?}");
    // The end, white to move, and the move before it, black to move: both black's +64.
    assert_eq!(values[0], (9, 64.0), "{lines:?}");
    assert_eq!(values[1], (8, 64.0), "{lines:?}");
    engine.finish();
}

/// `nodestats` lines of one `go` (one per iteration, then the total) and its answer.
fn go_iterations(engine: &mut Engine, position: &Position) -> usize {
    engine.send("go");
    let lines = read_until(engine, position, |l| l.starts_with("=== "));
    lines.iter().filter(|l| l.starts_with("nodestats ")).count() - 1
}

#[test]
fn the_set_depth_caps_a_search_with_a_game_clock() {
    let mut engine = Engine::start("nboard");
    engine.send("nboard 2");
    // NBoard always sends a clock: the levels must still differ.
    let record = format!("(;GM[Othello]PC[NBoard]TI[5:00]TY[8]{START_BO}B[F5];)");
    let position = Position::START.try_play(Move::Play("f5".parse().unwrap())).unwrap();
    for depth in [1, 2, 3, 4] {
        engine.send(&format!("set depth {depth}"));
        engine.send(&format!("set game {record}"));
        assert_eq!(go_iterations(&mut engine, &position), depth, "set depth {depth}:\n{}", engine.tail());
    }
    // The clock still cuts a deep search short: 2 s for the game at depth 60.
    engine.send("set depth 60");
    engine.send(&format!("set game (;GM[Othello]PC[NBoard]TI[0:02]TY[8]{START_BO}B[F5];)"));
    let start = std::time::Instant::now();
    go_iterations(&mut engine, &position);
    assert!(start.elapsed() < Duration::from_secs(5), "{:?}", start.elapsed());
    engine.finish();
}

#[test]
fn control_characters_in_a_record_are_escaped_in_the_status_line() {
    let mut engine = Engine::start("nboard");
    engine.send("set game (;GM[Oth\rello\u{1b}[2J];)");
    engine.send("ping 1");
    let status = engine.read();
    assert!(status.starts_with("status ebony: set game: GM["), "{status:?}");
    assert!(!status.chars().any(char::is_control), "{status:?}");
    assert!(status.contains("Oth\\rello\\u{1b}[2J"), "{status:?}");
    assert_eq!(engine.read(), "pong 1");
    engine.finish();
}
