#!/usr/bin/env python3
"""A small scriptable engine for the referee's tests: plays legal moves, or misbehaves on purpose.

    fake_engine.py [--proto native|gtp|nboard] [--style first|greedy|random] [--seed S] [--mode MODE] [--after N]

--style random picks among the legal moves by a hash of the position and --seed, so that its games are
the same every run whatever process plays them.

--delay MS thinks that long per move; --pidfile FILE records its process id.
MODE (from the N-th move it is asked for, counted per process, default 1): good, illegal (an occupied
square), pass (claims a pass while it has moves), garbage (prints nonsense instead of a move), hang (never
answers), crash (exits with status 3), slow (answers after 1.2 s), badstart (exits before the handshake).
"""

import argparse
import hashlib
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import othello  # noqa: E402


def out(line):
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def commands():
    """Each non-empty input line with its words, until end of input."""
    for line in sys.stdin:
        words = line.split()
        if words:
            yield line, words


class Brain:
    def __init__(self, args):
        self.args = args
        self.asked = 0

    def choose(self, pos):
        """The move text to answer with, or None after acting out a misbehaviour that needs no answer."""
        self.asked += 1
        mode = self.args.mode if self.asked >= self.args.after else "good"
        legal = pos.legal_moves()
        if mode == "illegal":
            occupied = [sq for sq in range(64) if (pos.black | pos.white) >> sq & 1]
            return othello.square_name(occupied[0])
        if mode == "pass" and legal:
            return "pass"
        if mode == "garbage":
            out("the quick brown fox \x01\x02 jumps")
            return "zz"
        if mode == "hang":
            time.sleep(3600)
        if mode == "crash":
            sys.exit(3)
        if mode == "slow":
            time.sleep(1.2)
        time.sleep(self.args.delay / 1000)
        if not legal:
            return "pass"
        if self.args.style == "random":
            key = f"{self.args.seed} {pos.black} {pos.white} {pos.side}".encode()
            return othello.square_name(legal[int(hashlib.sha1(key).hexdigest(), 16) % len(legal)])
        if self.args.style == "greedy":
            p, o = (pos.black, pos.white) if pos.side == othello.BLACK else (pos.white, pos.black)
            best = max(legal, key=lambda sq: (othello.popcount(othello.flips(p, o, sq)), -sq))
            return othello.square_name(best)
        return othello.square_name(legal[0])


def native(brain):
    pos = othello.Position.start()
    for line, words in commands():
        cmd = words[0]
        if cmd == "quit":
            return
        if cmd == "isready":
            out("readyok")
        elif cmd == "new":
            pos = othello.Position.start()
        elif cmd == "setboard" and len(words) == 3 and len(words[1]) == 64:
            black = sum(1 << i for i, c in enumerate(words[1]) if c == "X")
            white = sum(1 << i for i, c in enumerate(words[1]) if c == "O")
            pos = othello.Position(black, white, othello.BLACK if words[2] == "X" else othello.WHITE)
        elif cmd == "go":
            mv = brain.choose(pos)
            out("info depth 1 score 0 nodes 1 time 0 nps 0 pv " + mv)
            out(mv if brain.args.mode == "garbage" and mv == "zz" else f"bestmove {mv}")
        else:
            out(f"error unknown command {cmd}")


def gtp(brain):
    pos = othello.Position.start()

    def reply(text=""):
        out(f"= {text}".rstrip())
        out("")

    for line, words in commands():
        cmd = words[0]
        if cmd == "quit":
            reply()
            return
        if cmd in ("boardsize", "time_settings", "time_left", "komi"):
            reply()
        elif cmd == "clear_board":
            pos = othello.Position.start()
            reply()
        elif cmd == "play" and len(words) == 3:
            try:
                mv = othello.parse_square(words[2])
                if mv is not othello.PASS and pos.must_pass():  # passes are implicit, as in gtp-rhino
                    pos = pos.play(othello.PASS)
                pos = pos.play(mv)
                reply()
            except ValueError as e:
                out(f"? {e}")
                out("")
        elif cmd == "genmove":
            if pos.must_pass():
                pos = pos.play(othello.PASS)
            mv = brain.choose(pos)
            if mv == "zz":
                out("garbage!")
                continue
            try:
                pos = pos.play(othello.parse_square(mv))
            except ValueError:
                pass
            reply(mv.upper())
        else:
            out(f"? unknown command {cmd}")
            out("")


def nboard(brain):
    pos = othello.Position.start()
    for line, words in commands():
        cmd = words[0]
        if cmd == "quit":
            return
        if cmd == "nboard":
            out("set myname fake")
        elif cmd == "ping":
            out(f"pong {words[1]}")
        elif cmd == "set" and len(words) > 1 and words[1] == "game":
            pos = othello.Position.start()
            text = line.split("BO[", 1)[1].split("]", 1)[1]
            for chunk in text.split("]"):
                if "[" in chunk:
                    mv = othello.parse_square(chunk.split("[")[1].split("/")[0])
                    pos = pos.play(mv)
        elif cmd == "move":
            pos = pos.play(othello.parse_square(words[1].split("/")[0]))
        elif cmd == "go":
            out("status fake is thinking")
            mv = brain.choose(pos)
            out(f"=== {mv.upper() if mv != 'pass' else 'PA'}/0.00/0.0")
            out("status fake is waiting")


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--proto", default="native")
    p.add_argument("--style", default="first")
    p.add_argument("--mode", default="good")
    p.add_argument("--after", type=int, default=1)
    p.add_argument("--seed", type=int, default=0, help="varies --style random")
    p.add_argument("--delay", type=int, default=0, help="milliseconds to think per move")
    p.add_argument("--pidfile", help="append this process id to the file (tests check it is gone)")
    args = p.parse_args()
    if args.pidfile:
        with open(args.pidfile, "a", encoding="utf-8") as f:
            f.write(f"{os.getpid()}\n")
    if args.mode == "badstart":
        sys.exit(2)
    {"native": native, "gtp": gtp, "nboard": nboard}[args.proto](Brain(args))


if __name__ == "__main__":
    main()
