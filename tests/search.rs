//! The search as a black box: legal moves everywhere, exact scores equal to a plain minimax, table
//! moves always legal, deterministic node counts, limits and stop obeyed, and `ebony bench`.

use ebony::rules::board::{Board, Move, Position};
use ebony::rules::square::Squares;
use ebony::search::{midgame, Control, Info, Limits, Observer, Outcome, Searcher, Selectivity, Silent, StopReason};
use std::process::Command;
use support::Rng;

mod support;
use std::time::Duration;

/// A random legal move of a non-final position (a pass when there is none).
fn random_move(board: &Board, rng: &mut Rng) -> Board {
    let moves = board.moves();
    if moves == 0 {
        return board.pass();
    }
    let k = rng.below(moves.count_ones() as usize);
    board.play(Squares(moves).nth(k).expect("k is below the move count"))
}

/// A random position with `empties` empty squares that is not over, if the game got that far.
fn random_position(empties: u32, rng: &mut Rng) -> Option<Board> {
    let mut b = Board::START;
    while b.empty_count() > empties {
        if b.is_game_over() {
            return None;
        }
        b = random_move(&b, rng);
    }
    (!b.is_game_over()).then_some(b)
}

/// Plain negamax, no pruning, to `depth` plies with `leaf` scoring the positions there (a pass costs
/// no depth, as in the search): the reference of a full-width search.
fn negamax(b: &Board, depth: u32, leaf: &dyn Fn(&Board) -> i32) -> i32 {
    let moves = b.moves();
    if moves == 0 {
        let passed = b.pass();
        return if passed.moves() == 0 { b.final_score() } else { -negamax(&passed, depth, leaf) };
    }
    if depth == 0 {
        return leaf(b);
    }
    Squares(moves).map(|sq| -negamax(&b.play(sq), depth - 1, leaf)).max().expect("moves is not empty")
}

/// Plain negamax to the end of the game: the reference of exact scores (each move fills a square,
/// so 60 plies always reach the end).
fn minimax(b: &Board) -> i32 {
    negamax(b, 60, &|_| unreachable!("60 plies reach the end of any game"))
}

fn assert_legal(board: &Board, mv: Move) {
    match mv {
        Move::Pass => assert_eq!(board.moves(), 0, "pass with moves on {board:?}"),
        Move::Play(_) => assert!(board.try_play(mv).is_ok(), "{mv:?} illegal on {board:?}"),
    }
}

#[test]
fn exact_scores_equal_minimax_on_small_endgames() {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let mut fresh = Searcher::new(4);
    let mut reused = Searcher::new(1);
    let mut checked = 0;
    while checked < 300 {
        let empties = 1 + rng.below(if checked % 10 == 0 { 10 } else { 9 }) as u32;
        let Some(b) = random_position(empties, &mut rng) else { continue };
        let expected = minimax(&b);
        fresh.new_game();
        let r = fresh.search(&b, &Limits::Depth(empties), &mut Silent);
        assert!(r.exact, "{b:?} {empties} {r:?}");
        assert_eq!(r.score, expected, "{b:?}");
        assert_legal(&b, r.best);
        // The best move must achieve the score.
        if let Move::Play(sq) = r.best {
            assert_eq!(-minimax(&b.play(sq)), expected, "best move of {b:?}");
        }
        // The midgame search alone (a node limit never hands over to the endgame solver) ends exact
        // when it prunes nothing unsoundly, and is never called exact when it does.
        fresh.set_selectivity(Some(Selectivity::EXACT));
        let r = fresh.search(&b, &Limits::Nodes(u64::MAX), &mut Silent);
        assert!(r.exact, "{b:?}");
        assert_eq!(r.score, expected, "{b:?} midgame search");
        fresh.set_selectivity(Some(Selectivity::MOST));
        let r = fresh.search(&b, &Limits::Nodes(u64::MAX), &mut Silent);
        assert_eq!(r.exact, b.is_game_over(), "{b:?} selective midgame search");
        assert!(r.exact || r.selectivity == Selectivity::MOST);
        // A searcher whose table holds other positions, and a depth past the end, agree.
        let r = reused.search(&b, &Limits::Depth(60), &mut Silent);
        assert!(r.exact);
        assert_eq!(r.score, expected, "{b:?} reused");
        checked += 1;
    }
}

#[test]
fn legal_moves_in_random_games_including_passes() {
    let mut rng = Rng(12345);
    let mut s = Searcher::new(4);
    let mut passes = 0;
    for game in 0..6 {
        s.new_game();
        let mut b = Board::START;
        while !b.is_game_over() {
            let r = s.search(&b, &Limits::Depth(1 + game % 4), &mut Silent);
            assert_legal(&b, r.best);
            if r.best == Move::Pass {
                passes += 1;
                assert_eq!(r.pv.first(), Some(&Move::Pass));
            }
            b = random_move(&b, &mut rng);
        }
        let r = s.search(&b, &Limits::Depth(3), &mut Silent);
        assert_eq!(r.best, Move::Pass);
        assert!(r.exact);
        assert_eq!(r.score, b.final_score());
    }
    // Random games pass now and then; make sure this test saw it (the seed is fixed).
    assert!(passes > 0, "no pass seen");
}

#[test]
fn pass_only_and_game_over_positions() {
    // White to move has no move on this board (black surrounds), black does: the answer is a pass.
    let pass_only: Position =
        "XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXOO-- O".parse().expect("valid");
    if pass_only.board.moves() == 0 && pass_only.board.pass().moves() != 0 {
        let r = Searcher::new(1).search(&pass_only.board, &Limits::Depth(5), &mut Silent);
        assert_eq!(r.best, Move::Pass);
    }
    let full: Position = "XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOO X".parse().expect("valid");
    let r = Searcher::new(1).search(&full.board, &Limits::MoveTime(Duration::from_millis(5)), &mut Silent);
    assert_eq!((r.best, r.score, r.exact), (Move::Pass, 0, true));
    // Every random position where the side to move must pass.
    let mut rng = Rng(777);
    let mut seen = 0;
    for _ in 0..400 {
        let Some(b) = random_position(1 + rng.below(20) as u32, &mut rng) else { continue };
        if b.moves() == 0 {
            seen += 1;
            let r = Searcher::new(1).search(&b, &Limits::Depth(4), &mut Silent);
            assert_eq!(r.best, Move::Pass);
        }
    }
    assert!(seen > 0, "no pass-only position generated");
}

#[test]
fn table_moves_are_always_legal() {
    let mut rng = Rng(4242);
    let mut s = Searcher::new(1);
    let mut hints = 0;
    for _ in 0..20 {
        let Some(root) = random_position(20 + rng.below(36) as u32, &mut rng) else { continue };
        s.search(&root, &Limits::Depth(6), &mut Silent);
        // Walk random lines from the searched position: every hint must be legal where it is given.
        for _ in 0..30 {
            let mut b = root;
            for _ in 0..8 {
                if b.is_game_over() {
                    break;
                }
                if let Some(mv) = s.table_move(&b) {
                    hints += 1;
                    assert_legal(&b, mv);
                    assert!(mv != Move::Pass);
                }
                b = random_move(&b, &mut rng);
            }
        }
    }
    assert!(hints > 100, "only {hints} table hits");
}

#[test]
fn depth_search_is_deterministic() {
    let b = Position::START.board.play("f5".parse().expect("square"));
    let run = || Searcher::new(8).search(&b, &Limits::Depth(7), &mut Silent);
    let (a, c) = (run(), run());
    assert_eq!((a.nodes, a.score, a.best, a.depth), (c.nodes, c.score, c.best, c.depth));
    assert_eq!(a.pv.first(), Some(&a.best));
}

#[derive(Default)]
struct Recorder {
    infos: Vec<Info>,
    polls: u32,
    stop_after: Option<u32>,
}

impl Observer for Recorder {
    fn poll(&mut self) -> Control {
        self.polls += 1;
        match self.stop_after {
            Some(n) if self.polls >= n => Control::Stop,
            _ => Control::Continue,
        }
    }

    fn info(&mut self, info: &Info) {
        self.infos.push(info.clone());
    }
}

#[test]
fn infos_deepen_and_pvs_are_legal_lines() {
    let b = Position::START.board;
    let mut rec = Recorder::default();
    let r = Searcher::new(4).search(&b, &Limits::Depth(9), &mut rec);
    assert_eq!(rec.infos.len(), 9);
    for (i, info) in rec.infos.iter().enumerate() {
        assert_eq!(info.depth, i as u32 + 1);
        let mut pos = b;
        for &mv in &info.pv {
            pos = pos.try_play(mv).unwrap_or_else(|e| panic!("pv {:?}: {e}", info.pv));
        }
        assert!(!info.pv.is_empty());
    }
    assert_eq!(r.depth, 9);
    assert_eq!(Some(&r.best), r.pv.first());
    assert!(rec.polls > 0, "observer never polled");
}

#[test]
fn stop_and_node_limit_are_obeyed() {
    let b = Position::START.board.play("f5".parse().expect("square"));
    let mut rec = Recorder { stop_after: Some(3), ..Recorder::default() };
    let r = Searcher::new(4).search(&b, &Limits::Infinite, &mut rec);
    assert_legal(&b, r.best);
    assert!(r.nodes < 10 * ebony::search::POLL_INTERVAL, "{} nodes after stop", r.nodes);
    assert_eq!(r.stop, StopReason::Stopped);
    let r = Searcher::new(4).search(&b, &Limits::Nodes(5000), &mut Silent);
    assert_legal(&b, r.best);
    // The limit is checked at interior nodes: the leaves of the last one (at most 33 moves and a
    // pass) may still be counted.
    assert!(r.nodes <= 5000 + 34, "{} nodes", r.nodes);
    assert!(r.depth >= 1);
    assert_eq!(r.stop, StopReason::Nodes);
}

#[test]
fn results_say_why_the_search_stopped() {
    let b = Position::START.board.play("f5".parse().expect("square"));
    let mut s = Searcher::new(4);
    let r = s.search(&b, &Limits::Depth(5), &mut Silent);
    assert_eq!((r.depth, r.exact, r.stop), (5, false, StopReason::Depth));
    // A zero budget aborts during the first iteration; the move then comes from the root ordering.
    let r = s.search(&b, &Limits::MoveTime(Duration::ZERO), &mut Silent);
    assert_eq!(r.stop, StopReason::Time);
    assert_legal(&b, r.best);
    // 10 empties at depth 10: the solver answers.
    let mut rng = Rng(0x5EED);
    let endgame = std::iter::repeat_with(|| random_position(10, &mut rng)).flatten().find(|b| b.moves() != 0);
    let endgame = endgame.expect("a random game reaches 10 empties");
    let r = s.search(&endgame, &Limits::Depth(10), &mut Silent);
    assert_eq!((r.exact, r.stop), (true, StopReason::Solved));
    let over = Board::new(u64::MAX, 0);
    assert_eq!(s.search(&over, &Limits::Depth(3), &mut Silent).stop, StopReason::Solved);
}

#[test]
fn time_limits_return_a_legal_move() {
    let b = Position::START.board;
    let mut s = Searcher::new(4);
    for ms in [0u64, 1, 20] {
        let r = s.search(&b, &Limits::MoveTime(Duration::from_millis(ms)), &mut Silent);
        assert_legal(&b, r.best);
        let clock =
            Limits::Clock { time_left: Duration::from_millis(ms), increment: Duration::ZERO, moves_to_go: None };
        let r = s.search(&b, &clock, &mut Silent);
        assert_legal(&b, r.best);
    }
}

#[test]
fn bench_prints_a_deterministic_node_count() {
    let run = |extra: &[&str]| {
        let out = Command::new(env!("CARGO_BIN_EXE_ebony"))
            .args(["bench", "--depth", "5"])
            .args(extra)
            .output()
            .expect("run ebony bench");
        assert!(out.status.success());
        let text = String::from_utf8(out.stdout).expect("utf-8");
        let nodes = text.lines().find_map(|l| l.strip_prefix("nodes ")).expect("a nodes line").to_string();
        assert!(text.lines().any(|l| l.starts_with("nps ")));
        // The endgame positions are solved whatever the depth: FFO #21-#24's scores, exact.
        let exact: Vec<&str> = text.lines().filter(|l| l.contains(" exact ")).collect();
        let solved: Vec<&str> =
            exact[exact.len() - 4..].iter().map(|l| l.split_whitespace().nth(5).unwrap_or("")).collect();
        assert_eq!(solved, ["0", "2", "4", "0"], "{text}");
        nodes
    };
    let first = run(&[]);
    let nodes = first.parse::<u64>().expect("a number");
    assert!(nodes > 30);
    assert_eq!(first, run(&[]));
    // A full-width search (100%) visits other nodes than the default level's cuts leave.
    let full_width = run(&["--selectivity", "100"]).parse::<u64>().expect("a number");
    assert_ne!(full_width, nodes, "--selectivity 100 searched as the default level did");
    let bad = Command::new(env!("CARGO_BIN_EXE_ebony"))
        .args(["bench", "--without", "nonsense"])
        .output()
        .expect("run ebony bench");
    assert!(!bad.status.success());
}

#[test]
fn exact_search_plays_a_move_where_the_solver_offered_a_pass() {
    // The endgame solver (as merged) answered `pass` with +62 here although the side to move has moves.
    let p: Position = "X----XOXX---OOXXXO--OXXXXOOOXXXXXXOXOXXXXOXXXXXXXXXOXOXXXXXXXXXX X".parse().expect("valid");
    let r = Searcher::new(4).search(&p.board, &Limits::Depth(9), &mut Silent);
    assert!(p.board.moves() != 0);
    assert_legal(&p.board, r.best);
    assert!(r.best != Move::Pass);
    assert!(r.exact);
    assert_eq!(r.score, minimax(&p.board));
}

#[test]
fn exact_searches_of_mid_sized_endgames_play_legal_moves() {
    let mut rng = Rng(0xC0FFEE);
    let mut s = Searcher::new(8);
    let mut checked = 0;
    while checked < 60 {
        let empties = 11 + rng.below(6) as u32;
        let Some(b) = random_position(empties, &mut rng) else { continue };
        if b.moves() == 0 {
            continue;
        }
        let r = s.search(&b, &Limits::Depth(empties), &mut Silent);
        assert!(r.exact);
        assert_legal(&b, r.best);
        assert!(r.best != Move::Pass, "pass with moves on {b:?}");
        checked += 1;
    }
}

#[test]
fn the_midgame_uses_the_exact_entries_the_solver_stored() {
    let mut rng = Rng(0xE7AC7);
    let board = std::iter::repeat_with(|| random_position(16, &mut rng)).flatten().find(|b| b.moves() != 0);
    let board = board.expect("a random game reaches 16 empties");
    // A solve runs a 4-ply search first (its fallback answer), then the solver on the same table.
    let mut solved = Searcher::new(4);
    assert_eq!(solved.search(&board, &Limits::Depth(16), &mut Silent).stop, StopReason::Solved);
    let mut shallow = Searcher::new(4);
    shallow.search(&board, &Limits::Depth(4), &mut Silent);
    let after_solve = solved.search(&board, &Limits::Depth(6), &mut Silent);
    let after_shallow = shallow.search(&board, &Limits::Depth(6), &mut Silent);
    assert!(
        after_solve.nodes < after_shallow.nodes,
        "depth 6 after the solve took {} nodes, after the 4-ply search alone {}",
        after_solve.nodes,
        after_shallow.nodes
    );
}

/// Multi-ProbCut: the more selective the level, the fewer nodes to the same depth, and the moves it
/// plays mostly agree with the full-width search's.
#[test]
fn selective_levels_search_fewer_nodes_and_mostly_agree() {
    let mut rng = Rng(77);
    let boards: Vec<Board> = std::iter::from_fn(|| random_position(40, &mut rng)).take(12).collect();
    let mut totals = Vec::new();
    let mut full_width_moves = Vec::new();
    for percent in [100, 95, 73] {
        let level = Selectivity::from_percent(percent).expect("a level");
        let mut s = Searcher::new(16);
        s.set_selectivity(Some(level));
        let (mut nodes, mut agree) = (0, 0);
        for (i, b) in boards.iter().enumerate() {
            s.new_game();
            let r = s.search(b, &Limits::Depth(9), &mut Silent);
            assert_legal(b, r.best);
            assert_eq!(r.selectivity, level);
            assert!(!r.exact);
            nodes += r.nodes;
            if percent == 100 {
                full_width_moves.push(r.best);
            } else {
                agree += (full_width_moves[i] == r.best) as usize;
            }
        }
        if percent != 100 {
            assert!(agree * 3 >= boards.len() * 2, "{percent}%: {agree} of {} agree", boards.len());
        }
        totals.push(nodes);
    }
    assert!(totals[0] > totals[1] && totals[1] > totals[2], "{totals:?}");
    assert!(totals[2] * 3 < totals[0], "{totals:?}");
}

/// Between a level's win/loss/draw handover and its exact one (`solve_empties`, `exact_empties`: 17
/// and 13 at depth 8) the search proves who wins: the outcome it claims is true, the move of a
/// claimed win wins, and a draw is an exact 0 whose move draws. One table for all, as in a game.
#[test]
fn levels_prove_who_wins_before_solving_exactly() {
    let mut rng = Rng(77);
    let mut s = Searcher::new(16);
    let mut solver = ebony::search::endgame::Solver::new(16);
    let (mut wins, mut losses, mut draws) = (0, 0, 0);
    while wins + losses + draws < 60 {
        let empties = 14 + rng.below(4) as u32;
        let Some(b) = random_position(empties, &mut rng) else { continue };
        let r = s.search(&b, &Limits::Depth(8), &mut Silent);
        assert_legal(&b, r.best);
        let truth = solver.solve(&b, -64, 64, &mut Silent).score;
        let after = match r.best {
            Move::Play(sq) => b.play(sq),
            Move::Pass => b.pass(),
        };
        let kept =
            if after.is_game_over() { -after.final_score() } else { -solver.solve(&after, -64, 64, &mut Silent).score };
        match (r.exact, r.outcome) {
            (true, None) => {
                assert_eq!((r.score, truth, kept), (0, 0, 0), "{b:?} {r:?}");
                draws += 1;
            }
            (false, Some(Outcome::Win)) => {
                assert!(truth > 0 && r.score > 0 && kept > 0, "{b:?} {r:?} {truth} {kept}");
                wins += 1;
            }
            (false, Some(Outcome::Loss)) => {
                assert!(truth < 0 && r.score < 0, "{b:?} {r:?} {truth}");
                losses += 1;
            }
            _ => panic!("{b:?}: neither exact nor proven at {empties} empties: {r:?}"),
        }
    }
    assert!(wins > 0 && losses > 0, "{wins} wins, {losses} losses, {draws} draws");
}

/// Near the end a timed search goes on with the solver's passes at rising selectivity, each reported
/// with its level, then a win/loss/draw solve and the exact one, as far as the time allows; what
/// each proves is true.
///
/// The searches are given the time of a long search (the level and the solver's share follow from
/// it) but bounded by their work, a number of polls (one every few hundred midgame nodes or few
/// thousand solver nodes): what they achieve does not depend on how busy the machine is. Idle, the
/// work takes at most a fifth of the time (190 ms of 1 s).
#[test]
fn timed_searches_near_the_end_solve_at_rising_selectivity() {
    type Pass = (u32, Selectivity, bool, Option<Outcome>, i32);
    /// The passes reported, and the polls left before the search is stopped.
    struct Levels(Vec<Pass>, u32);
    impl Observer for Levels {
        fn poll(&mut self) -> Control {
            self.1 = self.1.saturating_sub(1);
            if self.1 == 0 {
                Control::Stop
            } else {
                Control::Continue
            }
        }
        fn info(&mut self, info: &Info) {
            self.0.push((info.depth, info.selectivity, info.exact, info.outcome, info.score));
        }
    }
    // Within 150 ms to 1 s a move: the long searches' level, and 18 empties for the solver at once.
    let budget = Duration::from_millis(999);
    const WORK: u32 = 1000;
    let mut rng = Rng(5);
    let mut solver = ebony::search::endgame::Solver::new(16);
    let mut proven = 0;
    for _ in 0..3 {
        let board = std::iter::from_fn(|| random_position(20, &mut rng)).find(|b| b.moves() != 0).expect("a position");
        let mut s = Searcher::new(16);
        let mut levels = Levels(Vec::new(), WORK);
        // 20 empties are more than the solver is handed at once with this budget (18).
        let r = s.search(&board, &Limits::MoveTime(budget), &mut levels);
        assert_legal(&board, r.best);
        assert_ne!(r.stop, StopReason::Time, "the clock ran out before {WORK} polls, after {} nodes", r.nodes);
        let passes: Vec<&Pass> = levels.0.iter().filter(|&&(depth, ..)| depth == 20).collect();
        assert!(!passes.is_empty(), "{:?}", levels.0);
        // The first pass runs at the search's own level: 73% for a long search.
        assert!(levels.0.iter().all(|p| p.0 == 20 || p.1 == midgame::LONG_SELECTIVITY), "{:?}", levels.0);
        assert_eq!(passes[0].1, midgame::LONG_SELECTIVITY, "{:?}", levels.0);
        // Surer and surer: the selective levels rise, then a proven outcome, then the exact score.
        assert!(passes.windows(2).all(|w| w[0].1 < w[1].1 || (w[0].3.is_some() && w[1].2)), "{:?}", levels.0);
        for &&(_, level, exact, outcome, score) in &passes {
            if !level.is_exact() {
                assert!(!exact && outcome.is_none(), "{:?}", levels.0);
            } else if let Some(outcome) = outcome {
                assert!(!exact);
                let truth = solver.solve(&board, -64, 64, &mut Silent).score;
                assert_eq!(Outcome::of(truth), Some(outcome), "{board:?} {:?}", levels.0);
                assert_eq!(score.signum(), truth.signum(), "{:?}", levels.0);
                proven += 1;
            } else {
                assert!(exact, "{:?}", levels.0);
            }
        }
        let truth = solver.solve(&board, -64, 64, &mut Silent).score;
        if r.exact {
            assert_eq!(r.score, truth);
        }
        if r.exact || r.outcome.is_some() {
            proven += 1;
            // The move played keeps what was proven: the score when exact, the win when a win.
            let Move::Play(sq) = r.best else { panic!("{r:?}") };
            let after = board.play(sq);
            let kept = -solver.solve(&after, -64, 64, &mut Silent).score;
            if r.exact || r.outcome == Some(Outcome::Win) {
                assert!(kept == truth || (r.outcome.is_some() && kept > 0), "{board:?} {r:?} {kept} {truth}");
            }
        }
    }
    assert!(proven > 0, "nothing proven in {WORK} polls at 20 empties");
}

#[test]
fn exact_claims_after_selective_passes_in_a_game_are_true() {
    // A game's last moves at 100 ms a move against ntest (referee log, 2026-11-24): after the
    // selective end passes at 17 empties, the solves at 15, 13 and 11 empties reused the table and
    // claimed g1 scores -6 at 11 empties, where it scores -34 (d1 scores -6).
    let positions = [
        "----XX--O-OXX---OXXOXXX-OXXXOXX-OOXXXOXOOOOXXXOO--OOOX-O-XXXXXX- O",
        "--X-XX--O-XXX---OXXOXXX-OXXXOOOOOOXXXOOOOOOXXOOO--OOOX-O-XXXXXX- O",
        "--X-XX--O-XXX-X-OXXOOXOOOXXXXOOOOOXXXOOOOOOXXOOO--OOOX-O-XXXXXX- O",
        "--X-XX--OOXXX-X-OOOOOXOOOOXOXOOOOOXXOOOOOOXXXOOO-XXXXX-O-XXXXXX- O",
    ];
    let mut searcher = Searcher::new(16);
    let mut judge = Searcher::new(16);
    let mut checked = 0;
    for text in positions {
        let board = Position::parse(text).expect("a position").board;
        let r = searcher.search(&board, &Limits::MoveTime(Duration::from_millis(100)), &mut Silent);
        if !r.exact {
            continue;
        }
        judge.new_game();
        let truth = judge.search(&board, &Limits::Depth(60), &mut Silent);
        assert_eq!(r.score, truth.score, "{text}: claimed {} with {:?}", r.score, r.best);
        let Move::Play(sq) = r.best else { panic!("{text}: a pass") };
        judge.new_game();
        let after = judge.search(&board.play(sq), &Limits::Depth(60), &mut Silent);
        assert_eq!(-after.score, truth.score, "{text}: {sq} claimed {}, scores {}", r.score, -after.score);
        checked += 1;
    }
    // The last three (15, 13 and 11 empties) are solved exactly at once, whatever the machine's load.
    assert!(checked >= 3, "only {checked} exact claims checked");
}

#[test]
fn exact_claims_hold_through_the_endgames_of_games() {
    // Endgames played on one table as in a game: timed searches (selective end passes, then the
    // solver), the opponent's replies now the engine's own choice, now random. Each move the search
    // calls exact must score what it claims.
    let mut rng = Rng(0x5EED_0007);
    let (mut searcher, mut judge) = (Searcher::new(16), Searcher::new(16));
    let mut checked = 0;
    for _ in 0..40 {
        let Some(mut board) = random_position(19, &mut rng) else { continue };
        searcher.new_game();
        while !board.is_game_over() {
            let r = searcher.search(&board, &Limits::MoveTime(Duration::from_millis(100)), &mut Silent);
            if let (true, Move::Play(sq)) = (r.exact, r.best) {
                judge.new_game();
                let after = judge.search(&board.play(sq), &Limits::Depth(60), &mut Silent);
                assert_eq!(-after.score, r.score, "{board:?}: {sq} claimed {}", r.score);
                checked += 1;
            }
            board = if rng.below(2) == 0 {
                random_move(&board, &mut rng)
            } else {
                board.try_play(r.best).expect("a legal move")
            };
        }
    }
    assert!(checked > 50, "only {checked} exact claims checked");
}

/// `depth_scores`, the data of Multi-ProbCut's statistics: at `Selectivity::EXACT` each depth's
/// score is the full-width search's to that depth; at a level the level reaches the search (the
/// deeper scores move on some positions), while depths with no node deep enough to test a cut
/// (below 4 plies at the root) stay the same.
#[test]
fn depth_scores_are_full_width_unless_a_level_is_given() {
    let mut rng = Rng(91);
    let boards: Vec<Board> = std::iter::from_fn(|| random_position(40, &mut rng)).take(12).collect();
    let most = Selectivity::from_percent(58).expect("a level");
    let (mut s, mut full_width) = (Searcher::new(16), Searcher::new(16));
    full_width.set_selectivity(Some(Selectivity::EXACT));
    let mut moved = 0;
    for b in &boards {
        let exact = s.depth_scores(b, 8, Selectivity::EXACT);
        let selective = s.depth_scores(b, 8, most);
        assert_eq!((exact.len(), selective.len()), (9, 9));
        assert_eq!(exact[..4], selective[..4]);
        full_width.new_game();
        assert_eq!(exact[8], full_width.search(b, &Limits::Depth(8), &mut Silent).score);
        moved += (exact != selective) as usize;
    }
    assert!(moved > 0, "58% scored every position as full width does");
}

/// `near_best`, the self-play's near-best opening moves: at full width, the moves whose depth-4
/// scores are within the margin of the best, as plain negamax scores each move; with the same
/// table reused from position to position, as the generator does.
#[test]
fn near_best_finds_the_moves_within_the_margin() {
    let mut rng = Rng(47);
    let boards: Vec<Board> = std::iter::from_fn(|| random_position(44, &mut rng)).take(12).collect();
    let mut s = Searcher::new(4);
    s.set_selectivity(Some(Selectivity::EXACT));
    let (mut narrowed, mut widened) = (0, 0);
    for b in &boards {
        let scores: Vec<(Move, i32)> = Squares(b.moves())
            .map(|sq| (Move::Play(sq), -negamax(&b.play(sq), 3, &|leaf| s.evaluator().evaluate(leaf))))
            .collect();
        let best = scores.iter().map(|&(_, v)| v).max().expect("a move");
        for margin in [0, 2, 5] {
            let expected: Vec<Move> = scores.iter().filter(|&&(_, v)| v >= best - margin).map(|&(m, _)| m).collect();
            assert_eq!(s.near_best(b, 4, margin), (expected.clone(), best), "{b:?} margin {margin}");
            narrowed += (expected.len() < scores.len()) as usize;
            widened += (margin > 0 && expected.len() > 1) as usize;
        }
    }
    assert!(narrowed > 0 && widened > 0, "the margins never made a difference");
}
