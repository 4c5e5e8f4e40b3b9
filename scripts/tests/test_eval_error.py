"""eval-error.py against the real binary: every position past move 8 counted, labelled with the game's
result from black's side, and two builds compared position by position."""
import os
import re
import struct
import subprocess
import sys
import tempfile
import unittest

import othello
from tests.test_disc_loss import EBONY, first_move_game, write_one_game

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPT = os.path.join(HERE, "..", "research", "eval-error.py")
WEIGHTS = os.path.join(HERE, "..", "..", "src", "eval", "weights.ebev")
HEADER = 32


def zero_weights(path):
    """The built-in weight file's header over a body of zeros (its FNV-1a checksum renewed): a build
    given it evaluates every position as 0."""
    with open(WEIGHTS, "rb") as f:
        header = bytearray(f.read(HEADER))
        body = len(f.read())
    # FNV-1a over zero bytes only multiplies: the offset basis times the prime to the length.
    checksum = 0xCBF29CE484222325 * pow(0x100000001B3, body, 1 << 64) % (1 << 64)
    header[24:32] = struct.pack("<Q", checksum)
    with open(path, "wb") as f:
        f.write(header)
        f.write(bytes(body))


@unittest.skipUnless(EBONY and os.path.exists(EBONY), "EBONY_BIN unset")
class EvalErrorTest(unittest.TestCase):
    def test_positions_labels_and_the_difference(self):
        moves, black_result = first_move_game()
        self.assertNotEqual(black_result, 0)
        counted = len([m for m in moves if m != "pass"]) - 8
        with tempfile.TemporaryDirectory() as tmp:
            results, zero = os.path.join(tmp, "results.jsonl"), os.path.join(tmp, "zero.ebev")
            write_one_game(results, moves)
            zero_weights(zero)
            same = subprocess.run([sys.executable, SCRIPT, results, "-a", EBONY, "-b", EBONY],
                                  capture_output=True, text=True, check=True).stdout
            blind = subprocess.run([sys.executable, SCRIPT, results, "-a", EBONY, "-b", f"{EBONY} --eval {zero}"],
                                   capture_output=True, text=True, check=True).stdout
        self.assertTrue(same.startswith(f"{counted} positions"), same)
        self.assertIn("a - b: +0.0000 discs", same)
        rows = dict(re.findall(r"^([ab])  ([\d.]+) \|", blind, re.M))
        # Every position scored 0 is off by the game's result.
        self.assertEqual(float(rows["b"]), abs(black_result))
        difference = float(re.search(r"a - b: ([+-][\d.]+)", blind).group(1))
        self.assertAlmostEqual(difference, float(rows["a"]) - abs(black_result), places=2)


if __name__ == "__main__":
    unittest.main()
