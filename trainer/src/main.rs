//! ebony-train: the pipeline that produces ebony's evaluation weights from ebony's own games.
//!
//! - `gen`: self-play games with exact endgame values (see `selfplay`), sharded and resumable;
//! - `merge`: several game files into one, each game once, in index order;
//! - `convert`: a game file from one form or binary version to another (`games`: binary, or text
//!   for `.txt`), or a weight file (`.ebev`) of an older version to the current one;
//! - `count`: the games of game files and the positions a fit learns from them;
//! - `fit`: the evaluation weights from game files, by conjugate gradients in memory (see `fit`);
//! - `stream-fit`: the same fit by mini-batch Adam over samples on disk, in bounded memory (see
//!   `samples` and `stream_fit`);
//! - `probcut-data`, `probcut-fit`: Multi-ProbCut's statistics (see `probcut`).
//!
//! The command line is ebony's kind: clap parses it, `ebony::cli::clap_exit` prints the help (at
//! most 100 columns), the version and the usage errors (one line and clap's hint, status 2), and the
//! reports and progress go through ebony's writers (`say!`, `note!`), which end quietly when their
//! reader has gone. Any other failure is one `error:` line and status 2, as ebony's.

/// `println!` for the reports: ebony's writer, which ends the process quietly with status 0 when the
/// reader closes the pipe (`ebony-train count FILE | head -1`).
#[cfg(not(test))]
macro_rules! say {
    ($($arg:tt)*) => {
        ebony::cli::say_line(format_args!($($arg)*))
    };
}

/// `eprintln!` for progress and errors, without its panic when stderr is closed too
/// (`ebony-train count FILE 2>&1 | head -1`).
#[cfg(not(test))]
macro_rules! note {
    ($($arg:tt)*) => {
        ebony::protocol::io::note(format_args!($($arg)*))
    };
}

/// In unit tests, `println!` and `eprintln!` themselves: the test harness captures them (and shows
/// them for a failure).
#[cfg(test)]
macro_rules! say {
    ($($arg:tt)*) => {
        println!($($arg)*)
    };
}

#[cfg(test)]
macro_rules! note {
    ($($arg:tt)*) => {
        eprintln!($($arg)*)
    };
}

mod fit;
mod games;
mod probcut;
mod record;
mod rng;
mod samples;
mod selfplay;
mod stream_fit;

use clap::{Args, Parser, Subcommand, ValueEnum};
use ebony::cli::{clap_exit, usage_error};
use ebony::eval::learned::Weights;
use ebony::search::Selectivity;
use std::process::ExitCode;

#[derive(Parser, Debug)]
#[command(
    name = "ebony-train",
    version,
    about = "ebony's training pipeline: self-play games, the fit of the evaluation, Multi-ProbCut's statistics",
    long_about = None,
    arg_required_else_help = true,
    after_help = "A game file is binary, or text when its name ends in .txt. docs/evaluation.md gives the \
                  commands that made the shipped weights."
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Play self-play games with exact endgame values into a game file (sharded, resumable).
    Gen(GenArgs),
    /// Write the games of several game files into one, each game once, in index order.
    Merge {
        /// The game file to write (refused if it exists).
        #[arg(long, value_name = "FILE")]
        out: String,
        /// The game files to join, all made with the same settings.
        #[arg(required = true, value_name = "FILE")]
        files: Vec<String>,
    },
    /// Convert a game file to the other form or binary version, or a weight file (.ebev) to the
    /// current version; the output is read back and compared.
    // clap leaves `[OPTIONS]` out of the usage when the only option is named --version.
    #[command(override_usage = "ebony-train convert [--version <1|2>] <IN> <OUT>")]
    Convert {
        /// The binary version of OUT, a game file's (the current one, 2, by default).
        #[arg(long = "version", value_name = "1|2", value_parser = ["1", "2"])]
        format: Option<String>,
        /// The game or weight file to read.
        #[arg(value_name = "IN")]
        input: String,
        /// The file to write (refused if it exists): text if its name ends in .txt.
        #[arg(value_name = "OUT")]
        out: String,
    },
    /// Print each game file's games and the positions a fit learns from them, then the totals.
    Count {
        /// The game files.
        #[arg(required = true, value_name = "FILE")]
        files: Vec<String>,
    },
    /// Fit the evaluation weights to game files by conjugate gradients, all in memory.
    Fit(FitArgs),
    /// The same fit by mini-batch Adam over samples on disk, in bounded memory.
    StreamFit(StreamFitArgs),
    /// Search positions of game files at every depth, for Multi-ProbCut's statistics.
    ProbcutData(ProbcutDataArgs),
    /// Fit Multi-ProbCut's error model to probcut-data files: a Rust source file and a report.
    ProbcutFit {
        /// The Rust source file to write (src/search/probcut_stats.rs in the engine).
        #[arg(long, value_name = "RUST_FILE")]
        out: String,
        /// Files written by probcut-data.
        #[arg(required = true, value_name = "DATAFILE")]
        files: Vec<String>,
    },
}

#[derive(Args, Debug)]
struct GenArgs {
    /// The game file to write; a file of the same settings is resumed.
    #[arg(long, value_name = "FILE")]
    out: String,
    /// Games to play (game indices 0..N).
    #[arg(long, value_name = "N")]
    games: u64,
    /// The seed of the random moves: the same seed plays the same games.
    #[arg(long, value_name = "S", default_value_t = 1)]
    seed: u64,
    /// Play only the games of shard K of N (index mod N = K - 1), for merge to join.
    #[arg(long, value_name = "K/N", value_parser = parse_shard, default_value = "1/1")]
    shard: (u64, u64),
    /// Random opening moves: a number drawn from LO to HI (at most 60).
    #[arg(long, value_name = "LO-HI", value_parser = parse_random, default_value = "4-20")]
    random: (u32, u32),
    /// The search depth of the self-play moves (1 to 60).
    #[arg(long, value_name = "D", default_value_t = 6, value_parser = in_range::<u32>(1, 60))]
    depth: u32,
    /// One midgame move in N is random (0: none).
    #[arg(long, value_name = "N", default_value_t = 0)]
    noise: u64,
    /// The solver plays from E empties (at most 30), and its values label the positions.
    #[arg(long, value_name = "E", default_value_t = 20, value_parser = parse_solve)]
    solve: u32,
    /// One endgame move in N is random (at least 1).
    #[arg(long, value_name = "N", default_value_t = 8, value_parser = in_range::<u64>(1, u64::MAX))]
    endgame_noise: u64,
    /// Search with these weights (a file written by fit) instead of evaluation v1.
    #[arg(long, value_name = "WEIGHTS")]
    eval: Option<String>,
    /// Draw each opening move among those within M discs of the best (0: uniformly at random).
    #[arg(long, value_name = "M", default_value_t = 0)]
    opening_margin: u32,
    /// Keep no search scores in the records (the fits label with outcomes and exact values).
    #[arg(long)]
    no_scores: bool,
}

/// What `fit` and `stream-fit` share.
#[derive(Args, Debug)]
struct FitCommon {
    /// The weight file to write.
    #[arg(long, value_name = "WEIGHTS")]
    out: String,
    /// Replace an existing weight file.
    #[arg(long)]
    force: bool,
    /// The share of the search score in a label before the solve (the rest is the outcome).
    #[arg(long, value_name = "L", default_value_t = 0.0)]
    search_weight: f64,
    /// Game files, each FILE or FILE@W (every position of it weighs W, 1 by default).
    #[arg(required = true, value_name = "FILE[@WEIGHT]", value_parser = fit::weighted_file)]
    files: Vec<(String, f64)>,
}

#[derive(Args, Debug)]
struct FitArgs {
    #[command(flatten)]
    common: FitCommon,
    /// The ridge penalty on the weights' squares.
    #[arg(long, value_name = "R", default_value_t = 2.0)]
    ridge: f64,
    /// The penalty tying each weight to the same weight of the neighbouring phases.
    #[arg(long, value_name = "S", default_value_t = 4.0)]
    smooth: f64,
    /// Conjugate gradient iterations.
    #[arg(long, value_name = "N", default_value_t = 150)]
    iterations: usize,
}

/// `stream-fit --method` (its help names the values: a doc comment on each would turn the whole
/// `--help` into the long form).
#[derive(Clone, Copy, Debug, ValueEnum)]
enum MethodArg {
    Adam,
    Cg,
}

#[derive(Args, Debug)]
struct StreamFitArgs {
    #[command(flatten)]
    common: FitCommon,
    /// adam: mini-batch Adam; cg: fit's conjugate gradients, a pass over the samples an iteration.
    #[arg(long, value_enum, default_value_t = MethodArg::Adam)]
    method: MethodArg,
    /// The ridge penalty on the weights' squares.
    #[arg(long, value_name = "R", default_value_t = 1.0)]
    ridge: f64,
    /// The penalty tying each weight to the same weight of the neighbouring phases.
    #[arg(long, value_name = "S", default_value_t = 64.0)]
    smooth: f64,
    /// Passes over the samples (0: only compare --compare's weights on the held-out samples).
    #[arg(long, value_name = "N", default_value_t = 16)]
    epochs: usize,
    /// Samples a mini-batch (at least 1).
    #[arg(long, value_name = "B", default_value_t = 8192, value_parser = in_range::<usize>(1, u32::MAX.into()))]
    batch: usize,
    /// Adam's step size at the start, in discs (positive).
    #[arg(long, value_name = "A", default_value_t = 0.3, value_parser = parse_rate)]
    rate: f64,
    /// The factor the step size takes each epoch (above 0, at most 1).
    #[arg(long, value_name = "D", default_value_t = 0.75, value_parser = parse_decay)]
    decay: f64,
    /// The last epochs whose steps' weights are averaged into the result (0: the last step's).
    #[arg(long, value_name = "E", default_value_t = 3)]
    average: usize,
    /// Huber's loss past H discs of error (Adam only; least squares when left out).
    #[arg(long, value_name = "H", value_parser = parse_huber)]
    huber: Option<f64>,
    /// The order of the samples.
    #[arg(long, value_name = "S", default_value_t = 1)]
    seed: u64,
    /// Keep the samples in DIR for the next run (a temporary directory, removed, by default).
    #[arg(long, value_name = "DIR")]
    work: Option<String>,
    /// Megabytes of memory a bucket may take while it is sorted (at least 1).
    #[arg(long, value_name = "M", default_value_t = 1024, value_parser = in_range::<u64>(1, u64::MAX >> 20))]
    memory_mb: u64,
    /// Weights to compare with on the held-out samples, besides the built-in ones (repeatable).
    #[arg(long, value_name = "WEIGHTS")]
    compare: Vec<String>,
}

#[derive(Args, Debug)]
struct ProbcutDataArgs {
    /// The data file to write; a file of the same settings is resumed.
    #[arg(long, value_name = "FILE")]
    out: String,
    /// Positions to draw from the game files.
    #[arg(long, value_name = "N")]
    positions: u64,
    /// The seed of the draw.
    #[arg(long, value_name = "S", default_value_t = 1)]
    seed: u64,
    /// Search only the positions of shard K of N, for one file of each shard.
    #[arg(long, value_name = "K/N", value_parser = parse_shard, default_value = "1/1")]
    shard: (u64, u64),
    /// The deepest search of each position (1 to 24).
    #[arg(long, value_name = "D", default_value_t = 12,
          value_parser = in_range::<u32>(1, probcut::MAX_DEPTH as u64))]
    depth: u32,
    /// Search with these weights (a file written by fit) instead of the built-in ones.
    #[arg(long, value_name = "WEIGHTS")]
    eval: Option<String>,
    /// The searches' selectivity in percent (58, 73, 87, 95, 98, 99, or 100: full width).
    #[arg(long, value_name = "P", default_value = "100", value_parser = parse_selectivity)]
    selectivity: Selectivity,
    /// 1: only positions whose exact value the games hold, for the solver's ProbCut.
    #[arg(long, value_name = "0|1", default_value_t = 0, value_parser = in_range::<u8>(0, 1))]
    endgame: u8,
    /// The game files to draw from.
    #[arg(required = true, value_name = "GAMEFILE")]
    files: Vec<String>,
}

/// A number argument that must lie in `min..=max`: anything else is one clear error, never clamped.
fn in_range<T>(min: u64, max: u64) -> clap::builder::RangedU64ValueParser<T>
where
    T: TryFrom<u64> + Clone + Send + Sync + 'static,
    <T as TryFrom<u64>>::Error: std::fmt::Display,
{
    clap::builder::RangedU64ValueParser::<T>::new().range(min..=max)
}

/// `A<sep>B`, two numbers.
fn parse_pair(text: &str, sep: char) -> Option<(u64, u64)> {
    let (a, b) = text.split_once(sep)?;
    Some((a.parse().ok()?, b.parse().ok()?))
}

/// `K/N` with 1 <= K <= N.
fn parse_shard(text: &str) -> Result<(u64, u64), String> {
    match parse_pair(text, '/') {
        Some((k, n)) if (1..=n).contains(&k) => Ok((k, n)),
        _ => Err("expected K/N with 1 <= K <= N".to_string()),
    }
}

/// `LO-HI` with LO <= HI <= 60.
fn parse_random(text: &str) -> Result<(u32, u32), String> {
    match parse_pair(text, '-') {
        Some((lo, hi)) if lo <= hi && hi <= 60 => Ok((lo as u32, hi as u32)),
        _ => Err("expected LO-HI with LO <= HI <= 60".to_string()),
    }
}

fn parse_solve(text: &str) -> Result<u32, String> {
    match text.parse::<u32>() {
        Ok(empties) if empties <= 30 => Ok(empties),
        Ok(_) => Err("above 30 empties a game would take hours".to_string()),
        Err(_) => Err("expected a number of empties, at most 30".to_string()),
    }
}

/// A number that `valid` accepts, else `expected`.
fn parse_f64(text: &str, valid: fn(f64) -> bool, expected: &str) -> Result<f64, String> {
    text.parse::<f64>().ok().filter(|&x| valid(x)).ok_or_else(|| format!("expected {expected}"))
}

fn parse_rate(text: &str) -> Result<f64, String> {
    parse_f64(text, |x| x > 0.0 && x.is_finite(), "a positive number")
}

fn parse_decay(text: &str) -> Result<f64, String> {
    parse_f64(text, |x| x > 0.0 && x <= 1.0, "a number above 0, at most 1")
}

fn parse_huber(text: &str) -> Result<f64, String> {
    parse_f64(text, |x| x > 0.0, "a positive number of discs")
}

fn parse_selectivity(text: &str) -> Result<Selectivity, String> {
    let percent: u32 = text.parse().map_err(|_| format!("expected a level in percent: {}", Selectivity::listed()))?;
    Selectivity::parse_percent(percent)
}

/// `--eval WEIGHTS`: the weights, and their file's name for a run's header.
fn eval_option(path: Option<String>) -> Result<Option<(&'static Weights, String)>, String> {
    let Some(path) = path else { return Ok(None) };
    let weights = fit::read_weights(&path)?;
    let name = std::path::Path::new(&path).file_name().map_or(path.clone(), |n| n.to_string_lossy().into_owned());
    // A run lasts until the process ends: the weights live as long as it.
    Ok(Some((&*Box::leak(Box::new(weights)), name)))
}

fn gen(args: GenArgs) -> Result<(), String> {
    let settings = selfplay::Settings {
        games: args.games,
        seed: args.seed,
        shard: args.shard,
        random_plies: args.random,
        depth: args.depth,
        noise: args.noise,
        solve: args.solve,
        endgame_noise: args.endgame_noise,
        eval: eval_option(args.eval)?,
        opening_margin: args.opening_margin,
        scores: !args.no_scores,
    };
    selfplay::run(&settings, &args.out)
}

fn merge(out: &str, files: &[String]) -> Result<(), String> {
    let mut header: Option<String> = None;
    let mut records = std::collections::BTreeMap::new();
    for path in files {
        let (head, games) = games::read_all(path)?;
        match &header {
            None => header = Some(head),
            Some(h) if *h != head => return Err(format!("{path} was made with other settings than {}", files[0])),
            Some(_) => {}
        }
        for record in games {
            records.insert(record.index, record);
        }
    }
    write_games(out, &header.unwrap_or_default(), games::VERSION, records.values())?;
    note!("{} games in {out}", records.len());
    Ok(())
}

/// Writes a new game file, binary in `version` unless its name ends in .txt (an existing file is
/// refused: a merge or conversion never appends).
fn write_games<'a>(
    out: &str,
    header: &str,
    version: u8,
    records: impl Iterator<Item = &'a record::GameRecord>,
) -> Result<(), String> {
    let mut writer = games::Writer::create(out, header, version)?;
    for record in records {
        writer.write(record)?;
    }
    writer.flush()
}

/// A game file in another form or binary version, checked by a round trip: the output read back
/// gives the input's header and records.
fn convert(version: Option<&str>, input: &str, out: &str) -> Result<(), String> {
    if input.ends_with(".ebev") {
        return match version {
            Some(_) => Err("--version is a game file's; a weight file is written in the current version".to_string()),
            None => convert_weights(input, out),
        };
    }
    let version = match version {
        None => games::VERSION,
        Some(_) if games::is_text(out) => return Err("--version is the binary form's; OUT ends in .txt".to_string()),
        Some("1") => 1,
        Some(_) => 2,
    };
    let (header, records) = games::read_all(input)?;
    for record in &records {
        record.positions().map_err(|e| format!("{input}: {e}"))?;
    }
    write_games(out, &header, version, records.iter())?;
    if games::read_all(out)? != (header, records.clone()) {
        return Err(format!("{out} does not read back as {input}"));
    }
    let (a, b) = (std::fs::metadata(input).map_or(0, |m| m.len()), std::fs::metadata(out).map_or(0, |m| m.len()));
    note!("{} games: {a} bytes in {input}, {b} in {out}; read back the same", records.len());
    Ok(())
}

/// A weight file of any version read by this build, written in the current version: the same
/// weights as the evaluation reads them (checked by reading the new file back).
fn convert_weights(input: &str, out: &str) -> Result<(), String> {
    let weights = fit::read_weights(input)?;
    fit::write_weights(out, &weights, false)?;
    if fit::read_weights(out)? != weights {
        return Err(format!("{out} does not read back as {input}"));
    }
    let size = |path: &str| std::fs::metadata(path).map_or(0, |m| m.len());
    note!("weights {:016x}: {} bytes in {input}, {} in {out}", weights.checksum(), size(input), size(out));
    Ok(())
}

/// Each file's games and the positions a fit learns from them (`GameRecord::fitted`: `fit` and
/// `stream-fit` count the same), then the totals, on stdout.
fn count(files: &[String]) -> Result<(), String> {
    let (mut all_games, mut all_positions) = (0u64, 0u64);
    for path in files {
        let (mut games, mut positions) = (0u64, 0u64);
        for record in games::Reader::open(path)? {
            positions += record?.fitted().map_err(|e| format!("{path}: {e}"))?.len() as u64;
            games += 1;
        }
        say!("{path}: {games} games, {positions} positions");
        (all_games, all_positions) = (all_games + games, all_positions + positions);
    }
    say!("total: {all_games} games, {all_positions} positions");
    Ok(())
}

fn fit(args: FitArgs) -> Result<(), String> {
    let settings = fit::Settings {
        search_weight: args.common.search_weight,
        ridge: args.ridge,
        smooth: args.smooth,
        iterations: args.iterations,
        force: args.common.force,
    };
    fit::run(&args.common.files, &settings, &args.common.out)
}

fn stream_fit(args: StreamFitArgs) -> Result<(), String> {
    let method = match args.method {
        MethodArg::Adam => stream_fit::Method::Adam,
        MethodArg::Cg => stream_fit::Method::ConjugateGradients,
    };
    if args.huber.is_some_and(f64::is_finite) && method == stream_fit::Method::ConjugateGradients {
        return Err("--huber needs --method adam: conjugate gradients solve the least squares".to_string());
    }
    let settings = stream_fit::Settings {
        method,
        search_weight: args.common.search_weight,
        ridge: args.ridge,
        smooth: args.smooth,
        epochs: args.epochs,
        batch: args.batch,
        rate: args.rate,
        decay: args.decay,
        average: args.average,
        huber: args.huber.unwrap_or(f64::INFINITY),
        seed: args.seed,
        work: args.work,
        memory: args.memory_mb << 20,
        compare: args.compare,
        force: args.common.force,
    };
    stream_fit::run(&args.common.files, &settings, &args.common.out)
}

fn probcut_data(args: ProbcutDataArgs) -> Result<(), String> {
    let settings = probcut::DataSettings {
        positions: args.positions,
        seed: args.seed,
        shard: args.shard,
        depth: args.depth,
        eval: eval_option(args.eval)?,
        endgame: args.endgame == 1,
        selectivity: args.selectivity,
    };
    probcut::data(&settings, &args.files, &args.out)
}

fn main() -> ExitCode {
    let cli = Cli::try_parse().unwrap_or_else(|e| clap_exit(e));
    let result = match cli.command {
        Command::Gen(args) => gen(args),
        Command::Merge { out, files } => merge(&out, &files),
        Command::Convert { format, input, out } => convert(format.as_deref(), &input, &out),
        Command::Count { files } => count(&files),
        Command::Fit(args) => fit(args),
        Command::StreamFit(args) => stream_fit(args),
        Command::ProbcutData(args) => probcut_data(args),
        Command::ProbcutFit { out, files } => probcut::fit(&files, &out),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => usage_error(e),
    }
}
