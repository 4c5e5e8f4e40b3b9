//! The Go Text Protocol (version 2) for Othello, as Quarry and GoGui speak it: a thin adapter from GTP
//! commands to the game session ([`Engine`]). Passes a GUI leaves out are played implicitly.

use crate::book::Book;
use crate::engine::{Engine, CLOCK_MARGIN};
use crate::eval::Evaluator;
use crate::protocol::inbox::{serve, Flow, Frontend, Inbox};
use crate::protocol::io::{self, Input, Output};
use crate::protocol::parser::MAX_MS;
use crate::rules::board::{Color, IllegalMove, Move, Notation};
use crate::rules::game::Game;
use crate::rules::square::Square;
use crate::search::{Control, Limits, Observer};
use std::fmt::{self, Write as _};
use std::io::Write;
use std::sync::mpsc::Receiver;
use std::time::Duration;

/// What `genmove` thinks with until the GUI sets a clock (or `ebony-limit` sets another limit).
pub const DEFAULT_LIMIT: Limits = Limits::MoveTime(Duration::from_secs(1));

/// The commands, in the order `list_commands` gives them.
pub const COMMANDS: &[&str] = &[
    "protocol_version",
    "name",
    "version",
    "known_command",
    "list_commands",
    "quit",
    "boardsize",
    "clear_board",
    "komi",
    "play",
    "genmove",
    "reg_genmove",
    "undo",
    "time_settings",
    "time_left",
    "showboard",
    "final_score",
    "set_game",
    "list_games",
    "gogui-rules_game_id",
    "gogui-rules_board_size",
    "gogui-rules_board",
    "gogui-rules_legal_moves",
    "gogui-rules_side_to_move",
    "gogui-rules_final_result",
    "ebony-limit",
    "ebony-book",
];

/// A reply: `Ok` is rendered `=[id] text`, `Err` `?[id] text`, each followed by a blank line.
type Reply = Result<String, GtpError>;

/// Why a GTP command failed: the text after `?` in the reply.
#[derive(Clone, PartialEq, Debug)]
pub enum GtpError {
    MissingArgument(&'static str),
    BadArgument {
        what: &'static str,
        text: String,
    },
    /// A number outside what the command takes: refused, never clamped.
    OutOfRange {
        what: &'static str,
        value: u64,
        min: u64,
        max: u64,
    },
    BadTime(f64),
    ExpectedLimit,
    ExpectedBookSetting,
    UnacceptableSize,
    /// `play`: the move cannot be played.
    Illegal(Refusal),
    /// `genmove`: the colour asked for cannot move now.
    CannotMove(Refusal),
    CannotUndo,
    UnsupportedGame,
    NotOver,
    UnknownCommand,
    LineTooLong(usize),
    /// Arguments past those the command takes (the first of them).
    ExtraArgument(String),
    /// Commands dropped because too many arrived during a search (how many).
    Dropped(usize),
}

/// Why a colour cannot play now.
#[derive(Clone, PartialEq, Debug)]
pub enum Refusal {
    Rules(IllegalMove),
    GameOver,
    NotToMove(Color),
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Refusal::Rules(e) => write!(f, "{e}"),
            Refusal::GameOver => f.write_str("the game is over"),
            Refusal::NotToMove(side) => write!(f, "{side} to move"),
        }
    }
}

impl fmt::Display for GtpError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GtpError::MissingArgument(what) => write!(f, "syntax error: missing {what}"),
            GtpError::BadArgument { what, text } => write!(f, "syntax error: bad {what} {text:?}"),
            GtpError::OutOfRange { what, value, min, max } => write!(f, "{what} {value} is not in {min}..={max}"),
            GtpError::BadTime(seconds) => write!(f, "syntax error: bad time {seconds}"),
            GtpError::ExpectedLimit => f.write_str("syntax error: expected depth N, time MS or nodes N"),
            GtpError::ExpectedBookSetting => f.write_str("syntax error: expected on, off or randomness N"),
            GtpError::UnacceptableSize => f.write_str("unacceptable size"),
            GtpError::Illegal(refusal) => write!(f, "illegal move: {refusal}"),
            GtpError::CannotMove(refusal) => write!(f, "cannot move: {refusal}"),
            GtpError::CannotUndo => f.write_str("cannot undo"),
            GtpError::UnsupportedGame => f.write_str("unsupported game"),
            GtpError::NotOver => f.write_str("cannot score: the game is not over"),
            GtpError::UnknownCommand => f.write_str("unknown command"),
            GtpError::LineTooLong(length) => write!(f, "line too long: {length} bytes"),
            GtpError::ExtraArgument(text) => write!(f, "syntax error: unexpected argument {text:?}"),
            GtpError::Dropped(count) => write!(f, "{count} commands dropped: too many arrived during a search"),
        }
    }
}

/// Deepest `ebony-limit depth` taken: a whole game.
pub const MAX_DEPTH: u32 = 60;

/// One command line after GTP's preprocessing: an optional id, the name, the arguments.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Line {
    pub id: Option<u64>,
    pub name: String,
    pub args: Vec<String>,
}

/// GTP preprocessing: control characters other than tab dropped, `#` comments cut, tabs made spaces;
/// `None` for a line left empty. A leading number is the id.
pub fn split_line(raw: &str) -> Option<Line> {
    let cleaned: String = raw
        .chars()
        .take_while(|&c| c != '#')
        .filter(|&c| c == '\t' || !c.is_control())
        .map(|c| if c == '\t' { ' ' } else { c })
        .collect();
    let mut words = cleaned.split_whitespace();
    let first = words.next()?;
    let (id, name) = match first.parse::<u64>() {
        Ok(id) => (Some(id), words.next().unwrap_or("").to_string()),
        Err(_) => (None, first.to_string()),
    };
    Some(Line { id, name, args: words.map(str::to_string).collect() })
}

/// Renders a reply with its id and the closing blank line.
pub fn render(id: Option<u64>, reply: &Reply) -> String {
    let (mark, text) = match reply {
        Ok(text) => ('=', text.clone()),
        Err(e) => ('?', e.to_string()),
    };
    let id = id.map_or(String::new(), |id| id.to_string());
    if text.is_empty() {
        format!("{mark}{id}\n")
    } else {
        format!("{mark}{id} {text}\n")
    }
}

fn bad(what: &'static str, text: &str) -> GtpError {
    GtpError::BadArgument { what, text: text.to_string() }
}

fn parse_color(text: Option<&str>) -> Result<Color, GtpError> {
    let text = text.ok_or(GtpError::MissingArgument("color"))?;
    match text.to_ascii_lowercase().as_str() {
        "b" | "black" => Ok(Color::Black),
        "w" | "white" => Ok(Color::White),
        _ => Err(bad("color", text)),
    }
}

fn parse_vertex(text: Option<&str>) -> Result<Move, GtpError> {
    let text = text.ok_or(GtpError::MissingArgument("vertex"))?;
    Move::parse(text).map_err(|_| bad("vertex", text))
}

fn vertex(mv: Move) -> String {
    Notation::GTP.text(mv).to_string()
}

fn arg<T: std::str::FromStr>(args: &[String], i: usize, what: &'static str) -> Result<T, GtpError> {
    let text = args.get(i).ok_or(GtpError::MissingArgument(what))?;
    text.parse().map_err(|_| bad(what, text))
}

/// How many arguments each command takes at most (GTP: a command with arguments it does not take is
/// an error, not a command that ignores them).
fn arity(name: &str) -> usize {
    match name {
        "known_command" | "boardsize" | "komi" | "genmove" | "reg_genmove" | "set_game" => 1,
        "play" | "ebony-limit" | "ebony-book" => 2,
        "time_settings" | "time_left" => 3,
        _ => 0,
    }
}

/// The second argument as a number in `min..=max` (the first names what it is).
fn in_range(args: &[String], what: &'static str, min: u64, max: u64) -> Result<u64, GtpError> {
    match arg::<u64>(args, 1, what)? {
        value if (min..=max).contains(&value) => Ok(value),
        value => Err(GtpError::OutOfRange { what, value, min, max }),
    }
}

/// The GTP time system (Canadian byo-yomi) and the clock the GUI last reported for each colour.
#[derive(Clone, Copy, Default, Debug)]
struct TimeControl {
    main: Duration,
    byo_yomi: Duration,
    stones: u32,
    /// From `time_left`: the time and the stones left in the period (0 = main time), black then white.
    left: [Option<(Duration, u32)>; 2],
}

impl TimeControl {
    fn timed(&self) -> bool {
        !(self.main.is_zero() && self.byo_yomi.is_zero()) || self.left.iter().any(Option::is_some)
    }

    /// The clock for `color` as the searcher's limits.
    fn limits(&self, color: Color) -> Limits {
        let (left, stones) = self.left[color.index()].unwrap_or(if self.main.is_zero() {
            (self.byo_yomi, self.stones)
        } else {
            (self.main, 0)
        });
        let left = left.saturating_sub(CLOCK_MARGIN).max(Duration::from_millis(10));
        if stones > 0 {
            Limits::Clock { time_left: left, increment: Duration::ZERO, moves_to_go: Some(stones) }
        } else {
            // In main time a byo-yomi period still follows: spread it as an increment.
            let increment = if self.stones > 0 { self.byo_yomi / self.stones } else { Duration::ZERO };
            Limits::Clock { time_left: left, increment, moves_to_go: None }
        }
    }
}

/// Runs GTP on stdin/stdout until `quit` or end of input, playing from `book`.
pub fn run(hash_mb: usize, evaluator: Evaluator, book: Book) -> std::io::Result<()> {
    Gtp::new(io::spawn_stdin_reader()?, Output::stdout(), hash_mb, evaluator).with_book(book).run();
    Ok(())
}

/// The GTP engine state.
pub struct Gtp<W: Write> {
    engine: Engine,
    inbox: Inbox,
    out: Output<W>,
    /// The game length before each `play`/`genmove`, so `undo` also takes back the implicit passes.
    marks: Vec<usize>,
    time: TimeControl,
    limit: Limits,
}

impl<W: Write> Frontend for Gtp<W> {
    fn inbox(&mut self) -> &mut Inbox {
        &mut self.inbox
    }

    fn line(&mut self, line: &str) -> Flow {
        self.answer(line)
    }

    fn too_long(&mut self, length: usize) {
        self.out.line(render(None, &Err(GtpError::LineTooLong(length))));
    }

    fn dropped(&mut self, count: usize) {
        self.out.line(render(None, &Err(GtpError::Dropped(count))));
    }
}

impl<W: Write> Gtp<W> {
    pub fn new(input: Receiver<Input>, out: Output<W>, hash_mb: usize, evaluator: Evaluator) -> Gtp<W> {
        Gtp {
            engine: Engine::new(hash_mb, evaluator),
            inbox: Inbox::new(input),
            out,
            marks: Vec::new(),
            time: TimeControl::default(),
            limit: DEFAULT_LIMIT,
        }
    }

    /// Plays from `book`.
    pub fn with_book(mut self, book: Book) -> Gtp<W> {
        self.engine.set_book(book, None);
        self
    }

    pub fn run(&mut self) {
        serve(self);
    }

    pub fn into_output(self) -> W {
        self.out.into_inner()
    }

    fn answer(&mut self, raw: &str) -> Flow {
        log::debug!("< {raw}");
        let Some(line) = split_line(raw) else {
            return Flow::Continue;
        };
        let (reply, flow) = self.execute(&line.name, &line.args);
        self.out.line(render(line.id, &reply));
        flow
    }

    fn execute(&mut self, name: &str, args: &[String]) -> (Reply, Flow) {
        if let Some(extra) = args.get(arity(name)).filter(|_| COMMANDS.contains(&name)) {
            return (Err(GtpError::ExtraArgument(extra.clone())), Flow::Continue);
        }
        let reply = match name {
            "quit" => return (Ok(String::new()), Flow::Exit),
            "genmove" | "reg_genmove" => self.genmove(args, name == "genmove"),
            "protocol_version" => Ok("2".into()),
            "name" => Ok("ebony".into()),
            "version" => {
                use crate::build_info::{COMMIT, COMMIT_DATE, VERSION};
                Ok(format!("{VERSION} ({COMMIT} {COMMIT_DATE})"))
            }
            "known_command" => arg::<String>(args, 0, "command").map(|c| COMMANDS.contains(&c.as_str()).to_string()),
            "list_commands" => Ok(COMMANDS.join("\n")),
            "boardsize" => arg::<u32>(args, 0, "size").and_then(|size| match size {
                8 => Ok(String::new()),
                _ => Err(GtpError::UnacceptableSize),
            }),
            "clear_board" => {
                self.engine.new_game(Game::default());
                self.marks.clear();
                Ok(String::new())
            }
            // Othello has no komi: a number is accepted and ignored.
            "komi" => arg::<f64>(args, 0, "komi").and_then(|komi| match komi.is_finite() {
                true => Ok(String::new()),
                false => Err(bad("komi", args.first().map_or("", String::as_str))),
            }),
            "play" => self.play(args),
            "undo" => match self.marks.pop() {
                Some(length) => {
                    while self.engine.game().moves().len() > length {
                        self.engine.undo();
                    }
                    Ok(String::new())
                }
                None => Err(GtpError::CannotUndo),
            },
            "time_settings" => self.time_settings(args),
            "time_left" => self.time_left(args),
            "showboard" => Ok(self.showboard()),
            "final_score" => self.final_score(),
            "list_games" => Ok("Othello".into()),
            "set_game" => match args.first() {
                Some(game) if game.eq_ignore_ascii_case("othello") || game.eq_ignore_ascii_case("reversi") => {
                    Ok(String::new())
                }
                _ => Err(GtpError::UnsupportedGame),
            },
            "gogui-rules_game_id" => Ok("Othello".into()),
            "gogui-rules_board_size" => Ok("8".into()),
            "gogui-rules_board" => Ok(self.rules_board()),
            "gogui-rules_legal_moves" => Ok(self
                .engine
                .game()
                .position()
                .board
                .legal_moves()
                .into_iter()
                .map(vertex)
                .collect::<Vec<_>>()
                .join(" ")),
            "gogui-rules_side_to_move" => Ok(self.engine.game().position().side.name().into()),
            "gogui-rules_final_result" => Ok(match self.black_score() {
                None => "unknown".into(),
                Some(0) => "draw".into(),
                Some(s) if s > 0 => "black".into(),
                Some(_) => "white".into(),
            }),
            "ebony-limit" => self.set_limit(args),
            "ebony-book" => self.set_book(args),
            "" => Err(GtpError::MissingArgument("command")),
            _ => Err(GtpError::UnknownCommand),
        };
        (reply, Flow::Continue)
    }

    /// Passes the side to move when it must pass and `color` is the other side: the GUIs send the
    /// next move of the side that can move and leave the pass out.
    fn pass_until(game: &mut Game, color: Color) -> Result<(), Refusal> {
        let position = game.position();
        if position.side == color {
            return Ok(());
        }
        if position.board.moves() == 0 && !position.board.is_game_over() {
            return game.play(Move::Pass).map_err(Refusal::Rules);
        }
        if position.board.is_game_over() {
            return Err(Refusal::GameOver);
        }
        Err(Refusal::NotToMove(position.side))
    }

    fn play(&mut self, args: &[String]) -> Reply {
        let color = parse_color(args.first().map(String::as_str))?;
        let mv = parse_vertex(args.get(1).map(String::as_str))?;
        let mut trial = self.engine.game().clone();
        let length = trial.moves().len();
        if mv != Move::Pass || trial.position().side != color {
            Self::pass_until(&mut trial, color).map_err(GtpError::Illegal)?;
        }
        trial.play(mv).map_err(|e| GtpError::Illegal(Refusal::Rules(e)))?;
        self.engine.continue_game(trial);
        self.marks.push(length);
        Ok(String::new())
    }

    fn genmove(&mut self, args: &[String], commit: bool) -> Reply {
        let color = parse_color(args.first().map(String::as_str))?;
        let mut trial = self.engine.game().clone();
        let length = trial.moves().len();
        if trial.position().board.is_game_over() {
            return Err(GtpError::CannotMove(Refusal::GameOver));
        }
        Self::pass_until(&mut trial, color).map_err(GtpError::CannotMove)?;
        let board = trial.position().board;
        let mv = if board.moves() == 0 {
            Move::Pass
        } else if let Some(choice) = self.engine.book_move(trial.position()) {
            log::info!("book move {} score {}", choice.mv, choice.score);
            choice.mv
        } else {
            let limits = if self.time.timed() { self.time.limits(color) } else { self.limit };
            self.engine.search(&board, &limits, &mut Watch { inbox: &mut self.inbox, quit: false }).best
        };
        if commit && trial.play(mv).is_ok() {
            self.engine.continue_game(trial);
            self.marks.push(length);
        }
        Ok(vertex(mv))
    }

    fn time_settings(&mut self, args: &[String]) -> Reply {
        let main: u64 = arg(args, 0, "main time")?;
        let byo_yomi: u64 = arg(args, 1, "byo-yomi time")?;
        let stones: u32 = arg(args, 2, "byo-yomi stones")?;
        self.time = TimeControl {
            main: Duration::from_secs(main),
            byo_yomi: Duration::from_secs(byo_yomi),
            stones,
            left: [None; 2],
        };
        Ok(String::new())
    }

    fn time_left(&mut self, args: &[String]) -> Reply {
        let color = parse_color(args.first().map(String::as_str))?;
        let seconds: f64 = arg(args, 1, "time")?;
        let stones: u32 = arg(args, 2, "stones")?;
        let left = Duration::try_from_secs_f64(seconds).map_err(|_| GtpError::BadTime(seconds))?;
        self.time.left[color.index()] = Some((left, stones));
        Ok(String::new())
    }

    /// `ebony-limit depth N | time MS | nodes N | clock`: what `genmove` thinks with when no clock is
    /// set (`clock` goes back to the GUI's clock after a `time_settings`).
    fn set_limit(&mut self, args: &[String]) -> Reply {
        let what = args.first().map(String::as_str).unwrap_or("");
        self.limit = match what {
            "depth" => match arg::<u32>(args, 1, "depth")? {
                depth @ 1..=MAX_DEPTH => Limits::Depth(depth),
                depth => {
                    return Err(GtpError::OutOfRange {
                        what: "depth",
                        value: depth.into(),
                        min: 1,
                        max: MAX_DEPTH.into(),
                    })
                }
            },
            "time" => Limits::MoveTime(Duration::from_millis(in_range(args, "milliseconds", 1, MAX_MS)?)),
            "nodes" => Limits::Nodes(in_range(args, "nodes", 1, u64::MAX)?),
            _ => return Err(GtpError::ExpectedLimit),
        };
        // An explicit limit wins over the GUI's clock.
        self.time = TimeControl::default();
        Ok(String::new())
    }

    /// `ebony-book on | off | randomness N`: whether `genmove` plays from the book, and among the
    /// book moves within how many discs of the best (at most that many over the game).
    fn set_book(&mut self, args: &[String]) -> Reply {
        match (args.first().map(String::as_str), args.len()) {
            (Some("on"), 1) => self.engine.set_book_enabled(true),
            (Some("off"), 1) => self.engine.set_book_enabled(false),
            (Some("randomness"), 2) => {
                let discs = in_range(args, "randomness", 0, 64)?;
                self.engine.set_book_randomness(discs as u32);
            }
            _ => return Err(GtpError::ExpectedBookSetting),
        }
        Ok(String::new())
    }

    /// The final disc difference for black when the game is over.
    fn black_score(&self) -> Option<i32> {
        let position = self.engine.game().position();
        if !position.board.is_game_over() {
            return None;
        }
        let score = position.board.final_score();
        Some(if position.side == Color::Black { score } else { -score })
    }

    fn final_score(&self) -> Reply {
        match self.black_score() {
            None => Err(GtpError::NotOver),
            Some(0) => Ok("0".into()),
            Some(s) if s > 0 => Ok(format!("B+{s}")),
            Some(s) => Ok(format!("W+{}", -s)),
        }
    }

    /// A board picture for `showboard`, starting on a new line as GTP engines do.
    fn showboard(&self) -> String {
        let position = self.engine.game().position();
        // GTP engines start the picture on a new line.
        let mut text = format!("\n{}", position.diagram(true, '.', 2).join("\n"));
        let _ = write!(
            text,
            "\nblack X {} white O {}, {} to move",
            position.black().count_ones(),
            position.white().count_ones(),
            position.side
        );
        text
    }

    /// The board for GoGui: one row a line, the highest row number first, `X`, `O` and `.`.
    fn rules_board(&self) -> String {
        let position = self.engine.game().position();
        let rows: Vec<String> = (0..8u8)
            .rev()
            .map(|rank| {
                (0..8u8)
                    .filter_map(|file| Square::from_file_rank(file, rank))
                    .map(|sq| position.symbol_at(sq, '.'))
                    .collect()
            })
            .collect();
        rows.join("\n")
    }
}

/// GTP has no command that stops a search; a `quit` (or the end of input) waiting in the queue cuts it
/// short, and every queued line is still answered in order.
struct Watch<'a> {
    inbox: &'a mut Inbox,
    quit: bool,
}

impl Observer for Watch<'_> {
    fn poll(&mut self) -> Control {
        if !self.quit && self.inbox.poll(|line| split_line(line).is_some_and(|l| l.name == "quit")) {
            self.quit = true;
        }
        if self.quit {
            Control::Stop
        } else {
            Control::Continue
        }
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    use super::*;

    #[test]
    fn preprocessing_ids_comments_and_tabs() {
        assert_eq!(split_line("   "), None);
        assert_eq!(split_line("# only a comment"), None);
        let line = split_line("12 play\tblack  F5 # the first move\r").unwrap();
        assert_eq!(line, Line { id: Some(12), name: "play".into(), args: vec!["black".into(), "F5".into()] });
        assert_eq!(split_line("genmove w").unwrap().id, None);
    }

    #[test]
    fn replies_carry_ids_and_end_with_a_blank_line() {
        assert_eq!(render(Some(3), &Ok("D3".into())), "=3 D3\n");
        assert_eq!(render(None, &Ok(String::new())), "=\n");
        assert_eq!(render(Some(7), &Err(GtpError::UnknownCommand)), "?7 unknown command\n");
    }

    #[test]
    fn colors_and_vertices() {
        assert_eq!(parse_color(Some("B")), Ok(Color::Black));
        assert_eq!(parse_color(Some("White")), Ok(Color::White));
        assert!(parse_color(Some("red")).is_err());
        assert_eq!(parse_vertex(Some("PASS")), Ok(Move::Pass));
        assert_eq!(parse_vertex(Some("f5")), parse_vertex(Some("F5")));
        assert!(parse_vertex(Some("i9")).is_err());
        assert_eq!(vertex(parse_vertex(Some("d3")).unwrap()), "D3");
    }

    #[test]
    fn quarry_byo_yomi_becomes_a_clock_for_one_stone() {
        let mut time = TimeControl { byo_yomi: Duration::from_secs(5), stones: 1, ..TimeControl::default() };
        assert!(time.timed());
        time.left[1] = Some((Duration::from_secs(5), 1));
        let Limits::Clock { time_left, moves_to_go, .. } = time.limits(Color::White) else {
            panic!("not a clock");
        };
        assert_eq!(moves_to_go, Some(1));
        assert!(time_left < Duration::from_secs(5) && time_left > Duration::from_secs(4));
        assert!(!TimeControl::default().timed());
    }
}
