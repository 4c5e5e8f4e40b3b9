#!/usr/bin/env python3
"""Where an engine gained or lost discs in a referee match: for each game, the value of the position
after 8, 16, 24, 32 and 40 moves (ebony's search at a fixed depth; solved exactly from move 40, 20
empties) and the final result, averaged per segment from one engine's side.

A segment's average is what that engine's moves and its opponent's together did to its score there.
Values before move 40 come from ebony's own search, which tends to agree with ebony's moves, so they
flatter ebony a little; the last segment (exact values) does not.

Usage: scripts/research/disc-loss.py RESULTS_JSONL ENGINE_NAME [--depth D] [--count N] [--ebony BINARY]
                            [--checkpoints M,M,...] [--solve-from M]
Example: scripts/research/disc-loss.py runs/d8-vs-ntest8/results.jsonl ebony --depth 10
         scripts/research/disc-loss.py runs/100ms/results.jsonl ebony --checkpoints 8,16,24,28,32,36,40,44 --solve-from 36
"""
import argparse
import json
import os
import sys

# The referee's modules (othello.py, judge.py) are one folder up, in scripts/.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir))
import othello
from judge import Judge

CHECKPOINTS = [8, 16, 24, 32, 40]
SOLVE_FROM = 40


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("results")
    parser.add_argument("engine")
    parser.add_argument("--depth", type=int, default=10)
    parser.add_argument("--count", type=int, default=0, help="the first N games (default all)")
    parser.add_argument("--ebony", default="target/release/ebony")
    parser.add_argument("--checkpoints", default=",".join(map(str, CHECKPOINTS)),
                        help="moves after which positions are valued, increasing (default %(default)s)")
    parser.add_argument("--solve-from", type=int, default=SOLVE_FROM,
                        help="moves from which values are exact solves (default %(default)s)")
    args = parser.parse_args(argv)
    checkpoints = [int(m) for m in args.checkpoints.split(",")]
    if not checkpoints or checkpoints != sorted(set(checkpoints)) or checkpoints[0] < 0 or checkpoints[-1] > 59:
        raise SystemExit("--checkpoints: increasing move numbers from 0 to 59")
    with open(args.results) as f:
        games = [g for g in map(json.loads, f) if g.get("type") == "game" and g.get("moves")]
    if args.count:
        games = games[:args.count]
    judge = Judge(args.ebony)

    def black_value(pos, depth):
        score = judge.score(pos, depth)
        return score if pos.side == othello.BLACK else -score

    sums = [0.0] * (len(checkpoints) + 1)
    counted = 0
    for game in games:
        if args.engine not in (game["black"], game["white"]):
            raise SystemExit(f"no engine {args.engine!r} in game {game.get('id')}")
        sign = 1 if game["black"] == args.engine else -1
        pos, played, values = othello.Position.start(), 0, []
        for text in game["moves"]:
            if played in checkpoints and len(values) < len(checkpoints) and not pos.is_over():
                values.append(black_value(pos, 60 if played >= args.solve_from else args.depth))
            move = othello.PASS if text == "pass" else othello.parse_square(text)
            if move is not othello.PASS and pos.must_pass():
                pos = pos.play(othello.PASS)
            pos = pos.play(move)
            played += move is not othello.PASS
        if len(values) < len(checkpoints) or not pos.is_over():
            continue  # ended early (a forfeit) or too short to reach every checkpoint
        series = values + [pos.disc_diff()]
        sums[0] += sign * series[0]
        for j in range(1, len(series)):
            sums[j] += sign * (series[j] - series[j - 1])
        counted += 1
    judge.close()
    if not counted:
        raise SystemExit("no finished game reached every checkpoint")
    names = [f"after {checkpoints[0]}"] + [f"{a}-{b}" for a, b in zip(checkpoints, checkpoints[1:])]
    names.append(f"{checkpoints[-1]}-end")
    print(f"{counted} games; {args.engine}'s discs gained per segment of moves (depth {args.depth}, "
          f"exact from move {args.solve_from}):")
    print("  ".join(f"{name}: {s / counted:+.2f}" for name, s in zip(names, sums)))


if __name__ == "__main__":
    main(sys.argv[1:])
