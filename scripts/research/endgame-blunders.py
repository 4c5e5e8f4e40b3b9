#!/usr/bin/env python3
"""The moves of one engine in a referee match that lost value in the endgame: each of its moves from
--from empties on (16 by default) is judged by exact solves (ebony `go depth 60` on a new game) of the
position before and after it; a move that leaves its side less than the position was worth is listed
with its game, ply, empties, the values before and after, and the time the engine took.

The result summarises the listed moves: how many, how many changed the game's outcome (a win or draw
thrown away), and the discs they cost per game. A move answered in a few milliseconds at 16 or fewer
empties, where the solver takes under a millisecond, should never lose anything.

Usage: scripts/research/endgame-blunders.py RESULTS_JSONL ENGINE_NAME [--from E] [--ebony BINARY]
Example: scripts/research/endgame-blunders.py runs/100ms-vs-ntest16/results.jsonl ebony --from 16
"""
import argparse
import json
import os
import sys

# The referee's modules (othello.py, judge.py) are one folder up, in scripts/.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir))
import othello
from judge import Judge


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("results")
    parser.add_argument("engine")
    parser.add_argument("--from", dest="start", type=int, default=16, help="empties from which moves are judged")
    parser.add_argument("--ebony", default="target/release/ebony")
    args = parser.parse_args(argv)
    with open(args.results) as f:
        games = [g for g in map(json.loads, f) if g.get("type") == "game" and g.get("moves")]
    judge = Judge(args.ebony)

    def value(pos):
        """The exact score for the side to move."""
        if pos.is_over():
            return pos.disc_diff() if pos.side == othello.BLACK else -pos.disc_diff()
        return judge.score(pos, 60, new_game=True)

    def sign(v):
        return (v > 0) - (v < 0)

    judged = blunders = outcomes = lost = 0
    for game in games:
        if args.engine not in (game["black"], game["white"]):
            raise SystemExit(f"no engine {args.engine!r} in game {game.get('id')}")
        pos = othello.Position.start()
        times = game.get("times") or []
        for ply, text in enumerate(game["moves"]):
            move = othello.PASS if text == "pass" else othello.parse_square(text)
            if move is not othello.PASS and pos.must_pass():
                pos = pos.play(othello.PASS)
            mover = game["black"] if pos.side == othello.BLACK else game["white"]
            empties = 64 - othello.popcount(pos.black | pos.white)
            after = pos.play(move)
            if mover == args.engine and move is not othello.PASS and empties <= args.start:
                before_value = value(pos)
                after_value = -value(after)  # ebony scores a side that must pass after its pass
                judged += 1
                if after_value < before_value:
                    blunders += 1
                    lost += before_value - after_value
                    changed = sign(after_value) < sign(before_value)
                    outcomes += changed
                    took = times[ply] if ply < len(times) and times[ply] is not None else float("nan")
                    print(f"game {game['id']} ply {ply} empties {empties}: {text} {before_value:+d} -> "
                          f"{after_value:+d}{' (outcome)' if changed else ''}, {1000 * took:.0f} ms")
            pos = after
    judge.close()
    print(f"{len(games)} games, {judged} moves of {args.engine} judged from {args.start} empties: "
          f"{blunders} lost value, {outcomes} changed the outcome, {lost / max(1, len(games)):.2f} discs a game")


if __name__ == "__main__":
    main(sys.argv[1:])
