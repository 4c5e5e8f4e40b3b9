"""disc-loss.py against the real binary: the segments of a game add up to its result, from either side."""
import json
import os
import re
import subprocess
import sys
import tempfile
import unittest

import othello

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPT = os.path.join(HERE, "..", "research", "disc-loss.py")
EBONY = os.environ.get("EBONY_BIN")


def first_move_game():
    """A whole legal game: each side plays its lowest legal square."""
    pos, moves = othello.Position.start(), []
    while not pos.is_over():
        if pos.must_pass():
            moves.append("pass")
            pos = pos.play(othello.PASS)
            continue
        move = pos.legal_moves()[0]
        moves.append(othello.square_name(move))
        pos = pos.play(move)
    return moves, pos.disc_diff()


def write_one_game(path, moves):
    """A results file holding one game of `moves`, engine a black and b white."""
    with open(path, "w") as f:
        f.write(json.dumps({"type": "match", "version": 1}) + "\n")
        f.write(json.dumps({"type": "game", "id": 0, "black": "a", "white": "b", "moves": moves}) + "\n")


@unittest.skipUnless(EBONY and os.path.exists(EBONY), "EBONY_BIN unset")
class DiscLossTest(unittest.TestCase):
    def segments(self, results, engine, *options):
        out = subprocess.run([sys.executable, SCRIPT, results, engine, "--depth", "1", "--ebony", EBONY, *options],
                             capture_output=True, text=True, check=True).stdout
        return [float(x) for x in re.findall(r": ([+-]\d+\.\d+)", out)]

    def test_segments_add_up_to_the_result_from_each_side(self):
        moves, black_result = first_move_game()
        with tempfile.TemporaryDirectory() as tmp:
            results = os.path.join(tmp, "results.jsonl")
            write_one_game(results, moves)
            a, b = self.segments(results, "a"), self.segments(results, "b")
        self.assertEqual(len(a), 6)
        self.assertAlmostEqual(sum(a), black_result, places=6)
        self.assertEqual(a, [-x for x in b])

    def test_finer_checkpoints_split_the_same_result(self):
        moves, black_result = first_move_game()
        with tempfile.TemporaryDirectory() as tmp:
            results = os.path.join(tmp, "results.jsonl")
            write_one_game(results, moves)
            a = self.segments(results, "a", "--checkpoints", "8,16,24,28,32,36,40,44", "--solve-from", "36")
            bad = subprocess.run([sys.executable, SCRIPT, results, "a", "--checkpoints", "16,8", "--ebony", EBONY],
                                 capture_output=True, text=True)
        self.assertEqual(len(a), 9)
        self.assertAlmostEqual(sum(a), black_result, places=6)
        self.assertNotEqual(bad.returncode, 0)
        self.assertIn("--checkpoints", bad.stderr)


if __name__ == "__main__":
    unittest.main()
