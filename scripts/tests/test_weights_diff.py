"""weights-diff.py: the mean absolute difference in discs, the share that differ and each file's mean
absolute weight, in ebony's unit of 1/SCALE disc; files of another layout are refused."""
import os
import re
import subprocess
import sys
import tempfile
import unittest

# test_split_phases puts the research folder, and so ebev.py, on the path
from tests.test_split_phases import RESEARCH, weights_file

import ebev  # noqa: E402

SCRIPT = os.path.join(RESEARCH, "weights-diff.py")
LEARNED = os.path.join(RESEARCH, "..", "..", "src", "eval", "learned.rs")


def run(*args):
    return subprocess.run([sys.executable, SCRIPT, *args], capture_output=True, text=True)


class WeightsDiffTest(unittest.TestCase):
    def test_the_scale_is_the_engines(self):
        with open(LEARNED) as f:
            self.assertEqual(int(re.search(r"pub const SCALE: i32 = (\d+);", f.read()).group(1)), ebev.SCALE)

    def test_differences_in_discs(self):
        with tempfile.TemporaryDirectory() as tmp:
            a, b = os.path.join(tmp, "a.ebev"), os.path.join(tmp, "b.ebev")
            weights_file(a, 2, 4, [[64, -64], [0, 32]])
            weights_file(b, 2, 4, [[64, 64], [-32, 32]])
            result = run(a, b)
            self.assertEqual(result.returncode, 0, result.stderr)
            # differences 0, 128, 32, 0: 160 / 4 / 64 = 0.625 discs; two of four differ
            self.assertIn("4 weights; mean absolute difference 0.6250 discs, 50.0% differ, the largest 2.00",
                          result.stdout)
            self.assertIn(f"{a}: mean absolute weight 0.6250 discs", result.stdout)  # 160 / 4 / 64
            self.assertIn(f"{b}: mean absolute weight 0.7500 discs", result.stdout)  # 192 / 4 / 64

    def test_another_layout_is_refused(self):
        with tempfile.TemporaryDirectory() as tmp:
            a, b = os.path.join(tmp, "a.ebev"), os.path.join(tmp, "b.ebev")
            weights_file(a, 2, 4, [[1], [2]])
            weights_file(b, 1, 8, [[1, 2]])
            result = run(a, b)
            self.assertEqual(result.returncode, 1)
            self.assertIn("another layout", result.stderr)


if __name__ == "__main__":
    unittest.main()
