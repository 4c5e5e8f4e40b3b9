//! `ebony-train gen`: self-play games for the evaluation's training data.
//!
//! A game opens with a few random moves (uniformly random, or with `--opening-margin M` random among
//! the moves a shallow search scores within M discs of the best), goes on with ebony's own search at a fixed depth
//! (optionally one move in `--noise` at random instead; the record marks the last one, since the
//! outcome labels only the positions after it), and from
//! `--solve` empties on is played out by the exact solver: every later position gets its exact value,
//! and a random move replaces the best one now and then so the endgame is not one line per game.
//!
//! Runs are sharded (`--shard K/N` plays the games whose index is K-1 mod N) and resumable: the output
//! file (a game file, [`crate::games`]) is appended a game at a time and flushed, and a rerun skips the
//! games it already holds.

use crate::record::{after_forced_pass, square_of, GameRecord};
use crate::rng::Rng;
use ebony::eval::learned::Weights;
use ebony::eval::{Evaluator, Variant};
use ebony::rules::board::{Board, Color, Move};
use ebony::rules::square::Squares;
use ebony::search::endgame::Solver;
use ebony::search::{Limits, Searcher, Silent};
use std::time::Instant;

#[derive(Clone)]
pub struct Settings {
    pub seed: u64,
    pub games: u64,
    pub shard: (u64, u64),
    /// Random opening moves: a number drawn from this range.
    pub random_plies: (u32, u32),
    /// 0: the opening moves are uniformly random, and the game's outcome labels only the positions
    /// after them. Otherwise each is drawn from the moves scored within this many discs of the best
    /// by a search at [`OPENING_DEPTH`]: the outcome of a game played that well from the start labels
    /// every position, the opening's included (uniform moves leave the positions with more than 56
    /// empties without a label, and their weights to the ridge alone).
    pub opening_margin: u32,
    /// The search depth of the self-play moves.
    pub depth: u32,
    /// One midgame move in this many is random (0: none).
    pub noise: u64,
    /// Empties from which the solver plays.
    pub solve: u32,
    /// One endgame move in this many is random.
    pub endgame_noise: u64,
    /// The learnt weights the self-play search evaluates with, and their file's name in the header
    /// (evaluation v1 when none).
    pub eval: Option<(&'static Weights, String)>,
    /// Whether a record keeps the self-play search's scores (`--no-scores`: not). The fits label
    /// with the outcomes and exact values; the scores serve only `--search-weight` and take about a
    /// third of a game's bytes after compression.
    pub scores: bool,
}

impl Settings {
    /// What a resumed run must agree on (the shard and game count may differ: they only choose
    /// which games to play).
    fn header(&self) -> String {
        format!(
            "ebony-train gen v4 seed={} random={}-{} depth={} noise={} solve={} endgame-noise={} eval={}",
            self.seed,
            self.random_plies.0,
            self.random_plies.1,
            self.depth,
            self.noise,
            self.solve,
            self.endgame_noise,
            self.eval.as_ref().map_or("v1".to_string(), |(w, name)| format!("{name}:{:016x}", w.checksum()))
        ) + &if self.opening_margin > 0 { format!(" opening-margin={}", self.opening_margin) } else { String::new() }
            + if self.scores { "" } else { " scores=no" }
    }
}

/// The table sizes of the self-play search and of the solver, in megabytes. Every game starts on
/// cleared tables (a game depends on its index alone), so their size is paid again in every game:
/// at 4 and 16 MB a run plays about 13% more games a CPU-hour than at 16 and 64 MB (docs/research-log.md,
/// "Smaller tables for self-play"). A table's size can change which of two moves of the same exact
/// value the solver plays (1 game in 300 of seed 21 differed), so a run resumes with a build of the
/// sizes it started with.
const SEARCH_MB: usize = 4;
const SOLVER_MB: usize = 16;

/// The depth of the search that scores the opening moves under `--opening-margin`.
pub const OPENING_DEPTH: u32 = 6;

/// A move drawn uniformly from those `searcher` scores within `margin` discs of the best at
/// [`OPENING_DEPTH`] plies (the moves in square order, so the draw depends on the game's numbers alone),
/// and the best score: the search score of the position. One search and a null-window test of each
/// other move ([`Searcher::near_best`]): a game takes 0.86 of the CPU it took when each move was
/// scored by a search of its own (docs/research-log.md, "Cheaper near-best openings").
fn opening_move(board: &Board, margin: i32, searcher: &mut Searcher, rng: &mut Rng) -> (Move, i32) {
    let (near, best) = searcher.near_best(board, OPENING_DEPTH, margin);
    (near[rng.below(near.len() as u64) as usize], best)
}

fn random_move(board: &Board, rng: &mut Rng) -> Move {
    let moves: Vec<_> = Squares(board.moves()).collect();
    Move::Play(moves[rng.below(moves.len() as u64) as usize])
}

/// Plays game `index` of the run.
pub fn play_game(settings: &Settings, index: u64, searcher: &mut Searcher, solver: &mut Solver) -> GameRecord {
    let mut rng = Rng::for_game(settings.seed, index);
    let (lo, hi) = settings.random_plies;
    let random_plies = lo + rng.below((hi - lo + 1) as u64) as u32;
    let (mut board, mut side) = (Board::START, Color::Black);
    let mut moves = Vec::new();
    searcher.new_game();
    searcher.set_evaluator(Evaluator::new(settings.eval.as_ref().map_or(Variant::V1, |(w, _)| Variant::Learned(w))));
    solver.clear();
    let play = |board: &mut Board, side: &mut Color, mv: Move, moves: &mut Vec<_>| {
        moves.extend(square_of(mv));
        let next = board.try_play(mv).expect("the generator plays legal moves");
        (*board, *side) = after_forced_pass(next, side.opposite());
    };
    let black_view = |side: Color, v: i32| (if side == Color::Black { v } else { -v }) as i8;
    let (mut labelled, mut scores) = (0, Vec::new());
    while !board.is_game_over() && board.empty_count() > settings.solve {
        let mv = if (moves.len() as u32) < random_plies && settings.opening_margin > 0 {
            let (mv, score) = opening_move(&board, settings.opening_margin as i32, searcher, &mut rng);
            scores.push(black_view(side, score));
            mv
        } else if (moves.len() as u32) < random_plies || (settings.noise > 0 && rng.one_in(settings.noise)) {
            labelled = moves.len() + 1;
            scores.clear();
            random_move(&board, &mut rng)
        } else {
            let result = searcher.search(&board, &Limits::Depth(settings.depth), &mut Silent);
            scores.push(black_view(side, result.score));
            result.best
        };
        play(&mut board, &mut side, mv, &mut moves);
    }
    let solved = moves.len();
    let mut values = Vec::new();
    loop {
        if board.is_game_over() {
            values.push(black_view(side, board.final_score()));
            break;
        }
        let solution = solver.solve(&board, -64, 64, &mut Silent);
        values.push(black_view(side, solution.score));
        let mv = if rng.one_in(settings.endgame_noise) { random_move(&board, &mut rng) } else { solution.best };
        play(&mut board, &mut side, mv, &mut moves);
    }
    if !settings.scores {
        scores.clear();
    }
    GameRecord { index, moves, labelled, solved, values, scores }
}

pub fn run(settings: &Settings, out: &str) -> Result<(), String> {
    let (mut file, done) = crate::games::Writer::resume(out, &settings.header())?;
    let (k, n) = settings.shard;
    let todo: Vec<u64> = (0..settings.games).filter(|i| i % n == k - 1 && !done.contains(i)).collect();
    note!("{} games in this shard already done, {} to play", done.len(), todo.len());
    let mut searcher = Searcher::new(SEARCH_MB);
    let mut solver = Solver::new(SOLVER_MB);
    let start = Instant::now();
    for (count, &index) in todo.iter().enumerate() {
        let record = play_game(settings, index, &mut searcher, &mut solver);
        file.write(&record)?;
        file.flush()?;
        let played = count + 1;
        if played % 20 == 0 || played == todo.len() {
            let per_game = start.elapsed().as_secs_f64() / played as f64;
            note!(
                "{played}/{} games, {per_game:.2} s a game, about {:.0} min left",
                todo.len(),
                per_game * (todo.len() - played) as f64 / 60.0
            );
        }
    }
    Ok(())
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// Settings that play a game in milliseconds (depth 2, solved from 10 empties), for tests.
    pub(crate) fn quick() -> Settings {
        Settings {
            seed: 5,
            games: 4,
            shard: (1, 1),
            random_plies: (2, 6),
            depth: 2,
            noise: 8,
            solve: 10,
            endgame_noise: 4,
            eval: None,
            opening_margin: 0,
            scores: true,
        }
    }

    #[test]
    fn games_replay_with_exact_endgame_values() {
        let (mut searcher, mut solver) = (Searcher::new(1), Solver::new(1));
        for index in 0..4 {
            let record = play_game(&quick(), index, &mut searcher, &mut solver);
            let positions = record.positions().expect("a generated game replays");
            assert!(record.labelled >= 2, "the random opening is not labelled");
            assert!(record.scores.is_empty() || record.scores.len() == record.solved - record.labelled);
            for p in positions.iter().filter(|p| p.board.empty_count() <= 8 && !p.board.is_game_over()) {
                let exact = Solver::new(1).solve(&p.board, -64, 64, &mut Silent).score;
                assert_eq!(p.label, crate::record::Label::Exact(exact), "game {index}");
            }
            assert_eq!(GameRecord::parse(&record.to_string()).unwrap(), record);
        }
    }

    #[test]
    fn a_near_best_opening_labels_every_position() {
        let settings = Settings { opening_margin: 2, noise: 0, ..quick() };
        let (mut searcher, mut solver) = (Searcher::new(1), Solver::new(1));
        let mut openings = std::collections::HashSet::new();
        for index in 0..6 {
            let record = play_game(&settings, index, &mut searcher, &mut solver);
            assert_eq!(record.labelled, 0, "game {index}");
            let positions = record.positions().expect("a generated game replays");
            assert!(matches!(positions[0].label, crate::record::Label::Outcome { search: Some(_), .. }));
            openings.insert(record.moves[..6].to_vec());
        }
        assert!(openings.len() > 1, "the openings differ");
        assert!(settings.header().ends_with(" opening-margin=2") && !quick().header().contains("opening"));
    }

    #[test]
    fn without_scores_the_same_games_are_played() {
        let (mut searcher, mut solver) = (Searcher::new(1), Solver::new(1));
        let plain = Settings { opening_margin: 2, ..quick() };
        let bare = Settings { scores: false, ..plain.clone() };
        for index in 0..3 {
            let with = play_game(&plain, index, &mut searcher, &mut solver);
            let without = play_game(&bare, index, &mut searcher, &mut solver);
            assert!(!with.scores.is_empty() && without.scores.is_empty(), "game {index}");
            assert_eq!(GameRecord { scores: Vec::new(), ..with }, without);
        }
        assert!(bare.header().ends_with(" opening-margin=2 scores=no") && !plain.header().contains("scores"));
    }

    #[test]
    fn a_game_depends_on_its_index_alone() {
        let (mut searcher, mut solver) = (Searcher::new(1), Solver::new(1));
        let a = play_game(&quick(), 3, &mut searcher, &mut solver);
        play_game(&quick(), 1, &mut searcher, &mut solver);
        let b = play_game(&quick(), 3, &mut searcher, &mut solver);
        assert_eq!(a, b);
    }

    #[test]
    fn shards_resume_and_cover_the_run() {
        let dir = std::env::temp_dir().join(format!("ebony-train-gen-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("g.ebgm");
        let path = path.to_str().unwrap();
        let _ = std::fs::remove_file(path);
        let mut settings = quick();
        settings.shard = (2, 2);
        run(&settings, path).unwrap();
        // A torn record is dropped on resume, and the rest of the run is played once.
        let mut f = std::fs::OpenOptions::new().append(true).open(path).unwrap();
        std::io::Write::write_all(&mut f, &[40, 9, 1]).unwrap();
        settings.shard = (1, 1);
        run(&settings, path).unwrap();
        let (_, records) = crate::games::read_all(path).unwrap();
        let mut indices: Vec<u64> = records.iter().map(|r| r.index).collect();
        indices.sort_unstable();
        assert_eq!(indices, vec![0, 1, 2, 3]);
        settings.depth = 3;
        assert!(run(&settings, path).unwrap_err().contains("other settings"));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
