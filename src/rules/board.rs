//! The position: two bitboards seen from the side to move, copied to make a move; colours, moves,
//! game end and scoring, and the 64-character board string of Edax, Egaroucid and the FFO files.

use crate::rules::movegen;
use crate::rules::square::{Square, SquareParseError, Squares};
use std::fmt;
use std::str::FromStr;

/// A position from the side to move: `player` holds its discs, `opponent` the other side's.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Board {
    pub player: u64,
    pub opponent: u64,
}

/// A move in the game record: a disc on a square, or a pass when the side to move has no move.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Move {
    Play(Square),
    Pass,
}

/// How a move is written: the squares' case and the word for a pass. Every front end and file format
/// writes moves with one of these, and reads them with [`Move::parse`].
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Notation {
    upper: bool,
    pass: &'static str,
}

impl Notation {
    /// `f5`, `pass`: ebony's protocol, obf files, the command line.
    pub const PLAIN: Notation = Notation { upper: false, pass: "pass" };
    /// `F5`, `pass`: GTP.
    pub const GTP: Notation = Notation { upper: true, pass: "pass" };
    /// `F5`, `PA`: GGF records and NBoard.
    pub const GGF: Notation = Notation { upper: true, pass: "PA" };

    /// `mv` written in this notation.
    pub const fn text(self, mv: Move) -> MoveText {
        MoveText(mv, self)
    }
}

/// A move in a [`Notation`], ready to be written.
#[derive(Clone, Copy, Debug)]
pub struct MoveText(Move, Notation);

impl fmt::Display for MoveText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let MoveText(mv, notation) = *self;
        let text = match mv {
            Move::Play(sq) if notation.upper => sq.to_string().to_ascii_uppercase(),
            Move::Play(sq) => sq.to_string(),
            Move::Pass => notation.pass.to_string(),
        };
        // `pad`, so that widths and alignment (`{:>5}` in tables) apply.
        f.pad(&text)
    }
}

/// `f5` or `pass` ([`Notation::PLAIN`]).
impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        Notation::PLAIN.text(*self).fmt(f)
    }
}

impl Move {
    /// Reads a move in any notation: a square in either case, or `pass` or `PA` in any case.
    pub fn parse(text: &str) -> Result<Move, SquareParseError> {
        if text.eq_ignore_ascii_case("pass") || text.eq_ignore_ascii_case("pa") {
            return Ok(Move::Pass);
        }
        text.parse::<Square>().map(Move::Play)
    }
}

impl FromStr for Move {
    type Err = SquareParseError;

    fn from_str(text: &str) -> Result<Move, SquareParseError> {
        Move::parse(text)
    }
}

/// Why a move is not legal in a position.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum IllegalMove {
    /// Neither side has a move left.
    GameOver,
    /// The square already holds a disc.
    Occupied(Square),
    /// The square is empty but flips nothing.
    NoFlips(Square),
    /// A pass was asked for while a move exists.
    PassWithMoves,
}

impl fmt::Display for IllegalMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            IllegalMove::GameOver => write!(f, "the game is over"),
            IllegalMove::Occupied(sq) => write!(f, "{sq} is occupied"),
            IllegalMove::NoFlips(sq) => write!(f, "{sq} flips no disc"),
            IllegalMove::PassWithMoves => write!(f, "cannot pass: a move is available"),
        }
    }
}

impl std::error::Error for IllegalMove {}

impl Board {
    /// The standard start position from black's side: d5 and e4 black, d4 and e5 white.
    pub const START: Board = Board { player: 0x0000_0008_1000_0000, opponent: 0x0000_0010_0800_0000 };

    #[inline(always)]
    pub const fn new(player: u64, opponent: u64) -> Board {
        Board { player, opponent }
    }

    /// The legal moves of the side to move.
    #[inline(always)]
    pub fn moves(&self) -> u64 {
        movegen::moves(self.player, self.opponent)
    }

    /// The discs a move on the empty square `sq` flips (0 if it is illegal).
    #[inline(always)]
    pub fn flips(&self, sq: Square) -> u64 {
        movegen::flips(self.player, self.opponent, sq.index())
    }

    /// The position after the side to move puts a disc on `sq`, flipping `flips` (from [`Board::flips`]).
    #[inline(always)]
    pub fn play_flips(&self, sq: Square, flips: u64) -> Board {
        Board { player: self.opponent ^ flips, opponent: self.player ^ flips ^ sq.bit() }
    }

    /// The position after a move known to be legal.
    #[inline(always)]
    pub fn play(&self, sq: Square) -> Board {
        self.play_flips(sq, self.flips(sq))
    }

    /// [`Self::flips`] at the instruction-set level `I` (`crate::cpu`), for the searches.
    #[inline(always)]
    pub fn flips_at<I: crate::cpu::Isa>(&self, sq: Square) -> u64 {
        movegen::flips_at::<I>(self.player, self.opponent, sq.index())
    }

    /// [`Self::play`] at the instruction-set level `I`.
    #[inline(always)]
    pub fn play_at<I: crate::cpu::Isa>(&self, sq: Square) -> Board {
        self.play_flips(sq, self.flips_at::<I>(sq))
    }

    /// The position after a pass: the same discs, the other side to move.
    #[inline(always)]
    pub const fn pass(&self) -> Board {
        Board { player: self.opponent, opponent: self.player }
    }

    /// Checks a move against the rules and plays it.
    pub fn try_play(&self, mv: Move) -> Result<Board, IllegalMove> {
        let moves = self.moves();
        match mv {
            Move::Pass if moves != 0 => Err(IllegalMove::PassWithMoves),
            Move::Pass if self.pass().moves() == 0 => Err(IllegalMove::GameOver),
            Move::Pass => Ok(self.pass()),
            Move::Play(_) if moves == 0 && self.pass().moves() == 0 => Err(IllegalMove::GameOver),
            Move::Play(sq) if (self.player | self.opponent) & sq.bit() != 0 => Err(IllegalMove::Occupied(sq)),
            Move::Play(sq) if moves & sq.bit() == 0 => Err(IllegalMove::NoFlips(sq)),
            Move::Play(sq) => Ok(self.play(sq)),
        }
    }

    /// The legal moves as a list: the squares, or a single pass, or nothing when the game is over.
    pub fn legal_moves(&self) -> Vec<Move> {
        let moves = self.moves();
        if moves != 0 {
            Squares(moves).map(Move::Play).collect()
        } else if self.pass().moves() != 0 {
            vec![Move::Pass]
        } else {
            Vec::new()
        }
    }

    #[inline(always)]
    pub const fn empties(&self) -> u64 {
        !(self.player | self.opponent)
    }

    #[inline(always)]
    pub const fn empty_count(&self) -> u32 {
        self.empties().count_ones()
    }

    /// True when neither side can move.
    #[inline]
    pub fn is_game_over(&self) -> bool {
        self.moves() == 0 && self.pass().moves() == 0
    }

    /// The final disc difference for the side to move, empty squares going to the winner
    /// (the tournament convention); meaningful once the game is over.
    #[inline]
    pub const fn final_score(&self) -> i32 {
        let p = self.player.count_ones() as i32;
        let o = self.opponent.count_ones() as i32;
        let empties = 64 - p - o;
        if p > o {
            p - o + empties
        } else if p < o {
            p - o - empties
        } else {
            0
        }
    }
}

/// The colour of a side.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Color {
    Black,
    White,
}

impl Color {
    /// 0 for black, 1 for white: the index of per-colour arrays (clocks, time used).
    #[inline]
    pub const fn index(self) -> usize {
        match self {
            Color::Black => 0,
            Color::White => 1,
        }
    }

    #[inline]
    pub const fn opposite(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }

    /// The character of the board string: `X` black, `O` white.
    pub const fn symbol(self) -> char {
        match self {
            Color::Black => 'X',
            Color::White => 'O',
        }
    }

    pub const fn name(self) -> &'static str {
        match self {
            Color::Black => "black",
            Color::White => "white",
        }
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A board with the colour of the side to move: what a board string describes.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Position {
    pub board: Board,
    pub side: Color,
}

/// Why a board string was refused.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum BoardParseError {
    /// A character that is neither a disc nor an empty square, at this square.
    BadSquare { square: Square, found: char },
    /// Fewer than 64 squares before the string ended.
    TooShort { squares: usize },
    /// No side to move after the 64 squares.
    MissingSide,
    /// The side to move is not one of `X x * b` / `O o w`.
    BadSide(char),
    /// Something after the side to move.
    Trailing(String),
}

impl fmt::Display for BoardParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BoardParseError::BadSquare { square, found } => {
                write!(f, "bad character {found:?} at {square}: expected X x * b (black), O o w (white) or - . (empty)")
            }
            BoardParseError::TooShort { squares } => write!(f, "board has {squares} squares, expected 64"),
            BoardParseError::MissingSide => write!(f, "missing side to move after the 64 squares"),
            BoardParseError::BadSide(c) => write!(f, "bad side to move {c:?}: expected X (black) or O (white)"),
            BoardParseError::Trailing(s) => {
                // Only the start of it: an error stays one short line whatever was pasted.
                let shown: String = s.chars().take(24).collect();
                let more = if shown.len() < s.len() { "..." } else { "" };
                write!(f, "unexpected text after the side to move: {shown:?}{more}")
            }
        }
    }
}

impl std::error::Error for BoardParseError {}

fn disc_color(c: char) -> Option<Option<Color>> {
    match c {
        'X' | 'x' | '*' | 'b' => Some(Some(Color::Black)),
        'O' | 'o' | 'w' => Some(Some(Color::White)),
        '-' | '.' => Some(None),
        _ => None,
    }
}

impl Position {
    pub const START: Position = Position { board: Board::START, side: Color::Black };

    /// Builds a position from absolute discs.
    pub const fn from_colors(black: u64, white: u64, side: Color) -> Position {
        let board = match side {
            Color::Black => Board::new(black, white),
            Color::White => Board::new(white, black),
        };
        Position { board, side }
    }

    pub const fn black(&self) -> u64 {
        match self.side {
            Color::Black => self.board.player,
            Color::White => self.board.opponent,
        }
    }

    pub const fn white(&self) -> u64 {
        match self.side {
            Color::Black => self.board.opponent,
            Color::White => self.board.player,
        }
    }

    /// The colour of the disc on `sq`, if any.
    pub const fn color_at(&self, sq: Square) -> Option<Color> {
        if self.black() & sq.bit() != 0 {
            Some(Color::Black)
        } else if self.white() & sq.bit() != 0 {
            Some(Color::White)
        } else {
            None
        }
    }

    /// Checks a move against the rules and plays it.
    pub fn try_play(&self, mv: Move) -> Result<Position, IllegalMove> {
        Ok(Position { board: self.board.try_play(mv)?, side: self.side.opposite() })
    }

    /// Parses the 64 squares then the side to move; whitespace may stand between the squares and the
    /// side and around the whole string. The squares themselves carry no spaces.
    pub fn parse(text: &str) -> Result<Position, BoardParseError> {
        let text = text.trim();
        let (mut black, mut white) = (0u64, 0u64);
        let mut chars = text.chars();
        for (index, square) in Square::all().enumerate() {
            let c = chars.next().ok_or(BoardParseError::TooShort { squares: index })?;
            match disc_color(c) {
                Some(Some(Color::Black)) => black |= square.bit(),
                Some(Some(Color::White)) => white |= square.bit(),
                Some(None) => {}
                None if c.is_whitespace() => return Err(BoardParseError::TooShort { squares: index }),
                None => return Err(BoardParseError::BadSquare { square, found: c }),
            }
        }
        let rest = chars.as_str().trim_start();
        let mut rest_chars = rest.chars();
        let side = match rest_chars.next() {
            None => return Err(BoardParseError::MissingSide),
            Some(c) => match disc_color(c) {
                Some(Some(color)) => color,
                _ => return Err(BoardParseError::BadSide(c)),
            },
        };
        let trailing = rest_chars.as_str();
        if !trailing.is_empty() {
            return Err(BoardParseError::Trailing(trailing.to_string()));
        }
        Ok(Position::from_colors(black, white, side))
    }

    /// The symbol of a square: `X` black, `O` white, `empty` for an empty one.
    pub fn symbol_at(&self, sq: Square, empty: char) -> char {
        self.color_at(sq).map_or(empty, Color::symbol)
    }

    /// The board picture of every front end (`show`, GTP's `showboard`): file letters, the ranks 1
    /// to 8 each between its number, then the letters again. `upper` writes the letters in upper
    /// case, `empty` marks empty squares, and `indent` spaces follow each rank number.
    pub fn diagram(&self, upper: bool, empty: char, indent: usize) -> Vec<String> {
        let letters = if upper { "A B C D E F G H" } else { "a b c d e f g h" };
        let files = format!("{}{letters}", " ".repeat(indent + 1));
        let mut lines = vec![files.clone()];
        for rank in 0..8u8 {
            let cells: Vec<String> = (0..8u8)
                .filter_map(|file| Square::from_file_rank(file, rank))
                .map(|sq| self.symbol_at(sq, empty).to_string())
                .collect();
            lines.push(format!("{}{}{} {}", rank + 1, " ".repeat(indent), cells.join(" "), rank + 1));
        }
        lines.push(files);
        lines
    }

    /// The 64 squares as `X`, `O` and `-`, a1 first, without the side to move.
    pub fn squares_string(&self) -> String {
        Square::all().map(|sq| self.symbol_at(sq, '-')).collect()
    }
}

impl FromStr for Position {
    type Err = BoardParseError;

    fn from_str(s: &str) -> Result<Position, BoardParseError> {
        Position::parse(s)
    }
}

/// The board string: 64 squares, a space, the side to move (`X` or `O`).
impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.squares_string(), self.side.symbol())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_are_written_and_read_in_every_notation() {
        let f5 = Move::Play("f5".parse().unwrap());
        assert_eq!(f5.to_string(), "f5");
        assert_eq!(Notation::GTP.text(f5).to_string(), "F5");
        assert_eq!(Notation::GGF.text(Move::Pass).to_string(), "PA");
        assert_eq!(Notation::GTP.text(Move::Pass).to_string(), "pass");
        assert_eq!(format!("{:>4}|{:<5}|", f5, Move::Pass), "  f5|pass |");
        for text in ["f5", "F5"] {
            assert_eq!(Move::parse(text), Ok(f5));
        }
        for text in ["pass", "PASS", "PA", "pa"] {
            assert_eq!(Move::parse(text), Ok(Move::Pass));
        }
        assert!(Move::parse("i9").is_err() && Move::parse("").is_err() && Move::parse("f5 ").is_err());
    }

    #[test]
    fn start_position_string() {
        let s = "---------------------------OX------XO--------------------------- X";
        assert_eq!(Position::START.to_string(), s);
        assert_eq!(s.parse::<Position>(), Ok(Position::START));
        assert_eq!(Board::START.moves().count_ones(), 4);
    }

    #[test]
    fn final_score_gives_empties_to_winner() {
        assert_eq!(Board::new(0b111, 0b1000).final_score(), 3 - 1 + 60);
        assert_eq!(Board::new(0b1, 0b110).final_score(), -(2 - 1 + 61));
        assert_eq!(Board::new(0b1, 0b10).final_score(), 0);
    }

    #[test]
    fn try_play_reports_why() {
        let b = Board::START;
        let d3: Square = "d3".parse().unwrap();
        let d4: Square = "d4".parse().unwrap();
        let a1: Square = "a1".parse().unwrap();
        assert!(b.try_play(Move::Play(d3)).is_ok());
        assert_eq!(b.try_play(Move::Play(d4)), Err(IllegalMove::Occupied(d4)));
        assert_eq!(b.try_play(Move::Play(a1)), Err(IllegalMove::NoFlips(a1)));
        assert_eq!(b.try_play(Move::Pass), Err(IllegalMove::PassWithMoves));
        let over = Board::new(1, 0);
        let long = BoardParseError::Trailing("y".repeat(10_000)).to_string();
        assert!(long.len() < 80 && long.ends_with("\"..."), "{long}");
        assert_eq!(over.try_play(Move::Pass), Err(IllegalMove::GameOver));
        assert_eq!(over.try_play(Move::Play(d3)), Err(IllegalMove::GameOver));
    }
}
