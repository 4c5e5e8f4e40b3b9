"""book-learn.py against the real binary: a round plays its games from the start, writes their
transcripts, and learns them into the book as one `book learn` would, positions up to --max-ply."""
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPT = os.path.join(HERE, "..", "book-learn.py")
EBONY = os.environ.get("EBONY_BIN")


def in_book(book, moves):
    out = subprocess.run([EBONY, "book", "show", book, "--moves", moves], capture_output=True, text=True,
                         check=True).stdout
    return out.startswith("value ")


def small_book(tmp):
    """A book of every position up to ply 2, scored at depth 2, in directory `tmp`."""
    book = os.path.join(tmp, "learnt.book")
    subprocess.run([EBONY, "book", "build", book, "--depth", "2", "--deviation", "64", "--max-ply", "2"],
                   check=True, capture_output=True)
    return book


@unittest.skipUnless(EBONY and os.path.exists(EBONY), "EBONY_BIN unset")
class BookLearnTest(unittest.TestCase):
    def test_a_round_learns_its_games_as_one_book_learn_would(self):
        with tempfile.TemporaryDirectory() as tmp:
            book = small_book(tmp)
            before = os.path.join(tmp, "before.book")
            shutil.copyfile(book, before)
            games = os.path.join(tmp, "games")
            out = subprocess.run([sys.executable, SCRIPT, book, games, "--pairs", "1", "--movetime", "20",
                                  "--depth", "2", "--max-ply", "12", "--jobs", "2", "--ebony", EBONY],
                                 capture_output=True, text=True, check=True).stdout
            self.assertIn("round 1: book side ", out)
            transcripts = os.path.join(games, "round1.txt")
            with open(transcripts) as f:
                lines = f.read().split()
            self.assertEqual(len(lines), 2, "one pair of games")
            for line in lines:
                self.assertGreaterEqual(len(line), 2 * 50, "a whole game")
                # Every position up to 12 discs played is in the book, and none after.
                for ply in range(13):
                    self.assertTrue(in_book(book, line[:2 * ply]), f"ply {ply} of {line}")
                self.assertFalse(in_book(book, line[:2 * 14]), f"ply 14 of {line}")
            # The shards' merge is the single learning of the same games.
            subprocess.run([EBONY, "book", "learn", before, transcripts, "--depth", "2", "--max-ply", "12"],
                           check=True, capture_output=True)
            with open(book, "rb") as a, open(before, "rb") as b:
                self.assertEqual(a.read(), b.read())
            self.assertEqual([f for f in os.listdir(games) if f != "round1.txt"], [], "shards and match removed")
            # Run again: the round is not played twice, and nothing is left to learn.
            again = subprocess.run([sys.executable, SCRIPT, book, games, "--depth", "2", "--max-ply", "12",
                                    "--ebony", EBONY], capture_output=True, text=True, check=True).stdout
            self.assertIn("round 1: games already played", again)
            self.assertIn("round 1: learnt, 0 positions added", again)
            # Rescoring at a deeper level searches every position of the two lines again (the start
            # and a few early ones are shared), as one `book learn --rescore` would.
            shutil.copyfile(book, before)
            deeper = subprocess.run([sys.executable, SCRIPT, book, games, "--depth", "3", "--max-ply", "12",
                                     "--rescore", "--ebony", EBONY], capture_output=True, text=True,
                                    check=True).stdout
            rescored = int(deeper.split("positions added, ")[1].split()[0])
            self.assertTrue(13 <= rescored <= 26, deeper)
            subprocess.run([EBONY, "book", "learn", before, transcripts, "--depth", "3", "--max-ply", "12",
                            "--rescore"], check=True, capture_output=True)
            with open(book, "rb") as a, open(before, "rb") as b:
                self.assertEqual(a.read(), b.read())

    def test_a_round_can_be_played_on_a_game_clock(self):
        with tempfile.TemporaryDirectory() as tmp:
            book = small_book(tmp)
            games = os.path.join(tmp, "games")
            out = subprocess.run([sys.executable, SCRIPT, book, games, "--pairs", "1", "--tc", "2+0.02",
                                  "--depth", "2", "--max-ply", "4", "--ebony", EBONY],
                                 capture_output=True, text=True, check=True).stdout
            self.assertIn("round 1: book side ", out)
            with open(os.path.join(games, "round1.txt")) as f:
                lines = f.read().split()
            self.assertEqual(len(lines), 2, "one pair of games")
            self.assertTrue(all(len(line) >= 2 * 50 for line in lines), lines)
            # The clock goes to the referee: one it cannot read ends the round before any game.
            bad = subprocess.run([sys.executable, SCRIPT, book, os.path.join(tmp, "bad"), "--tc", "bogus",
                                  "--ebony", EBONY], capture_output=True, text=True)
            self.assertNotEqual(bad.returncode, 0)
            self.assertIn("--tc bogus", bad.stderr)
            # A move time beside a clock is refused, not silently dropped.
            both = subprocess.run([sys.executable, SCRIPT, book, os.path.join(tmp, "both"), "--tc", "2+0.02",
                                   "--movetime", "50", "--ebony", EBONY], capture_output=True, text=True)
            self.assertEqual(both.returncode, 2, both.stderr)
            self.assertIn("not allowed with argument", both.stderr)
            self.assertFalse(os.path.exists(os.path.join(tmp, "both")), "nothing played")


if __name__ == "__main__":
    unittest.main()
