"""split-phases.py: a split and then a merge by the same factor give the file back byte for byte
(weights, checksum and the unwound layout fingerprint), and a merge rounds each mean to the nearest
weight, halves to the even one."""
import importlib.util
import os
import struct
import subprocess
import sys
import tempfile
import unittest

RESEARCH = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "research")
SCRIPT = os.path.join(RESEARCH, "split-phases.py")
sys.path.insert(0, RESEARCH)
import ebev  # noqa: E402  (the research folder is on the path from here on)

spec = importlib.util.spec_from_file_location("split_phases", SCRIPT)
split_phases = importlib.util.module_from_spec(spec)
spec.loader.exec_module(split_phases)


def weights_file(path, phases, width, weights_by_phase):
    """A version-2 weights file of `phases` phases of `width` empties with these i16 weights, its
    fingerprint FNV-1a over a made-up description ending with the layout, as the engine's ends."""
    body = b"".join(struct.pack(f"<{len(w)}h", *w) for w in weights_by_phase)
    fingerprint = ebev.fnv1a(struct.pack("<II", phases, width), ebev.fnv1a(b"features"))
    header = ebev.HEADER.pack(b"EBEV", 2, fingerprint, phases, len(weights_by_phase[0]),
                            ebev.fnv1a(body))
    with open(path, "wb") as f:
        f.write(header + body)


def run(*args):
    return subprocess.run([sys.executable, SCRIPT, *args], capture_output=True, text=True)


class SplitPhasesTest(unittest.TestCase):
    def test_a_split_then_a_merge_gives_the_file_back(self):
        with tempfile.TemporaryDirectory() as tmp:
            source, split, back = (os.path.join(tmp, n) for n in ("w.ebev", "split.ebev", "back.ebev"))
            weights_file(source, 3, 4, [[1, -2, 300], [-7, 0, 5], [32767, -32768, 9]])
            self.assertEqual(run(source, split, "--width", "4", "--factor", "2").returncode, 0)
            self.assertEqual(run(split, back, "--width", "2", "--merge", "2").returncode, 0)
            with open(source, "rb") as a, open(split, "rb") as s, open(back, "rb") as b:
                original, doubled = a.read(), s.read()
                self.assertEqual(b.read(), original)
            # The split file differs from the source in its layout: 6 phases, another fingerprint.
            self.assertEqual(ebev.HEADER.unpack_from(doubled)[3], 6)
            self.assertNotEqual(doubled[8:16], original[8:16])

    def test_a_merge_rounds_to_the_nearest_halves_to_even(self):
        first, second = [1, -1, 3, 2, -3], [2, 0, 4, 2, -2]
        body = struct.pack("<10h", *first, *second)
        # means 1.5, -0.5, 3.5, 2, -2.5
        self.assertEqual(struct.unpack("<5h", split_phases.merged(body, 10, 2)), (2, 0, 4, 2, -2))
        thirds = struct.pack("<6h", 1, 2, 2, 2, 1, -2)
        # three phases of two weights, (1, 2), (2, 2), (1, -2): means 4/3 and 2/3
        self.assertEqual(struct.unpack("<2h", split_phases.merged(thirds, 4, 3)), (1, 1))

    def test_factor_and_merge_together_are_refused(self):
        with tempfile.TemporaryDirectory() as tmp:
            source = os.path.join(tmp, "w.ebev")
            weights_file(source, 2, 4, [[1], [2]])
            result = run(source, os.path.join(tmp, "out.ebev"), "--factor", "2", "--merge", "2")
            self.assertEqual(result.returncode, 2)
            self.assertIn("not allowed with", result.stderr)


if __name__ == "__main__":
    unittest.main()
