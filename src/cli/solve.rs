//! The `ebony solve` subcommand: solves obf test positions (checking the listed scores) or one board
//! string, and prints per position the move, score, nodes, time and speed, then a total line.

use crate::formats::obf::{self, ObfEntry};
use crate::rules::board::Position;
use crate::search::endgame::{Solution, Solver};
use crate::search::Silent;
use std::path::Path;
use std::process::ExitCode;
use std::time::Duration;

/// What to solve and how.
pub struct SolveArgs<'a> {
    pub file: Option<&'a Path>,
    pub board: Option<&'a str>,
    pub all_moves: bool,
    pub wld: bool,
    pub first_number: usize,
    pub range: Option<(usize, usize)>,
    pub hash_mb: usize,
}

/// Parses `A` or `A-B` (inclusive position numbers).
pub fn parse_range(text: &str) -> Result<(usize, usize), String> {
    let number = |s: &str| s.trim().parse::<usize>().map_err(|_| format!("bad position number '{s}'"));
    let (a, b) = match text.split_once('-') {
        Some((a, b)) => (number(a)?, number(b)?),
        None => number(text).map(|n| (n, n))?,
    };
    if a > b {
        return Err(format!("empty range {a}-{b}: the first number must not exceed the second"));
    }
    Ok((a, b))
}

fn nps(nodes: u64, elapsed: Duration) -> f64 {
    nodes as f64 / elapsed.as_secs_f64().max(1e-9)
}

pub fn run(args: &SolveArgs) -> ExitCode {
    // Everything wrong before the first solve is a usage error (status 2, as clap's); a wrong score
    // found by the solve is status 1.
    let entries = match (args.file, args.board) {
        (Some(path), None) => match std::fs::read_to_string(path) {
            Err(e) => return super::usage_error(format_args!("cannot read {}: {e}", path.display())),
            Ok(text) => match obf::parse(&text) {
                Ok(entries) => entries,
                Err((line, e)) => return super::usage_error(format_args!("{}:{line}: {e}", path.display())),
            },
        },
        (None, Some(board)) => match Position::parse(board) {
            Ok(position) => vec![ObfEntry { position, moves: Vec::new() }],
            Err(e) => return super::usage_error(format_args!("bad board: {e}")),
        },
        _ => return super::usage_error("give either an obf FILE or --board"),
    };
    // A command that selects nothing would print a clean total and pass: say what went wrong instead.
    if entries.is_empty() {
        return super::usage_error("no positions to solve");
    }
    let last = args.first_number + entries.len() - 1;
    if let Some((a, b)) = args.range.filter(|&(a, b)| b < args.first_number || a > last) {
        return super::usage_error(format_args!(
            "--range {a}-{b} selects none of the positions, which are numbered {}-{last}",
            args.first_number
        ));
    }
    let mut solver = Solver::new(args.hash_mb);
    let (mut total_nodes, mut total_time, mut wrong, mut solved) = (0u64, Duration::ZERO, 0usize, 0usize);
    say!(
        "{:>4} {:>7} {:>5} {:>6} {:>8} {:>14} {:>9} {:>12}",
        "#",
        "empties",
        "move",
        "score",
        "expected",
        "nodes",
        "time(s)",
        "nodes/s"
    );
    for (index, entry) in entries.iter().enumerate() {
        let number = args.first_number + index;
        if args.range.is_some_and(|(a, b)| number < a || number > b) {
            continue;
        }
        // A fresh table per position: each figure stands alone and runs are reproducible.
        solver.clear();
        let board = entry.position.board;
        let (alpha, beta) = if args.wld { (-1, 1) } else { (-64, 64) };
        let solution: Solution = solver.solve(&board, alpha, beta, &mut Silent);
        let mut nodes = solution.nodes;
        let mut elapsed = solution.elapsed;
        let expected = entry.best_score();
        let shown = |score: i32| if args.wld { score.signum() } else { score };
        let mut ok = expected.is_none_or(|e| shown(e) == shown(solution.score));
        let mut detail = String::new();
        if args.all_moves {
            let all = solver.solve_all_moves(&board, &mut Silent);
            nodes += all.nodes;
            elapsed += all.elapsed;
            for &(mv, score) in &all.moves {
                detail.push_str(&format!(" {}:{:+}", mv, score));
            }
            for &(mv, score) in &entry.moves {
                match all.moves.iter().find(|&&(m, _)| m == mv) {
                    Some(&(_, got)) if got == score => {}
                    Some(&(_, got)) => {
                        ok = false;
                        detail.push_str(&format!(" [{} is {got:+}, expected {score:+}]", mv));
                    }
                    None => {
                        ok = false;
                        detail.push_str(&format!(" [{} is not legal]", mv));
                    }
                }
            }
        }
        let expected_text = expected.map_or("-".to_string(), |e| format!("{:+}", shown(e)));
        say!(
            "{number:>4} {:>7} {:>5} {:>+6} {expected_text:>8} {nodes:>14} {:>9.3} {:>12.0}{}{detail}",
            board.empty_count(),
            solution.best,
            shown(solution.score),
            elapsed.as_secs_f64(),
            nps(nodes, elapsed),
            if ok { "" } else { "  WRONG" },
        );
        total_nodes += nodes;
        total_time += elapsed;
        solved += 1;
        wrong += usize::from(!ok);
    }
    say!(
        "total: {solved} positions, {wrong} wrong, {total_nodes} nodes, {:.3} s, {:.0} nodes/s",
        total_time.as_secs_f64(),
        nps(total_nodes, total_time)
    );
    if wrong == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
