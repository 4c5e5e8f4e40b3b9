//! `ebony book ...`: grow a book file best-first (resumable, with progress and an ETA on stderr,
//! shardable), merge shards, learn games into it, show a position's book moves, print its counts,
//! and measure its values against deeper searches.

use crate::book::build::{self, Builder, Candidate, Learning, Params};
use crate::book::{Book, BookMove, EXACT_DEPTH};
use crate::eval::Evaluator;
use crate::rules::board::{Board, Move, Position};
use crate::search::{Limits, Searcher, Silent};
use std::path::Path;
use std::process::ExitCode;
use std::time::{Duration, Instant};

pub fn read(path: &Path) -> Result<Book, String> {
    Book::read_file(path)
}

pub fn write(book: &Book, path: &Path) -> Result<(), String> {
    book.write_file(path)
}

/// The book at FILE, or a new empty one when there is no such file (a build or learning starts it).
fn read_or_new(path: &Path) -> Result<Book, String> {
    if path.exists() {
        read(path)
    } else {
        Ok(Book::new())
    }
}

/// The book of a command: FILE, or the built-in one.
fn book_or_built_in(path: Option<&Path>) -> Result<Book, String> {
    match path {
        Some(path) => read(path),
        None => Book::built_in().map_err(|e| format!("the built-in book: {e}")),
    }
}

fn fail(message: &str) -> ExitCode {
    super::usage_error(message)
}

/// When a build stops.
pub struct Budget {
    /// Stop once the book holds this many positions.
    pub positions: Option<usize>,
    /// Stop after this long (a running expansion is finished first).
    pub time: Option<Duration>,
}

/// What a growing command does to the book, a position at a time.
#[derive(Clone, Copy)]
enum Job {
    /// `book build` and `book extend`: expand the cheapest position.
    Expand,
    /// `book deepen`: score the cheapest shallow position again at the build's depth.
    Deepen,
}

impl Job {
    /// The next position to work on, if any is left within the deviation and the plies.
    fn next(self, builder: &Builder, book: &Book) -> Option<Candidate> {
        match self {
            Job::Expand => builder.candidate(book),
            Job::Deepen => builder.shallow_candidate(book),
        }
    }

    /// Works on `board`; the positions added.
    fn work(self, builder: &mut Builder, book: &mut Book, board: &Board) -> usize {
        match self {
            Job::Expand => builder.expand(book, board),
            Job::Deepen => builder.deepen(book, board),
        }
    }

    /// What the budget's positions count after `done` positions: the book's size for a build, the
    /// positions scored again for a deepening.
    fn counted(self, book: &Book, done: usize) -> usize {
        match self {
            Job::Expand => book.len(),
            Job::Deepen => done,
        }
    }
}

/// Why a growing command stopped.
enum Ended {
    BudgetReached,
    NothingLeft,
}

/// The loop of `book build`, `book extend` and `book deepen`: the next position the job wants,
/// worked on, and FILE written after each (so that an interrupted run resumes where it stopped),
/// until the budget is spent or no position is left. `report(book, candidate, added, done, seconds)`
/// follows each write. Returns why it stopped and the positions done.
fn work_through(
    job: Job,
    book: &mut Book,
    path: &Path,
    builder: &mut Builder,
    budget: &Budget,
    started: Instant,
    mut report: impl FnMut(&Book, &Candidate, usize, usize, f64),
) -> Result<(Ended, usize), String> {
    let mut done = 0usize;
    loop {
        let counted = job.counted(book, done);
        if budget.positions.is_some_and(|n| counted >= n) || budget.time.is_some_and(|t| started.elapsed() >= t) {
            return Ok((Ended::BudgetReached, done));
        }
        let Some(candidate) = job.next(builder, book) else { return Ok((Ended::NothingLeft, done)) };
        let added = job.work(builder, book, &candidate.board);
        done += 1;
        write(book, path)?;
        report(book, &candidate, added, done, started.elapsed().as_secs_f64());
    }
}

/// A builder with its own searcher.
fn builder(params: Params, hash_mb: usize, evaluator: Evaluator) -> Builder {
    let mut searcher = Searcher::new(hash_mb);
    searcher.set_evaluator(evaluator);
    Builder::new(searcher, params)
}

/// `book build` (create or resume FILE) and `book extend` (FILE must exist).
pub fn grow(
    path: &Path,
    must_exist: bool,
    params: Params,
    budget: &Budget,
    hash_mb: usize,
    evaluator: Evaluator,
) -> ExitCode {
    if must_exist && !path.exists() {
        return fail(&format!("{}: no such book to extend (book build creates one)", path.display()));
    }
    let mut book = match read_or_new(path) {
        Ok(book) => book,
        Err(e) => return fail(&e),
    };
    let mut builder = builder(params, hash_mb, evaluator);
    let started = Instant::now();
    let at_start = book.len();
    if book.is_empty() {
        builder.seed(&mut book);
    }
    note!(
        "book {}: {} positions; depth {}, deviation {}, max ply {}, {} plies a disc, shard {}/{} at ply {}",
        path.display(),
        at_start,
        params.depth,
        params.deviation,
        params.max_ply,
        params.plies_per_disc,
        params.shard.0,
        params.shard.1,
        params.split_ply
    );
    let report = |book: &Book, candidate: &Candidate, added: usize, expansions: usize, elapsed: f64| {
        let rate = (book.len() - at_start) as f64 / elapsed.max(1e-3);
        let eta = match (budget.positions, budget.time) {
            (Some(n), _) if rate > 0.0 => format!(", ETA {}", clock(n.saturating_sub(book.len()) as f64 / rate)),
            (None, Some(t)) => format!(", {} left", clock(t.as_secs_f64() - elapsed)),
            _ => String::new(),
        };
        let start = book.get(&Board::START).map_or(0, |e| e.value);
        note!(
            "book: {} positions (+{added}), {expansions} expansions, ply {} deviation {}, start {start:+}, \
             {rate:.2} positions/s, {}{eta}",
            book.len(),
            candidate.ply,
            candidate.deviation,
            clock(elapsed),
        );
    };
    match work_through(Job::Expand, &mut book, path, &mut builder, budget, started, report) {
        Ok((Ended::BudgetReached, _)) => note!("book: budget reached: {} positions", book.len()),
        Ok((Ended::NothingLeft, _)) => {
            note!("book: nothing left within the deviation and plies: {} positions", book.len())
        }
        Err(e) => return fail(&e),
    }
    ExitCode::SUCCESS
}

/// `book deepen`: scores the positions within the deviation whose moves were searched below
/// `params.depth` again at that depth, the best lines first, writing FILE after each (so an
/// interrupted run resumes: the positions done are at the depth already).
pub fn deepen(path: &Path, params: Params, budget: &Budget, hash_mb: usize, evaluator: Evaluator) -> ExitCode {
    let mut book = match read(path) {
        Ok(book) => book,
        Err(e) => return fail(&e),
    };
    let mut builder = builder(params, hash_mb, evaluator);
    let left = builder.shallow_count(&book);
    note!(
        "book {}: {} positions, {left} to score again at depth {} (deviation {}, max ply {}, shard {}/{} at ply {})",
        path.display(),
        book.len(),
        params.depth,
        params.deviation,
        params.max_ply,
        params.shard.0,
        params.shard.1,
        params.split_ply
    );
    let started = Instant::now();
    let report = |book: &Book, candidate: &Candidate, added: usize, done: usize, elapsed: f64| {
        let per = elapsed / done as f64;
        let remaining = left.saturating_sub(done);
        let start = book.get(&Board::START).map_or(0, |e| e.value);
        note!(
            "book: {done} scored again (+{added} new), ply {} deviation {}, start {start:+}, {per:.1} s each, {}, \
             ETA {} for the {} counted at the start",
            candidate.ply,
            candidate.deviation,
            clock(elapsed),
            clock(per * remaining as f64),
            left
        );
    };
    match work_through(Job::Deepen, &mut book, path, &mut builder, budget, started, report) {
        Ok((Ended::BudgetReached, done)) => note!("book: budget reached: {done} positions scored again"),
        Ok((Ended::NothingLeft, _)) => {
            note!("book: every position within the deviation and plies is at depth {}", params.depth)
        }
        Err(e) => return fail(&e),
    }
    ExitCode::SUCCESS
}

/// Seconds as h:mm:ss.
fn clock(seconds: f64) -> String {
    let s = seconds.max(0.0).round() as u64;
    format!("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60)
}

/// `book merge --out FILE IN...`: the union of the books (each position from the book with the most
/// work in it), values backed up again.
pub fn merge(out: &Path, inputs: &[std::path::PathBuf]) -> ExitCode {
    let mut book = Book::new();
    for path in inputs {
        match read(path) {
            Ok(other) => book.merge(&other),
            Err(e) => return fail(&e),
        }
    }
    if let Err(e) = write(&book, out) {
        return fail(&e);
    }
    say!("merged {} books: {} positions in {}", inputs.len(), book.len(), out.display());
    ExitCode::SUCCESS
}

/// `book learn FILE GAMES...`: every game (a GGF record or a transcript a line) into the book.
pub fn learn(
    path: &Path,
    games: &[std::path::PathBuf],
    learning: Learning,
    hash_mb: usize,
    evaluator: Evaluator,
) -> ExitCode {
    let mut book = match read_or_new(path) {
        Ok(book) => book,
        Err(e) => return fail(&e),
    };
    let mut searcher = Searcher::new(hash_mb);
    searcher.set_evaluator(evaluator);
    let (mut learnt, mut total) = (0, build::Learnt::default());
    let rescored = |r: usize| if learning.rescore { format!(", {r} rescored") } else { String::new() };
    let started = Instant::now();
    for file in games {
        let text = match std::fs::read_to_string(file) {
            Ok(text) => text,
            Err(e) => return fail(&format!("cannot read {}: {e}", file.display())),
        };
        for (i, line) in text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty()) {
            let game = match crate::protocol::native::read_game(line) {
                Ok(game) => game,
                Err(e) => return fail(&format!("{}: {}", file.display(), e.on_line(i + 1))),
            };
            let moves: Vec<Move> = game.moves().collect();
            let n = match build::learn(&mut book, &mut searcher, &game.start().board, &moves, learning) {
                Ok(n) => n,
                Err((m, e)) => return fail(&format!("{}:{}: move {}: {e}", file.display(), i + 1, m + 1)),
            };
            total.added += n.added;
            total.rescored += n.rescored;
            learnt += 1;
            note!(
                "book: {}:{}: {} positions added{} ({} added{} in {learnt} games, {:.0} s)",
                file.display(),
                i + 1,
                n.added,
                rescored(n.rescored),
                total.added,
                rescored(total.rescored),
                started.elapsed().as_secs_f64()
            );
            if let Err(e) = write(&book, path) {
                return fail(&e);
            }
        }
    }
    say!(
        "learnt {learnt} games: {} positions added{}, {} in {}",
        total.added,
        rescored(total.rescored),
        book.len(),
        path.display()
    );
    ExitCode::SUCCESS
}

/// One book move as `show` prints it.
fn describe(m: &BookMove) -> String {
    let depth = if m.exact || m.depth == EXACT_DEPTH { "exact".to_string() } else { format!("depth {}", m.depth) };
    format!("{} {:+} {depth}{}", m.mv, m.score, if m.in_book { "" } else { " (leaf)" })
}

/// `book show [FILE] [--board B | --moves f5d6]`: the position's book moves, best first.
pub fn show(path: Option<&Path>, board: Option<&str>, moves: Option<&str>) -> ExitCode {
    let book = match book_or_built_in(path) {
        Ok(book) => book,
        Err(e) => return fail(&e),
    };
    let mut position = match board.map(Position::parse).transpose() {
        Ok(p) => p.unwrap_or(Position::START),
        Err(e) => return fail(&format!("bad board: {e}")),
    };
    let letters: Vec<char> = moves.unwrap_or("").chars().filter(|c| !c.is_whitespace()).collect();
    for pair in letters.chunks(2) {
        let word: String = pair.iter().collect();
        let Ok(mv) = Move::parse(&word) else { return fail(&format!("bad move '{word}' in --moves")) };
        if position.board.moves() == 0 && !position.board.is_game_over() {
            position = position.try_play(Move::Pass).unwrap_or(position);
        }
        match position.try_play(mv) {
            Ok(next) => position = next,
            Err(e) => return fail(&format!("--moves: {word}: {e}")),
        }
    }
    let board = position.board;
    let Some(entry) = book.get(&board) else {
        say!("not in the book ({} positions)", book.len());
        return ExitCode::SUCCESS;
    };
    say!(
        "value {:+}{} ({}), line {}",
        entry.value,
        if entry.is_exact() { " exact" } else { "" },
        if entry.is_expanded() { "expanded" } else { "leaf" },
        book.line(&board, 20).iter().map(|m| m.to_string()).collect::<Vec<_>>().join(" ")
    );
    for m in book.moves(&board) {
        say!("{}", describe(&m));
    }
    ExitCode::SUCCESS
}

/// `book stats [FILE]`.
pub fn stats(path: Option<&Path>) -> ExitCode {
    let book = match book_or_built_in(path) {
        Ok(book) => book,
        Err(e) => return fail(&e),
    };
    let s = book.stats();
    say!("positions {}", s.positions);
    say!("expanded {}", s.expanded);
    say!("exact {}", s.exact);
    say!("lowest depth {}", s.min_depth.map_or("none".to_string(), |d| d.to_string()));
    say!("bytes {}", book.to_bytes().len());
    let deepest = s.by_ply.iter().rposition(|&n| n > 0).unwrap_or(0);
    let by_ply: Vec<String> = (0..=deepest).map(|p| format!("{p}:{}", s.by_ply[p])).collect();
    say!("by ply {}", by_ply.join(" "));
    if let Some(e) = book.get(&Board::START) {
        say!(
            "start {:+}, line {}",
            e.value,
            book.line(&Board::START, 30).iter().map(|m| m.to_string()).collect::<Vec<_>>().join(" ")
        );
    }
    ExitCode::SUCCESS
}

/// `book check [FILE] --positions N --depth D --seed S`: N book positions (not exact) drawn at
/// random, each searched afresh at level D; prints the mean absolute difference between the book's
/// value and the search's score.
pub fn check(
    path: Option<&Path>,
    positions: usize,
    depth: u32,
    seed: u64,
    hash_mb: usize,
    evaluator: Evaluator,
) -> ExitCode {
    let book = match book_or_built_in(path) {
        Ok(book) => book,
        Err(e) => return fail(&e),
    };
    let pool: Vec<_> = book.iter_sorted().into_iter().filter(|(_, e)| !e.is_exact()).collect();
    if pool.is_empty() {
        return fail("the book has no position that is not exact");
    }
    let mut searcher = Searcher::new(hash_mb);
    searcher.set_evaluator(evaluator);
    let mut rng = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    let (mut total, mut count, mut same_move) = (0i64, 0usize, 0usize);
    let started = Instant::now();
    for i in 0..positions {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        let ((p, o), entry) = pool[(rng % pool.len() as u64) as usize];
        let board = Board::new(p, o);
        searcher.new_game();
        let result = searcher.search(&board, &Limits::Depth(depth), &mut Silent);
        let diff = (result.score - entry.value as i32).abs();
        total += diff as i64;
        count += 1;
        same_move += book.moves(&board).first().is_some_and(|m| m.mv == result.best) as usize;
        note!(
            "check {}/{positions}: book {:+} search {:+} (depth {}), mean {:.2}, {:.0} s",
            i + 1,
            entry.value,
            result.score,
            depth,
            total as f64 / count as f64,
            started.elapsed().as_secs_f64()
        );
    }
    say!(
        "{count} positions: mean |book - depth {depth}| = {:.2} discs; same best move {same_move} of {count}",
        total as f64 / count as f64
    );
    ExitCode::SUCCESS
}
