#!/usr/bin/env python3
"""How well a timed search chooses at a given number of empties, against exact solves.

`truth` takes, from each game of a referee match (in order, at most COUNT), the first position with
EMPTIES empties whose side to move has a move, and scores every move of it exactly (ebony `analyze
depth 60` on a new game); one JSON line a position. `test` then searches each such position with
`go time MS` on a new game and prints the discs its moves lose on average against the best, how many
wins or draws they throw away, and how often they are best.

Usage: scripts/research/endgame-choice.py truth RESULTS_JSONL EMPTIES COUNT OUT [--ebony BINARY] [--eval FILE]
       scripts/research/endgame-choice.py test TRUTH_JSONL MS [--ebony BINARY] [--eval FILE]
(`--eval FILE`: the binary plays with those weights instead of its own.)
Example: scripts/research/endgame-choice.py truth t100.jsonl 22 100 truth22.jsonl
         scripts/research/endgame-choice.py test truth22.jsonl 100
"""
import argparse
import json
import subprocess
import os
import sys

# The referee's modules (othello.py) is one folder up, in scripts/.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir))
import othello


class Ebony:
    def __init__(self, binary, weights=None):
        command = [binary, "--no-book"] + (["--eval", weights] if weights else [])
        self.proc = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL, text=True, bufsize=1)

    def ask(self, lines, until):
        """Sends `lines`, returns the words of every output line up to one starting with `until`."""
        self.proc.stdin.write("".join(line + "\n" for line in lines))
        self.proc.stdin.flush()
        out = []
        while True:
            line = self.proc.stdout.readline()
            if not line:
                raise SystemExit("ebony ended")
            out.append(line.split())
            if line.startswith(until):
                return out

    def close(self):
        self.proc.stdin.close()
        self.proc.wait()


def positions(results, empties):
    """The first position of each game with `empties` empties whose side to move has a move."""
    with open(results) as f:
        for game in (g for g in map(json.loads, f) if g.get("type") == "game" and g.get("moves")):
            pos = othello.Position.start()
            for text in game["moves"]:
                move = othello.PASS if text == "pass" else othello.parse_square(text)
                if move is not othello.PASS and pos.must_pass():
                    pos = pos.play(othello.PASS)
                pos = pos.play(move)
                if 64 - othello.popcount(pos.black | pos.white) == empties:
                    if not pos.is_over() and not pos.must_pass():
                        yield pos
                    break


def truth(args):
    ebony = Ebony(args.ebony, args.eval)
    with open(args.out, "w") as out:
        for n, pos in enumerate(positions(args.results, args.empties)):
            if n == args.count:
                break
            board, side = pos.board_string()
            lines = ebony.ask(["new", f"setboard {board} {side}", "analyze depth 60"], "analysis end")
            scores = {w[1]: int(w[3]) for w in lines if w[:1] == ["analysis"] and w[1] != "end"}
            out.write(json.dumps({"board": board, "side": side, "scores": scores}) + "\n")
            out.flush()
    ebony.close()


def test(args):
    ebony = Ebony(args.ebony, args.eval)
    n = loss = thrown = best_moves = 0
    with open(args.truth) as f:
        for record in map(json.loads, f):
            lines = ebony.ask(["new", f"setboard {record['board']} {record['side']}", f"go time {args.ms}"],
                              "bestmove")
            scores = record["scores"]
            best, got = max(scores.values()), scores[lines[-1][1]]
            n += 1
            loss += best - got
            thrown += (got > 0) - (got < 0) < (best > 0) - (best < 0)
            best_moves += got == best
    ebony.close()
    if not n:
        raise SystemExit("no positions")
    print(f"{n} positions, {args.ms} ms each: {loss / n:.2f} discs lost a position, "
          f"{thrown} wins or draws thrown away, best move in {best_moves}")


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    t = sub.add_parser("truth")
    t.add_argument("results")
    t.add_argument("empties", type=int)
    t.add_argument("count", type=int)
    t.add_argument("out")
    s = sub.add_parser("test")
    s.add_argument("truth")
    s.add_argument("ms", type=int)
    for p in (t, s):
        p.add_argument("--ebony", default="target/release/ebony")
        p.add_argument("--eval", help="a weights file the binary plays with (ebony --eval)")
    args = parser.parse_args(argv)
    truth(args) if args.command == "truth" else test(args)


if __name__ == "__main__":
    main(sys.argv[1:])
