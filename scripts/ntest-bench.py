#!/usr/bin/env python3
"""Time ntest (the strength anchor, built as ../shared/ANCHORS.md says) at a fixed depth on ebony's bench
positions, to compare with `scripts/bench-midgame --depth N`: the same 30 positions, one search each from
a fresh game, total and per-position wall time.

Usage: scripts/ntest-bench.py DEPTH [NTEST_RUN_DIR]   (default ../anchors/ntest-src/run)
"""
import re
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def bench_positions():
    text = (ROOT / "src/cli/bench.rs").read_text()
    block = text[text.index("pub const POSITIONS"):]
    block = block[:block.index("];")]
    return re.findall(r'"([-XO]{64}) ([XO])"', block)


def main(argv):
    depth = int(argv[0])
    run = Path(argv[1] if len(argv) > 1 else ROOT.parent / "anchors/ntest-src/run").resolve()
    proc = subprocess.Popen([str(run / "ntest")], cwd=run, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, text=True, bufsize=1)

    def send(line):
        proc.stdin.write(line + "\n")
        proc.stdin.flush()

    def until(predicate):
        while True:
            line = proc.stdout.readline()
            if not line:
                raise SystemExit("ntest ended")
            if predicate(line.strip()):
                return line.strip()

    send("nboard 2")
    send(f"set depth {depth}")
    total = 0.0
    for i, (board, side) in enumerate(bench_positions()):
        ggf_board = board.replace("X", "*") + " " + ("*" if side == "X" else "O")
        send(f"set game (;GM[Othello]PC[bench]TY[8]BO[8 {ggf_board}];)")
        send(f"ping {i}")
        until(lambda l: l == f"pong {i}")
        start = time.monotonic()
        send("go")
        answer = until(lambda l: l.startswith("==="))
        took = time.monotonic() - start
        total += took
        print(f"{i + 1:2} {answer:<24} {took * 1000:8.1f} ms")
    send("quit")
    print(f"ntest depth {depth}: 30 positions in {total:.3f} s")


if __name__ == "__main__":
    main(sys.argv[1:])
