//! A game session: the game record, the searcher (with its table and evaluation) and the options,
//! the one thing the protocol front ends drive. No I/O: front ends parse and render, the session plays
//! and searches.

use crate::eval::Evaluator;
use crate::rules::board::{Board, IllegalMove, Move, Position};
use crate::rules::game::Game;
use crate::search::{Limits, Observer, SearchResult, Searcher};
use std::time::Duration;

/// Kept off a GUI's clock for the pipe and the GUI's own bookkeeping (NBoard's and GTP's clocks).
pub const CLOCK_MARGIN: Duration = Duration::from_millis(200);

pub struct Engine {
    game: Game,
    searcher: Searcher,
}

impl Engine {
    /// A session at the start position with a transposition table of about `hash_mb` megabytes,
    /// judging positions with `evaluator`.
    pub fn new(hash_mb: usize, evaluator: Evaluator) -> Engine {
        let mut searcher = Searcher::new(hash_mb);
        searcher.set_evaluator(evaluator);
        Engine { game: Game::default(), searcher }
    }

    pub fn game(&self) -> &Game {
        &self.game
    }

    /// The position now, after the moves played.
    pub fn position(&self) -> &Position {
        self.game.position()
    }

    /// Starts another game: what the searcher learnt in this one is forgotten.
    pub fn new_game(&mut self, game: Game) {
        self.game = game;
        self.searcher.new_game();
    }

    /// Replaces the game record by one that continues it (or a trial copy the front end checked),
    /// keeping what the searcher learnt.
    pub fn continue_game(&mut self, game: Game) {
        self.game = game;
    }

    pub fn play(&mut self, mv: Move) -> Result<(), IllegalMove> {
        self.game.play(mv)
    }

    /// Plays all of `moves` or, at the first illegal one (its index is returned), none.
    pub fn play_all(&mut self, moves: &[Move]) -> Result<(), (usize, IllegalMove)> {
        self.game.play_all(moves)
    }

    /// Takes back the last move, if any.
    pub fn undo(&mut self) -> Option<Move> {
        self.game.undo()
    }

    /// Searches `board` (the position now, or one a front end derived from it) within `limits`.
    pub fn search(&mut self, board: &Board, limits: &Limits, observer: &mut dyn Observer) -> SearchResult {
        self.searcher.search(board, limits, observer)
    }

    /// The static evaluation of the position now, for the side to move.
    pub fn evaluate(&self) -> i32 {
        self.searcher.evaluator().evaluate(&self.game.position().board)
    }

    /// Changes the evaluation of the searches from now on.
    pub fn set_evaluator(&mut self, evaluator: Evaluator) {
        self.searcher.set_evaluator(evaluator);
    }

    /// Resizes the transposition table (clearing it).
    pub fn set_hash_mb(&mut self, hash_mb: usize) {
        self.searcher.set_hash_mb(hash_mb);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::Silent;

    #[test]
    fn plays_undoes_and_searches_the_position() {
        let mut engine = Engine::new(1, Evaluator::default());
        let f5 = Move::Play("f5".parse().expect("square"));
        engine.play(f5).expect("legal");
        assert_eq!(engine.game().moves().collect::<Vec<_>>(), [f5]);
        assert!(engine.play(f5).is_err(), "f5 is taken");
        let board = engine.position().board;
        let result = engine.search(&board, &Limits::Depth(3), &mut Silent);
        assert!(board.legal_moves().contains(&result.best));
        assert_eq!(engine.undo(), Some(f5));
        assert_eq!(*engine.position(), Position::START);
        assert_eq!(engine.evaluate(), Evaluator::default().evaluate(&Board::START));
    }
}
