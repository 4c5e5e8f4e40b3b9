#!/usr/bin/env bash
# FFO endgame benchmark: solves #20-#39 (and #40-#59 with --all) with the release binary, printing
# per-position nodes, time and nodes/s, then runs the #[ignore]d exact-score tests.
# Usage: scripts/ffo.sh [--all] [extra `ebony solve` options, e.g. --hash 256]
set -euo pipefail
cd "$(dirname "$0")/.."
all=0
if [[ "${1:-}" == "--all" ]]; then
    all=1
    shift
fi
cargo build --release --quiet
./target/release/ebony "$@" solve tests/data/fforum-20-39.obf --first-number 20
if [[ $all == 1 ]]; then
    ./target/release/ebony "$@" solve tests/data/fforum-40-59.obf --first-number 40
    cargo test --release --test endgame -- --ignored
else
    cargo test --release --test endgame -- --ignored ffo_20_to_39
fi
