//! The rules engine against published perft counts and against the slow reference rules.

use ebony::rules::board::{Board, BoardParseError, Color, IllegalMove, Move, Position};
use ebony::rules::movegen::{self, reference};
use ebony::rules::perft::{divide, perft};
use ebony::rules::square::{Square, Squares};
use support::Rng;

mod support;

/// The published counts, `(depth, nodes)`, from tests/data/perft.txt.
fn published_counts() -> Vec<(u32, u64)> {
    include_str!("data/perft.txt")
        .lines()
        .filter(|line| !line.starts_with('#') && !line.trim().is_empty())
        .map(|line| {
            let mut fields = line.split_whitespace().map(|f| f.parse::<u64>().expect("perft.txt field"));
            (fields.next().unwrap() as u32, fields.next().unwrap())
        })
        .collect()
}

#[test]
fn perft_1_to_10_matches_published_counts() {
    let counts = published_counts();
    assert!(counts.len() >= 12, "perft.txt should list depths 1-12");
    for &(depth, nodes) in counts.iter().filter(|&&(d, _)| d <= 10) {
        assert_eq!(perft(&Board::START, depth), nodes, "perft {depth}");
    }
}

#[test]
#[ignore = "slow: about 10 s in release; run by scripts/perft.sh"]
fn perft_11_and_12_match_published_counts() {
    for &(depth, nodes) in published_counts().iter().filter(|&&(d, _)| d == 11 || d == 12) {
        assert_eq!(perft(&Board::START, depth), nodes, "perft {depth}");
    }
}

#[test]
fn divide_sums_to_perft() {
    let parts = divide(&Board::START, 6);
    assert_eq!(parts.len(), 4);
    assert_eq!(parts.iter().map(|&(_, n)| n).sum::<u64>(), perft(&Board::START, 6));
    // The start position is symmetric: every first move leads to the same count.
    assert!(parts.iter().all(|&(_, n)| n == parts[0].1));
}

/// A random square of `mask` (not empty).
fn pick(rng: &mut Rng, mask: u64) -> Square {
    let n = mask.count_ones() as usize;
    Squares(mask).nth(rng.below(n)).unwrap()
}

/// Random games played to the end, checking the fast generator against the reference at every
/// position: the move sets, the flips of every empty square, passes and game over.
#[test]
fn fast_rules_match_reference_on_random_games() {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let mut positions = 0;
    for _ in 0..2000 {
        let mut board = Board::START;
        let mut passes = 0;
        loop {
            positions += 1;
            let (p, o) = (board.player, board.opponent);
            let moves = movegen::moves(p, o);
            assert_eq!(moves, reference::moves(p, o), "moves of {board:?}");
            for sq in Squares(board.empties()) {
                assert_eq!(movegen::flips(p, o, sq.index()), reference::flips(p, o, sq.index()), "flips at {sq}");
            }
            if moves == 0 {
                let over = board.pass().moves() == 0;
                assert_eq!(board.is_game_over(), over);
                assert_eq!(board.legal_moves(), if over { vec![] } else { vec![Move::Pass] });
                if over {
                    assert!(board.try_play(Move::Pass).is_err());
                    break;
                }
                passes += 1;
                board = board.try_play(Move::Pass).unwrap();
                continue;
            }
            assert!(!board.is_game_over());
            assert_eq!(board.try_play(Move::Pass), Err(IllegalMove::PassWithMoves));
            let sq = pick(&mut rng, moves);
            let next = board.play(sq);
            assert_eq!(next.player & next.opponent, 0);
            assert_eq!(next.player.count_ones() + next.opponent.count_ones(), 65 - board.empty_count());
            board = next;
        }
        assert!(passes < 64);
    }
    assert!(positions > 100_000);
}

/// Random sparse and dense boards that no game need reach, with many runs and edges.
#[test]
fn fast_rules_match_reference_on_random_boards() {
    let mut rng = Rng(12345);
    for _ in 0..20_000 {
        let a = rng.next() & rng.next();
        let b = rng.next() & !a;
        for (p, o) in [(a, b), (b, a)] {
            assert_eq!(movegen::moves(p, o), reference::moves(p, o));
            for sq in Squares(!(p | o)) {
                assert_eq!(movegen::flips(p, o, sq.index()), reference::flips(p, o, sq.index()));
            }
        }
    }
}

#[test]
fn final_score_counts_empties_for_the_winner() {
    // A finished game from the FFO convention: black 40, white 20, 4 empties -> +24 for black.
    let black = (1u64 << 40) - 1;
    let white = ((1u64 << 20) - 1) << 40;
    let pos = Position::from_colors(black, white, Color::Black);
    assert_eq!(pos.board.final_score(), 24);
    let pos = Position::from_colors(black, white, Color::White);
    assert_eq!(pos.board.final_score(), -24);
}

#[test]
fn board_strings_round_trip() {
    let mut rng = Rng(777);
    for _ in 0..1000 {
        let black = rng.next() & rng.next();
        let white = rng.next() & !black;
        for side in [Color::Black, Color::White] {
            let pos = Position::from_colors(black, white, side);
            let text = pos.to_string();
            assert_eq!(text.len(), 66);
            assert_eq!(text.parse::<Position>(), Ok(pos));
        }
    }
}

#[test]
fn board_strings_accept_every_documented_spelling() {
    let canonical: Position = "---------------------------OX------XO--------------------------- X".parse().unwrap();
    for text in [
        "...........................ox......xo........................... x",
        "---------------------------wb------bw---------------------------b",
        "---------------------------O*------*O--------------------------- *",
        "  ---------------------------OX------XO---------------------------\tX  ",
    ] {
        assert_eq!(text.parse::<Position>(), Ok(canonical), "{text}");
    }
    let white: Position = "---------------------------OX------XO--------------------------- O".parse().unwrap();
    assert_eq!(white.side, Color::White);
    assert_eq!(white.board, Board::START.pass());
}

#[test]
fn bad_board_strings_are_rejected_with_the_right_error() {
    let start = "---------------------------OX------XO---------------------------";
    let cases: Vec<(String, BoardParseError)> = vec![
        (String::new(), BoardParseError::TooShort { squares: 0 }),
        (start[..63].to_string(), BoardParseError::TooShort { squares: 63 }),
        (format!("{} X", &start[..40]), BoardParseError::TooShort { squares: 40 }),
        (start.to_string(), BoardParseError::MissingSide),
        (format!("{start} "), BoardParseError::MissingSide),
        (format!("{start} Z"), BoardParseError::BadSide('Z')),
        (format!("{start} XO"), BoardParseError::Trailing("O".into())),
        (format!("{start} X ; G8:+18"), BoardParseError::Trailing(" ; G8:+18".into())),
        (
            format!("{}Q{} X", &start[..10], &start[11..]),
            BoardParseError::BadSquare { square: "c2".parse().unwrap(), found: 'Q' },
        ),
    ];
    for (text, error) in cases {
        assert_eq!(text.parse::<Position>(), Err(error.clone()), "{text:?}");
        assert!(!error.to_string().is_empty());
    }
}
