#!/usr/bin/env python3
"""Time ntest (the strength anchor) at a fixed depth on ebony's bench positions, to compare with
`scripts/bench-midgame --depth N`: the same 30 positions, one search each from a fresh game, total and
per-position wall time.

ntest is not part of ebony: build the public ntest (github.com/weltyc/ntest) as docs/anchors.md says;
NTEST_RUN_DIR is its run/ folder (the binary with its coefficients).

Usage: scripts/ntest-bench.py DEPTH [NTEST_RUN_DIR]
  NTEST_RUN_DIR defaults to $NTEST_DIR, else ../anchors/ntest-src/run beside this repository.
Example: scripts/ntest-bench.py 12 ../anchors/ntest-src/run
"""
import os
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
    if argv[:1] in (["-h"], ["--help"]):
        print(__doc__.strip())
        return 0
    if not 1 <= len(argv) <= 2 or not argv[0].isdigit():
        print("usage: scripts/ntest-bench.py DEPTH [NTEST_RUN_DIR] (DEPTH a number of plies; --help)", file=sys.stderr)
        return 2
    depth = int(argv[0])
    default = os.environ.get("NTEST_DIR") or ROOT.parent / "anchors/ntest-src/run"
    run = Path(argv[1] if len(argv) > 1 else default).resolve()
    if not os.access(run / "ntest", os.X_OK):
        raise SystemExit(f"ntest-bench.py: no ntest in {run}: build the public ntest (github.com/weltyc/ntest) "
                         "as docs/anchors.md says and give its run/ folder")
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
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
