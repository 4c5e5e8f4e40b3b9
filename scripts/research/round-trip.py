#!/usr/bin/env python3
"""Round trip of `setboard P` + `go time MS` through ebony's pipe, as a referee sends them before every
move: median and mean over 60 searches of the start position (the engine's own overhead per move).

Usage: scripts/research/round-trip.py MS [BINARY]   (default target/release/ebony)
"""
import subprocess
import sys
import time


def main(argv):
    ms = int(argv[0])
    binary = argv[1] if len(argv) > 1 else "target/release/ebony"
    p = subprocess.Popen([binary, "--no-book"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
    position = "---------------------------OX------XO--------------------------- X"
    times = []
    for _ in range(60):
        start = time.monotonic()
        p.stdin.write(f"setboard {position}\ngo time {ms}\n")
        p.stdin.flush()
        while not p.stdout.readline().startswith("bestmove"):
            pass
        times.append(time.monotonic() - start)
    p.stdin.write("quit\n")
    p.stdin.flush()
    times.sort()
    print(f"go time {ms}: median {times[30] * 1000:.1f} ms, mean {sum(times) / len(times) * 1000:.1f} ms")


if __name__ == "__main__":
    main(sys.argv[1:])
