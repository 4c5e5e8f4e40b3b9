//! The exact endgame solver: the final disc difference with perfect play, or only win/loss/draw.
//!
//! Public API (kept small for the search, which hands over at low empties):
//! - [`solve`]`(&mut Table, &Board, alpha, beta, &mut dyn Observer) -> Solution` on the search's one
//!   table (`crate::search::tt`), where its entries have the draft of their empties and are exact;
//!   [`Solver::new`]`(hash_mb)` owns a table of its own for solving outside a game, [`Solver::clear`]
//!   empties it, [`Solver::solve`] is the same solve: fail-soft alpha-beta over
//!   the window; a score `<= alpha` is an upper bound, `>= beta` a lower bound, otherwise exact. The
//!   full window is `-64..64`; win/loss/draw is the window `-1..1`.
//! - [`Solver::solve_all_moves`]: every legal move's exact score, best first.
//!
//! A root with many empties is first solved selectively (ProbCut at a margin of a few discs): that
//! cheap pass fills the table with good moves and gives the exact pass its first guess (not for a
//! win/loss/draw solve, which is one null-window search). Table bounds
//! carry the pass that found them, and the exact pass trusts only exact ones.
//!
//! The observer's `poll` is called every few thousand nodes; on `Stop` the solve unwinds at once and
//! the result says `aborted` (its score and move then mean nothing).
//!
//! Layout of the search, from many empties to few: `deep` (move list ordered fastest first, from 12
//! empties with the learnt evaluation of each child (`crate::eval::learned`), from 16 with a 2- to
//! 6-ply search on it; TT, ETC, stability cutoff, principal variation search), `shallow` (no TT, no
//! list: empties visited odd quadrants first), then hand-written solvers for 4, 3, 2 and 1 empties
//! that take their squares as arguments and allocate nothing; the last empty is scored from flip counts
//! alone (`last`).

mod last;

use crate::cpu::Isa;
use crate::eval::learned::{self, Patterns, Weights};
use crate::rules::board::{Board, Move};
use crate::rules::masks::QUADRANTS;
use crate::rules::movegen;
use crate::rules::square::Square;
use crate::rules::stability::{self, stable_discs};
use crate::search::api::{Control, Observer};
use crate::search::ordering::{fastest_first_key, select_next};
use crate::search::probcut::{self, Selectivity};
use crate::search::tt::{bounds, Table, EXACT, NO_MOVE};
use std::marker::PhantomData;
use std::time::{Duration, Instant};

/// The answer of a solve.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Solution {
    /// Disc difference for the side to move (a bound when outside the window, see [`Solver::solve`]).
    pub score: i32,
    /// The best move found: `Move::Pass` when the side to move has none.
    pub best: Move,
    pub nodes: u64,
    pub elapsed: Duration,
    /// The observer asked to stop: score and move are not to be used.
    pub aborted: bool,
    /// `best` and the line of play after it (passes written out): for an exact score, each move
    /// proven to keep the score; otherwise the table's moves.
    pub pv: Vec<Move>,
}

/// Every legal move's exact score.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct AllMoves {
    /// Best first; a single `Move::Pass` when the side to move must pass; empty when the game is over.
    pub moves: Vec<(Move, i32)>,
    pub nodes: u64,
    pub elapsed: Duration,
    pub aborted: bool,
}

/// Beyond any evaluation, in 1/`learned::SCALE` disc.
const SCORE_BOUND: i32 = 65 * learned::SCALE;

/// Nodes between two polls of the observer.
const POLL_INTERVAL: u64 = 4096;

/// Boards with at most this many empties are searched by `shallow` (no TT, no move list).
const SHALLOW_MAX: u32 = 6;

/// The stability cutoff is tried when alpha is at least this (by empties): below, the bound
/// `64 - 2 * stable` is rarely low enough to cut and computing it costs more than it saves.
const STABILITY_THRESHOLD: [i32; 65] = {
    let mut t = [99; 65];
    let mut n = 5;
    while n < 65 {
        let v = 2 * n as i32 - 4;
        t[n] = if v > 64 { 64 } else { v };
        n += 1;
    }
    t
};

/// `deep` tries the stability bound only from a higher alpha: on FFO #24-#31 its cutoffs saved 144 of
/// 34.19 M nodes at margin 0 and none were lost at margin 8, so there it is mostly cost.
const DEEP_STABILITY_MARGIN: i32 = 8;

/// From this many empties the learnt evaluation of each child joins the ordering key, at
/// `W_EVAL` per 1/`learned::SCALE` disc (24 * 64 = 1536 a disc, 3/8 of a mobility point).
/// From `SORT_MIN` empties the child's value is a `SORT_DEPTH`-ply search on that evaluation instead.
/// Nodes on FFO #24-#33, 55.26 M without either: evaluation from 10 empties 40.3 M, plus the 2-ply
/// sort from 16 empties 38.9 M (from 14: 40.6 M, from 18: 39.4 M; 1 ply is worse than none, 4 plies
/// from 18 +5%). Time decides the start of the evaluation: on FFO #20-#39 from 10 empties 162.3 M
/// nodes, from 12 169.2 M nodes but 22% less time, from 13 and 14 more nodes and no faster. Weight
/// (FFO #24-#37 nodes, from 12 empties): 8: 93.9 M, 12: 87.3 M, 16: 82.9 M, 20: 82.8 M, 28: 85.9 M
/// with the endgame-only weights; with the learnt evaluation of the whole game (FFO #20-#39 / #40-#49
/// nodes): 8: 121.3 / 1018 M, 16: 102.6 / 793 M, 24: 93.7 / 797 M, 32: 93.8 / 822 M, 64: 104.1 / 882 M.
/// With the weights fitted on 100.7 M positions (2026-11-29; FFO #40-#49 / #20-#39 / the 80 game
/// positions of `data/solver/games-23-25.obf`, nodes): the search from 16 empties 545.6 / 73.5 /
/// 3,876 M, from 17 536.3 / 71.9 / 3,769 M, from 18 539.6 / 71.2 / 3,780 M (0.91, 0.92 and 0.89 of
/// the time from 16, run side by side), from 19 - / - / 3,855 M, from 20 561.7 / 72.9 / 3,953 M;
/// `W_EVAL` 16, 20, 28, 32: 574.5, 567.0, 542.9, 549.4 M on #40-#49 (24: 545.6 M).
const EVAL_MIN: u32 = 12;
const W_EVAL: i32 = 24;
const SORT_MIN: u32 = 18;
const SORT_DEPTH: u32 = 2;

/// The depth of the ordering search at `n` empties (from `SORT_MIN`): deeper near the root, where
/// each subtree is large. Nodes on FFO #45 + #49 with the selective pre-search: 2 plies throughout
/// 521 M; one more ply from 20 empties and every 3 (up to 6) 450 M; from 22 and every 2 453 M, and
/// on #20-#39 133.0 M against 134.9 M.
#[inline(always)]
fn sort_depth(n: u32) -> u32 {
    if n < 22 {
        SORT_DEPTH
    } else {
        (SORT_DEPTH + 1 + (n - 22) / 2).min(6)
    }
}

/// A root with at least this many empties is first solved selectively (ProbCut, below): that pass
/// costs a few percent of the exact one and leaves the table full of good moves and the MTD(f) search a
/// close first guess. FFO #45 + #49 (nodes): exact only 839 M; after a pass at margin 4: 785 M (guess
/// 0), 6: 641 M, 8: 521 M, 10: 534 M, 12: 568 M (guess 0); passes at 16, 8 then 4: 673 M. From 16
/// empties on #20-#39: 133.6 M against 132.9 M from 20 (144.0 M without).
const PRESEARCH_MIN: u32 = 20;
const PRESEARCH_MARGIN: i32 = 8 * learned::SCALE;

/// In the selective pass, nodes with at least this many empties try ProbCut: a null-window search
/// on the evaluation (`estimate`, `probcut_depth` plies) that clears the window by the margin is taken
/// as the node's bound. FFO #45 + #49 (nodes): from 8 empties 531 M, 10 521 M, 14 557 M.
const PROBCUT_MIN: u32 = 10;

/// The depth of ProbCut's search. FFO #45 + #49 (nodes): 4 plies from 18 empties 453.3 M, from 16
/// 471.0 M, from 20 514.7 M. 6 plies from 24 empties as well: #51 + #52 523.9 M -> 494.8 M, #45 + #49
/// 453.7 M, #50 687.5 M -> 688.6 M; 6 plies from 22 494.9 M, from 20 528.7 M on #51 + #52.
#[inline(always)]
fn probcut_depth(n: u32) -> u32 {
    match n {
        0..18 => 2,
        18..24 => 4,
        _ => 6,
    }
}

/// `estimate` orders moves (fastest first) at nodes this many plies above its leaves; below, plain
/// square order. FFO #45-#49 (nodes): never 665.7 M, from 4 plies 664.0 M, 3 662.7 M, 2 653.3 M;
/// #20-#39 132.7 M -> 131.2 M at 2.
const ESTIMATE_ORDER_DEPTH: u32 = 2;

/// Enhanced transposition cutoffs from this many empties (FFO #24-#33: 12 empties -4.8% nodes, 10 -8%).
const ETC_MIN: u32 = 10;

/// `NEIGHBOURS[x]`: the squares around `x`. A move on `x` needs an opponent disc there, a test far
/// cheaper than computing the flips.
static NEIGHBOURS: [u64; 64] = {
    let mut t = [0u64; 64];
    let mut sq = 0;
    while sq < 64 {
        let (f, r) = (sq as i32 % 8, sq as i32 / 8);
        let mut df = -1;
        while df <= 1 {
            let mut dr = -1;
            while dr <= 1 {
                let (nf, nr) = (f + df, r + dr);
                if (df != 0 || dr != 0) && nf >= 0 && nf < 8 && nr >= 0 && nr < 8 {
                    t[sq] |= 1u64 << (nr * 8 + nf);
                }
                dr += 1;
            }
            df += 1;
        }
        sq += 1;
    }
    t
};

/// The squares of the quadrants holding an odd number of empties: parity says who is likely to play
/// last there.
#[inline(always)]
fn odd_quadrants(empties: u64) -> u64 {
    let mut mask = 0;
    for q in QUADRANTS {
        if (empties & q).count_ones() & 1 != 0 {
            mask |= q;
        }
    }
    mask
}

/// The final score of a finished game for `p`, empties to the winner.
#[inline(always)]
fn final_score(p: u64, o: u64) -> i32 {
    Board::new(p, o).final_score()
}

/// Solves `board` over the window `alpha..beta` (see the module notes for the bounds) with a table
/// the caller owns: the midgame search's, whose exact entries the solver then shares. `weights` order
/// the moves and drive the selective pass.
pub fn solve(
    table: &mut Table,
    board: &Board,
    alpha: i32,
    beta: i32,
    weights: &'static Weights,
    observer: &mut dyn Observer,
) -> Solution {
    crate::dispatch!(I => {
        let start = Instant::now();
        table.new_search();
        let mut search = Search::<I>::new(table, weights, observer);
        let (alpha, beta) = (alpha.clamp(-65, 64), beta.clamp(-64, 65));
        let beta = beta.max(alpha + 1);
        let (score, best) = search.root(board.player, board.opponent, alpha, beta, None);
        let aborted = search.stopped;
        let pv = search.line(board, best, score, alpha < score && score < beta);
        Solution { score, best, nodes: search.nodes, elapsed: start.elapsed(), aborted, pv }
    })
}

/// [`solve`] at a selectivity: the solver's ProbCut at every node of at least `PROBCUT_MIN`
/// empties, cutting at the level's threshold (exact when `Selectivity::EXACT`), from a first
/// `guess` of the score. Its bounds go to the table at the level, where an exact solve does not
/// trust them but takes their moves. In games, passes at rising levels find a good move fast and
/// prove it when time allows.
pub fn solve_at(
    table: &mut Table,
    board: &Board,
    selectivity: Selectivity,
    guess: i32,
    weights: &'static Weights,
    observer: &mut dyn Observer,
) -> Solution {
    crate::dispatch!(I => {
        let start = Instant::now();
        table.new_search();
        table.set_level(selectivity.table_level());
        let mut search = Search::<I>::new(table, weights, observer);
        search.margins = selective_margins(selectivity);
        let (score, best) = search.root(board.player, board.opponent, -64, 64, Some(guess));
        let aborted = search.stopped;
        let pv = search.line(board, best, score, selectivity.is_exact());
        search.table.set_level(EXACT);
        Solution { score, best, nodes: search.nodes, elapsed: start.elapsed(), aborted, pv }
    })
}

/// The exact endgame solver on a table of its own, for solving positions outside a game (`ebony
/// solve`, tests, data generation).
pub struct Solver {
    table: Table,
    weights: &'static Weights,
}

impl Solver {
    /// A solver ordering its moves with the built-in evaluation.
    pub fn new(hash_mb: usize) -> Solver {
        stability::init();
        Solver { table: Table::new(hash_mb), weights: learned::builtin() }
    }

    /// Forgets what earlier solves learnt (for reproducible node counts).
    pub fn clear(&mut self) {
        self.table.clear();
    }

    /// Solves `board` over the window `alpha..beta` (see the module notes for the bounds).
    pub fn solve(&mut self, board: &Board, alpha: i32, beta: i32, observer: &mut dyn Observer) -> Solution {
        solve(&mut self.table, board, alpha, beta, self.weights, observer)
    }

    /// [`solve_at`] on this solver's table: a solve at a selectivity from a first guess.
    pub fn solve_at(
        &mut self,
        board: &Board,
        selectivity: Selectivity,
        guess: i32,
        observer: &mut dyn Observer,
    ) -> Solution {
        solve_at(&mut self.table, board, selectivity, guess, self.weights, observer)
    }

    /// The exact score of every legal move, best first.
    pub fn solve_all_moves(&mut self, board: &Board, observer: &mut dyn Observer) -> AllMoves {
        crate::dispatch!(I => self.solve_all_moves_with::<I>(board, observer))
    }

    fn solve_all_moves_with<I: Isa>(&mut self, board: &Board, observer: &mut dyn Observer) -> AllMoves {
        let start = Instant::now();
        self.table.new_search();
        let mut search = Search::<I>::new(&mut self.table, self.weights, observer);
        let (p, o) = (board.player, board.opponent);
        let mut moves = Vec::new();
        let legal = movegen::moves(p, o);
        if legal == 0 {
            if movegen::moves(o, p) != 0 {
                moves.push((Move::Pass, -search.any(o, p, -64, 64)));
            }
        } else {
            for sq in crate::rules::square::Squares(legal) {
                let f = movegen::flips_at::<I>(p, o, sq.index());
                // Null-window probes (MTD(f)) are cheaper than one full-window search per move.
                let score = -search.root(o ^ f, p ^ f ^ sq.bit(), -64, 64, None).0;
                moves.push((Move::Play(sq), score));
            }
        }
        moves.sort_by_key(|&(_, score)| -score);
        AllMoves { moves, nodes: search.nodes, elapsed: start.elapsed(), aborted: search.stopped }
    }
}

/// One move of a `deep` move list.
#[derive(Clone, Copy, Default)]
struct Candidate {
    flips: u64,
    key: i32,
    sq: u8,
}

/// The running result of a node in the hand-written solvers.
struct Window {
    best: i32,
    alpha: i32,
    beta: i32,
}

impl Window {
    /// Folds in a child's score; says whether it cuts the node off.
    #[inline(always)]
    fn update(&mut self, v: i32) -> bool {
        if v > self.best {
            self.best = v;
            if v > self.alpha {
                self.alpha = v;
                return v >= self.beta;
            }
        }
        false
    }
}

/// The state of one solve: counters, the stop flag, the table and the observer.
struct Search<'a, I: Isa> {
    table: &'a mut Table,
    weights: &'static Weights,
    observer: &'a mut dyn Observer,
    nodes: u64,
    next_poll: u64,
    stopped: bool,
    /// The ProbCut margins of a selective pass by empties (1/`learned::SCALE` disc): a shallow
    /// estimate at least `beta + margins[n].0` fails high, one at most `alpha - margins[n].1` fails
    /// low. `None` in an exact pass.
    margins: Option<[(i32, i32); 61]>,
    /// The instruction-set level every node runs at (`crate::cpu`).
    isa: PhantomData<I>,
}

/// The margins of the exact solve's pre-search: the same at every empties.
const PRESEARCH_MARGINS: [(i32, i32); 61] = [(PRESEARCH_MARGIN, PRESEARCH_MARGIN); 61];

/// The margins of a pass at `selectivity` (None when exact): its threshold in standard deviations of
/// the exact score around ProbCut's estimate (`probcut::end_model`), less the estimate's bias.
fn selective_margins(selectivity: Selectivity) -> Option<[(i32, i32); 61]> {
    if selectivity.is_exact() {
        return None;
    }
    let mut margins = [(0, 0); 61];
    for (n, m) in margins.iter_mut().enumerate() {
        let (bias, sigma) = probcut::end_model(n as u32, probcut_depth(n as u32));
        let scale = learned::SCALE as f64;
        let margin = selectivity.t() * sigma;
        *m = (((margin - bias) * scale).round() as i32, ((margin + bias) * scale).round() as i32);
    }
    Some(margins)
}

impl<'a, I: Isa> Search<'a, I> {
    fn new(table: &'a mut Table, weights: &'static Weights, observer: &'a mut dyn Observer) -> Search<'a, I> {
        let (nodes, next_poll, stopped, margins, isa) = (0, POLL_INTERVAL, false, None, PhantomData);
        Search { table, weights, observer, nodes, next_poll, stopped, margins, isa }
    }

    /// [`Table::store`] out of line, as a function of its own compiled for `I`.
    #[inline(always)]
    fn store(&mut self, p: u64, o: u64, n: u32, lower: i32, upper: i32, best: u8) {
        I::run(
            #[inline(always)]
            move || self.table.store(p, o, n, lower, upper, best),
        )
    }

    #[inline(never)]
    fn poll(&mut self) {
        self.next_poll = self.nodes + POLL_INTERVAL;
        if self.observer.poll() == Control::Stop {
            self.stopped = true;
        }
    }

    /// The root: like `deep` but for any number of empties, and it says which move is best. An
    /// exact solve of many empties starts with a selective pre-search unless given a `guess`.
    fn root(&mut self, p: u64, o: u64, alpha: i32, beta: i32, mut guess: Option<i32>) -> (i32, Move) {
        let legal = movegen::moves(p, o);
        if legal == 0 {
            self.nodes += 1;
            if movegen::moves(o, p) == 0 {
                return (final_score(p, o), Move::Pass);
            }
            return (-self.any(o, p, -beta, -alpha), Move::Pass);
        }
        if (!(p | o)).count_ones() <= SHALLOW_MAX {
            // Small trees: score each move in turn (the ordering work of `deep` would not pay).
            self.nodes += 1;
            let (mut best, mut best_move, mut alpha) = (-65, Move::Pass, alpha);
            for sq in crate::rules::square::Squares(legal) {
                let f = movegen::flips_at::<I>(p, o, sq.index());
                let v = -self.any(o ^ f, p ^ f ^ sq.bit(), -beta, -alpha);
                if v > best {
                    (best, best_move) = (v, Move::Play(sq));
                    alpha = alpha.max(v);
                    if v >= beta {
                        break;
                    }
                }
            }
            return (best, best_move);
        }
        let n = (!(p | o)).count_ones();
        if self.margins.is_none() && n >= PRESEARCH_MIN && guess.is_none() && beta - alpha > 2 {
            self.table.set_level(0);
            self.margins = Some(PRESEARCH_MARGINS);
            guess = Some(self.mtd(p, o, alpha, beta, 0).0);
            self.table.set_level(EXACT);
            self.margins = None;
        }
        let (score, best) = self.mtd(p, o, alpha, beta, guess.unwrap_or(0));
        // In an exact solve the move that came with the score is only a candidate: a probe answered
        // by the table gives the entry's move, which may come from a search that failed low there
        // (the move with the best upper bound) or from a selective pass. It is played once a
        // null-window probe shows it reaches the score; else a move that does. A selective pass keeps
        // its candidate (its probes are estimates), as does a solve already stopped.
        let candidate = (best != NO_MOVE && legal & (1u64 << best) != 0).then(|| Square::from_index(best as u32));
        if score <= alpha && alpha > -64 {
            // Failed low below the caller's window (a win/loss/draw solve that proved a loss): every
            // move scores at most `score`, and the solve says no more of which is best. The caller
            // chooses; the candidate is only a legal move.
            return (score, Move::Play(candidate.unwrap_or(Square::first(legal))));
        }
        if let Some(sq) = candidate {
            if self.margins.is_some() || self.stopped || self.reaches(p, o, sq, score) {
                return (score, Move::Play(sq));
            }
        }
        let mut others = crate::rules::square::Squares(legal).filter(|&sq| Some(sq) != candidate);
        if let Some(sq) = others.find(|&sq| !self.stopped && self.reaches(p, o, sq, score)) {
            return (score, Move::Play(sq));
        }
        match candidate {
            // No move reaches the score (it failed low), or time ran out in the checks: the score
            // was complete before them and stands with its candidate.
            Some(sq) => {
                self.stopped = false;
                (score, Move::Play(sq))
            }
            // The last probe was answered without a move (by the table or the stability bound) and
            // no move was found to reach the score, or the solve was stopped: any legal move.
            None => (score, Move::Play(Square::first(legal))),
        }
    }

    /// The principal variation after a root search of `board` gave `score` and `best`: `best`, then
    /// move after move to the end of the game (passes written out). When `exact`, each move is one a
    /// null-window probe proves to keep the score (the table's move first, as the root checks its
    /// candidate), so the line is a perfect game; otherwise the table's best moves while it has them.
    /// Cut short when the solve is stopped (the moves so far stand).
    /// Its probes are not counted in the nodes: node counts (bench's signature, `ebony solve`'s
    /// figures) measure the solve.
    fn line(&mut self, board: &Board, best: Move, score: i32, exact: bool) -> Vec<Move> {
        let nodes = self.nodes;
        let pv = self.walk(board, best, score, exact);
        self.nodes = nodes;
        pv
    }

    fn walk(&mut self, board: &Board, best: Move, score: i32, exact: bool) -> Vec<Move> {
        let mut pv = Vec::new();
        let Ok(mut position) = board.try_play(best) else { return pv };
        pv.push(best);
        let mut score = -score;
        while !self.stopped && !position.is_game_over() {
            let (p, o) = (position.player, position.opponent);
            let legal = movegen::moves(p, o);
            if legal == 0 {
                pv.push(Move::Pass);
                position = position.pass();
                score = -score;
                continue;
            }
            let stored = self.table.probe(p, o).map(|e| e.best).filter(|&b| b != NO_MOVE && legal & (1u64 << b) != 0);
            let candidate = stored.map(|b| Square::from_index(u32::from(b)));
            let next = if exact {
                let mut order = candidate
                    .into_iter()
                    .chain(crate::rules::square::Squares(legal).filter(|&sq| Some(sq) != candidate));
                order.find(|&sq| self.reaches(p, o, sq, score))
            } else {
                candidate
            };
            let Some(sq) = next else { break };
            pv.push(Move::Play(sq));
            position = position.play(sq);
            score = -score;
        }
        pv
    }

    /// Whether the move `sq` reaches `score` (a null-window probe; false when stopped during it).
    fn reaches(&mut self, p: u64, o: u64, sq: Square, score: i32) -> bool {
        let f = movegen::flips_at::<I>(p, o, sq.index());
        -self.any(o ^ f, p ^ f ^ sq.bit(), -score, 1 - score) >= score && !self.stopped
    }

    /// Null-window probes that close in on the score (MTD(f)) from `guess`: each probe is cheap and the
    /// table carries what earlier probes learnt.
    fn mtd(&mut self, p: u64, o: u64, alpha: i32, beta: i32, guess: i32) -> (i32, u8) {
        if beta - alpha <= 2 {
            return self.deep_search(p, o, alpha, beta);
        }
        let (mut lower, mut upper) = (alpha, beta);
        let mut guess = guess.clamp(alpha + 1, beta - 1);
        let mut result = (guess, NO_MOVE);
        while lower < upper && !self.stopped {
            // Scores are even: the window (guess - 1, guess + 1) asks "below, at or above guess?".
            let (a, b) = (guess - 1, guess + 1);
            let (v, mv) = self.deep_search(p, o, a.max(lower), b.min(upper));
            // A probe that failed low says nothing of which move is best: keep the last other one.
            if v > a || result.1 == NO_MOVE {
                result.1 = mv;
            }
            result.0 = v;
            if v <= a {
                upper = v;
            } else if v >= b {
                lower = v;
            } else {
                return (v, mv);
            }
            guess = v;
            if upper <= alpha || lower >= beta {
                return result;
            }
        }
        result
    }

    /// A shallow alpha-beta value with the learnt evaluation at the leaves, in 1/`learned::SCALE`
    /// disc: the ordering key of moves at many empties, and ProbCut's test. No table; moves fastest
    /// first from `ESTIMATE_ORDER_DEPTH` plies above the leaves, in square order nearer them, where the
    /// ordering work would cost more than it saves.
    /// `patterns` are the pattern values of `p` against `o`, kept as the estimate plays its moves.
    #[inline(always)]
    fn estimate(&mut self, p: u64, o: u64, patterns: &Patterns, depth: u32, alpha: i32, beta: i32) -> i32 {
        I::run(
            #[inline(always)]
            move || self.estimate_node(p, o, patterns, depth, alpha, beta),
        )
    }

    #[inline(always)]
    fn estimate_node(&mut self, p: u64, o: u64, patterns: &Patterns, depth: u32, alpha: i32, beta: i32) -> i32 {
        self.nodes += 1;
        if depth == 0 {
            let weights = self.weights;
            return I::run(
                #[inline(always)]
                move || weights.score_patterns(patterns, p, o, movegen::moves(p, o)),
            );
        }
        let legal = movegen::moves(p, o);
        if legal == 0 {
            if movegen::moves(o, p) == 0 {
                return final_score(p, o) * learned::SCALE;
            }
            return -self.estimate(o, p, &patterns.pass(), depth, -beta, -alpha);
        }
        let mut window = Window { best: i32::MIN + 1, alpha, beta };
        if depth == 1 {
            // The leaves, scored from this node's pattern values.
            let weights = self.weights;
            let children = I::run(
                #[inline(always)]
                move || weights.children(patterns, (!(p | o)).count_ones()),
            );
            for sq in crate::rules::square::Squares(legal) {
                let f = movegen::flips_at::<I>(p, o, sq.index());
                let (np, no) = (o ^ f, p ^ f ^ sq.bit());
                let replies = movegen::moves(np, no);
                let v = if replies != 0 {
                    self.nodes += 1;
                    children.score(sq.index(), f, np, no, replies)
                } else {
                    self.estimate(np, no, &patterns.play(sq.index(), f), 0, -window.beta, -window.alpha)
                };
                if window.update(-v) {
                    break;
                }
            }
        } else if depth >= ESTIMATE_ORDER_DEPTH {
            // Deep enough for ordering to pay: fastest first.
            let mut list = [Candidate::default(); 32];
            let mut count = 0;
            for sq in crate::rules::square::Squares(legal) {
                let f = movegen::flips_at::<I>(p, o, sq.index());
                let key = fastest_first_key(o ^ f, p ^ f ^ sq.bit(), sq.index());
                list[count] = Candidate { flips: f, key, sq: sq.index() as u8 };
                count += 1;
            }
            for i in 0..count {
                let c = select_next(&mut list[..count], i, |c| c.key);
                let (np, no) = (o ^ c.flips, p ^ c.flips ^ (1u64 << c.sq));
                let child = patterns.play(c.sq as usize, c.flips);
                if window.update(-self.estimate(np, no, &child, depth - 1, -window.beta, -window.alpha)) {
                    break;
                }
            }
        } else {
            for sq in crate::rules::square::Squares(legal) {
                let f = movegen::flips_at::<I>(p, o, sq.index());
                let (np, no) = (o ^ f, p ^ f ^ sq.bit());
                let child = patterns.play(sq.index(), f);
                if window.update(-self.estimate(np, no, &child, depth - 1, -window.beta, -window.alpha)) {
                    break;
                }
            }
        }
        window.best
    }

    /// Any board, dispatched on its number of empties.
    fn any(&mut self, p: u64, o: u64, alpha: i32, beta: i32) -> i32 {
        let e = !(p | o);
        match e.count_ones() {
            0 => {
                self.nodes += 1;
                final_score(p, o)
            }
            1 => self.solve_1(p, e.trailing_zeros()),
            2 => {
                let x1 = e.trailing_zeros();
                let x2 = 63 - e.leading_zeros();
                self.solve_2(p, o, alpha, beta, x1, x2)
            }
            3 => {
                let x1 = e.trailing_zeros();
                let rest = e & (e - 1);
                let x2 = rest.trailing_zeros();
                let x3 = 63 - e.leading_zeros();
                self.solve_3(p, o, alpha, beta, x1, x2, x3, false)
            }
            4 => self.solve_4(p, o, alpha, beta),
            n if n <= SHALLOW_MAX => self.shallow(p, o, alpha, beta, n),
            _ => self.deep(p, o, alpha, beta),
        }
    }

    /// Many empties: TT, stability cutoff, ordered move list, principal variation search.
    fn deep(&mut self, p: u64, o: u64, alpha: i32, beta: i32) -> i32 {
        self.deep_search(p, o, alpha, beta).0
    }

    #[inline(always)]
    fn deep_search(&mut self, p: u64, o: u64, alpha: i32, beta: i32) -> (i32, u8) {
        I::run(
            #[inline(always)]
            move || self.deep_search_node(p, o, alpha, beta),
        )
    }

    #[inline(always)]
    fn deep_search_node(&mut self, p: u64, o: u64, mut alpha: i32, mut beta: i32) -> (i32, u8) {
        self.nodes += 1;
        if self.nodes >= self.next_poll {
            self.poll();
        }
        if self.stopped {
            return (0, NO_MOVE);
        }
        let empties = !(p | o);
        let n = empties.count_ones();
        let legal = movegen::moves(p, o);
        if legal == 0 {
            if movegen::moves(o, p) == 0 {
                return (final_score(p, o), NO_MOVE);
            }
            return (-self.deep(o, p, -beta, -alpha), NO_MOVE);
        }
        if alpha >= STABILITY_THRESHOLD[n as usize] + DEEP_STABILITY_MARGIN {
            let bound = 64
                - 2 * I::run(
                    #[inline(always)]
                    move || stable_discs(o, p),
                )
                .count_ones() as i32;
            if bound <= alpha {
                return (bound, NO_MOVE);
            }
        }
        let mut tt_move = NO_MOVE;
        if let Some(entry) = self.table.probe(p, o) {
            // Bounds of a search that did not reach the end of the game (the midgame's) are no use.
            if self.table.trusted(&entry) && entry.draft as u32 >= n {
                let (lower, upper) = (entry.lower as i32, entry.upper as i32);
                if lower >= beta || lower == upper {
                    return (lower, entry.best);
                }
                if upper <= alpha {
                    return (upper, entry.best);
                }
                alpha = alpha.max(lower);
                beta = beta.min(upper);
            }
            tt_move = entry.best;
        }
        if let Some((above, below)) = self.margins.as_ref().map(|m| m[n as usize]).filter(|_| n >= PROBCUT_MIN) {
            // ProbCut (selective passes only): a shallow search that clears the window by the margin
            // is taken as the answer.
            let depth = probcut_depth(n);
            let patterns = I::run(
                #[inline(always)]
                move || Patterns::new(p, o),
            );
            let high = beta * learned::SCALE + above;
            if beta < 64 && self.estimate(p, o, &patterns, depth, high - 1, high) >= high {
                self.store(p, o, n, beta, 64, tt_move);
                return (beta, tt_move);
            }
            let low = alpha * learned::SCALE - below;
            if alpha > -64 && self.estimate(p, o, &patterns, depth, low, low + 1) <= low {
                self.store(p, o, n, -64, alpha, tt_move);
                return (alpha, tt_move);
            }
        }
        let (alpha_in, beta_in) = (alpha, beta);

        let mut best = -65;
        let mut best_move = NO_MOVE;
        let mut rest = legal;
        // The table's move first, before the others are generated and ordered: when it cuts, as it
        // mostly does, the ordering work (mobility and evaluation of every child) is saved.
        if tt_move != NO_MOVE && legal & (1u64 << tt_move) != 0 {
            rest &= !(1u64 << tt_move);
            let f = movegen::flips_at::<I>(p, o, tt_move as usize);
            best = -self.child(o ^ f, p ^ f ^ (1u64 << tt_move), -beta, -alpha, n - 1);
            if self.stopped {
                return (0, NO_MOVE);
            }
            best_move = tt_move;
            alpha = alpha.max(best);
        }
        if best < beta && rest != 0 {
            let first = best_move == NO_MOVE;
            let mut list = [Candidate::default(); 32];
            let mut count = 0;
            let mut bits = rest;
            while bits != 0 {
                let sq = bits.trailing_zeros();
                bits &= bits - 1;
                let f = movegen::flips_at::<I>(p, o, sq as usize);
                if n > SHALLOW_MAX + 1 {
                    // The child's table line is wanted soon (ETC below, or its own probe): start
                    // loading it now, while the other children are generated and scored.
                    self.table.prefetch(o ^ f, p ^ f ^ (1u64 << sq));
                }
                list[count] = Candidate { flips: f, key: 0, sq: sq as u8 };
                count += 1;
            }
            if n >= ETC_MIN {
                // Enhanced transposition cutoff: a child already known to refute this node.
                for c in &list[..count] {
                    let (np, no) = (o ^ c.flips, p ^ c.flips ^ (1u64 << c.sq));
                    if let Some(e) = self.table.probe(np, no) {
                        if self.table.trusted(&e) && e.draft as u32 >= n - 1 && -(e.upper as i32) >= beta {
                            return (-(e.upper as i32), c.sq);
                        }
                    }
                }
            }
            let patterns = (n >= EVAL_MIN).then(|| {
                I::run(
                    #[inline(always)]
                    move || Patterns::new(p, o),
                )
            });
            let weights = self.weights;
            let children = patterns.as_ref().filter(|_| n < SORT_MIN).map(|patterns| weights.children(patterns, n));
            for c in &mut list[..count] {
                let (np, no) = (o ^ c.flips, p ^ c.flips ^ (1u64 << c.sq));
                let mut key = fastest_first_key(np, no, c.sq as usize);
                if let Some(children) = &children {
                    key -= children.score(c.sq as usize, c.flips, np, no, movegen::moves(np, no)) * W_EVAL;
                } else if let Some(patterns) = &patterns {
                    let child = patterns.play(c.sq as usize, c.flips);
                    key -= self.estimate(np, no, &child, sort_depth(n), -SCORE_BOUND, SCORE_BOUND) * W_EVAL;
                }
                c.key = key;
            }
            for i in 0..count {
                let c = select_next(&mut list[..count], i, |c| c.key);
                let bit = 1u64 << c.sq;
                let (np, no) = (o ^ c.flips, p ^ c.flips ^ bit);
                let v = if first && i == 0 {
                    -self.child(np, no, -beta, -alpha, n - 1)
                } else {
                    let v = -self.child(np, no, -alpha - 1, -alpha, n - 1);
                    if v > alpha && v < beta {
                        -self.child(np, no, -beta, -alpha, n - 1)
                    } else {
                        v
                    }
                };
                if self.stopped {
                    return (0, NO_MOVE);
                }
                if v > best {
                    best = v;
                    best_move = c.sq;
                    if v > alpha {
                        alpha = v;
                        if v >= beta {
                            break;
                        }
                    }
                }
            }
        }
        let (lower, upper) = bounds(best, alpha_in, beta_in);
        self.store(p, o, n, lower, upper, best_move);
        (best, best_move)
    }

    #[inline(always)]
    fn child(&mut self, p: u64, o: u64, alpha: i32, beta: i32, n: u32) -> i32 {
        if n > SHALLOW_MAX {
            self.deep(p, o, alpha, beta)
        } else {
            self.shallow(p, o, alpha, beta, n)
        }
    }

    /// 5..=SHALLOW_MAX empties: no table, no list; odd-quadrant empties first.
    #[inline(always)]
    fn shallow(&mut self, p: u64, o: u64, alpha: i32, beta: i32, n: u32) -> i32 {
        I::run(
            #[inline(always)]
            move || self.shallow_node(p, o, alpha, beta, n),
        )
    }

    #[inline(always)]
    fn shallow_node(&mut self, p: u64, o: u64, mut alpha: i32, beta: i32, n: u32) -> i32 {
        self.nodes += 1;
        let empties = !(p | o);
        if alpha >= STABILITY_THRESHOLD[n as usize] {
            let bound = 64
                - 2 * I::run(
                    #[inline(always)]
                    move || stable_discs(o, p),
                )
                .count_ones() as i32;
            if bound <= alpha {
                return bound;
            }
        }
        let odd = odd_quadrants(empties);
        let mut best = -65;
        for mut bits in [empties & odd, empties & !odd] {
            while bits != 0 {
                let sq = bits.trailing_zeros();
                bits &= bits - 1;
                if NEIGHBOURS[sq as usize] & o == 0 {
                    continue;
                }
                let f = movegen::flips_at::<I>(p, o, sq as usize);
                if f == 0 {
                    continue;
                }
                let (np, no) = (o ^ f, p ^ f ^ (1u64 << sq));
                let v = if n == 5 {
                    -self.solve_4(np, no, -beta, -alpha)
                } else {
                    -self.shallow(np, no, -beta, -alpha, n - 1)
                };
                if v > best {
                    best = v;
                    if v > alpha {
                        alpha = v;
                        if v >= beta {
                            return v;
                        }
                    }
                }
            }
        }
        if best == -65 {
            if movegen::moves(o, p) == 0 {
                return final_score(p, o);
            }
            return -self.shallow(o, p, -beta, -alpha, n);
        }
        best
    }

    /// Four empties, taken odd quadrants first.
    #[inline(always)]
    fn solve_4(&mut self, p: u64, o: u64, alpha: i32, beta: i32) -> i32 {
        let empties = !(p | o);
        let odd = empties & odd_quadrants(empties);
        // The odd empties in square order, then the others: four steps without a loop or a store.
        let (mut bits, mut rest) = (odd, empties ^ odd);
        let mut next = || {
            if bits == 0 {
                (bits, rest) = (rest, 0);
            }
            let sq = bits.trailing_zeros();
            bits &= bits - 1;
            sq
        };
        let sq = [next(), next(), next(), next()];
        self.solve_4_sq(p, o, alpha, beta, sq, false)
    }

    #[inline(always)]
    fn solve_4_sq(&mut self, p: u64, o: u64, alpha: i32, beta: i32, sq: [u32; 4], passed: bool) -> i32 {
        I::run(
            #[inline(always)]
            move || self.solve_4_sq_node(p, o, alpha, beta, sq, passed),
        )
    }

    #[inline(always)]
    fn solve_4_sq_node(&mut self, p: u64, o: u64, alpha: i32, beta: i32, sq: [u32; 4], passed: bool) -> i32 {
        // No stability cutoff here: on FFO #24-#33 it saved 0.2% of the nodes for its cost.
        self.nodes += 1;
        let [x1, x2, x3, x4] = sq;
        let mut window = Window { best: -65, alpha, beta };
        if self.solve_4_move(p, o, &mut window, x1, x2, x3, x4)
            || self.solve_4_move(p, o, &mut window, x2, x1, x3, x4)
            || self.solve_4_move(p, o, &mut window, x3, x1, x2, x4)
            || self.solve_4_move(p, o, &mut window, x4, x1, x2, x3)
        {
            return window.best;
        }
        if window.best == -65 {
            if passed {
                return final_score(p, o);
            }
            return -self.solve_4_sq(o, p, -beta, -alpha, sq, true);
        }
        window.best
    }

    /// Plays `x` (if legal) in a 4-empty board and solves the rest `a`, `b`, `c`; says whether it cut off.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn solve_4_move(&mut self, p: u64, o: u64, window: &mut Window, x: u32, a: u32, b: u32, c: u32) -> bool {
        if NEIGHBOURS[x as usize] & o == 0 {
            return false;
        }
        let f = movegen::flips_at::<I>(p, o, x as usize);
        if f == 0 {
            return false;
        }
        let v = -self.solve_3(o ^ f, p ^ f ^ (1u64 << x), -window.beta, -window.alpha, a, b, c, false);
        window.update(v)
    }

    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn solve_3(&mut self, p: u64, o: u64, alpha: i32, beta: i32, x1: u32, x2: u32, x3: u32, passed: bool) -> i32 {
        I::run(
            #[inline(always)]
            move || self.solve_3_node(p, o, alpha, beta, x1, x2, x3, passed),
        )
    }

    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn solve_3_node(&mut self, p: u64, o: u64, alpha: i32, beta: i32, x1: u32, x2: u32, x3: u32, passed: bool) -> i32 {
        self.nodes += 1;
        // Written out move by move: a loop over (square, rest) tuples went through the stack.
        let mut window = Window { best: -65, alpha, beta };
        if self.solve_3_move(p, o, &mut window, x1, x2, x3)
            || self.solve_3_move(p, o, &mut window, x2, x1, x3)
            || self.solve_3_move(p, o, &mut window, x3, x1, x2)
        {
            return window.best;
        }
        if window.best == -65 {
            if passed {
                return final_score(p, o);
            }
            return -self.solve_3(o, p, -beta, -alpha, x1, x2, x3, true);
        }
        window.best
    }

    /// Plays `x` (if legal) in a 3-empty board and solves the rest `a`, `b`; says whether it cut off.
    #[inline(always)]
    fn solve_3_move(&mut self, p: u64, o: u64, window: &mut Window, x: u32, a: u32, b: u32) -> bool {
        if NEIGHBOURS[x as usize] & o == 0 {
            return false;
        }
        let f = movegen::flips_at::<I>(p, o, x as usize);
        if f == 0 {
            return false;
        }
        let v = -self.solve_2(o ^ f, p ^ f ^ (1u64 << x), -window.beta, -window.alpha, a, b);
        window.update(v)
    }

    /// Two empties. Inlined into `solve_3`; the rare pass goes out of line, so that nothing recurses.
    #[inline(always)]
    fn solve_2(&mut self, p: u64, o: u64, alpha: i32, beta: i32, x1: u32, x2: u32) -> i32 {
        self.nodes += 1;
        let best = self.solve_2_moves(p, o, beta, x1, x2);
        if best == -65 {
            return -self.solve_2_passed(o, p, -alpha, x1, x2);
        }
        best
    }

    /// Two empties after a pass, out of line (in a trampoline of its own).
    #[inline(always)]
    fn solve_2_passed(&mut self, p: u64, o: u64, beta: i32, x1: u32, x2: u32) -> i32 {
        I::run(
            #[inline(always)]
            move || self.solve_2_passed_node(p, o, beta, x1, x2),
        )
    }

    #[inline(always)]
    fn solve_2_passed_node(&mut self, p: u64, o: u64, beta: i32, x1: u32, x2: u32) -> i32 {
        self.nodes += 1;
        let best = self.solve_2_moves(p, o, beta, x1, x2);
        if best == -65 {
            return final_score(p, o);
        }
        best
    }

    /// The best score of `p`'s moves on `x1` then `x2` (-65 if it has none), stopping at `beta`.
    #[inline(always)]
    fn solve_2_moves(&mut self, p: u64, o: u64, beta: i32, x1: u32, x2: u32) -> i32 {
        let mut best = -65;
        let f = if NEIGHBOURS[x1 as usize] & o != 0 { movegen::flips_at::<I>(p, o, x1 as usize) } else { 0 };
        if f != 0 {
            best = -self.solve_1(o ^ f, x2);
            if best >= beta {
                return best;
            }
        }
        let f = if NEIGHBOURS[x2 as usize] & o != 0 { movegen::flips_at::<I>(p, o, x2 as usize) } else { 0 };
        if f != 0 {
            best = best.max(-self.solve_1(o ^ f, x1));
        }
        best
    }

    /// One empty square `x`: only the number of flips matters.
    #[inline(always)]
    fn solve_1(&mut self, p: u64, x: u32) -> i32 {
        self.nodes += 1;
        last::score_1::<I>(p, x)
    }
}
