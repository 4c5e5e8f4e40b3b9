#!/usr/bin/env python3
"""Compares two book files (ebony's EBBK format, src/book/mod.rs) entry by entry: the positions the
second scored deeper than the first, how many of their leaves changed their best move, and how far
leaf scores and values moved.

Usage: scripts/research/book-diff.py OLD_BOOK NEW_BOOK
Example (docs/research-log.md, "Deepening the book's main lines"):
    scripts/research/book-diff.py src/book/default.book data/book/deepening.book
"""
import struct
import sys

HEADER = 24  # "EBBK", version, count, reserved (u32 each), checksum (u64)
ENTRY = "<QQbbBBB"  # player, opponent, value, leaf score, leaf move, depth, flags
EXPANDED = 1


def read(path):
    data = open(path, "rb").read()
    if data[:4] != b"EBBK":
        sys.exit(f"{path}: not a book file")
    count = struct.unpack_from("<I", data, 8)[0]
    size = struct.calcsize(ENTRY)
    return {(p, o): rest for p, o, *rest in (struct.unpack_from(ENTRY, data, HEADER + size * i) for i in range(count))}


def main(argv):
    if len(argv) != 3:
        sys.exit(__doc__)
    old, new = read(argv[1]), read(argv[2])
    deeper = [k for k in new if k in old and new[k][3] > old[k][3]]
    leaves = [k for k in deeper if not new[k][4] & EXPANDED]
    moved = sum(1 for k in leaves if new[k][2] != old[k][2])
    leaf_shift = sum(abs(new[k][1] - old[k][1]) for k in leaves) / max(1, len(leaves))
    value_shift = sum(abs(new[k][0] - old[k][0]) for k in deeper) / max(1, len(deeper))
    print(f"{len(old)} -> {len(new)} positions; {len(deeper)} scored deeper ({len(leaves)} leaves): "
          f"leaf move changed in {moved}, leaf score moved {leaf_shift:.2f} discs on average; "
          f"values moved {value_shift:.2f}")


if __name__ == "__main__":
    main(sys.argv)
