//! The rules of Othello: squares, bitboard move generation, the position, stable discs, the board's
//! symmetries, the game record and perft. Depends on nothing else in the crate.

pub mod board;
pub mod game;
pub mod masks;
pub mod movegen;
pub mod perft;
pub mod square;
pub mod stability;
pub mod symmetry;
