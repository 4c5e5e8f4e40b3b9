#!/usr/bin/env python3
"""Where an engine left its opening book in a match, and what the book promised there.

For each game of a referee results file (`results.jsonl`) in which ENGINE played at least one book
move, finds the position after its last book move: the last move it played that the book lists in
the position it faced (`ebony book show`), before its first move that the book does not list. Prints,
from ENGINE's side, the book's value of that position, the score of a fresh `go time MS` search of
it (without the book), and the game's result; then the means, and the mean of book minus search (how
optimistic the book's values are where play leaves them).

Usage: scripts/research/book-exits.py RESULTS ENGINE [--ms MS] [--book FILE] [--ebony BINARY] [--games N]
  --book FILE: the book ENGINE played with (default: the one built into the binary)
"""
import argparse
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def book_moves(ebony, book, moves):
    """The book's value of the position after `moves` (for its side to move) and its listed moves,
    or (None, set()) when the position is not in the book."""
    cmd = [ebony, "book", "show"] + ([book] if book else []) + ["--moves", "".join(moves)]
    lines = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout.splitlines()
    if not lines or not lines[0].startswith("value "):
        return None, set()
    listed = {line.split()[0] for line in lines[1:] if line and line[0] in "abcdefgh"}
    return int(lines[0].split()[1]), listed


def search_score(ebony, moves, ms):
    """The score of `go time MS` after `moves` from the start, for the side to move there."""
    script = "setboard start\n" + "".join(f"move {m}\n" for m in moves) + f"go time {ms}\n"
    proc = subprocess.Popen([ebony, "--no-book"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    proc.stdin.write(script)
    proc.stdin.flush()
    score = None
    for line in proc.stdout:
        if line.startswith("info ") and " score " in line:
            score = int(line.split(" score ")[1].split()[0])
        if line.startswith("bestmove"):
            break
    proc.stdin.write("quit\n")
    proc.stdin.close()
    proc.wait()
    return score


def exit_point(ebony, book, moves, side):
    """The number of moves played up to and including the engine's last book move (the engine moves
    at plies `side`, `side` + 2, ...), or None if it played none from the book."""
    last = None
    for i, move in enumerate(moves):
        if i % 2 == side and move != "pass":
            _, listed = book_moves(ebony, book, moves[:i])
            if move not in listed:
                break
            last = i + 1
    return last


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("results")
    ap.add_argument("engine")
    ap.add_argument("--ms", type=int, default=1000)
    ap.add_argument("--book")
    ap.add_argument("--ebony", default=os.path.join(HERE, "..", "..", "target", "release", "ebony"))
    ap.add_argument("--games", type=int, default=10**9)
    args = ap.parse_args()
    with open(args.results) as f:
        games = [g for g in map(json.loads, f) if g.get("type") == "game"][: args.games]
    rows = []
    for g in games:
        if args.engine not in (g["black"], g["white"]) or g.get("discs") is None:
            continue
        side = 0 if g["black"] == args.engine else 1
        # Passes are moves of the game's records too, so a side's plies keep their parity only
        # until the first pass; book lines end long before one.
        last = exit_point(args.ebony, args.book, g["moves"], side)
        if last is None:
            continue
        prefix = g["moves"][:last]
        value, _ = book_moves(args.ebony, args.book, prefix)
        score = search_score(args.ebony, prefix, args.ms)
        if value is None or score is None:
            continue
        sign = 1 if last % 2 == side else -1  # the side to move after `prefix` is the engine's when even
        result = g["discs"] if side == 0 else -g["discs"]
        rows.append((last, sign * value, sign * score, result))
        print(f"game {g['id']}: left the book after move {last}, book {sign * value:+d}, "
              f"search {sign * score:+d}, result {result:+d}", flush=True)
    if not rows:
        print("no game with a book move")
        return
    n = len(rows)
    mean = lambda k: sum(r[k] for r in rows) / n  # noqa: E731
    bias = sum(r[1] - r[2] for r in rows) / n
    print(f"{n} games: left the book after move {mean(0):.1f} on average; book {mean(1):+.2f}, "
          f"search ({args.ms} ms) {mean(2):+.2f}, result {mean(3):+.2f}; book - search {bias:+.2f}, "
          f"|book - search| {sum(abs(r[1] - r[2]) for r in rows) / n:.2f}")


if __name__ == "__main__":
    main()
