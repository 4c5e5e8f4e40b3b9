"""endgame-blunders.py against the real binary: what the two sides' listed moves lost adds up to the
fall from the exact value at 16 empties to the game's result."""
import os
import re
import subprocess
import sys
import tempfile
import unittest

import othello
from judge import Judge
from tests.test_disc_loss import first_move_game, write_one_game

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPT = os.path.join(HERE, "..", "research", "endgame-blunders.py")
EBONY = os.environ.get("EBONY_BIN")
LINE = re.compile(r"^game \d+ ply \d+ empties (\d+): \S+ ([+-]\d+) -> ([+-]\d+)")


@unittest.skipUnless(EBONY and os.path.exists(EBONY), "EBONY_BIN unset")
class EndgameBlundersTest(unittest.TestCase):
    def lost(self, results, engine):
        out = subprocess.run([sys.executable, SCRIPT, results, engine, "--ebony", EBONY],
                             capture_output=True, text=True, check=True).stdout
        listed = [LINE.match(line) for line in out.splitlines() if line.startswith("game ")]
        self.assertTrue(all(listed), out)
        for m in listed:
            self.assertLessEqual(int(m.group(1)), 16)
            self.assertLess(int(m.group(3)), int(m.group(2)))
        self.assertIn(f"{len(listed)} lost value", out)
        return sum(int(m.group(2)) - int(m.group(3)) for m in listed)

    def test_losses_of_both_sides_add_up_to_the_fall_from_the_exact_value(self):
        moves, black_result = first_move_game()
        pos = othello.Position.start()
        for text in moves:  # the first position with 16 empties or fewer
            if 64 - othello.popcount(pos.black | pos.white) <= 16:
                break
            pos = pos.play(othello.PASS if text == "pass" else othello.parse_square(text))
        judge = Judge(EBONY)
        value = judge.score(pos, 60, new_game=True)
        judge.close()
        black_value = value if pos.side == othello.BLACK else -value
        with tempfile.TemporaryDirectory() as tmp:
            results = os.path.join(tmp, "results.jsonl")
            write_one_game(results, moves)
            lost_black, lost_white = self.lost(results, "a"), self.lost(results, "b")
        self.assertGreater(lost_black + lost_white, 0)  # playing the lowest square loses something
        self.assertEqual(lost_black - lost_white, black_value - black_result)


if __name__ == "__main__":
    unittest.main()
