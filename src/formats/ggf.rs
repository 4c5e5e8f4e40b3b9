//! GGF game records (the Generic Game Format of GGS, which NBoard sends in `set game`): the start board
//! `BO[8 <64 squares> <side>]`, the moves `B[..]`/`W[..]` with optional `/eval/time` and `PA` passes, and
//! the clock `TI[..]`. Parsing, and [`write()`] for a game played here; the moves are replayed through
//! [`Game`], which owns the rules.

use crate::rules::board::{Color, IllegalMove, Move, Notation, Position};
use crate::rules::game::Game;
use std::fmt;
use std::time::Duration;

/// One move of the record with what the recorder wrote after it.
#[derive(Clone, Copy, PartialEq, Debug)]
pub struct GgfMove {
    pub color: Color,
    pub mv: Move,
    /// The mover's evaluation, in discs, when given.
    pub eval: Option<f64>,
    /// Seconds the mover spent, when given.
    pub time: Option<f64>,
}

/// A game clock `TI[main/increment/extension]` (each `[[hh:]mm:]ss`; missing parts are zero).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct GgfClock {
    pub main: Duration,
    pub increment: Duration,
    pub extension: Duration,
}

/// A parsed game record.
#[derive(Clone, PartialEq, Debug)]
pub struct GgfGame {
    pub start: Position,
    pub moves: Vec<GgfMove>,
    /// The clock of both players (`TI`), or of each (`TB`, `TW`), when the record has one.
    pub black_clock: Option<GgfClock>,
    pub white_clock: Option<GgfClock>,
}

/// Why a record was refused.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum GgfError {
    /// The text does not start with `(;` or does not end with `;)`.
    Delimiters,
    /// A property is not `KEY[value]` (at this byte offset).
    Syntax(usize),
    /// `GM` names another game.
    NotOthello(String),
    /// `BO` is missing.
    NoBoard,
    /// `BO` is not an 8x8 board with a side to move (the reason).
    BadBoard(String),
    /// A move value is malformed (the value).
    BadMove(String),
    /// A clock value is malformed (the value).
    BadClock(String),
    /// A move is illegal where it stands (its index, from 0, and why).
    Illegal(usize, IllegalMove),
    /// A move of the colour not to move while the side to move has a move (its index).
    OutOfTurn(usize),
}

impl fmt::Display for GgfError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GgfError::Delimiters => write!(f, "a GGF game must start with \"(;\" and end with \";)\""),
            GgfError::Syntax(at) => write!(f, "bad property at byte {at}: expected KEY[value]"),
            GgfError::NotOthello(game) => write!(f, "GM[{game}] is not Othello"),
            GgfError::NoBoard => write!(f, "no BO[...] start board"),
            GgfError::BadBoard(why) => write!(f, "bad BO[...]: {why}"),
            GgfError::BadMove(value) => write!(f, "bad move {value:?}: expected a square or PA, then /eval/time"),
            GgfError::BadClock(value) => write!(f, "bad clock {value:?}: expected [[hh:]mm:]ss[/inc[/ext]]"),
            GgfError::Illegal(i, why) => write!(f, "move {} is illegal: {why}", i + 1),
            GgfError::OutOfTurn(i) => write!(f, "move {} is played out of turn", i + 1),
        }
    }
}

impl std::error::Error for GgfError {}

impl GgfGame {
    /// Replays the record from its start board. A move of the colour not to move is accepted when the
    /// side to move has to pass (the pass is added, as some recorders leave passes out).
    pub fn to_game(&self) -> Result<Game, GgfError> {
        let mut game = Game::new(self.start);
        for (i, m) in self.moves.iter().enumerate() {
            if m.color != game.position().side {
                if m.mv == Move::Pass || game.position().board.moves() != 0 {
                    return Err(GgfError::OutOfTurn(i));
                }
                game.play(Move::Pass).map_err(|e| GgfError::Illegal(i, e))?;
            }
            game.play(m.mv).map_err(|e| GgfError::Illegal(i, e))?;
        }
        Ok(game)
    }

    /// The seconds each colour has spent on the recorded moves: (black, white).
    pub fn time_used(&self) -> (f64, f64) {
        self.moves.iter().fold((0.0, 0.0), |(b, w), m| match m.color {
            Color::Black => (b + m.time.unwrap_or(0.0), w),
            Color::White => (b, w + m.time.unwrap_or(0.0)),
        })
    }
}

/// Parses one game record `(; ... ;)`. Unknown properties are skipped.
pub fn parse(text: &str) -> Result<GgfGame, GgfError> {
    let body = text.trim().strip_prefix("(;").and_then(|rest| rest.strip_suffix(";)")).ok_or(GgfError::Delimiters)?;
    let offset = text.len() - text.trim_start().len() + 2;
    let mut start = None;
    let mut moves = Vec::new();
    let (mut both, mut black_clock, mut white_clock) = (None, None, None);
    for property in Properties::new(body) {
        let (key, value) = property.map_err(|at| GgfError::Syntax(at + offset))?;
        match key {
            "GM" if !value.trim().eq_ignore_ascii_case("othello") => {
                return Err(GgfError::NotOthello(value.to_string()))
            }
            "BO" => start = Some(parse_board(value)?),
            "B" => moves.push(parse_move(Color::Black, value)?),
            "W" => moves.push(parse_move(Color::White, value)?),
            "TI" => both = Some(parse_clock(value)?),
            "TB" => black_clock = Some(parse_clock(value)?),
            "TW" => white_clock = Some(parse_clock(value)?),
            _ => {}
        }
    }
    Ok(GgfGame {
        start: start.ok_or(GgfError::NoBoard)?,
        moves,
        black_clock: black_clock.or(both),
        white_clock: white_clock.or(both),
    })
}

/// A game as one GGF record: `GM`, `PC[ebony]`, `TY[8]`, `RE` once the game is over (black's disc
/// difference, `+12.000`), the start board `BO` and every move (`B[F5]`, `W[PA]`). [`parse`] reads it
/// back to the same game.
pub fn write(game: &Game) -> String {
    let start = game.start();
    let symbol = |c: char| match c {
        'X' => '*',
        other => other,
    };
    let squares: String = start.squares_string().chars().map(symbol).collect();
    let side = match start.side {
        Color::Black => '*',
        Color::White => 'O',
    };
    let mut text = String::from("(;GM[Othello]PC[ebony]TY[8]");
    let end = game.position();
    if end.board.is_game_over() {
        let score = end.board.final_score();
        let black = if end.side == Color::Black { score } else { -score };
        text.push_str(&format!("RE[{black:+}.000]"));
    }
    text.push_str(&format!("BO[8 {squares} {side}]"));
    let mut color = start.side;
    for mv in game.moves() {
        let key = if color == Color::Black { 'B' } else { 'W' };
        text.push_str(&format!("{key}[{}]", Notation::GGF.text(mv)));
        color = color.opposite();
    }
    text.push_str(";)");
    text
}

/// `8 <64 squares, rows may be separated by spaces> <side>`.
fn parse_board(value: &str) -> Result<Position, GgfError> {
    let mut words = value.split_whitespace();
    match words.next() {
        Some("8") => {}
        Some(size) => return Err(GgfError::BadBoard(format!("board size {size:?}, only 8 is played"))),
        None => return Err(GgfError::BadBoard("empty".into())),
    }
    let squares: String = words.collect();
    let split = squares.char_indices().nth(64).map_or(squares.len(), |(i, _)| i);
    let (discs, side) = squares.split_at(split);
    Position::parse(&format!("{discs} {side}")).map_err(|e| GgfError::BadBoard(e.to_string()))
}

/// `F5`, `f5/1.5`, `PA//2.3`, `D3/-4.00/0.1`: a square or `PA`, then optional eval and time (also the
/// form of NBoard's `move` command).
pub fn parse_move(color: Color, value: &str) -> Result<GgfMove, GgfError> {
    let bad = || GgfError::BadMove(value.to_string());
    let mut parts = value.trim().split('/');
    let mv = Move::parse(parts.next().unwrap_or("")).map_err(|_| bad())?;
    let number = |parts: &mut std::str::Split<'_, char>| -> Result<Option<f64>, GgfError> {
        match parts.next().map(str::trim) {
            None | Some("") => Ok(None),
            Some(s) => s.parse::<f64>().ok().filter(|x| x.is_finite()).map(Some).ok_or_else(bad),
        }
    };
    let eval = number(&mut parts)?;
    let time = number(&mut parts)?.map(|t| t.max(0.0));
    if parts.next().is_some() {
        return Err(bad());
    }
    Ok(GgfMove { color, mv, eval, time })
}

/// `[[hh:]mm:]ss[/increment[/extension]]`, each part in the same clock notation.
pub fn parse_clock(value: &str) -> Result<GgfClock, GgfError> {
    let bad = || GgfError::BadClock(value.to_string());
    let mut parts = value.trim().split('/');
    let mut next = || -> Result<Duration, GgfError> {
        match parts.next().map(str::trim) {
            None | Some("") => Ok(Duration::ZERO),
            Some(s) => parse_hms(s).ok_or_else(bad),
        }
    };
    let clock = GgfClock { main: next()?, increment: next()?, extension: next()? };
    if parts.next().is_some() {
        return Err(bad());
    }
    Ok(clock)
}

fn parse_hms(text: &str) -> Option<Duration> {
    let fields: Vec<&str> = text.split(':').collect();
    if fields.len() > 3 {
        return None;
    }
    let mut seconds = 0f64;
    for field in fields {
        let x: f64 = field.parse().ok().filter(|x: &f64| x.is_finite() && *x >= 0.0)?;
        seconds = seconds * 60.0 + x;
    }
    Duration::try_from_secs_f64(seconds).ok()
}

/// Iterates `KEY[value]` properties; an error carries the byte offset where the syntax broke.
struct Properties<'a> {
    text: &'a str,
    pos: usize,
}

impl<'a> Properties<'a> {
    fn new(text: &'a str) -> Properties<'a> {
        Properties { text, pos: 0 }
    }
}

impl<'a> Iterator for Properties<'a> {
    type Item = Result<(&'a str, &'a str), usize>;

    fn next(&mut self) -> Option<Self::Item> {
        let rest = &self.text[self.pos..];
        let skipped = rest.len() - rest.trim_start().len();
        self.pos += skipped;
        let rest = &self.text[self.pos..];
        if rest.is_empty() {
            return None;
        }
        let at = self.pos;
        let key_len = rest.bytes().take_while(u8::is_ascii_uppercase).count();
        let after_key = &rest[key_len..];
        if key_len == 0 || !after_key.starts_with('[') {
            self.pos = self.text.len();
            return Some(Err(at));
        }
        // Values hold no `]` in the records GUIs write; a `\]` escape is kept as it is.
        let mut end = None;
        let mut escaped = false;
        for (i, c) in after_key.char_indices().skip(1) {
            match c {
                '\\' if !escaped => escaped = true,
                ']' if !escaped => {
                    end = Some(i);
                    break;
                }
                _ => escaped = false,
            }
        }
        let Some(end) = end else {
            self.pos = self.text.len();
            return Some(Err(at));
        };
        self.pos += key_len + end + 1;
        Some(Ok((&rest[..key_len], &after_key[1..end])))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const START: &str = "BO[8 ---------------------------O*------*O--------------------------- *]";

    fn sq(name: &str) -> Move {
        Move::Play(name.parse().unwrap())
    }

    #[test]
    fn written_records_read_back_to_the_same_game() {
        let mut game = Game::default();
        game.play_all(&[sq("f5"), sq("d6"), sq("c3")]).unwrap();
        let text = write(&game);
        assert_eq!(text, format!("(;GM[Othello]PC[ebony]TY[8]{START}B[F5]W[D6]B[C3];)"));
        let back = parse(&text).unwrap().to_game().unwrap();
        assert_eq!(back.moves().collect::<Vec<_>>(), game.moves().collect::<Vec<_>>());
        // A set-up start, white to move, a pass, and the result once the game is over.
        let start = Position::parse(&format!("XO{} O", "-".repeat(62))).unwrap();
        let mut game = Game::new(start);
        game.play_all(&[Move::Pass, sq("c1")]).unwrap();
        let text = write(&game);
        assert_eq!(text, format!("(;GM[Othello]PC[ebony]TY[8]RE[+64.000]BO[8 *O{} O]W[PA]B[C1];)", "-".repeat(62)));
        let back = parse(&text).unwrap().to_game().unwrap();
        assert_eq!(back.position(), game.position());
        assert_eq!(back.start(), &start);
    }

    #[test]
    fn nboard_record_with_evals_times_and_passes() {
        let text = format!("(;GM[Othello]PC[NBoard]DT[2026-11-21 17:10:30 GMT]PB[Edax2]PW[root]RE[?]TI[5:00]TY[8]{START}B[F5/0.00]W[F4//2.7920000000000003]B[e3/-1.5/0.25];)");
        let g = parse(&text).unwrap();
        assert_eq!(g.start, Position::START);
        assert_eq!(g.moves.len(), 3);
        assert_eq!(g.moves[0], GgfMove { color: Color::Black, mv: sq("f5"), eval: Some(0.0), time: None });
        assert_eq!(g.moves[1].time, Some(2.7920000000000003));
        assert_eq!(g.moves[1].eval, None);
        assert_eq!(g.moves[2], GgfMove { color: Color::Black, mv: sq("e3"), eval: Some(-1.5), time: Some(0.25) });
        let clock = GgfClock { main: Duration::from_secs(300), increment: Duration::ZERO, extension: Duration::ZERO };
        assert_eq!((g.black_clock, g.white_clock), (Some(clock), Some(clock)));
        let game = g.to_game().unwrap();
        assert_eq!(game.moves().collect::<Vec<_>>(), vec![sq("f5"), sq("f4"), sq("e3")]);
        assert_eq!(g.time_used(), (0.25, 2.7920000000000003));
    }

    #[test]
    fn trailing_pass_is_played() {
        // Edax once ignored a record ending in a pass and answered for the wrong side.
        let board = "BO[8 OOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOO*OOOO--* O]";
        let g = parse(&format!("(;GM[Othello]{board}W[PA];)")).unwrap();
        assert_eq!(g.moves[0].mv, Move::Pass);
        let game = g.to_game().unwrap();
        assert_eq!(game.position().side, Color::Black);
        assert_eq!(game.moves().collect::<Vec<_>>(), vec![Move::Pass]);
    }

    #[test]
    fn left_out_pass_is_added_and_out_of_turn_refused() {
        let board = "BO[8 OOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOO*OOOO--* O]";
        let game = parse(&format!("(;{board}B[F8];)")).unwrap().to_game().unwrap();
        assert_eq!(game.moves().collect::<Vec<_>>(), vec![Move::Pass, sq("f8")]);
        let err = parse(&format!("(;{START}W[F5];)")).unwrap().to_game().unwrap_err();
        assert_eq!(err, GgfError::OutOfTurn(0));
        let err = parse(&format!("(;{START}B[F5]W[A1];)")).unwrap().to_game().unwrap_err();
        assert!(matches!(err, GgfError::Illegal(1, IllegalMove::NoFlips(_))), "{err}");
    }

    #[test]
    fn board_rows_may_be_separated_and_white_may_start() {
        let rows = "-------- -------- -------- ---O*--- ---*O--- -------- -------- --------";
        let g = parse(&format!("(;BO[8 {rows} O];)")).unwrap();
        assert_eq!(g.start.side, Color::White);
        assert_eq!(g.start.black().count_ones(), 2);
    }

    #[test]
    fn clocks_in_hms_with_increment() {
        let c = parse_clock("01:02:03/00:05/2:00").unwrap();
        assert_eq!(c.main, Duration::from_secs(3723));
        assert_eq!(c.increment, Duration::from_secs(5));
        assert_eq!(c.extension, Duration::from_secs(120));
        assert_eq!(parse_clock("15:00").unwrap().main, Duration::from_secs(900));
        assert!(parse_clock("1:2:3:4").is_err());
        assert!(parse_clock("ten").is_err());
        assert!(parse_clock("-5").is_err());
        let g = parse(&format!("(;TI[10:00]TW[1:00]{START};)")).unwrap();
        assert_eq!(g.black_clock.unwrap().main, Duration::from_secs(600));
        assert_eq!(g.white_clock.unwrap().main, Duration::from_secs(60));
    }

    #[test]
    fn bad_records_are_refused_with_a_reason() {
        type Check = fn(&GgfError) -> bool;
        let cases: &[(&str, Check)] = &[
            ("GM[Othello]BO[8 x];)", |e| *e == GgfError::Delimiters),
            ("(;GM[Othello];)", |e| *e == GgfError::NoBoard),
            ("(;GM[Go]BO[8 x];)", |e| matches!(e, GgfError::NotOthello(_))),
            ("(;BO[10 ---];)", |e| matches!(e, GgfError::BadBoard(_))),
            ("(;BO[8 ---*];)", |e| matches!(e, GgfError::BadBoard(_))),
            ("(;BO[8 ---------------------------O*------*O--------------------------- ?];)", |e| {
                matches!(e, GgfError::BadBoard(_))
            }),
            ("(;BO[8 ---------------------------O*------*O--------------------------- *]B[Z9];)", |e| {
                matches!(e, GgfError::BadMove(_))
            }),
            ("(;BO[8 ---------------------------O*------*O--------------------------- *]B[F5/x];)", |e| {
                matches!(e, GgfError::BadMove(_))
            }),
            ("(;BO[8 ---------------------------O*------*O--------------------------- *]B[F5/1/2/3];)", |e| {
                matches!(e, GgfError::BadMove(_))
            }),
            ("(;TI[soon]BO[8 ---------------------------O*------*O--------------------------- *];)", |e| {
                matches!(e, GgfError::BadClock(_))
            }),
            ("(;GM[Othello]BO[8 ---;)", |e| matches!(e, GgfError::Syntax(_))),
            ("(;GM[Othello] junk ;)", |e| matches!(e, GgfError::Syntax(_))),
            ("(;gm[Othello];)", |e| matches!(e, GgfError::Syntax(_))),
        ];
        for (text, check) in cases {
            let err = parse(text).unwrap_err();
            assert!(check(&err), "{text}: {err:?}");
            assert!(!err.to_string().is_empty());
        }
    }
}
