"""book-lines.py against the real binary and a small book built for the test: every line is legal,
starts with f5, has the asked plies, follows the book's moves, and a smaller deviation keeps fewer."""
import os
import subprocess
import sys
import tempfile
import unittest

import othello

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPT = os.path.join(HERE, "..", "research", "book-lines.py")
EBONY = os.environ.get("EBONY_BIN")


@unittest.skipUnless(EBONY and os.path.exists(EBONY), "EBONY_BIN unset")
class BookLinesTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.dir = tempfile.TemporaryDirectory()
        cls.book = os.path.join(cls.dir.name, "small.book")
        subprocess.run([EBONY, "book", "build", cls.book, "--depth", "4", "--deviation", "8", "--positions", "60"],
                       check=True, capture_output=True)

    @classmethod
    def tearDownClass(cls):
        cls.dir.cleanup()

    def lines(self, plies, deviation):
        out = subprocess.run([sys.executable, SCRIPT, self.book, "--plies", str(plies), "--deviation", str(deviation),
                              "--ebony", EBONY], capture_output=True, text=True, check=True).stdout
        return out.split()

    def test_lines_are_legal_book_lines_and_the_deviation_selects(self):
        wide = self.lines(3, 64)
        self.assertTrue(wide)
        self.assertEqual(len(wide), len(set(wide)))
        for line in wide:
            self.assertTrue(line.startswith("f5"), line)
            moves = [line[i:i + 2] for i in range(0, len(line), 2)]
            self.assertEqual(len(moves), 3, line)
            pos = othello.Position.start()
            for text in moves:
                sq = othello.parse_square(text)
                self.assertIn(sq, pos.legal_moves(), line)
                pos = pos.play(sq)
            # The book goes on after every line.
            shown = subprocess.run([EBONY, "book", "show", self.book, "--moves", line], capture_output=True,
                                   text=True, check=True).stdout.splitlines()
            self.assertGreater(len(shown), 1, line)
        narrow = self.lines(3, 0)
        self.assertTrue(set(narrow) <= set(wide))
        self.assertLess(len(narrow), len(wide))


if __name__ == "__main__":
    unittest.main()
