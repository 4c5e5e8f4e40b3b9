"""scripts/soak: the growth check on made-up samples, and a short soak of the real binary over the
three protocols."""

import importlib.machinery
import importlib.util
import os
import re
import shlex
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
SOAK = os.path.join(HERE, "..", "soak")
EBONY = os.environ.get("EBONY_BIN")


def load_soak():
    loader = importlib.machinery.SourceFileLoader("soak", SOAK)
    spec = importlib.util.spec_from_loader("soak", loader)
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return module


soak = load_soak()
MB = 1024  # samples are in KB


def flat(rss_mb, fds=3, n=100):
    return [(rss_mb * MB, fds)] * n


class GrowthCheck(unittest.TestCase):
    def check(self, samples, **bounds):
        return soak.check_growth({(1, "native"): samples}, **bounds)

    def test_flat_memory_and_fds_pass(self):
        self.assertEqual(self.check(flat(85)), ([], []))

    def test_memory_growing_past_both_bounds_fails(self):
        failures, _ = self.check(flat(40, n=50) + flat(50, n=50))
        self.assertEqual(len(failures), 1, failures)
        self.assertRegex(failures[0], r"^memory growth: native \(pid 1\) 40\.0 MB -> 50\.0 MB \(\+10\.0 MB")

    def test_a_slow_leak_fails(self):
        # 20 KB a sample over 1,000 samples: about 18 MB between the first and last tenths
        leak = [(40 * MB + 20 * i, 3) for i in range(1000)]
        failures, _ = self.check(leak)
        self.assertEqual(len(failures), 1, failures)
        self.assertTrue(failures[0].startswith("memory growth:"), failures)

    def test_growth_within_either_bound_passes(self):
        # 6 MB on 200 MB is 3%: under the percentage; 3 MB on 20 MB is 15%: under the megabytes
        self.assertEqual(self.check(flat(200, n=50) + flat(206, n=50))[0], [])
        self.assertEqual(self.check(flat(20, n=50) + flat(23, n=50))[0], [])
        # tighter bounds fail the same samples
        self.assertEqual(len(self.check(flat(200, n=50) + flat(206, n=50), mem_mb=4, mem_pct=2)[0]), 1)

    def test_warm_up_is_not_growth(self):
        # the first 10% of samples are dropped: memory touched while the engine starts
        self.assertEqual(self.check(flat(10, n=10) + flat(85, n=90))[0], [])
        self.assertEqual(len(self.check(flat(10, n=10) + flat(85, n=90), warmup=0)[0]), 1)

    def test_fd_growth_fails(self):
        failures, _ = self.check(flat(85, fds=3, n=50) + flat(85, fds=4, n=50))
        self.assertEqual(failures, ["fd growth: native (pid 1) 3 -> 4 open descriptors"])

    def test_a_passing_moment_of_one_more_fd_is_no_growth(self):
        samples = flat(85)
        samples[95] = (85 * MB, 4)
        self.assertEqual(self.check(samples)[0], [])

    def test_too_few_samples_are_reported_not_judged(self):
        failures, unjudged = self.check(flat(40, n=5) + flat(90, n=5))
        self.assertEqual(failures, [])
        self.assertEqual(len(unjudged), 1)
        self.assertIn("too few to judge", unjudged[0])

    def test_each_process_is_judged_alone(self):
        # a process replaced by a larger one is not growth; growth in one of two processes is named
        failures, _ = soak.check_growth({(1, "gtp"): flat(30), (2, "gtp"): flat(60),
                                         (3, "nboard"): flat(30, n=50) + flat(40, n=50)})
        self.assertEqual(len(failures), 1, failures)
        self.assertIn("nboard (pid 3)", failures[0])


@unittest.skipUnless(EBONY and os.path.exists(EBONY), "EBONY_BIN unset")
class ShortSoak(unittest.TestCase):
    def test_a_short_soak_over_three_protocols_passes(self):
        with tempfile.TemporaryDirectory() as tmp:
            out = os.path.join(tmp, "soak")
            run = subprocess.run([sys.executable, SOAK, "--games", "12", "--out", out, "--ebony", EBONY,
                                  "--depth", "1", "--tc", "1+0.02", "--movetime", "5", "--hash", "8",
                                  "--interval", "0.1"], capture_output=True, text=True, timeout=300)
            again = subprocess.run([sys.executable, SOAK, "--games", "12", "--out", out, "--ebony", EBONY],
                                   capture_output=True, text=True, timeout=60)
        text = run.stdout
        self.assertEqual(run.returncode, 0, text + run.stderr)
        self.assertTrue(text.rstrip().endswith("soak: passed"), text)
        self.assertIn("\ngames: 20\n", text)  # one opening: 5 engines, 10 pairings, both colours
        self.assertIn("\nforfeits: 0\n", text)
        self.assertNotIn("FAIL", text)
        per = re.search(r"games per protocol: native (\d+), nboard (\d+), gtp (\d+)", text)
        self.assertIsNotNone(per, text)
        # native and GTP have two engines each (8 games each, 1 between them), NBoard one (8 games)
        self.assertEqual([int(n) for n in per.groups()], [14, 8, 14])
        for proto in ("native", "nboard", "gtp"):
            line = re.search(rf"^{proto}: (\d+) processes, (\d+) samples; memory first .* MB, last .* MB, "
                             rf"max .* MB, largest growth (?:[+-]\d+\.\d MB|not judged); "
                             rf"fds first \d+, last \d+, max \d+$", text, re.M)
            self.assertIsNotNone(line, f"{proto}:\n{text}")
            self.assertGreater(int(line.group(2)), 0)
        # a second run into the same directory is refused rather than mixed with the first
        self.assertEqual(again.returncode, 2)
        self.assertIn("holds an earlier run", again.stderr)

    def test_an_engine_that_dies_fails_the_soak(self):
        with tempfile.TemporaryDirectory() as tmp:
            # every process is killed a second after it starts: its games are lost by crash
            wrapper = os.path.join(tmp, "dying-ebony")
            with open(wrapper, "w", encoding="utf-8") as f:
                f.write(f'#!/bin/sh\nexec timeout 1 {shlex.quote(EBONY)} "$@"\n')
            os.chmod(wrapper, 0o755)
            run = subprocess.run([sys.executable, SOAK, "--games", "20", "--out", os.path.join(tmp, "soak"),
                                  "--ebony", wrapper, "--depth", "1", "--tc", "1+0.02", "--movetime", "5",
                                  "--hash", "8", "--interval", "0.1"], capture_output=True, text=True, timeout=300)
        text = run.stdout
        self.assertEqual(run.returncode, 1, text + run.stderr)
        self.assertTrue(text.rstrip().endswith("soak: failed"), text)
        self.assertRegex(text, r"\nFAIL forfeit: game \d+ \(\S+ against \S+\): (black|white) lost by crash: ")
        # the wrapper's children are not the command line the soak looks for: it says so
        self.assertIn("FAIL no gtp engine process was sampled", text)


if __name__ == "__main__":
    unittest.main()
