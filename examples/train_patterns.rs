//! Learns the pattern evaluation (`src/eval/pattern.rs`) from exactly solved endgame positions.
//!
//! `gen`: plays games from the start with a noisy one-ply player until a given number of empties,
//! then follows the game to its end, solving every position with all its moves' exact scores; each
//! child position is written with its exact score (`player opponent score` in hex, hex, decimal).
//!
//! `fit`: least squares over the pattern weights, tied across each pattern's own symmetries; prints
//! the held-out error and how well the result orders the FFO positions' moves, and writes the weight
//! file.
//!
//! Run by `scripts/train-eval`; see README "Pattern evaluation".

use ebony::eval::pattern::{self, Weights, INSTANCES, SCALE};
use ebony::rules::board::{Board, Move};
use ebony::search::endgame::Solver;
use ebony::search::Silent;
use ebony::{eval::Evaluator, Square};
use std::io::{BufRead, BufWriter, Write};
use std::process::ExitCode;

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

fn usage() -> ExitCode {
    eprintln!(
        "usage: train_patterns gen --games N --seed S --empties E --out FILE\n       \
         train_patterns fit --out FILE [--epochs N] [--damping D] DATA..."
    );
    ExitCode::FAILURE
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let value = |name: &str| args.iter().position(|a| a == name).and_then(|i| args.get(i + 1)).cloned();
    let number = |name: &str, default: u64| value(name).map_or(Some(default), |v| v.parse().ok());
    match args.first().map(String::as_str) {
        Some("gen") => {
            let (Some(games), Some(seed), Some(empties), Some(out)) =
                (number("--games", 100), number("--seed", 1), number("--empties", 18), value("--out"))
            else {
                return usage();
            };
            generate(games, seed, empties as u32, &out)
        }
        Some("fit") => {
            let (Some(out), Some(epochs), Some(damping)) =
                (value("--out"), number("--epochs", 300), number("--damping", 8))
            else {
                return usage();
            };
            let mut files = Vec::new();
            let mut i = 1;
            while i < args.len() {
                if args[i].starts_with("--") {
                    i += 2;
                } else {
                    files.push(args[i].clone());
                    i += 1;
                }
            }
            fit(&files, epochs as usize, damping as f32, &out)
        }
        _ => usage(),
    }
}

/// A move for the opening part of a game: random one time in three, else the best by one ply of the
/// hand-made evaluation (so positions look like played games, not random noise).
fn noisy_move(board: &Board, rng: &mut Rng) -> Square {
    let squares: Vec<Square> = ebony::rules::square::Squares(board.moves()).collect();
    if rng.below(3) == 0 {
        return squares[rng.below(squares.len() as u64) as usize];
    }
    let mut score = |sq: &Square| -Evaluator::default().evaluate(&board.play(*sq)) * 16 + rng.below(16) as i32;
    *squares.iter().max_by_key(|&sq| score(sq)).expect("a position with moves")
}

fn generate(games: u64, seed: u64, empties: u32, out: &str) -> ExitCode {
    let mut rng = Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
    let mut solver = Solver::new(64);
    let file = match std::fs::File::create(out) {
        Ok(f) => f,
        Err(e) => {
            eprintln!("error: cannot create {out}: {e}");
            return ExitCode::FAILURE;
        }
    };
    let mut writer = BufWriter::new(file);
    let (mut written, start) = (0u64, std::time::Instant::now());
    for game in 0..games {
        let mut board = Board::START;
        while board.empty_count() > empties && !board.is_game_over() {
            board = if board.moves() == 0 { board.pass() } else { board.play(noisy_move(&board, &mut rng)) };
        }
        solver.clear();
        while board.empty_count() >= 6 && !board.is_game_over() {
            if board.moves() == 0 {
                board = board.pass();
                continue;
            }
            let all = solver.solve_all_moves(&board, &mut Silent);
            for &(mv, score) in &all.moves {
                if let Move::Play(sq) = mv {
                    let child = board.play(sq);
                    if writeln!(writer, "{:016x} {:016x} {}", child.player, child.opponent, -score).is_err() {
                        eprintln!("error: cannot write {out}");
                        return ExitCode::FAILURE;
                    }
                    written += 1;
                }
            }
            // Follow the best move half the time, else a random one: both kinds of position occur in a
            // search tree.
            let pick = if rng.below(2) == 0 { 0 } else { rng.below(all.moves.len() as u64) as usize };
            let Move::Play(sq) = all.moves[pick].0 else { break };
            board = board.play(sq);
        }
        if (game + 1) % 50 == 0 {
            eprintln!("{} games, {written} positions, {:.0} s", game + 1, start.elapsed().as_secs_f64());
        }
    }
    if writer.flush().is_err() {
        eprintln!("error: cannot write {out}");
        return ExitCode::FAILURE;
    }
    ExitCode::SUCCESS
}

/// How well the weights order the moves of the FFO test positions (an independent check: none of
/// them is in the training data): the share of move pairs with different exact scores put in the
/// right order.
fn report_ffo(weights: &Weights) {
    let mut text = String::new();
    for path in ["tests/data/fforum-1-19.obf", "tests/data/fforum-20-39.obf", "tests/data/fforum-40-59.obf"] {
        text.push_str(&std::fs::read_to_string(path).unwrap_or_default());
    }
    let Ok(entries) = ebony::formats::obf::parse(&text) else { return };
    let order = pattern::move_pair_order(weights, &entries);
    eprintln!("FFO move pairs in the right order: {:.1}%", 100.0 * order);
}

struct Sample {
    features: [u32; INSTANCES],
    target: f32,
}

fn load(files: &[String], canon: &[u32]) -> Result<Vec<Sample>, String> {
    let mut samples = Vec::new();
    for path in files {
        let file = std::fs::File::open(path).map_err(|e| format!("cannot read {path}: {e}"))?;
        for (number, line) in std::io::BufReader::new(file).lines().enumerate() {
            let line = line.map_err(|e| format!("{path}: {e}"))?;
            let fields: Vec<&str> = line.split_whitespace().collect();
            let parsed = match fields[..] {
                [p, o, s] => {
                    u64::from_str_radix(p, 16).ok().zip(u64::from_str_radix(o, 16).ok()).zip(s.parse::<i32>().ok())
                }
                _ => None,
            };
            let Some(((p, o), score)) = parsed else {
                return Err(format!("{path}:{}: bad line", number + 1));
            };
            let features = pattern::indices(p, o).map(|i| canon[i as usize]);
            samples.push(Sample { features, target: score as f32 });
        }
    }
    Ok(samples)
}

fn fit(files: &[String], epochs: usize, damping: f32, out: &str) -> ExitCode {
    let canon = pattern::canonical_indices();
    let count = pattern::weight_count();
    let mut samples = match load(files, &canon) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
    };
    // A fixed shuffle, then one sample in ten held out to measure what the weights generalise to.
    let mut rng = Rng(0x2545_F491_4F6C_DD1D);
    for i in (1..samples.len()).rev() {
        let j = rng.below(i as u64 + 1) as usize;
        samples.swap(i, j);
    }
    let held = samples.len() / 10;
    let (test, train) = samples.split_at(held);
    eprintln!("{} training samples, {} held out, {count} weights", train.len(), test.len());

    let mut weights = vec![0f32; count];
    let mut counts = vec![0f32; count];
    for s in train {
        for &f in &s.features {
            counts[f as usize] += 1.0;
        }
    }
    let predict = |w: &[f32], s: &Sample| -> f32 { s.features.iter().map(|&f| w[f as usize]).sum() };
    let mut gradient = vec![0f32; count];
    // Each weight moves by the mean residual of the samples that use it, damped for rare weights and
    // scaled by the number of pattern copies per board (all of them move at once).
    let rate = 1.0 / INSTANCES as f32 * 2.0;
    for epoch in 0..epochs {
        gradient.fill(0.0);
        let mut loss = 0.0f64;
        for s in train {
            let residual = s.target - predict(&weights, s);
            loss += (residual * residual) as f64;
            for &f in &s.features {
                gradient[f as usize] += residual;
            }
        }
        for i in 0..weights.len() {
            weights[i] += rate * gradient[i] / (counts[i] + damping);
        }
        if epoch % 25 == 0 || epoch + 1 == epochs {
            let test_mse: f64 = test.iter().map(|s| ((s.target - predict(&weights, s)) as f64).powi(2)).sum::<f64>()
                / held.max(1) as f64;
            eprintln!(
                "epoch {epoch}: train rmse {:.2}, held-out rmse {:.2} discs",
                (loss / train.len().max(1) as f64).sqrt(),
                test_mse.sqrt()
            );
        }
    }
    // Expand the tied weights to every raw index and round to the file's fixed point.
    let values = canon
        .iter()
        .map(|&c| (weights[c as usize] * SCALE as f32).round().clamp(i16::MIN as f32, i16::MAX as f32) as i16)
        .collect();
    let bytes = match Weights::from_values(values) {
        Ok(w) => w.to_bytes(),
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
    };
    if let Ok(weights) = Weights::from_bytes(&bytes) {
        report_ffo(&weights);
    }
    if let Err(e) = std::fs::write(out, bytes) {
        eprintln!("error: cannot write {out}: {e}");
        return ExitCode::FAILURE;
    }
    ExitCode::SUCCESS
}
