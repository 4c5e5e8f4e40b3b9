#!/usr/bin/env python3
"""Weights for a layout with patterns appended to SHAPES, that evaluate as given weights do: the
appended patterns' weights are 0, every other weight is copied (docs/research-log.md, "What a pattern
copy costs": the same search tree in two builds, so that only the evaluation's cost differs).

usage: pad-weights.py OLD.ebev LAYOUT.ebev OUT.ebev
  OLD.ebev: weights of the layout before (version 2, the classes stored once);
  LAYOUT.ebev: any weights of the layout with the appended patterns (its header and size are used),
  e.g. from `ebony-train stream-fit --epochs 1` on one game file in that layout's build.
"""
import sys

import ebev

# The table after the patterns' classes, each phase: the global features (every value its own class,
# learned::GLOBALS) and the edges' moves (65,536 indices read from either corner: 32,896 classes).
TAIL = (32 + 32 + 40 + 40 + 10 + 41 + 41) + (65536 + 256) // 2


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    old_path, layout_path, out_path = sys.argv[1:4]
    (old_header, old), (layout_header, layout) = ebev.read(old_path), ebev.read(layout_path)
    phases = old_header[3]
    if layout_header[3] != phases or layout_header[1] != old_header[1]:
        sys.exit("pad-weights: the two files differ in phases or version")
    old_stored = len(old) // 2 // phases
    new_stored = len(layout) // 2 // phases
    added = new_stored - old_stored
    if added <= 0:
        sys.exit("pad-weights: LAYOUT.ebev has no more classes than OLD.ebev")
    patterns = old_stored - TAIL
    body = bytearray()
    for p in range(phases):
        phase = old[2 * p * old_stored:2 * (p + 1) * old_stored]
        body += phase[:2 * patterns] + bytes(2 * added) + phase[2 * patterns:]
    ebev.write(out_path, layout_header, bytes(body))
    print(f"{out_path}: {added} classes a phase added at 0, {phases} phases")


if __name__ == "__main__":
    main()
