//! Protocol front ends: thin adapters from text lines to the game layer and the searcher.

pub mod gtp;
pub mod inbox;
pub mod io;
pub mod native;
pub mod nboard;
pub mod parser;
