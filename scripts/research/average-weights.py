#!/usr/bin/env python3
"""Writes the weight by weight mean of several evaluation weights files of one layout: fits of the
same features and phases (another `--seed`, other games), averaged into one. The evaluation is a sum
of weights, so the mean's evaluation is the mean of theirs (but for rounding to whole steps): an
ensemble of fits at the cost of one. docs/research-log.md, "Averaged fits", measured four seeds' mean
of the shipped fit: the same held-out error, and no gain in play.

Usage: scripts/research/average-weights.py OUT IN IN [IN ...]
  Each weight is the mean of the inputs', rounded to the nearest, halves to the even one; the header
  is the first input's. The inputs must agree in version, layout fingerprint, phases and size."""
import argparse

import ebev


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("output")
    parser.add_argument("inputs", nargs="+")
    args = parser.parse_args()
    if len(args.inputs) < 2:
        parser.error("give at least two weights files to average")
    files = ebev.read_alike(args.inputs)
    first = files[0][0]
    ebev.write(args.output, first, ebev.mean([body for _, body in files]))
    print(f"{args.output}: the mean of {len(files)} weights files, {first[3]} phases")


if __name__ == "__main__":
    main()
