//! The command-line tools behind `ebony`'s subcommands: perft, bench and solve (each parses nothing: `main.rs`
//! hands them clap's values, they print their report).

pub mod bench;
pub mod perft;
pub mod solve;
