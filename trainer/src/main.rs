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

mod fit;
mod games;
mod probcut;
mod record;
mod rng;
mod samples;
mod selfplay;
mod stream_fit;

use ebony::eval::learned::Weights;
use ebony::search::Selectivity;
use std::process::ExitCode;

const USAGE: &str = "usage (a game file is binary, or text when its name ends in .txt):
  ebony-train gen --out FILE --games N [--seed S] [--shard K/N] [--random LO-HI] [--depth D]
                  [--noise N] [--solve E] [--endgame-noise N] [--eval WEIGHTS] [--opening-margin M]
                  [--no-scores]
  ebony-train merge --out FILE FILE...
  ebony-train convert [--version 1|2] IN OUT     (a weight file: IN.ebev OUT.ebev, no --version)
  ebony-train count FILE...
  ebony-train fit --out WEIGHTS [--force] [--search-weight L] [--ridge R] [--smooth S] [--iterations N]
                  FILE[@WEIGHT]...
  ebony-train stream-fit --out WEIGHTS [--force] [--method adam|cg] [--search-weight L] [--ridge R]
                  [--smooth S] [--epochs N] [--batch B] [--rate A] [--decay D] [--average E] [--huber H]
                  [--seed S] [--work DIR] [--memory-mb M] [--compare WEIGHTS]... FILE[@WEIGHT]...
  ebony-train probcut-data --out FILE --positions N [--seed S] [--shard K/N] [--depth D] [--eval WEIGHTS]
                  [--selectivity P] [--endgame 1] GAMEFILE...
  ebony-train probcut-fit --out RUST_FILE DATAFILE...";

/// Options that take no value.
const FLAGS: [&str; 2] = ["force", "no-scores"];

/// `--name value` options (`--name` alone for [`FLAGS`]) and the other arguments, in order.
struct Args {
    options: Vec<(String, String)>,
    rest: Vec<String>,
}

impl Args {
    fn parse(args: &[String]) -> Result<Args, String> {
        let (mut options, mut rest) = (Vec::new(), Vec::new());
        let mut it = args.iter();
        while let Some(a) = it.next() {
            if let Some(name) = a.strip_prefix("--").filter(|n| FLAGS.contains(n)) {
                options.push((name.to_string(), String::new()));
            } else if let Some(name) = a.strip_prefix("--") {
                let value = it.next().ok_or_else(|| format!("--{name} needs a value"))?;
                options.push((name.to_string(), value.clone()));
            } else {
                rest.push(a.clone());
            }
        }
        Ok(Args { options, rest })
    }

    fn take(&mut self, name: &str) -> Option<String> {
        let i = self.options.iter().position(|(n, _)| n == name)?;
        Some(self.options.remove(i).1)
    }

    fn flag(&mut self, name: &str) -> bool {
        self.take(name).is_some()
    }

    fn number<T: std::str::FromStr>(&mut self, name: &str, default: T) -> Result<T, String> {
        match self.take(name) {
            None => Ok(default),
            Some(v) => v.parse().map_err(|_| format!("--{name}: not a number: {v}")),
        }
    }

    fn pair(&mut self, name: &str, sep: char, default: (u64, u64)) -> Result<(u64, u64), String> {
        let Some(v) = self.take(name) else { return Ok(default) };
        let parsed = v.split_once(sep).and_then(|(a, b)| Some((a.parse().ok()?, b.parse().ok()?)));
        parsed.ok_or_else(|| format!("--{name}: expected A{sep}B, got {v}"))
    }

    /// Fails on any option nobody took.
    fn finish(self) -> Result<Vec<String>, String> {
        match self.options.first() {
            Some((name, _)) => Err(format!("unknown option --{name}")),
            None => Ok(self.rest),
        }
    }
}

/// `--eval WEIGHTS`: the weights, and their file's name for a run's header.
fn eval_option(args: &mut Args) -> Result<Option<(&'static Weights, String)>, String> {
    let Some(path) = args.take("eval") else { return Ok(None) };
    let weights = fit::read_weights(&path)?;
    let name = std::path::Path::new(&path).file_name().map_or(path.clone(), |n| n.to_string_lossy().into_owned());
    // A run lasts until the process ends: the weights live as long as it.
    Ok(Some((&*Box::leak(Box::new(weights)), name)))
}

fn shard_option(args: &mut Args) -> Result<(u64, u64), String> {
    let shard = args.pair("shard", '/', (1, 1))?;
    if shard.1 == 0 || !(1..=shard.1).contains(&shard.0) {
        return Err(format!("--shard {}/{}: K must be in 1..=N", shard.0, shard.1));
    }
    Ok(shard)
}

fn gen(mut args: Args) -> Result<(), String> {
    let out = args.take("out").ok_or("gen needs --out FILE")?;
    let shard = shard_option(&mut args)?;
    let random = args.pair("random", '-', (4, 20))?;
    let settings = selfplay::Settings {
        games: args.number("games", 0)?,
        seed: args.number("seed", 1)?,
        shard,
        random_plies: (random.0 as u32, random.1 as u32),
        depth: args.number("depth", 6)?,
        noise: args.number("noise", 0)?,
        solve: args.number("solve", 20)?,
        endgame_noise: args.number("endgame-noise", 8)?,
        eval: eval_option(&mut args)?,
        opening_margin: args.number("opening-margin", 0)?,
        scores: !args.flag("no-scores"),
    };
    if !args.finish()?.is_empty() {
        return Err("gen takes no file arguments".to_string());
    }
    if settings.random_plies.0 > settings.random_plies.1 || settings.random_plies.1 > 60 {
        return Err("--random LO-HI: need LO <= HI <= 60".to_string());
    }
    if !(1..=60).contains(&settings.depth) || settings.endgame_noise == 0 {
        return Err("--depth must be 1..=60, --endgame-noise at least 1".to_string());
    }
    if settings.solve > 30 {
        return Err("--solve above 30 empties would take hours a game".to_string());
    }
    selfplay::run(&settings, &out)
}

fn merge(mut args: Args) -> Result<(), String> {
    let out = args.take("out").ok_or("merge needs --out FILE")?;
    let files = args.finish()?;
    if files.is_empty() {
        return Err("merge needs at least one game file".to_string());
    }
    let mut header: Option<String> = None;
    let mut records = std::collections::BTreeMap::new();
    for path in &files {
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
    write_games(&out, &header.unwrap_or_default(), games::VERSION, records.values())?;
    eprintln!("{} games in {out}", records.len());
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
fn convert(mut args: Args) -> Result<(), String> {
    let version = args.take("version");
    let files = args.finish()?;
    let [input, out] = &files[..] else { return Err("convert takes two files: IN OUT".to_string()) };
    if input.ends_with(".ebev") {
        return match version {
            Some(_) => Err("--version is a game file's; a weight file is written in the current version".to_string()),
            None => convert_weights(input, out),
        };
    }
    let version = match version.as_deref() {
        None => games::VERSION,
        Some(_) if games::is_text(out) => return Err("--version is the binary form's; OUT ends in .txt".to_string()),
        Some("1") => 1,
        Some("2") => 2,
        Some(other) => return Err(format!("--version {other}: expected 1 or 2")),
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
    eprintln!("{} games: {a} bytes in {input}, {b} in {out}; read back the same", records.len());
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
    eprintln!("weights {:016x}: {} bytes in {input}, {} in {out}", weights.checksum(), size(input), size(out));
    Ok(())
}

/// Each file's games and the positions a fit learns from them (`GameRecord::fitted`: `fit` and
/// `stream-fit` count the same), then the totals, on stdout.
fn count(args: Args) -> Result<(), String> {
    let files = args.finish()?;
    if files.is_empty() {
        return Err("count needs at least one game file".to_string());
    }
    let (mut all_games, mut all_positions) = (0u64, 0u64);
    for path in &files {
        let (mut games, mut positions) = (0u64, 0u64);
        for record in games::Reader::open(path)? {
            positions += record?.fitted().map_err(|e| format!("{path}: {e}"))?.len() as u64;
            games += 1;
        }
        println!("{path}: {games} games, {positions} positions");
        (all_games, all_positions) = (all_games + games, all_positions + positions);
    }
    println!("total: {all_games} games, {all_positions} positions");
    Ok(())
}

fn fit(mut args: Args) -> Result<(), String> {
    let out = args.take("out").ok_or("fit needs --out FILE")?;
    let settings = fit::Settings {
        search_weight: args.number("search-weight", 0.0)?,
        ridge: args.number("ridge", 2.0)?,
        smooth: args.number("smooth", 4.0)?,
        iterations: args.number("iterations", 150)?,
        force: args.flag("force"),
    };
    let files = args.finish()?.iter().map(|f| fit::weighted_file(f)).collect::<Result<Vec<_>, _>>()?;
    if files.is_empty() {
        return Err("fit needs at least one game file".to_string());
    }
    fit::run(&files, &settings, &out)
}

fn stream_fit(mut args: Args) -> Result<(), String> {
    let out = args.take("out").ok_or("stream-fit needs --out FILE")?;
    let method = match args.take("method").as_deref() {
        None | Some("adam") => stream_fit::Method::Adam,
        Some("cg") => stream_fit::Method::ConjugateGradients,
        Some(other) => return Err(format!("--method {other}: expected adam or cg")),
    };
    let settings = stream_fit::Settings {
        method,
        search_weight: args.number("search-weight", 0.0)?,
        ridge: args.number("ridge", 1.0)?,
        smooth: args.number("smooth", 64.0)?,
        epochs: args.number("epochs", 16)?,
        batch: args.number("batch", 8192)?,
        rate: args.number("rate", 0.3)?,
        decay: args.number("decay", 0.75)?,
        average: args.number("average", 3)?,
        huber: args.number("huber", f64::INFINITY)?,
        seed: args.number("seed", 1)?,
        work: args.take("work"),
        memory: args.number::<u64>("memory-mb", 1024)?.saturating_mul(1 << 20),
        compare: std::iter::from_fn(|| args.take("compare")).collect(),
        force: args.flag("force"),
    };
    let files = args.finish()?.iter().map(|f| fit::weighted_file(f)).collect::<Result<Vec<_>, _>>()?;
    if files.is_empty() {
        return Err("stream-fit needs at least one game file".to_string());
    }
    if settings.batch == 0 || settings.memory == 0 {
        return Err("--batch and --memory-mb must be at least 1".to_string());
    }
    if !(settings.rate > 0.0 && settings.decay > 0.0 && settings.decay <= 1.0) {
        return Err("--rate must be positive, --decay in (0, 1]".to_string());
    }
    if settings.huber.is_nan() || settings.huber <= 0.0 {
        return Err("--huber must be positive".to_string());
    }
    if settings.huber.is_finite() && settings.method == stream_fit::Method::ConjugateGradients {
        return Err("--huber needs --method adam: conjugate gradients solve the least squares".to_string());
    }
    stream_fit::run(&files, &settings, &out)
}

fn probcut_data(mut args: Args) -> Result<(), String> {
    let out = args.take("out").ok_or("probcut-data needs --out FILE")?;
    let settings = probcut::DataSettings {
        positions: args.number("positions", 0)?,
        seed: args.number("seed", 1)?,
        shard: shard_option(&mut args)?,
        depth: args.number("depth", 12)?,
        eval: eval_option(&mut args)?,
        endgame: args.number("endgame", 0u8)? == 1,
        selectivity: Selectivity::parse_percent(args.number("selectivity", 100)?)
            .map_err(|e| format!("--selectivity: {e}"))?,
    };
    if !(1..=probcut::MAX_DEPTH as u32).contains(&settings.depth) {
        return Err(format!("--depth must be 1..={}", probcut::MAX_DEPTH));
    }
    let files = args.finish()?;
    if files.is_empty() {
        return Err("probcut-data needs at least one game file".to_string());
    }
    probcut::data(&settings, &files, &out)
}

fn probcut_fit(mut args: Args) -> Result<(), String> {
    let out = args.take("out").ok_or("probcut-fit needs --out FILE")?;
    let files = args.finish()?;
    if files.is_empty() {
        return Err("probcut-fit needs at least one data file".to_string());
    }
    probcut::fit(&files, &out)
}

fn main() -> ExitCode {
    let argv: Vec<String> = std::env::args().skip(1).collect();
    let Some((command, rest)) = argv.split_first() else {
        eprintln!("{USAGE}");
        return ExitCode::FAILURE;
    };
    if matches!(command.as_str(), "help" | "--help" | "-h") || rest.iter().any(|a| a == "--help" || a == "-h") {
        println!("{USAGE}");
        return ExitCode::SUCCESS;
    }
    let result = Args::parse(rest).and_then(|args| match command.as_str() {
        "gen" => gen(args),
        "merge" => merge(args),
        "convert" => convert(args),
        "count" => count(args),
        "fit" => fit(args),
        "stream-fit" => stream_fit(args),
        "probcut-data" => probcut_data(args),
        "probcut-fit" => probcut_fit(args),
        _ => Err(format!("unknown command {command}\n{USAGE}")),
    });
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}
