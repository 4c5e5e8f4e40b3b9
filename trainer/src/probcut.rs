//! Multi-ProbCut's statistics (`ebony-train probcut-data`, then `probcut-fit`).
//!
//! `probcut-data` takes positions from self-play game files, sampled in a seeded order, and records
//! the score of each at every depth from 0 (the evaluation) to `--depth`
//! ([`Searcher::depth_scores`]): full width by default, or at a sure `--selectivity` (99%) that
//! reaches depth 20 in about 2 s a position, where full width takes minutes. Runs are sharded
//! (`--shard K/N` does the samples whose index is K-1 mod N) and resumable, like `gen`: one line a
//! position, written as it is done.
//!
//! `probcut-fit` reads those files and fits, for every pair of a shallow depth d' and a deep depth d,
//! the line `deep = a * shallow + b` and its error sigma over all phases together, then sigma as a
//! linear function of the empties, the depth and the shallow depth, which the search uses for any
//! depth (Buro's Multi-ProbCut; Edax models sigma the same way). It prints the table of every pair
//! and writes the Rust source of the engine's statistics (`src/search/probcut_stats.rs`).

use crate::record::Label;
use crate::rng::Rng;
use ebony::eval::learned::Weights;
use ebony::eval::{Evaluator, Variant};
use ebony::rules::board::Board;
use ebony::search::{Searcher, Selectivity};
use std::collections::HashSet;
use std::fs::OpenOptions;
use std::io::Write;
use std::time::Instant;

/// Positions with fewer empties are left to the solver by every search.
const MIN_EMPTIES: u32 = 12;
/// Positions with more empties are the opening, which the book will answer.
const MAX_EMPTIES: u32 = 56;

pub struct DataSettings {
    pub positions: u64,
    pub seed: u64,
    pub shard: (u64, u64),
    pub depth: u32,
    pub eval: Option<(&'static Weights, String)>,
    /// Only positions whose exact value the games hold, recorded with it: the data of the solver's
    /// ProbCut.
    pub endgame: bool,
    /// The level of the searches (`Selectivity::EXACT`, full width, by default): a level as sure as
    /// 99% makes depths 16 to 20 affordable, where full width takes minutes a position.
    pub selectivity: Selectivity,
}

impl DataSettings {
    fn header(&self, files: &[String]) -> String {
        let eval = match &self.eval {
            None => "builtin".to_string(),
            Some((w, name)) => format!("{name}:{:016x}", w.checksum()),
        };
        let names: Vec<&str> = files
            .iter()
            .map(|f| std::path::Path::new(f).file_name().map_or(f.as_str(), |n| n.to_str().unwrap_or(f)))
            .collect();
        let kind = if self.endgame { " endgame" } else { "" };
        // Full width, the original data, keeps the original header (its files resume).
        let level = if self.selectivity.is_exact() {
            String::new()
        } else {
            format!(" selectivity={}", self.selectivity.percent())
        };
        format!(
            "# ebony-train probcut-data v1{kind} seed={} depth={}{level} eval={eval} games={}",
            self.seed,
            self.depth,
            names.join(",")
        )
    }
}

/// Every distinct labelled position of the games with `MIN_EMPTIES..=MAX_EMPTIES` empties and a
/// move, in file order, with its exact value when the game has it (and only those if `exact_only`).
fn candidates(files: &[String], exact_only: bool) -> Result<Vec<(Board, Option<i32>)>, String> {
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    for path in files {
        for record in crate::games::Reader::open(path)? {
            let positions = record?.positions().map_err(|e| format!("{path}: {e}"))?;
            for p in positions {
                let e = p.board.empty_count();
                let exact = match p.label {
                    Label::Exact(v) => Some(v),
                    _ => None,
                };
                if p.label.score().is_some()
                    && (exact.is_some() || !exact_only)
                    && (MIN_EMPTIES..=MAX_EMPTIES).contains(&e)
                    && p.board.moves() != 0
                    && seen.insert((p.board.player, p.board.opponent))
                {
                    out.push((p.board, exact));
                }
            }
        }
    }
    Ok(out)
}

/// One line of a data file: a sampled position, its score at each depth from 0 and its exact value
/// if known.
struct Scores {
    index: u64,
    empties: u32,
    scores: Vec<i32>,
    exact: Option<i32>,
}

fn parse_line(line: &str) -> Result<Scores, String> {
    let fields: Vec<&str> = line.split_whitespace().collect();
    let (index, player, opponent, scores, exact) = match fields[..] {
        [i, p, o, s] => (i, p, o, s, None),
        [i, p, o, s, e] => (i, p, o, s, Some(e)),
        _ => return Err(format!("expected index, player, opponent, scores and maybe the exact value: {line:?}")),
    };
    let bad = |what: &str| format!("bad {what} in {line:?}");
    let index = index.parse().map_err(|_| bad("index"))?;
    let player = u64::from_str_radix(player, 16).map_err(|_| bad("player"))?;
    let opponent = u64::from_str_radix(opponent, 16).map_err(|_| bad("opponent"))?;
    if player & opponent != 0 {
        return Err(bad("board"));
    }
    let scores: Vec<i32> = scores.split(',').map(|s| s.parse().map_err(|_| bad("score"))).collect::<Result<_, _>>()?;
    let exact = exact.map(|e| e.parse().map_err(|_| bad("exact value"))).transpose()?;
    Ok(Scores { index, empties: 64 - (player | opponent).count_ones(), scores, exact })
}

pub fn data(settings: &DataSettings, files: &[String], out: &str) -> Result<(), String> {
    let header = settings.header(files);
    let done = crate::record::resume(out, &header, |l| parse_line(l).map(|s| s.index))?;
    let mut pool = candidates(files, settings.endgame)?;
    // A seeded shuffle (Fisher-Yates): sample i is the i-th of it.
    let mut rng = Rng::for_game(settings.seed, u64::MAX);
    for i in (1..pool.len()).rev() {
        pool.swap(i, rng.below(i as u64 + 1) as usize);
    }
    let count = settings.positions.min(pool.len() as u64);
    let (k, n) = settings.shard;
    let todo: Vec<u64> = (0..count).filter(|i| i % n == k - 1 && !done.contains(i)).collect();
    note!("{} positions to sample from; {} done in this shard, {} to do", pool.len(), done.len(), todo.len());

    let mut file =
        OpenOptions::new().create(true).append(true).open(out).map_err(|e| format!("cannot open {out}: {e}"))?;
    let write_err = |e: std::io::Error| format!("cannot write {out}: {e}");
    if file.metadata().map_err(write_err)?.len() == 0 {
        writeln!(file, "{header}").map_err(write_err)?;
    }
    let mut searcher = Searcher::new(16);
    searcher
        .set_evaluator(Evaluator::new(settings.eval.as_ref().map_or(Variant::default(), |(w, _)| Variant::Learned(w))));
    let start = Instant::now();
    for (count, &index) in todo.iter().enumerate() {
        let (board, exact) = pool[index as usize];
        let scores = searcher.depth_scores(&board, settings.depth, settings.selectivity);
        let text: Vec<String> = scores.iter().map(i32::to_string).collect();
        let exact = if settings.endgame { exact.map_or(String::new(), |v| format!(" {v}")) } else { String::new() };
        writeln!(file, "{index} {:016x} {:016x} {}{exact}", board.player, board.opponent, text.join(","))
            .map_err(write_err)?;
        file.flush().map_err(write_err)?;
        let finished = count + 1;
        if finished % 50 == 0 || finished == todo.len() {
            let each = start.elapsed().as_secs_f64() / finished as f64;
            note!(
                "{finished}/{} positions, {each:.2} s each, about {:.0} min left",
                todo.len(),
                each * (todo.len() - finished) as f64 / 60.0
            );
        }
    }
    Ok(())
}

/// The deepest depth and the deepest shallow depth the fit covers.
pub const MAX_DEPTH: usize = 24;
const MAX_SHALLOW: usize = 8;

/// Least-squares statistics of one (shallow, deep) pair.
#[derive(Default, Clone, Copy)]
struct Pair {
    n: f64,
    sx: f64,
    sy: f64,
    sxx: f64,
    sxy: f64,
    syy: f64,
}

impl Pair {
    fn add(&mut self, x: f64, y: f64) {
        self.n += 1.0;
        self.sx += x;
        self.sy += y;
        self.sxx += x * x;
        self.sxy += x * y;
        self.syy += y * y;
    }

    fn merge(&mut self, other: &Pair) {
        self.n += other.n;
        self.sx += other.sx;
        self.sy += other.sy;
        self.sxx += other.sxx;
        self.sxy += other.sxy;
        self.syy += other.syy;
    }

    /// `(sigma, b)` of the line `y = x + b`: the standard deviation and the mean of `y - x`.
    fn unit_line(&self) -> (f64, f64) {
        let b = (self.sy - self.sx) / self.n;
        let mean_square = (self.syy - 2.0 * self.sxy + self.sxx) / self.n;
        ((mean_square - b * b).max(0.0).sqrt(), b)
    }

    /// `(a, b, sigma)` of the line `y = a x + b`.
    fn line(&self) -> (f64, f64, f64) {
        let (mx, my) = (self.sx / self.n, self.sy / self.n);
        let vxx = self.sxx / self.n - mx * mx;
        let vxy = self.sxy / self.n - mx * my;
        let vyy = self.syy / self.n - my * my;
        let a = vxy / vxx;
        let b = my - a * mx;
        let residual = (vyy - a * vxy).max(0.0);
        (a, b, residual.sqrt())
    }
}

/// Solves the normal equations `m x = v` (Gaussian elimination with partial pivoting).
fn solve<const N: usize>(mut m: [[f64; N]; N], mut v: [f64; N]) -> [f64; N] {
    for col in 0..N {
        let pivot = (col..N).max_by(|&i, &j| m[i][col].abs().total_cmp(&m[j][col].abs())).unwrap_or(col);
        m.swap(col, pivot);
        v.swap(col, pivot);
        let pivot_row = m[col];
        for row in col + 1..N {
            let f = m[row][col] / pivot_row[col];
            for (a, b) in m[row][col..].iter_mut().zip(&pivot_row[col..]) {
                *a -= f * b;
            }
            v[row] -= f * v[col];
        }
    }
    let mut x = [0.0; N];
    for row in (0..N).rev() {
        let tail: f64 = (row + 1..N).map(|k| m[row][k] * x[k]).sum();
        x[row] = (v[row] - tail) / m[row][row];
    }
    x
}

/// Empties buckets of the fit: the sigma of a pair is measured in each, then modelled.
const BUCKET: u32 = 8;

pub fn fit(files: &[String], out: &str) -> Result<(), String> {
    // pairs[shallow][deep][bucket]
    let buckets = (MAX_EMPTIES / BUCKET + 1) as usize;
    let mut pairs = vec![[[Pair::default(); 8]; MAX_DEPTH + 1]; MAX_SHALLOW + 1];
    assert!(buckets <= 8);
    let mut positions = 0;
    // end[shallow][empties]: the exact value against the shallow score.
    let mut end = vec![[Pair::default(); 61]; MAX_SHALLOW + 1];
    for path in files {
        let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {path}: {e}"))?;
        for line in text.lines().filter(|l| !l.starts_with('#')) {
            let s = parse_line(line).map_err(|e| format!("{path}: {e}"))?;
            positions += 1;
            if let Some(exact) = s.exact {
                for (shallow, &x) in s.scores.iter().enumerate().take(MAX_SHALLOW + 1) {
                    if (shallow as u32) < s.empties {
                        end[shallow][s.empties as usize].add(x as f64, exact as f64);
                    }
                }
            }
            let bucket = (s.empties / BUCKET) as usize;
            for (deep, &y) in s.scores.iter().enumerate().skip(1).take(MAX_DEPTH) {
                // A search that reached the end is exact: not what a cut at that depth predicts.
                if deep as u32 >= s.empties {
                    break;
                }
                for (shallow, &x) in s.scores.iter().enumerate().take(deep.min(MAX_SHALLOW + 1)) {
                    pairs[shallow][deep][bucket].add(x as f64, y as f64);
                }
            }
        }
    }
    if positions == 0 {
        return Err("no positions in the data files".to_string());
    }
    let mut report = Vec::new();
    report.push(format!(
        "{positions} positions; per (shallow, deep) pair: a, b, sigma over all empties, then sigma by empties/{BUCKET}"
    ));
    // The models: sigma (and the bias, deep - shallow) = c0 + c1 * empties + c2 * deep + c3 *
    // shallow, fitted on the (pair, bucket) cells of pairs of the same parity (the only pairs the
    // search uses) with enough positions, weighted by their counts.
    let (mut m, mut v_sigma, mut v_bias) = ([[0.0; 4]; 4], [0.0; 4], [0.0; 4]);
    for (shallow, row) in pairs.iter().enumerate() {
        for (deep, cells) in row.iter().enumerate() {
            let mut all = Pair::default();
            for c in cells {
                all.merge(c);
            }
            if all.n < 100.0 {
                continue;
            }
            let (a, b, sigma) = all.line();
            let modelled = shallow >= 1 && (deep - shallow) % 2 == 0;
            let mut by_bucket = String::new();
            for (bucket, c) in cells.iter().enumerate() {
                if c.n < 50.0 {
                    by_bucket.push_str("    -");
                    continue;
                }
                let (s, bias) = c.unit_line();
                by_bucket.push_str(&format!(" {s:4.2}"));
                if modelled {
                    let centre = (bucket as u32 * BUCKET) as f64 + BUCKET as f64 / 2.0;
                    let x = [1.0, centre, deep as f64, shallow as f64];
                    for i in 0..4 {
                        for j in 0..4 {
                            m[i][j] += c.n * x[i] * x[j];
                        }
                        v_sigma[i] += c.n * x[i] * s;
                        v_bias[i] += c.n * x[i] * bias;
                    }
                }
            }
            report.push(format!(
                "d'={shallow:2} d={deep:2}: n {:6} a {a:5.3} b {b:+6.3} sigma {sigma:5.2} |{by_bucket}",
                all.n
            ));
        }
    }
    let sigma = solve(m, v_sigma);
    let bias = solve(m, v_bias);
    // The solver's model: exact - shallow, by c0 + c1 * empties + c2 * (empties odd) + c3 * shallow,
    // on the even shallow depths it uses.
    let (mut m, mut v_sigma, mut v_bias) = ([[0.0; 4]; 4], [0.0; 4], [0.0; 4]);
    let mut end_positions = 0.0;
    for (shallow, cells) in end.iter().enumerate() {
        let mut line = String::new();
        for (empties, c) in cells.iter().enumerate() {
            if c.n < 30.0 {
                continue;
            }
            let (s, b) = c.unit_line();
            line.push_str(&format!(" {empties}:{s:.2}/{b:+.2}"));
            if shallow == 0 {
                end_positions += c.n;
            }
            if shallow >= 2 && shallow % 2 == 0 {
                let x = [1.0, empties as f64, (empties & 1) as f64, shallow as f64];
                for i in 0..4 {
                    for j in 0..4 {
                        m[i][j] += c.n * x[i] * x[j];
                    }
                    v_sigma[i] += c.n * x[i] * s;
                    v_bias[i] += c.n * x[i] * b;
                }
            }
        }
        if !line.is_empty() {
            report.push(format!("endgame d'={shallow}: sigma/bias by empties{line}"));
        }
    }
    let (end_sigma, end_bias) =
        if end_positions > 0.0 { (solve(m, v_sigma), solve(m, v_bias)) } else { ([0.0; 4], [0.0; 4]) };
    if end_positions == 0.0 {
        note!("no exact values in the data (probcut-data --endgame): the solver's model is left at zero");
    }
    report.push(format!(
        "endgame sigma = {:.4} + {:.4} * empties + {:.4} * odd + {:.4} * shallow; bias = {:.4} + {:.4} * empties + {:.4} * odd + {:.4} * shallow",
        end_sigma[0], end_sigma[1], end_sigma[2], end_sigma[3], end_bias[0], end_bias[1], end_bias[2], end_bias[3]
    ));
    report.push(format!(
        "sigma = {:.4} + {:.4} * empties + {:.4} * depth + {:.4} * shallow",
        sigma[0], sigma[1], sigma[2], sigma[3]
    ));
    report.push(format!(
        "bias = {:.4} + {:.4} * empties + {:.4} * depth + {:.4} * shallow",
        bias[0], bias[1], bias[2], bias[3]
    ));
    if sigma.iter().chain(&bias).chain(&end_sigma).chain(&end_bias).any(|c| !c.is_finite()) {
        for line in report {
            say!("{line}");
        }
        return Err(format!(
            "{positions} positions are not enough to fit the models (each needs cells of 50 positions or more)"
        ));
    }
    let source = format!(
        "//! Multi-ProbCut's error model, fitted by `ebony-train probcut-fit` on {positions} positions (see
//! docs/search.md): the mean (`BIAS`) and the standard deviation (`SIGMA`), in discs, of a deep
//! search's score less its shallow search's, each a linear function of the empties, the depth and the
//! shallow depth: `c[0] + c[1] * empties + c[2] * depth + c[3] * shallow`; and for the endgame
//! solver's ProbCut, of the exact score less a shallow search's, `c[0] + c[1] * empties + c[2] *
//! (empties odd) + c[3] * shallow` (`END_BIAS`, `END_SIGMA`). Generated: do not edit.

pub const BIAS: [f64; 4] = {bias:?};
pub const SIGMA: [f64; 4] = {sigma:?};
pub const END_BIAS: [f64; 4] = {end_bias:?};
pub const END_SIGMA: [f64; 4] = {end_sigma:?};
"
    );
    std::fs::write(out, source).map_err(|e| format!("cannot write {out}: {e}"))?;
    note!("wrote {out}");
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp(name: &str) -> String {
        std::env::temp_dir().join(format!("ebony-train-probcut-{}-{name}", std::process::id())).to_string_lossy().into()
    }

    #[test]
    fn data_resumes_where_it_stopped_and_the_fit_writes_finite_models() {
        let games = crate::fit::tests::games_file("probcut");
        let out = temp("data.txt");
        let settings = |positions, endgame| DataSettings {
            positions,
            seed: 3,
            shard: (1, 1),
            depth: 4,
            eval: None,
            endgame,
            selectivity: Selectivity::EXACT,
        };
        data(&settings(5, false), std::slice::from_ref(&games), &out).unwrap();
        data(&settings(12, false), std::slice::from_ref(&games), &out).unwrap();
        let text = std::fs::read_to_string(&out).unwrap();
        let lines: Vec<&str> = text.lines().skip(1).collect();
        let indices: Vec<u64> = lines.iter().map(|l| parse_line(l).unwrap().index).collect();
        assert_eq!(indices, (0..12).collect::<Vec<_>>(), "each sample once, in order");
        assert!(lines.iter().all(|l| parse_line(l).unwrap().scores.len() == 5));
        // Another run's settings are refused, not mixed in: another kind, another level.
        assert!(data(&settings(12, true), std::slice::from_ref(&games), &out).is_err());
        let selective = DataSettings { selectivity: Selectivity::level(99), ..settings(12, false) };
        let error = data(&selective, std::slice::from_ref(&games), &out).unwrap_err();
        assert!(error.contains("selectivity=99"), "{error}");
        let end = temp("end.txt");
        data(&settings(40, true), std::slice::from_ref(&games), &end).unwrap();
        let end_text = std::fs::read_to_string(&end).unwrap();
        assert!(end_text.lines().skip(1).all(|l| parse_line(l).unwrap().exact.is_some()));

        // A dozen positions fit nothing: a clear error, no file of NaNs.
        let stats = temp("stats.rs");
        let error = fit(&[out.clone(), end.clone()], &stats).unwrap_err();
        assert!(error.contains("not enough"), "{error}");
        assert!(std::fs::metadata(&stats).is_err());
        for path in [games, out, end] {
            std::fs::remove_file(path).unwrap();
        }
    }

    /// Scores drawn around each other with a known error: the fit finds the error's model again.
    /// Each depth's score strays from the one two plies shallower by sigma(empties) = 1 + 0.06 *
    /// empties, so two plies apart the error is that, and the fitted model must say so.
    #[test]
    fn the_fit_recovers_a_known_error_model() {
        let mut rng = Rng::for_game(1, 2);
        let mut normal = || {
            let u = (rng.next() >> 11) as f64 / (1u64 << 53) as f64;
            let v = (rng.next() >> 11) as f64 / (1u64 << 53) as f64;
            (-2.0 * (u + 1e-12).ln()).sqrt() * (std::f64::consts::TAU * v).cos()
        };
        let sigma = |empties: u32| 1.0 + 0.06 * empties as f64;
        let mut text = String::from("# synthetic\n");
        for index in 0..8000u64 {
            let empties = 14 + (index % 40) as u32;
            let player = (1u64 << (64 - empties)) - 1;
            let mut scores = [0.0; 7];
            scores[0] = 10.0 * normal();
            scores[1] = 10.0 * normal();
            for d in 2..7 {
                scores[d] = scores[d - 2] + sigma(empties) * normal();
            }
            let list: Vec<String> = scores.iter().map(|v| format!("{}", (v * 8.0).round() as i32)).collect();
            text.push_str(&format!("{index} {player:016x} {:016x} {}\n", 0, list.join(",")));
        }
        let data_path = temp("synthetic.txt");
        std::fs::write(&data_path, text).unwrap();
        let stats = temp("synthetic.rs");
        fit(std::slice::from_ref(&data_path), &stats).unwrap();
        let source = std::fs::read_to_string(&stats).unwrap();
        let line = source.lines().find(|l| l.starts_with("pub const SIGMA")).unwrap();
        let values: Vec<f64> = line
            .split_once("= [")
            .unwrap()
            .1
            .trim_end_matches("];")
            .split(',')
            .map(|v| v.trim().parse().unwrap())
            .collect();
        // The scores were written 8 to a unit: the fitted sigma is 8 times the model's.
        for empties in [16, 32, 48] {
            let fitted = (values[0] + values[1] * empties as f64 + values[2] * 3.0 + values[3] * 1.0) / 8.0;
            let truth = sigma(empties);
            assert!((fitted - truth).abs() < 0.1 * truth, "{empties} empties: {fitted} against {truth}");
        }
        std::fs::remove_file(data_path).unwrap();
        std::fs::remove_file(stats).unwrap();
    }
}
