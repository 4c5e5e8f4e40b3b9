//! The midgame search behind the API (`super::api`): iterative deepening with aspiration windows over a principal variation search
//! (negascout) whose PV and null-window nodes are specialised at compile time, a transposition
//! table kept across the moves of a game, and move ordering from `ordering`.

use super::api::{exact_empties, solve_empties, Control, Info, Limits, Observer, Outcome, SearchResult, StopReason};
use super::endgame;
use super::ordering::{Features, MoveList, Scored, EVAL_ORDER_DEPTH};
use super::probcut::{self, Selectivity};
use super::timeman::{self, Deadlines};
use super::tt::{Table, EXACT, NO_MOVE};
use crate::cpu::Isa;
use crate::eval::learned::{Patterns, Weights};
use crate::eval::Evaluator;
use crate::rules::board::{Board, Move};
use crate::rules::masks::{CORNERS, C_SQUARES, X_SQUARES};
use crate::rules::square::{Square, Squares};
use std::marker::PhantomData;
use std::time::{Duration, Instant};

/// Relays a search of the position after a forced pass at the root, seen from the passing side.
struct Passed<'a>(&'a mut dyn Observer);

impl Observer for Passed<'_> {
    fn poll(&mut self) -> Control {
        self.0.poll()
    }

    fn info(&mut self, info: &Info) {
        let mut pv = Vec::with_capacity(info.pv.len() + 1);
        pv.push(Move::Pass);
        pv.extend_from_slice(&info.pv);
        self.0.info(&Info { score: -info.score, outcome: info.outcome.map(Outcome::flip), pv, ..info.clone() });
    }
}

/// Whether `mv` is a move (not a pass) of a board that has moves.
fn is_move(board: &Board, mv: Move) -> bool {
    matches!(mv, Move::Play(sq) if board.moves() & sq.bit() != 0)
}

/// Stops the endgame solver at the hard deadline as well as when the caller says so, and says which.
struct Guarded<'a> {
    inner: &'a mut dyn Observer,
    deadline: Option<Instant>,
    stop: Option<StopReason>,
}

impl Observer for Guarded<'_> {
    fn poll(&mut self) -> Control {
        if self.deadline.is_some_and(|d| Instant::now() >= d) {
            self.stop = Some(StopReason::Time);
            return Control::Stop;
        }
        let control = self.inner.poll();
        if control == Control::Stop {
            self.stop = Some(StopReason::Stopped);
        }
        control
    }
}

/// The most empties the solver is given for a search whose hard deadline is `budget` away. The
/// solver does about 20 M nodes/s and each further empty costs it roughly 1.6 to 2 times as many nodes
/// (FFO #20-#39, 15-26 empties, take 0.36 s each on average; 22 empties about 1 s, 24 empties 3.5 s to
/// 14 s); a solve that runs out of time is stopped and the shallow search's move played, so the
/// limits stay on the safe side.
fn solvable_empties(budget: Duration) -> u32 {
    match budget.as_millis() {
        0..=9 => 10,
        10..=99 => 15,
        100..=999 => 18,
        1000..=9999 => 21,
        _ => 24,
    }
}

/// A timed search switches from midgame iterations to the solver's passes at rising selectivity
/// (`endgame::solve_at`) when the next midgame depth would come within this many plies of the end.
const ENDGAME_GAP: u32 = 8;

/// Empties up to which `go infinite` is answered by the solver.
const SOLVER_EMPTIES_UNTIMED: u32 = 24;
/// Depth of the midgame search done before a solve, as the answer if the solve is stopped.
const FALLBACK_DEPTH: u32 = 4;

/// Nodes between two looks at the clock, the node limit and the observer: a fraction of a
/// millisecond at midgame speed, so the hard deadline is overshot by well under a millisecond.
pub const POLL_INTERVAL: u64 = 512;
/// Above any score: scores are disc differences in -64..=64.
const INF: i32 = 65;
/// Deepest ply: 60 moves and at most as many passes between them.
const MAX_PLY: usize = 128;
/// Half-width of the first aspiration window around the previous iteration's score, in discs.
const ASPIRATION_WINDOW: i32 = 3;
/// Iterations from this depth on start with an aspiration window.
const ASPIRATION_MIN_DEPTH: u32 = 4;
/// Move classes in the order [`Searcher::depth_one`] tries them: corners, the inner squares and
/// the edges but C-squares, C-squares, X-squares.
const STATIC_ORDER: [u64; 4] = [CORNERS, !(CORNERS | C_SQUARES | X_SQUARES), C_SQUARES, X_SQUARES];
/// The pv code of a pass.
const PASS: u8 = 64;
/// A node deeper than this starts loading its children's table buckets into the cache once it has
/// keyed their moves, before it searches the first (a child at depth 1 does not probe the table):
/// 4-6% less CPU for the same tree (docs/speed.md, "Bench figures, newest first").
const PREFETCH_ABOVE: u32 = 2;
/// Late move reductions, in the searches that run at [`LONG_SELECTIVITY`] ([`Worker::reduce`]): at a
/// null-window node with at least `REDUCE_FROM_DEPTH` plies to go, each move after the first
/// `FULL_DEPTH_MOVES` (the table move counted) is searched `REDUCTION` plies shallower first, and
/// again at full depth only when that search fails high. Two plies keep the depth's parity, across
/// which the evaluation swings. The bench positions at 73%: 23.9 M nodes to depth 18 against 34.0 M
/// (docs/research-log.md, "Late move reductions (shipped for searches at 73%)").
const REDUCE_FROM_DEPTH: u32 = 5;
const FULL_DEPTH_MOVES: usize = 3;
const REDUCTION: u32 = 2;

/// A position as the midgame search walks it: the board and the values of its pattern copies, which
/// the learnt evaluation reads, updated together move by move.
#[derive(Clone, Copy)]
struct Node {
    board: Board,
    patterns: Patterns,
}

impl Node {
    fn new(board: &Board) -> Node {
        Node { board: *board, patterns: Patterns::new(board.player, board.opponent) }
    }

    /// The position after the side to move plays `sq`, turning `flips`.
    #[inline(always)]
    fn play(&self, sq: Square, flips: u64) -> Node {
        Node { board: self.board.play_flips(sq, flips), patterns: self.patterns.play(sq.index(), flips) }
    }

    #[inline(always)]
    fn pass(&self) -> Node {
        Node { board: self.board.pass(), patterns: self.patterns.pass() }
    }
}

/// Owns what survives between searches of one game: the transposition table (the midgame search's
/// and the endgame solver's), the evaluation and the ordering features. Each search runs in a fresh
/// `Worker`.
pub struct Searcher {
    tt: Table,
    evaluator: Evaluator,
    features: Features,
    /// A level set for every search, or `None`: the default of each kind of search.
    selectivity: Option<Selectivity>,
}

/// The selectivity of a depth-limited search unless set otherwise: a level of `go depth N` is N plies
/// at 87%. At depth 8 it scored 54.2% against ntest depth 8 (73%: 51.2%) in 0.87 of ntest's time a
/// move, and at depth 12 55.4% against ntest depth 12 in 0.96 of its time (docs/research-log.md, "Selectivity at a fixed depth").
pub const DEPTH_SELECTIVITY: Selectivity = Selectivity::level(87);
/// The selectivity of a search limited by nodes, or by less time than [`LONG_SEARCH`], unless set
/// otherwise: at equal time, more plies beat surer ones in short searches (at 50 ms a move, 87%
/// against 73%: -34.9 Elo [-61.2, -8.9], 560 games; 58% against 73%: +26.7 Elo [+1.5, +52.2], 600
/// games; at 100 ms, level).
pub const TIMED_SELECTIVITY: Selectivity = Selectivity::MOST;
/// The selectivity of a search given at least [`LONG_SEARCH`] unless set otherwise: deeper searches
/// cross more cut nodes, and surer cuts pay (at 400 ms a move, 73% against 58%: +22.9 Elo [+2.1,
/// +43.9], an SPRT accepted after 804 games; docs/research-log.md, "Selectivity by the time a move"), but
/// no surer: at 1 s a move 87% lost to it (-87.4 Elo [-139.3, -39.0], an SPRT rejected after 138
/// games; docs/research-log.md, "87% at a second a move").
pub const LONG_SELECTIVITY: Selectivity = Selectivity::level(73);
/// The time to the soft deadline (a game clock's share, or a fixed time a move less its margin:
/// `go time 150` and longer) from which a search runs at [`LONG_SELECTIVITY`].
pub const LONG_SEARCH: Duration = Duration::from_millis(150).saturating_sub(timeman::MOVE_TIME_MARGIN_MAX);

/// Whether a search with these deadlines is long enough for [`LONG_SELECTIVITY`] and late move
/// reductions (untimed searches are not).
fn is_long(deadlines: Option<&Deadlines>) -> bool {
    deadlines.is_some_and(|d| d.soft.saturating_duration_since(d.start) >= LONG_SEARCH)
}

impl Searcher {
    /// A searcher with a transposition table of about `hash_mb` megabytes.
    pub fn new(hash_mb: usize) -> Searcher {
        // The solver's stability table is built now, so that the first timed search does not pay.
        crate::rules::stability::init();
        Searcher {
            tt: Table::new(hash_mb),
            evaluator: Evaluator::default(),
            features: Features::ALL,
            selectivity: None,
        }
    }

    /// Resizes the transposition table (clearing it).
    pub fn set_hash_mb(&mut self, hash_mb: usize) {
        self.tt = Table::new(hash_mb);
    }

    /// Forgets everything learnt in the previous game.
    pub fn new_game(&mut self) {
        self.tt.clear();
    }

    /// The evaluation the search calls at its leaves.
    pub fn evaluator(&self) -> &Evaluator {
        &self.evaluator
    }

    /// Changes the evaluation of the searches from now on (the table is kept: its entries stay
    /// usable as move hints, and a new game clears it).
    pub fn set_evaluator(&mut self, evaluator: Evaluator) {
        self.evaluator = evaluator;
    }

    /// Turns move-ordering features on or off (all on by default): for measuring what each buys.
    pub fn set_ordering(&mut self, features: Features) {
        self.features = features;
    }

    /// The Multi-ProbCut level of a midgame search within `limits` (`Selectivity::EXACT`: none),
    /// given its deadlines when it is timed.
    fn selectivity(&self, limits: &Limits, deadlines: Option<&Deadlines>) -> Selectivity {
        self.selectivity.unwrap_or(match (limits, deadlines) {
            (Limits::Depth(_), _) => DEPTH_SELECTIVITY,
            (_, d) if is_long(d) => LONG_SELECTIVITY,
            _ => TIMED_SELECTIVITY,
        })
    }

    /// Sets the Multi-ProbCut level of every midgame search from now on, or (`None`) goes back to
    /// each kind's default ([`DEPTH_SELECTIVITY`], [`TIMED_SELECTIVITY`]).
    pub fn set_selectivity(&mut self, selectivity: Option<Selectivity>) {
        self.selectivity = selectivity;
    }

    /// The best move the transposition table holds for `board`, if any: a hint, always legal.
    pub fn table_move(&self, board: &Board) -> Option<Move> {
        let e = self.tt.probe_board(board)?;
        (e.best < 64 && board.moves() & (1u64 << e.best) != 0).then(|| Move::Play(Square::from_index(e.best as u32)))
    }

    /// The score of `board` at each depth from 0 (its evaluation) to `max_depth` (at most its
    /// empties): iterative deepening at `selectivity` (`Selectivity::EXACT`: full width, nothing
    /// pruned unsoundly) with no hand-over to the solver, on a cleared table, so the scores depend on
    /// the board alone. The data Multi-ProbCut's statistics are fitted on (`ebony-train
    /// probcut-data`).
    pub fn depth_scores(&mut self, board: &Board, max_depth: u32, selectivity: Selectivity) -> Vec<i32> {
        struct Collect(Vec<i32>);
        impl Observer for Collect {
            fn info(&mut self, info: &Info) {
                self.0.push(info.score);
            }
        }
        self.tt.clear();
        let mut collect = Collect(vec![self.evaluator.evaluate(board)]);
        let max_depth = max_depth.min(board.empty_count());
        if board.moves() != 0 && max_depth > 0 {
            crate::dispatch!(I => {
                let mut worker =
                    Worker::<I>::new(&mut self.tt, &self.evaluator, &self.features, selectivity, &mut collect, None);
                worker.iterate(board, max_depth, Instant::now(), None);
            });
        }
        collect.0
    }

    /// The moves of `board` that a search of `depth` plies scores within `margin` discs of the
    /// best, in square order, and the best score: the self-play's near-best opening moves
    /// (`ebony-train gen --opening-margin`). One search finds the best score, then a null-window
    /// search of each other move asks only whether it reaches the best less `margin`, which costs
    /// less than scoring each move. The midgame search alone, at the selectivity of a depth-limited
    /// search (no hand-over to the solver); `board` must have a legal move.
    pub fn near_best(&mut self, board: &Board, depth: u32, margin: i32) -> (Vec<Move>, i32) {
        crate::dispatch!(I => self.near_best_with::<I>(board, depth, margin))
    }

    fn near_best_with<I: Isa>(&mut self, board: &Board, depth: u32, margin: i32) -> (Vec<Move>, i32) {
        assert!(board.moves() != 0, "near_best needs a position with a legal move");
        self.tt.new_search();
        let selectivity = self.selectivity(&Limits::Depth(depth), None);
        let depth = depth.clamp(1, board.empty_count());
        let mut silent = super::api::Silent;
        let mut worker =
            Worker::<I>::new(&mut self.tt, &self.evaluator, &self.features, selectivity, &mut silent, None);
        let result = worker.iterate(board, depth, Instant::now(), None);
        let bound = result.score - margin;
        let node = Node::new(board);
        let near = Squares(board.moves())
            .filter(|&sq| {
                Move::Play(sq) == result.best || {
                    let child = node.play(sq, board.flips(sq));
                    -worker.pvs::<false>(&child, depth - 1, -bound, -bound + 1, 1) >= bound
                }
            })
            .map(Move::Play)
            .collect();
        (near, result.score)
    }

    /// Searches `board` within `limits`, reporting progress to `observer`.
    pub fn search(&mut self, board: &Board, limits: &Limits, observer: &mut dyn Observer) -> SearchResult {
        crate::dispatch!(I => self.search_with::<I>(board, limits, observer))
    }

    /// [`Self::search`] at the instruction-set level `I`.
    fn search_with<I: Isa>(&mut self, board: &Board, limits: &Limits, observer: &mut dyn Observer) -> SearchResult {
        let start = Instant::now();
        self.tt.new_search();
        let empties = board.empty_count();
        let mut deadlines = None;
        let mut node_limit = None;
        let max_depth = match *limits {
            Limits::Depth(d) => d.clamp(1, empties.max(1)),
            Limits::Nodes(n) => {
                node_limit = Some(n);
                empties
            }
            Limits::MoveTime(t) => {
                deadlines = Some(timeman::move_time(start, t));
                empties
            }
            Limits::Clock { time_left, increment, moves_to_go } => {
                deadlines = Some(timeman::clock(start, time_left, increment, moves_to_go, empties));
                empties
            }
            Limits::Infinite => empties,
        };

        if board.moves() == 0 {
            if board.is_game_over() {
                return SearchResult {
                    best: Move::Pass,
                    score: board.final_score(),
                    exact: true,
                    outcome: None,
                    depth: 0,
                    selectivity: Selectivity::EXACT,
                    nodes: 0,
                    elapsed: start.elapsed(),
                    pv: Vec::new(),
                    stop: StopReason::Solved,
                };
            }
            // The only move is a pass: search the opponent's position and see it from this side.
            let mut passed = Passed(observer);
            let mut result = self.search(&board.pass(), limits, &mut passed);
            result.best = Move::Pass;
            result.score = -result.score;
            result.outcome = result.outcome.map(Outcome::flip);
            result.pv.insert(0, Move::Pass);
            return result;
        }
        let hard_deadline = deadlines.map(|d| d.hard);
        let solve = hand_over(empties, limits, start, deadlines.as_ref());
        let selectivity = self.selectivity(limits, deadlines.as_ref());
        let mut worker =
            Worker::<I>::new(&mut self.tt, &self.evaluator, &self.features, selectivity, observer, node_limit);
        worker.reduce = !selectivity.is_exact() && is_long(deadlines.as_ref());
        let Some(solve) = solve else {
            worker.hard_deadline = hard_deadline;
            // A timed search ends with the solver's selective passes once near enough the end.
            worker.end_passes = matches!(limits, Limits::MoveTime(_) | Limits::Clock { .. } | Limits::Infinite);
            return worker.iterate(board, max_depth, start, deadlines.as_ref());
        };
        // A midgame search first gives the answer should the solver be stopped (by the hard deadline
        // or the observer), and the move and estimate of a proven loss or win.
        let first_depth = match solve {
            Solve::At(_) => FALLBACK_DEPTH,
            Solve::WinLossDraw => max_depth.min(WLD_ESTIMATE_DEPTH),
        };
        let mut result = worker.iterate(board, first_depth.min(empties.saturating_sub(1)).max(1), start, None);
        if worker.stop.is_some() {
            return result;
        }
        worker.tt.set_level(EXACT);
        let mut guarded = Guarded { inner: &mut *worker.observer, deadline: hard_deadline, stop: None };
        let solution = solve.run(worker.tt, board, None, worker.evaluator.weights(), &mut guarded);
        result.nodes += solution.nodes;
        result.elapsed = start.elapsed();
        if solution.aborted {
            result.stop = guarded.stop.unwrap_or(StopReason::Stopped);
            return result;
        }
        debug_assert!(is_move(board, solution.best), "solver answered {:?}", solution.best);
        result.depth = empties;
        result.stop = StopReason::Solved;
        Worker::<I>::prove(&mut result, solve, &solution);
        worker.report(&result);
        result
    }
}

/// What the solver is asked: when it takes over from the midgame search, and in each of the passes
/// at the end of a timed search.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Solve {
    /// The score at a selectivity: the exact score at `Selectivity::EXACT`.
    At(Selectivity),
    /// Only who wins (a null-window search around 0).
    WinLossDraw,
}

impl Solve {
    /// Runs this solve of `board` from a first `guess` of the score; without one, an exact solve
    /// makes its own (a selective pre-search).
    fn run(
        self,
        table: &mut Table,
        board: &Board,
        guess: Option<i32>,
        weights: &'static Weights,
        observer: &mut dyn Observer,
    ) -> endgame::Solution {
        match (self, guess) {
            (Solve::WinLossDraw, _) => endgame::solve(table, board, -1, 1, weights, observer),
            (Solve::At(level), None) if level.is_exact() => endgame::solve(table, board, -64, 64, weights, observer),
            (Solve::At(level), guess) => endgame::solve_at(table, board, level, guess.unwrap_or(0), weights, observer),
        }
    }
}

/// The depth of the midgame search before a win/loss/draw solve (at most the level's): its move is
/// played, and its score given, when the solve proves a loss.
const WLD_ESTIMATE_DEPTH: u32 = 8;

/// THE handover point to the endgame solver: whether it, rather than the midgame search, answers,
/// and what it is asked. Under a depth limit from the level's [`solve_empties`] on, exactly from
/// its [`exact_empties`]; under a time limit exactly, when the empties are few enough for the
/// solver to finish (it is also stopped at the hard deadline, falling back on a shallow midgame
/// search). Never under a node limit, so that node-limited searches stay comparable.
fn hand_over(empties: u32, limits: &Limits, start: Instant, deadlines: Option<&Deadlines>) -> Option<Solve> {
    let exact = match *limits {
        Limits::Depth(d) if empties <= exact_empties(d) => true,
        Limits::Depth(d) => return (empties <= solve_empties(d)).then_some(Solve::WinLossDraw),
        Limits::Nodes(_) => false,
        Limits::Infinite => empties <= SOLVER_EMPTIES_UNTIMED,
        Limits::MoveTime(_) | Limits::Clock { .. } => {
            deadlines.is_some_and(|d| empties <= solvable_empties(d.hard.saturating_duration_since(start)))
        }
    };
    exact.then_some(Solve::At(Selectivity::EXACT))
}

/// One search: its limits, counters, stop reason and PV buffers, over the searcher's table. Made
/// fresh for every search, so nothing of a search is reset by hand for the next.
struct Worker<'a, I: Isa> {
    tt: &'a mut Table,
    evaluator: &'a Evaluator,
    features: &'a Features,
    selectivity: Selectivity,
    /// Multi-ProbCut's threshold in standard deviations (infinite: no cuts).
    t: f64,
    /// Whether late moves are searched shallower first ([`REDUCTION`]).
    reduce: bool,
    observer: &'a mut dyn Observer,
    nodes: u64,
    next_poll: u64,
    /// Set when the search must unwind, with the reason.
    stop: Option<StopReason>,
    hard_deadline: Option<Instant>,
    node_limit: Option<u64>,
    /// After the midgame iterations, solve selectively at rising levels (see [`ENDGAME_GAP`]).
    end_passes: bool,
    /// The score of a root move that an iteration cut short proved better than the previous best
    /// (moved to the front of the root list).
    partial: Option<i32>,
    pv: Box<[[u8; MAX_PLY]; MAX_PLY]>,
    pv_len: [usize; MAX_PLY],
    /// The instruction-set level every node runs at (`crate::cpu`).
    isa: PhantomData<I>,
}

impl<'a, I: Isa> Worker<'a, I> {
    fn new(
        tt: &'a mut Table,
        evaluator: &'a Evaluator,
        features: &'a Features,
        selectivity: Selectivity,
        observer: &'a mut dyn Observer,
        node_limit: Option<u64>,
    ) -> Worker<'a, I> {
        tt.set_level(selectivity.table_level());
        Worker {
            tt,
            evaluator,
            features,
            selectivity,
            t: selectivity.t(),
            reduce: false,
            observer,
            nodes: 0,
            next_poll: node_limit.map_or(POLL_INTERVAL, |n| n.min(POLL_INTERVAL)),
            stop: None,
            hard_deadline: None,
            node_limit,
            end_passes: false,
            partial: None,
            pv: Box::new([[0; MAX_PLY]; MAX_PLY]),
            pv_len: [0; MAX_PLY],
            isa: PhantomData,
        }
    }

    /// Iterative deepening from depth 1 to `max_depth`, within the deadlines if any.
    fn iterate(
        &mut self,
        board: &Board,
        max_depth: u32,
        start: Instant,
        deadlines: Option<&Deadlines>,
    ) -> SearchResult {
        let empties = board.empty_count();
        let node = Node::new(board);
        let tt_move = self.tt.probe_board(board).map_or(NO_MOVE, |e| e.best);
        let mut root: Vec<Scored> = MoveList::new::<I>(
            board,
            board.moves(),
            tt_move,
            self.features,
            self.features.evaluation.then(|| self.evaluator.weights().children(&node.patterns, empties)),
        )
        .collect();
        let mut result = SearchResult {
            best: Move::Play(root[0].sq),
            score: 0,
            exact: false,
            outcome: None,
            depth: 0,
            selectivity: self.selectivity,
            nodes: 0,
            elapsed: Duration::ZERO,
            pv: vec![Move::Play(root[0].sq)],
            stop: StopReason::Depth,
        };
        let mut last_iteration = Duration::ZERO;
        let mut growth = timeman::DEFAULT_GROWTH;
        let mut pace = timeman::Pace::new();
        for depth in 1..=max_depth {
            if self.end_passes && depth > 1 && depth + ENDGAME_GAP >= empties {
                return self.end_passes(board, result, start, deadlines, last_iteration);
            }
            let iteration_start = Instant::now();
            let score = if depth >= ASPIRATION_MIN_DEPTH && result.depth > 0 {
                self.aspiration(&node, depth, result.score, &mut root)
            } else {
                self.root(&node, depth, -INF, INF, &mut root)
            };
            if let Some(stop) = self.stop {
                result.stop = stop;
                if let Some(score) = self.partial.take() {
                    // The cut iteration had proven another move better than the last best: take it.
                    result.best = Move::Play(root[0].sq);
                    result.score = score;
                    result.pv = self.root_pv();
                }
                break;
            }
            let took = iteration_start.elapsed();
            if last_iteration > Duration::from_micros(200) {
                growth = took.as_secs_f64() / last_iteration.as_secs_f64();
            }
            last_iteration = took;
            result.best = Move::Play(root[0].sq);
            result.score = score;
            result.depth = depth;
            result.exact = depth >= empties && self.selectivity.is_exact();
            result.selectivity = self.selectivity;
            result.stop = if result.exact { StopReason::Solved } else { StopReason::Depth };
            result.pv = self.root_pv();
            result.nodes = self.nodes;
            result.elapsed = start.elapsed();
            self.report(&result);
            pace.update(depth, root[0].sq.index() as u8, score);
            if let Some(d) = deadlines {
                if depth < max_depth && !timeman::start_next(&pace.apply(d), Instant::now(), took, growth) {
                    result.stop = StopReason::Time;
                    break;
                }
            }
        }
        result.nodes = self.nodes;
        result.elapsed = start.elapsed();
        result
    }

    /// The solver's passes at the worker's selectivity and then each surer level, then a
    /// win/loss/draw solve and the exact one, each from the last score, as long as time allows: a
    /// game move found fast near the end, then proven. `result` is the midgame's answer so far,
    /// kept if the first pass is cut.
    fn end_passes(
        &mut self,
        board: &Board,
        mut result: SearchResult,
        start: Instant,
        deadlines: Option<&Deadlines>,
        mut last_pass: Duration,
    ) -> SearchResult {
        let empties = board.empty_count();
        let mut passes: Vec<Solve> = std::iter::successors(Some(self.selectivity), |s| s.surer())
            .filter(|s| !s.is_exact())
            .map(Solve::At)
            .collect();
        passes.extend([Solve::WinLossDraw, Solve::At(Selectivity::EXACT)]);
        let mut growth = timeman::DEFAULT_GROWTH;
        for pass in passes {
            if let Some(d) = deadlines {
                if !timeman::start_next(d, Instant::now(), last_pass, growth) {
                    result.stop = StopReason::Time;
                    break;
                }
            }
            let pass_start = Instant::now();
            let mut guarded = Guarded { inner: &mut *self.observer, deadline: self.hard_deadline, stop: None };
            let solution = pass.run(self.tt, board, Some(result.score), self.evaluator.weights(), &mut guarded);
            self.nodes += solution.nodes;
            if solution.aborted {
                result.stop = guarded.stop.unwrap_or(StopReason::Stopped);
                break;
            }
            let took = pass_start.elapsed();
            if last_pass > Duration::from_micros(200) {
                growth = took.as_secs_f64() / last_pass.as_secs_f64();
            }
            last_pass = took;
            debug_assert!(is_move(board, solution.best), "solver answered {:?}", solution.best);
            result.depth = empties;
            result.nodes = self.nodes;
            result.elapsed = start.elapsed();
            Self::prove(&mut result, pass, &solution);
            result.stop = if result.exact { StopReason::Solved } else { StopReason::Depth };
            self.report(&result);
            if result.exact {
                break;
            }
        }
        result.nodes = self.nodes;
        result.elapsed = start.elapsed();
        result
    }

    /// Takes the score and move of a `solve` into `result`. A solve at a selectivity gives both
    /// (exact at `Selectivity::EXACT`). A win/loss/draw solve proves a draw, exactly; a win, with
    /// its move, the estimate raised to the proven bound if below it; or a loss, where it says
    /// nothing of which move is best: the estimate's move stays, lowered to the bound if above.
    /// The solver's line comes with its move.
    fn prove(result: &mut SearchResult, solve: Solve, solution: &endgame::Solution) {
        let score = solution.score;
        let (level, outcome) = match solve {
            Solve::At(level) => (level, None),
            Solve::WinLossDraw => (Selectivity::EXACT, Outcome::of(score)),
        };
        result.selectivity = level;
        result.outcome = outcome;
        result.exact = level.is_exact() && outcome.is_none();
        match outcome {
            Some(Outcome::Loss) => result.score = result.score.min(score),
            Some(Outcome::Win) => result.score = result.score.max(score),
            None => result.score = score,
        }
        if outcome != Some(Outcome::Loss) {
            result.best = solution.best;
            result.pv = solution.pv.clone();
        }
    }

    /// Tells the observer of `result`, just completed.
    fn report(&mut self, result: &SearchResult) {
        self.observer.info(&Info {
            depth: result.depth,
            score: result.score,
            exact: result.exact,
            outcome: result.outcome,
            selectivity: result.selectivity,
            nodes: result.nodes,
            elapsed: result.elapsed,
            pv: result.pv.clone(),
        });
    }

    /// Re-searches with wider windows until the score falls inside.
    fn aspiration(&mut self, node: &Node, depth: u32, guess: i32, root: &mut [Scored]) -> i32 {
        let mut delta = ASPIRATION_WINDOW;
        let mut alpha = (guess - delta).max(-INF);
        let mut beta = (guess + delta).min(INF);
        loop {
            let score = self.root(node, depth, alpha, beta, root);
            if self.stop.is_some() {
                return score;
            }
            delta *= 2;
            if score <= alpha && alpha > -INF {
                alpha = if score - delta <= -64 { -INF } else { score - delta };
            } else if score >= beta && beta < INF {
                beta = if score + delta >= 64 { INF } else { score + delta };
            } else {
                return score;
            }
        }
    }

    /// The root of one iteration: PVS over `root`, whose best move is moved to the front.
    fn root(&mut self, node: &Node, depth: u32, mut alpha: i32, beta: i32, root: &mut [Scored]) -> i32 {
        self.nodes += 1;
        self.pv_len[0] = 0;
        let alpha0 = alpha;
        let mut best = -INF;
        let mut best_index = 0;
        for (i, m) in root.iter().enumerate() {
            let child = node.play(m.sq, m.flips);
            let mut full = i == 0;
            let mut score = 0;
            if !full {
                score = -self.pvs::<false>(&child, depth - 1, -alpha - 1, -alpha, 1);
                full = score > alpha && score < beta;
            }
            if full {
                score = -self.pvs::<true>(&child, depth - 1, -beta, -alpha, 1);
            }
            if self.stop.is_some() {
                // Cut by time: a move searched in full and found better than the first (whose score
                // was inside the window) is better than the last iteration's choice.
                if best_index != 0 && best > alpha0 {
                    root[..=best_index].rotate_right(1);
                    self.partial = Some(best);
                }
                return best;
            }
            if score > best {
                best = score;
                best_index = i;
                self.set_pv(0, m.sq.index() as u8, full);
                if score > alpha {
                    alpha = score;
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        root[..=best_index].rotate_right(1);
        self.tt.store_result(&node.board, depth, alpha0, beta, best, root[0].sq.index() as u8);
        best
    }

    /// The principal variation of the last completed root search.
    fn root_pv(&self) -> Vec<Move> {
        self.pv[0][..self.pv_len[0]]
            .iter()
            .map(|&c| if c == PASS { Move::Pass } else { Move::Play(Square::from_index(c as u32)) })
            .collect()
    }

    /// The pv at `ply` becomes `mv` followed by the child's pv when the child was a PV node.
    #[inline]
    fn set_pv(&mut self, ply: usize, mv: u8, child_is_pv: bool) {
        self.pv[ply][0] = mv;
        let tail = if child_is_pv && ply + 1 < MAX_PLY { self.pv_len[ply + 1].min(MAX_PLY - 1) } else { 0 };
        if tail > 0 {
            let (head, rest) = self.pv.split_at_mut(ply + 1);
            head[ply][1..=tail].copy_from_slice(&rest[0][..tail]);
        }
        self.pv_len[ply] = tail + 1;
    }

    /// The evaluation at a leaf, out of line as a function of its own compiled for `I` (as the move
    /// list and the table store below): inlined at every leaf it would swell the node's code.
    #[inline(always)]
    fn evaluate(&self, board: &Board, patterns: &Patterns, moves: u64) -> i32 {
        I::run(
            #[inline(always)]
            move || self.evaluator.evaluate_patterns(board, patterns, moves),
        )
    }

    /// [`Table::store_result`], out of line (see [`Self::evaluate`]).
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn store(&mut self, board: &Board, depth: u32, alpha: i32, beta: i32, score: i32, best: u8) {
        I::run(
            #[inline(always)]
            move || self.tt.store_result(board, depth, alpha, beta, score, best),
        )
    }

    /// A null-window node one ply above the leaves: the table and the ordering cost more than they
    /// save here, so the moves go in a static order (corners first, X-squares last) and each child
    /// is scored in place.
    #[inline(always)]
    fn depth_one(&mut self, node: &Node, moves: u64, beta: i32) -> i32 {
        I::run(
            #[inline(always)]
            move || self.depth_one_node(node, moves, beta),
        )
    }

    #[inline(always)]
    fn depth_one_node(&mut self, node: &Node, moves: u64, beta: i32) -> i32 {
        let evaluator = self.evaluator;
        let children = I::run(
            #[inline(always)]
            move || evaluator.children(&node.board, &node.patterns),
        );
        let mut best = -INF;
        for class in STATIC_ORDER {
            let mut rest = moves & class;
            while rest != 0 {
                let sq = Square::first(rest);
                rest &= rest - 1;
                let flips = node.board.flips_at::<I>(sq);
                let child = node.board.play_flips(sq, flips);
                let replies = child.moves();
                let score = if replies != 0 {
                    self.nodes += 1;
                    -children.evaluate(&child, sq.index(), flips, replies)
                } else {
                    -self.leaf(&node.play(sq, flips))
                };
                if score > best {
                    best = score;
                    if score >= beta {
                        return best;
                    }
                }
            }
        }
        best
    }

    /// A node at depth 0: the evaluation, or the final score, after a forced pass if need be.
    #[inline(always)]
    fn leaf(&mut self, node: &Node) -> i32 {
        self.nodes += 1;
        let board = &node.board;
        let moves = board.moves();
        if moves != 0 {
            return self.evaluate(board, &node.patterns, moves);
        }
        let passed = node.pass();
        let replies = passed.board.moves();
        if replies == 0 {
            return board.final_score();
        }
        self.nodes += 1;
        -self.evaluate(&passed.board, &passed.patterns, replies)
    }

    #[cold]
    fn poll(&mut self) {
        self.next_poll = self.nodes + POLL_INTERVAL;
        if let Some(limit) = self.node_limit {
            self.next_poll = self.next_poll.min(limit);
            if self.nodes >= limit {
                self.stop = Some(StopReason::Nodes);
            }
        }
        if self.hard_deadline.is_some_and(|d| Instant::now() >= d) {
            self.stop = Some(StopReason::Time);
        } else if self.observer.poll() == Control::Stop {
            self.stop = Some(StopReason::Stopped);
        }
    }

    /// Multi-ProbCut at a null-window node (`beta - 1`, `beta`): the node's bound when a shallow
    /// search clears the window by the selectivity's margin, else nothing.
    /// A shallow search is only tried when the node's static evaluation makes its cut plausible
    /// ([`probcut::eval_gate`]).
    #[inline]
    fn probcut(&mut self, node: &Node, depth: u32, beta: i32, moves: u64, ply: usize) -> Option<i32> {
        let empties = node.board.empty_count();
        let shallow = probcut::shallow_depth(depth);
        let (high, low) = probcut::cut_bounds(empties, depth, shallow, beta, self.t);
        // Below the gate's threshold (the 58% level) both tests run: no evaluation for it there.
        let (try_high, try_low) = if probcut::is_gated(self.t) {
            let eval = self.evaluate(&node.board, &node.patterns, moves);
            probcut::eval_gate(empties, depth, shallow, beta, self.t, eval)
        } else {
            (true, true)
        };
        if try_high && high <= 64 && self.pvs::<false>(node, shallow, high - 1, high, ply) >= high {
            return Some(beta);
        }
        if try_low && low >= -64 && self.stop.is_none() && self.pvs::<false>(node, shallow, low, low + 1, ply) <= low {
            return Some(beta - 1);
        }
        None
    }

    /// Principal variation search. `PV` nodes have an open window; the others a null window.
    /// Scores are fail-soft. Each node runs compiled for the level `I`.
    #[inline(always)]
    fn pvs<const PV: bool>(&mut self, node: &Node, depth: u32, alpha: i32, beta: i32, ply: usize) -> i32 {
        I::run(
            #[inline(always)]
            move || self.pvs_node::<PV>(node, depth, alpha, beta, ply),
        )
    }

    #[inline(always)]
    fn pvs_node<const PV: bool>(&mut self, node: &Node, depth: u32, mut alpha: i32, beta: i32, ply: usize) -> i32 {
        let board = &node.board;
        self.nodes += 1;
        if self.nodes >= self.next_poll {
            self.poll();
        }
        if self.stop.is_some() {
            return 0;
        }
        if PV {
            self.pv_len[ply] = 0;
        }
        let moves = board.moves();
        if moves == 0 {
            let passed = node.pass();
            if passed.board.moves() == 0 {
                return board.final_score();
            }
            // A pass costs no depth: the game goes on, and two passes in a row end it above.
            let score = -self.pvs::<PV>(&passed, depth, -beta, -alpha, ply + 1);
            if PV {
                self.set_pv(ply, PASS, true);
            }
            return score;
        }
        if depth == 0 {
            return self.evaluate(board, &node.patterns, moves);
        }
        // Deeper than the empties is the same search: capping it shares table entries.
        let depth = depth.min(board.empty_count());
        if !PV && depth == 1 {
            return self.depth_one(node, moves, beta);
        }

        let mut tt_move = NO_MOVE;
        if let Some(e) = self.tt.probe_board(board) {
            if e.best < 64 && moves & (1u64 << e.best) != 0 {
                tt_move = e.best;
            }
            // The solver's exact entries (draft = empties) answer at any depth.
            if !PV && e.draft as u32 >= depth && self.tt.trusted(&e) {
                let (lower, upper) = (e.lower as i32, e.upper as i32);
                if lower >= beta || lower == upper {
                    return lower;
                }
                if upper <= alpha {
                    return upper;
                }
            }
        }

        if !PV && depth >= probcut::MIN_DEPTH && self.t.is_finite() {
            if let Some(bound) = self.probcut(node, depth, beta, moves, ply) {
                return bound;
            }
        }

        let alpha0 = alpha;
        let mut best = -INF;
        let mut best_move = NO_MOVE;
        let mut rest = moves;
        // The table move goes first, before the other moves are keyed: at a cut node it often
        // refutes alone, and keying the rest (each child's replies and evaluation) is then saved.
        if tt_move != NO_MOVE && self.features.tt_move {
            let sq = Square::from_index(tt_move as u32);
            rest &= !sq.bit();
            let (score, full) = self.child::<PV>(node, sq, board.flips_at::<I>(sq), depth, alpha, beta, ply, true, 0);
            if self.stop.is_some() {
                return 0;
            }
            (best, best_move) = (score, tt_move);
            if score > alpha {
                alpha = score;
                if PV {
                    self.set_pv(ply, best_move, full);
                }
            }
            if score >= beta || rest == 0 {
                self.store(board, depth, alpha0, beta, best, best_move);
                return best;
            }
        }
        let (evaluator, features) = (self.evaluator, self.features);
        let list = I::run(
            #[inline(always)]
            move || {
                let ordering = (depth >= EVAL_ORDER_DEPTH && features.evaluation)
                    .then(|| evaluator.weights().children(&node.patterns, board.empty_count()));
                MoveList::new::<I>(board, rest, NO_MOVE, features, ordering)
            },
        );
        if depth > PREFETCH_ABOVE {
            for m in list.pending() {
                let child = board.play_flips(m.sq, m.flips);
                self.tt.prefetch(child.player, child.opponent);
            }
        }
        let mut first = best_move == NO_MOVE;
        let reduces = !PV && self.reduce && depth >= REDUCE_FROM_DEPTH;
        // `searched`: the moves searched before this one, the table move counted.
        for (searched, m) in (usize::from(!first)..).zip(list) {
            let reduction = if reduces && searched >= FULL_DEPTH_MOVES { REDUCTION } else { 0 };
            let (score, full) = self.child::<PV>(node, m.sq, m.flips, depth, alpha, beta, ply, first, reduction);
            first = false;
            if self.stop.is_some() {
                return 0;
            }
            if score > best {
                best = score;
                best_move = m.sq.index() as u8;
                if score > alpha {
                    alpha = score;
                    if PV {
                        self.set_pv(ply, best_move, full);
                    }
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        self.store(board, depth, alpha0, beta, best, best_move);
        best
    }

    /// The score of the move to `sq` at a node of [`Self::pvs`], and whether it was searched with the
    /// full window: the first move of a PV node is; any other move gets a null window first, and at
    /// a PV node the full one when it lands inside the window. A `reduction` (late moves at
    /// null-window nodes, [`REDUCTION`]) makes the null-window search that many plies shallower
    /// first, repeated at full depth only when it fails high.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn child<const PV: bool>(
        &mut self,
        node: &Node,
        sq: Square,
        flips: u64,
        depth: u32,
        alpha: i32,
        beta: i32,
        ply: usize,
        first: bool,
        reduction: u32,
    ) -> (i32, bool) {
        let child = node.play(sq, flips);
        let mut full = PV && first;
        let mut score = 0;
        if !full {
            if reduction > 0 {
                score = -self.pvs::<false>(&child, depth - 1 - reduction, -alpha - 1, -alpha, ply + 1);
                if score <= alpha || self.stop.is_some() {
                    return (score, false);
                }
            }
            score = -self.pvs::<false>(&child, depth - 1, -alpha - 1, -alpha, ply + 1);
            full = PV && score > alpha && score < beta;
        }
        if full {
            score = -self.pvs::<PV>(&child, depth - 1, -beta, -alpha, ply + 1);
        }
        (score, full)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::board::Position;
    use crate::search::api::Silent;

    /// Nodes and best move of a search of `text` to `depth` at 73%, with or without reductions.
    fn search_to(text: &str, depth: u32, reduce: bool) -> (u64, Move, Board) {
        let board = Position::parse(text).expect("a valid position").board;
        let mut tt = Table::new(8);
        let evaluator = Evaluator::default();
        let mut observer = Silent;
        let mut worker = Worker::<crate::cpu::Base>::new(
            &mut tt,
            &evaluator,
            &Features::ALL,
            Selectivity::level(73),
            &mut observer,
            None,
        );
        worker.reduce = reduce;
        let result = worker.iterate(&board, depth, Instant::now(), None);
        (result.nodes, result.best, board)
    }

    #[test]
    fn late_move_reductions_search_fewer_nodes_to_a_depth() {
        let positions = [
            "-------------X---XXXX----XXOX----X-OOO------O--------O---------- O",
            "-----------O-X-----OOX-O-OOOXOX----OXXOX---OO--O---OXX----O----- X",
        ];
        let (mut reduced, mut full) = (0, 0);
        for text in positions {
            let (n, best, board) = search_to(text, 12, true);
            assert!(is_move(&board, best), "{text}: {best:?}");
            reduced += n;
            full += search_to(text, 12, false).0;
        }
        assert!(reduced * 10 < full * 9, "reduced {reduced} nodes, full {full}");
    }

    #[test]
    fn only_long_timed_searches_reduce() {
        let start = Instant::now();
        let long = timeman::move_time(start, Duration::from_millis(1000));
        let short = timeman::move_time(start, Duration::from_millis(100));
        assert!(is_long(Some(&long)));
        assert!(!is_long(Some(&short)));
        assert!(!is_long(None));
    }
}
