//! Static evaluation: the one [`Evaluator`] the midgame search calls, with the evaluations behind it
//! (`learned`: weights fitted to ebony's own games, the default, whose weights also order the endgame
//! solver's moves; `handmade`: v1, the hand-made features it replaced, kept for comparison).

pub mod handmade;
pub mod learned;

use crate::rules::board::Board;

/// Which evaluation an [`Evaluator`] computes. An enum rather than a trait object: the search calls
/// the evaluation at every leaf, and a `match` on a value that never changes during a search is
/// predicted for free where a virtual call is not. A new evaluation is a new variant.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Variant {
    /// The hand-made evaluation ([`handmade`]).
    V1,
    /// Learnt weights ([`learned`]).
    Learned(&'static learned::Weights),
}

impl Default for Variant {
    /// The weights built into the binary.
    fn default() -> Variant {
        Variant::Learned(learned::builtin())
    }
}

/// The static evaluation of the midgame search: an estimate of the final disc difference for the
/// side to move, in -64..=64.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct Evaluator {
    variant: Variant,
}

impl Evaluator {
    pub const fn new(variant: Variant) -> Evaluator {
        Evaluator { variant }
    }

    pub const fn variant(&self) -> Variant {
        self.variant
    }

    /// The learnt weights of this evaluation (the built-in ones for v1): what orders the endgame
    /// solver's moves.
    pub fn weights(&self) -> &'static learned::Weights {
        match self.variant {
            Variant::Learned(weights) => weights,
            Variant::V1 => learned::builtin(),
        }
    }

    /// The evaluation of `board`, whose pattern values are `patterns` (the search keeps them as it
    /// plays moves) and whose side to move has the legal moves `moves` (the search has them already).
    #[inline(always)]
    pub fn evaluate_patterns(&self, board: &Board, patterns: &learned::Patterns, moves: u64) -> i32 {
        match self.variant {
            Variant::V1 => handmade::evaluate_with_moves(board, moves),
            Variant::Learned(weights) => weights.discs_patterns(patterns, board.player, board.opponent, moves),
        }
    }

    /// The children of `board`, whose pattern values are `patterns`, to be evaluated one by one as
    /// the search tries them: with learnt weights, from the parent's values ([`learned::Children`]).
    #[inline(always)]
    pub fn children<'a>(&self, board: &Board, patterns: &'a learned::Patterns) -> Children<'a> {
        match self.variant {
            Variant::V1 => Children::V1,
            Variant::Learned(weights) => Children::Learned(weights.children(patterns, board.empty_count())),
        }
    }

    /// The evaluation of `board`, on its own (the search's way, with the pattern values read from
    /// the board).
    pub fn evaluate(&self, board: &Board) -> i32 {
        self.evaluate_patterns(board, &learned::Patterns::new(board.player, board.opponent), board.moves())
    }
}

/// The children of one position, evaluated one by one ([`Evaluator::children`]).
pub enum Children<'a> {
    V1,
    Learned(learned::Children<'a>),
}

impl Children<'_> {
    /// The evaluation of `child`, reached by playing `sq` and turning `flips`, whose side to move
    /// has the legal moves `moves`: what [`Evaluator::evaluate_patterns`] gives for it.
    #[inline(always)]
    pub fn evaluate(&self, child: &Board, sq: usize, flips: u64, moves: u64) -> i32 {
        match self {
            Children::V1 => handmade::evaluate_with_moves(child, moves),
            Children::Learned(children) => children.discs(sq, flips, child.player, child.opponent, moves),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_is_the_builtin_learnt_evaluation() {
        let evaluator = Evaluator::default();
        assert_eq!(evaluator.variant(), Variant::Learned(learned::builtin()));
        let corner = Board::new(0x81 | (1 << 27), 1 << 28);
        for board in [Board::START, Board::START.pass(), corner] {
            let moves = board.moves();
            assert_eq!(evaluator.evaluate(&board), learned::builtin().discs(board.player, board.opponent, moves));
            assert!((-64..=64).contains(&evaluator.evaluate(&board)));
        }
    }

    #[test]
    fn v1_is_the_handmade_evaluation() {
        let evaluator = Evaluator::new(Variant::V1);
        let corner = Board::new(0x81 | (1 << 27), 1 << 28);
        for board in [Board::START, Board::START.pass(), corner] {
            assert_eq!(evaluator.evaluate(&board), handmade::evaluate(&board));
        }
    }
}
