"""average-weights.py: the mean of several weights files is each weight's mean, rounded to the nearest
with halves to the even one, under the first file's header with a checksum the engine accepts; files
of another layout are refused."""
import os
import struct
import subprocess
import sys
import tempfile
import unittest

# test_split_phases puts the research folder, and so ebev.py, on the path
from tests.test_split_phases import RESEARCH, weights_file

import ebev  # noqa: E402

SCRIPT = os.path.join(RESEARCH, "average-weights.py")


def run(*args):
    return subprocess.run([sys.executable, SCRIPT, *args], capture_output=True, text=True)


class AverageWeightsTest(unittest.TestCase):
    def test_each_weight_is_the_rounded_mean(self):
        with tempfile.TemporaryDirectory() as tmp:
            a, b, c, out = (os.path.join(tmp, n) for n in ("a.ebev", "b.ebev", "c.ebev", "out.ebev"))
            weights_file(a, 2, 4, [[1, -1, 3], [32767, -32768, 0]])
            weights_file(b, 2, 4, [[2, 0, 4], [32767, -32768, 1]])
            self.assertEqual(run(out, a, b).returncode, 0)
            header, body = ebev.read(out)  # a valid file: the checksum is the new body's
            self.assertEqual(header[:5], ebev.read(a)[0][:5])
            # means 1.5, -0.5, 3.5 | 32767, -32768, 0.5: halves go to the even weight
            self.assertEqual(struct.unpack("<6h", body), (2, 0, 4, 32767, -32768, 0))
            weights_file(c, 2, 4, [[3, 1, 3], [-1, 1, 2]])
            self.assertEqual(run(out, a, b, c).returncode, 0)
            # means 2, 0, 10/3 | 65533/3, -65535/3, 1
            self.assertEqual(struct.unpack("<6h", ebev.read(out)[1]), (2, 0, 3, 21844, -21845, 1))

    def test_another_layout_is_refused(self):
        with tempfile.TemporaryDirectory() as tmp:
            a, b, out = (os.path.join(tmp, n) for n in ("a.ebev", "b.ebev", "out.ebev"))
            weights_file(a, 2, 4, [[1], [2]])
            weights_file(b, 1, 8, [[1, 2]])  # as many weights, in one phase of 8 empties
            result = run(out, a, b)
            self.assertEqual(result.returncode, 1)
            self.assertIn("another layout", result.stderr)
            self.assertFalse(os.path.exists(out))
            with open(b, "r+b") as f:  # a damaged file: its checksum no longer matches
                f.seek(ebev.HEADER.size)
                f.write(b"\x07")
            self.assertIn("not a whole ebony weights file", run(out, a, b).stderr)


if __name__ == "__main__":
    unittest.main()
