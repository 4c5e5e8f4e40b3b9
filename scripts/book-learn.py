#!/usr/bin/env python3
"""Book learning by play: rounds of games from the start position between ebony with BOOK and ebony
without a book, each followed by `ebony book learn` of the round's games into BOOK.

A book's values are searches; where play leaves the book, choosing the best of many of them picks the
ones that err in its favour, and the side with the book walks into lines a deeper look would avoid.
Learning a game adds its positions after the book's exit (up to --max-ply discs played), each scored
by a search at level --depth, and backs the values up along the line, so the next round's choices
rest on what the last one met.

Each round: a referee match (`--pairs` pairs of games, both colours, `--movetime` ms a move or the
game clock `--tc`), the book side at `set book randomness --randomness` so that the games differ;
the games' transcripts go to
GAMES_DIR/roundK.txt (one a line); then `--jobs` processes learn them, each into its own copy of BOOK
(`book learn --shard J/N`), and `book merge` joins the copies back into BOOK.

With --rescore, the games' positions that the book holds with moves searched below --depth are
scored again at --depth (`book learn --rescore`), so that the lines played rest on the deeper searches.

Resumable: a round whose transcript file exists is not played again, and a shard's copy that exists
is learnt on (it is written after every game and skips the positions it holds).

Usage: scripts/book-learn.py BOOK GAMES_DIR [--rounds R] [--first K] [--pairs N] [--movetime MS | --tc T+I]
       [--randomness D] [--depth D] [--max-ply P] [--jobs J] [--rescore] [--ebony BINARY]
"""
import argparse
import json
import os
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def play_round(args, transcripts):
    """The round's match; writes its transcripts (the games in the referee's order) to `transcripts`."""
    out = transcripts + ".match"
    cmd = [sys.executable, os.path.join(HERE, "referee.py"), "match", "-j", str(args.jobs), "--out", out,
           "-e", f"cmd={args.ebony} --book {args.book}", "name=book",
           f"init=set book randomness {args.randomness}",
           "-e", f"cmd={args.ebony} --no-book", "name=nobook",
           "--start", "--count", str(args.pairs)]
    cmd += ["--tc", args.tc] if args.tc else ["--movetime", str(args.movetime)]
    subprocess.run(cmd, check=True)  # its summary (by colour, Elo) on stdout, its progress on stderr
    with open(os.path.join(out, "results.jsonl")) as f:
        games = [r for r in map(json.loads, f) if r.get("type") == "game"]
    games.sort(key=lambda g: g["id"])
    with open(transcripts + ".tmp", "w") as f:
        f.writelines(g["transcript"] + "\n" for g in games)
    os.replace(transcripts + ".tmp", transcripts)
    shutil.rmtree(out)
    return games


def book_points(game):
    """The book side's points in one game of the referee's results."""
    if game["winner"] == "draw":
        return 0.5
    return 1.0 if game["winner"] == ("black" if game["black"] == "book" else "white") else 0.0


def learn_round(args, transcripts):
    """Learns `transcripts` into the book in --jobs shards, then merges them into it."""
    shards = [f"{transcripts}.shard{k}.book" for k in range(1, args.jobs + 1)]
    procs = []
    for k, shard in enumerate(shards, 1):
        if not os.path.exists(shard):
            shutil.copyfile(args.book, shard)
        cmd = [args.ebony, "book", "learn", shard, transcripts, "--depth", str(args.depth),
               "--max-ply", str(args.max_ply), "--shard", f"{k}/{args.jobs}"] + (["--rescore"] if args.rescore else [])
        procs.append(subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True))
    said = [p.communicate()[0].strip() for p in procs]
    if any(p.returncode != 0 for p in procs):
        sys.exit(f"book learn failed: {said}")
    subprocess.run([args.ebony, "book", "merge", "--out", args.book, args.book] + shards, check=True,
                   stdout=subprocess.DEVNULL)
    for shard in shards:
        os.remove(shard)
    return said


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("book")
    ap.add_argument("games_dir")
    ap.add_argument("--rounds", type=int, default=1)
    ap.add_argument("--first", type=int, default=1, help="the number of the first round (its file name)")
    ap.add_argument("--pairs", type=int, default=100)
    timing = ap.add_mutually_exclusive_group()
    timing.add_argument("--movetime", type=int, default=100)
    timing.add_argument("--tc", help="a game clock (referee.py's --tc, as 5+0.05) instead of --movetime")
    ap.add_argument("--randomness", type=int, default=1)
    ap.add_argument("--depth", type=int, default=24)
    ap.add_argument("--max-ply", type=int, default=30)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--rescore", action="store_true",
                    help="also score again at --depth the games' positions the book holds at a lower level")
    ap.add_argument("--ebony", default=os.path.join(HERE, "..", "target", "release", "ebony"))
    args = ap.parse_args()
    os.makedirs(args.games_dir, exist_ok=True)
    for k in range(args.first, args.first + args.rounds):
        transcripts = os.path.join(args.games_dir, f"round{k}.txt")
        if os.path.exists(transcripts):
            print(f"round {k}: games already played ({transcripts})", flush=True)
        else:
            games = play_round(args, transcripts)
            points = sum(book_points(g) for g in games)
            finished = [g for g in games if g["discs"] is not None]
            discs = sum(g["discs"] if g["black"] == "book" else -g["discs"] for g in finished)
            print(f"round {k}: book side {points:g} of {len(games)} ({100 * points / len(games):.1f}%), "
                  f"{discs / max(1, len(finished)):+.2f} discs a game", flush=True)
        said = learn_round(args, transcripts)
        added = sum(int(s.split(": ")[1].split()[0]) for s in said)
        rescored = sum(int(s.split(", ")[1].split()[0]) for s in said) if args.rescore else 0
        print(f"round {k}: learnt, {added} positions added" + (f", {rescored} rescored" if args.rescore else ""),
              flush=True)


if __name__ == "__main__":
    main()
