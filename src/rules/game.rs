//! The game layer every protocol front end shares: a start position, the moves played from it, undo.
//! Front ends translate their commands into these calls; none of them re-implements the rules.

use crate::rules::board::{IllegalMove, Move, Position};

/// A game record: where it started and the moves played since, each checked against the rules.
#[derive(Clone, Debug)]
pub struct Game {
    start: Position,
    /// The position before each move, and the move.
    history: Vec<(Position, Move)>,
    current: Position,
}

impl Default for Game {
    fn default() -> Game {
        Game::new(Position::START)
    }
}

impl Game {
    /// A game starting from `start` with no move played.
    pub fn new(start: Position) -> Game {
        Game { start, history: Vec::new(), current: start }
    }

    /// The position now.
    pub fn position(&self) -> &Position {
        &self.current
    }

    /// The position the game started from.
    pub fn start(&self) -> &Position {
        &self.start
    }

    /// The moves played so far, passes included.
    pub fn moves(&self) -> impl ExactSizeIterator<Item = Move> + '_ {
        self.history.iter().map(|&(_, mv)| mv)
    }

    /// The position before each move played, and the move, from the start.
    pub fn history(&self) -> impl ExactSizeIterator<Item = &(Position, Move)> + '_ {
        self.history.iter()
    }

    /// Plays one move, or leaves the game unchanged and says why it is illegal.
    pub fn play(&mut self, mv: Move) -> Result<(), IllegalMove> {
        let next = self.current.try_play(mv)?;
        self.history.push((self.current, mv));
        self.current = next;
        Ok(())
    }

    /// Plays a sequence of moves, all or none: on the first illegal one the game is left as it was
    /// and the error carries that move's index in `moves`.
    pub fn play_all(&mut self, moves: &[Move]) -> Result<(), (usize, IllegalMove)> {
        let mut trial = self.clone();
        for (i, &mv) in moves.iter().enumerate() {
            trial.play(mv).map_err(|e| (i, e))?;
        }
        *self = trial;
        Ok(())
    }

    /// Takes back the last move; `None` when no move has been played.
    pub fn undo(&mut self) -> Option<Move> {
        let (before, mv) = self.history.pop()?;
        self.current = before;
        Some(mv)
    }

    /// True when neither side can move.
    pub fn is_over(&self) -> bool {
        self.current.board.is_game_over()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::square::Square;

    fn sq(name: &str) -> Move {
        Move::Play(name.parse::<Square>().unwrap())
    }

    #[test]
    fn play_and_undo_restore_positions() {
        let mut game = Game::default();
        game.play(sq("f5")).unwrap();
        game.play(sq("d6")).unwrap();
        assert_eq!(game.moves().len(), 2);
        assert_eq!(game.undo(), Some(sq("d6")));
        assert_eq!(game.undo(), Some(sq("f5")));
        assert_eq!(game.undo(), None);
        assert_eq!(*game.position(), Position::START);
    }

    #[test]
    fn play_all_is_all_or_nothing() {
        let mut game = Game::default();
        let err = game.play_all(&[sq("f5"), sq("d6"), sq("a1")]).unwrap_err();
        assert_eq!(err.0, 2);
        assert_eq!(*game.position(), Position::START);
        assert_eq!(game.moves().len(), 0);
        game.play_all(&[sq("f5"), sq("d6"), sq("c3")]).unwrap();
        assert_eq!(game.moves().len(), 3);
    }
}
