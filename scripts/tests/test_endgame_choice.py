"""endgame-choice.py against the real binary: exact move scores, and a search that finds the best
move where the solver needs no time loses nothing."""
import json
import os
import subprocess
import sys
import tempfile
import unittest

from tests.test_disc_loss import first_move_game, write_one_game

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPT = os.path.join(HERE, "..", "research", "endgame-choice.py")
EBONY = os.environ.get("EBONY_BIN")


@unittest.skipUnless(EBONY and os.path.exists(EBONY), "EBONY_BIN unset")
class EndgameChoiceTest(unittest.TestCase):
    @staticmethod
    def write_truth(tmp):
        """One game's results file in `tmp` and the truth of its position of 10 empties: their paths."""
        moves, _ = first_move_game()
        results, truth = os.path.join(tmp, "results.jsonl"), os.path.join(tmp, "truth.jsonl")
        write_one_game(results, moves)
        subprocess.run([sys.executable, SCRIPT, "truth", results, "10", "5", truth, "--ebony", EBONY],
                       check=True, capture_output=True)
        return results, truth

    def test_truth_scores_every_move_and_a_solved_position_loses_nothing(self):
        with tempfile.TemporaryDirectory() as tmp:
            _, truth = self.write_truth(tmp)
            with open(truth) as f:
                records = [json.loads(line) for line in f]
            out = subprocess.run([sys.executable, SCRIPT, "test", truth, "50", "--ebony", EBONY],
                                 check=True, capture_output=True, text=True).stdout
        self.assertEqual(len(records), 1)  # one game, one position
        self.assertEqual(records[0]["board"].count("-"), 10)
        self.assertGreater(len(records[0]["scores"]), 0)
        self.assertTrue(all(-64 <= s <= 64 and s % 2 == 0 for s in records[0]["scores"].values()))
        self.assertIn("1 positions, 50 ms each: 0.00 discs lost a position, 0 wins or draws thrown away, "
                      "best move in 1", out)

    def test_eval_reaches_the_binary(self):
        with tempfile.TemporaryDirectory() as tmp:
            results, truth = self.write_truth(tmp)
            weights = os.path.join(HERE, "..", "..", "src", "eval", "weights.ebev")
            same = subprocess.run([sys.executable, SCRIPT, "test", truth, "50", "--ebony", EBONY, "--eval", weights],
                                  check=True, capture_output=True, text=True).stdout
            # ebony refuses a file that is not weights and ends: the script cannot test with it.
            bad = subprocess.run([sys.executable, SCRIPT, "test", truth, "50", "--ebony", EBONY, "--eval", results],
                                 capture_output=True, text=True)
        self.assertIn("0.00 discs lost a position", same)
        self.assertNotEqual(bad.returncode, 0)


if __name__ == "__main__":
    unittest.main()
