#!/usr/bin/env python3
"""Proves bounds on a position's exact score with the referee's own rules (othello.py), sharing no code
with ebony: a fail-soft alpha-beta over the window (LOW, HIGH), children tried fewest replies first.

A printed value v <= LOW proves score <= v, v >= HIGH proves score >= v, and a value strictly inside the
window is the exact score. Scores are final disc differences for the side to move, empties to the winner.

Usage: scripts/research/prove_bound.py "BOARD SIDE" LOW HIGH
FFO #31 after G1 (tests/data/README.md, errata), white to move; about 2 and 0.5 minutes:
    scripts/research/prove_bound.py "-OOOOOX---OOOX--OXXOXO---XXXOO--XXXXXXO-XXXOOO-OX-OOOO---OOOOO-- O" 31 32
    scripts/research/prove_bound.py "-OOOOOX---OOOX--OXXOXO---XXXOO--XXXXXXO-XXXOOO-OX-OOOO---OOOOO-- O" 32 33
"""
import os
import sys
import time

# The referee's modules (othello.py) is one folder up, in scripts/.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir))
from othello import BLACK, Position, flips, moves, popcount


def parse_board(text):
    """(player, opponent) bitboards of ebony's board string: 64 squares a1..h8, a space, X or O."""
    board, side = text.split()
    if len(board) != 64 or side not in ("X", "O") or set(board) - set("XO-"):
        raise ValueError(f"not a board string: {text!r}")
    black = sum(1 << i for i, c in enumerate(board) if c == "X")
    white = sum(1 << i for i, c in enumerate(board) if c == "O")
    return (black, white) if side == "X" else (white, black)


class Prover:
    def __init__(self):
        self.nodes = 0

    def value(self, p, o, alpha, beta):
        """Fail-soft alpha-beta value of `p` to move against `o`."""
        self.nodes += 1
        legal = moves(p, o)
        if legal == 0:
            if moves(o, p) == 0:
                return Position(p, o, BLACK).disc_diff()
            return -self.value(o, p, -beta, -alpha)
        children = []
        while legal:
            bit = legal & -legal
            legal ^= bit
            f = flips(p, o, bit.bit_length() - 1)
            child = (o ^ f, p ^ f ^ bit)
            children.append((popcount(moves(*child)), child))
        children.sort(key=lambda c: c[0])
        best = -65
        for _, (cp, co) in children:
            v = -self.value(cp, co, -beta, -alpha)
            if v > best:
                best = v
                if v > alpha:
                    alpha = v
                    if v >= beta:
                        break
        return best


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    try:
        p, o = parse_board(sys.argv[1])
        low, high = int(sys.argv[2]), int(sys.argv[3])
    except ValueError as e:
        sys.exit(f"error: {e}")
    if not -65 <= low < high <= 65:
        sys.exit("error: the window needs -65 <= LOW < HIGH <= 65")
    prover, start = Prover(), time.time()
    v = prover.value(p, o, low, high)
    verdict = f"score <= {v}" if v <= low else f"score >= {v}" if v >= high else f"score = {v}"
    print(f"{verdict} (value {v} in window ({low}, {high}), {prover.nodes} nodes, {time.time() - start:.0f} s)")


if __name__ == "__main__":
    main()
