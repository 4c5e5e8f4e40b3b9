//! The native line protocol's loop (protocol.md is its contract): drives a game session ([`Engine`]),
//! reads lines from the reader thread's channel, runs each `go` on this thread while the
//! search's observer answers `stop`, `isready`, `ping` and `quit` from the same channel and queues
//! every other line until the search is over, so replies always come in the order of the input.

// Input decides what runs here: a panic would kill the engine under a GUI or referee, so the
// ways to panic are refused outright (tests excepted).
#![deny(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

use crate::book::{Book, EXACT_DEPTH};
use crate::engine::{BookChoice, Engine, MoveScore, LEARN_DEPTH};
use crate::eval::Evaluator;
use crate::formats::ggf;
use crate::protocol::inbox::{serve, Arrival, Flow, Frontend, Inbox, MAX_PENDING_BYTES, MAX_PENDING_LINES};
use crate::protocol::io::{self, Input, Output};
use crate::protocol::parser::{self, BookOption, Command, Format, Sides, COMMANDS, MAX_DEPTH};
use crate::protocol::signal;
use crate::protocol::view::{self, board_lines, final_score_for_black, Outcome, Progress, ProgressLine, View};
use crate::rules::board::{Color, Move, Position};
use crate::rules::game::Game;
use crate::search::probcut::DepthLabel;
use crate::search::{proof_word, Control, Info, Limits, Observer};
use std::fmt;
use std::io::Write;
use std::sync::mpsc::Receiver;
use std::time::{Duration, Instant};

/// What `play` without limits thinks with before any `go` or `play` gave limits.
pub const DEFAULT_PLAY_LIMITS: Limits = Limits::MoveTime(Duration::from_secs(1));

/// Runs the native protocol on stdin/stdout until `quit` or end of input, with `book` (read from
/// `book_file`, where `learn` writes it back, if any), for a person at a terminal when `terminal`
/// (standard input is one; see [`View`]).
pub fn run(
    hash_mb: usize,
    evaluator: Evaluator,
    book: Book,
    book_file: Option<std::path::PathBuf>,
    terminal: bool,
    files: bool,
) -> std::io::Result<()> {
    // Ctrl-C stops a search (and quits when pressed twice at the prompt) for a person at a terminal
    // only: in a pipe it ends the process, as a script expects.
    if terminal && !signal::install() {
        log::warn!("Ctrl-C could not be caught: it will end ebony");
    }
    let mut native = Native::new(io::spawn_stdin_reader()?, Output::stdout(), hash_mb, evaluator)
        .with_book(book, book_file)
        .with_view(View::new(terminal));
    native.engine.set_files_allowed(files);
    native.run();
    Ok(())
}

/// The protocol state: the session, the input channel and the one output writer.
pub struct Native<W: Write> {
    engine: Engine,
    /// Input read during a search and not answered then runs before the channel's.
    inbox: Inbox,
    out: Output<W>,
    /// The limits of the last `go`, `play` or `level`, for a `play` without any and ebony's moves
    /// in `mode`.
    limits: Limits,
    /// The limits of the last `level`, for `hint` and `analyze` without any.
    level: Limits,
    /// Who reads the output (a terminal or a pipe) and how much of a search they see.
    view: View,
    /// The sides ebony plays by itself (`mode`).
    sides: Sides,
    /// The moves taken back by `undo`, the last one taken back last, for `redo`.
    undone: Vec<Move>,
    /// The last search was ended by `stop` (ebony then plays no further move by itself).
    interrupted: bool,
    /// The position and moves played when the board was last drawn (a terminal's), so that it is
    /// drawn once per change.
    drawn: Option<(Position, usize)>,
}

impl<W: Write> Native<W> {
    pub fn new(input: Receiver<Input>, out: Output<W>, hash_mb: usize, evaluator: Evaluator) -> Native<W> {
        Native {
            engine: Engine::new(hash_mb, evaluator),
            inbox: Inbox::new(input),
            out,
            limits: DEFAULT_PLAY_LIMITS,
            level: DEFAULT_PLAY_LIMITS,
            view: View::PIPE,
            sides: Sides::default(),
            undone: Vec::new(),
            interrupted: false,
            drawn: None,
        }
    }

    /// Renders for `view` (a pipe's by default).
    pub fn with_view(mut self, view: View) -> Native<W> {
        self.view = view;
        self
    }

    /// Plays from `book` (read from `file`, where `learn` writes it back, if any).
    pub fn with_book(mut self, book: Book, file: Option<std::path::PathBuf>) -> Native<W> {
        self.engine.set_book(book, file);
        self
    }

    /// Answers lines until `quit` or end of input.
    pub fn run(&mut self) {
        if self.view.board_after_moves() {
            self.board();
        }
        serve(self);
    }

    /// Gives back the writer (tests read what was written).
    pub fn into_output(self) -> W {
        self.out.into_inner()
    }
}

impl<W: Write> Frontend for Native<W> {
    fn inbox(&mut self) -> &mut Inbox {
        &mut self.inbox
    }

    fn line(&mut self, line: &str) -> Flow {
        log::debug!("< {line}");
        if self.view.refuses_escapes() && line.contains('\u{1b}') {
            self.out.line("error arrow keys and other escape sequences do nothing here (try help)");
            return Flow::Continue;
        }
        match parser::parse_line(line) {
            Ok(None) => Flow::Continue,
            Ok(Some(command)) => {
                let before = self.state();
                let keeps_redo = matches!(command, Command::Undo(_) | Command::Redo(_));
                let flow = self.execute(command);
                let changed = before != self.state();
                if changed && !keeps_redo {
                    self.undone.clear();
                }
                if changed
                    && flow == Flow::Continue
                    && self.view.board_after_moves()
                    && self.drawn != Some(self.state())
                {
                    self.board();
                }
                flow
            }
            Err(e) => {
                self.out.line(format_args!("error {e}"));
                Flow::Continue
            }
        }
    }

    fn too_long(&mut self, length: usize) {
        self.out.line(format_args!("error line too long: {length} bytes, at most {}", io::MAX_LINE));
    }

    fn dropped(&mut self, count: usize) {
        self.out.line(format_args!(
            "error input queue full: {count} lines dropped during the search (at most {MAX_PENDING_LINES} lines, \
             {MAX_PENDING_BYTES} bytes wait)"
        ));
    }

    /// At a terminal, a prompt when ebony waits for the person (lines typed ahead run without one
    /// between them), and Ctrl-C at it: once says how to quit, twice quits.
    fn next_input(&mut self) -> Input {
        if !self.view.terminal {
            return self.inbox.next_input();
        }
        if let Some(input) = self.inbox.next_within(TYPED_AHEAD) {
            return input;
        }
        // A Ctrl-C pressed before the prompt was for what ran then.
        signal::take();
        let mut warned = false;
        self.out.prompt(self.prompt());
        loop {
            if let Some(input) = self.inbox.next_within(PROMPT_POLL) {
                // A line's Enter, echoed, ended the prompt's row; Ctrl-D (end of input) did not.
                match input {
                    Input::Eof => self.out.end_row(),
                    _ => self.out.answered(),
                }
                return input;
            }
            if signal::take() {
                self.out.echoed();
                if warned {
                    self.out.end_row();
                    return Input::Eof;
                }
                warned = true;
                self.out.line("Ctrl-C again to quit, or type a command");
                self.out.prompt(self.prompt());
            }
        }
    }
}

/// How long a terminal's loop waits for a line already typed before it prompts: lines typed or
/// pasted ahead arrive together, and a prompt between them would only break their output up.
const TYPED_AHEAD: Duration = Duration::from_millis(50);
/// How often the prompt looks for Ctrl-C while it waits for a line.
const PROMPT_POLL: Duration = Duration::from_millis(50);

impl<W: Write> Native<W> {
    fn execute(&mut self, command: Command) -> Flow {
        match command {
            Command::New => {
                self.set_game(Game::default());
                return self.respond();
            }
            // The table is kept: its entries are whole positions, right in any game, and a referee
            // or GUI that sends the position before every move would otherwise lose them (and pay
            // for clearing the table) each time.
            Command::SetBoard(position) => {
                self.engine.continue_game(Game::new(position));
                return self.respond();
            }
            Command::Move(moves) => {
                if self.play(&moves) {
                    return self.respond();
                }
            }
            // Taking moves back under `mode` may leave ebony's side to move: it moves, as after any
            // other command that does.
            Command::Undo(count) => {
                if self.undo(count) {
                    return self.respond();
                }
            }
            Command::Redo(count) => {
                if self.redo(count) {
                    return self.respond();
                }
            }
            Command::Mode(sides) => {
                self.sides = sides;
                return self.respond();
            }
            Command::Level(limits) => {
                self.limits = limits;
                self.level = limits;
            }
            Command::Hint(count, limits) => {
                let limits = limits.unwrap_or_else(|| self.analysis_level());
                return self.analyze(&limits, "hint", Some(count));
            }
            Command::Verbose(verbosity) => self.view.verbosity = verbosity,
            Command::Board => self.out.line(format_args!("board {}", self.engine.position())),
            Command::Version => {
                self.out.line(format_args!("version {} {}", env!("CARGO_PKG_NAME"), crate::build_info::describe()))
            }
            Command::Moves => self.out.line(MoveList("moves", &self.engine.game().moves().collect::<Vec<_>>())),
            Command::Go(limits) => {
                self.limits = limits;
                return self.go(&limits, false);
            }
            Command::Play(limits) => {
                let limits = limits.unwrap_or(self.limits);
                self.limits = limits;
                return self.go(&limits, true);
            }
            Command::Analyze(limits) => {
                let limits = limits.unwrap_or_else(|| self.analysis_level());
                return self.analyze(&limits, "analysis", None);
            }
            // Nothing to stop: a `stop` that crosses the `bestmove` on the wire is normal, not an error.
            Command::Stop => {}
            Command::IsReady => self.out.line("readyok"),
            Command::Ping(n) => self.out.line(format_args!("pong {n}")),
            Command::Quit => return Flow::Exit,
            Command::Show => self.show(),
            Command::Eval => self.eval(),
            Command::Load(file) => {
                if self.load(&file) {
                    return self.respond();
                }
            }
            Command::Save(format, file) => self.save(format, file.as_deref()),
            Command::SetHash(mb) => self.engine.set_hash_mb(mb),
            Command::SetSelectivity(level) => self.engine.set_selectivity(level),
            Command::SetBook(BookOption::On) => self.engine.set_book_enabled(true),
            Command::SetBook(BookOption::Off) => self.engine.set_book_enabled(false),
            Command::SetBook(BookOption::Randomness(discs)) => self.engine.set_book_randomness(discs),
            Command::Learn(depth) => self.learn(depth.unwrap_or(LEARN_DEPTH)),
            Command::Help(name) => self.help(name),
        }
        Flow::Continue
    }

    /// `hint` and `analyze` without limits think as the level says: its depth (2 at least: a move
    /// and one ply after it), or its time. A `go` or `play` does not change it.
    fn analysis_level(&self) -> Limits {
        match self.level {
            Limits::Depth(depth) => Limits::Depth(depth.max(2)),
            Limits::MoveTime(time) => Limits::MoveTime(time),
            _ => DEFAULT_PLAY_LIMITS,
        }
    }

    /// Whether the side to move is one `mode` gave ebony (in a game not over).
    fn ebony_to_move(&self) -> bool {
        let game = self.engine.game();
        let ours = match game.position().side {
            Color::Black => self.sides.black,
            Color::White => self.sides.white,
        };
        ours && !game.is_over()
    }

    /// Whether the side to move is ebony's and has no move but to pass.
    fn ebony_must_pass(&self) -> bool {
        self.ebony_to_move() && self.engine.position().board.legal_moves() == [Move::Pass]
    }

    /// Plays ebony's moves while the side to move is one `mode` gave it (several in a row across
    /// passes, the whole game with `mode both`), each a `play` with the current limits. A `stop`
    /// plays the move found and ends the run.
    fn respond(&mut self) -> Flow {
        while self.ebony_to_move() {
            // At a terminal ebony's pass is announced, and nobody is asked to type it.
            if self.ebony_must_pass() && self.view.board_after_moves() {
                let side = self.engine.position().side;
                self.out.line(format_args!("{side} has no move: ebony passes"));
            }
            let played = self.engine.game().moves().len();
            let limits = self.limits;
            if self.go(&limits, true) == Flow::Exit {
                return Flow::Exit;
            }
            if self.engine.game().moves().len() > played {
                // A move of ebony's changes the position: what undo took back is forgotten.
                self.undone.clear();
            }
            if self.interrupted || self.engine.game().moves().len() == played {
                return Flow::Continue;
            }
            // Each of ebony's moves is followed by its board (with `mode both`, move after move),
            // but for a pass of its own to come: the board follows the pass.
            if self.view.board_after_moves() && !self.ebony_must_pass() {
                self.board();
            }
        }
        Flow::Continue
    }

    /// A terminal's prompt (see [`view::prompt`]).
    fn prompt(&self) -> String {
        view::prompt(self.engine.position(), self.ebony_to_move())
    }

    /// What the board shows: the position and how many moves led to it.
    fn state(&self) -> (Position, usize) {
        (*self.engine.position(), self.engine.game().moves().len())
    }

    /// `help [COMMAND]`: one brief line a command, or one command's usage, whole text and other
    /// names; in 80 columns in a pipe as at a terminal.
    fn help(&mut self, name: Option<&'static str>) {
        let Some(name) = name else {
            for spec in COMMANDS {
                self.out.line(format_args!("{:<w$} {}", spec.name, spec.brief, w = parser::NAME_WIDTH));
            }
            self.out.line("a move alone (f5, f5d6, pass) plays it; help COMMAND says more of one");
            return;
        };
        for spec in COMMANDS.iter().filter(|spec| spec.name == name) {
            for line in view::wrap(&spec.usage(), 0).into_iter().chain(view::wrap(spec.help, 2)) {
                self.out.line(line);
            }
            if !spec.aliases.is_empty() {
                self.out.line(format_args!("  also: {}", spec.aliases.join(", ")));
            }
        }
    }

    /// The board as a person sees it after a move (a terminal's).
    fn board(&mut self) {
        let last = self.engine.game().moves().last();
        for line in board_lines(self.engine.position(), last) {
            self.out.line(line);
        }
        self.drawn = Some(self.state());
    }

    fn set_game(&mut self, game: Game) {
        self.engine.new_game(game);
    }

    /// Plays `moves` (all or none); whether they were played. A refused move is answered with what
    /// was legal where it was tried.
    fn play(&mut self, moves: &[Move]) -> bool {
        let Err((i, e)) = self.engine.play_all(moves) else { return true };
        let mut there = self.engine.game().clone();
        // The moves before the refused one are legal: they replay.
        let _ = there.play_all(moves.get(..i).unwrap_or_default());
        if moves.len() == 1 {
            self.out.line(format_args!("error move: {e} ({})", Instead(there.position(), "legal:")));
        } else {
            let failed = moves.get(i).map_or_else(String::new, |&mv| mv.to_string());
            let instead = Instead(there.position(), "legal there:");
            self.out.line(format_args!(
                "error move: move {} of {} ({failed}) is illegal: {e} ({instead}); no move played",
                i + 1,
                moves.len()
            ))
        }
        false
    }

    /// `undo [N]`; whether the moves were taken back.
    fn undo(&mut self, count: u32) -> bool {
        let played = self.engine.game().moves().len();
        if played < count as usize {
            let fix = match played {
                0 => "no move to take back".to_string(),
                1 => "undo takes it back".to_string(),
                _ => format!("undo {played} takes them all back"),
            };
            self.out.line(format_args!("error undo: cannot undo {count}, moves played: {played} ({fix})"));
            return false;
        }
        for _ in 0..count {
            self.undone.extend(self.engine.undo());
        }
        true
    }

    /// `redo [N]`: the last N moves `undo` took back, played again; whether they were.
    fn redo(&mut self, count: u32) -> bool {
        let left = self.undone.len();
        if left < count as usize {
            let fix = match left {
                0 => "redo plays again what undo took back".to_string(),
                1 => "redo plays it again".to_string(),
                _ => format!("redo {left} plays them all again"),
            };
            self.out.line(format_args!("error redo: cannot redo {count}, moves taken back: {left} ({fix})"));
            return false;
        }
        for _ in 0..count {
            let Some(mv) = self.undone.pop() else { break };
            if let Err(e) = self.engine.play(mv) {
                self.undone.clear();
                self.out.line(format_args!("error redo: {e}"));
                return false;
            }
        }
        true
    }

    /// `go`, and `play` (`then_play`): the search, its bestmove, and for `play` the move played.
    fn go(&mut self, limits: &Limits, then_play: bool) -> Flow {
        let name = if then_play { "play" } else { "go" };
        if self.engine.game().is_over() {
            self.out.line(format_args!("error {name}: the game is over ({GAME_OVER_FIX})"));
            return Flow::Continue;
        }
        let position = *self.engine.game().position();
        let board = position.board;
        // `go infinite` is an analysis: it searches even where the book has a move.
        let book = if *limits == Limits::Infinite { None } else { self.engine.book_move(&position) };
        self.interrupted = false;
        let best = if let Some(choice) = book {
            if self.view.progress() != Progress::Hidden {
                self.out.line(self.view.scores_line(BookInfo(&choice)));
            }
            self.out.line(format_args!("bestmove {}", choice.mv));
            choice.mv
        } else {
            let progress = self.view.progress();
            let infinite = *limits == Limits::Infinite;
            let mut listener = Listener::new(&mut self.inbox, &mut self.out, infinite, progress, self.view.terminal);
            let result = self.engine.search(&board, limits, &mut listener);
            let quit = listener.quit;
            self.interrupted = listener.stop;
            self.out.line(format_args!("bestmove {}", result.best));
            if quit {
                return Flow::Exit;
            }
            result.best
        };
        if then_play {
            if let Err(e) = self.engine.play(best) {
                self.out.line(format_args!("error play: {e}"));
            }
        }
        Flow::Continue
    }

    /// `analyze`: every legal move scored, deeper and deeper up to the depth or until the time is
    /// up; the last depth completed is printed, best first, then `analysis end`.
    /// `hint N` is the same analysis, its N best moves printed as `hint` lines, without an end line.
    fn analyze(&mut self, limits: &Limits, label: &'static str, count: Option<usize>) -> Flow {
        if self.engine.game().is_over() {
            let name = if count.is_some() { "hint" } else { "analyze" };
            self.out.line(format_args!("error {name}: the game is over ({GAME_OVER_FIX})"));
            return Flow::Continue;
        }
        let board = self.engine.game().position().board;
        let (deepest, budget) = match *limits {
            Limits::Depth(depth) => (depth, None),
            Limits::MoveTime(time) => (MAX_DEPTH, Some(time)),
            _ => (MAX_DEPTH, None),
        };
        let start = Instant::now();
        let mut listener = Listener::new(&mut self.inbox, &mut self.out, false, Progress::Hidden, self.view.terminal);
        let mut last = Vec::new();
        // From two plies: a move and one ply after it.
        for depth in 2..=deepest.max(2) {
            let Some(scored) = self.engine.score_moves(&board, depth, &mut listener) else {
                break;
            };
            let solved = scored.iter().all(|s| s.exact);
            last = scored;
            // The time counts from the first complete list on, so that there is always one.
            listener.deadline = budget.map(|budget| start + budget);
            if solved || listener.expired() {
                break;
            }
        }
        let quit = listener.quit;
        for scored in last.iter().take(count.unwrap_or(usize::MAX)) {
            self.out.line(self.view.scores_line(AnalysisLine(label, scored)));
        }
        if count.is_none() {
            self.out.line("analysis end");
        }
        if quit {
            Flow::Exit
        } else {
            Flow::Continue
        }
    }

    /// `learn`: the game so far into the book, written back to the book's file when it has one.
    fn learn(&mut self, depth: u32) {
        if let (Some(_), Err(reason)) = (self.engine.book_file(), self.engine.files_allowed()) {
            return self.out.line(format_args!("error learn: {reason}"));
        }
        let added = self.engine.learn(depth);
        if let Some(file) = self.engine.book_file() {
            if let Err(e) = self.engine.book().write_file(file) {
                return self.out.line(format_args!("error learn: {}", io::escape_controls(&e)));
            }
        }
        self.out.line(format_args!("learned {added} positions added, {} in the book", self.engine.book().len()));
    }

    /// `eval`: the static evaluation for the side to move, or the result of a finished game.
    fn eval(&mut self) {
        let position = *self.engine.game().position();
        if position.board.is_game_over() {
            let score = position.board.final_score();
            let black = final_score_for_black(&position);
            self.out.line(format_args!("eval {score} for {} game over {}", position.side, Outcome(black)));
        } else {
            // The static evaluation is an estimate no search stands behind (a search may well
            // disagree): the line says so, after the number a script reads.
            self.out.line(format_args!("eval {} for {} {STATIC}", self.engine.evaluate(), position.side));
        }
    }

    /// `load FILE`: a GGF record or a transcript; the game is replaced only when the whole file reads.
    /// Whether the game was replaced.
    fn load(&mut self, file: &str) -> bool {
        if let Err(reason) = self.engine.files_allowed() {
            self.out.line(format_args!("error load: {reason}"));
            return false;
        }
        let text = match std::fs::read_to_string(file) {
            Ok(text) => text,
            Err(e) => {
                self.out.line(format_args!("error load: cannot read {}: {e}", FileName(file)));
                return false;
            }
        };
        match read_game(&text) {
            Ok(game) => {
                self.engine.new_game(game);
                true
            }
            Err(e) => {
                self.out.line(format_args!("error load: {}: {e}", FileName(file)));
                false
            }
        }
    }

    /// `save FORMAT [FILE]`: the game written to FILE, or printed.
    fn save(&mut self, format: Format, file: Option<&str>) {
        if let (Some(_), Err(reason)) = (file, self.engine.files_allowed()) {
            return self.out.line(format_args!("error save: {reason}"));
        }
        let game = self.engine.game();
        let (label, text) = match format {
            Format::Ggf => ("ggf", ggf::write(game)),
            Format::Transcript if game.start() != &Position::START => {
                return self.out.line("error save: a transcript starts from the start position; save as ggf");
            }
            Format::Transcript => ("transcript", transcript(game)),
        };
        match file {
            None if text.is_empty() => self.out.line(label),
            None => self.out.line(format_args!("{label} {text}")),
            // Whole or not at all: a reader of FILE never sees half a game.
            Some(file) => {
                if let Err(e) = crate::formats::replace_file(std::path::Path::new(file), format!("{text}\n").as_bytes())
                {
                    self.out.line(format_args!("error save: cannot write {}: {e}", FileName(file)));
                }
            }
        }
    }

    fn show(&mut self) {
        let position = *self.engine.game().position();
        let last = match self.engine.game().moves().last() {
            Some(Move::Play(square)) => Some(square),
            _ => None,
        };
        for (row, line) in position.diagram(false, '-', 1).into_iter().enumerate() {
            // The disc of the last move in lower case: row 1 + rank, column 2 + 2 * file.
            let marked = match last {
                Some(sq) if row == usize::from(sq.rank()) + 1 => line
                    .char_indices()
                    .map(|(i, c)| if i == 2 + 2 * usize::from(sq.file()) { c.to_ascii_lowercase() } else { c })
                    .collect(),
                _ => line,
            };
            self.out.line(marked);
        }
        let (black, white) = (position.black().count_ones(), position.white().count_ones());
        let legal = position.board.legal_moves();
        // Nobody moves in a finished game: the board string keeps a side (setboard needs one),
        // the counts line does not name it.
        if legal.is_empty() {
            self.out.line(format_args!("black X {black} white O {white} game over"));
        } else {
            self.out.line(format_args!("black X {black} white O {white} {} to move", position.side));
        }
        if legal.is_empty() {
            let score = final_score_for_black(&position);
            self.out.line(format_args!("game over {}", Outcome(score)));
        } else {
            self.out.line(MoveList("legal", &legal));
        }
        self.out.line(format_args!("board {position}"));
    }
}

/// What `eval` says of its number: no search stands behind it.
const STATIC: &str = "(static evaluation, no search)";

/// The search's view of the loop: polled from inside the search, it drains the input channel.
/// `stop` and `quit` act at once; `isready` and `ping` are answered at once unless earlier lines
/// wait (then they wait behind them, keeping replies in input order); every other line, and end of
/// input, waits in `pending` for the loop. At a terminal Ctrl-C stops the search too, and `quit`
/// stops it but waits its turn: what the person typed before it runs first.
struct Listener<'a, W: Write> {
    inbox: &'a mut Inbox,
    out: &'a mut Output<W>,
    /// `go infinite` would never end once input has ended, so end of input stops it.
    infinite: bool,
    stop: bool,
    /// Exit once the bestmove is out, dropping what waits.
    quit: bool,
    /// `analyze time`: stop the searches at this instant.
    deadline: Option<Instant>,
    /// How `info` lines show (hidden for the many searches of `analyze`).
    progress: Progress,
    /// A person at a terminal types the input (see [`Listener`]).
    terminal: bool,
}

impl<'a, W: Write> Listener<'a, W> {
    fn new(
        inbox: &'a mut Inbox,
        out: &'a mut Output<W>,
        infinite: bool,
        progress: Progress,
        terminal: bool,
    ) -> Listener<'a, W> {
        Listener { inbox, out, infinite, stop: false, quit: false, deadline: None, progress, terminal }
    }

    fn expired(&self) -> bool {
        self.deadline.is_some_and(|d| Instant::now() >= d)
    }
}

impl<W: Write> Observer for Listener<'_, W> {
    fn poll(&mut self) -> Control {
        let Listener { inbox, out, stop, quit, terminal, .. } = self;
        // Lines after a stop stay in the channel for the loop: `stop` then `move f5` is normal.
        if !*stop {
            *stop = inbox.drain(|line, nothing_waits| {
                log::debug!("< {line} (searching)");
                // The line typed sits under the progress line, which stays as it is from now on.
                out.freeze();
                let answered = Arrival { queue: false, interrupt: false };
                match parser::parse_line(line) {
                    Ok(None) => answered,
                    Ok(Some(Command::Stop)) => Arrival { queue: false, interrupt: true },
                    Ok(Some(Command::Quit)) if *terminal => Arrival { queue: true, interrupt: true },
                    Ok(Some(Command::Quit)) => {
                        *quit = true;
                        Arrival { queue: false, interrupt: true }
                    }
                    Ok(Some(Command::IsReady)) if nothing_waits => {
                        out.line("readyok");
                        answered
                    }
                    Ok(Some(Command::Ping(n))) if nothing_waits => {
                        out.line(format_args!("pong {n}"));
                        answered
                    }
                    // Errors too wait their turn: one reply per line, in input order.
                    Ok(Some(_)) | Err(_) => Arrival { queue: true, interrupt: false },
                }
            });
        }
        if self.terminal && signal::take() {
            self.out.echoed();
            self.stop = true;
        }
        if self.infinite && self.inbox.is_closed() || self.expired() {
            self.stop = true;
        }
        if self.stop {
            Control::Stop
        } else {
            Control::Continue
        }
    }

    fn info(&mut self, info: &Info) {
        match self.progress {
            Progress::Hidden => {}
            Progress::OneLine => {
                // A line typed (Enter pressed) and not yet read sits where the rewrite would go: the
                // system's buffer and the reader are asked first, then the channel is drained, so
                // that a line on its way is seen in one or the other (see `Output::progress`).
                if self.terminal && io::line_on_its_way() {
                    self.out.freeze();
                }
                self.poll();
                self.out.progress(ProgressLine(info));
            }
            Progress::EveryLine => self.out.line(InfoLine(info)),
        }
    }
}

/// `info depth D[@P%] score S [exact|win|loss] nodes N time MS nps N [pv MOVE ...]`.
struct InfoLine<'a>(&'a Info);

impl fmt::Display for InfoLine<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let info = self.0;
        write!(f, "info depth {} score {}", DepthLabel(info.depth, info.selectivity), info.score)?;
        if let Some(word) = proof_word(info.exact, info.outcome) {
            write!(f, " {word}")?;
        }
        write!(f, " nodes {} time {} nps {}", info.nodes, info.elapsed.as_millis(), info.nps())?;
        if !info.pv.is_empty() {
            write!(f, " {}", MoveList("pv", &info.pv))?;
        }
        Ok(())
    }
}

/// `analysis MOVE score S [exact|win|loss] depth D pv MOVE ...`: one move of `analyze` (or `hint`,
/// the label), scored for the side to move.
struct AnalysisLine<'a>(&'static str, &'a MoveScore);

impl fmt::Display for AnalysisLine<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let s = self.1;
        write!(f, "{} {} score {}", self.0, s.mv, s.score)?;
        if let Some(word) = proof_word(s.exact, s.outcome) {
            write!(f, " {word}")?;
        }
        write!(f, " depth {} {}", DepthLabel(s.depth, s.selectivity), MoveList("pv", &s.pv))
    }
}

/// `info book score S [exact] depth D pv MOVE ...`: the move comes from the book (`depth` is the
/// level of the book's searches, left out when the score is exact).
struct BookInfo<'a>(&'a BookChoice);

impl fmt::Display for BookInfo<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let c = self.0;
        write!(f, "info book score {}", c.score)?;
        if c.exact || c.depth == EXACT_DEPTH as u32 {
            write!(f, " exact")?;
        } else {
            write!(f, " depth {}", c.depth)?;
        }
        write!(f, " {}", MoveList("pv", &c.pv))
    }
}

/// The moves of a game started from the start position, run together (`f5d6c3`), passes left out as
/// transcripts leave them.
fn transcript(game: &Game) -> String {
    game.moves().filter(|&mv| mv != Move::Pass).map(|mv| mv.to_string()).collect()
}

/// Reads a game file (`load`, `ebony book learn`): a GGF record, or a transcript (squares run
/// together from the start position, whitespace and line breaks anywhere between squares, the passes
/// it leaves out played where the side to move has none).
pub fn read_game(text: &str) -> Result<Game, NotAGame> {
    let body = text.trim_start();
    let skipped = &text[..text.len() - body.len()];
    let first_line = 1 + skipped.matches('\n').count();
    if body.starts_with("(;") {
        let line_at = |at: usize| first_line + body.get(..at).map_or(0, |before| before.matches('\n').count());
        return ggf::parse(body.trim_end()).and_then(|record| record.to_game()).map_err(|e| match e {
            ggf::GgfError::Syntax(at) => NotAGame::Ggf(line_at(at), ggf_reason(&e)),
            _ => NotAGame::Ggf(first_line, ggf_reason(&e)),
        });
    }
    // Each square with the line it starts on.
    let mut letters = text
        .lines()
        .enumerate()
        .flat_map(|(i, line)| line.chars().filter(|c| !c.is_whitespace()).map(move |c| (i + 1, c)))
        .peekable();
    if letters.peek().is_none() {
        return Err(NotAGame::Empty);
    }
    let mut game = Game::default();
    let mut number = 0;
    while let Some((line, first)) = letters.next() {
        number += 1;
        let second = letters.next().map(|(_, c)| c);
        let square = second
            .and_then(|second| [first, second].iter().collect::<String>().parse().ok())
            .ok_or_else(|| NotAGame::Transcript(line, format!("move {number} is not a square a1 to h8")))?;
        let position = game.position();
        if position.board.moves() == 0 && !position.board.is_game_over() {
            game.play(Move::Pass).map_err(|e| NotAGame::Transcript(line, illegal(number, &e)))?;
        }
        game.play(Move::Play(square)).map_err(|e| NotAGame::Transcript(line, illegal(number, &e)))?;
    }
    Ok(game)
}

/// Why a file holds no game, in words of the format alone and a line number (from 1): never any of
/// the file's text, which may be anything at all (`load /etc/passwd`), nor a square of it.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum NotAGame {
    /// Nothing but whitespace.
    Empty,
    /// Not a transcript: the line of the bad square and what is wrong with it.
    Transcript(usize, String),
    /// Starts as a GGF record and is not one: the line of the bad property (else the line the
    /// record starts on) and what is wrong.
    Ggf(usize, String),
}

impl NotAGame {
    /// The same error for a text that is line `line` of a file (a game a line, as `ebony book learn`
    /// reads them).
    pub fn on_line(self, line: usize) -> NotAGame {
        match self {
            NotAGame::Empty => NotAGame::Empty,
            NotAGame::Transcript(_, why) => NotAGame::Transcript(line, why),
            NotAGame::Ggf(_, why) => NotAGame::Ggf(line, why),
        }
    }
}

impl fmt::Display for NotAGame {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NotAGame::Empty => f.write_str("empty file: expected a GGF record or a transcript like f5d6c3"),
            NotAGame::Transcript(line, why) => write!(f, "not a transcript: line {line}: {why}"),
            NotAGame::Ggf(line, why) => write!(f, "not a GGF record: line {line}: {why}"),
        }
    }
}

/// Why move `number` of a transcript or record is illegal, without its square.
fn illegal(number: usize, e: &crate::rules::board::IllegalMove) -> String {
    use crate::rules::board::IllegalMove;
    let why = match e {
        IllegalMove::GameOver => "the game is over",
        IllegalMove::Occupied(_) => "its square is occupied",
        IllegalMove::NoFlips(_) => "it flips no disc",
        IllegalMove::PassWithMoves => "a pass while a move is available",
    };
    format!("move {number} is illegal: {why}")
}

/// A GGF error in words of the format alone (the values of the record left out).
fn ggf_reason(e: &ggf::GgfError) -> String {
    use ggf::GgfError;
    match e {
        GgfError::Delimiters => "a GGF record starts with \"(;\" and ends with \";)\"".into(),
        GgfError::Syntax(_) => "bad property: expected KEY[value]".into(),
        GgfError::NotOthello(_) => "GM[...] names another game than Othello".into(),
        GgfError::NoBoard => "no BO[...] start board".into(),
        GgfError::BadBoard(_) => "bad BO[...] start board".into(),
        GgfError::BadMove(_) => "bad move: expected a square or PA, then /eval/time".into(),
        GgfError::BadClock(_) => "bad clock: expected [[hh:]mm:]ss[/inc[/ext]]".into(),
        GgfError::Illegal(i, why) => illegal(i + 1, why),
        GgfError::OutOfTurn(i) => format!("move {} is played out of turn", i + 1),
    }
}

/// A file name in an error line: quoted whole (a name cut short would not say which file), control
/// characters escaped.
struct FileName<'a>(&'a str);

impl fmt::Display for FileName<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "'{}'", io::escape_controls(self.0))
    }
}

/// A label followed by moves, space separated.
/// What goes on from a finished game, for the errors of the commands that need a move to play.
const GAME_OVER_FIX: &str = "new starts another, undo takes back moves";

/// What would have been legal in a position where a move was refused, after a label: `legal: d3 c4
/// f5 e6` (`legal: pass`); or how to go on from a finished game.
struct Instead<'a>(&'a Position, &'static str);

impl fmt::Display for Instead<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let legal = self.0.board.legal_moves();
        if legal.is_empty() {
            return f.write_str(GAME_OVER_FIX);
        }
        write!(f, "{}", MoveList(self.1, &legal))
    }
}

struct MoveList<'a>(&'static str, &'a [Move]);

impl fmt::Display for MoveList<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.0)?;
        for &mv in self.1 {
            write!(f, " {}", mv)?;
        }
        Ok(())
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]
mod tests {
    use super::*;

    /// Runs a whole session through the loop without a process.
    fn session(input: &str) -> Vec<String> {
        let reader = io::spawn_reader(std::io::Cursor::new(input.as_bytes().to_vec())).unwrap();
        let mut engine = Native::new(reader, Output::new(Vec::new()), 1, Evaluator::default());
        engine.run();
        let bytes = engine.into_output();
        String::from_utf8(bytes).unwrap().lines().map(str::to_string).collect()
    }

    #[test]
    fn ping_isready_and_errors_one_line_each() {
        let out = session("ping 3\n\nisready\nbogus\nmove a1\nquit\nping 4\n");
        assert_eq!(
            out,
            [
                "pong 3",
                "readyok",
                "error unknown command 'bogus' (try help)",
                "error move: a1 flips no disc (legal: d3 c4 f5 e6)"
            ]
        );
    }

    #[test]
    fn moves_undo_and_list() {
        let out = session("move f5d6\nmoves\nundo\nmoves\nundo 2\nmove c3 a1 a2\nmoves\n");
        assert_eq!(
            out,
            [
                "moves f5 d6",
                "moves f5",
                "error undo: cannot undo 2, moves played: 1 (undo takes it back)",
                "error move: move 1 of 3 (c3) is illegal: c3 flips no disc (legal there: f4 d6 f6); no move played",
                "moves f5",
            ]
        );
    }

    #[test]
    fn go_prints_one_bestmove_and_keeps_the_position() {
        let out = session("go depth 2\nmoves\n");
        assert_eq!(out.iter().filter(|l| l.starts_with("bestmove ")).count(), 1);
        assert!(out.iter().any(|l| l.starts_with("info depth 2@87% score ")));
        assert_eq!(out.last().map(String::as_str), Some("moves"));
    }

    #[test]
    fn show_prints_board_and_pasteable_string() {
        let out = session("show\n");
        assert_eq!(out.len(), 13);
        assert_eq!(out[4], "4 - - - O X - - - 4");
        assert_eq!(out[10], "black X 2 white O 2 black to move");
        assert_eq!(out[11], "legal d3 c4 f5 e6");
        assert_eq!(out[12], format!("board {}", Position::START));
    }

    /// Random sessions: the loop never panics, and every line it prints is one of the protocol's.
    #[test]
    fn random_sessions_print_only_protocol_lines() {
        let lines = [
            "new",
            "setboard start",
            "move f5",
            "move d6",
            "move c3",
            "move pass",
            "move f5d6c3",
            "move a1",
            "undo",
            "undo 2",
            "moves",
            "go depth 1",
            "go nodes 50",
            "play depth 1",
            "analyze depth 2",
            "save transcript",
            "save ggf",
            "load /nonexistent/game.ggf",
            "go depth x",
            "show",
            "eval",
            "isready",
            "ping 1",
            "stop",
            "set hash 1",
            "bogus",
            "\u{0}\u{fffd}",
            "",
        ];
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut input = String::new();
        for _ in 0..3000 {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            input.push_str(lines[(seed % lines.len() as u64) as usize]);
            input.push('\n');
        }
        let board_row = |l: &str| l.starts_with(|c: char| c.is_ascii_digit() || c == ' ');
        let known = [
            "info ",
            "bestmove ",
            "error ",
            "readyok",
            "pong ",
            "moves",
            "eval ",
            "analysis ",
            "transcript",
            "ggf (;",
            "black X ",
            "legal ",
            "game over ",
            "board ",
        ];
        for line in session(&input) {
            assert!(known.iter().any(|k| line.starts_with(k)) || board_row(&line), "{line:?}");
        }
    }

    #[test]
    fn finished_game_refuses_go() {
        let full_black = format!("setboard {} O\ngo depth 1\nshow\n", "X".repeat(64));
        let out = session(&full_black);
        assert_eq!(out[0], "error go: the game is over (new starts another, undo takes back moves)");
        assert_eq!(out[12], "game over black wins by 64");
    }
}
