"""external-games.py: the record of game files kept outside the repository, each file's state, and
the commands that make the missing ones."""
import hashlib
import os
import shlex
import stat
import subprocess
import sys
import tempfile
import textwrap
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPT = os.path.join(HERE, "..", "external-games.py")

ARGS = "--seed 31 --depth 8 --solve 18 --no-scores"


def run(root, *args):
    return subprocess.run([sys.executable, SCRIPT, "--root", root, *args], capture_output=True, text=True, cwd=root)


class ExternalGamesTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.root = self.tmp.name
        os.makedirs(os.path.join(self.root, "data", "external"))
        # Whole files: a made one, one run on past its record, one cut short, one that differs.
        self.contents = {"made.ebgm": b"games" * 100, "ahead.ebgm": b"ahead" * 100,
                         "partial.ebgm": b"short" * 100, "differs.ebgm": b"other" * 100}
        lines = ["# name games bytes sha256 commit weight cpu arguments"]
        for name, data in self.contents.items():
            lines.append(f"{name} 10 {len(data)} {hashlib.sha256(data).hexdigest()} abc1234 2 36 {ARGS}")
        lines.append(f"missing.ebgm 20 100 {'0' * 64} def5678 1 180 {ARGS}")
        self.write_manifest(lines)
        self.write("made.ebgm", self.contents["made.ebgm"])
        self.write("ahead.ebgm", self.contents["ahead.ebgm"] + b"more games")
        self.write("partial.ebgm", self.contents["partial.ebgm"][:-1])
        self.write("differs.ebgm", b"OTHER" * 100)

    def tearDown(self):
        self.tmp.cleanup()

    def write_manifest(self, lines):
        with open(os.path.join(self.root, "data", "external-games.txt"), "w") as f:
            f.write("\n".join(lines) + "\n")

    def write(self, name, data):
        with open(os.path.join(self.root, "data", "external", name), "wb") as f:
            f.write(data)

    def test_each_file_is_judged_by_its_recorded_bytes(self):
        out = run(self.root, "list")
        self.assertEqual(out.returncode, 0, out.stderr)
        states = dict(line.split(": ", 1)[0:2] for line in out.stdout.splitlines() if ".ebgm: " in line)
        self.assertTrue(states["made.ebgm"].startswith("made,"))
        self.assertTrue(states["ahead.ebgm"].startswith("made,"))  # the recorded bytes are there, more follow
        self.assertTrue(states["partial.ebgm"].startswith("partial,"))
        self.assertTrue(states["differs.ebgm"].startswith("differs,"))
        self.assertTrue(states["missing.ebgm"].startswith("missing,"))
        # The CPU time to make the rest: partial and differs 10 games of 36 s each, missing 20 of 180 s.
        self.assertIn("2 of 5 files made; the rest take about 1.2 CPU-hours", out.stdout)
        self.assertIn("missing.ebgm: missing, 20 games, 100 bytes, commit def5678, 1.0 CPU-hours", out.stdout)
        self.assertEqual(run(self.root, "check").returncode, 1)

    def test_files_lists_the_made_ones_with_their_weights_and_names_those_past_their_record(self):
        out = run(self.root, "files")
        self.assertEqual(out.returncode, 0, out.stderr)
        self.assertEqual(out.stdout.split(), ["data/external/made.ebgm@2", "data/external/ahead.ebgm@2"])
        self.assertIn("ahead.ebgm holds more than its record", out.stderr)

    def test_make_builds_each_commit_once_and_runs_the_recorded_commands(self):
        os.remove(os.path.join(self.root, "data", "external", "differs.ebgm"))
        out = run(self.root, "make", "--dry-run", "--jobs", "2")
        self.assertEqual(out.returncode, 0, out.stderr)
        commands = [shlex.split(line) for line in out.stdout.splitlines()]
        tree = os.path.join(self.root, "target", "external")
        builds = [c for c in commands if c[:2] == ["cargo", "build"]]
        self.assertEqual([c[-1] for c in builds],
                         [os.path.join(tree, "abc1234", "Cargo.toml"), os.path.join(tree, "def5678", "Cargo.toml")])
        gens = {c[c.index("--out") + 1]: c for c in commands if "gen" in c}
        external = os.path.join(self.root, "data", "external")
        self.assertEqual(sorted(gens), sorted(os.path.join(external, n)
                                              for n in ("partial.ebgm", "differs.ebgm", "missing.ebgm")))
        missing = gens[os.path.join(external, "missing.ebgm")]
        self.assertEqual(missing[0], os.path.join(tree, "def5678", "target", "release", "ebony-train"))
        self.assertEqual(missing[missing.index("--games") + 1], "20")
        self.assertEqual(missing[missing.index("--eval") + 1], os.path.join(tree, "def5678", "src", "eval", "weights.ebev"))
        self.assertIn(ARGS, shlex.join(missing))
        # A file that differs from its record is never written over.
        self.write("differs.ebgm", b"OTHER" * 100)
        refused = run(self.root, "make", "--dry-run")
        self.assertEqual(refused.returncode, 1)
        self.assertIn("differs from its record", refused.stderr)
        self.assertIn("not in data/external-games.txt", run(self.root, "make", "nothing.ebgm").stderr)

    def test_record_updates_a_line_from_the_file_and_adds_new_ones(self):
        # A stand-in for the trainer's `count`: the games are the file's bytes over 50.
        trainer = os.path.join(self.root, "target", "release", "ebony-train")
        os.makedirs(os.path.dirname(trainer))
        with open(trainer, "w") as f:
            f.write(textwrap.dedent("""\
                #!/bin/sh
                size=$(wc -c < "$2")
                echo "$2: $((size / 50)) games, $((size / 5)) positions"
                """))
        os.chmod(trainer, os.stat(trainer).st_mode | stat.S_IEXEC)
        out = run(self.root, "record", "ahead.ebgm")
        self.assertEqual(out.returncode, 0, out.stderr)
        self.assertIn("ahead.ebgm: 10 games, 510 bytes recorded", out.stdout)
        self.assertNotIn("holds more", run(self.root, "files").stderr)
        self.write("new.ebgm", b"n" * 250)
        self.assertIn("not recorded", run(self.root, "record", "new.ebgm").stderr)
        added = run(self.root, "record", "new.ebgm", "abc1234", "2", "0.04", *ARGS.split())
        self.assertEqual(added.returncode, 0, added.stderr)
        with open(os.path.join(self.root, "data", "external-games.txt")) as f:
            line = f.read().splitlines()[-1].split()
        self.assertEqual(line[:3], ["new.ebgm", "5", "250"])
        self.assertEqual(line[3], hashlib.sha256(b"n" * 250).hexdigest())
        self.assertEqual(" ".join(line[4:]), f"abc1234 2 0.04 {ARGS}")
        self.assertIn("recorded already", run(self.root, "record", "new.ebgm", "abc1234", "2", "0.04", "--seed", "1").stderr)
        # Fewer games than recorded: a file cut short is not recorded over its line.
        self.write("made.ebgm", b"games" * 5)
        self.assertIn("fewer than", run(self.root, "record", "made.ebgm").stderr)

    def test_a_bad_manifest_is_one_error_line(self):
        self.write_manifest([f"x.ebgm 10 ten {'0' * 64} abc 1 0.1 {ARGS}"])
        out = run(self.root, "list")
        self.assertEqual(out.returncode, 1)
        self.assertIn("line 1: GAMES and BYTES are whole numbers", out.stderr)
        self.write_manifest([f"x.ebgm 10 10 {'0' * 64} abc 1 0.1 --games 5 {ARGS}"])
        self.assertIn("come from the line itself", run(self.root, "list").stderr)


if __name__ == "__main__":
    unittest.main()
