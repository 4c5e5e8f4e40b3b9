#!/usr/bin/env python3
"""Writes an evaluation weights file with each phase split into FACTOR narrower ones, the same weights
in each: the file a build with PHASES * FACTOR phases of PHASE_WIDTH / FACTOR empties (and otherwise
the same features) loads and searches with exactly as the source build does with the source file.
It measures what a finer phase layout costs in speed alone, the search tree being the same
(docs/research-log.md, "The corner triangle and 30 phases on all the games").

With `--merge M` it goes the other way: each M neighbouring phases become one, each weight their
mean (rounded to the nearest, halves to even), for a build with PHASES / M phases of PHASE_WIDTH * M
empties: a finer fit read at a coarser layout (docs/research-log.md, "30 phases of two empties on 48 M
positions").

Usage: scripts/research/split-phases.py IN OUT [--width W] [--factor F | --merge M]
  W: the source's empties per phase (4 by default, the shipped layout); F: 2 by default.

The header's layout fingerprint ends with the phase count and width: they are unwound and the new
ones applied (ebev.py)."""
import argparse
import struct

import ebev


def merged(body, block, merge):
    """Each `merge` neighbouring phases of `body` (blocks of `block` bytes of i16) as one: the mean of
    each weight, rounded to the nearest, halves to the even one."""
    phases = [body[p * block:(p + 1) * block] for p in range(len(body) // block)]
    return b"".join(ebev.mean(phases[first:first + merge]) for first in range(0, len(phases), merge))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("input")
    parser.add_argument("output")
    parser.add_argument("--width", type=int, default=4)
    # --factor has no argparse default: a group lets an option given at its default value pass
    # beside the other one (`--factor 2 --merge 2`).
    layout = parser.add_mutually_exclusive_group()
    layout.add_argument("--factor", type=int)
    layout.add_argument("--merge", type=int)
    args = parser.parse_args()
    if args.factor is None:
        args.factor = 2
    if args.merge is None and (args.factor < 1 or args.width % args.factor):
        parser.error("the width must split into --factor whole phases")
    header, body = ebev.read(args.input)
    magic, version, fingerprint, phases, size, _ = header
    block = len(body) // phases
    if args.merge is not None:
        if args.merge < 1 or phases % args.merge:
            parser.error(f"--merge must divide the {phases} phases")
        new_phases, new_width = phases // args.merge, args.width * args.merge
        new_body = merged(body, block, args.merge)
    else:
        new_phases, new_width = phases * args.factor, args.width // args.factor
        new_body = b"".join(body[p // args.factor * block:(p // args.factor + 1) * block] for p in range(new_phases))
    prefix = ebev.unwind(fingerprint, struct.pack("<II", phases, args.width))
    new_fingerprint = ebev.fnv1a(struct.pack("<II", new_phases, new_width), prefix)
    ebev.write(args.output, (magic, version, new_fingerprint, new_phases, size, 0), new_body)
    print(f"{args.output}: {new_phases} phases of {new_width} empties, fingerprint {new_fingerprint}")


if __name__ == "__main__":
    main()
