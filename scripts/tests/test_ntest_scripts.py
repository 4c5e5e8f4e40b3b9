"""vs-ntest and ntest-bench.py without ntest: one line on stderr saying where to get it, nothing on
stdout, a non-zero exit (no traceback, no pointer to a file outside the repository)."""
import os
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPTS = os.path.join(HERE, "..")


class WithoutNtest(unittest.TestCase):
    def check_one_line(self, out):
        self.assertNotEqual(out.returncode, 0, out)
        self.assertEqual(out.stdout, "", out)
        lines = out.stderr.splitlines()
        self.assertEqual(len(lines), 1, f"expected one line on stderr, got:\n{out.stderr}")
        self.assertIn("ntest", lines[0])
        self.assertIn("docs/anchors.md", lines[0])
        self.assertNotIn("../shared", lines[0])

    def test_vs_ntest_says_where_to_get_ntest(self):
        with tempfile.TemporaryDirectory() as tmp:
            env = dict(os.environ, NTEST_DIR=os.path.join(tmp, "run"))
            out = subprocess.run(["bash", os.path.join(SCRIPTS, "vs-ntest"), os.path.join(tmp, "out"), "8",
                                  "depth=8", "2"], capture_output=True, text=True, env=env, timeout=60)
        self.check_one_line(out)

    def test_ntest_bench_says_where_to_get_ntest(self):
        with tempfile.TemporaryDirectory() as tmp:
            out = subprocess.run([sys.executable, os.path.join(SCRIPTS, "ntest-bench.py"), "8", os.path.join(tmp, "run")],
                                 capture_output=True, text=True, timeout=60)
        self.check_one_line(out)

    def test_ntest_bench_default_folder_without_ntest(self):
        with tempfile.TemporaryDirectory() as tmp:
            env = dict(os.environ, NTEST_DIR=os.path.join(tmp, "run"))
            out = subprocess.run([sys.executable, os.path.join(SCRIPTS, "ntest-bench.py"), "8"],
                                 capture_output=True, text=True, env=env, timeout=60)
        self.check_one_line(out)


if __name__ == "__main__":
    unittest.main()
