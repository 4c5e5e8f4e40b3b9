#!/usr/bin/env python3
"""Paired comparison of two referee matches played from the same openings against the same
opponent (e.g. two weight files each against ntest at a fixed depth, same SEED): for every opening,
the difference of A's and B's points (and disc differences) over its two colours, then the mean per
game with its standard error. Usage: scripts/research/paired.py A_DIR [A_DIR...] -- B_DIR [B_DIR...]
(directories in the same order on both sides: A_DIR k is paired with B_DIR k)."""
import json
import math
import os
import sys


def load(directory):
    games = {}
    with open(os.path.join(directory, "results.jsonl"), encoding="utf-8") as f:
        for line in f:
            g = json.loads(line)
            if g.get("type") != "game":
                continue
            ours = "black" if g["a_black"] else "white"
            points = 0.5 if g["winner"] in (None, "draw", "none") else float(g["winner"] == ours)
            discs = g["discs"] if g["a_black"] else -g["discs"]
            games[(g["opening"], g["a_black"])] = (points, discs)
    return games


def mean_and_error(xs):
    m = sum(xs) / len(xs)
    return m, math.sqrt(sum((x - m) ** 2 for x in xs) / (len(xs) - 1) / len(xs))


def main(argv):
    if "--" not in argv:
        sys.exit(__doc__)
    cut = argv.index("--")
    a_dirs, b_dirs = argv[:cut], argv[cut + 1:]
    if len(a_dirs) != len(b_dirs) or not a_dirs:
        sys.exit(__doc__)
    points, discs, a_total, b_total = [], [], [], []
    for a_dir, b_dir in zip(a_dirs, b_dirs):
        a, b = load(a_dir), load(b_dir)
        for opening in sorted({k[0] for k in a}):
            pair = [(opening, colour) for colour in (True, False)]
            if not all(k in a and k in b for k in pair):
                continue
            points.append(sum(a[k][0] - b[k][0] for k in pair) / 2)
            discs.append(sum(a[k][1] - b[k][1] for k in pair) / 2)
            a_total += [a[k][0] for k in pair]
            b_total += [b[k][0] for k in pair]
    if len(points) < 2:
        sys.exit(f"only {len(points)} openings played with both colours in both matches: nothing to compare")
    (mp, sp), (md, sd) = mean_and_error(points), mean_and_error(discs)
    print(f"{len(a_total)} games: A {100 * sum(a_total) / len(a_total):.1f}%, B {100 * sum(b_total) / len(b_total):.1f}%; "
          f"A - B per game {100 * mp:+.2f} ± {100 * sp:.2f} points, {md:+.2f} ± {sd:.2f} discs")


if __name__ == "__main__":
    main(sys.argv[1:])
