//! ebony: an Othello engine, in layers that import only downward: `rules` (the game), then `formats`
//! (position and game files, file checksums) and `eval` (static evaluations), then `search` (the
//! midgame search and the exact endgame solver below its API), then `book` (the opening book and the
//! tools that grow it, beside and above the search), then `engine` (a game session: game, searcher,
//! options), then `protocol` (the front ends, which drive an `Engine`) and `cli` (the tools).
//! `main.rs` only parses the command line and picks one of them. `memory` (huge pages for the large
//! tables) and `cpu` (the instruction-set level the searches run at) sit beside `rules`, below
//! everything; `build_info` says what the binary is.

pub mod book;
pub mod build_info;
pub mod cli;
pub mod cpu;
pub mod engine;
pub mod eval;
pub mod formats;
pub mod memory;
pub mod protocol;
pub mod rules;
pub mod search;

pub use rules::board::{Board, Color, IllegalMove, Move, Position};
pub use rules::square::Square;
