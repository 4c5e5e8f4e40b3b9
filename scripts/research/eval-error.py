#!/usr/bin/env python3
"""The static evaluation of two ebony builds (or weight files) on the positions of referee games,
each against its game's final disc difference: the mean absolute error by 4 empties, and the two
builds' difference position by position.

A fit's held-out error is measured on ebony's own games; this measures it on the positions of
matches against other engines (the anchors'), where ebony's strength is judged. Every position
from move 9 on where the side to move has a legal move counts once per game it appears in; the
label is the game's result, so the error includes what the play after the position did to it.

Usage: scripts/research/eval-error.py RESULTS_JSONL... -a 'BINARY [OPTIONS]' -b 'BINARY [OPTIONS]'
Example: scripts/research/eval-error.py runs/d12-*/results.jsonl -a target/release/ebony \\
             -b 'target/release/ebony --eval my.ebev'
"""
import argparse
import json
import math
import os
import shlex
import sys

# The referee's modules (othello.py, judge.py) are one folder up, in scripts/.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir))
import othello
from judge import Judge

FIRST_MOVE = 8
BUCKET = 4


def positions_of(paths):
    """(position, empties, black's final disc difference) of every position counted."""
    found = []
    for path in paths:
        with open(path) as f:
            for game in map(json.loads, f):
                if game.get("type") != "game" or not game.get("moves"):
                    continue
                pos, seen = othello.Position.start(), []
                for text in game["moves"]:
                    move = othello.PASS if text == "pass" else othello.parse_square(text)
                    if move is not othello.PASS and pos.must_pass():
                        pos = pos.play(othello.PASS)
                    if move is not othello.PASS:
                        seen.append(pos)
                    pos = pos.play(move)
                if not pos.is_over():
                    continue  # ended early (a forfeit)
                found.extend((p, 64 - othello.popcount(p.black | p.white), pos.disc_diff()) for p in seen[FIRST_MOVE:])
    return found


def black_evals(command, positions):
    """The static evaluation of each position by the build `command` (a binary and its options)."""
    judge = Judge(*shlex.split(command))
    values = [judge.evaluate(pos) for pos, _, _ in positions]
    judge.close()
    return values


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("results", nargs="+")
    parser.add_argument("-a", required=True, help="the first build, with its options")
    parser.add_argument("-b", required=True, help="the second build, with its options")
    args = parser.parse_args(argv)
    positions = positions_of(args.results)
    if not positions:
        raise SystemExit("no finished game with a position past move 8")
    labels = [p[2] for p in positions]
    errors = {name: [abs(v - label) for v, label in zip(black_evals(command, positions), labels)]
              for name, command in (("a", args.a), ("b", args.b))}
    buckets = range(0, 64, BUCKET)
    print(f"{len(positions)} positions; mean absolute error in discs, all | by {BUCKET} empties from 0:")
    for name, errs in errors.items():
        by = []
        for low in buckets:
            part = [e for e, p in zip(errs, positions) if low <= p[1] < low + BUCKET]
            by.append(f"{sum(part) / len(part):.2f}" if part else "-")
        print(f"{name}  {sum(errs) / len(errs):.3f} | {' '.join(by)}")
    diffs = [a - b for a, b in zip(errors["a"], errors["b"])]
    mean = sum(diffs) / len(diffs)
    sd = math.sqrt(sum((d - mean) ** 2 for d in diffs) / max(1, len(diffs) - 1))
    print(f"a - b: {mean:+.4f} discs (standard error {sd / math.sqrt(len(diffs)):.4f} if the positions "
          f"were independent; a game's positions are not)")


if __name__ == "__main__":
    main(sys.argv[1:])
