//! What the fuzz targets share: a front end run in-process over a list of lines, the rewriting that
//! keeps every search tiny, a canonical rendering of a native command (to check that it parses
//! back), the comparison of a game with the game its written form reads back as, and the FNV-1a
//! checksum the binary formats carry (to let the fuzzer past it).

use ebony::eval::Evaluator;
use ebony::protocol::io::{Input, Output};
use ebony::protocol::parser::{BookOption, Command, Format, Verbosity};
use ebony::rules::game::Game;
use ebony::search::Limits;
use std::sync::mpsc;

/// Hash table size of every front end run in-process: allocated per execution, so small.
pub const HASH_MB: usize = 1;

/// The lines of a fuzz input: UTF-8 (lossy, as the reader thread makes it) split on `\n`, a `\r`
/// before it dropped, at most `max` of them.
pub fn lines(data: &[u8], max: usize) -> Vec<String> {
    String::from_utf8_lossy(data)
        .split('\n')
        .take(max)
        .map(|line| line.strip_suffix('\r').unwrap_or(line).to_string())
        .collect()
}

/// A channel holding `lines` then the end of input, as the reader thread would deliver them.
pub fn input(lines: &[String]) -> mpsc::Receiver<Input> {
    let (tx, rx) = mpsc::sync_channel(lines.len() + 1);
    for line in lines {
        tx.send(Input::Line(line.clone())).expect("channel sized for every line");
    }
    tx.send(Input::Eof).expect("channel sized for every line");
    rx
}

pub fn output() -> Output<Vec<u8>> {
    Output::new(Vec::new())
}

pub fn evaluator() -> Evaluator {
    Evaluator::default()
}

/// Every line a front end writes is one line of text a terminal cannot be driven by: no control
/// character but the tab.
pub fn assert_printable(text: &str) {
    for line in text.lines() {
        assert!(!line.chars().any(|c| c.is_control() && c != '\t'), "control character in output line {line:?}");
    }
}

/// A native line rewritten so that a run stays fast and touches no file: searches at depth 2
/// (`None` drops the line: file commands, which an in-process front end cannot be told to refuse by switch).
pub fn tame_native(line: &str, command: &Command) -> Option<String> {
    Some(match command {
        Command::Go(_) => "go depth 2".into(),
        Command::Play(_) => "play depth 2".into(),
        Command::Analyze(_) => "analyze depth 2".into(),
        Command::Hint(n, _) => format!("hint {n} depth 2"),
        Command::Level(_) => "level 1".into(),
        Command::SetHash(_) => "set hash 1".into(),
        Command::Load(_) | Command::Save(_, Some(_)) | Command::Learn(_) => return None,
        _ => line.to_string(),
    })
}

fn limits(limits: &Limits) -> String {
    match limits {
        Limits::Depth(d) => format!("depth {d}"),
        Limits::Nodes(n) => format!("nodes {n}"),
        Limits::MoveTime(t) => format!("time {}", t.as_millis()),
        Limits::Infinite => "infinite".into(),
        Limits::Clock { time_left, increment, moves_to_go } => {
            let mut text = format!("clock {} inc {}", time_left.as_millis(), increment.as_millis());
            if let Some(n) = moves_to_go {
                text.push_str(&format!(" movestogo {n}"));
            }
            text
        }
    }
}

/// The canonical line of a parsed command, in the grammar of protocol.md.
pub fn render(command: &Command) -> String {
    let moves = |moves: &[ebony::Move]| moves.iter().map(ToString::to_string).collect::<Vec<_>>().join(" ");
    match command {
        Command::SetBoard(position) => format!("setboard {position}"),
        Command::Move(list) => format!("move {}", moves(list)),
        Command::Undo(n) => format!("undo {n}"),
        Command::Redo(n) => format!("redo {n}"),
        Command::Hint(n, None) => format!("hint {n}"),
        Command::Hint(n, Some(l)) => format!("hint {n} {}", limits(l)),
        Command::Go(l) => format!("go {}", limits(l)),
        Command::Play(None) => "play".into(),
        Command::Play(Some(l)) => format!("play {}", limits(l)),
        Command::Analyze(None) => "analyze".into(),
        Command::Analyze(Some(l)) => format!("analyze {}", limits(l)),
        Command::Level(Limits::Depth(d)) => format!("level {d}"),
        Command::Level(Limits::MoveTime(t)) => format!("level time {}", t.as_millis()),
        Command::Level(other) => panic!("level parsed to {other:?}"),
        Command::Ping(n) => format!("ping {n}"),
        Command::Load(file) => format!("load {file}"),
        Command::Save(format, file) => {
            let format = match format {
                Format::Ggf => "ggf",
                Format::Transcript => "transcript",
            };
            match file {
                Some(file) => format!("save {format} {file}"),
                None => format!("save {format}"),
            }
        }
        Command::SetHash(mb) => format!("set hash {mb}"),
        Command::SetSelectivity(None) => "set selectivity auto".into(),
        Command::SetSelectivity(Some(s)) => format!("set selectivity {}", s.percent()),
        Command::SetBook(BookOption::On) => "set book on".into(),
        Command::SetBook(BookOption::Off) => "set book off".into(),
        Command::SetBook(BookOption::Randomness(n)) => format!("set book randomness {n}"),
        Command::Learn(None) => "learn".into(),
        Command::Learn(Some(d)) => format!("learn depth {d}"),
        Command::Help(None) => "help".into(),
        Command::Help(Some(name)) => format!("help {name}"),
        Command::Mode(sides) => match (sides.black, sides.white) {
            (true, false) => "mode black".into(),
            (false, true) => "mode white".into(),
            (true, true) => "mode both".into(),
            (false, false) => "mode neither".into(),
        },
        Command::Verbose(Verbosity::Quiet) => "verbose 0".into(),
        Command::Verbose(Verbosity::Normal) => "verbose 1".into(),
        Command::Verbose(Verbosity::Verbose) => "verbose 2".into(),
        other => other.name().to_string(),
    }
}

/// A game and the game its written form (`written`, named in a failure) reads back as are the same:
/// start, moves (passes included) and final position.
pub fn assert_same_game(game: &Game, again: &Game, written: &str) {
    assert_eq!(game.start(), again.start(), "{written}");
    assert_eq!(game.moves().collect::<Vec<_>>(), again.moves().collect::<Vec<_>>(), "{written}");
    assert_eq!(game.position(), again.position(), "{written}");
}

/// FNV-1a (64 bits), the checksum of the book and weight files.
pub fn fnv1a(bytes: &[u8]) -> u64 {
    let mut hash = 0xcbf2_9ce4_8422_2325u64;
    for &b in bytes {
        hash ^= u64::from(b);
        hash = hash.wrapping_mul(0x0100_0000_01b3);
    }
    hash
}
