"""The referee's rules (othello.py): perft against tests/data/perft.txt, move legality, parsing."""

import os
import unittest

import othello
from othello import PASS, Position, parse_line, parse_square, popcount

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


class Perft(unittest.TestCase):
    def test_matches_the_published_counts_to_depth_6(self):
        expected = {}
        with open(os.path.join(ROOT, "tests", "data", "perft.txt"), encoding="utf-8") as f:
            for line in f:
                if line.strip() and not line.startswith("#"):
                    depth, nodes = line.split()
                    expected[int(depth)] = int(nodes)
        for depth in range(1, 7):
            self.assertEqual(othello.perft(Position.start(), depth), expected[depth], f"depth {depth}")


class Rules(unittest.TestCase):
    def test_start_position_board_string(self):
        board, side = Position.start().board_string()
        self.assertEqual(board, "-" * 27 + "OX------XO" + "-" * 27)
        self.assertEqual(side, "X")
        self.assertEqual([othello.square_name(s) for s in Position.start().legal_moves()], ["d3", "c4", "f5", "e6"])

    def test_a_move_flips_and_passes_the_turn(self):
        pos = Position.start().play(parse_square("f5"))
        self.assertEqual(othello.popcount(pos.black), 4)
        self.assertEqual(othello.popcount(pos.white), 1)
        self.assertEqual(pos.side, othello.WHITE)

    def test_illegal_moves_are_refused_with_a_reason(self):
        pos = Position.start()
        with self.assertRaisesRegex(othello.IllegalMove, "occupied"):
            pos.play(parse_square("d4"))
        with self.assertRaisesRegex(othello.IllegalMove, "flips nothing"):
            pos.play(parse_square("a1"))
        with self.assertRaisesRegex(othello.IllegalMove, "pass while 4 moves"):
            pos.play(PASS)

    def test_forced_pass_and_game_end(self):
        # a random game (seed 1) where black must pass after 58 moves
        line = "e6f4e3d2d3e7f2c5d6g1b4c2f5g4d1a3b5b6g5f6c4f3e8h6h4d7b1h5f7f8c7b7g2c3b3b2g8c1h3e1d8a1a4g3a2c6a6a5f1a7c8h1b8h2e2g6g7a8"
        pos = othello.replay(parse_line(line))
        self.assertTrue(pos.must_pass())
        self.assertFalse(pos.is_over())
        pos = pos.play(PASS)
        self.assertEqual(pos.side, othello.WHITE)
        # replay inserts the forced pass a transcript leaves out
        end = othello.replay(parse_line(line + "h8"))
        self.assertEqual(end.side, othello.BLACK)

    def test_final_score_gives_empties_to_the_winner(self):
        pos = Position(0b111, 1 << 63, othello.BLACK)  # 3 black, 1 white, 60 empty, no moves
        self.assertTrue(pos.is_over())
        self.assertEqual(pos.disc_diff(), 3 - 1 + 60)
        self.assertEqual(Position(0b1, 0b10, othello.WHITE).disc_diff(), 0)


class Parsing(unittest.TestCase):
    def test_squares_and_passes(self):
        self.assertEqual(parse_square("a1"), 0)
        self.assertEqual(parse_square("H8"), 63)
        self.assertIs(parse_square("PA"), PASS)
        self.assertIs(parse_square("pass"), PASS)
        for bad in ("i1", "a9", "", "f55", "zz"):
            with self.assertRaises(ValueError, msg=bad):
                parse_square(bad)

    def test_transcripts(self):
        self.assertEqual(parse_line("f5d6C3"), [37, 43, 18])
        self.assertEqual(parse_line("f5 pass d6"), [37, PASS, 43])
        with self.assertRaises(ValueError):
            parse_line("f5d")


if __name__ == "__main__":
    unittest.main()


class ProveBound(unittest.TestCase):
    """scripts/research/prove_bound.py, the independent check behind the FFO #31 erratum (tests/data/README.md)."""

    AFTER_G1 = "-OOOOOX---OOOX--OXXOXO---XXXOO--XXXXXXO-XXXOOO-OX-OOOO---OOOOO-- O"
    LINE = "h1b2a4a2a1g2h2g7a8b7g3h5h4h3g4g6g8h8h7"

    def test_the_erratum_line_scores_32_for_white_near_its_end(self):
        from research.prove_bound import Prover, parse_board

        # 13 moves into the line white's 48-16 is 6 empties away, with black to move.
        white, black = parse_board(self.AFTER_G1)
        position = Position(black, white, othello.WHITE)
        for sq in parse_line(self.LINE)[:13]:
            position = position.play(sq)
        board, side = position.board_string()
        self.assertEqual((board.count("-"), side), (6, "X"))
        p, o = parse_board(f"{board} {side}")
        self.assertEqual(Prover().value(p, o, -65, 65), -32)
        self.assertGreaterEqual(Prover().value(p, o, -33, -32), -32)
        self.assertLessEqual(Prover().value(p, o, -32, -31), -32)
        # The whole line ends on a full board, so no rule for empty squares is involved.
        for sq in parse_line(self.LINE)[13:]:
            position = position.play(sq)
        self.assertTrue(position.is_over())
        self.assertEqual((popcount(position.black), popcount(position.white)), (16, 48))

    def test_bad_board_strings_are_refused(self):
        from research.prove_bound import parse_board

        for text in ["", "X", "-" * 63 + " X", "-" * 64 + " Z", "?" * 64 + " X"]:
            with self.assertRaises(ValueError, msg=text):
                parse_board(text)

