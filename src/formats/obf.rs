//! The obf test-position format of Edax and the FFO suites: one position a line, `<64 squares> <side>;`
//! then the exact score of each listed move, `<move>:<score>;`, best first.

use crate::rules::board::{Move, Position};
use std::fmt;

/// One obf line: the position and the exact scores the file lists (may be empty).
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct ObfEntry {
    pub position: Position,
    /// Each listed move with its exact disc difference for the side to move, in file order.
    pub moves: Vec<(Move, i32)>,
}

impl ObfEntry {
    /// The best listed score: the exact value of the position, if the file gives any move.
    pub fn best_score(&self) -> Option<i32> {
        self.moves.iter().map(|&(_, score)| score).max()
    }
}

/// Why an obf line could not be read.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum ObfError {
    Board(String),
    BadMove(String),
    BadScore(String),
    MissingColon(String),
}

impl fmt::Display for ObfError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ObfError::Board(reason) => write!(f, "bad board: {reason}"),
            ObfError::BadMove(m) => write!(f, "bad move '{m}'"),
            ObfError::BadScore(s) => write!(f, "bad score '{s}'"),
            ObfError::MissingColon(field) => write!(f, "expected <move>:<score>, found '{field}'"),
        }
    }
}

impl std::error::Error for ObfError {}

/// Parses one line. Blank lines and `%` or `#` comments give `Ok(None)`.
pub fn parse_line(line: &str) -> Result<Option<ObfEntry>, ObfError> {
    let line = line.trim();
    if line.is_empty() || line.starts_with('%') || line.starts_with('#') {
        return Ok(None);
    }
    let mut fields = line.split(';');
    let board = fields.next().unwrap_or_default();
    let position = Position::parse(board).map_err(|e| ObfError::Board(e.to_string()))?;
    let mut moves = Vec::new();
    for field in fields.map(str::trim).filter(|f| !f.is_empty()) {
        let (mv, score) = field.split_once(':').ok_or_else(|| ObfError::MissingColon(field.to_string()))?;
        let mv = Move::parse(mv.trim()).map_err(|_| ObfError::BadMove(mv.trim().to_string()))?;
        let score = score.trim();
        let score = score.parse::<i32>().map_err(|_| ObfError::BadScore(score.to_string()))?;
        moves.push((mv, score));
    }
    Ok(Some(ObfEntry { position, moves }))
}

/// Parses a whole file; an error names its 1-based line number.
pub fn parse(text: &str) -> Result<Vec<ObfEntry>, (usize, ObfError)> {
    let mut entries = Vec::new();
    for (index, line) in text.lines().enumerate() {
        if let Some(entry) = parse_line(line).map_err(|e| (index + 1, e))? {
            entries.push(entry);
        }
    }
    Ok(entries)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::board::Color;

    #[test]
    fn reads_a_line_with_scores() {
        let line = "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X; G8:+18; H1:+12; B1:-4;";
        let entry = parse_line(line).unwrap().unwrap();
        assert_eq!(entry.position.side, Color::Black);
        assert_eq!(entry.moves.len(), 3);
        assert_eq!(entry.moves[0], (Move::Play("g8".parse().unwrap()), 18));
        assert_eq!(entry.moves[2], (Move::Play("b1".parse().unwrap()), -4));
        assert_eq!(entry.best_score(), Some(18));
    }

    #[test]
    fn board_alone_and_comments() {
        let line = "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- O";
        assert!(parse_line(line).unwrap().unwrap().moves.is_empty());
        assert_eq!(parse_line("% comment"), Ok(None));
        assert_eq!(parse_line("   "), Ok(None));
    }

    #[test]
    fn rejects_bad_fields() {
        let board = "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X";
        assert!(matches!(parse_line(&format!("{board}; Z9:+2;")), Err(ObfError::BadMove(_))));
        assert!(matches!(parse_line(&format!("{board}; G8:x;")), Err(ObfError::BadScore(_))));
        assert!(matches!(parse_line(&format!("{board}; G8;")), Err(ObfError::MissingColon(_))));
        assert!(matches!(parse_line("XXO X; G8:+2;"), Err(ObfError::Board(_))));
    }

    #[test]
    fn ffo_files_parse() {
        for name in ["fforum-1-19.obf", "fforum-20-39.obf", "fforum-40-59.obf"] {
            let path = format!("{}/tests/data/{name}", env!("CARGO_MANIFEST_DIR"));
            let text = std::fs::read_to_string(path).unwrap();
            let entries = parse(&text).unwrap();
            assert!(entries.len() >= 19 && entries.iter().all(|e| e.best_score().is_some()));
        }
    }
}
