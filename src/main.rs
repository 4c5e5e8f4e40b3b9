//! The `ebony` command line: with no subcommand it speaks a protocol on stdin/stdout; the subcommands
//! run the engine's tools (perft, bench, solve).

use clap::{Parser, Subcommand, ValueEnum};
use ebony::bench;
use ebony::board::Position;
use ebony::ordering::Features;
use ebony::perft;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

mod solve_cli;

#[derive(Parser, Debug)]
#[command(name = "ebony", version, about = "An Othello engine", long_about = None)]
struct Cli {
    /// The protocol spoken on stdin/stdout when no subcommand is given.
    #[arg(long, value_enum, default_value_t = ProtocolKind::Native)]
    protocol: ProtocolKind,

    /// Transposition table size in megabytes.
    #[arg(long, default_value_t = 64)]
    hash: usize,

    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
enum ProtocolKind {
    /// ebony's own line protocol (protocol.md).
    Native,
    /// The NBoard GUI protocol, version 2.
    Nboard,
    /// The Go Text Protocol, as Quarry and GoGui speak it for Othello.
    Gtp,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Count the move sequences of each length 1..=DEPTH (the standard move generator check).
    Perft {
        /// Deepest length to count.
        #[arg(default_value_t = 10)]
        depth: u32,
        /// Start from this board string (64 squares and the side to move) instead of the start position.
        #[arg(long)]
        board: Option<String>,
        /// Also print the count under each legal move at the deepest length.
        #[arg(long)]
        divide: bool,
    },
    /// Search the bench positions to a fixed depth; print each, then total nodes and nodes/s.
    Bench {
        /// Depth of every search (the recorded signature is for the default).
        #[arg(long, default_value_t = bench::DEFAULT_DEPTH)]
        depth: u32,
        /// Turn off a move-ordering feature (repeatable): tt-move, fastest-first, square-values.
        #[arg(long)]
        without: Vec<String>,
    },
    /// Solve positions exactly: an obf file (checking its listed scores) or one --board string.
    Solve {
        /// An obf file: one board and side a line, then `; move:score;` (FFO and Edax format).
        file: Option<PathBuf>,
        /// Solve this board string (64 squares and the side to move) instead of a file.
        #[arg(long, conflicts_with = "file", allow_hyphen_values = true)]
        board: Option<String>,
        /// Also solve every legal move exactly (and check every listed move's score).
        #[arg(long)]
        all_moves: bool,
        /// Only win, loss or draw (the window -1..1); scores print as -1, 0 or +1.
        #[arg(long)]
        wld: bool,
        /// The number of the file's first position (20 for fforum-20-39.obf).
        #[arg(long, default_value_t = 1)]
        first_number: usize,
        /// Only these positions, `A` or `A-B`, in the numbering of --first-number.
        #[arg(long, value_parser = solve_cli::parse_range)]
        range: Option<(usize, usize)>,
    },
}

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .target(env_logger::Target::Stderr)
        .init();
    let cli = Cli::parse();
    match cli.command {
        None => run_protocol(cli.protocol, cli.hash),
        Some(Command::Perft { depth, board, divide }) => run_perft(depth, board.as_deref(), divide),
        Some(Command::Bench { depth, without }) => run_bench(depth, &without),
        Some(Command::Solve { file, board, all_moves, wld, first_number, range }) => {
            solve_cli::run(&solve_cli::SolveArgs {
                file: file.as_deref(),
                board: board.as_deref(),
                all_moves,
                wld,
                first_number,
                range,
                hash_mb: cli.hash,
            })
        }
    }
}

fn run_protocol(kind: ProtocolKind, hash_mb: usize) -> ExitCode {
    log::info!("protocol {kind:?}, hash {hash_mb} MB");
    match kind {
        ProtocolKind::Native => ebony::protocol::native::run(hash_mb),
        ProtocolKind::Nboard => ebony::protocol::nboard::run(hash_mb),
        ProtocolKind::Gtp => ebony::protocol::gtp::run(hash_mb),
    }
    ExitCode::SUCCESS
}

fn run_perft(depth: u32, board: Option<&str>, divide: bool) -> ExitCode {
    let position = match board.map(Position::parse).transpose() {
        Ok(position) => position.unwrap_or(Position::START),
        Err(e) => {
            eprintln!("error: bad board: {e}");
            return ExitCode::FAILURE;
        }
    };
    println!("{position}");
    println!("{:>5} {:>16} {:>10} {:>14}", "depth", "nodes", "time(s)", "nodes/s");
    let mut total_nodes = 0u64;
    let mut total_secs = 0f64;
    for d in 1..=depth {
        let start = Instant::now();
        let nodes = perft::perft(&position.board, d);
        let secs = start.elapsed().as_secs_f64();
        total_nodes += nodes;
        total_secs += secs;
        println!("{d:>5} {nodes:>16} {secs:>10.3} {:>14.0}", nodes as f64 / secs.max(1e-9));
    }
    println!("total {total_nodes:>16} {total_secs:>10.3} {:>14.0}", total_nodes as f64 / total_secs.max(1e-9));
    if divide && depth > 0 {
        for (mv, nodes) in perft::divide(&position.board, depth) {
            match mv {
                Some(sq) => println!("{sq} {nodes}"),
                None => println!("pass {nodes}"),
            }
        }
    }
    ExitCode::SUCCESS
}

fn run_bench(depth: u32, without: &[String]) -> ExitCode {
    let mut features = Features::ALL;
    for name in without {
        if !features.disable(name) {
            eprintln!("error: unknown ordering feature {name:?}: expected one of {}", Features::NAMES.join(", "));
            return ExitCode::FAILURE;
        }
    }
    let lines = bench::run(depth, features, |l| {
        let exact = if l.exact { " exact" } else { "" };
        println!(
            "{} depth {:>2} score {:>3}{exact:6} nodes {:>11} time {:>8.3}",
            l.position,
            l.depth,
            l.score,
            l.nodes,
            l.elapsed.as_secs_f64()
        );
    });
    let nodes: u64 = lines.iter().map(|l| l.nodes).sum();
    let secs: f64 = lines.iter().map(|l| l.elapsed.as_secs_f64()).sum();
    println!("nodes {nodes}");
    println!("time {secs:.3}");
    println!("nps {:.0}", nodes as f64 / secs.max(1e-9));
    ExitCode::SUCCESS
}
