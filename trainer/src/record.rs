//! The game records the generator writes and the fitter reads: one self-play game a line,
//!
//! ```text
//! <index> <moves> <labelled> <solved> <values> [<scores>]
//! ```
//!
//! - `index`: the game's number in its run (its random numbers depend on it alone);
//! - `moves`: the transcript, squares without separators (`f5d6c3...`), forced passes left out;
//! - `labelled`: how many moves were played before the last random move of the opening and midgame
//!   was made: from there on the game was played well, so the outcome is a label for its positions;
//! - `solved`: how many moves were played before the first exact solve;
//! - `values`: for each position from move `solved` to the end of the game, its exact final disc
//!   difference with perfect play from there (empties to the winner), from black's point of view,
//!   separated by commas;
//! - `scores` (optional): for each position from move `labelled` to move `solved` (excluded), the
//!   score of the self-play search that chose its move, from black's point of view, separated by
//!   commas (`-` when there are none).
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
    pub labelled: usize,
    pub solved: usize,
    pub values: Vec<i8>,
    /// Empty, or one search score for each position from `labelled` to `solved`.
    pub scores: Vec<i8>,
}

/// What a position's label says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Label {
    /// A random move followed: the game says nothing reliable about this position.
    None,
    /// The exact value of the solve point: the outcome of the game, played well from here and
    /// perfectly from the solve point on; and the score of the search that chose the move here, if
    /// the record has it.
    Outcome { outcome: i32, search: Option<i32> },
    /// The exact value of the position (at or after the solve point).
    Exact(i32),
}

impl Label {
    /// The score for the side to move, in discs, if any.
    pub fn score(self) -> Option<i32> {
        match self {
            Label::None => None,
            Label::Outcome { outcome: s, .. } | Label::Exact(s) => Some(s),
        }
    }
}

/// One position of a replayed game, with its label for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Labelled {
    pub board: Board,
    pub label: Label,
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
        if self.labelled > self.solved
            || self.solved > self.moves.len()
            || self.values.len() != self.moves.len() - self.solved + 1
            || !(self.scores.is_empty() || self.scores.len() == self.solved - self.labelled)
        {
            return Err(format!(
                "game {}: {} values for {} moves labelled from move {}, solved from move {}",
                self.index,
                self.values.len(),
                self.moves.len(),
                self.labelled,
                self.solved
            ));
        }
        let black_view = |side: Color, v: i32| if side == Color::Black { v } else { -v };
        let (mut board, mut side) = (Board::START, Color::Black);
        let mut out = Vec::with_capacity(self.moves.len() + 1);
        for ply in 0..=self.moves.len() {
            let label = match ply.checked_sub(self.solved) {
                Some(k) => Label::Exact(black_view(side, self.values[k] as i32)),
                None if ply >= self.labelled => Label::Outcome {
                    outcome: black_view(side, self.values[0] as i32),
                    search: self.scores.get(ply - self.labelled).map(|&s| black_view(side, s as i32)),
                },
                None => Label::None,
            };
            out.push(Labelled { board, label });
            let Some(&sq) = self.moves.get(ply) else { break };
            if board.moves() & sq.bit() == 0 {
                return Err(format!("game {}: move {} ({sq}) is illegal", self.index, ply + 1));
            }
            (board, side) = after_forced_pass(board.play(sq), side.opposite());
        }
        if !board.is_game_over() {
            return Err(format!("game {}: the transcript stops before the end of the game", self.index));
        }
        let last = out.last().and_then(|l| l.label.score()).unwrap_or(0);
        if last != board.final_score() {
            return Err(format!("game {}: last value {last}, the game ends {}", self.index, board.final_score()));
        }
        Ok(out)
    }

    /// The positions a fit learns from: those with a label, the final one left out (the game's
    /// score, nothing to learn). What `fit` and `stream-fit` read, and `count` counts.
    pub fn fitted(&self) -> Result<Vec<Labelled>, String> {
        let mut positions = self.positions()?;
        positions.retain(|l| l.label != Label::None && !l.board.is_game_over());
        Ok(positions)
    }

    pub fn parse(line: &str) -> Result<GameRecord, String> {
        let fields: Vec<&str> = line.split_whitespace().collect();
        let (index, moves, labelled, solved, values, scores) = match fields[..] {
            [i, m, l, s, v] => (i, m, l, s, v, "-"),
            [i, m, l, s, v, sc] => (i, m, l, s, v, sc),
            _ => return Err("expected 5 or 6 fields: index, moves, labelled, solved, values, scores".to_string()),
        };
        let index = index.parse().map_err(|_| format!("bad game index {index:?}"))?;
        if moves.len() % 2 != 0 || !moves.is_ascii() {
            return Err(format!("game {index}: bad transcript"));
        }
        let moves = (0..moves.len() / 2)
            .map(|i| moves[2 * i..2 * i + 2].parse::<Square>().map_err(|e| format!("game {index}: {e}")))
            .collect::<Result<Vec<_>, _>>()?;
        let labelled = labelled.parse().map_err(|_| format!("game {index}: bad label start {labelled:?}"))?;
        let solved = solved.parse().map_err(|_| format!("game {index}: bad solve point {solved:?}"))?;
        let list = |text: &str, what: &str| {
            text.split(',')
                .map(|v| v.parse::<i8>().ok().filter(|v| (-64..=64).contains(v)))
                .collect::<Option<Vec<_>>>()
                .ok_or_else(|| format!("game {index}: bad {what}"))
        };
        let values = list(values, "values")?;
        let scores = if scores == "-" { Vec::new() } else { list(scores, "scores")? };
        Ok(GameRecord { index, moves, labelled, solved, values, scores })
    }
}

impl fmt::Display for GameRecord {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ", self.index)?;
        for sq in &self.moves {
            write!(f, "{sq}")?;
        }
        write!(f, " {} {} ", self.labelled, self.solved)?;
        for (i, v) in self.values.iter().enumerate() {
            if i > 0 {
                f.write_str(",")?;
            }
            write!(f, "{v}")?;
        }
        if self.scores.is_empty() {
            return f.write_str(" -");
        }
        for (i, v) in self.scores.iter().enumerate() {
            f.write_str(if i == 0 { " " } else { "," })?;
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

/// The indices of the records already in `path` (a run's output file), after checking its header
/// line; a torn last line (an interrupted write) is cut off, so the run appends after whole lines.
/// `index` reads a record line's index. A missing file is an empty run.
pub fn resume(
    path: &str,
    header: &str,
    index: impl Fn(&str) -> Result<u64, String>,
) -> Result<std::collections::BTreeSet<u64>, String> {
    use std::io::BufRead;
    let mut done = std::collections::BTreeSet::new();
    let Ok(file) = std::fs::File::open(path) else { return Ok(done) };
    let mut reader = std::io::BufReader::new(file);
    let (mut line, mut good_len, mut first) = (String::new(), 0u64, true);
    loop {
        line.clear();
        let n = reader.read_line(&mut line).map_err(|e| format!("cannot read {path}: {e}"))?;
        if n == 0 || !line.ends_with('\n') {
            break;
        }
        let text = line.trim_end();
        if first {
            if text != header {
                return Err(format!("{path} was made with other settings:\n  {text}\nnot\n  {header}"));
            }
            first = false;
        } else {
            done.insert(index(text).map_err(|e| format!("{path}: {e}"))?);
        }
        good_len += n as u64;
    }
    let file = std::fs::OpenOptions::new().write(true).open(path).map_err(|e| format!("cannot open {path}: {e}"))?;
    file.set_len(good_len).map_err(|e| format!("cannot truncate {path}: {e}"))?;
    Ok(done)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The shortest game: black wins 13-0 after nine moves (every square filled or not, the game is
    /// over when neither side can move).
    fn shortest() -> GameRecord {
        let moves = "e6f4e3f6g5d6e7f5c5".as_bytes().chunks(2).map(|c| std::str::from_utf8(c).unwrap().parse().unwrap());
        GameRecord {
            index: 4,
            moves: moves.collect(),
            labelled: 2,
            solved: 7,
            values: vec![64, 64, 64],
            scores: vec![10, 12, 20, 40, 64],
        }
    }

    #[test]
    fn round_trips_through_text() {
        let game = shortest();
        let line = game.to_string();
        assert_eq!(line, "4 e6f4e3f6g5d6e7f5c5 2 7 64,64,64 10,12,20,40,64");
        assert_eq!(GameRecord::parse(&line).unwrap(), game);
        // Records without search scores (generator v2) read as such.
        let old = GameRecord::parse("4 e6f4e3f6g5d6e7f5c5 2 7 64,64,64").unwrap();
        assert_eq!(old, GameRecord { scores: Vec::new(), ..game.clone() });
        assert_eq!(old.to_string(), "4 e6f4e3f6g5d6e7f5c5 2 7 64,64,64 -");
    }

    #[test]
    fn labels_every_position_for_its_side_to_move() {
        let positions = shortest().positions().unwrap();
        assert_eq!(positions.len(), 10);
        // Random moves before move 2; then black to move: +64, white to move: -64.
        assert_eq!(positions[1].label, Label::None);
        assert_eq!(positions[2].label, Label::Outcome { outcome: 64, search: Some(10) });
        assert_eq!(positions[3].label, Label::Outcome { outcome: -64, search: Some(-12) });
        assert_eq!(positions[7].label, Label::Exact(-64));
        assert!(positions[9].board.is_game_over());
        // A fit learns from positions 2 to 8: after the random moves, before the end.
        assert_eq!(shortest().fitted().unwrap(), positions[2..9]);
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
        let mut game = shortest();
        game.labelled = 8;
        assert!(game.positions().is_err());
        let mut game = shortest();
        game.scores.pop();
        assert!(game.positions().is_err());
        assert!(GameRecord::parse("1 f5 0 0").is_err());
        assert!(GameRecord::parse("1 f5x 0 0 1").is_err());
        assert!(GameRecord::parse("1 f5 0 0 99").is_err());
    }
}
