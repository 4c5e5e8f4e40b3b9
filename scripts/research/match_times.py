#!/usr/bin/env python3
"""Average and longest thinking time a move of each engine in referee result files (matches and
tournaments); for an engine on a game clock (--tc, or its own tc=) also the time it had left at the end
of its games (least, average).

With `--by-empties LO-HI`, also each engine's average time a move by the empties on the board
before it, from HI down to LO (where an engine that solves the endgame spends its time).

Usage: scripts/research/match_times.py DIR... [--by-empties LO-HI]   (each DIR a referee --out directory
       with results.jsonl; the option before or after them)
Example: scripts/research/match_times.py --by-empties 20-28 runs/100ms-vs-ntest16
"""
import argparse
import json
import sys
from pathlib import Path


def empties_range(text):
    """LO-HI (e.g. 20-28) as the empties from HI down to LO."""
    try:
        lo, hi = map(int, text.split("-"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected LO-HI, e.g. 20-28, not {text!r}")
    return range(hi, lo - 1, -1)


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("dirs", nargs="+", metavar="DIR", help="a referee --out directory with results.jsonl")
    parser.add_argument("--by-empties", type=empties_range, metavar="LO-HI",
                        help="also the average time a move by the empties before it, from HI down to LO")
    args = parser.parse_args(argv)
    by_empties = args.by_empties
    for d in args.dirs:
        times, left, at = {}, {}, {}
        clocks = {}  # engine name -> [base, increment] in ms, the engine's own tc= or the --tc of all
        for line in Path(d, "results.jsonl").read_text().splitlines():
            record = json.loads(line)
            if record.get("type") in ("match", "tournament"):
                common = (record.get("tc") or {}).get("clock_ms")
                for engine in record.get("engines", []):
                    own = engine.get("clock_ms") or (common if engine.get("movetime_ms") is None else None)
                    if own is not None:
                        clocks[engine["name"]] = own
                continue
            if record.get("type") != "game":
                continue
            # The moves start from the start position with black to move and list passes, so the
            # colours alternate; the opening's moves have no time.
            black, white = record["black"], record["white"]
            spent = {black: 0.0, white: 0.0}
            moved = {black: 0, white: 0}
            empties = 60
            for ply, t in enumerate(record["times"]):
                if t is not None:
                    name = black if ply % 2 == 0 else white
                    times.setdefault(name, []).append(t)
                    at.setdefault((name, empties), []).append(t)
                    spent[name] += t
                    moved[name] += 1
                empties -= record["moves"][ply] != "pass"
            for name in (black, white):
                if name in clocks:
                    clock_ms, inc_ms = clocks[name]
                    left.setdefault(name, []).append(clock_ms / 1000 + moved[name] * inc_ms / 1000 - spent[name])
        for name, ts in sorted(times.items()):
            print(f"{d}: {name}: {len(ts)} moves, average {1000 * sum(ts) / len(ts):.1f} ms, longest {1000 * max(ts):.0f} ms")
        for name in sorted(times) if by_empties else []:
            cells = [f"{e}: {1000 * sum(at[name, e]) / len(at[name, e]):.0f}" for e in by_empties if (name, e) in at]
            print(f"{d}: {name}: ms a move by empties, " + ", ".join(cells))
        for name, ls in sorted(left.items()):
            print(f"{d}: {name}: time left at the end of {len(ls)} games: least {min(ls):.2f} s, "
                  f"average {sum(ls) / len(ls):.2f} s, most {max(ls):.2f} s")


if __name__ == "__main__":
    main(sys.argv[1:])
