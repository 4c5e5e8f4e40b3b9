#!/usr/bin/env bash
# Slow rules checks and the perft speed figure: perft 11 and 12 against the published counts (the
# #[ignore]d test), then `ebony perft 12` for nodes/s. Release build.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo test --release --test rules -- --ignored
cargo run --release --quiet -- perft "${1:-12}"
