//! A game session: the game record, the searcher (with its table and evaluation) and the options,
//! the one thing the protocol front ends drive. No I/O: front ends parse and render, the session plays
//! and searches.

use crate::book::{build, Book, BookMove};
use crate::eval::Evaluator;
use crate::rules::board::{Board, Color, IllegalMove, Move, Position};
use crate::rules::game::Game;
use crate::search::{Limits, Observer, Outcome, SearchResult, Searcher, Selectivity, StopReason};
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
    /// Who wins after `mv`, when a win/loss/draw solve proved it but not the exact score.
    pub outcome: Option<Outcome>,
    /// Plies searched, the move included.
    pub depth: u32,
    /// How selective the search was (`Selectivity::EXACT` when `exact`).
    pub selectivity: Selectivity,
    pub nodes: u64,
    /// `mv`, then the expected line after it (a forced pass written out).
    pub pv: Vec<Move>,
}

/// The level of the searches that score the positions a game adds to the book (`learn`), unless
/// the front end asks for another: a few seconds a game.
pub const LEARN_DEPTH: u32 = 14;

/// A move taken from the book: the move, its score and where the score comes from, and the book's
/// line after it.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct BookChoice {
    pub mv: Move,
    /// Disc difference for the side that plays `mv`.
    pub score: i32,
    pub exact: bool,
    /// The level of the searches behind the score (meaningless when `exact`).
    pub depth: u32,
    /// `mv`, then the book's best line after it (a forced pass written out).
    pub pv: Vec<Move>,
}

pub struct Engine {
    game: Game,
    searcher: Searcher,
    book: Book,
    /// The file the book came from, where `learn` keeps what it adds (none: the built-in book).
    book_file: Option<std::path::PathBuf>,
    /// Whether `book_move` answers (`set book on|off`).
    book_on: bool,
    /// `book_move` picks among the moves within this many discs of the best book move.
    randomness: u32,
    /// xorshift state for that pick.
    rng: u64,
    /// Whether the front ends may read and write files for their peer (`load`, `save`, and `learn`
    /// into a book file); `ebony --no-files` turns it off.
    files: bool,
}

impl Engine {
    /// A session at the start position with a transposition table of about `hash_mb` megabytes,
    /// judging positions with `evaluator`.
    pub fn new(hash_mb: usize, evaluator: Evaluator) -> Engine {
        let mut searcher = Searcher::new(hash_mb);
        searcher.set_evaluator(evaluator);
        // Games from the start position differ only by the book's choices: a seed from the clock.
        let seed =
            std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(1, |d| d.as_nanos() as u64);
        Engine {
            game: Game::default(),
            searcher,
            book: Book::new(),
            book_file: None,
            book_on: true,
            randomness: 0,
            rng: seed | 1,
            files: true,
        }
    }

    /// Replaces the opening book (empty until a front end sets one), read from `file` if any.
    pub fn set_book(&mut self, book: Book, file: Option<std::path::PathBuf>) {
        self.book = book;
        self.book_file = file;
    }

    /// Allows or refuses the commands that read or write files for the peer.
    pub fn set_files_allowed(&mut self, on: bool) {
        self.files = on;
    }

    /// Whether a command may read or write a file; when not, the reason for its error line.
    pub fn files_allowed(&self) -> Result<(), &'static str> {
        if self.files {
            Ok(())
        } else {
            Err("files are turned off (--no-files)")
        }
    }

    /// The file the book came from, where a front end writes what `learn` adds.
    pub fn book_file(&self) -> Option<&std::path::Path> {
        self.book_file.as_deref()
    }

    pub fn book(&self) -> &Book {
        &self.book
    }

    /// Turns answering from the book on or off.
    pub fn set_book_enabled(&mut self, on: bool) {
        self.book_on = on;
    }

    /// How many discs below the best book move a move may be and still be picked.
    pub fn set_book_randomness(&mut self, discs: u32) {
        self.randomness = discs;
    }

    /// The moves the book knows for `board`, best first (none when the book is off).
    pub fn book_moves(&self, board: &Board) -> Vec<BookMove> {
        if self.book_on {
            self.book.moves(board)
        } else {
            Vec::new()
        }
    }

    /// The book's move for `position` (the position now, or one a front end derived from it by
    /// passes), when the book is on and knows it: one of the moves within the randomness of the best,
    /// drawn uniformly, where the randomness is what `set book randomness` leaves after the discs the
    /// side to move has already given away from the book's best in this game (the best with
    /// randomness 0). So a game from the start varies, and the side costs itself at most that many
    /// discs over the game by the book's values.
    pub fn book_move(&mut self, position: &Position) -> Option<BookChoice> {
        let board = &position.board;
        let moves = self.book_moves(board);
        let best = moves.first()?.score;
        let left = (self.randomness as i32 - self.book_deviation(position.side)).max(0);
        let within: Vec<&BookMove> = moves.iter().filter(|m| m.score >= best - left).collect();
        self.rng ^= self.rng << 13;
        self.rng ^= self.rng >> 7;
        self.rng ^= self.rng << 17;
        let pick = *within.get((self.rng % within.len() as u64) as usize)?;
        let mut pv = vec![pick.mv];
        if let Some((child, sign)) = Book::child(board, pick.mv) {
            if sign == 1 {
                pv.push(Move::Pass);
            }
            pv.extend(self.book.line(&child, 20));
        }
        Some(BookChoice { mv: pick.mv, score: pick.score, exact: pick.exact, depth: pick.depth as u32, pv })
    }

    /// The discs `side` has given away from the book's best moves in this game, by the book's values
    /// now: for each of its moves that the book lists, the best listed score less that move's.
    fn book_deviation(&self, side: Color) -> i32 {
        let given = |(before, mv): &(Position, Move)| {
            let moves = self.book.moves(&before.board);
            let played = moves.iter().find(|m| m.mv == *mv)?;
            Some(moves.first()?.score - played.score)
        };
        self.game.history().filter(|(before, _)| before.side == side).filter_map(given).sum()
    }

    /// Adds the game played so far (from its start) to the book, each new position scored by a search
    /// at level `depth`, and backs the values up along its line; the positions added.
    pub fn learn(&mut self, depth: u32) -> usize {
        let moves: Vec<Move> = self.game.moves().collect();
        let start = self.game.start().board;
        // The game record holds legal moves only, so the line always plays.
        build::learn(&mut self.book, &mut self.searcher, &start, &moves, build::Learning::whole_game(depth))
            .map_or(0, |learnt| learnt.added)
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
                outcome: None,
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
            outcome: result.outcome.map(|o| if sign < 0 { o.flip() } else { o }),
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

    /// How selective the midgame searches are from now on (`None`: each kind of search's default).
    pub fn set_selectivity(&mut self, selectivity: Option<Selectivity>) {
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
    fn book_moves_stay_within_the_randomness() {
        use crate::book::{key_of, Entry};
        // After f5, white's three moves in the book at 0 (d6), -1 (f6) and -3 (f4, the leaf).
        let f5 = Board::START.play("f5".parse().expect("square"));
        let child = |m: &str| f5.play(m.parse().expect("square"));
        let mut book = Book::new();
        let leaf = |mv: Option<Move>, score: i32, board: &Board| Entry::leaf(mv, score, 18, false, key_of(board).1);
        book.insert(&f5, leaf(Some(Move::Play("f4".parse().expect("square"))), -3, &f5));
        book.insert(&child("d6"), leaf(None, 0, &child("d6")));
        book.insert(&child("f6"), leaf(None, 1, &child("f6")));
        book.back_up();
        let mut engine = Engine::new(1, Evaluator::default());
        engine.set_book(book, None);
        let at_f5 = Position { board: f5, side: Color::White };
        let pick = |engine: &mut Engine| engine.book_move(&at_f5).expect("in the book");
        assert_eq!(pick(&mut engine).mv.to_string(), "d6");
        assert_eq!(pick(&mut engine).pv.len(), 1, "d6 leads out of the book");
        for randomness in 0..=3 {
            engine.set_book_randomness(randomness);
            let mut seen = std::collections::BTreeSet::new();
            for _ in 0..200 {
                let choice = pick(&mut engine);
                assert!(choice.score >= -(randomness as i32), "{choice:?} at randomness {randomness}");
                seen.insert(choice.mv.to_string());
            }
            let expected = match randomness {
                0 => 1,
                1 | 2 => 2,
                _ => 3,
            };
            assert_eq!(seen.len(), expected, "every move within {randomness} discs is played: {seen:?}");
        }
        engine.set_book_enabled(false);
        assert_eq!(engine.book_move(&at_f5), None);
        assert_eq!(engine.book_move(&Position::START), None, "the start is not in this book");
    }

    #[test]
    fn book_randomness_is_what_a_side_may_give_away_over_the_game() {
        let book = Book::built_in().expect("the built-in book");
        let mut engine = Engine::new(1, Evaluator::default());
        engine.set_book(book.clone(), None);
        engine.set_book_randomness(2);
        let mut lines = std::collections::BTreeSet::new();
        let mut spent_somewhere = false;
        for _ in 0..40 {
            engine.new_game(Game::default());
            // Both sides from the book until it has no move: each side's picks, by the book's
            // values, give away at most 2 discs in all (any move within 2 discs, move after move,
            // would give away more).
            let mut given = [0, 0];
            loop {
                let position = *engine.position();
                let Some(choice) = engine.book_move(&position) else { break };
                let side = position.side.index();
                let best = book.moves(&position.board)[0].score;
                given[side] += best - choice.score;
                engine.play(choice.mv).expect("a book move is legal");
            }
            assert!(given[0] <= 2 && given[1] <= 2, "{given:?}");
            spent_somewhere |= given != [0, 0];
            lines.insert(engine.game().moves().map(|m| m.to_string()).collect::<String>());
        }
        assert!(spent_somewhere, "some game took a move below the best");
        assert!(lines.len() >= 10, "the games differ: {} lines in 40", lines.len());
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
