//! Every decision about who reads the native protocol's output, in one place: a script or GUI on a
//! pipe gets each protocol line as protocol.md says; a person at a terminal (standard input is a
//! terminal) gets the board after each command that moved, a search as one line that updates, a
//! prompt, and one short error for an escape sequence (an arrow key). `verbose` sets how much of a
//! search either one sees. The text of the terminal's own lines is rendered here too, and the 80
//! columns that `help` fits in for both.

use crate::protocol::parser::Verbosity;
use crate::rules::board::{Color, Move, Position};
use crate::search::probcut::DepthLabel;
use crate::search::{proof_word, Info};
use std::fmt;

/// The width a terminal line is cut to: one column short of 80, so that no terminal wraps it.
pub const TERMINAL_WIDTH: usize = 79;

/// Who reads the output and how much of a search they asked to see.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct View {
    /// Standard input is a terminal: a person types and reads.
    pub terminal: bool,
    pub verbosity: Verbosity,
}

/// How a search's `info` lines reach the reader.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Progress {
    /// Not at all (`verbose 0`).
    Hidden,
    /// One line rewritten in place, left standing when the search ends (a terminal's default).
    OneLine,
    /// Every `info` line, as protocol.md writes them.
    EveryLine,
}

impl View {
    /// The view of a pipe: the protocol exactly.
    pub const PIPE: View = View { terminal: false, verbosity: Verbosity::Normal };

    pub fn new(terminal: bool) -> View {
        View { terminal, ..View::PIPE }
    }

    pub fn progress(&self) -> Progress {
        match (self.verbosity, self.terminal) {
            (Verbosity::Quiet, _) => Progress::Hidden,
            (Verbosity::Normal, true) => Progress::OneLine,
            _ => Progress::EveryLine,
        }
    }

    /// Whether the board follows each command that changed the position.
    pub fn board_after_moves(&self) -> bool {
        self.terminal && self.verbosity != Verbosity::Quiet
    }

    /// A line of moves and scores (`hint`, `analysis`, `info book`) as this reader sees it: at a
    /// terminal cut to its width (a long pv would wrap into the board), in a pipe whole.
    pub fn scores_line(&self, line: impl fmt::Display) -> String {
        let line = line.to_string();
        if self.terminal {
            fit(&line)
        } else {
            line
        }
    }

    /// Whether a line holding an escape sequence is refused without being echoed: at a terminal it
    /// is a key (an arrow) the terminal sent, not a command.
    pub fn refuses_escapes(&self) -> bool {
        self.terminal
    }
}

/// `text` cut to the terminal's width (on a character boundary, `...` at the end when cut).
pub fn fit(text: &str) -> String {
    if text.chars().count() <= TERMINAL_WIDTH {
        return text.to_string();
    }
    let mut out: String = text.chars().take(TERMINAL_WIDTH - 3).collect();
    out.push_str("...");
    out
}

/// `text` broken into lines of at most the terminal's width at spaces, each after `indent` spaces.
pub fn wrap(text: &str, indent: usize) -> Vec<String> {
    let mut lines = Vec::new();
    let mut line = " ".repeat(indent);
    for word in text.split_whitespace() {
        if line.len() > indent && line.len() + 1 + word.len() > TERMINAL_WIDTH {
            lines.push(std::mem::replace(&mut line, " ".repeat(indent)));
        }
        if line.len() > indent {
            line.push(' ');
        }
        line.push_str(word);
    }
    if line.len() > indent {
        lines.push(line);
    }
    lines
}

/// A search's progress on one terminal line: `depth 14@58% score +3 0.8 s 12.1 Mn/s pv d3 c5 ...`.
pub struct ProgressLine<'a>(pub &'a Info);

impl fmt::Display for ProgressLine<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let info = self.0;
        let mut text = format!("depth {} score {:+}", DepthLabel(info.depth, info.selectivity), info.score);
        if let Some(word) = proof_word(info.exact, info.outcome) {
            text.push(' ');
            text.push_str(word);
        }
        let nps = info.nps() as f64 / 1e6;
        text.push_str(&format!(" {:.1} s {nps:.1} Mn/s", info.elapsed.as_secs_f64()));
        if !info.pv.is_empty() {
            text.push_str(" pv");
            for mv in &info.pv {
                text.push_str(&format!(" {mv}"));
            }
        }
        f.write_str(&fit(&text))
    }
}

/// The board a person sees after a move: the diagram of `show` with the legal moves marked `.`, the
/// last move's disc in lower case, then one line with the discs and who moves (or the result).
pub fn board_lines(position: &Position, last: Option<Move>) -> Vec<String> {
    let legal = position.board.legal_moves();
    let mut lines = position.diagram(false, '-', 1);
    for mv in &legal {
        if let Move::Play(sq) = mv {
            mark(&mut lines, *sq, |_| '.');
        }
    }
    if let Some(Move::Play(sq)) = last {
        mark(&mut lines, sq, |c| c.to_ascii_lowercase());
    }
    let (black, white) = (position.black().count_ones(), position.white().count_ones());
    let status = match legal.as_slice() {
        [] => format!("game over: {}", Outcome(final_score_for_black(position))),
        [Move::Pass] => format!("{} has no move: type pass", position.side),
        _ => format!("{} to move", position.side),
    };
    lines.push(format!("black X {black} white O {white}, {status}"));
    lines
}

/// The prompt before a line a person types: whose move it is and who is to play it (`black to move
/// (you) > `); `ebony` when the side to move is ebony's, waiting after a `stop` for `play`.
pub fn prompt(position: &Position, ebony: bool) -> String {
    if position.board.is_game_over() {
        return "game over (new, undo) > ".to_string();
    }
    let who = if ebony { "ebony's, type play" } else { "you" };
    format!("{} to move ({who}) > ", position.side)
}

/// Rewrites the character of `sq` in a `diagram`: row 1 + rank, column 2 + 2 * file.
fn mark(lines: &mut [String], sq: crate::rules::square::Square, change: impl Fn(char) -> char) {
    let column = 2 + 2 * usize::from(sq.file());
    if let Some(line) = lines.get_mut(usize::from(sq.rank()) + 1) {
        *line = line.char_indices().map(|(i, c)| if i == column { change(c) } else { c }).collect();
    }
}

/// The final disc difference from black's side (empty squares to the winner).
pub fn final_score_for_black(position: &Position) -> i32 {
    let score = position.board.final_score();
    match position.side {
        Color::Black => score,
        Color::White => -score,
    }
}

/// A final score from black's side, in words: `black wins by 6`, `white wins by 2`, `draw`.
pub struct Outcome(pub i32);

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            0 => write!(f, "draw"),
            s if s > 0 => write!(f, "black wins by {s}"),
            s => write!(f, "white wins by {}", -s),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_fit_the_terminal() {
        assert_eq!(fit("short"), "short");
        let long = "x".repeat(200);
        assert_eq!(fit(&long).chars().count(), TERMINAL_WIDTH);
        let wrapped = wrap(&"word ".repeat(60), 4);
        assert!(wrapped.len() > 1 && wrapped.iter().all(|l| l.len() <= TERMINAL_WIDTH && l.starts_with("    w")));
    }

    #[test]
    fn the_board_marks_the_legal_moves_and_says_who_moves() {
        let lines = board_lines(&Position::START, None);
        assert_eq!(lines[3], "3 - - - . - - - - 3");
        assert_eq!(lines[10], "black X 2 white O 2, black to move");
    }
}
