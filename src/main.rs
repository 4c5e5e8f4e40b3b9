//! The `ebony` command line: with no subcommand it speaks a protocol on stdin/stdout; the subcommands
//! run the engine's tools (perft, bench, solve).

use clap::error::ErrorKind;
use clap::parser::ValueSource;
use clap::{CommandFactory, FromArgMatches, Parser, Subcommand, ValueEnum};
use ebony::book::build::{Learning, Params};
use ebony::book::Book;
use ebony::cli::{bench, book, clap_exit, perft, solve, usage_error};
use ebony::eval::learned::Weights;
use ebony::eval::{Evaluator, Variant};
use ebony::protocol::io::note;
use ebony::protocol::parser::MAX_HASH_MB;
use ebony::search::Selectivity;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

#[derive(Parser, Debug)]
#[command(
    name = "ebony",
    version,
    about = "An Othello engine",
    long_about = None,
    after_help = "With no subcommand, ebony speaks a protocol on stdin/stdout, one command a line: its own \
                  (protocol.md; type `help` for the commands, `quit` to end), or NBoard's or GTP's with --protocol."
)]
struct Cli {
    /// The protocol spoken on stdin/stdout when no subcommand is given.
    #[arg(long, value_enum, default_value_t = ProtocolKind::Native)]
    protocol: ProtocolKind,

    #[command(flatten)]
    hash: HashArg,

    #[command(flatten)]
    eval: EvalArg,

    /// An opening book to play from instead of the built-in one (a file written by `ebony book`).
    #[arg(long, value_name = "FILE")]
    book: Option<PathBuf>,

    /// Play without an opening book (every move searched).
    #[arg(long, conflicts_with = "book")]
    no_book: bool,

    /// Refuse every command that reads or writes a file for the other side (load, save to a file,
    /// learn into the --book file), in every protocol: for an engine behind a server that relays
    /// other people's commands.
    #[arg(long)]
    no_files: bool,

    #[command(subcommand)]
    command: Option<Command>,
}

/// `--hash MB`: for the protocol and every subcommand that searches with a table of its own (solve,
/// book build, extend, deepen, learn and check). Given before the subcommand (`ebony --hash 256 solve
/// FILE`) or after it (`ebony solve --hash 256 FILE`); a subcommand without a table refuses it.
#[derive(clap::Args, Debug, Clone, Copy)]
struct HashArg {
    /// Transposition table size in megabytes (1 to 4096, as `set hash`; 64 by default).
    #[arg(long, value_name = "MB", value_parser = in_range::<usize>(1, MAX_HASH_MB as u64))]
    hash: Option<usize>,
}

/// `--eval FILE`: for the protocol and every subcommand that evaluates positions with the learnt
/// evaluation (bench, book build, extend, deepen, learn and check); placed as `--hash`.
#[derive(clap::Args, Debug, Clone)]
struct EvalArg {
    /// Evaluation weights to use instead of the built-in ones (a file written by `ebony-train fit`).
    #[arg(long, value_name = "FILE")]
    eval: Option<PathBuf>,
}

/// The table size when `--hash` is not given.
const DEFAULT_HASH_MB: usize = 64;

#[derive(Clone, Copy, Debug, ValueEnum)]
enum ProtocolKind {
    /// ebony's own line protocol (protocol.md).
    Native,
    /// The NBoard GUI protocol, version 2.
    Nboard,
    /// The Go Text Protocol, as Quarry and GoGui speak it for Othello.
    Gtp,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Count the move sequences of each length 1..=DEPTH (the standard move generator check).
    Perft {
        /// Deepest length to count (1 to 20: each ply multiplies the time by about ten).
        #[arg(default_value_t = 10, value_parser = in_range::<u32>(1, 20))]
        depth: u32,
        /// Start from this board string (64 squares and the side to move) instead of the start position.
        #[arg(long)]
        board: Option<String>,
        /// Also print the count under each legal move at the deepest length.
        #[arg(long)]
        divide: bool,
    },
    /// Search the bench positions to a fixed depth; print each, then total nodes and nodes/s.
    Bench {
        /// Depth of every search, 1 to 60 (the recorded signature is for the default).
        #[arg(long, default_value_t = bench::DEFAULT_DEPTH, value_parser = in_range::<u32>(1, 60))]
        depth: u32,
        /// Multi-ProbCut's level in percent (58, 73, 87, 95, 98, 99 or 100: full width) instead of
        /// the depth default (87; the recorded signature is for the default).
        #[arg(long, value_parser = parse_selectivity)]
        selectivity: Option<Selectivity>,
        /// Turn off a move-ordering feature (repeatable): tt-move, fastest-first, square-values,
        /// evaluation.
        #[arg(long)]
        without: Vec<String>,
        #[command(flatten)]
        eval: EvalArg,
    },
    /// Solve positions exactly: an obf file (checking its listed scores) or one --board string.
    Solve {
        /// An obf file: one board and side a line, then `; move:score;` (FFO and Edax format).
        #[arg(required_unless_present = "board")]
        file: Option<PathBuf>,
        /// Solve this board string (64 squares and the side to move) instead of a file.
        #[arg(long, conflicts_with = "file", allow_hyphen_values = true)]
        board: Option<String>,
        /// Also solve every legal move exactly (and check every listed move's score).
        #[arg(long)]
        all_moves: bool,
        /// Only win, loss or draw (the window -1..1); scores print as -1, 0 or +1.
        #[arg(long)]
        wld: bool,
        /// The number of the file's first position (20 for fforum-20-39.obf).
        #[arg(long, default_value_t = 1)]
        first_number: usize,
        /// Only these positions, `A` or `A-B`, in the numbering of --first-number.
        #[arg(long, value_parser = solve::parse_range)]
        range: Option<(usize, usize)>,
        #[command(flatten)]
        hash: HashArg,
    },
    /// Grow, merge, learn into, show and measure opening books (the built-in one when FILE is left out).
    Book {
        #[command(subcommand)]
        command: BookCommand,
    },
}

/// How a book grows: `book build`, `book extend` and `book deepen` (whose `--depth` is the level its
/// positions are scored at again).
#[derive(clap::Args, Debug)]
struct GrowArgs {
    /// The book file: written after every expansion, so an interrupted build resumes where it stopped.
    file: PathBuf,
    /// The level (as `go depth N`) of the search that scores every new position.
    #[arg(long, default_value_t = 18, value_parser = in_range::<u32>(1, 60))]
    depth: u32,
    /// Expand moves up to this many discs worse than the best, summed along the line.
    #[arg(long, default_value_t = 4, value_parser = in_range::<u32>(0, 64))]
    deviation: u32,
    /// Add no position deeper than this many plies from the start.
    #[arg(long, default_value_t = 30, value_parser = in_range::<u32>(1, 60))]
    max_ply: u32,
    /// The order of expansion: a position costs its ply plus this many plies per disc of deviation.
    #[arg(long, default_value_t = 3, value_parser = in_range::<u32>(0, 60))]
    plies_per_disc: u32,
    /// Grow only the subtrees of shard K of N (K/N), for `book merge` to join.
    #[arg(long, value_parser = parse_shard, default_value = "1/1")]
    shard: (u32, u32),
    /// The ply of the positions whose subtrees are split among the shards.
    #[arg(long, default_value_t = 4, value_parser = in_range::<u32>(1, 20))]
    split_ply: u32,
    /// Stop once the book holds this many positions (deepen: once it has scored this many again).
    #[arg(long)]
    positions: Option<usize>,
    /// Stop after this many seconds (the running expansion is finished first).
    #[arg(long)]
    time: Option<u64>,
    #[command(flatten)]
    hash: HashArg,
    #[command(flatten)]
    eval: EvalArg,
}

#[derive(Subcommand, Debug)]
enum BookCommand {
    /// Grow a book best-first from the start position (a new FILE, or resume FILE).
    Build(GrowArgs),
    /// Grow an existing book further (as build, but FILE must exist).
    Extend(GrowArgs),
    /// Score the book's positions within the deviation again with a deeper search, the best lines
    /// first (FILE must exist; resumable like build).
    Deepen(GrowArgs),
    /// Join books (shards of one build, or any): the position with the most work in it wins.
    Merge {
        /// The book file to write (created or replaced).
        #[arg(long, value_name = "FILE")]
        out: PathBuf,
        /// The books to join (one or more book files).
        #[arg(required = true, value_name = "BOOK")]
        inputs: Vec<PathBuf>,
    },
    /// Add games (files of GGF records or transcripts, one a line) to FILE (created if missing).
    Learn {
        /// The book file to learn into: created if missing, written after every game.
        file: PathBuf,
        /// Files of games: one GGF record or one transcript (f5d6c3...) a line.
        #[arg(required = true, value_name = "GAMES")]
        games: Vec<PathBuf>,
        /// The level of the search that scores each new position.
        #[arg(long, default_value_t = 14, value_parser = in_range::<u32>(1, 60))]
        depth: u32,
        /// Add no position with more than this many discs played (the whole game by default).
        #[arg(long, default_value_t = 60, value_parser = in_range::<u32>(0, 60))]
        max_ply: u32,
        /// Add only the positions of shard K of N (K/N, by their canonical board), for `book merge`
        /// to join: N processes learn the same games without scoring a position twice.
        #[arg(long, value_parser = parse_shard, default_value = "1/1")]
        shard: (u32, u32),
        /// Also score again, at --depth, the games' positions that the book holds with moves scored
        /// at a lower level (within --max-ply and the shard), so that the lines played rest on
        /// searches as deep as the new positions'.
        #[arg(long)]
        rescore: bool,
        #[command(flatten)]
        hash: HashArg,
        #[command(flatten)]
        eval: EvalArg,
    },
    /// Print a position's book moves, best first.
    Show {
        /// The book file (the built-in book when left out).
        file: Option<PathBuf>,
        /// The position (64 squares and the side to move); the start position by default.
        #[arg(long, allow_hyphen_values = true)]
        board: Option<String>,
        /// Moves played from it first, run together (f5d6c3).
        #[arg(long)]
        moves: Option<String>,
    },
    /// Print the book's counts: positions, expanded, exact, by ply.
    Stats {
        /// The book file (the built-in book when left out).
        file: Option<PathBuf>,
    },
    /// Compare random book positions' values with fresh deeper searches (mean absolute difference).
    Check {
        /// The book file (the built-in book when left out).
        file: Option<PathBuf>,
        /// How many book positions (not exact) to draw at random and search again.
        #[arg(long, default_value_t = 200)]
        positions: usize,
        /// The level (as `go depth N`) of the fresh searches.
        #[arg(long, default_value_t = 20, value_parser = in_range::<u32>(1, 60))]
        depth: u32,
        /// The seed of the random draw (the same seed draws the same positions).
        #[arg(long, default_value_t = 1)]
        seed: u64,
        #[command(flatten)]
        hash: HashArg,
        #[command(flatten)]
        eval: EvalArg,
    },
}

/// `K/N` with 1 <= K <= N.
fn parse_shard(text: &str) -> Result<(u32, u32), String> {
    let bad = || format!("bad shard '{text}': expected K/N with 1 <= K <= N");
    let (k, n) = text.split_once('/').ok_or_else(bad)?;
    let (k, n) = (k.parse::<u32>().map_err(|_| bad())?, n.parse::<u32>().map_err(|_| bad())?);
    if k == 0 || k > n {
        return Err(bad());
    }
    Ok((k, n))
}

impl Command {
    /// The subcommand's name for messages, and its own `--hash` and `--eval` when it takes them.
    fn options(&self) -> (&'static str, Option<HashArg>, Option<&EvalArg>) {
        match self {
            Command::Perft { .. } => ("perft", None, None),
            Command::Bench { eval, .. } => ("bench", None, Some(eval)),
            Command::Solve { hash, .. } => ("solve", Some(*hash), None),
            Command::Book { command } => match command {
                BookCommand::Build(args) => ("book build", Some(args.hash), Some(&args.eval)),
                BookCommand::Extend(args) => ("book extend", Some(args.hash), Some(&args.eval)),
                BookCommand::Deepen(args) => ("book deepen", Some(args.hash), Some(&args.eval)),
                BookCommand::Learn { hash, eval, .. } => ("book learn", Some(*hash), Some(eval)),
                BookCommand::Check { hash, eval, .. } => ("book check", Some(*hash), Some(eval)),
                BookCommand::Merge { .. } => ("book merge", None, None),
                BookCommand::Show { .. } => ("book show", None, None),
                BookCommand::Stats { .. } => ("book stats", None, None),
            },
        }
    }
}

/// The table size and evaluation a run uses: a subcommand's own options, else those given before it.
struct Settings {
    hash_mb: usize,
    evaluator: Evaluator,
}

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .target(env_logger::Target::Stderr)
        .init();
    // A bad `EBONY_CPU` is a usage error before anything runs (`ebony::cpu`).
    if let Err(message) = ebony::cpu::init() {
        return usage_error(message);
    }
    // The long version names the build and the instruction-set level found on this processor.
    let version: &'static str = Box::leak(ebony::build_info::describe().into_boxed_str());
    let matches = Cli::command().version(version).try_get_matches().unwrap_or_else(|e| clap_exit(e));
    let cli = Cli::from_arg_matches(&matches).unwrap_or_else(|e| clap_exit(e));
    let protocol_given = matches.value_source("protocol") == Some(ValueSource::CommandLine);
    let Some(command) = cli.command else {
        let settings = match settings(cli.hash, Some(&cli.eval), None, None) {
            Ok(settings) => settings,
            Err(code) => return code,
        };
        let book = match cli.book.as_deref().map(Book::read_file).transpose() {
            Ok(_) if cli.no_book => Book::new(),
            Ok(Some(book)) => book,
            Ok(None) => match Book::built_in() {
                Ok(book) => book,
                Err(e) => return usage_error(format_args!("the built-in book: {e}")),
            },
            Err(message) => return usage_error(message),
        };
        return run_protocol(cli.protocol, settings.hash_mb, settings.evaluator, book, cli.book, !cli.no_files);
    };
    // Each subcommand takes exactly the options it uses: one given before it that it would ignore is
    // a usage error, as clap makes of one given after it.
    let (name, own_hash, own_eval) = command.options();
    let ignored = [
        ("--protocol", protocol_given),
        ("--book", cli.book.is_some()),
        ("--no-book", cli.no_book),
        ("--no-files", cli.no_files),
        ("--hash", cli.hash.hash.is_some() && own_hash.is_none()),
        ("--eval", cli.eval.eval.is_some() && own_eval.is_none()),
    ];
    if let Some((option, _)) = ignored.iter().find(|(_, given)| *given) {
        clap_exit(
            Cli::command().error(ErrorKind::ArgumentConflict, format!("{option} does nothing for `ebony {name}`")),
        );
    }
    let settings = match settings(cli.hash, Some(&cli.eval), own_hash, own_eval) {
        Ok(settings) => settings,
        Err(code) => return code,
    };
    let (hash_mb, evaluator) = (settings.hash_mb, settings.evaluator);
    match command {
        Command::Perft { depth, board, divide } => perft::run(depth, board.as_deref(), divide),
        Command::Bench { depth, selectivity, without, .. } => bench::print(depth, selectivity, &without, evaluator),
        Command::Solve { file, board, all_moves, wld, first_number, range, .. } => solve::run(&solve::SolveArgs {
            file: file.as_deref(),
            board: board.as_deref(),
            all_moves,
            wld,
            first_number,
            range,
            hash_mb,
        }),
        Command::Book { command } => run_book(command, hash_mb, evaluator),
    }
}

/// The table size and the evaluation (its weight file read) of a run: the subcommand's own options
/// first, then those given before it; the failure is the usage error already reported.
fn settings(
    top_hash: HashArg,
    top_eval: Option<&EvalArg>,
    own_hash: Option<HashArg>,
    own_eval: Option<&EvalArg>,
) -> Result<Settings, ExitCode> {
    let hash_mb = own_hash.and_then(|h| h.hash).or(top_hash.hash).unwrap_or(DEFAULT_HASH_MB);
    let file = own_eval.and_then(|e| e.eval.as_deref()).or(top_eval.and_then(|e| e.eval.as_deref()));
    let evaluator = match file.map(load_evaluator).transpose() {
        Ok(evaluator) => evaluator.unwrap_or_default(),
        Err(message) => return Err(usage_error(message)),
    };
    Ok(Settings { hash_mb, evaluator })
}

fn run_book(command: BookCommand, hash_mb: usize, evaluator: Evaluator) -> ExitCode {
    match command {
        BookCommand::Build(args) => grow(&args, false, hash_mb, evaluator),
        BookCommand::Extend(args) => grow(&args, true, hash_mb, evaluator),
        BookCommand::Deepen(args) => {
            let (params, budget) = grow_params(&args);
            book::deepen(&args.file, params, &budget, hash_mb, evaluator)
        }
        BookCommand::Merge { out, inputs } => book::merge(&out, &inputs),
        BookCommand::Learn { file, games, depth, max_ply, shard, rescore, .. } => {
            book::learn(&file, &games, Learning { depth, max_ply, shard, rescore }, hash_mb, evaluator)
        }
        BookCommand::Show { file, board, moves } => book::show(file.as_deref(), board.as_deref(), moves.as_deref()),
        BookCommand::Stats { file } => book::stats(file.as_deref()),
        BookCommand::Check { file, positions, depth, seed, .. } => {
            book::check(file.as_deref(), positions, depth, seed, hash_mb, evaluator)
        }
    }
}

fn grow(args: &GrowArgs, must_exist: bool, hash_mb: usize, evaluator: Evaluator) -> ExitCode {
    let (params, budget) = grow_params(args);
    book::grow(&args.file, must_exist, params, &budget, hash_mb, evaluator)
}

fn grow_params(args: &GrowArgs) -> (Params, book::Budget) {
    let params = Params {
        depth: args.depth,
        deviation: args.deviation as i32,
        max_ply: args.max_ply,
        plies_per_disc: args.plies_per_disc,
        shard: args.shard,
        split_ply: args.split_ply,
    };
    (params, book::Budget { positions: args.positions, time: args.time.map(std::time::Duration::from_secs) })
}

/// A number argument that must lie in `min..=max`: anything else is one clear error, never clamped.
/// A selectivity level by its percentage (`--selectivity 95`).
fn parse_selectivity(text: &str) -> Result<Selectivity, String> {
    let percent: u32 = text.parse().map_err(|_| format!("expected a level in percent: {}", Selectivity::listed()))?;
    Selectivity::parse_percent(percent)
}

fn in_range<T>(min: u64, max: u64) -> clap::builder::RangedU64ValueParser<T>
where
    T: TryFrom<u64> + Clone + Send + Sync + 'static,
    <T as TryFrom<u64>>::Error: std::fmt::Display,
{
    clap::builder::RangedU64ValueParser::<T>::new().range(min..=max)
}

/// The evaluation of a weight file; it lives as long as the process.
fn load_evaluator(path: &Path) -> Result<Evaluator, String> {
    let weights = Weights::read_file(path)?;
    log::info!("evaluation weights {} ({:016x})", path.display(), weights.checksum());
    Ok(Evaluator::new(Variant::Learned(Box::leak(Box::new(weights)))))
}

fn run_protocol(
    kind: ProtocolKind,
    hash_mb: usize,
    evaluator: Evaluator,
    book: Book,
    book_file: Option<PathBuf>,
    files: bool,
) -> ExitCode {
    log::info!("protocol {kind:?}, hash {hash_mb} MB, book of {} positions", book.len());
    // A person at a terminal sees a silent program otherwise; stdout stays the protocol's alone.
    let terminal = std::io::stdin().is_terminal();
    if terminal {
        note(terminal_hint(kind));
    }
    let served = match kind {
        ProtocolKind::Native => ebony::protocol::native::run(hash_mb, evaluator, book, book_file, terminal, files),
        ProtocolKind::Nboard => ebony::protocol::nboard::run(hash_mb, evaluator, book, book_file, files),
        ProtocolKind::Gtp => ebony::protocol::gtp::run(hash_mb, evaluator, book),
    };
    match served {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            note(format_args!("error: cannot read the standard input: {e}"));
            ExitCode::FAILURE
        }
    }
}

/// The line printed on stderr when a person runs the protocol at a terminal.
fn terminal_hint(kind: ProtocolKind) -> &'static str {
    match kind {
        ProtocolKind::Native => {
            "ebony: type commands, one a line (help lists them; `mode white` and a move like f5 play a game; quit ends)"
        }
        ProtocolKind::Nboard => "ebony: speaking the NBoard protocol on stdin (a GUI's job; quit ends)",
        ProtocolKind::Gtp => "ebony: speaking GTP on stdin (list_commands lists them; quit ends)",
    }
}
