"""pad-weights.py: the appended patterns' classes are 0 at the end of the patterns' classes, every
other weight is copied, under the layout file's header with the new body's checksum."""
import os
import struct
import subprocess
import sys
import tempfile
import unittest

# test_split_phases puts the research folder, and so ebev.py, on the path
from tests.test_split_phases import RESEARCH, weights_file

import ebev  # noqa: E402

SCRIPT = os.path.join(RESEARCH, "pad-weights.py")
TAIL = (32 + 32 + 40 + 40 + 10 + 41 + 41) + (65536 + 256) // 2  # global features and edge moves


class PadWeightsTest(unittest.TestCase):
    def test_appended_classes_are_zero_and_the_rest_copied(self):
        with tempfile.TemporaryDirectory() as tmp:
            old, layout, out = (os.path.join(tmp, n) for n in ("old.ebev", "layout.ebev", "out.ebev"))
            phases = [[7 + p, -3 - p] + [(i % 200) - 100 + p for i in range(TAIL)] for p in range(2)]
            weights_file(old, 2, 4, phases)
            weights_file(layout, 2, 4, [[5] * (TAIL + 5) for _ in range(2)])
            result = subprocess.run([sys.executable, SCRIPT, old, layout, out], capture_output=True, text=True)
            self.assertEqual(result.returncode, 0, result.stderr)
            header, body = ebev.read(out)
            self.assertEqual(header[:5], ebev.read(layout)[0][:5])
            weights = struct.unpack(f"<{len(body) // 2}h", body)
            self.assertEqual(list(weights), [w for phase in phases for w in phase[:2] + [0, 0, 0] + phase[2:]])

    def test_files_of_other_phases_are_refused(self):
        with tempfile.TemporaryDirectory() as tmp:
            old, layout, out = (os.path.join(tmp, n) for n in ("old.ebev", "layout.ebev", "out.ebev"))
            weights_file(old, 2, 4, [[0] * (TAIL + 1)] * 2)
            weights_file(layout, 1, 8, [[0] * (TAIL + 4)])
            result = subprocess.run([sys.executable, SCRIPT, old, layout, out], capture_output=True, text=True)
            self.assertIn("differ in phases or version", result.stderr)
            self.assertFalse(os.path.exists(out))


if __name__ == "__main__":
    unittest.main()
