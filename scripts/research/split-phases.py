#!/usr/bin/env python3
"""Writes an evaluation weights file with each phase split into FACTOR narrower ones, the same weights
in each: the file a build with PHASES * FACTOR phases of PHASE_WIDTH / FACTOR empties (and otherwise
the same features) loads and searches with exactly as the source build does with the source file.
It measures what a finer phase layout costs in speed alone, the search tree being the same
(docs/evaluation.md, "Where the cost lies").

With `--merge M` it goes the other way: each M neighbouring phases become one, each weight their
mean (rounded to the nearest, halves to even), for a build with PHASES / M phases of PHASE_WIDTH * M
empties: a finer fit read at a coarser layout (docs/evaluation.md, "30 phases of two empties on 48 M
positions").

Usage: scripts/research/split-phases.py IN OUT [--width W] [--factor F | --merge M]
  W: the source's empties per phase (4 by default, the shipped layout); F: 2 by default.

The header's layout fingerprint is FNV-1a over a description of the features that ends with the
phase count and width (u32, little-endian; `layout_fingerprint` in src/eval/learned.rs): FNV-1a's
steps are invertible (its prime is odd), so the last eight bytes are unwound and the new ones
applied. The checksum is FNV-1a over the weights, as `Weights::to_bytes` writes it."""
import argparse
import struct

PRIME = 0x100000001B3
MASK = (1 << 64) - 1
HEADER = struct.Struct("<4sIQIIQ")  # magic, version, fingerprint, phases, phase size, checksum


def fnv1a(data, h=0xCBF29CE484222325):
    for b in data:
        h = ((h ^ b) * PRIME) & MASK
    return h


def unwind(h, data):
    inverse = pow(PRIME, -1, 1 << 64)
    for b in reversed(data):
        h = ((h * inverse) & MASK) ^ b
    return h


def merged(body, block, merge):
    """Each `merge` neighbouring phases of `body` (blocks of `block` bytes of i16) as one: the mean of
    each weight, rounded to the nearest, halves to the even one."""
    count = block // 2
    phases = [struct.unpack_from(f"<{count}h", body, p * block) for p in range(len(body) // block)]
    out = []
    for first in range(0, len(phases), merge):
        for weights in zip(*phases[first:first + merge]):
            quotient, rest = divmod(sum(weights), merge)
            out.append(quotient + (2 * rest > merge or (2 * rest == merge and quotient % 2 == 1)))
    return struct.pack(f"<{len(out)}h", *out)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("input")
    parser.add_argument("output")
    parser.add_argument("--width", type=int, default=4)
    layout = parser.add_mutually_exclusive_group()
    layout.add_argument("--factor", type=int)
    layout.add_argument("--merge", type=int)
    args = parser.parse_args()
    if args.factor is None:
        args.factor = 2
    if args.merge is None and (args.factor < 1 or args.width % args.factor):
        parser.error("the width must split into --factor whole phases")
    data = open(args.input, "rb").read()
    magic, version, fingerprint, phases, size, checksum = HEADER.unpack_from(data)
    body = data[HEADER.size:]
    if magic != b"EBEV" or fnv1a(body) != checksum or len(body) % phases:
        raise SystemExit(f"{args.input}: not a whole ebony weights file")
    block = len(body) // phases
    if args.merge is not None:
        if args.merge < 1 or phases % args.merge:
            parser.error(f"--merge must divide the {phases} phases")
        new_phases, new_width = phases // args.merge, args.width * args.merge
        new_body = merged(body, block, args.merge)
    else:
        new_phases, new_width = phases * args.factor, args.width // args.factor
        new_body = b"".join(body[p // args.factor * block:(p // args.factor + 1) * block] for p in range(new_phases))
    prefix = unwind(fingerprint, struct.pack("<II", phases, args.width))
    new_fingerprint = fnv1a(struct.pack("<II", new_phases, new_width), prefix)
    with open(args.output, "wb") as f:
        f.write(HEADER.pack(magic, version, new_fingerprint, new_phases, size, fnv1a(new_body)) + new_body)
    print(f"{args.output}: {new_phases} phases of {new_width} empties, fingerprint {new_fingerprint}")


if __name__ == "__main__":
    main()
