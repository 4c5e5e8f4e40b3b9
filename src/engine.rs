//! A game session: the game record, the searcher (with its table and evaluation) and the options,
//! the one thing the protocol front ends drive. No I/O: front ends parse and render, the session plays
//! and searches.

use crate::eval::Evaluator;
use crate::rules::board::{Board, IllegalMove, Move, Position};
use crate::rules::game::Game;
use crate::search::{Limits, Observer, SearchResult, Searcher, Selectivity, StopReason};
use std::time::Duration;

/// Kept off a GUI's clock for the pipe and the GUI's own bookkeeping (NBoard's and GTP's clocks).
pub const CLOCK_MARGIN: Duration = Duration::from_millis(200);

/// One move scored by a search of the position after it, from the side that plays it.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct MoveScore {
    pub mv: Move,
    /// Disc difference for the side that plays `mv`.
    pub score: i32,
    /// The score is the exact final result.
    pub exact: bool,
    /// Plies searched, the move included.
    pub depth: u32,
    /// How selective the search was (`Selectivity::EXACT` when `exact`).
    pub selectivity: Selectivity,
    pub nodes: u64,
    /// `mv`, then the expected line after it (a forced pass written out).
    pub pv: Vec<Move>,
}

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

    /// Replaces the game record (by one that continues it, a trial copy the front end checked, or
    /// a position set up), keeping what the searcher learnt: its table entries are whole positions,
    /// right in any game.
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

    /// Scores every legal move of `board` (the pass, when it must pass; none at the end of the game)
    /// at `depth` plies, the move included, best first; the moves of equal score keep the order of
    /// the move list. `None` when `observer` stopped a search. The analysis every front end gives
    /// (NBoard's `hint`, the native `analyze`).
    pub fn score_moves(&mut self, board: &Board, depth: u32, observer: &mut dyn Observer) -> Option<Vec<MoveScore>> {
        let mut scored = Vec::new();
        for mv in board.legal_moves() {
            scored.push(self.score_move(board, mv, depth, observer)?);
        }
        scored.sort_by_key(|s| -s.score);
        Some(scored)
    }

    /// Scores `mv` (legal in `board`) by searching the position after it to `depth - 1` plies (at
    /// least 1) as a level of `go depth`; `None` when `mv` is illegal or `observer` stopped the
    /// search. A forced pass after `mv` is played through, as the searcher scores a position without
    /// moves only when the game is over.
    pub fn score_move(
        &mut self,
        board: &Board,
        mv: Move,
        depth: u32,
        observer: &mut dyn Observer,
    ) -> Option<MoveScore> {
        let mut after = board.try_play(mv).ok()?;
        let mut pv = vec![mv];
        let mut sign = -1;
        if after.moves() == 0 && !after.is_game_over() {
            after = after.pass();
            pv.push(Move::Pass);
            sign = 1;
        }
        if after.is_game_over() {
            return Some(MoveScore {
                mv,
                score: sign * after.final_score(),
                exact: true,
                depth,
                selectivity: Selectivity::EXACT,
                nodes: 0,
                pv,
            });
        }
        let result = self.search(&after, &Limits::Depth(depth.saturating_sub(1).max(1)), observer);
        if result.stop == StopReason::Stopped {
            return None;
        }
        pv.extend(result.pv.iter().copied());
        Some(MoveScore {
            mv,
            score: sign * result.score,
            exact: result.exact,
            depth: result.depth + 1,
            selectivity: result.selectivity,
            nodes: result.nodes,
            pv,
        })
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

    /// How selective the midgame searches are from now on.
    pub fn set_selectivity(&mut self, selectivity: Selectivity) {
        self.searcher.set_selectivity(selectivity);
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

    #[test]
    fn every_move_is_scored_best_first() {
        let mut engine = Engine::new(1, Evaluator::default());
        let scored = engine.score_moves(&Board::START, 3, &mut Silent).expect("not stopped");
        assert_eq!(scored.len(), 4);
        assert!(scored.windows(2).all(|w| w[0].score >= w[1].score));
        for s in &scored {
            assert_eq!(s.pv[0], s.mv);
            assert_eq!(s.depth, 3);
        }
        // The best move's score is the score of a search one ply deeper from the root.
        let result = engine.search(&Board::START, &Limits::Depth(3), &mut Silent);
        assert_eq!(scored[0].score, result.score);
    }
}
