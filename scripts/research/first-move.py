#!/usr/bin/env python3
"""How soon a timed search finds a best move near the end: for each position of an obf file, `go time MS`
from a fresh engine, the first `info` line that searched to the end of the game (depth = empties,
selective `@P%` or exact) with a best move of the file, and when the score was exact.

Usage: scripts/research/first-move.py OBF_FILE MS [FIRST_NUMBER] [BINARY]
Example: scripts/research/first-move.py tests/data/fforum-40-59.obf 20000 40
"""
import subprocess
import sys


def main(argv):
    path, budget = argv[0], argv[1]
    first_number = int(argv[2]) if len(argv) > 2 else 1
    binary = argv[3] if len(argv) > 3 else "target/release/ebony"
    for n, line in enumerate(l for l in open(path) if l.strip()):
        board, rest = line.split(None, 1)
        side = rest.split(";")[0].strip()
        scores = {}
        for part in rest.split(";")[1:]:
            if ":" in part:
                mv, score = part.strip().split(":")
                scores[mv.strip().lower()] = int(score)
        best = max(scores.values())
        empties = board.count("-")
        out = subprocess.run([binary, "--no-book"], input=f"setboard {board} {side}\ngo time {budget}\n",
                             capture_output=True, text=True, timeout=600).stdout
        first = exact = None
        for info in out.splitlines():
            w = info.split()
            if not w or w[0] != "info" or "pv" not in w:
                continue
            depth, mv, ms = w[2], w[w.index("pv") + 1], int(w[w.index("time") + 1])
            if first is None and depth.split("@")[0] == str(empties) and scores.get(mv) == best:
                first = f"{depth} at {ms} ms"
            if "exact" in w and exact is None:
                exact = f"{ms} ms"
        print(f"#{n + first_number} {empties} empties: first right move {first}, exact {exact}")


if __name__ == "__main__":
    main(sys.argv[1:])
