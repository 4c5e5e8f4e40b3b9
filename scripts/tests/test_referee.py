"""The referee end to end: matches between scripted engines over all three protocols, every kind of
adjudication, resume after an interruption, shards and merge, SPRT; gtp-rhino and ebony when present."""

import contextlib
import io
import os
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import unittest

import othello
import referee

HERE = os.path.dirname(os.path.abspath(__file__))
FAKE = f"{shlex.quote(sys.executable)} {shlex.quote(os.path.join(HERE, 'fake_engine.py'))}"
RHINO = shutil.which("gtp-rhino") or ("/usr/games/gtp-rhino" if os.path.exists("/usr/games/gtp-rhino") else None)


def alive(pid):
    """True while `pid` runs (a zombie waiting to be reaped counts as gone)."""
    try:
        with open(f"/proc/{pid}/stat", encoding="utf-8") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def interruptible():
    """Run in a child that a test interrupts with SIGINT: Python turns SIGINT into KeyboardInterrupt
    only when its parent left it at the default, and a shell without job control starts background
    commands (`cargo test ... &` in a script) with SIGINT ignored, which every child then inherits."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def fake(*flags, proto="native", name=None):
    tokens = [f"cmd={FAKE} {' '.join(flags)} --proto {proto}", f"proto={proto}"]
    return tokens + ([f"name={name}"] if name else [])


class Run(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="referee-test-")
        self.out = os.path.join(self.dir, "out")

    def tearDown(self):
        shutil.rmtree(self.dir, ignore_errors=True)

    def match(self, a, b, *extra, out=None, expect=0):
        argv = ["match", "-e", *a, "-e", *b, "--out", out or self.out, *extra]
        stdout, stderr = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(stdout), contextlib.redirect_stderr(stderr):
            code = referee.main(argv)
        self.assertEqual(code, expect, stderr.getvalue())
        return stdout.getvalue()

    def records(self, out=None):
        header, games = referee.read_records(os.path.join(out or self.out, referee.RESULTS))
        return header, games

    def assert_consistent(self, games):
        """Every finished game replays on an independent board to its recorded score."""
        for rec in games.values():
            pos = othello.replay([othello.parse_square(m) for m in rec["moves"]])
            if rec["discs"] is not None:
                self.assertTrue(pos.is_over(), rec)
                self.assertEqual(pos.disc_diff(), rec["discs"])


class Matches(Run):
    def test_native_match_records_every_game_and_prints_elo(self):
        text = self.match(fake("--style greedy", name="greedy"), fake(name="first"), "--count", "3", "-j", "2",
                          "--movetime", "5000")
        header, games = self.records()
        self.assertEqual(sorted(games), list(range(6)))
        self.assert_consistent(games)
        self.assertTrue(all(g["reason"] == "finished" for g in games.values()))
        self.assertIn("Elo difference (greedy - first)", text)
        self.assertIn("average disc difference for greedy", text)
        with open(os.path.join(self.out, referee.GAMES), encoding="utf-8") as f:
            ggfs = f.read().splitlines()
        self.assertEqual(len(ggfs), 6)
        self.assertTrue(all(g.startswith("(;GM[Othello]") and g.endswith(";)") for g in ggfs))
        # colours swap within each opening
        for i in range(3):
            self.assertEqual(games[2 * i]["black"], "greedy")
            self.assertEqual(games[2 * i + 1]["black"], "first")
            self.assertEqual(games[2 * i]["line"], games[2 * i + 1]["line"])

    def test_gtp_and_nboard_engines_play_whole_games(self):
        for proto in ("gtp", "nboard"):
            out = os.path.join(self.dir, proto)
            self.match(fake("--style greedy", proto=proto, name="g"), fake(proto="native", name="n"),
                       "--count", "2", "--movetime", "5000", out=out)
            _, games = self.records(out)
            self.assertEqual(len(games), 4, proto)
            self.assertTrue(all(g["reason"] == "finished" for g in games.values()), proto)
            self.assert_consistent(games)

    def test_clock_with_increment(self):
        self.match(fake("--style greedy"), fake(), "--count", "1", "--tc", "5+0.1")
        _, games = self.records()
        self.assertTrue(all(g["reason"] == "finished" for g in games.values()))


class Adjudication(Run):
    CASES = {
        # mode: (kind recorded, words in the reason)
        "illegal": ("illegal", "occupied"),
        "pass": ("illegal", "pass while"),
        "garbage": ("garbage", "quick brown fox"),
        "hang": ("time", "no bestmove in time"),
        "crash": ("crash", "exit status 3"),
        "slow": ("time", "in time"),
    }

    # Generous for the good engine (it answers in milliseconds) even on a loaded machine, and well
    # short of the slow mode's 1.2 s, so that a hang or a slow answer costs half a second, not more.
    def check(self, mode, proto, extra=("--movetime", "400", "--margin", "150")):
        out = os.path.join(self.dir, f"{mode}-{proto}")
        self.match(fake("--style greedy", proto=proto, name="good"),
                   fake("--mode", mode, "--after", "3", proto=proto, name="bad"),
                   "--count", "2", "-j", "2", *extra, out=out)
        _, games = self.records(out)
        self.assertEqual(len(games), 4)
        for rec in games.values():
            bad_colour = rec["faulty"]
            self.assertEqual(rec["black" if bad_colour == othello.BLACK else "white"], "bad", rec)
            self.assertEqual(rec["winner"], othello.WHITE if bad_colour == othello.BLACK else othello.BLACK)
            self.assertIsNone(rec["discs"])
            # a fresh process every game: the fault comes at its 3rd move again, not at its 1st
            self.assertGreaterEqual(len(rec["moves"]), len(othello.parse_line(rec["line"])) + 4, rec)
        return games

    def test_native_faults_lose_the_game(self):
        for mode, (kind, words) in self.CASES.items():
            with self.subTest(mode=mode):
                for rec in self.check(mode, "native").values():
                    self.assertEqual(rec["kind"], kind)
                    self.assertIn(words, rec["reason"])

    def test_gtp_and_nboard_faults_lose_the_game(self):
        for proto in ("gtp", "nboard"):
            for mode in ("illegal", "garbage", "hang", "crash"):
                with self.subTest(proto=proto, mode=mode):
                    kinds = {rec["kind"] for rec in self.check(mode, proto).values()}
                    self.assertEqual(kinds, {self.CASES[mode][0]})

    def test_clock_forfeit(self):
        games = self.check("slow", "native", ("--tc", "2", "--margin", "100"))
        self.assertTrue(all(g["kind"] == "time" for g in games.values()))

    def test_engine_that_dies_at_start_loses_every_game(self):
        self.match(fake(name="good"), fake("--mode", "badstart", name="bad"), "--count", "2", "--movetime", "5000")
        _, games = self.records()
        self.assertEqual(len(games), 4)
        for rec in games.values():
            self.assertEqual(rec["kind"], "crash")
            self.assertIn("start", rec["reason"])

    def test_missing_program_is_a_forfeit_not_a_crash_of_the_referee(self):
        self.match(fake(name="good"), ["cmd=/nonexistent/engine", "name=ghost"], "--count", "1", "--movetime", "5000")
        _, games = self.records()
        self.assertTrue(all("cannot start" in g["reason"] for g in games.values()))


class Bookkeeping(Run):
    def test_resume_plays_only_missing_games(self):
        a, b = fake("--style greedy", name="greedy"), fake(name="first")
        self.match(a, b, "--count", "3", "--movetime", "5000")
        path = os.path.join(self.out, referee.RESULTS)
        with open(path, encoding="utf-8") as f:
            lines = f.read().splitlines()
        self.assertEqual(len(lines), 7)
        with open(path, "w", encoding="utf-8") as f:  # as if killed while writing game 3
            f.write("\n".join(lines[:3]) + "\n" + lines[3][:20])
        self.match(a, b, "--count", "3", "--movetime", "5000")
        _, games = self.records()
        self.assertEqual(sorted(games), list(range(6)))
        with open(path, encoding="utf-8") as f:
            self.assertEqual(len(f.read().splitlines()), 7)  # header, 2 kept, 4 replayed: the torn line is cut
        # a different match in the same directory is refused
        self.match(a, b, "--count", "2", "--movetime", "5000", expect=2)

    def test_interrupt_keeps_finished_games_and_stops_the_engines(self):
        pids = os.path.join(self.dir, "pids")
        a = fake("--delay", "15", "--pidfile", pids, name="a")
        b = fake("--style greedy", "--delay", "15", "--pidfile", pids, name="b")
        argv = [sys.executable, os.path.join(os.path.dirname(HERE), "referee.py"), "match", "-e", *a, "-e", *b,
                "--count", "3", "--movetime", "5000", "--out", self.out]
        proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                preexec_fn=interruptible)
        deadline = time.monotonic() + 60
        results = os.path.join(self.out, referee.RESULTS)
        while time.monotonic() < deadline and not (os.path.exists(results) and self.records()[1]):
            time.sleep(0.1)
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=30)
        self.assertEqual(proc.returncode, 130, err)
        self.assertIn("run the same command again to resume", err)
        _, games = self.records()
        self.assertTrue(1 <= len(games) < 6, len(games))
        self.assert_consistent(games)
        with open(pids, encoding="utf-8") as f:
            for pid in map(int, f.read().split()):
                self.assertFalse(alive(pid), f"engine {pid} still running")
        done = subprocess.run(argv, capture_output=True, text=True, timeout=120)
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertIn(f"resuming: {len(games)} games already played", done.stderr)
        self.assertEqual(sorted(self.records()[1]), list(range(6)))

    def test_script_resumes_every_kind_of_time_control(self):
        # The header is compared with what JSON gives back: a clock once went in as a tuple and came back
        # as a list, so a clock match refused to resume ("holds a different match").
        script = os.path.join(os.path.dirname(HERE), "referee.py")
        for limit in (["--movetime", "5000"], ["--tc", "5+0.05"], ["--tc", "7"]):
            with self.subTest(limit=limit):
                out = os.path.join(self.dir, "tc" + "".join(limit))
                argv = [sys.executable, script, "match", "-e", *fake(name="p"), "-e", *fake(name="q"),
                        "--count", "2", *limit, "--out", out]
                first = subprocess.run(argv, capture_output=True, text=True, timeout=120)
                self.assertEqual(first.returncode, 0, first.stderr)
                path = os.path.join(out, referee.RESULTS)
                with open(path, encoding="utf-8") as f:
                    lines = f.read().splitlines()
                with open(path, "w", encoding="utf-8") as f:  # as if interrupted after two games
                    f.write("\n".join(lines[:3]) + "\n")
                again = subprocess.run(argv, capture_output=True, text=True, timeout=120)
                self.assertEqual(again.returncode, 0, again.stderr)
                self.assertIn("resuming: 2 games already played, 2 to go", again.stderr)
                self.assertEqual(sorted(self.records(out)[1]), list(range(4)))

    def test_shards_merge_into_the_full_summary(self):
        a, b = fake("--style greedy", name="greedy"), fake(name="first")
        full = self.match(a, b, "--count", "4", "--movetime", "5000", out=os.path.join(self.dir, "full"))
        parts = []
        for k in (1, 2):
            out = os.path.join(self.dir, f"shard{k}")
            self.match(a, b, "--count", "4", "--movetime", "5000", "--shard", f"{k}/2", out=out)
            _, games = self.records(out)
            self.assertEqual({g // 2 % 2 for g in games}, {k - 1})
            parts.append(out)
        stdout = io.StringIO()
        with contextlib.redirect_stdout(stdout):
            code = referee.main(["merge", *parts, "--out", os.path.join(self.dir, "merged")])
        self.assertEqual(code, 0)
        self.assertEqual(stdout.getvalue().strip(), full.strip())
        _, merged = self.records(os.path.join(self.dir, "merged"))
        self.assertEqual(sorted(merged), list(range(8)))

    def test_merge_refuses_different_matches(self):
        a, b = fake(name="x"), fake(name="y")
        self.match(a, b, "--count", "1", "--movetime", "3000", out=os.path.join(self.dir, "m1"))
        self.match(a, b, "--count", "1", "--movetime", "4000", out=os.path.join(self.dir, "m2"))
        with contextlib.redirect_stderr(io.StringIO()), contextlib.redirect_stdout(io.StringIO()):
            code = referee.main(["merge", os.path.join(self.dir, "m1"), os.path.join(self.dir, "m2")])
        self.assertEqual(code, 2)

    def test_sprt_stops_once_decided(self):
        xot = self.write_xot(40)
        text = self.match(fake(name="good"), fake("--mode", "illegal", name="bad"), "--openings", xot,
                          "--movetime", "5000", "--sprt", "elo0=0 elo1=50")
        _, games = self.records()
        self.assertLess(len(games), 80)
        self.assertIn("H1 accepted", text)
        self.assertIn("stopped early", text)

    def test_start_plays_every_game_from_the_start_position(self):
        # --repeats: the fake engines do not vary, so without it the referee refuses (test_tournament.py)
        text = self.match(fake(name="a"), fake(name="b"), "--start", "--count", "2", "--movetime", "5000",
                          "--repeats")
        _, games = self.records()
        self.assertEqual(len(games), 4)
        self.assertTrue(all(g["line"] == "" for g in games.values()), games)
        self.assertIn("start position", text)
        with self.assertRaises(referee.UsageError):
            referee.load_openings(None, None, None, start=True)

    def write_xot(self, n):
        # distinct legal 4-move lines, as an XOT-style file
        lines = []
        pos0 = othello.Position.start()
        for a in pos0.legal_moves():
            p1 = pos0.play(a)
            for b in p1.legal_moves():
                p2 = p1.play(b)
                for c in p2.legal_moves():
                    lines.append(othello.square_name(a) + othello.square_name(b) + othello.square_name(c))
        path = os.path.join(self.dir, "xot.txt")
        with open(path, "w", encoding="utf-8") as f:
            f.write("\n".join(lines[:n]) + "\n")
        return path

    def test_bad_openings_file_is_refused_with_its_line(self):
        path = os.path.join(self.dir, "bad.txt")
        with open(path, "w", encoding="utf-8") as f:
            f.write("f5d6c3\nf5f5\n")
        stderr = io.StringIO()
        with contextlib.redirect_stderr(stderr), contextlib.redirect_stdout(io.StringIO()):
            code = referee.main(["match", "-e", *fake(), "-e", *fake(), "--openings", path, "--movetime", "100",
                                 "--out", self.out])
        self.assertEqual(code, 2)
        self.assertIn("bad.txt:2", stderr.getvalue())

    def test_bad_engine_options_are_refused(self):
        for tokens in (["cmd=x", "depth=0"], ["cmd=x", "depth=six"], ["cmd=x", "proto=uci"], ["name=x"],
                       ["cmd=x", "colour=red"], ["cmd=x", "proto=gtp", "depth=4"], ["cmd=x", "movetime=0"],
                       ["cmd=x", "tc=soon"], ["cmd=x", "tc=0"], ["cmd=x", "movetime=100", "tc=5"]):
            with self.subTest(tokens=tokens), self.assertRaises(referee.UsageError):
                referee.EngineSpec(tokens)

    def test_builtin_openings_are_legal_and_distinct(self):
        import openings

        self.assertGreaterEqual(len(openings.DEFAULT), 20)
        self.assertEqual(len(set(openings.DEFAULT)), len(openings.DEFAULT))
        positions = {othello.replay(othello.parse_line(line)) for line in openings.DEFAULT}
        self.assertEqual(len(positions), len(openings.DEFAULT))

    def test_command_line_runs_as_a_script(self):
        script = os.path.join(os.path.dirname(HERE), "referee.py")
        done = subprocess.run([sys.executable, script, "match", "-e", "cmd=x", "-e"], capture_output=True, text=True)
        self.assertEqual(done.returncode, 2)
        done = subprocess.run([sys.executable, script, "match", *["-e", *fake(name="p")], *["-e", *fake(name="q")],
                               "--count", "1", "--movetime", "5000", "--out", self.out], capture_output=True, text=True)
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertIn("Elo difference", done.stdout)
        self.assertIn("games 2/2", done.stderr)


@unittest.skipUnless(RHINO, "gtp-rhino is not installed (apt-get install grhino)")
class Rhino(Run):
    def test_plays_gtp_rhino(self):
        self.match(fake("--style greedy", name="greedy"), [f"cmd={RHINO}", "proto=gtp", "name=rhino"],
                   "--count", "2", "--movetime", "5000")
        _, games = self.records()
        self.assertEqual(len(games), 4)
        self.assertTrue(all(g["reason"] == "finished" for g in games.values()), games)
        self.assert_consistent(games)


def ebony_speaks_native():
    binary = os.environ.get("EBONY_BIN")
    if not binary or not os.path.exists(binary):
        return None
    try:
        done = subprocess.run([binary], input="isready\nquit\n", capture_output=True, text=True, timeout=10)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return binary if "readyok" in done.stdout.split() else None


EBONY = ebony_speaks_native()


@unittest.skipUnless(EBONY, "EBONY_BIN unset or its native protocol loop not built yet")
class Ebony(Run):
    def test_depth_2_against_depth_1(self):
        text = self.match([f"cmd={EBONY}", "depth=2", "name=d2"], [f"cmd={EBONY}", "depth=1", "name=d1"],
                          "--count", "2")
        _, games = self.records()
        self.assertEqual(len(games), 4)
        self.assertTrue(all(g["reason"] == "finished" for g in games.values()), games)
        self.assert_consistent(games)
        self.assertIn("Elo difference (d2 - d1)", text)

    def test_ebony_against_gtp_rhino(self):
        if not RHINO:
            self.skipTest("gtp-rhino is not installed")
        self.match([f"cmd={EBONY}", "depth=2", "name=ebony"], [f"cmd={RHINO}", "proto=gtp", "name=rhino"],
                   "--count", "1")
        _, games = self.records()
        self.assertTrue(all(g["reason"] == "finished" for g in games.values()), games)


if __name__ == "__main__":
    unittest.main()
