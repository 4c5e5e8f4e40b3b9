//! The native protocol's grammar: the command table (name, arguments, help; the one place a command is
//! defined) and the nom parsers that turn one input line into a [`Command`] or a [`ParseError`].
//! Pure functions: no I/O, no state.

// Input decides what runs here: a panic would kill the engine under a GUI or referee, so the
// ways to panic are refused outright (tests excepted).
#![deny(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

use crate::rules::board::{Move, Position};
use crate::rules::square::Square;
use crate::search::{Limits, Selectivity};
use nom::branch::alt;
use nom::bytes::complete::{take_till1, take_while};
use nom::combinator::{all_consuming, cut, map, opt, value, verify};
use nom::multi::many1;
use nom::sequence::{preceded, terminated};
use nom::IResult;
use std::fmt;
use std::time::Duration;

/// Deepest `go depth`: a game has at most 60 empty squares, so deeper searches are the same search.
pub const MAX_DEPTH: u32 = 60;
/// Largest transposition table `set hash` accepts, in megabytes.
pub const MAX_HASH_MB: usize = 4096;
/// Longest time argument, in milliseconds (about 11 days): larger values are typing mistakes.
pub const MAX_MS: u64 = 1_000_000_000;
/// How many moves `hint` shows when not told.
pub const DEFAULT_HINTS: usize = 3;
/// Longest argument echoed back in an error line, in characters: errors stay one short readable line.
const MAX_ECHO: usize = 24;

/// One parsed input line.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Command {
    New,
    SetBoard(Position),
    Move(Vec<Move>),
    Undo(u32),
    Moves,
    Go(Limits),
    /// `play [LIMITS]`: a `go` whose bestmove is then played; without limits, those of the last
    /// `go` or `play`.
    Play(Option<Limits>),
    /// `analyze [depth N | time MS]`: every legal move scored; without limits, at the level.
    Analyze(Option<Limits>),
    Stop,
    IsReady,
    Ping(u64),
    Quit,
    Show,
    Eval,
    Load(String),
    Save(Format, Option<String>),
    SetHash(usize),
    SetSelectivity(Option<Selectivity>),
    SetBook(BookOption),
    /// `learn [depth N]`: the game into the book, its new positions searched at that level.
    Learn(Option<u32>),
    /// `help [COMMAND]`: every command, or one in full.
    Help(Option<&'static str>),
    /// `mode black|white|both|neither`: the sides ebony plays by itself.
    Mode(Sides),
    /// `hint [N] [depth D | time MS]`: the N best moves, scored; without limits, at the level.
    Hint(usize, Option<Limits>),
    /// `redo [N]`: plays again the last N moves taken back by `undo`.
    Redo(u32),
    /// `level N | time MS`: how ebony thinks on its moves (and `play` without limits).
    Level(Limits),
    /// `verbose 0|1|2`: how much of a search is shown.
    Verbose(Verbosity),
    /// `board`: the position on one line.
    Board,
    /// `version`: the engine's name and version.
    Version,
}

/// The sides ebony plays by itself (`mode`).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct Sides {
    pub black: bool,
    pub white: bool,
}

/// How much of a search is shown (`verbose`).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Verbosity {
    /// No `info` lines: the answers alone.
    Quiet,
    /// The default: every `info` line in a pipe, one line that updates at a terminal.
    Normal,
    /// Every `info` line, at a terminal too.
    Verbose,
}

/// `set book ...`.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum BookOption {
    On,
    Off,
    /// Pick among the book moves within this many discs of the best.
    Randomness(u32),
}

/// How `save` writes a game.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Format {
    /// One GGF record on one line.
    Ggf,
    /// The moves run together, `f5d6c3...`, passes left out.
    Transcript,
}

impl Command {
    /// The command's keyword, as the table spells it.
    pub fn name(&self) -> &'static str {
        match self {
            Command::New => "new",
            Command::SetBoard(_) => "setboard",
            Command::Move(_) => "move",
            Command::Undo(_) => "undo",
            Command::Moves => "moves",
            Command::Go(_) => "go",
            Command::Play(_) => "play",
            Command::Analyze(_) => "analyze",
            Command::Stop => "stop",
            Command::IsReady => "isready",
            Command::Ping(_) => "ping",
            Command::Quit => "quit",
            Command::Show => "show",
            Command::Eval => "eval",
            Command::Load(_) => "load",
            Command::Save(..) => "save",
            Command::SetHash(_) | Command::SetSelectivity(_) | Command::SetBook(_) => "set",
            Command::Learn(_) => "learn",
            Command::Help(_) => "help",
            Command::Mode(_) => "mode",
            Command::Hint(..) => "hint",
            Command::Redo(_) => "redo",
            Command::Level(_) => "level",
            Command::Verbose(_) => "verbose",
            Command::Board => "board",
            Command::Version => "version",
        }
    }
}

/// A line that is not a command: what was wrong, ready to follow `error ` on the wire.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct ParseError {
    /// The command the line started with, when it was a known one.
    pub command: Option<&'static str>,
    pub reason: String,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.command {
            Some(name) => write!(f, "{name}: {}", self.reason),
            None => f.write_str(&self.reason),
        }
    }
}

impl std::error::Error for ParseError {}

/// The nom error: where parsing stopped and, once known, the reason in words.
#[derive(Clone, PartialEq, Debug)]
pub struct Fail<'a> {
    input: &'a str,
    reason: Option<String>,
}

impl<'a> Fail<'a> {
    fn new(input: &'a str, reason: String) -> Fail<'a> {
        Fail { input, reason: Some(reason) }
    }

    fn reason(self) -> String {
        self.reason.unwrap_or_else(|| match first_token(self.input) {
            Some(token) => format!("unexpected {}", quote(token)),
            None => "unexpected end of line".to_string(),
        })
    }
}

impl<'a> nom::error::ParseError<&'a str> for Fail<'a> {
    fn from_error_kind(input: &'a str, _kind: nom::error::ErrorKind) -> Fail<'a> {
        Fail { input, reason: None }
    }

    fn append(_input: &'a str, _kind: nom::error::ErrorKind, other: Fail<'a>) -> Fail<'a> {
        other
    }
}

type PResult<'a, T> = IResult<&'a str, T, Fail<'a>>;

/// One row of the command table: `help` prints it and protocol.md is checked against it.
pub struct CommandSpec {
    pub name: &'static str,
    /// Other words for the command (`exit` for `quit`).
    pub aliases: &'static [&'static str],
    /// The arguments in the notation of protocol.md (`N`, `MS`, `[optional]`, `a | b`).
    pub args: &'static str,
    pub help: &'static str,
    /// What `help` prints at a terminal: at most [`BRIEF_WIDTH`] characters.
    pub brief: &'static str,
    /// Answered while a search runs (the others are refused then).
    pub during_search: bool,
    /// Parses what follows the keyword.
    parse: for<'a> fn(&'a str) -> PResult<'a, Command>,
}

/// The widest `brief`: with the name padded to [`NAME_WIDTH`] and a space, a line of 79 columns.
pub const BRIEF_WIDTH: usize = 68;
/// The name column of `help` at a terminal.
pub const NAME_WIDTH: usize = 10;

impl CommandSpec {
    /// Whether `word` names this command (its name or an alias, in any case).
    fn named(&self, word: &str) -> bool {
        std::iter::once(&self.name).chain(self.aliases).any(|name| word.eq_ignore_ascii_case(name))
    }

    /// `name args`, the usage line of protocol.md's headings.
    pub fn usage(&self) -> String {
        if self.args.is_empty() {
            self.name.to_string()
        } else {
            format!("{} {}", self.name, self.args)
        }
    }
}

/// Every command of the native protocol, in the order `help` lists them.
pub const COMMANDS: &[CommandSpec] = &[
    CommandSpec {
        name: "new",
        aliases: &[],
        args: "",
        help: "start a new game from the start position",
        brief: "a new game from the start position",
        during_search: false,
        parse: |i| Ok((i, Command::New)),
    },
    CommandSpec {
        name: "setboard",
        aliases: &[],
        args: "BOARD SIDE | start",
        help: "set up a position (64 squares X O -, then X or O to move); clears the game record",
        brief: "set up a position: 64 squares X O -, then X or O to move",
        during_search: false,
        parse: setboard,
    },
    CommandSpec {
        name: "move",
        aliases: &[],
        args: "MOVE [MOVE ...]",
        help: "play moves: squares like f5, pass, or run together like f5d6c3; all or none",
        brief: "play moves: f5, pass, or f5d6c3 (a line of bare moves does too)",
        during_search: false,
        parse: moves,
    },
    CommandSpec {
        name: "undo",
        aliases: &[],
        args: "[N]",
        help: "take back the last N moves (default 1); all or none",
        brief: "take back the last N moves (1 by default)",
        during_search: false,
        parse: undo,
    },
    CommandSpec {
        name: "redo",
        aliases: &[],
        args: "[N]",
        help: "play again the last N moves taken back by undo (default 1); all or none",
        brief: "play again the last N moves taken back by undo",
        during_search: false,
        parse: redo,
    },
    CommandSpec {
        name: "moves",
        aliases: &[],
        args: "",
        help: "list the moves played since new or setboard",
        brief: "list the moves played since new or setboard",
        during_search: false,
        parse: |i| Ok((i, Command::Moves)),
    },
    CommandSpec {
        name: "go",
        aliases: &[],
        args: "depth N | time MS | nodes N | infinite | clock MS [inc MS] [movestogo N]",
        help: "search the current position, print info lines and one bestmove; the position is unchanged",
        brief: "search the position: info lines, then bestmove; nothing is played",
        during_search: false,
        parse: go,
    },
    CommandSpec {
        name: "play",
        aliases: &[],
        args: "[depth N | time MS | nodes N | infinite | clock MS [inc MS] [movestogo N]]",
        help: "search as go (with the last go's or play's limits when none are given), then play the bestmove",
        brief: "search as go, then play the move found (ebony moves now)",
        during_search: false,
        parse: play,
    },
    CommandSpec {
        name: "analyze",
        aliases: &[],
        args: "[depth N | time MS]",
        help: "score every legal move, best first: one analysis line each, then analysis end; without limits, as the level (level, 1 s by default) says",
        brief: "score every legal move, best first",
        during_search: false,
        parse: analyze,
    },
    CommandSpec {
        name: "hint",
        aliases: &[],
        args: "[N] [depth D | time MS]",
        help: "score the legal moves as analyze and print the N best (default 3), one hint line each; without limits, as the level (level, 1 s by default) says",
        brief: "show the N best moves (3 by default) with their scores",
        during_search: false,
        parse: hint,
    },
    CommandSpec {
        name: "mode",
        aliases: &[],
        args: "black | white | both | neither",
        help: "the sides ebony plays by itself: after each command that leaves such a side to move, it searches and plays (neither by default)",
        brief: "who ebony plays by itself: black, white, both or neither",
        during_search: false,
        parse: mode,
    },
    CommandSpec {
        name: "level",
        aliases: &[],
        args: "N | time MS",
        help: "how ebony thinks on the moves it plays (mode, and play without limits): level N as go depth N, or MS milliseconds a move",
        brief: "how ebony thinks on its moves: level N (depth) or level time MS",
        during_search: false,
        parse: level,
    },
    CommandSpec {
        name: "stop",
        aliases: &[],
        args: "",
        help: "end the search now; its bestmove follows",
        brief: "end the search now; its bestmove follows",
        during_search: true,
        parse: |i| Ok((i, Command::Stop)),
    },
    CommandSpec {
        name: "isready",
        aliases: &[],
        args: "",
        help: "answer readyok (also while searching)",
        brief: "answer readyok (also while searching)",
        during_search: true,
        parse: |i| Ok((i, Command::IsReady)),
    },
    CommandSpec {
        name: "ping",
        aliases: &[],
        args: "N",
        help: "answer pong N (also while searching)",
        brief: "answer pong N (also while searching)",
        during_search: true,
        parse: ping,
    },
    CommandSpec {
        name: "quit",
        aliases: &["exit"],
        args: "",
        help: "exit (a search in progress prints its bestmove first)",
        brief: "leave ebony (also: exit)",
        during_search: true,
        parse: |i| Ok((i, Command::Quit)),
    },
    CommandSpec {
        name: "show",
        aliases: &[],
        args: "",
        help: "print the board, side to move, disc counts, legal moves and the board string",
        brief: "print the board, the discs, the legal moves and the board string",
        during_search: false,
        parse: |i| Ok((i, Command::Show)),
    },
    CommandSpec {
        name: "board",
        aliases: &[],
        args: "",
        help: "print the position on one line: board, then the board string",
        brief: "print the position on one line (the board string)",
        during_search: false,
        parse: |i| Ok((i, Command::Board)),
    },
    CommandSpec {
        name: "eval",
        aliases: &[],
        args: "",
        help: "print the static evaluation in discs for the side to move (named), or the result of a finished game",
        brief: "the static evaluation, no search (or the result of a finished game)",
        during_search: false,
        parse: |i| Ok((i, Command::Eval)),
    },
    CommandSpec {
        name: "load",
        aliases: &[],
        args: "FILE",
        help: "load a game from FILE: a GGF record, or a transcript like f5d6c3 from the start position",
        brief: "load a game: a GGF record or a transcript like f5d6c3",
        during_search: false,
        parse: load,
    },
    CommandSpec {
        name: "save",
        aliases: &[],
        args: "ggf | transcript [FILE]",
        help: "write the game to FILE, or print it (ggf ... or transcript ...) without FILE",
        brief: "write the game to FILE as ggf or transcript, or print it",
        during_search: false,
        parse: save,
    },
    CommandSpec {
        name: "set",
        aliases: &[],
        args: "hash MB | selectivity P|auto | book on|off|randomness N",
        help: "resize the transposition table to MB megabytes (1 to 4096), clearing it; or set how selective the midgame search is (P: 58, 73, 87, 95, 98, 99 or 100 for none; auto: 87 for a depth, 58 for a time or nodes); or use the opening book or not, or pick among its moves within N discs of the best, at most N over the game (0 to 64)",
        brief: "options: hash MB, selectivity P|auto, book on|off|randomness N",
        during_search: false,
        parse: set,
    },
    CommandSpec {
        name: "learn",
        aliases: &[],
        args: "[depth N]",
        help: "add the game so far to the opening book (new positions searched at level N, 14 by default) and print learned",
        brief: "add the game to the opening book",
        during_search: false,
        parse: learn,
    },
    CommandSpec {
        name: "verbose",
        aliases: &[],
        args: "0 | 1 | 2",
        help: "how much of a search is shown: 0 no info lines, 1 every info line (at a terminal one line that updates, and the board after each move; the default), 2 every info line",
        brief: "0: quiet, 1: the search on one line (default), 2: every info line",
        during_search: false,
        parse: verbose,
    },
    CommandSpec {
        name: "version",
        aliases: &[],
        args: "",
        help: "print the engine's name, version and build: version ebony 0.2.0 (COMMIT DATE) TARGET LEVEL ...",
        brief: "print the engine's name and version",
        during_search: false,
        parse: |i| Ok((i, Command::Version)),
    },
    CommandSpec {
        name: "help",
        aliases: &["?"],
        args: "[COMMAND]",
        help: "list the commands, or print one command's usage and what it does",
        brief: "list the commands; help COMMAND says more of one",
        during_search: false,
        parse: help,
    },
];

/// Parses one input line. `Ok(None)` for a blank line; keywords are case-insensitive.
pub fn parse_line(line: &str) -> Result<Option<Command>, ParseError> {
    let Some(name) = first_token(line) else {
        return Ok(None);
    };
    for spec in COMMANDS {
        if let Ok((rest, _)) = verify(token, |word: &str| spec.named(word))(line) {
            let mut whole = all_consuming(terminated(cut(spec.parse), blank));
            return match whole(rest) {
                Ok((_, command)) => Ok(Some(command)),
                Err(nom::Err::Error(e) | nom::Err::Failure(e)) => {
                    let mut reason = e.reason();
                    // A word too many or too few names no form: the usage gives them all.
                    if reason.starts_with("unexpected ") {
                        reason.push_str(&format!(" (usage: {})", spec.usage()));
                    }
                    Err(ParseError { command: Some(spec.name), reason })
                }
                Err(nom::Err::Incomplete(_)) => {
                    Err(ParseError { command: Some(spec.name), reason: "incomplete line".to_string() })
                }
            };
        }
    }
    // A line of moves alone (`d3`, `f5d6c3`, `pass`) is a `move`: what a person types at a board.
    if move_word(line).is_ok() {
        return match all_consuming(terminated(moves, blank))(line) {
            Ok((_, command)) => Ok(Some(command)),
            Err(nom::Err::Error(e) | nom::Err::Failure(e)) => {
                Err(ParseError { command: Some("move"), reason: e.reason() })
            }
            Err(nom::Err::Incomplete(_)) => {
                Err(ParseError { command: Some("move"), reason: "incomplete line".to_string() })
            }
        };
    }
    Err(ParseError { command: None, reason: unknown_command(name) })
}

/// `unknown command 'WORD' (try help)`, naming the commands one typing slip away if any.
fn unknown_command(word: &str) -> String {
    match close_commands(word).as_slice() {
        [] => format!("unknown command {} (try help)", quote(word)),
        close => format!("unknown command {} (did you mean {}? try help)", quote(word), close.join(" or ")),
    }
}

/// The commands one typing slip away from `word` (a letter added, left out or changed, or two
/// neighbours swapped), by name: what `gox` or `udno` meant.
fn close_commands(word: &str) -> Vec<&'static str> {
    let word: Vec<char> = word.to_ascii_lowercase().chars().collect();
    // A one-letter name (`?`) is one slip from every one-letter word.
    let close = |name: &&str| name.len() > 1 && one_slip(&word, &name.chars().collect::<Vec<_>>());
    COMMANDS
        .iter()
        .filter(|spec| std::iter::once(&spec.name).chain(spec.aliases).any(close))
        .map(|spec| spec.name)
        .collect()
}

/// Whether `a` becomes `b` by one slip (see [`close_commands`]).
fn one_slip(a: &[char], b: &[char]) -> bool {
    let (short, long) = if a.len() <= b.len() { (a, b) } else { (b, a) };
    // The first difference; what follows it must match once the slip is undone.
    let at = short.iter().zip(long).take_while(|(x, y)| x == y).count();
    let (short_rest, long_rest) = (short.get(at..).unwrap_or_default(), long.get(at..).unwrap_or_default());
    match long.len() - short.len() {
        0 if short_rest.is_empty() => false,
        0 => {
            let changed = short_rest.get(1..) == long_rest.get(1..);
            let swapped = matches!((short_rest, long_rest),
                ([x0, x1, xs @ ..], [y0, y1, ys @ ..]) if x0 == y1 && x1 == y0 && xs == ys);
            changed || swapped
        }
        1 => long_rest.get(1..) == Some(short_rest),
        _ => false,
    }
}

/// The table row of a command by its name or an alias.
pub fn find(word: &str) -> Option<&'static CommandSpec> {
    COMMANDS.iter().find(|spec| spec.named(word))
}

/// A word and the text that follows it, quoted for an error line: control characters escaped, long
/// words cut, so that binary garbage cannot break the one-line reply.
pub fn quote(word: &str) -> String {
    let mut out = String::from("'");
    for (count, c) in word.chars().enumerate() {
        if count == MAX_ECHO {
            out.push_str("...");
            break;
        }
        out.extend(c.escape_debug());
    }
    out.push('\'');
    out
}

fn first_token(text: &str) -> Option<&str> {
    text.split_whitespace().next()
}

/// Whitespace, possibly none.
fn blank(i: &str) -> PResult<'_, &str> {
    take_while(char::is_whitespace)(i)
}

/// The next whitespace-separated word.
fn token(i: &str) -> PResult<'_, &str> {
    preceded(blank, take_till1(char::is_whitespace))(i)
}

/// A keyword, matched case-insensitively and as a whole word only: `go` does not accept `gox`.
fn keyword<'a>(word: &'static str) -> impl FnMut(&'a str) -> PResult<'a, &'a str> {
    verify(token, move |t: &str| t.eq_ignore_ascii_case(word))
}

/// Turns a soft failure (nothing matched here) into a hard one naming what was expected.
fn expect<'a, T>(
    what: &'static str,
    mut parser: impl FnMut(&'a str) -> PResult<'a, T>,
) -> impl FnMut(&'a str) -> PResult<'a, T> {
    move |i| match parser(i) {
        Err(nom::Err::Error(_)) => {
            let found = first_token(i).map_or("end of line".to_string(), quote);
            Err(nom::Err::Failure(Fail::new(i, format!("expected {what}, found {found}"))))
        }
        other => other,
    }
}

/// An unsigned integer in `min..=max`; anything else is a hard error that says which argument.
fn number<'a, T>(what: &'static str, min: T, max: T) -> impl FnMut(&'a str) -> PResult<'a, T>
where
    T: std::str::FromStr + PartialOrd + Copy + fmt::Display,
{
    move |i| {
        let Ok((rest, word)) = token(i) else {
            return Err(nom::Err::Failure(Fail::new(i, format!("expected {what}, found end of line"))));
        };
        // FromStr for integers accepts a leading '+'; the protocol does not.
        let parsed = if word.starts_with('+') { None } else { word.parse::<T>().ok() };
        match parsed {
            Some(n) if min <= n && n <= max => Ok((rest, n)),
            Some(n) => Err(nom::Err::Failure(Fail::new(i, format!("{what} {n} out of range {min} to {max}")))),
            None => Err(nom::Err::Failure(Fail::new(
                i,
                format!("bad number {} for {what}: expected an integer from {min} to {max}", quote(word)),
            ))),
        }
    }
}

fn milliseconds<'a>(what: &'static str, min: u64) -> impl FnMut(&'a str) -> PResult<'a, Duration> {
    map(number(what, min, MAX_MS), Duration::from_millis)
}

/// The rest of the line as a board string (the squares, then the side to move).
fn board_string(i: &str) -> PResult<'_, Position> {
    if i.trim().is_empty() {
        return Err(nom::Err::Error(Fail { input: i, reason: None }));
    }
    match Position::parse(i) {
        Ok(position) => Ok(("", position)),
        Err(e) => Err(nom::Err::Failure(Fail::new(i, format!("bad board: {e}")))),
    }
}

fn setboard(i: &str) -> PResult<'_, Command> {
    let start = value(Position::START, keyword("start"));
    map(expect("a board string or start", alt((start, board_string))), Command::SetBoard)(i)
}

/// One move word: `pass`, a square, or squares run together (`f5d6c3`).
fn move_word(i: &str) -> PResult<'_, Vec<Move>> {
    let (rest, word) = token(i)?;
    if word.eq_ignore_ascii_case("pass") {
        return Ok((rest, vec![Move::Pass]));
    }
    let squares: Option<Vec<Square>> = if word.is_ascii() && word.len() % 2 == 0 {
        word.as_bytes().chunks(2).map(|pair| std::str::from_utf8(pair).ok()?.parse::<Square>().ok()).collect()
    } else {
        None
    };
    match squares {
        Some(squares) => Ok((rest, squares.into_iter().map(Move::Play).collect())),
        None => Err(nom::Err::Failure(Fail::new(
            i,
            format!("bad move {}: expected a square a1 to h8, pass, or squares run together like f5d6c3", quote(word)),
        ))),
    }
}

fn moves(i: &str) -> PResult<'_, Command> {
    map(expect("a move", many1(move_word)), |words| Command::Move(words.concat()))(i)
}

fn undo(i: &str) -> PResult<'_, Command> {
    if i.trim().is_empty() {
        return Ok((i, Command::Undo(1)));
    }
    map(number("the number of moves", 1, 64), Command::Undo)(i)
}

fn redo(i: &str) -> PResult<'_, Command> {
    if i.trim().is_empty() {
        return Ok((i, Command::Redo(1)));
    }
    map(number("the number of moves", 1, 64), Command::Redo)(i)
}

fn hint(i: &str) -> PResult<'_, Command> {
    let starts_with_number = first_token(i).is_some_and(|word| word.starts_with(|c: char| c.is_ascii_digit()));
    let (i, count) = if starts_with_number { number("the number of moves", 1, 64)(i)? } else { (i, DEFAULT_HINTS) };
    if i.trim().is_empty() {
        return Ok((i, Command::Hint(count, None)));
    }
    let what = if starts_with_number { "depth N or time MS" } else { "N, depth N or time MS" };
    map(expect(what, analysis_limits), move |limits| Command::Hint(count, Some(limits)))(i)
}

fn mode(i: &str) -> PResult<'_, Command> {
    let side = |name: &'static str, black: bool, white: bool| value(Sides { black, white }, keyword(name));
    let sides = alt((
        side("black", true, false),
        side("white", false, true),
        side("both", true, true),
        side("neither", false, false),
    ));
    map(expect("black, white, both or neither", sides), Command::Mode)(i)
}

fn level(i: &str) -> PResult<'_, Command> {
    let depth = map(number("level", 1, MAX_DEPTH), Limits::Depth);
    let time = preceded(keyword("time"), cut(map(milliseconds("milliseconds", 1), Limits::MoveTime)));
    map(alt((time, depth)), Command::Level)(i)
}

fn verbose(i: &str) -> PResult<'_, Command> {
    let (rest, n) = number("the verbosity", 0u8, 2)(i)?;
    let verbosity = match n {
        0 => Verbosity::Quiet,
        1 => Verbosity::Normal,
        _ => Verbosity::Verbose,
    };
    Ok((rest, Command::Verbose(verbosity)))
}

fn help(i: &str) -> PResult<'_, Command> {
    if i.trim().is_empty() {
        return Ok((i, Command::Help(None)));
    }
    let (rest, word) = token(i)?;
    match find(word) {
        Some(spec) => Ok((rest, Command::Help(Some(spec.name)))),
        None => Err(nom::Err::Failure(Fail::new(i, unknown_command(word)))),
    }
}

fn ping(i: &str) -> PResult<'_, Command> {
    map(number("the ping number", 0, u64::MAX), Command::Ping)(i)
}

fn set(i: &str) -> PResult<'_, Command> {
    let hash = map(preceded(keyword("hash"), cut(number("hash megabytes", 1, MAX_HASH_MB))), Command::SetHash);
    let level = alt((value(None, keyword("auto")), map(selectivity, Some)));
    let selectivity = map(preceded(keyword("selectivity"), cut(level)), Command::SetSelectivity);
    let book = map(preceded(keyword("book"), cut(book_option)), Command::SetBook);
    expect("an option: hash, selectivity or book", alt((hash, selectivity, book)))(i)
}

fn book_option(i: &str) -> PResult<'_, BookOption> {
    let randomness =
        map(preceded(keyword("randomness"), cut(number("randomness discs", 0, 64))), BookOption::Randomness);
    expect(
        "on, off or randomness N",
        alt((value(BookOption::On, keyword("on")), value(BookOption::Off, keyword("off")), randomness)),
    )(i)
}

fn learn(i: &str) -> PResult<'_, Command> {
    if i.trim().is_empty() {
        return Ok((i, Command::Learn(None)));
    }
    map(expect("depth N", depth_limit), |limits| match limits {
        Limits::Depth(d) => Command::Learn(Some(d)),
        _ => Command::Learn(None),
    })(i)
}

/// A selectivity level by its percentage.
fn selectivity(i: &str) -> PResult<'_, Selectivity> {
    let (rest, percent) = number("selectivity percent", 1, 100)(i)?;
    match Selectivity::parse_percent(percent) {
        Ok(level) => Ok((rest, level)),
        Err(message) => Err(nom::Err::Failure(Fail::new(i, format!("selectivity {message}")))),
    }
}

fn clock(i: &str) -> PResult<'_, Limits> {
    let (i, time_left) = milliseconds("milliseconds left", 0)(i)?;
    let (i, increment) = opt(preceded(keyword("inc"), cut(milliseconds("increment milliseconds", 0))))(i)?;
    let (i, moves_to_go) = opt(preceded(keyword("movestogo"), cut(number("moves to go", 1, 60))))(i)?;
    Ok((i, Limits::Clock { time_left, increment: increment.unwrap_or(Duration::ZERO), moves_to_go }))
}

fn depth_limit(i: &str) -> PResult<'_, Limits> {
    preceded(keyword("depth"), cut(map(number("depth", 1, MAX_DEPTH), Limits::Depth)))(i)
}

fn time_limit(i: &str) -> PResult<'_, Limits> {
    preceded(keyword("time"), cut(map(milliseconds("milliseconds", 1), Limits::MoveTime)))(i)
}

fn limits(i: &str) -> PResult<'_, Limits> {
    let limits = alt((
        depth_limit,
        time_limit,
        preceded(keyword("nodes"), cut(map(number("nodes", 1, u64::MAX), Limits::Nodes))),
        value(Limits::Infinite, keyword("infinite")),
        preceded(keyword("clock"), cut(clock)),
    ));
    expect("depth N, time MS, nodes N, infinite or clock MS", limits)(i)
}

fn go(i: &str) -> PResult<'_, Command> {
    map(limits, Command::Go)(i)
}

fn play(i: &str) -> PResult<'_, Command> {
    if i.trim().is_empty() {
        return Ok((i, Command::Play(None)));
    }
    map(limits, |l| Command::Play(Some(l)))(i)
}

/// The limits of `analyze` and `hint`: depth 2 at least (a move and one ply after it), or a time.
fn analysis_limits(i: &str) -> PResult<'_, Limits> {
    let depth = preceded(keyword("depth"), cut(map(number("depth", 2, MAX_DEPTH), Limits::Depth)));
    alt((depth, time_limit))(i)
}

fn analyze(i: &str) -> PResult<'_, Command> {
    if i.trim().is_empty() {
        return Ok((i, Command::Analyze(None)));
    }
    map(expect("depth N or time MS", analysis_limits), |limits| Command::Analyze(Some(limits)))(i)
}

/// The rest of the line, trimmed, as a file name (it may hold spaces).
fn file_name(i: &str) -> PResult<'_, String> {
    match i.trim() {
        "" => Err(nom::Err::Error(Fail { input: i, reason: None })),
        name => Ok(("", name.to_string())),
    }
}

fn load(i: &str) -> PResult<'_, Command> {
    map(expect("a file name", file_name), Command::Load)(i)
}

fn save(i: &str) -> PResult<'_, Command> {
    let format = alt((value(Format::Ggf, keyword("ggf")), value(Format::Transcript, keyword("transcript"))));
    let (i, format) = expect("ggf or transcript", format)(i)?;
    let (i, file) = opt(file_name)(i)?;
    Ok((i, Command::Save(format, file)))
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]
mod tests {
    use super::*;

    fn ok(line: &str) -> Command {
        match parse_line(line) {
            Ok(Some(command)) => command,
            other => panic!("{line:?} gave {other:?}"),
        }
    }

    fn err(line: &str) -> String {
        match parse_line(line) {
            Err(e) => e.to_string(),
            other => panic!("{line:?} gave {other:?}, expected an error"),
        }
    }

    fn sq(name: &str) -> Move {
        Move::Play(name.parse().unwrap())
    }

    #[test]
    fn blank_lines_are_nothing() {
        assert_eq!(parse_line(""), Ok(None));
        assert_eq!(parse_line("  \t \r"), Ok(None));
    }

    #[test]
    fn simple_commands() {
        assert_eq!(ok("new"), Command::New);
        assert_eq!(ok("stop"), Command::Stop);
        assert_eq!(ok("isready"), Command::IsReady);
        assert_eq!(ok("quit"), Command::Quit);
        assert_eq!(ok("show"), Command::Show);
        assert_eq!(ok("eval"), Command::Eval);
        assert_eq!(ok("help"), Command::Help(None));
        assert_eq!(ok("moves"), Command::Moves);
        assert_eq!(ok("ping 42"), Command::Ping(42));
        assert_eq!(ok("set hash 16"), Command::SetHash(16));
    }

    #[test]
    fn keywords_are_case_insensitive_and_spaces_free() {
        assert_eq!(ok("  GO   Depth\t5  "), Command::Go(Limits::Depth(5)));
        assert_eq!(ok("IsReady\r"), Command::IsReady);
        assert_eq!(ok("Move F5 PASS"), Command::Move(vec![sq("f5"), Move::Pass]));
    }

    #[test]
    fn keywords_match_whole_words_only() {
        assert_eq!(err("gox depth 3"), "unknown command 'gox' (did you mean go? try help)");
        assert_eq!(err("g"), "unknown command 'g' (did you mean go? try help)");
        assert_eq!(err("udno"), "unknown command 'udno' (did you mean undo? try help)");
        assert_eq!(err("sav"), "unknown command 'sav' (did you mean save? try help)");
        assert_eq!(err("se"), "unknown command 'se' (did you mean set? try help)");
        assert_eq!(err("go depthx 3"), "go: expected depth N, time MS, nodes N, infinite or clock MS, found 'depthx'");
        assert_eq!(err("newgame"), "unknown command 'newgame' (try help)");
        assert_eq!(err("new game"), "new: unexpected 'game' (usage: new)");
    }

    #[test]
    fn go_limits() {
        assert_eq!(ok("go depth 8"), Command::Go(Limits::Depth(8)));
        assert_eq!(ok("go time 1500"), Command::Go(Limits::MoveTime(Duration::from_millis(1500))));
        assert_eq!(ok("go nodes 100000"), Command::Go(Limits::Nodes(100_000)));
        assert_eq!(ok("go infinite"), Command::Go(Limits::Infinite));
        let clock = |left, inc, mtg| {
            Command::Go(Limits::Clock {
                time_left: Duration::from_millis(left),
                increment: Duration::from_millis(inc),
                moves_to_go: mtg,
            })
        };
        assert_eq!(ok("go clock 60000"), clock(60000, 0, None));
        assert_eq!(ok("go clock 60000 inc 500"), clock(60000, 500, None));
        assert_eq!(ok("go clock 60000 movestogo 20"), clock(60000, 0, Some(20)));
        assert_eq!(ok("go clock 0 inc 1 movestogo 1"), clock(0, 1, Some(1)));
    }

    #[test]
    fn go_errors() {
        assert_eq!(err("go"), "go: expected depth N, time MS, nodes N, infinite or clock MS, found end of line");
        assert_eq!(err("go depth"), "go: expected depth, found end of line");
        assert_eq!(err("go depth x"), "go: bad number 'x' for depth: expected an integer from 1 to 60");
        assert_eq!(err("go depth -3"), "go: bad number '-3' for depth: expected an integer from 1 to 60");
        assert_eq!(err("go depth +3"), "go: bad number '+3' for depth: expected an integer from 1 to 60");
        assert_eq!(err("go depth 0"), "go: depth 0 out of range 1 to 60");
        assert_eq!(err("go depth 61"), "go: depth 61 out of range 1 to 60");
        assert!(err("go depth 3 4").starts_with("go: unexpected '4' (usage: go depth N | time MS "));
        assert_eq!(err("go time 0"), "go: milliseconds 0 out of range 1 to 1000000000");
        assert!(err("go nodes 99999999999999999999").starts_with("go: bad number '99999999999999999999' for nodes"));
        assert!(err("go infinite now").starts_with("go: unexpected 'now' (usage: go "));
        assert_eq!(err("go clock 100 inc"), "go: expected increment milliseconds, found end of line");
        assert_eq!(err("go clock 100 movestogo 0"), "go: moves to go 0 out of range 1 to 60");
        assert!(err("go clock 100 movestogo 5 inc 3").starts_with("go: unexpected 'inc' (usage: go "));
    }

    #[test]
    fn moves_in_every_notation() {
        assert_eq!(ok("move f5"), Command::Move(vec![sq("f5")]));
        assert_eq!(ok("move pass"), Command::Move(vec![Move::Pass]));
        assert_eq!(ok("move f5 d6 c3"), Command::Move(vec![sq("f5"), sq("d6"), sq("c3")]));
        assert_eq!(ok("move F5d6C3"), Command::Move(vec![sq("f5"), sq("d6"), sq("c3")]));
        assert_eq!(ok("move f5d6 pass c3"), Command::Move(vec![sq("f5"), sq("d6"), Move::Pass, sq("c3")]));
    }

    #[test]
    fn move_errors() {
        assert_eq!(err("move"), "move: expected a move, found end of line");
        let bad = |w: &str| {
            format!("move: bad move '{w}': expected a square a1 to h8, pass, or squares run together like f5d6c3")
        };
        assert_eq!(err("move z9"), bad("z9"));
        assert_eq!(err("move f5 d6c"), bad("d6c"));
        assert_eq!(err("move f5d9"), bad("f5d9"));
        assert_eq!(err("move passs"), bad("passs"));
        assert_eq!(err("move é1"), bad("é1"));
    }

    #[test]
    fn play_analyze_load_and_save() {
        assert_eq!(ok("play"), Command::Play(None));
        assert_eq!(ok("play depth 4"), Command::Play(Some(Limits::Depth(4))));
        assert_eq!(err("play depth"), "play: expected depth, found end of line");
        assert_eq!(err("play deep"), "play: expected depth N, time MS, nodes N, infinite or clock MS, found 'deep'");
        assert_eq!(ok("analyze time 500"), Command::Analyze(Some(Limits::MoveTime(Duration::from_millis(500)))));
        assert_eq!(ok("ANALYZE depth 3"), Command::Analyze(Some(Limits::Depth(3))));
        assert_eq!(ok("analyze"), Command::Analyze(None));
        assert_eq!(err("analyze depth 1"), "analyze: depth 1 out of range 2 to 60");
        assert_eq!(err("analyze nodes 5"), "analyze: expected depth N or time MS, found 'nodes'");
        assert_eq!(ok("hint"), Command::Hint(DEFAULT_HINTS, None));
        assert_eq!(ok("hint 1"), Command::Hint(1, None));
        assert_eq!(ok("hint 2 depth 6"), Command::Hint(2, Some(Limits::Depth(6))));
        assert_eq!(
            ok("hint time 300"),
            Command::Hint(DEFAULT_HINTS, Some(Limits::MoveTime(Duration::from_millis(300))))
        );
        assert_eq!(err("hint 0"), "hint: the number of moves 0 out of range 1 to 64");
        assert_eq!(err("hint deep"), "hint: expected N, depth N or time MS, found 'deep'");
        assert_eq!(err("hint 2 nodes 5"), "hint: expected depth N or time MS, found 'nodes'");
        assert_eq!(ok("load  my games/Game 1.ggf "), Command::Load("my games/Game 1.ggf".into()));
        assert_eq!(err("load"), "load: expected a file name, found end of line");
        assert_eq!(ok("save ggf"), Command::Save(Format::Ggf, None));
        assert_eq!(ok("save Transcript /tmp/G.txt"), Command::Save(Format::Transcript, Some("/tmp/G.txt".into())));
        assert_eq!(err("save sgf x"), "save: expected ggf or transcript, found 'sgf'");
    }

    #[test]
    fn setboard_forms() {
        let start = "---------------------------OX------XO--------------------------- X";
        assert_eq!(ok(&format!("setboard {start}")), Command::SetBoard(Position::START));
        assert_eq!(ok("setboard START"), Command::SetBoard(Position::START));
        assert_eq!(err("setboard"), "setboard: expected a board string or start, found end of line");
        assert_eq!(err("setboard start now"), "setboard: unexpected 'now' (usage: setboard BOARD SIDE | start)");
        assert_eq!(err("setboard ---"), "setboard: bad board: board has 3 squares, expected 64");
        let bad = start.replacen('O', "Z", 1);
        assert!(err(&format!("setboard {bad}")).starts_with("setboard: bad board: bad character 'Z' at d4"));
        assert!(err(&format!("setboard {start} Q")).starts_with("setboard: bad board: unexpected text"));
    }

    #[test]
    fn other_argument_errors() {
        assert_eq!(err("ping"), "ping: expected the ping number, found end of line");
        assert_eq!(
            err("ping x"),
            "ping: bad number 'x' for the ping number: expected an integer from 0 to 18446744073709551615"
        );
        assert_eq!(err("undo 0"), "undo: the number of moves 0 out of range 1 to 64");
        assert_eq!(ok("undo"), Command::Undo(1));
        assert_eq!(ok("undo 3"), Command::Undo(3));
        assert_eq!(err("set"), "set: expected an option: hash, selectivity or book, found end of line");
        assert_eq!(err("set colour red"), "set: expected an option: hash, selectivity or book, found 'colour'");
        assert_eq!(ok("set book off"), Command::SetBook(BookOption::Off));
        assert_eq!(ok("SET BOOK ON"), Command::SetBook(BookOption::On));
        assert_eq!(ok("set book randomness 2"), Command::SetBook(BookOption::Randomness(2)));
        assert_eq!(err("set book maybe"), "set: expected on, off or randomness N, found 'maybe'");
        assert_eq!(err("set book randomness 65"), "set: randomness discs 65 out of range 0 to 64");
        assert_eq!(err("set book onx"), "set: expected on, off or randomness N, found 'onx'");
        assert_eq!(ok("learn"), Command::Learn(None));
        assert_eq!(ok("learn depth 6"), Command::Learn(Some(6)));
        assert_eq!(err("learn 6"), "learn: expected depth N, found '6'");
        assert_eq!(err("learn depth 0"), "learn: depth 0 out of range 1 to 60");
        assert_eq!(ok("set selectivity 95"), Command::SetSelectivity(Selectivity::from_percent(95)));
        assert_eq!(ok("set selectivity 100"), Command::SetSelectivity(Some(Selectivity::EXACT)));
        assert_eq!(ok("SET SELECTIVITY AUTO"), Command::SetSelectivity(None));
        assert_eq!(
            err("set selectivity autox"),
            "set: bad number 'autox' for selectivity percent: expected an integer from 1 to 100"
        );
        assert_eq!(err("set selectivity 50"), "set: selectivity 50 is not a level: 58, 73, 87, 95, 98, 99, 100");
        assert_eq!(err("set selectivity 0"), "set: selectivity percent 0 out of range 1 to 100");
        assert_eq!(err("set hash 0"), "set: hash megabytes 0 out of range 1 to 4096");
        assert_eq!(err("set hash 5000"), "set: hash megabytes 5000 out of range 1 to 4096");
    }

    #[test]
    fn garbage_is_quoted_on_one_line() {
        assert_eq!(err("\u{fffd}\u{1b}[2J"), "unknown command '\u{fffd}\\u{1b}[2J' (try help)");
        assert_eq!(err(&"x".repeat(100)), format!("unknown command '{}...' (try help)", "x".repeat(MAX_ECHO)));
        assert_eq!(err("\0"), "unknown command '\\0' (try help)");
    }

    /// Random lines built from the grammar's own words, numbers, squares and junk characters: the
    /// parser never panics, and every error renders as one line.
    #[test]
    fn random_lines_never_panic_and_errors_are_one_line() {
        let words = [
            "go",
            "depth",
            "time",
            "nodes",
            "infinite",
            "clock",
            "inc",
            "movestogo",
            "move",
            "pass",
            "setboard",
            "start",
            "set",
            "hash",
            "ping",
            "undo",
            "f5",
            "f5d6",
            "z9",
            "0",
            "1",
            "60",
            "61",
            "-1",
            "+2",
            "99999999999999999999999",
            "\u{0}",
            "\u{1b}",
            "\u{fffd}",
            "\u{2028}",
            "\r",
            "\t",
            "é",
            "x",
            "---------------------------OX------XO--------------------------- X",
            "XO",
            "",
        ];
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut next = |n: usize| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % n as u64) as usize
        };
        for _ in 0..20_000 {
            let count = next(6);
            let mut line = String::new();
            for _ in 0..count {
                let word = words[next(words.len())];
                line.push_str(word);
                line.push_str([" ", "", "  ", "\t"][next(4)]);
            }
            if let Err(e) = parse_line(&line) {
                let text = e.to_string();
                assert!(!text.contains(['\n', '\r', '\u{2028}']), "{line:?} gave {text:?}");
            }
        }
    }

    #[test]
    fn every_table_command_parses_and_names_itself() {
        let samples = [
            "new",
            "setboard start",
            "move f5",
            "undo",
            "moves",
            "go depth 1",
            "play",
            "analyze depth 2",
            "stop",
            "isready",
            "ping 1",
            "quit",
            "show",
            "eval",
            "load game.ggf",
            "save ggf",
            "set hash 1",
            "learn",
            "help",
        ];
        let samples: Vec<&str> = samples.into_iter().collect();
        let mut samples = samples;
        for (after, extra) in [
            ("undo", "redo"),
            ("analyze depth 2", "hint"),
            ("hint", "mode white"),
            ("mode white", "level 3"),
            ("show", "board"),
            ("learn", "verbose 1"),
            ("verbose 1", "version"),
        ] {
            let at = samples.iter().position(|s| *s == after).unwrap() + 1;
            samples.insert(at, extra);
        }
        assert_eq!(samples.len(), COMMANDS.len());
        for (spec, sample) in COMMANDS.iter().zip(samples) {
            assert_eq!(ok(sample).name(), spec.name);
        }
    }
}
