"""match_times.py: averages a move per engine, and by the empties before the move."""
import json
import os
import subprocess
import sys
import tempfile
import unittest

from tests.test_disc_loss import first_move_game

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPT = os.path.join(HERE, "..", "research", "match_times.py")


class MatchTimesTest(unittest.TestCase):
    def test_times_by_empties_follow_the_moves_and_passes(self):
        moves, _ = first_move_game()
        # Each timed move takes as many milliseconds as there are empties before it; the first 4
        # moves are the opening (no time).
        times, empties = [], 60
        for ply, move in enumerate(moves):
            times.append(None if ply < 4 else empties / 1000)
            empties -= move != "pass"
        with tempfile.TemporaryDirectory() as tmp:
            with open(os.path.join(tmp, "results.jsonl"), "w") as f:
                f.write(json.dumps({"type": "match", "version": 1, "tc": {"movetime_ms": 100}}) + "\n")
                f.write(json.dumps({"type": "game", "id": 0, "black": "a", "white": "b", "moves": moves,
                                    "times": times}) + "\n")
            out = subprocess.run([sys.executable, SCRIPT, "--by-empties", "20-30", tmp],
                                 capture_output=True, text=True, check=True).stdout
            after = subprocess.run([sys.executable, SCRIPT, tmp, "--by-empties", "20-30"],
                                   capture_output=True, text=True, check=True).stdout
            bad = subprocess.run([sys.executable, SCRIPT, "--by-empties", "x", tmp], capture_output=True, text=True)
        by_empties = "".join(line for line in out.splitlines(True) if "by empties" in line)
        self.assertIn("ms a move by empties", by_empties)
        # Every empties count from 30 to 20 was seen by one side or the other, at its own value.
        for e in range(20, 31):
            self.assertIn(f"{e}: {e}", by_empties)
        self.assertIn("longest 56 ms", out)  # the first timed move: 56 empties
        self.assertEqual(after, out)  # the option may follow the directories
        self.assertNotEqual(bad.returncode, 0)
        self.assertIn("expected LO-HI", bad.stderr)  # the range's own message, not just the usage line

    def test_time_left_on_each_engines_own_clock(self):
        moves, _ = first_move_game()
        times = [None if ply < 4 else 0.01 for ply in range(len(moves))]
        spent = {side: sum(t for ply, t in enumerate(times) if t and ply % 2 == side) for side in (0, 1)}
        moved = {side: sum(1 for ply, t in enumerate(times) if t and ply % 2 == side) for side in (0, 1)}
        header = {"type": "tournament", "version": 1, "tc": {"movetime_ms": None, "clock_ms": [2000.0, 100.0]},
                  "engines": [{"name": "a", "clock_ms": [5000.0, 0.0]}, {"name": "b"},
                              {"name": "c", "movetime_ms": 50}]}
        with tempfile.TemporaryDirectory() as tmp:
            with open(os.path.join(tmp, "results.jsonl"), "w") as f:
                f.write(json.dumps(header) + "\n")
                f.write(json.dumps({"type": "game", "id": 0, "black": "a", "white": "b", "moves": moves,
                                    "times": times}) + "\n")
                f.write(json.dumps({"type": "game", "id": 1, "black": "c", "white": "b", "moves": moves,
                                    "times": times}) + "\n")
            out = subprocess.run([sys.executable, SCRIPT, tmp], capture_output=True, text=True, check=True).stdout
        a_left = 5 - spent[0]
        b_left = 2 + moved[1] * 0.1 - spent[1]
        self.assertIn(f"a: time left at the end of 1 games: least {a_left:.2f} s", out)
        self.assertIn(f"b: time left at the end of 2 games: least {b_left:.2f} s", out)
        self.assertNotIn("c: time left", out)  # its own movetime=, no clock


if __name__ == "__main__":
    unittest.main()
