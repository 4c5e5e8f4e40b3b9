#!/usr/bin/env python3
"""The lines a book would play from the start position, as referee openings (one f5d6c3... line each):
from f5 (the other first moves are its mirror images), every book move within --deviation discs of
the position's best book move that is not a leaf (so the book goes on after it), to --plies moves.
Read with `ebony book show`; the order is the book's, so the output is the same for the same book.

Usage: scripts/research/book-lines.py BOOK [--plies 8] [--deviation 4] [--ebony BINARY] > OPENINGS
Example (the openings of the book's game-clock SPRT in docs/research-log.md, "The 20,000-position book"):
    scripts/research/book-lines.py src/book/default.book --plies 8 --deviation 4 > book-lines.txt
"""
import argparse
import subprocess
import sys


def book_moves(ebony, book, line):
    """The book's moves after `line` (moves run together), best first: (move, score, leaf)."""
    out = subprocess.run([ebony, "book", "show", book, "--moves", line], capture_output=True, text=True,
                         check=True).stdout
    moves = []
    for text in out.splitlines()[1:]:
        words = text.split()
        if len(words) >= 2 and words[1][:1] in "+-":
            moves.append((words[0], int(words[1]), "(leaf)" in text))
    return moves


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("book")
    parser.add_argument("--plies", type=int, default=8)
    parser.add_argument("--deviation", type=int, default=4)
    parser.add_argument("--ebony", default="target/release/ebony")
    args = parser.parse_args(argv)
    lines = ["f5"]
    for _ in range(args.plies - 1):
        longer = []
        for line in lines:
            moves = book_moves(args.ebony, args.book, line)
            if moves:
                best = moves[0][1]
                longer += [line + mv for mv, score, leaf in moves if score >= best - args.deviation and not leaf]
        lines = longer
    for line in lines:
        print(line)


if __name__ == "__main__":
    main(sys.argv[1:])
