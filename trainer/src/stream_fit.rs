//! `ebony-train stream-fit`: the fit of the learnt evaluation over samples streamed from disk, by
//! mini-batch Adam (or `fit`'s conjugate gradients, `--method cg`), in memory that does not grow with
//! the number of positions.
//!
//! `fit` keeps every class of positions with its feature indices in memory: 3.6 GB for the 13.1 M
//! positions of `data/games/*.ebgm`, and linear in the data. `stream-fit` minimises the same
//! objective,
//!
//! ```text
//! sum over classes weight * (label - estimate)^2 + ridge * |w|^2 + smooth * sum over neighbouring phases |w_k - w_k+1|^2
//! ```
//!
//! or, with `--huber D` (Adam only), the same with each class's square (label - estimate)^2 turned
//! into Huber's loss past D discs, 2 D |label - estimate| - D^2: a label that lies far from the
//! estimate (a game lost by a blunder long after the position) pulls no harder than one D discs off.
//! The last phase's exact solve (step 2 below) stays least squares.
//!
//! with one parameter per class of tied indices ([`learned::canonical_indices`]) and phase, as `fit`
//! ties them, on the same classes, labels, weights and held-out split:
//!
//! 1. The samples ([`crate::samples`]): the game files are streamed into bucket files by a hash of
//!    each position's canonical image; each bucket, sorted, gives its classes, merged as `fit` merges
//!    them, in two files of fixed-size samples (fitted, held out) in the work directory (`--work DIR`,
//!    kept and reused by a later run on the same inputs; a temporary directory by default). The
//!    number of buckets follows from the files' sizes so that sorting one takes at most
//!    `--memory-mb` (1024 by default).
//! 2. The fit reads the fitted samples a block of 65,536 at a time, the blocks in an order drawn from
//!    `--seed` and the epoch and the samples of a block likewise, and computes each sample's features
//!    from its position as it goes ([`learned::features`]). A mini-batch's gradient is its mean data
//!    gradient plus the objective's regularisation gradient divided by the number of samples, so an
//!    epoch's steps add up to the whole objective's; every parameter takes an Adam step after each
//!    mini-batch (`--batch`). The step size starts at `--rate` discs and falls by `--decay` an epoch,
//!    smoothly from step to step; the result is the mean of the weights after each step of the last
//!    `--average` epochs (Polyak-Ruppert averaging, which takes out the last steps' noise). The
//!    last phase, which only the first moves' positions reach, is left out of the epochs and solved
//!    exactly after them, the other phases held (`solve_last_phase`).
//! 3. The weights are quantised as `fit` quantises them and written to `--out`, which must not exist
//!    unless `--force`. The mean absolute error in discs, by phase, is printed for them on the
//!    fitted and the held-out samples, and on the held-out samples for the built-in weights (when
//!    they fit this build's features: not in a build whose layout has changed, the build that fits
//!    the first weights for it) and any `--compare FILE`. The file is written last.
//!
//! Memory: the bucket being sorted (at most `--memory-mb`) while the samples are made, then five f32
//! arrays of the parameters (weights, Adam's two moments, the gradient, the mean of the weights; 53
//! MB for the current features' 2.65 M parameters) and a block of samples; `--method cg` keeps six
//! f64 arrays instead (127 MB). Disk: 24 bytes a position while the buckets exist, then 40 bytes a
//! class. Every sum runs in a fixed order on one thread, so the same files and seed give the same
//! weights bit for bit, whatever the number of buckets.
//!
//! Measured on the 11 game files of `data/games` (13,053,249 positions, 10,760,960 classes, 1,176,730
//! held out; the files of iterations 6 and 7 at weight 2), ridge 1 and smoothing 64, on two cores
//! shared with other jobs (so user CPU time is the comparable figure; `/usr/bin/time -v`):
//!
//! | fit | held out | user CPU | wall | peak memory |
//! | --- | --- | --- | --- | --- |
//! | `fit --iterations 100` (in memory) | 5.719 | 373 s | 13.6 min | 3,564 MB |
//! | `stream-fit` (defaults: 16 epochs, batch 8192, rate 0.3, decay 0.75, average 3) | 5.719 | 197 s | 5.9 min | 73 MB (samples made before) |
//! | `stream-fit --epochs 12 --decay 0.7 --average 2` | 5.720 | 130 s | 3.1 min | 73 MB (samples made before) |
//! | the same with `--average 0`, making the samples with `--memory-mb 64` | 5.724 | 130 s | 2.3 min | 86 MB |
//! | `stream-fit --method cg --epochs 100` | 5.719 | 600 s | 14.5 min | 152 MB (samples made before) |
//! | the built-in weights (fitted without iteration 7's games) | 5.758 | | | |
//!
//! By phase the fits agree within 0.01 disc, but at 56-60 empties, where 8 positions are held
//! out. Adam's error before averaging, epoch by epoch (the 12-epoch run): 6.72, 6.38, 6.18, 6.02,
//! 5.92, 5.85, 5.80, 5.77, 5.75, 5.74, 5.73, 5.724, then 5.719 averaged; the conjugate gradients in
//! memory 5.759 after 25 iterations, 5.726 after 50.
//!
//! Peak memory against the data, with `--memory-mb 64`: 65 MB for `data/games/iter2.ebgm` alone
//! (872,622 positions, 2 buckets) and 86 MB for all 11 files (13.1 M, 18 buckets); with the default
//! cap, 310 MB for all 11 (2 buckets of 6.5 M positions, sorted at 48 bytes each). Making the samples
//! of the 11 files takes 6.5 s and 430 MB of disk. The defaults were tuned on all 11 files; a small
//! data set takes fewer steps an epoch and wants smaller batches: on iter2 alone the defaults give
//! 6.446 held out, `--batch 4096 --decay 0.7 --epochs 12 --average 2` 6.443, `fit` 6.434.

use crate::fit::{self, print_errors, print_errors_header, ErrorSum};
use crate::rng::Rng;
use crate::samples::{self, Sample, SampleFile};
use ebony::eval::learned::{self, Weights, FEATURES, PHASES, SCALE};
use ebony::rules::movegen;
use std::path::PathBuf;
use std::time::Instant;

/// How the fit minimises the objective.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Method {
    /// Mini-batch Adam.
    Adam,
    /// `fit`'s preconditioned conjugate gradients, a pass over the samples an iteration.
    ConjugateGradients,
}

pub struct Settings {
    pub method: Method,
    pub search_weight: f64,
    pub ridge: f64,
    pub smooth: f64,
    /// Passes over the samples (Adam's epochs, or conjugate gradients' iterations).
    pub epochs: usize,
    /// Samples a mini-batch.
    pub batch: usize,
    /// Adam's step size at the start, in discs.
    pub rate: f64,
    /// The factor the step size takes each epoch.
    pub decay: f64,
    /// The epochs at the end whose steps' weights are averaged into the result (0: the last
    /// step's weights).
    pub average: usize,
    /// Where the loss turns from the square of a sample's error to its absolute value, in discs
    /// (Huber's loss; infinite: least squares).
    pub huber: f64,
    /// The order of the samples.
    pub seed: u64,
    /// Where the samples are kept; a temporary directory (removed at the end) if none.
    pub work: Option<String>,
    /// Bytes of memory a bucket may take while it is sorted.
    pub memory: u64,
    /// Weights to compare with on the held-out samples, besides the built-in ones.
    pub compare: Vec<String>,
    pub force: bool,
}

/// Samples read at once, and the unit of the shuffle.
const BLOCK: usize = 1 << 16;
const BETA1: f64 = 0.9;
const BETA2: f64 = 0.999;
const EPSILON: f64 = 1e-8;

/// One parameter per class of tied indices and phase, phase by phase.
struct Model {
    /// For each index of a phase's table, its class.
    class_of: Vec<u32>,
    classes: usize,
    w: Vec<f32>,
}

impl Model {
    fn new() -> Model {
        let canon = learned::canonical_indices();
        // Each class numbered in the order of its representative, then every index mapped to its
        // representative's number.
        let mut number = vec![0u32; canon.len()];
        let mut classes = 0;
        for (i, n) in number.iter_mut().enumerate() {
            if canon[i] as usize == i {
                *n = classes as u32;
                classes += 1;
            }
        }
        let class_of = canon.iter().map(|&c| number[c as usize]).collect();
        Model { class_of, classes, w: vec![0.0; PHASES * classes] }
    }

    /// The parameters a sample reads (one per feature; a parameter may come twice).
    fn parameters(&self, s: &Sample) -> [u32; FEATURES] {
        let (p, o) = s.board;
        let base = (learned::phase(s.empties()) * self.classes) as u32;
        learned::features(p, o, movegen::moves(p, o)).map(|i| base + self.class_of[i as usize])
    }

    fn estimate(&self, parameters: &[u32; FEATURES]) -> f64 {
        parameters.iter().map(|&j| self.w[j as usize] as f64).sum()
    }

    /// `w` (one value a parameter) quantised, every index of a class with the class's weight.
    fn weights(&self, w: impl Fn(usize) -> f64) -> Result<Weights, String> {
        let w = &w;
        let values = (0..PHASES)
            .flat_map(|k| {
                self.class_of.iter().map(move |&c| {
                    let x = w(k * self.classes + c as usize);
                    (x * SCALE as f64).round().clamp(i16::MIN as f64, i16::MAX as f64) as i16
                })
            })
            .collect();
        Weights::from_values(values).map_err(|e| e.to_string())
    }
}

/// Adam's state and the gradient of the mini-batch being summed.
struct Adam {
    m: Vec<f32>,
    v: Vec<f32>,
    gradient: Vec<f32>,
    steps: u64,
}

impl Adam {
    /// One step with the gradient summed over `count` samples of `total`, at step size `rate`.
    fn step(&mut self, model: &mut Model, settings: &Settings, count: usize, total: u64, rate: f64) {
        let (w, g, size) = (&mut model.w, &mut self.gradient, model.classes);
        let reg = 2.0 / total as f64;
        if settings.smooth > 0.0 {
            // In units of the summed gradient, which the Adam pass below divides by `count`.
            let s = (reg * settings.smooth * count as f64) as f32;
            for k in 0..PHASES - 1 {
                for j in k * size..(k + 1) * size {
                    let d = s * (w[j] - w[j + size]);
                    g[j] += d;
                    g[j + size] -= d;
                }
            }
        }
        self.steps += 1;
        let t = self.steps as i32;
        let (mean, ridge) = ((1.0 / count as f64) as f32, (reg * settings.ridge) as f32);
        let (b1, b2, epsilon) = (BETA1 as f32, BETA2 as f32, EPSILON as f32);
        let step = (rate / (1.0 - BETA1.powi(t))) as f32;
        let c2 = (1.0 / (1.0 - BETA2.powi(t))) as f32;
        for (((w, g), m), v) in w.iter_mut().zip(g.iter_mut()).zip(&mut self.m).zip(&mut self.v) {
            let gradient = *g * mean + ridge * *w;
            *m = b1 * *m + (1.0 - b1) * gradient;
            *v = b2 * *v + (1.0 - b2) * gradient * gradient;
            *w -= step * *m / ((*v * c2).sqrt() + epsilon);
            *g = 0.0;
        }
    }
}

/// A permutation of `0..n` drawn from `rng` (Fisher-Yates).
fn shuffled(n: usize, rng: &mut Rng) -> Vec<u32> {
    let mut order: Vec<u32> = (0..n as u32).collect();
    for i in (1..n).rev() {
        order.swap(i, rng.below(i as u64 + 1) as usize);
    }
    order
}

/// What `weights` say of a sample's position, in discs.
fn score(weights: &Weights, s: &Sample) -> f64 {
    let (p, o) = s.board;
    weights.score(p, o, movegen::moves(p, o)) as f64 / SCALE as f64
}

/// The absolute errors of `estimate` on every sample of `file`.
fn errors(file: &mut SampleFile, estimate: impl Fn(&Sample) -> f64) -> Result<ErrorSum, String> {
    let mut sum = ErrorSum::default();
    file.for_each(|s| sum.add(s.empties(), estimate(s), s.truth))?;
    Ok(sum)
}

/// Mini-batch Adam, `settings.epochs` passes over the fitted samples.
fn adam(
    mut model: Model,
    train: &mut SampleFile,
    held: &mut SampleFile,
    settings: &Settings,
) -> Result<Weights, String> {
    let n = PHASES * model.classes;
    model.w = vec![0.0; n];
    let mut adam = Adam { m: vec![0.0; n], v: vec![0.0; n], gradient: vec![0.0; n], steps: 0 };
    let steps_per_epoch = train.len.div_ceil(settings.batch as u64) as f64;
    let blocks = train.len.div_ceil(BLOCK as u64) as usize;
    let mut block = Vec::with_capacity(BLOCK);
    // The mean of the weights after each step of the last `settings.average` epochs (Polyak-Ruppert
    // averaging: the steps' noise averages out).
    let average_from = settings.epochs.saturating_sub(settings.average);
    let mut mean: Vec<f32> = if settings.average > 0 { vec![0.0; n] } else { Vec::new() };
    let mut averaged = 0u32;
    let mut average = |w: &[f32], epoch: usize| {
        if epoch >= average_from && !mean.is_empty() {
            averaged += 1;
            let f = 1.0 / averaged as f32;
            for (a, &w) in mean.iter_mut().zip(w) {
                *a += (w - *a) * f;
            }
        }
    };
    let started = Instant::now();
    for epoch in 0..settings.epochs {
        // The order of an epoch: its own random numbers, drawn from the seed and the epoch alone.
        let mut rng = Rng::for_game(settings.seed, epoch as u64);
        let mut fitted = ErrorSum::default();
        let mut count = 0;
        for b in shuffled(blocks, &mut rng) {
            train.read(b as u64 * BLOCK as u64, BLOCK, &mut block)?;
            for i in shuffled(block.len(), &mut rng) {
                let s = &block[i as usize];
                if in_last_phase(s) {
                    continue; // solved after the epochs: `solve_last_phase`
                }
                let parameters = model.parameters(s);
                let estimate = model.estimate(&parameters);
                fitted.add(s.empties(), estimate, s.truth);
                let residual = (estimate - s.label).clamp(-settings.huber, settings.huber);
                let d = (2.0 * s.weight * residual) as f32;
                for &j in &parameters {
                    adam.gradient[j as usize] += d;
                }
                count += 1;
                if count == settings.batch {
                    let rate = settings.rate * settings.decay.powf(adam.steps as f64 / steps_per_epoch);
                    adam.step(&mut model, settings, count, train.len, rate);
                    average(&model.w, epoch);
                    count = 0;
                }
            }
        }
        if count > 0 {
            let rate = settings.rate * settings.decay.powf(adam.steps as f64 / steps_per_epoch);
            adam.step(&mut model, settings, count, train.len, rate);
            average(&model.w, epoch);
        }
        let test_error = errors(held, |s| model.estimate(&model.parameters(s)))?.total();
        note!(
            "epoch {}: mean error {:.3} discs fitted (during the epoch), {test_error:.3} held out; {:.0} s",
            epoch + 1,
            fitted.total(),
            started.elapsed().as_secs_f64()
        );
    }
    if averaged > 0 {
        model.w = mean;
        let test_error = errors(held, |s| model.estimate(&model.parameters(s)))?.total();
        note!("the mean of the last {averaged} steps' weights: {test_error:.3} held out");
    }
    solve_last_phase(&mut model, train, settings)?;
    model.weights(|j| model.w[j] as f64)
}

/// Whether a sample lies in the last phase (56 to 60 empties), which holds the first four moves'
/// positions and no others: those that count once per sighting ([`fit::ALWAYS_FITTED`]), which the
/// Adam epochs leave to [`solve_last_phase`].
fn in_last_phase(s: &Sample) -> bool {
    learned::phase(s.empties()) == PHASES - 1
}

// The last phase begins where the positions counted once per sighting begin: a layout with other
// phases must choose again which samples the epochs leave out.
const _: () =
    assert!(learned::phase(fit::ALWAYS_FITTED) == PHASES - 2 && learned::phase(fit::ALWAYS_FITTED + 1) == PHASES - 1);

/// The samples of the last phase: each one's parameters, relative to the phase's first, its label
/// and its weight.
fn last_phase_samples(model: &Model, train: &mut SampleFile) -> Result<Vec<([u32; FEATURES], f64, f64)>, String> {
    let base = ((PHASES - 1) * model.classes) as u32;
    let mut samples = Vec::new();
    train.for_each(|s| {
        if in_last_phase(s) {
            samples.push((model.parameters(s).map(|j| j - base), s.label, s.weight));
        }
    })?;
    Ok(samples)
}

/// Solves the last phase's weights (56 to 60 empties) exactly, the other phases' held as the Adam
/// epochs, which leave that phase's samples out, made them.
///
/// Only the positions of the first four moves fall there, about 80 classes, and each counts once
/// per sighting ([`fit::ALWAYS_FITTED`]), so the start position weighs as much as all the games
/// together. Adam would meet each of them once an epoch; between two meetings the second moment of
/// their weights decays, and each meeting moves all of a position's weights by about the step size
/// in the same direction, the more the more samples an epoch holds. On 100.7 M positions that left
/// the phase 15.75 discs from the outcomes on average and the start position at -27 for black, and
/// the smoothing passed the swings on to the phase before (6.62 discs held out at 52 to 55 empties
/// against 6.40 without them; 2026-11-29). The phase's part of the objective is a small system,
///
/// ```text
/// (sum of weight f fᵀ + (ridge + smooth) I) x = sum of weight label f + smooth w'
/// ```
///
/// with f a sample's feature counts and w' the weights of the phase before: a multiple of the
/// identity plus a matrix of the samples' rank, which plain conjugate gradients solve in about as
/// many iterations as there are samples (0.4 discs from the labels there, the start position +1).
fn solve_last_phase(model: &mut Model, train: &mut SampleFile, settings: &Settings) -> Result<(), String> {
    let samples = last_phase_samples(model, train)?;
    if samples.is_empty() {
        return Ok(());
    }
    let size = model.classes;
    let (before, last) = model.w[(PHASES - 2) * size..].split_at_mut(size);
    let shrink = settings.ridge + settings.smooth;
    let mut b: Vec<f64> = before.iter().map(|&w| settings.smooth * w as f64).collect();
    for (parameters, label, weight) in &samples {
        for &j in parameters {
            b[j as usize] += weight * label;
        }
    }
    let apply = |v: &[f64], out: &mut [f64]| {
        for (o, x) in out.iter_mut().zip(v) {
            *o = shrink * x;
        }
        for (parameters, _, weight) in &samples {
            let sum = weight * parameters.iter().map(|&j| v[j as usize]).sum::<f64>();
            for &j in parameters {
                out[j as usize] += sum;
            }
        }
        Ok(())
    };
    let estimate = |w: &dyn Fn(usize) -> f64| -> f64 {
        let error: f64 =
            samples.iter().map(|(p, label, _)| (p.iter().map(|&j| w(j as usize)).sum::<f64>() - label).abs()).sum();
        error / samples.len() as f64
    };
    let before_error = estimate(&|j| last[j] as f64);
    let iterations = 4 * (samples.len() + 1);
    let x = fit::conjugate_gradients(b, &vec![1.0; size], iterations, apply, |_, _| Ok(()))?;
    for (w, x) in last.iter_mut().zip(&x) {
        *w = *x as f32;
    }
    note!(
        "the last phase solved exactly: {} samples, mean error {before_error:.2} discs against their labels before, {:.2} now",
        samples.len(),
        estimate(&|j| x[j]),
    );
    Ok(())
}

/// `fit`'s conjugate gradients on the normal equations ([`crate::fit::conjugate_gradients`]), with
/// one pass over the fitted samples an iteration instead of their features in memory.
fn conjugate_gradients(
    model: Model,
    train: &mut SampleFile,
    held: &mut SampleFile,
    settings: &Settings,
) -> Result<Weights, String> {
    let (size, n) = (model.classes, PHASES * model.classes);
    let (mut b, mut diagonal) = (vec![0.0; n], vec![settings.ridge; n]);
    train.for_each(|s| {
        for &j in &model.parameters(s) {
            b[j as usize] += s.weight * s.label;
            diagonal[j as usize] += s.weight;
        }
    })?;
    fit::add_smoothing_diagonal(settings.smooth, size, &mut diagonal);
    // `out = A v` for A = XᵀX + ridge I + smooth L.
    let streamed = |v: &[f64], out: &mut [f64]| {
        for (o, x) in out.iter_mut().zip(v) {
            *o = settings.ridge * x;
        }
        train.for_each(|s| {
            let parameters = model.parameters(s);
            let sum = s.weight * parameters.iter().map(|&j| v[j as usize]).sum::<f64>();
            for &j in &parameters {
                out[j as usize] += sum;
            }
        })?;
        fit::add_smoothing(settings.smooth, size, v, out);
        Ok(())
    };
    let started = Instant::now();
    let report = |iteration: usize, w: &[f64]| {
        if iteration.is_multiple_of(10) || iteration == settings.epochs {
            let estimate = |s: &Sample| model.parameters(s).iter().map(|&j| w[j as usize]).sum::<f64>();
            let test_error = errors(held, estimate)?.total();
            note!("iteration {iteration}: {test_error:.3} discs held out; {:.0} s", started.elapsed().as_secs_f64());
        }
        Ok(())
    };
    let w = fit::conjugate_gradients(b, &diagonal, settings.epochs, streamed, report)?;
    model.weights(|j| w[j])
}

/// Removes a temporary work directory when the run ends, however it ends.
struct TempDir(PathBuf);

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

pub fn run(files: &[(String, f64)], settings: &Settings, out: &str) -> Result<(), String> {
    crate::fit::check_output(out, settings.force)?;
    let mut compare = Vec::new();
    for path in &settings.compare {
        compare.push((path, crate::fit::read_weights(path)?));
    }
    let (dir, _temporary) = match &settings.work {
        Some(dir) => (PathBuf::from(dir), None),
        None => {
            let dir = std::env::temp_dir().join(format!("ebony-train-samples-{}", std::process::id()));
            (dir.clone(), Some(TempDir(dir)))
        }
    };
    let mut data = samples::prepare(files, settings.search_weight, &dir, settings.memory)?;
    let (train, held) = (&mut data.train, &mut data.held);
    let model = Model::new();
    let n = PHASES * model.classes;
    note!(
        "{} positions ({} buckets), {} classes under symmetry: {} to fit, {} held out; {n} parameters",
        data.positions,
        data.buckets,
        train.len + held.len,
        train.len,
        held.len,
    );
    if train.len == 0 {
        return Err("no labelled positions to fit".to_string());
    }
    let weights = match settings.method {
        Method::Adam => adam(model, train, held, settings)?,
        Method::ConjugateGradients => conjugate_gradients(model, train, held, settings)?,
    };
    print_errors_header();
    print_errors("learnt, fitted", &errors(train, |s| score(&weights, s))?);
    note!("held out:");
    print_errors("learnt", &errors(held, |s| score(&weights, s))?);
    match learned::try_builtin() {
        Ok(builtin) => print_errors("built-in", &errors(held, |s| score(builtin, s))?),
        Err(e) => note!("built-in        none for these features: {e}"),
    }
    for (path, weights) in &compare {
        print_errors(path, &errors(held, |s| score(weights, s))?);
    }
    crate::fit::write_weights(out, &weights, settings.force)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fit::tests::games_file;

    fn settings(name: &str) -> Settings {
        let work = std::env::temp_dir().join(format!("ebony-train-stream-{}-{name}", std::process::id()));
        Settings {
            method: Method::Adam,
            search_weight: 0.0,
            ridge: 1.0,
            smooth: 4.0,
            epochs: 4,
            batch: 32,
            rate: 0.05,
            decay: 0.9,
            average: 1,
            huber: f64::INFINITY,
            seed: 1,
            work: Some(work.to_string_lossy().into_owned()),
            memory: 1 << 30,
            compare: Vec::new(),
            force: false,
        }
    }

    /// The weight file a fit writes, read back (and removed).
    fn fit(files: &[(String, f64)], settings: &Settings) -> Vec<u8> {
        let out = PathBuf::from(settings.work.as_ref().unwrap()).with_extension("ebev");
        run(files, settings, out.to_str().unwrap()).unwrap();
        let bytes = std::fs::read(&out).unwrap();
        std::fs::remove_file(out).unwrap();
        bytes
    }

    fn clean(settings: &Settings) {
        std::fs::remove_dir_all(settings.work.as_ref().unwrap()).unwrap();
    }

    #[test]
    fn the_same_games_and_seed_give_the_same_weights_bit_for_bit() {
        let games = [(games_file("stream-same"), 1.0)];
        let (a, b) = (settings("same-a"), settings("same-b"));
        let first = fit(&games, &a);
        assert_eq!(first, fit(&games, &b));
        // Again from the samples the first run left.
        assert_eq!(first, fit(&games, &a));
        assert_ne!(first, fit(&games, &Settings { seed: 2, ..settings("same-c") }), "the seed orders the samples");
        let weights = Weights::from_bytes(&first).unwrap();
        assert!(weights.values().iter().any(|&v| v != 0), "the fit learnt something");
        for s in [a, b, settings("same-c")] {
            clean(&s);
        }
        std::fs::remove_file(&games[0].0).unwrap();
    }

    #[test]
    fn a_tiny_memory_cap_gives_the_same_weights_as_a_large_one() {
        let games = [(games_file("stream-cap"), 1.0)];
        let bytes = std::fs::metadata(&games[0].0).unwrap().len();
        let large = settings("cap-large");
        let tiny = Settings { memory: bytes * samples::MEMORY_PER_POSITION / 25, ..settings("cap-tiny") };
        assert_eq!(fit(&games, &large), fit(&games, &tiny));
        let manifest = std::fs::read_to_string(PathBuf::from(tiny.work.as_ref().unwrap()).join("manifest.txt"));
        let buckets: u64 = manifest.unwrap().split_whitespace().last().unwrap().parse().unwrap();
        assert!(buckets >= 25, "{buckets} buckets");
        clean(&large);
        clean(&tiny);
        std::fs::remove_file(&games[0].0).unwrap();
    }

    #[test]
    fn the_fit_reduces_the_error_on_what_it_fits() {
        let games = [(games_file("stream-error"), 1.0)];
        let settings = Settings { ridge: 0.1, smooth: 0.0, epochs: 30, batch: 16, rate: 0.1, ..settings("error") };
        let weights = Weights::from_bytes(&fit(&games, &settings)).unwrap();
        let mut data = samples::prepare(&games, 0.0, &PathBuf::from(settings.work.as_ref().unwrap()), 1 << 30).unwrap();
        let zero = errors(&mut data.train, |_| 0.0).unwrap().total();
        let fitted = errors(&mut data.train, |s| score(&weights, s)).unwrap().total();
        assert!(fitted < zero / 3.0, "fitted {fitted:.2} vs all-zero {zero:.2}");
        clean(&settings);
        std::fs::remove_file(&games[0].0).unwrap();
    }

    #[test]
    fn huber_loss_is_least_squares_when_wide_and_trades_the_squares_when_narrow() {
        let games = [(games_file("stream-huber"), 1.0)];
        let base =
            |name: &str| Settings { ridge: 0.1, smooth: 0.0, epochs: 30, batch: 16, rate: 0.1, ..settings(name) };
        let least = fit(&games, &base("huber-ls"));
        // A threshold past every error never binds: least squares, bit for bit.
        assert_eq!(least, fit(&games, &Settings { huber: 1e6, ..base("huber-wide") }));
        // Half a disc: the squares of what it fits are no longer what the fit minimises.
        let huber = fit(&games, &Settings { huber: 0.5, ..base("huber-narrow") });
        let mut data = samples::prepare(&games, 0.0, &PathBuf::from(base("huber-ls").work.unwrap()), 1 << 30).unwrap();
        let mut mean_square = |bytes: &[u8]| {
            let weights = Weights::from_bytes(bytes).unwrap();
            let (mut sum, mut count) = (0.0, 0.0);
            data.train
                .for_each(|s| {
                    let e = score(&weights, s) - s.label;
                    (sum, count) = (sum + e * e, count + 1.0);
                })
                .unwrap();
            sum / count
        };
        let (huber_sq, least_sq) = (mean_square(&huber), mean_square(&least));
        assert!(huber_sq > least_sq, "mean square error {huber_sq:.3} against least squares' {least_sq:.3}");
        for name in ["huber-ls", "huber-wide", "huber-narrow"] {
            clean(&base(name));
        }
        std::fs::remove_file(&games[0].0).unwrap();
    }

    #[test]
    fn streamed_conjugate_gradients_give_the_weights_of_the_fit_in_memory() {
        let games = [(games_file("stream-cg"), 1.0), (games_file("stream-cg2"), 2.0)];
        let ours = Settings { method: Method::ConjugateGradients, epochs: 12, search_weight: 0.5, ..settings("cg") };
        let ours = Weights::from_bytes(&fit(&games, &ours)).unwrap();
        let fit_settings =
            crate::fit::Settings { search_weight: 0.5, ridge: 1.0, smooth: 4.0, iterations: 12, force: false };
        let out = std::env::temp_dir().join(format!("ebony-train-stream-{}-cg-fit.ebev", std::process::id()));
        crate::fit::run(&games, &fit_settings, out.to_str().unwrap()).unwrap();
        let theirs = Weights::from_bytes(&std::fs::read(&out).unwrap()).unwrap();
        // The same sums in another order: equal but for a rounding at the quantisation now and then.
        let (ours, theirs) = (ours.values(), theirs.values());
        let differ = ours.iter().zip(&theirs).filter(|(a, b)| a != b).count();
        assert!(ours.iter().zip(&theirs).all(|(a, b)| (a - b).abs() <= 1));
        assert!(differ * 1000 < ours.iter().filter(|&&v| v != 0).count(), "{differ} differ");
        std::fs::remove_file(out).unwrap();
        clean(&settings("cg"));
        for (games, _) in games {
            std::fs::remove_file(games).unwrap();
        }
    }

    #[test]
    fn the_last_phase_is_the_minimum_of_its_part_of_the_objective() {
        let games = [(games_file("stream-last"), 1.0)];
        let settings = settings("last");
        let work = PathBuf::from(settings.work.as_ref().unwrap());
        let mut data = samples::prepare(&games, 0.0, &work, 1 << 30).unwrap();
        let mut model = Model::new();
        let size = model.classes;
        // The phase before as Adam might leave it.
        for (i, w) in model.w[(PHASES - 2) * size..(PHASES - 1) * size].iter_mut().enumerate() {
            *w = (i % 7) as f32 * 0.25 - 0.75;
        }
        solve_last_phase(&mut model, &mut data.train, &settings).unwrap();
        let samples = last_phase_samples(&model, &mut data.train).unwrap();
        assert!(samples.len() >= 5, "{} samples of the first moves", samples.len());
        // The gradient of the objective in the last phase's weights: zero at its minimum.
        let (before, last) = model.w[(PHASES - 2) * size..].split_at(size);
        let mut gradient: Vec<f64> = last
            .iter()
            .zip(before)
            .map(|(&x, &w)| settings.ridge * x as f64 + settings.smooth * (x - w) as f64)
            .collect();
        for (parameters, label, weight) in &samples {
            let error = weight * (parameters.iter().map(|&j| last[j as usize] as f64).sum::<f64>() - label);
            for &j in parameters {
                gradient[j as usize] += error;
            }
        }
        let scale = samples.iter().map(|(_, label, weight)| (weight * label).abs()).fold(1.0, f64::max);
        let largest = gradient.iter().fold(0.0, |m: f64, g| m.max(g.abs()));
        assert!(largest < 1e-4 * scale, "gradient {largest} against {scale}");
        clean(&settings);
        std::fs::remove_file(&games[0].0).unwrap();
    }

    #[test]
    fn an_existing_output_is_refused_without_force() {
        let games = [(games_file("stream-force"), 1.0)];
        let s = Settings { epochs: 1, ..settings("force") };
        let out = PathBuf::from(s.work.as_ref().unwrap()).with_extension("ebev");
        std::fs::write(&out, b"shipped").unwrap();
        let refused = run(&games, &s, out.to_str().unwrap()).unwrap_err();
        assert!(refused.contains("--force"), "{refused}");
        assert_eq!(std::fs::read(&out).unwrap(), b"shipped");
        run(&games, &Settings { force: true, ..s }, out.to_str().unwrap()).unwrap();
        assert!(Weights::from_bytes(&std::fs::read(&out).unwrap()).is_ok());
        std::fs::remove_file(out).unwrap();
        clean(&settings("force"));
        std::fs::remove_file(&games[0].0).unwrap();
    }
}
