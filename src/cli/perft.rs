//! `ebony perft`: counts per depth with time and nodes/s, and the split by root move.

use crate::rules::board::Position;
use crate::rules::perft;
use std::process::ExitCode;
use std::time::Instant;

/// Prints the perft counts 1..=`depth` from `board` (a board string) or the start position.
pub fn run(depth: u32, board: Option<&str>, divide: bool) -> ExitCode {
    let position = match board.map(Position::parse).transpose() {
        Ok(position) => position.unwrap_or(Position::START),
        Err(e) => return super::usage_error(format_args!("bad board: {e}")),
    };
    say!("{position}");
    say!("{:>5} {:>16} {:>10} {:>14}", "depth", "nodes", "time(s)", "nodes/s");
    let mut total_nodes = 0u64;
    let mut total_secs = 0f64;
    for d in 1..=depth {
        let start = Instant::now();
        let nodes = perft::perft(&position.board, d);
        let secs = start.elapsed().as_secs_f64();
        total_nodes += nodes;
        total_secs += secs;
        say!("{d:>5} {nodes:>16} {secs:>10.3} {:>14.0}", nodes as f64 / secs.max(1e-9));
    }
    say!("total {total_nodes:>16} {total_secs:>10.3} {:>14.0}", total_nodes as f64 / total_secs.max(1e-9));
    if divide && depth > 0 {
        for (mv, nodes) in perft::divide(&position.board, depth) {
            match mv {
                Some(sq) => say!("{sq} {nodes}"),
                None => say!("pass {nodes}"),
            }
        }
    }
    ExitCode::SUCCESS
}
