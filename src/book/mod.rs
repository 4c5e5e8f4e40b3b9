//! The opening book: positions stored once per symmetry class, each with its negamax value, the level
//! its moves were searched at (or exact), and its best move not in the book; the versioned binary
//! format with its checksum; the book embedded in the binary; the moves a position has in the book.
//! Growing it (best-first expansion, learning, merging) is in `build`.
//!
//! A position's known moves are its children that are in the book (their negamax value, negated) and
//! its *leaf move*: the best of the moves not in the book, with the score of a deep search. Its value
//! is the best of those (negamax). A position never expanded has as leaf move the best move of its
//! own search, and that search's score as value.

pub mod build;

use crate::formats::fnv1a;
use crate::rules::board::{Board, Move};
use crate::rules::square::Square;
use crate::rules::symmetry::{canonical, preimage, symmetry};
use std::collections::HashMap;
use std::fmt;

/// The book built into the binary (`ebony book build`; README says with which command and time).
pub static DEFAULT_BOOK: &[u8] = include_bytes!("default.book");

/// `depth` of an entry whose moves were scored exactly.
pub const EXACT_DEPTH: u8 = 255;
/// `leaf_move` for a pass, and for no leaf move (every move is in the book, or the game is over).
const LEAF_PASS: u8 = 64;
const LEAF_NONE: u8 = 65;

/// The flags of an entry.
const EXPANDED: u8 = 1;
const LEAF_EXACT: u8 = 2;
const VALUE_EXACT: u8 = 4;

/// One position of the book, in its canonical orientation.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Entry {
    /// Negamax value for the side to move, in discs.
    pub value: i8,
    /// The score of the leaf move, for the side to move.
    pub leaf_score: i8,
    /// The leaf move's square in the canonical orientation, [`LEAF_PASS`] or [`LEAF_NONE`].
    leaf_move: u8,
    /// The level of the searches that scored this position's moves ([`EXACT_DEPTH`] when exact).
    pub depth: u8,
    flags: u8,
}

impl Entry {
    /// A position scored by one search of it: `best` is its best move, `score` its score.
    pub fn leaf(best: Option<Move>, score: i32, depth: u8, exact: bool, orientation: usize) -> Entry {
        let leaf_move = match best {
            Some(Move::Play(sq)) => symmetry(orientation, sq.bit()).trailing_zeros() as u8,
            Some(Move::Pass) => LEAF_PASS,
            None => LEAF_NONE,
        };
        let score = clamp_score(score);
        let flags = if exact { LEAF_EXACT | VALUE_EXACT } else { 0 };
        Entry { value: score, leaf_score: score, leaf_move, depth: if exact { EXACT_DEPTH } else { depth }, flags }
    }

    /// The moves of this position were all searched (the build's expansion; a leaf otherwise).
    pub fn is_expanded(&self) -> bool {
        self.flags & EXPANDED != 0
    }

    /// The value is the exact result of the game with perfect play.
    pub fn is_exact(&self) -> bool {
        self.flags & VALUE_EXACT != 0
    }

    pub fn has_leaf(&self) -> bool {
        self.leaf_move != LEAF_NONE
    }
}

fn clamp_score(score: i32) -> i8 {
    score.clamp(-64, 64) as i8
}

/// A move the book knows, from the side to move.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct BookMove {
    pub mv: Move,
    /// Disc difference for the side that plays `mv`.
    pub score: i32,
    pub exact: bool,
    /// The level its score comes from ([`EXACT_DEPTH`] when exact).
    pub depth: u8,
    /// The move leads to a position in the book (else it is a position's leaf move).
    pub in_book: bool,
}

/// Why a book file was refused.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum BookError {
    NotABook,
    Version(u32),
    Size {
        expected: usize,
        found: usize,
    },
    Checksum,
    Unsorted,
    /// An entry's leaf move is no square, pass or none (a file written by something else).
    LeafMove(u8),
}

impl fmt::Display for BookError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BookError::NotABook => write!(f, "not an ebony book file"),
            BookError::Version(v) => write!(f, "book file version {v}, this build reads version {VERSION}"),
            BookError::Size { expected, found } => {
                write!(f, "the book file is truncated or too long: {found} bytes of entries, expected {expected}")
            }
            BookError::Checksum => write!(f, "the book file is corrupt (checksum mismatch)"),
            BookError::Unsorted => write!(f, "the book file is corrupt (positions out of order or repeated)"),
            BookError::LeafMove(m) => write!(f, "the book file is corrupt (leaf move {m} is no square)"),
        }
    }
}

impl std::error::Error for BookError {}

const MAGIC: &[u8; 4] = b"EBBK";
const VERSION: u32 = 1;
const HEADER: usize = 4 + 4 + 4 + 4 + 8;
const ENTRY_BYTES: usize = 8 + 8 + 5;

/// The positions, by canonical board.
#[derive(Clone, Default, PartialEq, Eq, Debug)]
pub struct Book {
    entries: HashMap<(u64, u64), Entry>,
}

/// The canonical key of `board` and the symmetry that maps `board` onto it.
pub fn key_of(board: &Board) -> ((u64, u64), usize) {
    let key = canonical(board.player, board.opponent);
    let k = (0..8).find(|&k| (symmetry(k, board.player), symmetry(k, board.opponent)) == key).unwrap_or(0);
    (key, k)
}

impl Book {
    pub fn new() -> Book {
        Book::default()
    }

    /// The book built into the binary.
    pub fn built_in() -> Result<Book, BookError> {
        Book::from_bytes(DEFAULT_BOOK)
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    pub fn get(&self, board: &Board) -> Option<&Entry> {
        self.entries.get(&key_of(board).0)
    }

    pub fn contains(&self, board: &Board) -> bool {
        self.get(board).is_some()
    }

    /// Puts `entry` (in the orientation of `board`'s canonical key) for `board`.
    pub fn insert(&mut self, board: &Board, entry: Entry) {
        self.entries.insert(key_of(board).0, entry);
    }

    /// The entries in canonical order: (player, opponent) of the canonical board, and the entry.
    pub fn iter_sorted(&self) -> Vec<((u64, u64), Entry)> {
        let mut all: Vec<_> = self.entries.iter().map(|(&k, &e)| (k, e)).collect();
        all.sort_unstable_by_key(|&(k, _)| k);
        all
    }

    /// The leaf move of `entry` (found for `board`), as a move of `board`.
    fn leaf_move(entry: &Entry, board: &Board) -> Option<Move> {
        match entry.leaf_move {
            LEAF_NONE => None,
            LEAF_PASS => Some(Move::Pass),
            c => {
                let (_, k) = key_of(board);
                Some(Move::Play(Square::from_index(preimage(k, c) as u32)))
            }
        }
    }

    /// The position after `mv` in `board`, with a forced pass after it played through (the book
    /// stores no position whose side to move must pass), and the sign of its score for the mover.
    pub fn child(board: &Board, mv: Move) -> Option<(Board, i32)> {
        let after = board.try_play(mv).ok()?;
        if after.moves() == 0 && !after.is_game_over() {
            Some((after.pass(), 1))
        } else {
            Some((after, -1))
        }
    }

    /// Every move of `board` the book knows a score for, best first (equal scores in the order of
    /// the legal moves); empty when `board` is not in the book.
    pub fn moves(&self, board: &Board) -> Vec<BookMove> {
        let Some(entry) = self.get(board) else { return Vec::new() };
        let leaf = Book::leaf_move(entry, board);
        let mut known = Vec::new();
        for mv in board.legal_moves() {
            let Some((child, sign)) = Book::child(board, mv) else { continue };
            if let Some(c) = self.get(&child) {
                known.push(BookMove {
                    mv,
                    score: sign * c.value as i32,
                    exact: c.is_exact(),
                    depth: c.depth,
                    in_book: true,
                });
            } else if leaf == Some(mv) {
                known.push(BookMove {
                    mv,
                    score: entry.leaf_score as i32,
                    exact: entry.flags & LEAF_EXACT != 0,
                    depth: entry.depth,
                    in_book: false,
                });
            }
        }
        known.sort_by_key(|m| -m.score);
        known
    }

    /// The book's line from `board` on: the best move of each position while it is in the book.
    pub fn line(&self, board: &Board, max: usize) -> Vec<Move> {
        let mut line = Vec::new();
        let mut board = *board;
        while line.len() < max {
            let Some(best) = self.moves(&board).first().copied() else { break };
            line.push(best.mv);
            let Some((next, sign)) = Book::child(&board, best.mv) else { break };
            if sign == 1 {
                line.push(Move::Pass);
            }
            board = next;
        }
        line
    }

    /// Recomputes every value by negamax over the children in the book and the leaf moves: after
    /// positions were added or merged. Values only ever come from here and from [`Entry::leaf`].
    pub fn back_up(&mut self) {
        let keys: Vec<(u64, u64)> = self.iter_sorted().into_iter().map(|(k, _)| k).collect();
        let mut done: HashMap<(u64, u64), (i8, bool)> = HashMap::with_capacity(keys.len());
        for key in keys {
            self.value_of(Board::new(key.0, key.1), &mut done);
        }
        for (key, (value, exact)) in done {
            if let Some(e) = self.entries.get_mut(&key) {
                e.value = value;
                e.flags = (e.flags & !VALUE_EXACT) | if exact { VALUE_EXACT } else { 0 };
            }
        }
    }

    /// The negamax value of `board` (in the book), memoised in `done`. Depth is bounded by the
    /// empties (every child has one disc more), so the recursion is at most 60 deep.
    fn value_of(&self, board: Board, done: &mut HashMap<(u64, u64), (i8, bool)>) -> (i8, bool) {
        let (key, _) = key_of(&board);
        if let Some(&v) = done.get(&key) {
            return v;
        }
        let Some(entry) = self.entries.get(&key).copied() else { return (0, false) };
        let leaf = Book::leaf_move(&entry, &board);
        let mut best: Option<(i32, bool)> = None;
        let mut all_exact = true;
        let mut consider = |score: i32, exact: bool, best: &mut Option<(i32, bool)>| {
            all_exact &= exact;
            if best.is_none_or(|(s, _)| score > s) {
                *best = Some((score, exact));
            }
        };
        let mut leaf_counted = false;
        for mv in board.legal_moves() {
            let Some((child, sign)) = Book::child(&board, mv) else { continue };
            if self.contains(&child) {
                let (v, exact) = self.value_of(child, done);
                consider(sign * v as i32, exact, &mut best);
            } else if leaf == Some(mv) {
                leaf_counted = true;
                consider(entry.leaf_score as i32, entry.flags & LEAF_EXACT != 0, &mut best);
            }
        }
        let result = match best {
            // A finished game, or a position whose leaf is its whole knowledge.
            None => (entry.leaf_score, entry.flags & LEAF_EXACT != 0),
            // Exact only when every move's score is exact and no unscored move is left out.
            Some((score, _)) => {
                let complete = entry.is_expanded() && (leaf_counted || !entry.has_leaf());
                (clamp_score(score), all_exact && complete)
            }
        };
        done.insert(key, result);
        result
    }

    /// The file format: "EBBK", version (u32), entry count (u32), reserved (u32), FNV-1a of the
    /// entry bytes (u64), then the entries sorted by canonical board: player (u64), opponent (u64),
    /// value (i8), leaf score (i8), leaf move (u8), depth (u8), flags (u8); little-endian.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut body = Vec::with_capacity(self.len() * ENTRY_BYTES);
        for ((p, o), e) in self.iter_sorted() {
            body.extend_from_slice(&p.to_le_bytes());
            body.extend_from_slice(&o.to_le_bytes());
            body.extend_from_slice(&[e.value as u8, e.leaf_score as u8, e.leaf_move, e.depth, e.flags]);
        }
        let mut out = Vec::with_capacity(HEADER + body.len());
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&VERSION.to_le_bytes());
        out.extend_from_slice(&(self.len() as u32).to_le_bytes());
        out.extend_from_slice(&0u32.to_le_bytes());
        out.extend_from_slice(&fnv1a(body.iter().copied()).to_le_bytes());
        out.extend_from_slice(&body);
        out
    }

    pub fn from_bytes(bytes: &[u8]) -> Result<Book, BookError> {
        if bytes.len() < HEADER || &bytes[..4] != MAGIC {
            return Err(BookError::NotABook);
        }
        let u32_at = |i: usize| u32::from_le_bytes([bytes[i], bytes[i + 1], bytes[i + 2], bytes[i + 3]]);
        let u64_at = |b: &[u8], i: usize| {
            let mut w = [0u8; 8];
            w.copy_from_slice(&b[i..i + 8]);
            u64::from_le_bytes(w)
        };
        let version = u32_at(4);
        if version != VERSION {
            return Err(BookError::Version(version));
        }
        let count = u32_at(8) as usize;
        let body = &bytes[HEADER..];
        let expected = count.saturating_mul(ENTRY_BYTES);
        if body.len() != expected {
            return Err(BookError::Size { expected, found: body.len() });
        }
        if fnv1a(body.iter().copied()) != u64_at(bytes, 16) {
            return Err(BookError::Checksum);
        }
        let mut entries = HashMap::with_capacity(count);
        let mut last: Option<(u64, u64)> = None;
        for chunk in body.chunks_exact(ENTRY_BYTES) {
            let key = (u64_at(chunk, 0), u64_at(chunk, 8));
            if last.is_some_and(|l| l >= key) {
                return Err(BookError::Unsorted);
            }
            last = Some(key);
            let b = &chunk[16..];
            if b[2] > LEAF_NONE {
                return Err(BookError::LeafMove(b[2]));
            }
            let entry = Entry { value: b[0] as i8, leaf_score: b[1] as i8, leaf_move: b[2], depth: b[3], flags: b[4] };
            entries.insert(key, entry);
        }
        Ok(Book { entries })
    }

    /// Reads a book file: one clear error (the file name and the reason) when it cannot be used.
    pub fn read_file(path: &std::path::Path) -> Result<Book, String> {
        let bytes = std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        Book::from_bytes(&bytes).map_err(|e| format!("{}: {e}", path.display()))
    }

    /// Writes a book file whole or not at all: to a temporary file first, then renamed over the old
    /// one, so that an interrupt at any moment leaves the last complete book.
    pub fn write_file(&self, path: &std::path::Path) -> Result<(), String> {
        crate::formats::replace_file(path, &self.to_bytes())
            .map_err(|e| format!("cannot write {}: {e}", path.display()))
    }

    /// Marks `board`'s entry as expanded, with `leaf` as its best move left out of the book.
    fn set_expanded(&mut self, board: &Board, leaf: Option<(Move, i32, bool)>, depth: u8) {
        let (key, k) = key_of(board);
        if let Some(e) = self.entries.get_mut(&key) {
            let fresh = match leaf {
                Some((mv, score, exact)) => Entry::leaf(Some(mv), score, depth, exact, k),
                None => Entry { leaf_move: LEAF_NONE, depth, flags: 0, ..*e },
            };
            e.leaf_move = fresh.leaf_move;
            e.leaf_score = fresh.leaf_score;
            e.depth = fresh.depth;
            e.flags = (fresh.flags & LEAF_EXACT) | EXPANDED;
        }
    }

    /// Adds `other`'s positions: a position in both keeps the entry with more work in it (expanded
    /// before not, then the deeper level); values are backed up again afterwards.
    pub fn merge(&mut self, other: &Book) {
        for (&key, &theirs) in &other.entries {
            let keep_ours = self.entries.get(&key).is_some_and(|ours| {
                (ours.is_expanded(), ours.depth, ours.flags & LEAF_EXACT)
                    >= (theirs.is_expanded(), theirs.depth, theirs.flags & LEAF_EXACT)
            });
            if !keep_ours {
                self.entries.insert(key, theirs);
            }
        }
        self.back_up();
    }

    /// Counts for `ebony book stats`: positions, expanded ones, exact values, positions by ply.
    pub fn stats(&self) -> Stats {
        let mut stats = Stats { positions: self.len(), by_ply: vec![0; 61], ..Stats::default() };
        for (&(p, o), e) in &self.entries {
            stats.expanded += e.is_expanded() as usize;
            stats.exact += e.is_exact() as usize;
            let ply = ((p | o).count_ones() as usize).saturating_sub(4).min(60);
            stats.by_ply[ply] += 1;
            if e.depth != EXACT_DEPTH {
                stats.min_depth = Some(stats.min_depth.map_or(e.depth, |d: u8| d.min(e.depth)));
            }
        }
        stats
    }
}

/// What `ebony book stats` prints.
#[derive(Clone, Default, Debug)]
pub struct Stats {
    pub positions: usize,
    pub expanded: usize,
    pub exact: usize,
    /// The lowest search level of a position not scored exactly.
    pub min_depth: Option<u8>,
    pub by_ply: Vec<usize>,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(name: &str) -> Move {
        Move::Play(name.parse().expect("square"))
    }

    fn after(board: Board, names: &[&str]) -> Board {
        names.iter().fold(board, |b, n| b.play(n.parse().expect("square")))
    }

    #[test]
    fn a_position_and_its_seven_images_are_one_entry() {
        let board = after(Board::START, &["f5", "d6", "c3"]);
        let mut book = Book::new();
        book.insert(&board, Entry::leaf(Some(sq("d3")), 3, 18, false, key_of(&board).1));
        for k in 0..8 {
            let image = Board::new(symmetry(k, board.player), symmetry(k, board.opponent));
            let entry = book.get(&image).expect("every image finds the entry");
            assert_eq!(entry.value, 3);
            // The leaf move is the image of d3 in each orientation.
            let d3 = symmetry(k, 1u64 << "d3".parse::<Square>().expect("square").index());
            assert_eq!(Book::leaf_move(entry, &image), Some(Move::Play(Square::from_index(d3.trailing_zeros()))));
        }
        assert_eq!(book.len(), 1);
        assert!(!book.contains(&Board::START));
    }

    #[test]
    fn the_format_round_trips_and_refuses_damage() {
        let mut book = Book::new();
        let f5 = after(Board::START, &["f5"]);
        book.insert(&Board::START, Entry::leaf(Some(sq("f5")), 0, 18, false, 0));
        book.insert(&f5, Entry::leaf(Some(sq("d6")), -1, 18, false, key_of(&f5).1));
        book.back_up();
        let bytes = book.to_bytes();
        assert_eq!(bytes.len(), HEADER + 2 * ENTRY_BYTES);
        assert_eq!(Book::from_bytes(&bytes), Ok(book.clone()));
        let mut damaged = bytes.clone();
        damaged[HEADER + 3] ^= 1;
        assert_eq!(Book::from_bytes(&damaged), Err(BookError::Checksum));
        assert_eq!(Book::from_bytes(&bytes[..bytes.len() - 1]), Err(BookError::Size { expected: 42, found: 41 }));
        assert_eq!(Book::from_bytes(b"EBEV...."), Err(BookError::NotABook));
        let mut version = bytes.clone();
        version[4] = 9;
        assert_eq!(Book::from_bytes(&version), Err(BookError::Version(9)));
        // A leaf move past "none", with a checksum that matches: refused, not read as a square.
        let mut leaf = bytes.clone();
        leaf[HEADER + 16 + 2] = LEAF_NONE + 1;
        let sum = fnv1a(leaf[HEADER..].iter().copied());
        leaf[16..24].copy_from_slice(&sum.to_le_bytes());
        assert_eq!(Book::from_bytes(&leaf), Err(BookError::LeafMove(LEAF_NONE + 1)));
    }

    #[test]
    fn values_back_up_by_negamax() {
        // The start position with two of its (symmetric) children in the book, one expanded.
        let mut book = Book::new();
        let start = Board::START;
        let f5 = after(start, &["f5"]);
        let f5d6 = after(f5, &["d6"]);
        let f5f6 = after(f5, &["f6"]);
        book.insert(&start, Entry::leaf(Some(sq("f5")), 0, 18, false, 0));
        book.insert(&f5, Entry::leaf(Some(sq("d6")), -1, 18, false, key_of(&f5).1));
        book.insert(&f5d6, Entry::leaf(Some(sq("c3")), 4, 18, false, key_of(&f5d6).1));
        book.insert(&f5f6, Entry::leaf(Some(sq("e6")), -2, 18, false, key_of(&f5f6).1));
        // f5's leaf (d6) is now in the book: its value is the best of its children, d6 (-4) and f6 (+2).
        book.set_expanded(&f5, Some((sq("f4"), -6, false)), 18);
        book.back_up();
        assert_eq!(book.get(&f5).map(|e| e.value), Some(2));
        // Every first move of black is f5 by symmetry: the start is worth -2 for black.
        assert_eq!(book.get(&start).map(|e| e.value), Some(-2));
        let moves = book.moves(&start);
        assert_eq!(moves.len(), 4, "{moves:?}");
        assert!(moves.iter().all(|m| m.score == -2 && m.in_book));
        let f5_moves = book.moves(&f5);
        assert_eq!(
            f5_moves.iter().map(|m| (m.mv, m.score)).collect::<Vec<_>>(),
            [(sq("f6"), 2), (sq("d6"), -4), (sq("f4"), -6)]
        );
        assert_eq!(book.line(&f5, 3), [sq("f6"), sq("e6")], "f6, then the leaf move of f5 f6");
    }
}
