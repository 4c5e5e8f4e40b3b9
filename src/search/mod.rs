//! The search: its API types (`api`), the midgame search (`midgame`: iterative deepening over PVS)
//! with its move ordering, transposition table and time manager, and the exact endgame solver
//! (`endgame`) it hands over to. `endgame` uses only `api` and the table, never `midgame`.

pub mod api;
pub mod endgame;
pub mod midgame;
pub mod ordering;
pub mod probcut;
mod probcut_stats;
pub mod timeman;
pub mod tt;

pub use api::{
    exact_empties, proof_word, solve_empties, Control, Info, Limits, Observer, Outcome, SearchResult, Silent,
    StopReason,
};
pub use midgame::{Searcher, POLL_INTERVAL};
pub use probcut::Selectivity;
