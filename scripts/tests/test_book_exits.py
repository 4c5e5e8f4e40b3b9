"""book-exits.py against the real binary and its built-in book: where a side leaves the book, and the
book's value there from that side."""
import os
import subprocess
import sys
import tempfile
import unittest
import json

import othello

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPT = os.path.join(HERE, "..", "research", "book-exits.py")
EBONY = os.environ.get("EBONY_BIN")


def book_show(moves):
    out = subprocess.run([EBONY, "book", "show", "--moves", "".join(moves)], capture_output=True, text=True,
                         check=True).stdout.splitlines()
    listed = [line.split()[0] for line in out[1:] if line and line[0] in "abcdefgh"]
    return int(out[0].split()[1]), listed


@unittest.skipUnless(EBONY and os.path.exists(EBONY), "EBONY_BIN unset")
class BookExitsTest(unittest.TestCase):
    def test_black_leaves_after_its_last_listed_move_and_the_value_is_its_own(self):
        # The book's moves until black, after its second move, faces a position where the book
        # leaves a legal move out; black plays that one; then each side its lowest legal square.
        moves, pos = [], othello.Position.start()
        while True:
            listed = book_show(moves)[1]
            unlisted = [m for m in map(othello.square_name, pos.legal_moves()) if m not in listed]
            if len(moves) % 2 == 0 and len(moves) >= 4 and unlisted:
                break
            # White plays the book's second move, so that black's values are not all 0.
            move = listed[0] if len(moves) % 2 == 0 else listed[min(1, len(listed) - 1)]
            moves.append(move)
            pos = pos.play(othello.parse_square(move))
        last = len(moves) - 1  # black's last book move is the one before white's last
        moves.append(unlisted[0])
        pos = pos.play(othello.parse_square(unlisted[0]))
        while not pos.is_over():
            move = othello.PASS if pos.must_pass() else pos.legal_moves()[0]
            moves.append("pass" if move == othello.PASS else othello.square_name(move))
            pos = pos.play(move)
        with tempfile.TemporaryDirectory() as tmp:
            results = os.path.join(tmp, "results.jsonl")
            with open(results, "w") as f:
                f.write(json.dumps({"type": "match", "version": 1}) + "\n")
                f.write(json.dumps({"type": "game", "id": 0, "black": "a", "white": "b", "moves": moves,
                                    "discs": pos.disc_diff()}) + "\n")
            out = subprocess.run([sys.executable, SCRIPT, results, "a", "--ms", "10", "--ebony", EBONY],
                                 capture_output=True, text=True, check=True).stdout
        # White is to move after black's last book move, so the value is the negation of the book's.
        value = -book_show(moves[:last])[0]
        self.assertGreater(value, 0)
        self.assertIn(f"game 0: left the book after move {last}, book {value:+d}, ", out)
        self.assertIn(f"result {pos.disc_diff():+d}", out)
        self.assertIn(f"1 games: left the book after move {last}.0 on average", out)


if __name__ == "__main__":
    unittest.main()
