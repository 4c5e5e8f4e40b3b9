"""Tournaments: the Bayesian ratings against hand-computed cases and a synthetic tournament, the plan
of games, and whole tournaments of scripted engines over three protocols (interrupted and resumed,
sharded and merged, with forfeits and per-engine limits); ebony and gtp-rhino when present."""

import contextlib
import io
import json
import math
import os
import random
import signal
import subprocess
import sys
import time
import unittest

import othello
import rating
import referee
import stats
import tournament

from .test_referee import EBONY, FAKE, HERE, RHINO, Run, alive, fake, interruptible

SCRIPT = os.path.join(os.path.dirname(HERE), "referee.py")
NAT = 400 / math.log(10)  # Elo per natural-log unit of odds


def simulated(true, advantage, drawelo, per, seed):
    """Games of a round-robin drawn from BayesElo's model: every pair plays `per` games with each colour."""
    rng = random.Random(seed)
    games = []
    for i in range(len(true)):
        for j in range(i + 1, len(true)):
            for _ in range(per):
                for b, w in ((i, j), (j, i)):
                    x = true[b] - true[w] + advantage
                    black, white = stats.elo_to_score(x - drawelo), stats.elo_to_score(-x - drawelo)
                    u = rng.random()
                    games.append((b, w, 1.0 if u < black else 0.0 if u < black + white else 0.5))
    return games


def colours_both_ways(scores):
    """(black, white, black's score) of engine 0 against engine 1, each score once with 0 black and once
    with 0 white: the colour advantage is then 0 by symmetry."""
    return [(0, 1, s) for s in scores] + [(1, 0, 1 - s) for s in scores]


class Ratings(unittest.TestCase):
    # A scores 3 wins, 1 draw, 1 loss with each colour. By symmetry the advantage is 0; the prior adds
    # 2 virtual draws, half a win each way: 7 wins, 2 draws, 3 losses. Two parameters (the difference D
    # and the draw width d) for three outcomes fit them exactly: f(D - d) = 7/12 and f(-D - d) = 3/12, so
    # in natural-log units D - d = ln(7/5) and -D - d = ln(1/3): D = ln(4.2)/2, d = ln(3/1.4)/2.
    def test_a_case_computed_by_hand(self):
        games = colours_both_ways([1, 1, 1, 0.5, 0])
        fit = rating.bayes(2, games, anchor=1)
        a, b = fit.ratings
        self.assertAlmostEqual(a.elo, math.log(4.2) / 2 * NAT, places=6)  # 124.65
        self.assertEqual((b.elo, b.note), (0.0, "anchor"))
        self.assertAlmostEqual(fit.drawelo, math.log(3 / 1.4) / 2 * NAT, places=6)  # 66.20
        self.assertAlmostEqual(fit.advantage, 0.0, places=6)
        low, high = rating.ratings(2, games)  # mean anchor: each half the difference
        self.assertAlmostEqual(low.elo, a.elo / 2, places=6)
        self.assertAlmostEqual(high.elo, -a.elo / 2, places=6)

    # A sweeps B, 5 games with each colour. No draw: the draw width is 0, and the prior's half wins make
    # 11 wins to 1, so D = ln 11; the information in D is 11 x 1 / 12 (the advantage's is independent of
    # it by symmetry), the standard error sqrt(12/11).
    def test_a_sweep_is_finite_and_its_interval_is_the_hand_computed_one(self):
        fit = rating.bayes(2, colours_both_ways([1] * 5), anchor=1)
        a = fit.ratings[0]
        self.assertAlmostEqual(a.elo, math.log(11) * NAT, places=6)  # 416.56
        self.assertAlmostEqual(a.high - a.elo, 1.959964 * math.sqrt(12 / 11) * NAT, places=6)  # 355.62
        self.assertEqual(fit.drawelo, 0.0)
        self.assertIsNone(fit.drawelo_sd)
        # the likelihood of superiority is Phi(D / sd)
        self.assertAlmostEqual(fit.los[(0, 1)], 0.5 * (1 + math.erf(math.log(11) / math.sqrt(2 * 12 / 11))), places=9)
        self.assertAlmostEqual(fit.los[(0, 1)] + fit.los[(1, 0)], 1.0, places=12)

    def test_sweeps_and_shut_outs_give_finite_ordered_ratings(self):
        # 0 sweeps everyone, 3 loses every game, 1 and 2 share points: nothing is infinite, the order holds
        games = colours_both_ways([1] * 4)
        for i, j, s in [(0, 2, 1)] * 4 + [(0, 3, 1)] * 4 + [(1, 3, 1)] * 4 + [(2, 3, 1)] * 4 + [(1, 2, 1), (1, 2, 0),
                                                                                                  (2, 1, 0.5)]:
            games += [(i, j, s), (j, i, 1 - s)]
        for anchor in (None, 3):
            with self.subTest(anchor=anchor):
                fit = rating.bayes(4, games, anchor)
                elo = [r.elo for r in fit.ratings]
                self.assertTrue(all(math.isfinite(x) for x in elo), elo)
                self.assertTrue(elo[0] > max(elo[1], elo[2]) and min(elo[1], elo[2]) > elo[3], elo)
                self.assertTrue(all(r.low is not None and math.isfinite(r.high) for r in fit.ratings if r.note != "anchor"))
                self.assertGreater(fit.los[(0, 1)], 0.9)
                self.assertLess(fit.los[(3, 2)], 0.1)
        # an engine that lost its only game (it played engine 0 alone) is still rated, as is the winner
        won, lost, waiting = rating.ratings(3, [(0, 1, 1)])
        self.assertTrue(won.elo > 0 > lost.elo and math.isfinite(won.elo))
        self.assertEqual((waiting.elo, waiting.note), (None, "no games yet"))

    def test_a_synthetic_tournament_recovers_the_ratings_it_was_drawn_from(self):
        true, advantage, drawelo = [-150, -60, 0, 40, 170], 30, 80  # mean 0, the default anchor
        inside = 0
        for seed in range(20):
            fit = rating.bayes(5, simulated(true, advantage, drawelo, 60, seed))
            for r, x in zip(fit.ratings, true):
                sd = (r.high - r.elo) / 1.959964
                self.assertLess(abs(r.elo - x), 3 * sd, (seed, r.index))
                inside += r.low <= x <= r.high
            self.assertLess(abs(fit.advantage - advantage), 3 * fit.advantage_sd, seed)
            self.assertLess(abs(fit.drawelo - drawelo), 3 * fit.drawelo_sd, seed)
        # the 95% intervals hold the true rating about 95 times in 100 (93 with these seeds)
        self.assertGreaterEqual(inside, 88)

    def test_the_posterior_is_at_its_maximum(self):
        # no closed form with four engines: the fit's log-posterior is above every nearby point
        games = [(0, 1, 1), (0, 1, 0.5), (1, 2, 1), (2, 0, 1), (0, 3, 1), (3, 1, 0.5), (3, 2, 0), (2, 3, 0.5),
                 (0, 2, 1), (1, 3, 1), (3, 0, 1)]
        best = rating.bayes(4, games, anchor=0).fit
        elo = [r.elo for r in rating.ratings(4, games)]
        self.assertAlmostEqual(sum(elo), 0.0, places=9)
        cells = {}
        for (b, w), counts in best.cells.items():
            cells[(b, w)] = counts
        base = best.log_posterior
        for k in range(1, 4):
            for step in (1e-4, -1e-4):
                theta = list(best.theta)
                theta[k] += step
                value = sum(rating._terms(theta[b] - theta[w] + best.advantage, best.drawelo, c)[0]
                            for (b, w), c in cells.items())
                self.assertLess(value, base)

    def test_engines_with_no_path_of_games_to_the_anchor_are_listed_apart(self):
        # 0-1 and 1-2 met, 3-4 met: 2 is linked to 0 through 1 and rated; 3 and 4 are not, with the reason
        games = [(0, 1, 1), (1, 0, 0.5), (1, 2, 1), (2, 1, 0), (3, 4, 1)]
        fit = rating.bayes(6, games, anchor=2, names=["a", "b", "c", "d", "e", "f"])
        self.assertEqual([r.elo is None for r in fit.ratings], [False, False, False, True, True, True])
        self.assertEqual(fit.ratings[3].note, "no path of games to c")
        self.assertEqual(fit.ratings[5].note, "no games yet")
        apart = rating.bayes(4, [(0, 1, 1), (0, 1, 0.5), (2, 3, 0)], names=["a", "b", "c", "d"]).ratings
        self.assertEqual([r.elo is None for r in apart], [False, False, True, True])
        self.assertEqual(apart[2].note, "no path of games to the rated engines (a, b)")


class Plan(unittest.TestCase):
    def test_round_robin_plays_every_opening_with_both_colours_and_cycles_take_new_openings(self):
        pairs = tournament.pairings(4, "round-robin")
        self.assertEqual(pairs, [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)])
        games = tournament.plan(pairs, 3, 2, (1, 1))
        self.assertEqual(sorted(g[0] for g in games), list(range(72)))
        seats = {(g[1], g[2], g[3]) for g in games}
        for opening in range(6):
            for i, j in pairs:
                self.assertIn((opening, i, j), seats)
                self.assertIn((opening, j, i), seats)
        self.assertEqual({g[4]["cycle"] for g in games if g[1] < 3}, {0})
        self.assertEqual({g[4]["cycle"] for g in games if g[1] >= 3}, {1})
        self.assertEqual(tournament.pairings(4, "gauntlet"), [(0, 1), (0, 2), (0, 3)])

    def test_shards_split_the_plan_keeping_colour_pairs_together(self):
        pairs = tournament.pairings(3, "round-robin")
        full = tournament.plan(pairs, 4, 1, (1, 1))
        parts = [tournament.plan(pairs, 4, 1, (k, 3)) for k in (1, 2, 3)]
        ids = [g[0] for part in parts for g in part]
        self.assertEqual(sorted(ids), [g[0] for g in full])
        for part in parts:
            got = {g[0] for g in part}
            self.assertTrue(all(gid ^ 1 in got for gid in got))


    def test_the_progress_line_leader_follows_the_games_as_they_come(self):
        leader, games = tournament.Leader(), {}
        self.assertIsNone(leader(games))
        results = [("a", "b", othello.BLACK), ("b", "c", "draw"), ("c", "a", othello.BLACK), ("b", "a", othello.BLACK),
                   ("b", "c", othello.BLACK)]
        expected = [("a", 1.0, 1), ("a", 1.0, 1), ("c", 1.5, 2), ("c", 1.5, 2), ("b", 2.5, 4)]
        for gid, ((black, white, winner), want) in enumerate(zip(results, expected)):
            games[gid] = {"black": black, "white": white, "winner": winner}
            self.assertEqual(leader(games), want)


FOUR = [
    ("--style", "greedy", "native", "greedy"),
    ("--style", "random", "native", "r1"),
    ("--style", "random", "gtp", "r2"),
    ("--style", "random", "nboard", "r3"),
]


def four(*flags):
    out = []
    for seed, (opt, style, proto, name) in enumerate(FOUR):
        out += ["-e", *fake(opt, style, "--seed", str(seed), *flags, proto=proto, name=name)]
    return out


class Tournaments(Run):
    def tournament(self, *argv, expect=0, out=None):
        stdout, stderr = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(stdout), contextlib.redirect_stderr(stderr):
            code = referee.main(["tournament", *argv, "--out", out or self.out])
        self.assertEqual(code, expect, stderr.getvalue())
        return stdout.getvalue()

    def report(self, out=None):
        with open(os.path.join(out or self.out, referee.REPORT), encoding="utf-8") as f:
            return json.load(f)["report"]

    def test_four_engines_two_protocols_interrupted_and_resumed(self):
        pids = os.path.join(self.dir, "pids")
        argv = [sys.executable, SCRIPT, "tournament", "-j", "2", "--count", "2", "--movetime", "5000",
                "--out", self.out, *four("--delay", "2", "--pidfile", pids)]
        proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                preexec_fn=interruptible)
        results = os.path.join(self.out, referee.RESULTS)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and not (os.path.exists(results) and len(self.records()[1]) >= 3):
            time.sleep(0.05)
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=30)
        self.assertEqual(proc.returncode, 130, err)
        played = len(self.records()[1])
        self.assertTrue(3 <= played < 24, played)
        with open(pids, encoding="utf-8") as f:
            for pid in map(int, f.read().split()):
                self.assertFalse(alive(pid), f"engine {pid} still running")
        # the report on demand, from the interrupted directory
        stdout = io.StringIO()
        with contextlib.redirect_stdout(stdout):
            self.assertEqual(referee.main(["report", self.out]), 0)
        self.assertIn(f"{played} of 24 games", stdout.getvalue())
        done = subprocess.run(argv, capture_output=True, text=True, timeout=120)
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertIn(f"resuming: {played} games already played, {24 - played} to go", done.stderr)
        self.assertIn("games 24/24", done.stderr)
        for words in ("24 of 24 games", "Bayesian Elo", "likelihood of superiority", "crosstable", "ms/move"):
            self.assertIn(words, done.stdout)
        header, games = self.records()
        self.assertEqual(header["type"], "tournament")
        self.assertEqual(sorted(games), list(range(24)))
        self.assert_consistent(games)
        self.assertTrue(all(g["reason"] == "finished" for g in games.values()))
        seats = {(g["opening"], g["black"], g["white"]) for g in games.values()}
        names = [f[3] for f in FOUR]
        for opening in (0, 1):
            for a in names:
                for b in names:
                    self.assertEqual((opening, a, b) in seats, a != b)
        with open(os.path.join(self.out, referee.GAMES), encoding="utf-8") as f:
            ggfs = f.read().splitlines()
        self.assertEqual(len(ggfs), 24)
        self.assertEqual(ggfs, [referee.ggf(games[g]) for g in range(24)])
        rep = self.report()
        self.assertEqual(rep["games_played"], 24)
        with open(os.path.join(self.out, referee.REPORT), encoding="utf-8") as f:
            listed = json.load(f)["games"]
        self.assertEqual([(g["id"], g["transcript"]) for g in listed],
                         [(gid, games[gid]["transcript"]) for gid in range(24)])
        for a in names:
            for b in names:
                if a != b:
                    ab, ba = rep["crosstable"][a][b], rep["crosstable"][b][a]
                    self.assertEqual((ab["games"], ab["points"] + ba["points"]), (4, 4))
                    self.assertEqual(ab["discs"], -ba["discs"])
        self.assertAlmostEqual(sum(r["elo"] for r in rep["ratings"]), 0, delta=0.2)
        # the likelihood of superiority of every pair of rated engines, each pair's two summing to 1,
        # and the fitted model
        names = [r["name"] for r in rep["ratings"]]
        self.assertEqual(sorted(rep["los"]), sorted(names))
        for a in names:
            for b in names:
                if a != b:
                    self.assertAlmostEqual(rep["los"][a][b] + rep["los"][b][a], 1, delta=2e-4)
        self.assertEqual(set(rep["advantage"]), {"elo", "sd"})
        for row in rep["ratings"]:
            self.assertEqual(row["games"], 12)
            self.assertGreater(row["moves_timed"], 0)
            self.assertGreaterEqual(row["ms_per_move"], 2)  # each answer takes at least its --delay
        # The engines are deterministic: a tournament played in one go has the same games and report.
        self.tournament("-j", "2", "--count", "2", "--movetime", "5000", *four(), out=os.path.join(self.dir, "once"))
        _, once = self.records(os.path.join(self.dir, "once"))
        self.assertEqual({g: r["moves"] for g, r in once.items()}, {g: r["moves"] for g, r in games.items()})
        self.assertEqual(self.results_only(self.report(os.path.join(self.dir, "once"))), self.results_only(rep))

    @staticmethod
    def results_only(rep):
        """The report without its timings, which differ from run to run."""
        rows = [{k: v for k, v in row.items() if k not in ("ms_per_move", "longest_ms")} for row in rep["ratings"]]
        return rows, rep["crosstable"]

    def test_a_different_tournament_in_the_same_directory_is_refused(self):
        self.tournament("--count", "1", "--movetime", "5000", *four()[:8])
        self.tournament("--count", "1", "--movetime", "5000", "--gauntlet", *four()[:8], expect=2)

    def test_shards_merge_into_the_full_report(self):
        argv = ["--count", "2", "--movetime", "5000", *four()[:12]]
        full = self.tournament(*argv, "--anchor", "r1", out=os.path.join(self.dir, "full"))
        parts = []
        for k in (1, 2):
            out = os.path.join(self.dir, f"shard{k}")
            self.tournament(*argv, "--shard", f"{k}/2", out=out)
            parts.append(out)
            self.assertEqual(len(self.records(out)[1]), 6)
        merged = os.path.join(self.dir, "merged")
        stdout = io.StringIO()
        with contextlib.redirect_stdout(stdout):
            self.assertEqual(referee.main(["merge", *parts, "--anchor", "r1", "--out", merged]), 0)
        strip = lambda text: text.split("time use")[0]  # noqa: E731 - timings differ between runs
        self.assertEqual(strip(stdout.getvalue()), strip(full))
        self.assertEqual(self.results_only(self.report(merged)),
                         self.results_only(self.report(os.path.join(self.dir, "full"))))
        with open(os.path.join(merged, referee.GAMES), encoding="utf-8") as f:
            self.assertEqual(len(f.read().splitlines()), 12)

    def test_a_shard_that_died_is_named_and_its_rerun_plays_only_the_missing_games(self):
        argv = ["--count", "2", "--movetime", "5000", *four()[:12]]
        parts = [os.path.join(self.dir, f"shard{k}") for k in (1, 2)]
        for k, out in enumerate(parts, 1):
            self.tournament(*argv, "--shard", f"{k}/2", out=out)
        path = os.path.join(parts[1], referee.RESULTS)
        with open(path, encoding="utf-8") as f:
            lines = f.readlines()
        with open(path, "w", encoding="utf-8") as f:  # killed after its fourth game, midway through a line
            f.writelines(lines[:5])
            f.write(lines[5][:30])

        def merge(*places):
            stderr = io.StringIO()
            with contextlib.redirect_stderr(stderr), contextlib.redirect_stdout(io.StringIO()):
                code = referee.main(["merge", "--complete", *places])
            return code, stderr.getvalue()

        code, err = merge(*parts)
        self.assertEqual(code, 2)
        self.assertEqual(err.splitlines(), [f"error: incomplete: shard 2/2 ({parts[1]}) has 4 of 6 games; run those "
                                            "shards' commands again (they play only their missing games), then merge"])
        self.assertIn("shard 2/2 not given", merge(parts[0])[1])
        other = os.path.join(self.dir, "other")
        self.tournament("--count", "1", "--movetime", "5000", *four()[:12], "--shard", "2/2", out=other)
        code, err = merge(parts[0], other)
        self.assertEqual((code, err), (2, f"error: {other}/results.jsonl: a different tournament (engines, openings or "
                                           "time control differ)\n"))
        stderr = io.StringIO()
        with contextlib.redirect_stderr(stderr), contextlib.redirect_stdout(io.StringIO()):
            self.assertEqual(referee.main(["tournament", *argv, "--shard", "2/2", "--out", parts[1]]), 0)
        self.assertIn("resuming: 4 games already played, 2 to go", stderr.getvalue())
        self.assertEqual(merge(*parts), (0, ""))

    def test_gauntlet_cycles_and_each_engines_own_limit(self):
        text = self.tournament(
            "--gauntlet", "--cycles", "2", "--count", "1", "--log",
            "-e", *fake("--style", "greedy", name="hero"), "movetime=2000",
            "-e", *fake(name="clock"), "tc=5+0.1",
            "-e", *fake(name="fixed"), "movetime=300",
            "-e", *fake(name="deep"), "depth=3",
        )
        header, games = self.records()
        self.assertEqual(header["pairs"], [[0, 1], [0, 2], [0, 3]])
        self.assertEqual(len(games), 12)
        self.assertTrue(all("hero" in (g["black"], g["white"]) for g in games.values()))
        self.assertNotEqual(games[0]["line"], games[6]["line"])  # the second cycle's opening
        self.assertEqual({g["cycle"] for g in games.values()}, {0, 1})
        with open(os.path.join(self.out, "worker-0.log"), encoding="utf-8") as f:
            log = f.read()
        for words in ("clock > go clock", "fixed > go time 300", "deep > go depth 3"):
            self.assertIn(words, log)
        self.assertEqual(header["engines"][1]["clock_ms"], [5000.0, 100.0])
        self.assertIn("gauntlet of 4 engines, 2 cycles of 1 openings", text)
        # in a gauntlet the others meet only the first engine
        self.assertEqual(set(self.report()["crosstable"]["clock"]), {"hero"})

    def test_an_engines_own_time_limit_is_enforced(self):
        # --movetime gives the good engine 5 s; the slow one's own movetime=400 makes its 1.2 s answers late
        self.tournament("--count", "1", "--movetime", "5000", "--margin", "150", "-j", "2",
                        "-e", *fake(name="good"), "-e", *fake("--mode", "slow", "--after", "2", name="slow"),
                        "movetime=400")
        rows = {r["name"]: r for r in self.report()["ratings"]}
        self.assertEqual(rows["slow"]["forfeits"], {"time": 2})
        self.assertEqual(rows["good"]["forfeits"], {})

    def test_forfeits_are_counted_and_a_pointless_engine_is_rated_last(self):
        text = self.tournament("--count", "1", "--movetime", "5000", "-j", "2", *four()[:8],
                               "-e", *fake("--mode", "crash", "--after", "3", name="crasher"))
        rows = {r["name"]: r for r in self.report()["ratings"]}
        self.assertEqual(rows["crasher"]["forfeits"], {"crash": 4})
        self.assertLess(rows["crasher"]["elo"], min(r["elo"] for r in rows.values() if r["name"] != "crasher"))
        self.assertEqual(rows["crasher"]["rank"], 3)
        self.assertIn("crash 4", text)
        self.assertNotIn("inf", text)

    def test_bad_tournaments_are_refused(self):
        two = fake(name="x"), fake(name="y")
        for argv in (["-e", *two[0]], ["-e", *two[0], "-e", *two[0]], ["-e", *two[0], "-e", *two[1], "--anchor", "z"],
                     ["-e", *two[0], "-e", *two[1], "--cycles", "0"],
                     ["-e", *two[0], "-e", *two[1], "--cycles", "2"],
                     ["-e", *two[0], "-e", *two[1], "--count", "0"],
                     ["-e", *two[0], "-e", *two[1], "--start"],
                     ["-e", *two[0], "-e", *two[1], "--count", "30", "--cycles", "2"],
                     ["-e", *two[0], "-e", *two[1], "movetime=100", "tc=3"]):
            with self.subTest(argv=argv):
                stderr = io.StringIO()
                with contextlib.redirect_stderr(stderr), contextlib.redirect_stdout(io.StringIO()):
                    code = referee.main(["tournament", "--movetime", "100", "--out", self.out, *argv])
                self.assertEqual(code, 2)
                self.assertTrue(stderr.getvalue().startswith("error: "), stderr.getvalue())


class EnginesFile(Run):
    tournament, report = Tournaments.tournament, Tournaments.report

    def write(self, entries, name="engines.json"):
        path = os.path.join(self.dir, name)
        with open(path, "w", encoding="utf-8") as f:
            f.write(entries if isinstance(entries, str) else json.dumps(entries))
        return path

    def entries(self):
        return [
            {"name": "greedy", "command": f"{FAKE} --style greedy --proto native", "protocol": "native"},
            {"name": "r1", "command": f"{FAKE} --style random --seed 1 --proto native",
             "initStrings": ["set book randomness 0"], "movetime": 3000},
            {"name": "r2", "command": f"{FAKE} --style random --seed 2 --proto gtp", "protocol": "gtp",
             "workingDirectory": "."},
            {"name": "unused", "command": "no-such-program"},
        ]

    def test_a_tournament_from_an_engines_file_with_each(self):
        path = self.write(self.entries())
        self.tournament("--engines", path, "--count", "1", "--each", "movetime=4000", "init=set level 1",
                        "-e", "name=greedy", "-e", "name=r1", "tc=30+1", "-e", "name=r2")
        with open(os.path.join(self.out, referee.RESULTS), encoding="utf-8") as f:
            header = json.loads(f.readline())
        engines = {e["name"]: e for e in header["engines"]}
        self.assertEqual(list(engines), ["greedy", "r1", "r2"])
        # --each comes after the file and before the engine's own words: r1's own tc= replaces the
        # movetime of the file and of --each, and init lines add up
        self.assertEqual(engines["greedy"]["movetime_ms"], 4000)
        self.assertEqual(engines["r1"]["clock_ms"], [30000.0, 1000.0])
        self.assertNotIn("movetime_ms", engines["r1"])
        self.assertEqual(engines["r1"]["init"], ["set book randomness 0", "set level 1"])
        self.assertEqual(engines["r2"]["proto"], "gtp")
        self.assertEqual(self.report()["games_played"], 6)
        # the same engines from -e words alone make the same tournament: it resumes with nothing to play
        self.tournament("--count", "1", "-e", f"cmd={FAKE} --style greedy --proto native", "name=greedy",
                        "movetime=4000", "init=set level 1",
                        "-e", f"cmd={FAKE} --style random --seed 1 --proto native", "name=r1", "tc=30+1",
                        "init=set book randomness 0", "init=set level 1",
                        "-e", f"cmd={FAKE} --style random --seed 2 --proto gtp", "proto=gtp", "name=r2",
                        "movetime=4000", "init=set level 1")

    def test_bad_engines_files_get_one_line_naming_the_entry_and_field(self):
        good = self.entries()
        cases = [
            ("[", "not JSON"),
            ('{"name": "x"}', "expected a JSON list"),
            ([good[0], "r1"], "entry 2: expected an object"),
            ([good[0], {"command": "x"}], 'entry 2: field "name" missing'),
            ([{"name": "a"}], 'entry 1 (a): field "command" missing'),
            ([good[0], dict(good[1], depth=0)], 'entry 2 (r1): field "depth" is 0; expected a whole number'),
            ([good[0], dict(good[1], depth="4")], 'entry 2 (r1): field "depth" is "4"'),
            ([dict(good[0], protocol="uci")], 'entry 1 (greedy): field "protocol" is "uci"; expected one of'),
            ([dict(good[0], initStrings="go")], 'field "initStrings" is "go"; expected a list of strings'),
            ([dict(good[0], tc="fast")], 'field "tc" is "fast"'),
            ([dict(good[0], option=1)], 'entry 1 (greedy): field "option" unknown'),
            ([good[0], good[0]], 'entry 2 (greedy): field "name": another entry has this name'),
        ]
        for content, words in cases:
            with self.subTest(words=words):
                path = self.write(content)
                err = self.refused("--engines", path, "-e", "name=greedy", "-e", "name=r1")
                self.assertIn(words, err)
                self.assertIn(path, err)
        path = self.write(good)
        self.assertIn("-e name=r9: not in", self.refused("--engines", path, "-e", "name=greedy", "-e", "name=r9"))
        self.assertIn("give --engines FILE", self.refused("-e", "name=greedy", "-e", "name=r1"))
        self.assertIn("cannot read --engines", self.refused("--engines", path + ".none", "-e", "name=r1",
                                                                   "-e", "name=r2"))
        self.assertIn("GTP has no depth", self.refused("--engines", path, "--each", "depth=2", "-e", "name=greedy",
                                                       "-e", "name=r2"))

    def refused(self, *argv):
        stderr = io.StringIO()
        with contextlib.redirect_stderr(stderr), contextlib.redirect_stdout(io.StringIO()):
            code = referee.main(["tournament", "--count", "1", "--out", self.out, *argv])
        self.assertEqual(code, 2)
        lines = stderr.getvalue().splitlines()
        self.assertEqual(len(lines), 1, lines)
        self.assertTrue(lines[0].startswith("error: "), lines)
        return lines[0]


class Repeats(Run):
    def refusal(self, command, *argv):
        stderr = io.StringIO()
        with contextlib.redirect_stderr(stderr), contextlib.redirect_stdout(io.StringIO()):
            code = referee.main([command, "--movetime", "5000", "--out", self.out, *argv])
        return code, stderr.getvalue()

    def test_deterministic_engines_from_the_start_position_play_each_colour_once(self):
        three = ["-e", *fake(name="x"), "-e", *fake(name="y"), "-e", *fake(name="z"),
                 "init=set book randomness 2"]
        # x-y would repeat; x-z and y-z vary through z's book randomness
        code, err = self.refusal("tournament", "--start", "--count", "2", *three)
        self.assertEqual(code, 2)
        self.assertEqual(len(err.splitlines()), 1, err)
        self.assertIn("--start with 2 games a colour: x-y would play the same game again", err)
        self.assertNotIn("x-z", err)
        code, err = self.refusal("tournament", "--start", "--count", "1", "--cycles", "2", *three)
        self.assertIn("x-y would play", err)
        code, err = self.refusal("match", "--start", "--count", "3", "-e", *fake(name="x"), "-e", *fake(name="y"))
        self.assertIn("--start with 3 games a colour: x-y", err)
        self.assertFalse(os.path.exists(self.out), "refused before any file is written")
        # one game a colour, a gauntlet whose every pairing has z, or openings: played
        for argv in (["--start", "--count", "1", *three],
                     ["--start", "--count", "2", "--gauntlet", *three[8:], *three[:8]],
                     ["--count", "2", *three]):
            with self.subTest(argv=argv):
                code, err = self.refusal("tournament", *argv, "--out", os.path.join(self.dir, str(len(argv))))
                self.assertEqual(code, 0, err)
        spec = lambda *init: referee.EngineSpec(["cmd=e", "depth=1", *(f"init={x}" for x in init)])  # noqa: E731
        self.assertTrue(referee.varies(spec("set book randomness 1")))
        self.assertFalse(referee.varies(spec("set book randomness 0")))
        self.assertFalse(referee.varies(spec("set book off", "set book randomness x")))


@unittest.skipUnless(EBONY, "EBONY_BIN unset or its native protocol loop not built yet")
class EbonyTournament(Run):
    def test_depths_over_native_and_nboard_and_rhino_when_installed(self):
        out = io.StringIO()
        argv = ["tournament", "-j", "2", "--count", "1", "--out", self.out,
                "-e", f"cmd={EBONY} --no-book", "depth=1", "name=d1",
                "-e", f"cmd={EBONY} --no-book", "depth=2", "name=d2",
                "-e", f"cmd={EBONY} --no-book --protocol nboard", "proto=nboard", "depth=3", "name=d3"]
        if RHINO:
            argv += ["-e", f"cmd={RHINO}", "proto=gtp", "name=rhino", "--movetime", "1000"]
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
            self.assertEqual(referee.main(argv), 0)
        _, games = self.records()
        self.assertEqual(len(games), 12 if RHINO else 6)
        self.assertTrue(all(g["reason"] == "finished" for g in games.values()), games)
        self.assert_consistent(games)
        self.assertIn("crosstable", out.getvalue())


if __name__ == "__main__":
    unittest.main()
