"""Match statistics (stats.py): Elo from score, its interval, LOS and SPRT decisions."""

import math
import unittest

import stats


class Elo(unittest.TestCase):
    def test_score_and_elo_are_inverse(self):
        for elo in (-400, -100, 0, 35, 200):
            self.assertAlmostEqual(stats.score_to_elo(stats.elo_to_score(elo)), elo, places=6)
        self.assertAlmostEqual(stats.elo_to_score(0), 0.5)
        self.assertEqual(stats.score_to_elo(1.0), math.inf)
        self.assertEqual(stats.score_to_elo(0.0), -math.inf)

    def test_interval_contains_the_estimate_and_narrows_with_games(self):
        small = stats.elo_interval([1, 0, 1, 0.5] * 5)
        big = stats.elo_interval([1, 0, 1, 0.5] * 500)
        self.assertAlmostEqual(small[0], big[0])
        self.assertLess(small[1], small[0])
        self.assertLess(small[0], small[2])
        self.assertLess(big[2] - big[1], (small[2] - small[1]) / 5)
        # 62.5% score is +88.7 Elo
        self.assertAlmostEqual(big[0], 88.7, places=1)
        self.assertIsNone(stats.elo_interval([]))

    def test_los(self):
        self.assertAlmostEqual(stats.los(10, 10), 0.5)
        self.assertGreater(stats.los(30, 10), 0.99)


class Sprt(unittest.TestCase):
    def test_accepts_h1_for_a_clearly_stronger_engine(self):
        sprt = stats.Sprt(0, 20)
        pairs = [1.0, 0.75, 0.5, 1.0, 0.75] * 40  # 80% score
        self.assertEqual(sprt.decision(pairs)[1], "H1")

    def test_accepts_h0_for_equal_engines(self):
        sprt = stats.Sprt(0, 20)
        pairs = [0.5, 0.25, 0.75, 0.5] * 200
        llr, verdict = sprt.decision(pairs)
        self.assertEqual(verdict, "H0")
        self.assertLess(llr, sprt.lower)

    def test_a_few_identical_pairs_decide_nothing(self):
        self.assertEqual(stats.Sprt(0, 100).decision([0.5, 0.5])[1], None)
        self.assertEqual(stats.Sprt(0, 100).decision([1.0, 1.0, 1.0])[1], None)

    def test_undecided_with_little_data_and_bounds(self):
        sprt = stats.Sprt(0, 5, 0.05, 0.05)
        self.assertAlmostEqual(sprt.upper, math.log(19))
        self.assertAlmostEqual(sprt.lower, -math.log(19))
        self.assertEqual(sprt.decision([0.5, 0.75, 0.5])[1], None)
        with self.assertRaises(ValueError):
            stats.Sprt(5, 0)


if __name__ == "__main__":
    unittest.main()
