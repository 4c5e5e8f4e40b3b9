//! Protocol front ends: thin adapters from text lines to a game session (`crate::engine::Engine`):
//! grammar and rendering only.

// Input decides what runs in every front end: a panic would kill the engine under a GUI or a referee,
// so the ways to panic are refused over all protocol code (tests excepted).
#![deny(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

pub mod gtp;
pub mod inbox;
pub mod io;
pub mod native;
pub mod nboard;
pub mod parser;
pub mod signal;
pub mod view;
