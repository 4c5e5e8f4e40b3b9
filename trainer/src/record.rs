//! The game records the generator writes and the fitter reads: one self-play game a line,
//!
//! ```text
//! <index> <moves> <solved> <values>
//! ```
//!
//! - `index`: the game's number in its run (its random numbers depend on it alone);
//! - `moves`: the transcript, squares without separators (`f5d6c3...`), forced passes left out;
//! - `solved`: how many moves were played before the first exact solve;
//! - `values`: for each position from move `solved` to the end of the game, its exact final disc
//!   difference with perfect play from there (empties to the winner), from black's point of view,
//!   separated by commas.
//!
//! "The position after k moves" always has its forced pass played, so its side to move has a move
//! unless the game is over. A file opens with one `#` line naming the generator's settings; a run that
//! resumes a file checks that they are the same.

use ebony::rules::board::{Board, Color, Move};
use ebony::rules::square::Square;
use std::fmt;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRecord {
    pub index: u64,
    pub moves: Vec<Square>,
    pub solved: usize,
    pub values: Vec<i8>,
}

/// One position of a replayed game, with its label.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Labelled {
    pub board: Board,
    /// For the side to move, in discs.
    pub score: i32,
    /// True for positions at or after the first solve: `score` is then their exact value. Before it,
    /// `score` is the exact value of the solve point, the outcome of this game under perfect play
    /// from there.
    pub exact: bool,
}

/// The position with a forced pass played, and whose turn it is then.
pub fn after_forced_pass(board: Board, side: Color) -> (Board, Color) {
    if board.moves() == 0 && !board.is_game_over() {
        (board.pass(), side.opposite())
    } else {
        (board, side)
    }
}

impl GameRecord {
    /// Every position of the game from the start position, labelled, or why the record is wrong.
    pub fn positions(&self) -> Result<Vec<Labelled>, String> {
        if self.solved > self.moves.len() || self.values.len() != self.moves.len() - self.solved + 1 {
            return Err(format!(
                "game {}: {} values for {} moves solved from move {}",
                self.index,
                self.values.len(),
                self.moves.len(),
                self.solved
            ));
        }
        let black_view = |side: Color, v: i32| if side == Color::Black { v } else { -v };
        let (mut board, mut side) = (Board::START, Color::Black);
        let mut out = Vec::with_capacity(self.moves.len() + 1);
        for ply in 0..=self.moves.len() {
            let (score, exact) = match ply.checked_sub(self.solved) {
                Some(k) => (self.values[k] as i32, true),
                None => (self.values[0] as i32, false),
            };
            out.push(Labelled { board, score: black_view(side, score), exact });
            let Some(&sq) = self.moves.get(ply) else { break };
            if board.moves() & sq.bit() == 0 {
                return Err(format!("game {}: move {} ({sq}) is illegal", self.index, ply + 1));
            }
            (board, side) = after_forced_pass(board.play(sq), side.opposite());
        }
        if !board.is_game_over() {
            return Err(format!("game {}: the transcript stops before the end of the game", self.index));
        }
        let last = out.last().map_or(0, |l| l.score);
        if last != board.final_score() {
            return Err(format!("game {}: last value {last}, the game ends {}", self.index, board.final_score()));
        }
        Ok(out)
    }

    pub fn parse(line: &str) -> Result<GameRecord, String> {
        let fields: Vec<&str> = line.split_whitespace().collect();
        let [index, moves, solved, values] = fields[..] else {
            return Err("expected 4 fields: index, moves, solved, values".to_string());
        };
        let index = index.parse().map_err(|_| format!("bad game index {index:?}"))?;
        if moves.len() % 2 != 0 || !moves.is_ascii() {
            return Err(format!("game {index}: bad transcript"));
        }
        let moves = (0..moves.len() / 2)
            .map(|i| moves[2 * i..2 * i + 2].parse::<Square>().map_err(|e| format!("game {index}: {e}")))
            .collect::<Result<Vec<_>, _>>()?;
        let solved = solved.parse().map_err(|_| format!("game {index}: bad solve point {solved:?}"))?;
        let values = values
            .split(',')
            .map(|v| v.parse::<i8>().ok().filter(|v| (-64..=64).contains(v)))
            .collect::<Option<Vec<_>>>()
            .ok_or_else(|| format!("game {index}: bad values"))?;
        Ok(GameRecord { index, moves, solved, values })
    }
}

impl fmt::Display for GameRecord {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ", self.index)?;
        for sq in &self.moves {
            write!(f, "{sq}")?;
        }
        write!(f, " {} ", self.solved)?;
        for (i, v) in self.values.iter().enumerate() {
            if i > 0 {
                f.write_str(",")?;
            }
            write!(f, "{v}")?;
        }
        Ok(())
    }
}

/// A move as a square, for the transcript (the generator never records passes).
pub fn square_of(mv: Move) -> Option<Square> {
    match mv {
        Move::Play(sq) => Some(sq),
        Move::Pass => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The shortest game: black wins 13-0 after nine moves (every square filled or not, the game is
    /// over when neither side can move).
    fn shortest() -> GameRecord {
        let moves = "e6f4e3f6g5d6e7f5c5".as_bytes().chunks(2).map(|c| std::str::from_utf8(c).unwrap().parse().unwrap());
        GameRecord { index: 4, moves: moves.collect(), solved: 7, values: vec![64, 64, 64] }
    }

    #[test]
    fn round_trips_through_text() {
        let game = shortest();
        let line = game.to_string();
        assert_eq!(line, "4 e6f4e3f6g5d6e7f5c5 7 64,64,64");
        assert_eq!(GameRecord::parse(&line).unwrap(), game);
    }

    #[test]
    fn labels_every_position_for_its_side_to_move() {
        let positions = shortest().positions().unwrap();
        assert_eq!(positions.len(), 10);
        // Black to move at the start: +64; white to move after one move: -64.
        assert_eq!((positions[0].score, positions[0].exact), (64, false));
        assert_eq!((positions[1].score, positions[1].exact), (-64, false));
        assert_eq!((positions[7].score, positions[7].exact), (-64, true));
        assert!(positions[9].board.is_game_over());
    }

    #[test]
    fn rejects_inconsistent_records() {
        let mut game = shortest();
        game.values = vec![64, 64];
        assert!(game.positions().is_err());
        let mut game = shortest();
        game.values = vec![10, 10, 10];
        assert!(game.positions().unwrap_err().contains("ends"));
        let mut game = shortest();
        game.moves.pop();
        game.values.pop();
        assert!(game.positions().unwrap_err().contains("before the end"));
        assert!(GameRecord::parse("1 f5 0").is_err());
        assert!(GameRecord::parse("1 f5x 0 1").is_err());
        assert!(GameRecord::parse("1 f5 0 99").is_err());
    }
}
