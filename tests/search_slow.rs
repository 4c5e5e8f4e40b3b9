//! Slow search checks, `#[ignore]`d and run by scripts: time-limit overshoot statistics
//! (`scripts/research/search-timing`) and strength matches (`scripts/research/search-strength`).

use ebony::rules::board::{Board, Move};
use ebony::rules::square::Squares;
use ebony::search::{Limits, Searcher, Silent};
use std::time::{Duration, Instant};
use support::Rng;

mod support;

fn env_or(name: &str, default: u64) -> u64 {
    std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

/// Openings: `count` distinct random lines of `plies` moves from a fixed seed.
fn openings(count: usize, plies: u32, seed: u64) -> Vec<Board> {
    let mut rng = Rng(seed);
    let mut out: Vec<Board> = Vec::new();
    while out.len() < count {
        let mut b = Board::START;
        for _ in 0..plies {
            let moves = b.moves();
            let k = rng.below(moves.count_ones() as usize);
            b = b.play(Squares(moves).nth(k).expect("k below the move count"));
        }
        if !out.contains(&b) {
            out.push(b);
        }
    }
    out
}

/// Plays a game from `start`; `players[0]` moves first. Returns the final disc difference for the
/// first player.
fn play(start: Board, players: &mut [&mut dyn FnMut(&Board) -> Move; 2]) -> i32 {
    let mut b = start;
    let mut turn = 0;
    while !b.is_game_over() {
        let mv = players[turn](&b);
        b = b.try_play(mv).unwrap_or_else(|e| {
            panic!(
                "illegal {mv:?} by player {turn} on {}: {e}",
                ebony::rules::board::Position { board: b, side: ebony::rules::board::Color::Black }
            )
        });
        turn ^= 1;
    }
    if turn == 0 {
        b.final_score()
    } else {
        -b.final_score()
    }
}

/// The 1-ply greedy player: the move that flips the most discs (first such square).
fn greedy(b: &Board) -> Move {
    Squares(b.moves())
        .max_by_key(|&sq| (b.flips(sq).count_ones(), std::cmp::Reverse(sq)))
        .map_or(Move::Pass, Move::Play)
}

/// Plays each opening twice, colours swapped; prints and returns (wins, draws, losses, disc sum) of `a`.
fn match_games(
    name: &str,
    starts: &[Board],
    a: &mut dyn FnMut(&Board) -> Move,
    b: &mut dyn FnMut(&Board) -> Move,
) -> (u32, u32, u32, i32) {
    let (mut w, mut d, mut l, mut discs) = (0, 0, 0, 0);
    for (i, &start) in starts.iter().enumerate() {
        for a_first in [true, false] {
            let score =
                if a_first { play(start, &mut [&mut *a, &mut *b]) } else { -play(start, &mut [&mut *b, &mut *a]) };
            match score.signum() {
                1 => w += 1,
                0 => d += 1,
                _ => l += 1,
            }
            discs += score;
            println!("{name} opening {i} {} : {score:+}", if a_first { "first" } else { "second" });
        }
    }
    println!("{name}: +{w} ={d} -{l}, disc sum {discs:+} over {} games", 2 * starts.len());
    (w, d, l, discs)
}

#[test]
#[ignore]
fn strength_depth8_vs_depth6() {
    let starts = openings(env_or("OPENINGS", 20) as usize, 6, 31337);
    let mut s8 = Searcher::new(32);
    let mut s6 = Searcher::new(32);
    let mut deep = |b: &Board| s8.search(b, &Limits::Depth(8), &mut Silent).best;
    let mut shallow = |b: &Board| s6.search(b, &Limits::Depth(6), &mut Silent).best;
    let (w, _, l, discs) = match_games("depth 8 vs depth 6", &starts, &mut deep, &mut shallow);
    assert!(w > 2 * l && discs > 0, "depth 8 does not clearly beat depth 6");
}

#[test]
#[ignore]
fn strength_greedy_one_second() {
    let starts = openings(env_or("OPENINGS", 4) as usize, 4, 2718);
    let ms = env_or("MOVE_MS", 1000);
    let mut s = Searcher::new(64);
    let mut engine = |b: &Board| s.search(b, &Limits::MoveTime(Duration::from_millis(ms)), &mut Silent).best;
    let mut g = |b: &Board| greedy(b);
    let (w, _, _, _) = match_games(&format!("{ms} ms/move vs greedy"), &starts, &mut engine, &mut g);
    assert_eq!(w as usize, 2 * starts.len(), "lost or drew a game to the greedy player");
}

/// Overshoot of `go time`: hundreds of searches with budgets from 5 to 200 ms on varied positions,
/// the wall time around `search` compared with the budget. Fails past 5 ms + 1%.
#[test]
#[ignore]
fn move_time_overshoot() {
    let positions: Vec<Board> =
        openings(50, 8, 99).into_iter().chain(openings(50, 20, 98).into_iter().filter(|b| !b.is_game_over())).collect();
    let rounds = env_or("ROUNDS", 3);
    let budgets = [5u64, 10, 20, 50, 100, 200];
    let mut s = Searcher::new(64);
    let mut overs: Vec<f64> = Vec::new();
    let mut worst_excess = f64::MIN;
    let mut beyond = 0;
    for round in 0..rounds {
        for (i, b) in positions.iter().enumerate() {
            let budget = Duration::from_millis(budgets[(i + round as usize) % budgets.len()]);
            let t = Instant::now();
            s.search(b, &Limits::MoveTime(budget), &mut Silent);
            let over = t.elapsed().as_secs_f64() * 1e3 - budget.as_secs_f64() * 1e3;
            overs.push(over);
            let excess = over - (5.0 + budget.as_secs_f64() * 1e3 * 0.01);
            worst_excess = worst_excess.max(excess);
            beyond += usize::from(excess > 0.0);
        }
    }
    overs.sort_by(|a, b| a.total_cmp(b));
    let n = overs.len();
    let mean = overs.iter().sum::<f64>() / n as f64;
    println!(
        "go time overshoot over {n} searches (ms, negative = under budget): mean {mean:.3} median {:.3} p99 {:.3} \
         max {:.3}; {beyond} beyond 5 ms + 1%",
        overs[n / 2],
        overs[n * 99 / 100],
        overs[n - 1]
    );
    assert!(worst_excess <= 0.0, "overshoot beyond 5 ms + 1%: {worst_excess:.3} ms over the allowance");
}

/// Whole games on a game clock (no increment, then with increment and moves-to-go): the clock
/// must never run out.
#[test]
#[ignore]
fn clock_games_never_flag() {
    // The third setting tells the engine the exact moves it has left in the game.
    let settings = [(2000u64, 0u64, false), (1000, 20, false), (3000, 0, true)];
    for (i, &(total, inc, mtg)) in settings.iter().enumerate() {
        for start in openings(2, 4, 7 + i as u64) {
            let mut clocks = [Duration::from_millis(total); 2];
            let mut s = [Searcher::new(16), Searcher::new(16)];
            let mut b = start;
            let mut turn = 0;
            let mut min_left = Duration::MAX;
            while !b.is_game_over() {
                let moves_to_go = mtg.then(|| b.empty_count().div_ceil(2));
                let limits =
                    Limits::Clock { time_left: clocks[turn], increment: Duration::from_millis(inc), moves_to_go };
                let t = Instant::now();
                let r = s[turn].search(&b, &limits, &mut Silent);
                let spent = t.elapsed();
                assert!(spent < clocks[turn], "flagged: spent {spent:?} of {:?}", clocks[turn]);
                clocks[turn] = clocks[turn] - spent + Duration::from_millis(inc);
                min_left = min_left.min(clocks[turn]);
                b = b.try_play(r.best).expect("legal move");
                turn ^= 1;
            }
            println!("clock {total} ms inc {inc} exact moves-to-go {mtg}: least time left after a move {min_left:?}");
        }
    }
}
