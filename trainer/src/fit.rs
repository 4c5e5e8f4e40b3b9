//! `ebony-train fit`: the least-squares fit of the learnt evaluation to the labelled positions of game
//! files.
//!
//! Positions are deduplicated by symmetry (each class once, with the mean of its labels); one class
//! in ten, chosen by a hash of the position, is held out to measure the error on positions the fit
//! never saw. The fit minimises
//!
//! ```text
//! sum over positions (label - estimate)^2 + ridge * |w|^2 + smooth * sum over neighbouring phases |w_k - w_k+1|^2
//! ```
//!
//! by conjugate gradients on the normal equations (preconditioned by their diagonal). Every sum runs
//! in a fixed order in f64, so the same files give the same weights bit for bit.
//!
//! Every class stays in memory with its feature indices (3.6 GB for 13 M positions): `stream-fit`
//! ([`crate::stream_fit`](mod@crate::stream_fit)) fits the same objective on the same classes in bounded memory. An
//! existing output file is refused unless `--force`.

use crate::record::Label;
use ebony::eval::learned::{self, Weights, FEATURES, PHASES, SCALE};
use ebony::rules::movegen;
use ebony::rules::symmetry::canonical;
use std::collections::HashMap;

pub struct Settings {
    /// The share of the search score in the label of a position before the solve point (the rest
    /// is the game's outcome).
    pub search_weight: f64,
    pub ridge: f64,
    pub smooth: f64,
    pub iterations: usize,
    /// Replace an existing output file.
    pub force: bool,
}

/// A game file and the weight of each of its positions in the fit (`PATH@W` on the command line;
/// 1 without `@`).
pub fn weighted_file(arg: &str) -> Result<(String, f64), String> {
    match arg.rsplit_once('@') {
        None => Ok((arg.to_string(), 1.0)),
        Some((path, w)) => match w.parse::<f64>() {
            Ok(w) if w > 0.0 && w.is_finite() => Ok((path.to_string(), w)),
            _ => Err(format!("{arg}: the weight after @ must be a positive number")),
        },
    }
}

/// One deduplicated position: its feature indices (phase offset included), its mean label, and the
/// mean of its outcome or exact labels alone (the yardstick of the held-out error, whatever share of
/// search scores the labels take).
pub(crate) struct Sample {
    features: [u32; FEATURES],
    /// The sample's weight in the sum of squares.
    pub(crate) weight: f64,
    pub(crate) label: f64,
    pub(crate) truth: f64,
    empties: u32,
    /// The canonical position, for the held-out comparisons with other evaluations.
    pub(crate) board: (u64, u64),
}

/// What the fit learns of a labelled position, if anything: its label for the fit (the outcome or
/// exact value, or with `--search-weight` a mix of the outcome and the search score) and its truth
/// (the outcome or exact value alone, the yardstick of the held-out error).
pub fn target(label: Label, search_weight: f64) -> Option<(f64, f64)> {
    let score = match label {
        Label::None => return None,
        Label::Exact(s) | Label::Outcome { outcome: s, search: None } => s as f64,
        Label::Outcome { outcome, search: Some(search) } => {
            search_weight * search as f64 + (1.0 - search_weight) * outcome as f64
        }
    };
    Some((score, label.score()? as f64))
}

/// Positions with more empties than this (those of the first four moves, 79 classes) are never held
/// out: every game from the start passes through them, and a class held out leaves its weights to the
/// ridge. The start position is one the hash below would hold out: fits until 2026-11-26 evaluated it
/// at +12 to +26 for black, where the games' mean outcome was +2.
pub const ALWAYS_FITTED: u32 = 55;

/// Whether a class (by its canonical position) is held out: one in ten or so, by a hash of the
/// position, so that every fit of the same games holds out the same classes; never one of more than
/// [`ALWAYS_FITTED`] empties.
pub fn held_out(p: u64, o: u64) -> bool {
    if 64 - (p | o).count_ones() > ALWAYS_FITTED {
        return false;
    }
    let hash = (p ^ o.rotate_left(23)).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 58;
    hash.is_multiple_of(10)
}

/// The sightings of one class, summed in the order they were read.
#[derive(Clone, Copy, Default)]
pub struct Class {
    label: f64,
    truth: f64,
    total: f64,
    count: u32,
}

impl Class {
    /// One sighting of the class in a file of weight `weight`.
    pub fn add(&mut self, weight: f64, score: f64, truth: f64) {
        self.label += weight * score;
        self.truth += weight * truth;
        self.total += weight;
        self.count += 1;
    }

    /// (mean label, mean truth, weight in the fit) of a class of positions with `empties` empties.
    /// A class counts once in the fit, with the mean weight of its positions. (Counting it once per
    /// sighting, which favours the positions near the opening, scored 44.4% instead of 48.9% at depth
    /// 8 against ntest depth 8 over 500 openings.) The positions of the first four moves (more than
    /// [`ALWAYS_FITTED`] empties) count once per sighting: only 79 classes have the weights of the
    /// phase of 56 to 60 empties to themselves, and counted once each they hardly pull those weights
    /// away from the next phase's, which the smoothing ties them to (the start position stayed at +14
    /// for black, the games' mean outcome being +2). With phases of 2 empties, counting only the first
    /// three moves so made the phase of 56 and 57 empties fit its 57-empty positions and miss its
    /// 56-empty ones (held-out error 11.3 discs against 4.7).
    pub fn mean(&self, empties: u32) -> (f64, f64, f64) {
        let weight = if empties > ALWAYS_FITTED { self.total } else { self.total / self.count as f64 };
        (self.label / self.total, self.truth / self.total, weight)
    }
}

pub(crate) type Loaded = (Vec<Sample>, Vec<Sample>, usize);

/// Positions from game files, deduplicated by symmetry, split into (training, held out), and the
/// number of positions read.
pub(crate) fn load(files: &[(String, f64)], search_weight: f64) -> Result<Loaded, String> {
    let mut classes: HashMap<(u64, u64), Class> = HashMap::new();
    let mut positions = 0usize;
    for (path, weight) in files {
        for record in crate::games::Reader::open(path)? {
            let record = record?;
            for l in record.fitted().map_err(|e| format!("{path}: {e}"))? {
                let Some((score, truth)) = target(l.label, search_weight) else { continue };
                let key = canonical(l.board.player, l.board.opponent);
                classes.entry(key).or_default().add(*weight, score, truth);
                positions += 1;
            }
        }
    }
    let canon = learned::canonical_indices();
    let size = learned::phase_size();
    let mut keys: Vec<_> = classes.into_iter().collect();
    keys.sort_unstable_by_key(|&(k, _)| k);
    let (mut train, mut test) = (Vec::new(), Vec::new());
    for ((p, o), class) in keys {
        let empties = (!(p | o)).count_ones();
        let offset = (learned::phase(empties) * size) as u32;
        let features = learned::features(p, o, movegen::moves(p, o)).map(|i| offset + canon[i as usize]);
        let (label, truth, weight) = class.mean(empties);
        let sample = Sample { features, weight, label, truth, empties, board: (p, o) };
        if held_out(p, o) {
            test.push(sample);
        } else {
            train.push(sample);
        }
    }
    Ok((train, test, positions))
}

fn predict(w: &[f64], s: &Sample) -> f64 {
    s.features.iter().map(|&f| w[f as usize]).sum()
}

/// `out = A v` for A = XᵀX + ridge I + smooth L.
fn apply(samples: &[Sample], settings: &Settings, size: usize, v: &[f64], out: &mut [f64]) {
    for (o, x) in out.iter_mut().zip(v) {
        *o = settings.ridge * x;
    }
    for s in samples {
        let sum = s.weight * predict(v, s);
        for &f in &s.features {
            out[f as usize] += sum;
        }
    }
    if settings.smooth > 0.0 {
        add_smoothing(settings.smooth, size, v, out);
    }
}

/// `out += smooth L v`, L the Laplacian that ties each weight to the same weight of the neighbouring
/// phases (`size` weights a phase).
pub(crate) fn add_smoothing(smooth: f64, size: usize, v: &[f64], out: &mut [f64]) {
    for k in 0..PHASES - 1 {
        for j in k * size..(k + 1) * size {
            let d = smooth * (v[j] - v[j + size]);
            out[j] += d;
            out[j + size] -= d;
        }
    }
}

/// Adds the diagonal of `smooth L` (see [`add_smoothing`]) to `diagonal`: a weight of the first or
/// the last phase has one neighbour, the others two.
pub(crate) fn add_smoothing_diagonal(smooth: f64, size: usize, diagonal: &mut [f64]) {
    for k in 0..PHASES {
        let neighbours = if k == 0 || k == PHASES - 1 { 1.0 } else { 2.0 };
        for d in &mut diagonal[k * size..(k + 1) * size] {
            *d += smooth * neighbours;
        }
    }
}

fn dot(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

/// Solves `A w = b` by conjugate gradients preconditioned by A's diagonal, `iterations` of them from
/// `w = 0`, for `fit` (the samples' features in memory) and `stream-fit --method cg` (the samples
/// streamed from disk), which differ only in how they compute `A v`: `apply(v, out)` sets
/// `out = A v`. `report(iteration, w)` follows every iteration, for the progress lines. The sums run
/// in a fixed order, so the same system gives the same weights bit for bit.
pub(crate) fn conjugate_gradients(
    b: Vec<f64>,
    diagonal: &[f64],
    iterations: usize,
    mut apply: impl FnMut(&[f64], &mut [f64]) -> Result<(), String>,
    mut report: impl FnMut(usize, &[f64]) -> Result<(), String>,
) -> Result<Vec<f64>, String> {
    let n = b.len();
    let mut w = vec![0.0; n];
    let mut r = b;
    let mut z: Vec<f64> = r.iter().zip(diagonal).map(|(r, d)| r / d).collect();
    let mut p = z.clone();
    let mut ap = vec![0.0; n];
    let mut rz = dot(&r, &z);
    for iteration in 1..=iterations {
        apply(&p, &mut ap)?;
        let alpha = rz / dot(&p, &ap);
        for i in 0..n {
            w[i] += alpha * p[i];
            r[i] -= alpha * ap[i];
            z[i] = r[i] / diagonal[i];
        }
        let rz_next = dot(&r, &z);
        let beta = rz_next / rz;
        rz = rz_next;
        for i in 0..n {
            p[i] = z[i] + beta * p[i];
        }
        report(iteration, &w)?;
    }
    Ok(w)
}

/// The absolute errors in discs of `estimate` against the outcome or exact labels of `samples`,
/// summed by phase.
fn errors(samples: &[Sample], estimate: impl Fn(&Sample) -> f64) -> ErrorSum {
    let mut sum = ErrorSum::default();
    for s in samples {
        sum.add(s.empties, estimate(s), s.truth);
    }
    sum
}

/// From this many empties on, the evaluation steers the midgame search; below, the solver mostly
/// plays (it takes over at 17 to 26 empties by the depth, `search::solve_empties`, and at about 20
/// to 24 at the times a move of matches). A fit's error over these positions is the part matches
/// can see: a gain in the last phases only reorders the solver's moves (a 29-phase fit on 118.6 M
/// positions erred by 0.21 and 2.72 discs at 0-1 and 2-3 empties where 15 phases err by 2.07 at
/// 0-3, and by the same from 20 empties on; docs/research-log.md, "29 phases of two empties on 118.6 M
/// positions").
pub const MIDGAME_FROM: u32 = 20;
const _: () = assert!(MIDGAME_FROM.is_multiple_of(learned::PHASE_WIDTH), "a phase boundary");

/// Absolute errors summed by phase, in the order they come.
#[derive(Clone, Copy, Default)]
pub struct ErrorSum {
    sum: [f64; PHASES],
    count: [usize; PHASES],
}

impl ErrorSum {
    pub fn add(&mut self, empties: u32, estimate: f64, truth: f64) {
        let ph = learned::phase(empties);
        self.sum[ph] += (estimate - truth).abs();
        self.count[ph] += 1;
    }

    /// The mean absolute error by phase (NaN for a phase without positions).
    pub fn by_phase(&self) -> [f64; PHASES] {
        std::array::from_fn(|k| if self.count[k] == 0 { f64::NAN } else { self.sum[k] / self.count[k] as f64 })
    }

    /// The mean absolute error over every position.
    pub fn total(&self) -> f64 {
        self.mean_from(0)
    }

    /// The mean absolute error over the positions of [`MIDGAME_FROM`] empties or more.
    pub fn midgame(&self) -> f64 {
        self.mean_from(learned::phase(MIDGAME_FROM))
    }

    fn mean_from(&self, first_phase: usize) -> f64 {
        let count: usize = self.count[first_phase..].iter().sum();
        self.sum[first_phase..].iter().sum::<f64>() / count.max(1) as f64
    }
}

/// The header of [`print_errors`]'s lines.
pub fn print_errors_header() {
    note!(
        "mean absolute error in discs, all phases, from {MIDGAME_FROM} empties | by phase ({} empties each, from 0):",
        learned::PHASE_WIDTH
    );
}

/// One line of errors: over all, from [`MIDGAME_FROM`] empties, then by phase.
pub fn print_errors(name: &str, errors: &ErrorSum) {
    // A phase without positions (the first moves' phase is never held out) shows as "-".
    let cells: Vec<String> =
        errors.by_phase().iter().map(|e| if e.is_nan() { format!("{:>5}", "-") } else { format!("{e:5.2}") }).collect();
    note!("{name:<14} {:6.3} {:6.3} | {}", errors.total(), errors.midgame(), cells.join(" "));
}

/// Refuses to replace an existing file unless told to: a fit must never silently overwrite the
/// shipped weights.
pub fn check_output(out: &str, force: bool) -> Result<(), String> {
    if !force && std::fs::metadata(out).is_ok() {
        return Err(format!("{out} exists; choose a new file or add --force to replace it"));
    }
    Ok(())
}

/// The weights of the file at `path`, or why not (the path in the message).
pub fn read_weights(path: &str) -> Result<Weights, String> {
    Weights::read_file(std::path::Path::new(path))
}

/// Writes a weight file, `check_output` again at the last moment (the fit may have run for hours).
pub fn write_weights(out: &str, weights: &Weights, force: bool) -> Result<(), String> {
    use std::io::Write;
    let mut options = std::fs::OpenOptions::new();
    options.write(true);
    if force {
        options.create(true).truncate(true);
    } else {
        options.create_new(true);
    }
    let mut file = options.open(out).map_err(|e| format!("cannot write {out}: {e}"))?;
    file.write_all(&weights.to_bytes()).map_err(|e| format!("cannot write {out}: {e}"))?;
    note!("wrote {out}");
    Ok(())
}

pub fn run(files: &[(String, f64)], settings: &Settings, out: &str) -> Result<(), String> {
    check_output(out, settings.force)?;
    let (train, test, positions) = load(files, settings.search_weight)?;
    let size = learned::phase_size();
    let n = PHASES * size;
    note!(
        "{positions} positions, {} classes under symmetry: {} to fit, {} held out; {n} weights",
        train.len() + test.len(),
        train.len(),
        test.len()
    );
    // b = Xᵀy; the preconditioner is the diagonal of A.
    let mut b = vec![0.0; n];
    let mut diagonal = vec![settings.ridge; n];
    for s in &train {
        for &f in &s.features {
            b[f as usize] += s.weight * s.label;
            diagonal[f as usize] += s.weight;
        }
    }
    add_smoothing_diagonal(settings.smooth, size, &mut diagonal);
    let in_memory = |v: &[f64], out: &mut [f64]| {
        apply(&train, settings, size, v, out);
        Ok(())
    };
    let report = |iteration: usize, w: &[f64]| {
        if iteration.is_multiple_of(25) || iteration == settings.iterations {
            let train_error = errors(&train, |s| predict(w, s)).total();
            let test_error = errors(&test, |s| predict(w, s)).total();
            note!("iteration {iteration}: mean error {train_error:.3} discs fitted, {test_error:.3} held out");
        }
        Ok(())
    };
    let w = conjugate_gradients(b, &diagonal, settings.iterations, in_memory, report)?;
    // Every index of a tied class gets the class's weight.
    let canon = learned::canonical_indices();
    let values: Vec<i16> = (0..n)
        .map(|i| {
            let x = w[i / size * size + canon[i % size] as usize];
            (x * SCALE as f64).round().clamp(i16::MIN as f64, i16::MAX as f64) as i16
        })
        .collect();
    let weights = Weights::from_values(values).map_err(|e| e.to_string())?;
    print_errors_header();
    let quantized =
        |s: &Sample| weights.score(s.board.0, s.board.1, movegen::moves(s.board.0, s.board.1)) as f64 / SCALE as f64;
    print_errors("learnt, fitted", &errors(&train, quantized));
    note!("held out:");
    print_errors("learnt", &errors(&test, quantized));
    print_errors(
        "v1",
        &errors(&test, |s| {
            ebony::eval::handmade::evaluate(&ebony::rules::board::Board::new(s.board.0, s.board.1)) as f64
        }),
    );
    write_weights(out, &weights, settings.force)
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::selfplay;
    use ebony::search::endgame::Solver;
    use ebony::search::Searcher;

    #[test]
    fn errors_over_all_and_from_the_midgame_on() {
        let mut sum = ErrorSum::default();
        sum.add(MIDGAME_FROM - 1, 3.0, 0.0); // the solver's part: counts in the total only
        sum.add(MIDGAME_FROM, -2.0, 2.0);
        sum.add(40, 10.0, 12.0);
        assert_eq!(sum.total(), 3.0);
        assert_eq!(sum.midgame(), 3.0);
        sum.add(0, 0.0, 0.0);
        assert_eq!((sum.total(), sum.midgame()), (2.25, 3.0));
        let by_phase = sum.by_phase();
        assert_eq!(by_phase[learned::phase(MIDGAME_FROM)], 4.0);
        assert!(by_phase[learned::phase(30)].is_nan(), "no position there");
        assert_eq!(ErrorSum::default().midgame(), 0.0, "no positions: no error, not NaN");
    }

    /// A few quick games in a file of their own.
    pub(crate) fn games_file(name: &str) -> String {
        let settings = selfplay::Settings { seed: 9, noise: 0, ..selfplay::tests::quick() };
        let (mut searcher, mut solver) = (Searcher::new(1), Solver::new(1));
        let path = std::env::temp_dir().join(format!("ebony-train-fit-{}-{name}.txt", std::process::id()));
        let text: String =
            (0..6).map(|i| format!("{}\n", selfplay::play_game(&settings, i, &mut searcher, &mut solver))).collect();
        std::fs::write(&path, format!("# test games\n{text}")).unwrap();
        path.to_string_lossy().into_owned()
    }

    /// The classes of the positions after `plies` moves from the start, every line of play.
    fn classes_after(plies: u32) -> std::collections::BTreeSet<(u64, u64)> {
        let mut boards = vec![ebony::rules::board::Board::START];
        for _ in 0..plies {
            boards =
                boards.iter().flat_map(|b| ebony::rules::square::Squares(b.moves()).map(|sq| b.play(sq))).collect();
        }
        boards.iter().map(|b| ebony::rules::symmetry::canonical(b.player, b.opponent)).collect()
    }

    #[test]
    fn the_first_moves_are_always_fitted_and_one_class_in_ten_later_held_out() {
        let early: Vec<_> = (0..5).flat_map(classes_after).collect();
        assert_eq!(early.len(), 79);
        // The hash alone would hold out the start position.
        let (p, o) = classes_after(0).into_iter().next().unwrap();
        assert!(((p ^ o.rotate_left(23)).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 58).is_multiple_of(10));
        assert!(early.iter().all(|&(p, o)| !held_out(p, o)));
        let later = classes_after(6);
        let held = later.iter().filter(|&&(p, o)| held_out(p, o)).count();
        assert!((later.len() / 14..later.len() / 7).contains(&held), "{held} of {}", later.len());
    }

    #[test]
    fn the_start_position_is_fitted_to_the_mean_outcome_of_its_games() {
        // Games labelled from the first move (near-best openings), fitted with the smoothing and
        // ridge of the real fits: the start position's estimate is its games' mean outcome.
        let settings =
            selfplay::Settings { opening_margin: 4, noise: 0, random_plies: (6, 10), ..selfplay::tests::quick() };
        let (mut searcher, mut solver) = (Searcher::new(1), Solver::new(1));
        let records: Vec<_> = (0..12).map(|i| selfplay::play_game(&settings, i, &mut searcher, &mut solver)).collect();
        let mean = records.iter().map(|r| r.positions().unwrap()[0].label.score().unwrap() as f64).sum::<f64>() / 12.0;
        let text: String = records.iter().map(|r| format!("{r}\n")).collect();
        let dir = std::env::temp_dir();
        let games = dir.join(format!("ebony-train-fit-{}-start.txt", std::process::id()));
        std::fs::write(&games, format!("# test games\n{text}")).unwrap();
        let out = dir.join(format!("ebony-train-fit-{}-start.bin", std::process::id()));
        let fit = Settings { search_weight: 0.0, ridge: 1.0, smooth: 64.0, iterations: 100, force: false };
        run(&[(games.to_string_lossy().into_owned(), 1.0)], &fit, out.to_str().unwrap()).unwrap();
        let weights = Weights::from_bytes(&std::fs::read(&out).unwrap()).unwrap();
        let start = ebony::rules::board::Board::START;
        let estimate = weights.score(start.player, start.opponent, start.moves()) as f64 / learned::SCALE as f64;
        assert!((estimate - mean).abs() < 2.0, "the start position: {estimate:.2}, its games' mean outcome {mean:.2}");
        for path in [games, out] {
            std::fs::remove_file(path).unwrap();
        }
    }

    #[test]
    fn the_same_games_give_the_same_weights_bit_for_bit() {
        let games = [(games_file("games"), 1.0)];
        let settings = Settings { search_weight: 0.5, ridge: 1.0, smooth: 2.0, iterations: 8, force: false };
        let out = |n: u32| std::env::temp_dir().join(format!("ebony-train-fit-{}-{n}.bin", std::process::id()));
        run(&games, &settings, out(1).to_str().unwrap()).unwrap();
        run(&games, &settings, out(2).to_str().unwrap()).unwrap();
        let (a, b) = (std::fs::read(out(1)).unwrap(), std::fs::read(out(2)).unwrap());
        assert_eq!(a, b);
        let weights = Weights::from_bytes(&a).unwrap();
        assert!(weights.values().iter().any(|&v| v != 0), "the fit learnt something");
        for path in [out(1), out(2)] {
            std::fs::remove_file(path).unwrap();
        }
        let [(games, _)] = games;
        std::fs::remove_file(games).unwrap();
    }

    #[test]
    fn the_fit_reduces_the_error_on_what_it_fits() {
        let games = [(games_file("error"), 1.0)];
        let settings = Settings { search_weight: 0.0, ridge: 0.1, smooth: 0.0, iterations: 30, force: false };
        let (train, _, _) = load(&games, settings.search_weight).unwrap();
        let size = learned::phase_size();
        let n = PHASES * size;
        let zero_error = errors(&train, |_| 0.0).total();
        // The same conjugate gradients as `run`, through the public entry point: the weights file.
        let out = std::env::temp_dir().join(format!("ebony-train-fit-{}-e.bin", std::process::id()));
        run(&games, &settings, out.to_str().unwrap()).unwrap();
        let weights = Weights::from_bytes(&std::fs::read(&out).unwrap()).unwrap();
        assert_eq!(weights.values().len(), n);
        let fitted = errors(&train, |s| {
            weights.score(s.board.0, s.board.1, movegen::moves(s.board.0, s.board.1)) as f64 / SCALE as f64
        })
        .total();
        assert!(fitted < zero_error / 2.0, "fitted {fitted:.2} vs all-zero {zero_error:.2}");
        std::fs::remove_file(out).unwrap();
        let [(games, _)] = games;
        std::fs::remove_file(games).unwrap();
    }

    #[test]
    fn a_file_weight_changes_the_fit_and_a_weight_of_one_does_not() {
        let a = games_file("weight-a");
        // Other games in the second file: the same generator from another seed.
        let b = std::env::temp_dir().join(format!("ebony-train-fit-{}-weight-b.txt", std::process::id()));
        let b = b.to_string_lossy().into_owned();
        let settings = selfplay::Settings { seed: 10, noise: 0, ..selfplay::tests::quick() };
        let (mut searcher, mut solver) = (Searcher::new(1), Solver::new(1));
        let text: String =
            (0..6).map(|i| format!("{}\n", selfplay::play_game(&settings, i, &mut searcher, &mut solver))).collect();
        std::fs::write(&b, format!("# test games\n{text}")).unwrap();
        let settings = Settings { search_weight: 0.0, ridge: 1.0, smooth: 2.0, iterations: 8, force: false };
        let fit = |files: &[(String, f64)], n: u32| {
            let out = std::env::temp_dir().join(format!("ebony-train-fit-{}-w{n}.bin", std::process::id()));
            run(files, &settings, out.to_str().unwrap()).unwrap();
            let bytes = std::fs::read(&out).unwrap();
            std::fs::remove_file(out).unwrap();
            bytes
        };
        let plain = fit(&[(a.clone(), 1.0), (b.clone(), 1.0)], 1);
        let unit = fit(&[weighted_file(&format!("{a}@1")).unwrap(), (b.clone(), 1.0)], 2);
        let heavy = fit(&[(a.clone(), 4.0), (b.clone(), 1.0)], 3);
        assert_eq!(plain, unit);
        assert_ne!(plain, heavy);
        std::fs::remove_file(a).unwrap();
        std::fs::remove_file(b).unwrap();
    }

    #[test]
    fn a_file_takes_its_weight_after_an_at_sign() {
        assert_eq!(weighted_file("data/games/a.txt"), Ok(("data/games/a.txt".to_string(), 1.0)));
        assert_eq!(weighted_file("a@b.txt@2.5"), Ok(("a@b.txt".to_string(), 2.5)));
        for bad in ["a.txt@", "a.txt@0", "a.txt@-1", "a.txt@x", "a.txt@inf"] {
            assert!(weighted_file(bad).is_err(), "{bad}");
        }
    }
}
