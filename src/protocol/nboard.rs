//! The NBoard protocol (version 2), as the NBoard GUI speaks it: a thin adapter from its lines to the
//! game session ([`Engine`], fed from GGF records). `go` and `hint` run on this thread and stop as
//! soon as a line arrives that changes the position or asks for other work (`ping` first of all).

use crate::book::{Book, EXACT_DEPTH};
use crate::engine::{Engine, MoveScore, CLOCK_MARGIN, LEARN_DEPTH};
use crate::eval::Evaluator;
use crate::formats::ggf::{self, GgfClock};
use crate::protocol::inbox::{serve, Flow, Frontend, Inbox};
use crate::protocol::io::{self, Input, Output};
use crate::rules::board::{Color, Move, Notation};
use crate::search::timeman::{self, Deadlines};
use crate::search::Selectivity;
use crate::search::{Control, Info, Limits, Observer};
use std::fmt;
use std::io::Write;
use std::time::{Duration, Instant};

/// The name NBoard shows for the engine (`set myname`).
pub const NAME: &str = "ebony";
/// Midgame depth until the GUI sends `set depth` (it always does before `go` and `hint`).
pub const DEFAULT_DEPTH: u32 = 10;
/// Deepest `set depth` taken: a whole game.
pub const MAX_DEPTH: u32 = 60;

/// A line from NBoard. Lines it does not know are ignored, as the protocol requires.
#[derive(Clone, PartialEq, Debug)]
pub enum Command {
    NBoard(u32),
    SetDepth(u32),
    /// A GGF record, parsed when it is executed.
    SetGame(String),
    SetContempt(f64),
    /// `set book on|off|randomness N` (ebony's own: NBoard itself never sends it).
    SetBook(BookSetting),
    /// `move <mv>[/<eval>[/<time>]]`, parsed against the side to move when executed.
    Move(String),
    Hint(u32),
    Go,
    Ping(u64),
    Learn,
    Analyze,
    Quit,
}

/// `set book ...`.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum BookSetting {
    On,
    Off,
    Randomness(u32),
}

impl Command {
    /// Whether this line, arriving during a search, ends it: everything that changes the position or
    /// asks for an answer does; settings for the next search do not.
    fn interrupts(&self) -> bool {
        !matches!(self, Command::SetDepth(_) | Command::SetContempt(_) | Command::SetBook(_))
    }
}

/// Why a known NBoard command was refused: shown on NBoard's status line (NBoard has no error reply).
#[derive(Clone, PartialEq, Debug)]
pub enum NbError {
    /// `what` wants a number and got `text`.
    NotANumber {
        what: &'static str,
        text: String,
    },
    /// A number outside what the command takes: refused, never clamped.
    OutOfRange {
        what: &'static str,
        value: u32,
        min: u32,
        max: u32,
    },
    BadContempt(String),
    BadBook(String),
    MissingMove,
}

impl fmt::Display for NbError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NbError::NotANumber { what, text } => write!(f, "{what}: expected a number, got {text:?}"),
            NbError::OutOfRange { what, value, min, max } => write!(f, "{what}: {value} is not in {min}..={max}"),
            NbError::BadContempt(text) => write!(f, "set contempt: bad number {text:?}"),
            NbError::BadBook(text) => write!(f, "set book: expected on, off or randomness N (0 to 64), got {text:?}"),
            NbError::MissingMove => f.write_str("move: missing the move"),
        }
    }
}

/// Most moves `hint` is asked to rank: more than any position has.
pub const MAX_HINTS: u32 = 64;

/// Parses one line: `Ok(None)` for a line to ignore, `Err` for a known command with bad arguments.
pub fn parse(line: &str) -> Result<Option<Command>, NbError> {
    let line = line.trim();
    let (word, rest) = split_word(line);
    let command = match word {
        "nboard" => Command::NBoard(number(rest, "nboard")?),
        "set" => {
            let (what, value) = split_word(rest);
            match what {
                "depth" => {
                    let depth = number(value, "set depth")?;
                    if !(1..=MAX_DEPTH).contains(&depth) {
                        return Err(NbError::OutOfRange { what: "set depth", value: depth, min: 1, max: MAX_DEPTH });
                    }
                    Command::SetDepth(depth)
                }
                "game" => Command::SetGame(value.to_string()),
                "contempt" => Command::SetContempt(
                    value
                        .parse::<f64>()
                        .ok()
                        .filter(|x| x.is_finite())
                        .ok_or_else(|| NbError::BadContempt(value.to_string()))?,
                ),
                "book" => Command::SetBook(match split_word(value) {
                    ("on", "") => BookSetting::On,
                    ("off", "") => BookSetting::Off,
                    ("randomness", n) => match n.parse::<u32>() {
                        Ok(n) if n <= 64 && !n_has_sign(value) => BookSetting::Randomness(n),
                        _ => return Err(NbError::BadBook(value.to_string())),
                    },
                    _ => return Err(NbError::BadBook(value.to_string())),
                }),
                _ => return Ok(None),
            }
        }
        "move" if !rest.is_empty() => Command::Move(rest.to_string()),
        "move" => return Err(NbError::MissingMove),
        "hint" => match number::<u32>(rest, "hint")? {
            n @ 1..=MAX_HINTS => Command::Hint(n),
            n => return Err(NbError::OutOfRange { what: "hint", value: n, min: 1, max: MAX_HINTS }),
        },
        "go" if rest.is_empty() => Command::Go,
        "ping" => Command::Ping(number(rest, "ping")?),
        "learn" if rest.is_empty() => Command::Learn,
        "analyze" if rest.is_empty() => Command::Analyze,
        "quit" if rest.is_empty() => Command::Quit,
        _ => return Ok(None),
    };
    Ok(Some(command))
}

/// A `+` sign, which Rust's integer parsing takes and the protocols refuse.
fn n_has_sign(text: &str) -> bool {
    text.contains('+')
}

fn split_word(text: &str) -> (&str, &str) {
    let text = text.trim();
    match text.split_once(char::is_whitespace) {
        Some((word, rest)) => (word, rest.trim()),
        None => (text, ""),
    }
}

fn number<T: std::str::FromStr>(text: &str, what: &'static str) -> Result<T, NbError> {
    text.trim().parse().map_err(|_| NbError::NotANumber { what, text: text.to_string() })
}

/// A depth as NBoard reads it: plies as a plain number in the midgame (selective or not), `P%` for
/// a selective search to the end of the game (a probable solve, P the selectivity), `100%` for an
/// exact one.
struct NbDepth {
    plies: u32,
    selectivity: Selectivity,
    exact: bool,
    empties: u32,
}

impl fmt::Display for NbDepth {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.exact {
            f.write_str("100%")
        } else if self.plies >= self.empties && !self.selectivity.is_exact() {
            write!(f, "{}%", self.selectivity.percent())
        } else {
            write!(f, "{}", self.plies)
        }
    }
}

/// A principal variation without spaces (`F5D6C3`), as `search` lines need.
struct NbPv<'a>(&'a [Move]);

impl fmt::Display for NbPv<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.iter().try_for_each(|&mv| write!(f, "{}", Notation::GGF.text(mv)))
    }
}

/// Runs the NBoard protocol on stdin/stdout until `quit` or end of input.
pub fn run(
    hash_mb: usize,
    evaluator: Evaluator,
    book: Book,
    book_file: Option<std::path::PathBuf>,
    files: bool,
) -> std::io::Result<()> {
    let mut nboard =
        NBoard::new(io::spawn_stdin_reader()?, Output::stdout(), hash_mb, evaluator).with_book(book, book_file);
    nboard.engine.set_files_allowed(files);
    nboard.run();
    Ok(())
}

/// The protocol state: the session, the settings and the clocks NBoard sent.
pub struct NBoard<W: Write> {
    engine: Engine,
    inbox: Inbox,
    out: Output<W>,
    depth: u32,
    /// Game clocks from the GGF `TI`/`TB`/`TW`, black then white.
    clocks: [Option<GgfClock>; 2],
    /// Seconds each colour has used, from the record and the `move` lines since.
    used: [f64; 2],
}

impl<W: Write> Frontend for NBoard<W> {
    fn inbox(&mut self) -> &mut Inbox {
        &mut self.inbox
    }

    fn line(&mut self, line: &str) -> Flow {
        self.answer(line)
    }

    fn too_long(&mut self, length: usize) {
        self.error(format_args!("line of {length} bytes ignored"));
    }

    fn dropped(&mut self, count: usize) {
        self.error(format_args!("{count} lines dropped: too many arrived during a search"));
    }
}

impl<W: Write> NBoard<W> {
    pub fn new(
        input: std::sync::mpsc::Receiver<Input>,
        out: Output<W>,
        hash_mb: usize,
        evaluator: Evaluator,
    ) -> NBoard<W> {
        NBoard {
            engine: Engine::new(hash_mb, evaluator),
            inbox: Inbox::new(input),
            out,
            depth: DEFAULT_DEPTH,
            clocks: [None; 2],
            used: [0.0; 2],
        }
    }

    /// Plays from `book` (read from `file`, where `learn` writes it back, if any).
    pub fn with_book(mut self, book: Book, file: Option<std::path::PathBuf>) -> NBoard<W> {
        self.engine.set_book(book, file);
        self
    }

    pub fn run(&mut self) {
        serve(self);
    }

    pub fn into_output(self) -> W {
        self.out.into_inner()
    }

    fn answer(&mut self, line: &str) -> Flow {
        log::debug!("< {line}");
        match parse(line) {
            Ok(Some(command)) => self.execute(command),
            Ok(None) => {
                log::info!("ignored: {line}");
                Flow::Continue
            }
            Err(e) => {
                self.error(e);
                Flow::Continue
            }
        }
    }

    /// NBoard has no error reply: the status line shows the reason to the user, stderr logs it. The
    /// reason may quote input (a GGF record): its control characters are escaped, so that the reply
    /// stays one line.
    fn error(&mut self, reason: impl fmt::Display) {
        let reason = io::escape_controls(&reason.to_string());
        log::warn!("{reason}");
        self.out.line(format_args!("status {NAME}: {reason}"));
    }

    fn execute(&mut self, command: Command) -> Flow {
        match command {
            Command::NBoard(version) => {
                if version != 2 {
                    log::warn!("NBoard protocol version {version}; speaking version 2");
                }
                self.out.line(format_args!("set myname {NAME}"));
            }
            Command::SetDepth(depth) => self.depth = depth,
            Command::SetGame(text) => self.set_game(&text),
            // The searcher has no draw contempt: draws are scored 0 whatever NBoard asks.
            Command::SetContempt(_) => {}
            Command::SetBook(BookSetting::On) => self.engine.set_book_enabled(true),
            Command::SetBook(BookSetting::Off) => self.engine.set_book_enabled(false),
            Command::SetBook(BookSetting::Randomness(n)) => self.engine.set_book_randomness(n),
            Command::Move(text) => self.play(&text),
            Command::Hint(n) => return self.hint(n as usize),
            Command::Go => return self.go(),
            Command::Ping(n) => self.out.line(format_args!("pong {n}")),
            Command::Learn => self.learn(),
            Command::Analyze => return self.analyze(),
            Command::Quit => return Flow::Exit,
        }
        Flow::Continue
    }

    /// `learn`: the game into the book (its new positions searched at the set depth, at most
    /// [`LEARN_DEPTH`]), written back to the book's file when it has one; then `learned`.
    fn learn(&mut self) {
        if let (Some(_), Err(reason)) = (self.engine.book_file(), self.engine.files_allowed()) {
            self.error(format_args!("learn: {reason}"));
            return self.out.line("learned");
        }
        let added = self.engine.learn(self.depth.min(LEARN_DEPTH));
        log::info!("learned: {added} positions added, {} in the book", self.engine.book().len());
        if let Some(file) = self.engine.book_file() {
            if let Err(e) = self.engine.book().write_file(file) {
                self.error(format_args!("learn: {e}"));
            }
        }
        self.out.line("learned");
    }

    fn set_game(&mut self, text: &str) {
        let record = match ggf::parse(text) {
            Ok(record) => record,
            Err(e) => return self.error(format_args!("set game: {e}")),
        };
        match record.to_game() {
            Ok(game) => {
                let now = self.engine.game();
                if game.start() != now.start() || game.moves().len() < now.moves().len() {
                    self.engine.new_game(game);
                } else {
                    self.engine.continue_game(game);
                }
                self.clocks = [record.black_clock, record.white_clock];
                let (black, white) = record.time_used();
                self.used = [black, white];
            }
            Err(e) => self.error(format_args!("set game: {e}")),
        }
    }

    fn play(&mut self, text: &str) {
        let side = self.engine.game().position().side;
        match ggf::parse_move(side, text) {
            Ok(m) => match self.engine.play(m.mv) {
                Ok(()) => self.used[side.index()] += m.time.unwrap_or(0.0),
                Err(e) => self.error(format_args!("move {text}: {e}")),
            },
            Err(e) => self.error(format_args!("move: {e}")),
        }
    }

    /// The game clock of the side to move for a `go`, when the record has one: the time left (the
    /// clock less the recorded and later moves' times and the pipe margin) and the increment.
    fn go_clock(&self) -> Option<(Duration, Duration)> {
        let side = self.engine.game().position().side.index();
        let clock = self.clocks[side].filter(|clock| !clock.main.is_zero())?;
        let used = Duration::try_from_secs_f64(self.used[side]).unwrap_or(Duration::MAX);
        let left = clock.main.saturating_sub(used).saturating_sub(CLOCK_MARGIN);
        Some((left.max(Duration::from_millis(10)), clock.increment))
    }

    fn go(&mut self) -> Flow {
        let position = *self.engine.game().position();
        let board = position.board;
        if board.is_game_over() {
            self.error("go: the game is over");
            return Flow::Continue;
        }
        if board.moves() == 0 {
            self.out.line("=== PA");
            return Flow::Continue;
        }
        if let Some(choice) = self.engine.book_move(&position) {
            self.out.line(format_args!("=== {}/{:.2}/0.00", Notation::GGF.text(choice.mv), f64::from(choice.score)));
            return Flow::Continue;
        }
        self.out.line(format_args!("status {NAME} is thinking"));
        let start = Instant::now();
        // The set depth is the search (a level, so NBoard's levels differ); the clock, when there is
        // one, only cuts it short: the searcher's clock deadlines, enforced by the observer.
        let deadlines =
            self.go_clock().map(|(left, increment)| timeman::clock(start, left, increment, None, board.empty_count()));
        let mut watch = Watch::new(&mut self.inbox, &mut self.out, deadlines, true);
        let result = self.engine.search(&board, &Limits::Depth(self.depth), &mut watch);
        if watch.interrupted {
            return Flow::Continue;
        }
        let elapsed = start.elapsed().as_secs_f64();
        self.out.line(format_args!("nodestats {} {elapsed:.2}", result.nodes));
        self.out.line(format_args!(
            "=== {}/{:.2}/{elapsed:.2}",
            Notation::GGF.text(result.best),
            f64::from(result.score)
        ));
        Flow::Continue
    }

    /// Evaluates every move by searching after it, deeper and deeper up to the set depth, and after
    /// each pass sends the best `n` as `search` lines, best first.
    fn hint(&mut self, n: usize) -> Flow {
        let board = self.engine.game().position().board;
        let moves = board.legal_moves();
        if moves.is_empty() {
            return Flow::Continue;
        }
        self.out.line(format_args!("status {NAME} is thinking"));
        let book = self.engine.book_moves(&board);
        if !book.is_empty() {
            // NBoard's `book PV EVAL GAMES DEPTH`: the fields of `search`; the book has no game counts.
            for m in book.iter().take(n) {
                let mut pv = vec![m.mv];
                if let Some((child, sign)) = Book::child(&board, m.mv) {
                    if sign == 1 {
                        pv.push(Move::Pass);
                    }
                    pv.extend(self.engine.book().line(&child, 20));
                }
                let depth = if m.exact || m.depth == EXACT_DEPTH { "100%".to_string() } else { m.depth.to_string() };
                self.out.line(format_args!("book {} {:.2} 0 {depth}", NbPv(&pv), f64::from(m.score)));
            }
            self.out.line(format_args!("status {NAME} is waiting"));
            return Flow::Continue;
        }
        let start = Instant::now();
        let mut nodes = 0u64;
        let deepest = self.depth.saturating_sub(1).max(1);
        for depth in 1..=deepest {
            let mut watch = Watch::new(&mut self.inbox, &mut self.out, None, false);
            // Each move is searched `depth` plies after it: `depth + 1` with the move.
            let Some(scored) = self.engine.score_moves(&board, depth + 1, &mut watch) else {
                return Flow::Continue;
            };
            nodes += scored.iter().map(|s| s.nodes).sum::<u64>();
            self.out.line(format_args!("nodestats {nodes} {:.2}", start.elapsed().as_secs_f64()));
            for s in scored.iter().take(n) {
                let depth = NbDepth {
                    plies: s.depth,
                    selectivity: s.selectivity,
                    exact: s.exact,
                    empties: board.empty_count(),
                };
                self.out.line(format_args!("search {} {:.2} 0 {depth}", NbPv(&s.pv), f64::from(s.score)));
            }
            if scored.iter().all(|s| s.exact) {
                break;
            }
        }
        self.out.line(format_args!("status {NAME} is waiting"));
        Flow::Continue
    }

    /// Retrograde analysis: from the last position back to the first, `analysis <moves made> <eval>`
    /// with the eval from black's side whoever is to move (NBoard's "Analyze Game" graph plots the
    /// values as they come, as its reference engine sends them).
    fn analyze(&mut self) -> Flow {
        let mut positions = vec![*self.engine.game().start()];
        for mv in self.engine.game().moves() {
            match positions.last().and_then(|p| p.try_play(mv).ok()) {
                Some(next) => positions.push(next),
                None => return Flow::Continue,
            }
        }
        self.out.line(format_args!("status {NAME} is analyzing"));
        for (made, position) in positions.iter().enumerate().rev() {
            let board = position.board;
            let score = if board.is_game_over() {
                board.final_score()
            } else if board.moves() == 0 {
                let mut watch = Watch::new(&mut self.inbox, &mut self.out, None, false);
                match self.engine.score_move(&board, Move::Pass, self.depth + 1, &mut watch) {
                    Some(MoveScore { score, .. }) => score,
                    None => return Flow::Continue,
                }
            } else {
                let mut watch = Watch::new(&mut self.inbox, &mut self.out, None, false);
                let result = self.engine.search(&board, &Limits::Depth(self.depth), &mut watch);
                if watch.interrupted {
                    return Flow::Continue;
                }
                result.score
            };
            let black = if position.side == Color::Black { score } else { -score };
            self.out.line(format_args!("analysis {made} {:.2}", f64::from(black)));
        }
        self.out.line(format_args!("status {NAME} is waiting"));
        Flow::Continue
    }
}

/// The observer of NBoard searches: stops on interrupting input (left queued for the loop), stops a
/// search at the game clock's deadlines (the hard one at once; the soft one after an iteration,
/// when the next would not end in time), and reports progress as `nodestats`.
struct Watch<'a, W: Write> {
    inbox: &'a mut Inbox,
    out: &'a mut Output<W>,
    deadlines: Option<Deadlines>,
    report: bool,
    /// When the last iteration ended (`Info::elapsed`), to time the next.
    last_elapsed: Duration,
    /// How long the iteration before it took.
    last_took: Duration,
    done: bool,
    interrupted: bool,
}

impl<'a, W: Write> Watch<'a, W> {
    fn new(inbox: &'a mut Inbox, out: &'a mut Output<W>, deadlines: Option<Deadlines>, report: bool) -> Watch<'a, W> {
        Watch {
            inbox,
            out,
            deadlines,
            report,
            last_elapsed: Duration::ZERO,
            last_took: Duration::ZERO,
            done: false,
            interrupted: false,
        }
    }
}

impl<W: Write> Observer for Watch<'_, W> {
    fn poll(&mut self) -> Control {
        if !self.interrupted && self.inbox.poll(|line| matches!(parse(line), Ok(Some(c)) if c.interrupts())) {
            self.interrupted = true;
        }
        if self.deadlines.is_some_and(|d| Instant::now() >= d.hard) {
            self.done = true;
        }
        if self.interrupted || self.done {
            Control::Stop
        } else {
            Control::Continue
        }
    }

    fn info(&mut self, info: &Info) {
        if self.report {
            self.out.line(format_args!("nodestats {} {:.2}", info.nodes, info.elapsed.as_secs_f64()));
        }
        let took = info.elapsed.saturating_sub(self.last_elapsed);
        let growth = if self.last_took > Duration::from_micros(200) {
            took.as_secs_f64() / self.last_took.as_secs_f64()
        } else {
            timeman::DEFAULT_GROWTH
        };
        (self.last_elapsed, self.last_took) = (info.elapsed, took);
        if let Some(d) = self.deadlines {
            if !timeman::start_next(&d, Instant::now(), took, growth) {
                self.done = true;
            }
        }
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    use super::*;

    #[test]
    fn parses_the_commands_nboard_sends() {
        assert_eq!(parse("nboard 2"), Ok(Some(Command::NBoard(2))));
        assert_eq!(parse("set depth 4"), Ok(Some(Command::SetDepth(4))));
        assert_eq!(parse("set contempt 0"), Ok(Some(Command::SetContempt(0.0))));
        assert_eq!(parse("set game (;GM[Othello];)"), Ok(Some(Command::SetGame("(;GM[Othello];)".into()))));
        assert_eq!(parse("move PA//1.236"), Ok(Some(Command::Move("PA//1.236".into()))));
        assert_eq!(parse("hint 4"), Ok(Some(Command::Hint(4))));
        assert_eq!(parse("go"), Ok(Some(Command::Go)));
        assert_eq!(parse("ping 12"), Ok(Some(Command::Ping(12))));
        assert_eq!(parse("learn"), Ok(Some(Command::Learn)));
        assert_eq!(parse("analyze"), Ok(Some(Command::Analyze)));
        assert_eq!(parse("quit"), Ok(Some(Command::Quit)));
    }

    #[test]
    fn unknown_lines_are_ignored_and_bad_arguments_refused() {
        assert_eq!(parse(""), Ok(None));
        assert_eq!(parse("set myname x"), Ok(None));
        assert_eq!(parse("gox"), Ok(None));
        assert_eq!(parse("remove_tree"), Ok(None));
        assert!(parse("ping x").is_err());
        assert!(parse("set depth 0").is_err());
        assert!(parse("set depth 61").is_err());
        assert!(parse("set depth deep").is_err());
        assert!(parse("hint").is_err());
        assert_eq!(parse("hint 0"), Err(NbError::OutOfRange { what: "hint", value: 0, min: 1, max: MAX_HINTS }));
        assert_eq!(parse("hint 0").map_err(|e| e.to_string()), Err("hint: 0 is not in 1..=64".to_string()));
        assert!(parse("hint 65").is_err());
        assert!(parse("move").is_err());
        assert!(parse("nboard two").is_err());
        assert_eq!(parse("set book off"), Ok(Some(Command::SetBook(BookSetting::Off))));
        assert_eq!(parse("set book randomness 3"), Ok(Some(Command::SetBook(BookSetting::Randomness(3)))));
        assert!(parse("set book randomness 65").is_err());
        assert!(parse("set book randomness +3").is_err());
        assert!(parse("set book maybe").is_err());
    }

    #[test]
    fn only_position_changes_interrupt_a_search() {
        for line in ["ping 1", "go", "hint 3", "move F5", "set game (;;)", "quit", "learn", "analyze", "nboard 2"] {
            assert!(parse(line).unwrap().unwrap().interrupts(), "{line}");
        }
        for line in ["set depth 3", "set contempt 1"] {
            assert!(!parse(line).unwrap().unwrap().interrupts(), "{line}");
        }
    }

    fn engine() -> NBoard<Vec<u8>> {
        let (_tx, rx) = std::sync::mpsc::channel();
        NBoard::new(rx, Output::new(Vec::new()), 1, Evaluator::default())
    }

    #[test]
    fn the_game_clock_caps_go_and_counts_the_recorded_times() {
        let mut nb = engine();
        nb.answer("set depth 7");
        let bo = "BO[8 ---------------------------O*------*O--------------------------- *]";
        nb.answer(&format!("set game (;GM[Othello]TI[1:00]{bo}B[F5//10.5]W[F6//3];)"));
        nb.answer("move E6/0.00/4.5");
        // White to move: 60 s less 3 s, less the pipe margin.
        assert_eq!(nb.go_clock(), Some((Duration::from_secs(57) - CLOCK_MARGIN, Duration::ZERO)));
        assert_eq!(nb.used, [15.0, 3.0]);
        // Without a clock the set depth alone limits `go`.
        nb.answer(&format!("set game (;GM[Othello]{bo};)"));
        assert_eq!(nb.go_clock(), None);
        assert!(nb.into_output().is_empty(), "no reply to settings and moves");
    }

    #[test]
    fn moves_and_pvs_are_written_as_nboard_reads_them() {
        let pv = [Move::Play("f5".parse().unwrap()), Move::Pass, Move::Play("d6".parse().unwrap())];
        assert_eq!(NbPv(&pv).to_string(), "F5PAD6");
    }
}
