#!/usr/bin/env python3
"""Average and longest thinking time a move of each engine in referee result files.

Usage: scripts/match_times.py DIR...   (each a referee --out directory with results.jsonl)
"""
import json
import sys
from pathlib import Path


def main(dirs):
    for d in dirs:
        times = {}
        for line in Path(d, "results.jsonl").read_text().splitlines():
            record = json.loads(line)
            if record.get("type") != "game":
                continue
            # The moves start from the start position with black to move and list passes, so the
            # colours alternate; the opening's moves have no time.
            black, white = record["black"], record["white"]
            for ply, t in enumerate(record["times"]):
                if t is not None:
                    times.setdefault(black if ply % 2 == 0 else white, []).append(t)
        for name, ts in sorted(times.items()):
            print(f"{d}: {name}: {len(ts)} moves, average {1000 * sum(ts) / len(ts):.1f} ms, longest {1000 * max(ts):.0f} ms")


if __name__ == "__main__":
    main(sys.argv[1:])
