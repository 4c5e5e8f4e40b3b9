//! Protocol front ends: thin adapters from text lines to the game layer and the searcher.

pub mod io;
pub mod native;
pub mod parser;
