#!/usr/bin/env python3
"""How far apart two weights files of one layout are, weight by stored weight: the mean absolute
difference in discs, the share of weights that differ, and each file's mean absolute weight
(docs/research-log.md, "Averaged fits": two seeds of one fit).

Usage: scripts/research/weights-diff.py A.ebev B.ebev"""
import argparse
import struct

import ebev


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("a")
    parser.add_argument("b")
    args = parser.parse_args()
    (_, a), (_, b) = ebev.read_alike([args.a, args.b])
    count = len(a) // 2
    a, b = struct.unpack(f"<{count}h", a), struct.unpack(f"<{count}h", b)
    differences = [abs(x - y) for x, y in zip(a, b)]
    print(f"{count} weights; mean absolute difference {sum(differences) / count / ebev.SCALE:.4f} discs, "
          f"{sum(1 for d in differences if d) / count:.1%} differ, the largest {max(differences) / ebev.SCALE:.2f}")
    for path, weights in ((args.a, a), (args.b, b)):
        print(f"{path}: mean absolute weight {sum(abs(w) for w in weights) / count / ebev.SCALE:.4f} discs")


if __name__ == "__main__":
    main()
