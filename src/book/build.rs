//! Growing the book: best-first expansion from the start position (every move within a deviation of
//! the best is added, cheaper lines first so the best lines grow deepest), deepening (the positions
//! within the deviation scored again by a deeper search, the best lines first), shards by subtree,
//! and learning a game's line. Every new position is scored by a deep search of its own, on a cleared
//! table, so that a position's entry depends on the position alone: the same parameters give the same
//! book in any order and on any machine of this kind, and shards merge into a single build.

use super::{key_of, Book, Entry};
use crate::rules::board::{Board, IllegalMove, Move};
use crate::search::{Limits, Searcher, Silent};

/// How the tree grows.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Params {
    /// The level (`go depth`) of the search that scores each new position.
    pub depth: u32,
    /// Moves up to this many discs worse than the best, summed along the line from the start, are
    /// expanded; worse ones are only the best left-out move of their position.
    pub deviation: i32,
    /// No position deeper than this many plies from the start is added.
    pub max_ply: u32,
    /// The order of expansion: a position costs its ply plus this many plies per disc of deviation
    /// on its line, the cheapest first.
    pub plies_per_disc: u32,
    /// `(K, N)`: expand only the subtrees under the positions at `split_ply` whose hash is K-1 mod N
    /// (and every position above them, as every shard does).
    pub shard: (u32, u32),
    pub split_ply: u32,
}

impl Default for Params {
    fn default() -> Params {
        Params { depth: 18, deviation: 4, max_ply: 30, plies_per_disc: 3, shard: (1, 1), split_ply: 4 }
    }
}

/// A position the build would expand next.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Candidate {
    pub board: Board,
    pub ply: u32,
    /// The discs given away along its line by the side that chose each move.
    pub deviation: i32,
    cost: u32,
    key: (u64, u64),
}

/// What the walk over the book looks for.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Goal {
    /// Positions to expand: leaves, and expanded positions whose best left-out move came within the
    /// deviation.
    Expand,
    /// Positions whose moves were scored below the builder's depth: leaves, and expanded positions
    /// with a left-out move.
    Deepen,
}

/// The result of one deep search of a position, from its side to move.
#[derive(Clone, Copy, Debug)]
struct Scored {
    score: i32,
    best: Option<Move>,
    exact: bool,
}

/// Scores `board` (a position with a move, or a finished game) by a search at level `depth` on a
/// cleared table.
fn score_position(searcher: &mut Searcher, board: &Board, depth: u32) -> Scored {
    if board.is_game_over() {
        return Scored { score: board.final_score(), best: None, exact: true };
    }
    searcher.new_game();
    let result = searcher.search(board, &Limits::Depth(depth), &mut Silent);
    Scored { score: result.score, best: Some(result.best), exact: result.exact }
}

/// A search level as the book stores it: one byte, below [`super::EXACT_DEPTH`].
fn level(depth: u32) -> u8 {
    depth.min(254) as u8
}

/// Puts `board` in the book as a leaf: the move and score of its search `s` at level `depth`.
fn put_leaf(book: &mut Book, board: &Board, s: Scored, depth: u32) {
    book.insert(board, Entry::leaf(s.best, s.score, level(depth), s.exact, key_of(board).1));
}

/// Adds `board` to the book as a leaf scored by a search, unless it is there; true when added.
fn add_leaf(book: &mut Book, searcher: &mut Searcher, board: &Board, depth: u32) -> bool {
    if book.contains(board) {
        return false;
    }
    put_leaf(book, board, score_position(searcher, board, depth), depth);
    true
}

/// Which positions of a game `learn` adds.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Learning {
    /// The level (`go depth`) of the search that scores each new position.
    pub depth: u32,
    /// No position with more than this many discs played (the 4 of the start aside) is added.
    pub max_ply: u32,
    /// `(K, N)`: add only the positions whose canonical board hashes to K-1 mod N, so that N
    /// processes learn the same games without scoring a position twice (`book merge` joins them).
    pub shard: (u32, u32),
    /// Also score again the game's positions that are in the book with moves scored below `depth`
    /// (`rescore`), so that the lines played rest on searches as deep as the new ones.
    pub rescore: bool,
}

impl Learning {
    /// Every position of the game, by searches at level `depth`, in one process.
    pub fn whole_game(depth: u32) -> Learning {
        Learning { depth, max_ply: 60, shard: (1, 1), rescore: false }
    }

    fn wants(&self, board: &Board) -> bool {
        let ply = (board.player | board.opponent).count_ones().saturating_sub(4);
        let (k, n) = self.shard;
        ply <= self.max_ply && shard_hash(key_of(board).0) % u64::from(n) == u64::from(k - 1)
    }
}

/// What learning a game did to the book.
#[derive(Clone, Copy, PartialEq, Eq, Default, Debug)]
pub struct Learnt {
    /// Positions the book lacked, added.
    pub added: usize,
    /// Positions in the book scored again at the learning's depth ([`Learning::rescore`]).
    pub rescored: usize,
}

/// Adds the positions of a game (from `start`, with `moves`) that `learning` wants, each scored by
/// a search unless it is in the book (and, with [`Learning::rescore`], scores again those of the
/// book searched below its depth), then backs the values up along the line; a position whose side
/// must pass is stored as the position after the pass, as everywhere in the book. Returns what was
/// done, or the first illegal move.
pub fn learn(
    book: &mut Book,
    searcher: &mut Searcher,
    start: &Board,
    moves: &[Move],
    learning: Learning,
) -> Result<Learnt, (usize, IllegalMove)> {
    let mut line = vec![*start];
    let mut board = *start;
    for (i, &mv) in moves.iter().enumerate() {
        board = board.try_play(mv).map_err(|e| (i, e))?;
        line.push(board);
    }
    let mut learnt = Learnt::default();
    for board in line.iter().filter(|b| (b.moves() != 0 || b.is_game_over()) && learning.wants(b)) {
        if add_leaf(book, searcher, board, learning.depth) {
            learnt.added += 1;
        } else if learning.rescore && rescore(book, searcher, board, learning.depth) {
            learnt.rescored += 1;
        }
    }
    book.back_up();
    Ok(learnt)
}

/// Scores `board`, a position of the book whose moves were searched below level `depth`, again by a
/// search at `depth` (values are not backed up; true when it was scored). A leaf takes the search's
/// move and score. An expanded position keeps its moves in the book, whose values come from below:
/// when the search's best move is not among them, it becomes the leaf move with its score; when it
/// is, no move scores more than it at this level, so the leaf move's score is capped by its score.
fn rescore(book: &mut Book, searcher: &mut Searcher, board: &Board, depth: u32) -> bool {
    let Some(entry) = book.get(board).copied() else { return false };
    // A finished game is exact.
    if entry.depth == super::EXACT_DEPTH || entry.depth as u32 >= depth {
        return false;
    }
    let s = score_position(searcher, board, depth);
    if !entry.is_expanded() {
        put_leaf(book, board, s, depth);
        return true;
    }
    let best_in_book = s.best.and_then(|mv| Book::child(board, mv)).is_some_and(|(child, _)| book.contains(&child));
    let leaf = if best_in_book {
        let exact = entry.flags & super::LEAF_EXACT != 0;
        Book::leaf_move(&entry, board)
            .map(|mv| (mv, if exact { entry.leaf_score as i32 } else { (entry.leaf_score as i32).min(s.score) }, exact))
    } else {
        s.best.map(|mv| (mv, s.score, s.exact))
    };
    book.set_expanded(board, leaf, level(depth));
    true
}

/// The builder: its own searcher and the parameters.
pub struct Builder {
    searcher: Searcher,
    params: Params,
}

impl Builder {
    pub fn new(searcher: Searcher, params: Params) -> Builder {
        Builder { searcher, params }
    }

    pub fn params(&self) -> &Params {
        &self.params
    }

    /// Puts the start position in an empty book.
    pub fn seed(&mut self, book: &mut Book) {
        add_leaf(book, &mut self.searcher, &Board::START, self.params.depth);
        book.back_up();
    }

    /// Scores every move of `board` that is not in the book, adds those within the deviation of the
    /// best move as positions, keeps the best of the rest as the position's leaf move, and backs the
    /// values up. Returns the positions added.
    pub fn expand(&mut self, book: &mut Book, board: &Board) -> usize {
        let depth = self.params.depth;
        let mut best = i32::MIN;
        let mut fresh = Vec::new();
        for mv in board.legal_moves() {
            let Some((child, sign)) = Book::child(board, mv) else { continue };
            if let Some(c) = book.get(&child) {
                best = best.max(sign * c.value as i32);
            } else {
                let s = score_position(&mut self.searcher, &child, depth);
                best = best.max(sign * s.score);
                fresh.push((mv, child, sign, s));
            }
        }
        let mut added = 0;
        let mut left_out: Option<(Move, i32, bool)> = None;
        for (mv, child, sign, s) in fresh {
            let score = sign * s.score;
            if score >= best - self.params.deviation {
                put_leaf(book, &child, s, depth);
                added += 1;
            } else if left_out.is_none_or(|(_, l, _)| score > l) {
                left_out = Some((mv, score, s.exact));
            }
        }
        book.set_expanded(board, left_out, level(depth));
        book.back_up();
        added
    }

    /// The cheapest position to expand (ties: the lower ply, then the smaller canonical board), if
    /// any is left within the deviation and the plies, in this builder's shard.
    pub fn candidate(&self, book: &Book) -> Option<Candidate> {
        self.cheapest(book, Goal::Expand)
    }

    /// The cheapest position within the deviation and the plies, in this builder's shard, whose
    /// moves were scored below the builder's depth: what [`Builder::deepen`] takes next.
    pub fn shallow_candidate(&self, book: &Book) -> Option<Candidate> {
        self.cheapest(book, Goal::Deepen)
    }

    /// How many positions [`Builder::deepen`] has left to score (each once; deepening can bring
    /// others within the deviation).
    pub fn shallow_count(&self, book: &Book) -> usize {
        let mut count = 0;
        self.walk(book, Goal::Deepen, &mut |_| count += 1);
        count
    }

    /// Scores `board`'s moves again at the builder's depth: a leaf by a search of its own; an
    /// expanded position by expanding it again ([`Builder::expand`]: its moves not in the book are
    /// searched, those now within the deviation join the book). Values are backed up.
    pub fn deepen(&mut self, book: &mut Book, board: &Board) -> usize {
        if book.get(board).is_some_and(|e| e.is_expanded()) {
            return self.expand(book, board);
        }
        let depth = self.params.depth;
        put_leaf(book, board, score_position(&mut self.searcher, board, depth), depth);
        book.back_up();
        0
    }

    fn cheapest(&self, book: &Book, goal: Goal) -> Option<Candidate> {
        let mut best: Option<Candidate> = None;
        self.walk(book, goal, &mut |c| {
            if best.is_none_or(|b| (c.cost, c.ply, c.key) < (b.cost, b.ply, b.key)) {
                best = Some(c);
            }
        });
        best
    }

    /// Offers every position the goal wants, within the deviation and the plies, in this builder's
    /// shard (a position reached by several lines once, at its smallest deviation).
    fn walk(&self, book: &Book, goal: Goal, offer: &mut dyn FnMut(Candidate)) {
        let mut seen = std::collections::HashMap::new();
        let mut wanted = std::collections::HashMap::new();
        self.collect(book, goal, Board::START, 0, 0, None, &mut seen, &mut wanted);
        for c in wanted.into_values() {
            offer(c);
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn collect(
        &self,
        book: &Book,
        goal: Goal,
        board: Board,
        ply: u32,
        deviation: i32,
        shard_key: Option<u64>,
        seen: &mut std::collections::HashMap<(u64, u64), i32>,
        wanted: &mut std::collections::HashMap<(u64, u64), Candidate>,
    ) {
        let p = &self.params;
        let (key, _) = key_of(&board);
        let Some(entry) = book.get(&board).copied() else { return };
        if seen.get(&key).is_some_and(|&d| d <= deviation) || ply >= p.max_ply || board.is_game_over() {
            return;
        }
        seen.insert(key, deviation);
        let shard_key = if ply == p.split_ply { Some(shard_hash(key)) } else { shard_key };
        let mine = shard_key.is_none_or(|h| h % p.shard.1 as u64 == (p.shard.0 - 1) as u64);
        let mut consider = |dev: i32| {
            let cost = ply + p.plies_per_disc * dev as u32;
            let c = Candidate { board, ply, deviation: dev, cost, key };
            if wanted.get(&key).is_none_or(|w| (cost, ply) < (w.cost, w.ply)) {
                wanted.insert(key, c);
            }
        };
        match goal {
            Goal::Expand if !entry.is_expanded() => {
                if mine {
                    consider(deviation);
                }
            }
            Goal::Expand => {
                if entry.has_leaf() {
                    // Its best left-out move came within the deviation (the moves in the book lost value).
                    let dev = deviation + entry.value as i32 - entry.leaf_score as i32;
                    if mine && dev <= p.deviation {
                        consider(dev);
                    }
                }
            }
            Goal::Deepen => {
                let scored = (!entry.is_expanded() || entry.has_leaf()) && entry.depth != super::EXACT_DEPTH;
                if mine && scored && (entry.depth as u32) < p.depth {
                    consider(deviation);
                }
            }
        }
        for mv in board.legal_moves() {
            let Some((child, sign)) = Book::child(&board, mv) else { continue };
            let Some(c) = book.get(&child) else { continue };
            let dev = deviation + entry.value as i32 - sign * c.value as i32;
            if dev <= p.deviation {
                self.collect(book, goal, child, ply + 1, dev, shard_key, seen, wanted);
            }
        }
    }
}

/// Which shard a subtree belongs to: a hash of its root's canonical board.
fn shard_hash((p, o): (u64, u64)) -> u64 {
    (p ^ o.rotate_left(29)).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 32
}

#[cfg(test)]
mod tests {
    use super::*;

    fn params(shard: (u32, u32)) -> Params {
        Params { depth: 2, deviation: 64, max_ply: 4, plies_per_disc: 1, shard, split_ply: 2 }
    }

    fn grow(params: Params) -> Book {
        let mut book = Book::new();
        let mut builder = Builder::new(Searcher::new(1), params);
        builder.seed(&mut book);
        while let Some(c) = builder.candidate(&book) {
            builder.expand(&mut book, &c.board);
        }
        book
    }

    #[test]
    fn shards_merge_into_the_single_build() {
        let single = grow(params((1, 1)));
        // Every position up to ply 4 (with the deviation covering every move): 1 + 1 + 3 + 14 + 60 classes.
        assert_eq!(single.len(), 79);
        let mut merged = grow(params((1, 3)));
        for k in 2..=3 {
            let shard = grow(params((k, 3)));
            assert!(shard.len() < single.len(), "shard {k} holds only its subtrees");
            merged.merge(&shard);
        }
        assert_eq!(merged, single);
        // The start's value is the negamax of the ply-4 searches.
        let entry = single.get(&Board::START).expect("start");
        let best = single.moves(&Board::START)[0];
        assert_eq!(entry.value as i32, best.score);
    }

    #[test]
    fn expansion_keeps_the_moves_within_the_deviation() {
        let mut book = Book::new();
        let mut builder = Builder::new(Searcher::new(1), Params { depth: 4, deviation: 2, ..params((1, 1)) });
        builder.seed(&mut book);
        let f5 = Board::START.play("f5".parse().expect("square"));
        builder.expand(&mut book, &Board::START);
        builder.expand(&mut book, &f5);
        let moves = book.moves(&f5);
        let best = moves[0].score;
        for m in &moves {
            if m.in_book {
                assert!(m.score >= best - 2, "{m:?}");
            } else {
                assert!(m.score < best - 2, "a left-out move is worse than the deviation: {m:?}");
            }
        }
        assert!(moves.iter().filter(|m| !m.in_book).count() <= 1, "one leaf move at most");
        assert_eq!(book.get(&f5).map(|e| e.value as i32), Some(best));
    }

    #[test]
    fn deepening_rescores_each_position_within_reach_once_the_best_lines_first() {
        // A deviation of 4 discs, so that the book holds several positions to deepen whatever the
        // weights (7 with those before the corner triangle, 16 with it; at 2 discs, 2 with it).
        let shallow = Params { depth: 2, deviation: 4, max_ply: 5, ..params((1, 1)) };
        let mut book = Book::new();
        let mut builder = Builder::new(Searcher::new(1), shallow);
        builder.seed(&mut book);
        while let Some(c) = builder.candidate(&book) {
            builder.expand(&mut book, &c.board);
        }
        let mut deeper = Builder::new(Searcher::new(1), Params { depth: 5, ..shallow });
        let count = deeper.shallow_count(&book);
        assert!(count >= 5, "{count}");
        // The cheapest first: a position on the best line, the nearest to the root of all those to
        // deepen (the start's moves are all in the book, so it has nothing to score again).
        let first = deeper.shallow_candidate(&book).expect("something to deepen");
        let mut nearest = u32::MAX;
        deeper.walk(&book, Goal::Deepen, &mut |c| nearest = nearest.min(c.ply));
        assert_eq!((first.ply, first.deviation), (nearest, 0), "{first:?}");
        assert!(nearest >= 1, "the start position has nothing to deepen");
        let mut done = 0;
        while let Some(c) = deeper.shallow_candidate(&book) {
            deeper.deepen(&mut book, &c.board);
            done += 1;
            let entry = book.get(&c.board).expect("still in the book");
            assert_eq!(entry.depth, 5, "each position is scored once");
            if !entry.is_expanded() {
                let fresh = score_position(&mut Searcher::new(1), &c.board, 5);
                assert_eq!(entry.leaf_score as i32, fresh.score, "a leaf holds its depth-5 score");
            }
            assert!(done <= 4 * count, "deepening ends");
        }
        assert_eq!(deeper.shallow_count(&book), 0);
        // The values are the negamax of the new scores.
        let mut backed = book.clone();
        backed.back_up();
        assert_eq!(backed, book);
    }

    /// A finished game of depth-1 self-play from the start.
    fn self_play_game(searcher: &mut Searcher) -> (Vec<Move>, Board) {
        let mut moves = Vec::new();
        let mut board = Board::START;
        while !board.is_game_over() {
            let mv = if board.moves() == 0 {
                Move::Pass
            } else {
                searcher.search(&board, &Limits::Depth(1), &mut Silent).best
            };
            moves.push(mv);
            board = board.try_play(mv).expect("legal");
        }
        (moves, board)
    }

    #[test]
    fn learning_keeps_to_its_plies_and_shards_merge_into_one_learning() {
        let mut searcher = Searcher::new(1);
        let (moves, _) = self_play_game(&mut searcher);
        let learning = Learning { depth: 2, max_ply: 12, shard: (1, 1), rescore: false };
        let mut single = Book::new();
        let added = learn(&mut single, &mut searcher, &Board::START, &moves, learning).expect("legal game").added;
        // Plies 0 to 12, one position each (none of them a pass this early).
        assert_eq!(added, 13);
        for ((p, o), _) in single.iter_sorted() {
            assert!((p | o).count_ones() <= 16, "a position past ply 12 was added");
        }
        let mut merged = Book::new();
        let mut sizes = Vec::new();
        for k in 1..=3 {
            let mut shard = Book::new();
            let n = learn(&mut shard, &mut searcher, &Board::START, &moves, Learning { shard: (k, 3), ..learning })
                .expect("legal game")
                .added;
            sizes.push(n);
            merged.merge(&shard);
        }
        assert_eq!(sizes.iter().sum::<usize>(), 13, "each position in one shard: {sizes:?}");
        assert!(sizes.iter().all(|&n| n < 13), "{sizes:?}");
        assert_eq!(merged, single);
    }

    #[test]
    fn rescoring_brings_the_line_to_the_learning_depth_and_shards_merge_into_one() {
        let mut searcher = Searcher::new(1);
        let (moves, _) = self_play_game(&mut searcher);
        let shallow = grow(Params { depth: 2, deviation: 64, max_ply: 3, ..params((1, 1)) });
        let learning = Learning { depth: 4, max_ply: 5, shard: (1, 1), rescore: true };
        // Without rescoring, only the positions the book lacks are searched.
        let mut plain = shallow.clone();
        let learnt = learn(&mut plain, &mut searcher, &Board::START, &moves, Learning { rescore: false, ..learning });
        assert_eq!(learnt.expect("legal game").rescored, 0);

        let mut book = shallow.clone();
        let learnt = learn(&mut book, &mut searcher, &Board::START, &moves, learning).expect("legal game");
        // Plies 0 to 3 are in the book (expanded up to ply 2), plies 4 and 5 new.
        assert_eq!(learnt, Learnt { added: 2, rescored: 4 });
        let mut board = Board::START;
        let mut expanded_seen = 0;
        for &mv in &moves[..=5] {
            let old = shallow.get(&board).copied();
            let entry = *book.get(&board).expect("the line is in the book");
            assert_eq!(entry.depth, 4, "every position of the line up to ply 5 is at the new depth");
            let fresh = score_position(&mut searcher, &board, 4);
            match old {
                Some(old) if old.is_expanded() => {
                    expanded_seen += 1;
                    assert!(entry.is_expanded());
                    let (child, _) = Book::child(&board, fresh.best.expect("a move")).expect("legal");
                    if shallow.contains(&child) {
                        // The search's best is a book move: the leaf move can score no more than it.
                        assert_eq!(Book::leaf_move(&entry, &board), Book::leaf_move(&old, &board));
                        if old.has_leaf() {
                            assert!(entry.leaf_score as i32 <= fresh.score.min(old.leaf_score as i32));
                        }
                    } else {
                        assert_eq!(Book::leaf_move(&entry, &board), fresh.best);
                        assert_eq!(entry.leaf_score as i32, fresh.score);
                    }
                }
                // A leaf, old or new, is the new search.
                _ => {
                    assert_eq!(Book::leaf_move(&entry, &board), fresh.best);
                    assert_eq!(entry.leaf_score as i32, fresh.score);
                }
            }
            board = board.try_play(mv).expect("legal");
        }
        assert!(expanded_seen >= 3, "the line starts in the expanded part of the book");
        assert_eq!(
            learn(&mut book, &mut searcher, &Board::START, &moves, learning).expect("legal game"),
            Learnt::default(),
            "nothing is left to do the second time"
        );

        let mut merged = shallow.clone();
        for k in 1..=2 {
            let mut shard = shallow.clone();
            learn(&mut shard, &mut searcher, &Board::START, &moves, Learning { shard: (k, 2), ..learning })
                .expect("legal game");
            merged.merge(&shard);
        }
        assert_eq!(merged, book);
    }

    #[test]
    fn learning_a_game_adds_its_line_and_backs_up_its_result() {
        let mut searcher = Searcher::new(1);
        let (moves, board) = self_play_game(&mut searcher);
        let mut book = Book::new();
        let added =
            learn(&mut book, &mut searcher, &Board::START, &moves, Learning::whole_game(2)).expect("legal game").added;
        assert!(added >= 55, "{added} positions");
        assert_eq!(
            learn(&mut book, &mut searcher, &Board::START, &moves, Learning::whole_game(2)),
            Ok(Learnt::default()),
            "nothing new the second time"
        );
        // The last position is the exact result, and a position one move before the end knows it.
        let last = book.get(&board).expect("the final position");
        assert!(last.is_exact());
        assert_eq!(last.value as i32, board.final_score());
        // Every position of the line is worth at least what the game's move gives (negamax).
        let mut b = Board::START;
        for &mv in &moves {
            if b.moves() != 0 {
                let entry = book.get(&b).expect("on the line");
                let (child, sign) = Book::child(&b, mv).expect("legal");
                if let Some(c) = book.get(&child) {
                    assert!(entry.value as i32 >= sign * c.value as i32);
                }
            }
            b = b.try_play(mv).expect("legal");
        }
        // An illegal move is refused with its index.
        assert_eq!(
            learn(&mut book, &mut searcher, &Board::START, &[Move::Pass], Learning::whole_game(2)).map_err(|e| e.0),
            Err(0)
        );
    }
}
