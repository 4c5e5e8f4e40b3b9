//! ebony: an Othello engine. The library holds the rules, the search and the protocol front ends;
//! `main.rs` only parses the command line and picks one of them.

pub mod bench;
pub mod board;
pub mod endgame;
pub mod eval;
pub mod game;
pub mod ggf;
pub mod movegen;
pub mod obf;
pub mod ordering;
pub mod pattern;
pub mod perft;
pub mod protocol;
pub mod search;
pub mod square;
pub mod timeman;
pub mod tt;

pub use board::{Board, Color, IllegalMove, Move, Position};
pub use square::Square;
