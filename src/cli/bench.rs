//! `ebony bench`: a fixed set of positions searched to a fixed depth from a fresh searcher each, so
//! the total node count is deterministic; CI compares it with the recorded signature
//! (`scripts/bench-signature`) so that a change in search behaviour is always deliberate.

use crate::eval::Evaluator;
use crate::rules::board::Position;
use crate::search::ordering::Features;
use crate::search::{proof_word, Limits, Outcome, Searcher, Selectivity, Silent};
use std::process::ExitCode;
use std::time::Duration;

/// Depth of the default bench: a few seconds in release mode.
pub const DEFAULT_DEPTH: u32 = 10;
/// Table size of the bench searcher: fixed, because the node count depends on it.
const HASH_MB: usize = 16;

/// Thirty positions from 4 to 46 discs played (random legal games from a fixed seed), both sides
/// to move; the later ones are solved at bench depths of 12 and more (who wins, or the exact score:
/// `crate::search::solve_empties`).
pub const POSITIONS: [&str; 30] = [
    "-------------------XO------OO-----OXO------X-------------------- X",
    "-----------X------O-X-----OXXX----XOO----X---------------------- O",
    "-------------X----OOOO-----XXO-----XXXO------------------------- X",
    "-------------X---XXXX----XXOX----X-OOO------O--------O---------- O",
    "----O----O--OO---OX-O----XXOX---X-OXXX-------------------------- X",
    "-----------------O-------OOXX----XXXXX----XOXO-----XOO------XO-- O",
    "---------OX--OX---OXOO----XOOO-----XO------XXO----X--X--------X- X",
    "------O------O-----OOX----XOO----XXXOO-XXXX-O-X-X--O-X--X------- O",
    "-----------O-X-----OOX-O-OOOXOX----OXXOX---OO--O---OXX----O----- X",
    "--XOO-----XXXXXO--OXXXO---OXXOO---OXXO---XO---O---O------------- O",
    "----X-----O-XO--XXOXOX--OOOOOX----OOO-X----XXO-----XXXO--------O X",
    "-----XO--X-XOXO--XXOXXO-OOOXXXO---XXOXX---XOO-----O-X--------X-- O",
    "----O-O-----OOXX--O-OOO---OXOOO--XXOOOO--XO-OOXX----OOX-----O--X X",
    "--------X-O--O--X-OOOX--XOOXOX-O--OXXOO-OOXXOOO--XX-OOOO----OX-- O",
    "----O--O-OX-O-O---OOOOXO-XXOOXX--OXXOXXX---XXOOO---XO-O----O-O-X X",
    "-OOOO-----XOO-----XXXXXX--XXXOX--XOXOXO-X--OOOOOXXXO-XX---XXX--- O",
    "OOOO-XXOXXOOOOOO-XOXOOOX-XXXXOXX-XOOOXXX-X-OO-X----------------- X",
    "-----X----XO-X-O-X-OOXOO-XOOXOXOXXXOXXX-OOOOOOXO-X--OOO-XXXOOO-- O",
    "-OOOOOO----OXOX---XXOXOXXXXXXO-X-XOXXXOX-XXOOOOOOXO-OO----O-O--- X",
    "--OOOOO--XOOOO-XXOOOXOOOOOOXXOOO-OOXXX-X-XO-XXX---XXXX----OXXOX- O",
    "-O-XXO----OXXO---OOOOXO-XOOOOOOO-OOOXXOOOOOXXXO--OXXXOOO-XX-OOO- X",
    "X--XO-XOOXOOOXO-OXXXOXX-OOXXXXX-OXXXXX--OX-OXXO-O-XOOOX-OO-XOXX- X",
    "----------OX-------XOOX----XXO-----XXO-------O------------------ O",
    "--------X--O----OXOO-X---OXXXXX--XOXX-----O-X-------X-------X--- O",
    "-----------------OX-------OXOO---OOOOO----O-OXXX-O-OXXXX---X--XX O",
    "------O---X---OO--X-OOO---XOOOXO---OXOO--XXXXOO--OXXX---O------- O",
    "-X-X--O---XXXOX--XXXOX---XXXXXXX--XOXO--OOOXOX------X-X--------X O",
    "----O----OOO-OOO-XOOOXO-XXXXOO--OXOXXXXX-O-X-XX-OXXX-X-----X---- O",
    "---------O-OOO-O--OXOOXX-OXOOO--XOOXOXO--OXOOOOO-XXXOOXO-O---OXX O",
    "OO-XXXX-XXXXXXX-XXOXOXX-OOOOXOXX--OXXXX-XXXX-XOOXX--X--OX------- O",
];

/// FFO #21-#24 (15 to 19 empties), solved exactly through the search's handover to the solver after
/// the midgame positions, whatever the depth: the signature then covers the solver and the table it
/// shares with the search (2.2 M of the nodes, about 0.06 s).
pub const ENDGAME_POSITIONS: [&str; 4] = [
    "OOOOOOOOXOOXXX--XXOOXOO-XOXOOO--XOOOOX--XOOXOO--XOOOOO--XXXX---- O",
    "--OOOO--X-OOOOO-XXOOXOXXXOXOXXXXXXXOXXXX-XXOXOXX--OXXX-X----X--- O",
    "--O-------OOX---OOOXXXO-OOOOXOXXXXXOOXOXXXXXXOOXX-XXXXOX--XXXX-- X",
    "--O--O-----OOOX--X-XOXOO--XXXOOOXXXXOOOOXXXOXXOOXXXXXX--XOXX-O-- O",
];

/// The outcome of one bench position.
#[derive(Clone, Debug)]
pub struct Line {
    pub position: Position,
    pub depth: u32,
    pub score: i32,
    pub exact: bool,
    /// Who wins, when proven but not exact.
    pub outcome: Option<Outcome>,
    pub nodes: u64,
    pub elapsed: Duration,
}

/// Searches every bench position to `depth` with the given ordering features, then solves the
/// endgame positions, each from a new game; `each` sees every line as it completes. `selectivity`
/// overrides the depth default of the midgame searches ([`crate::search::midgame::DEPTH_SELECTIVITY`]).
pub fn run(
    depth: u32,
    selectivity: Option<Selectivity>,
    features: Features,
    evaluator: Evaluator,
    mut each: impl FnMut(&Line),
) -> Vec<Line> {
    let mut searcher = Searcher::new(HASH_MB);
    searcher.set_ordering(features);
    searcher.set_evaluator(evaluator);
    searcher.set_selectivity(selectivity);
    let mut lines = Vec::with_capacity(POSITIONS.len() + ENDGAME_POSITIONS.len());
    let midgame = POSITIONS.iter().map(|text| (text, depth));
    let endgame = ENDGAME_POSITIONS.iter().map(|text| (text, 60));
    for (text, depth) in midgame.chain(endgame) {
        let position = Position::parse(text).expect("bench positions are valid");
        searcher.new_game();
        let result = searcher.search(&position.board, &Limits::Depth(depth), &mut Silent);
        let line = Line {
            position,
            depth: result.depth,
            score: result.score,
            exact: result.exact,
            outcome: result.outcome,
            nodes: result.nodes,
            elapsed: result.elapsed,
        };
        each(&line);
        lines.push(line);
    }
    lines
}

/// `ebony bench`: runs the bench at `depth` (at `selectivity` if given) without the ordering
/// features named in `without`, printing a line per position, then the total nodes, time and nodes/s.
pub fn print(depth: u32, selectivity: Option<Selectivity>, without: &[String], evaluator: Evaluator) -> ExitCode {
    let mut features = Features::ALL;
    for name in without {
        if !features.disable(name) {
            return super::usage_error(format_args!(
                "unknown ordering feature {name:?}: expected one of {}",
                Features::NAMES.join(", ")
            ));
        }
    }
    let lines = run(depth, selectivity, features, evaluator, |l| {
        let proof = proof_word(l.exact, l.outcome).map_or(String::new(), |word| format!(" {word}"));
        say!(
            "{} depth {:>2} score {:>3}{proof:6} nodes {:>11} time {:>8.3}",
            l.position,
            l.depth,
            l.score,
            l.nodes,
            l.elapsed.as_secs_f64()
        );
    });
    let nodes: u64 = lines.iter().map(|l| l.nodes).sum();
    let secs: f64 = lines.iter().map(|l| l.elapsed.as_secs_f64()).sum();
    say!("nodes {nodes}");
    say!("time {secs:.3}");
    say!("nps {:.0}", nodes as f64 / secs.max(1e-9));
    ExitCode::SUCCESS
}
