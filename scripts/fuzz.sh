#!/usr/bin/env bash
# Fuzzes every target of fuzz/ (docs/fuzzing.md) for SECONDS each (60 by default), one after
# another, at nice FUZZ_NICE (5 by default): prints each target's executions, coverage (cov) and
# features (ft), the CPU seconds the run used (user + system), and fails if any target crashed (the input is then in fuzz/artifacts/TARGET/).
# Usage: scripts/fuzz.sh [SECONDS] [TARGET ...]
# Stable Rust: no sanitizer (-s none); -O -a is an optimised build with debug assertions and
# overflow checks on.
set -euo pipefail
cd "$(dirname "$0")/../fuzz"
seconds=${1:-60}
shift || true
targets=("$@")
if [[ ${#targets[@]} == 0 ]]; then
    mapfile -t targets < <(cargo fuzz list)
fi
flags=(-s none -O -a)
cargo fuzz build "${flags[@]}"
mkdir -p artifacts
failed=()
printf '%-11s %12s %9s %8s %7s %7s %s\n' target executions exec/s cov ft cpu-s seconds
for target in "${targets[@]}"; do
    mkdir -p "corpus/$target" "artifacts/$target"
    log="artifacts/$target/last-run.log"
    status=0
    # /usr/bin/time reports the CPU of cargo and the fuzzer it waits for, which is what a target
    # "ran for" on a shared machine, where the wall time overstates it.
    timing=()
    if [[ -x /usr/bin/time ]]; then
        timing=(/usr/bin/time -o "artifacts/$target/last-run.cpu" -f '%U %S')
    fi
    nice -n "${FUZZ_NICE:-5}" "${timing[@]}" cargo fuzz run "${flags[@]}" "$target" -- \
        -max_total_time="$seconds" -timeout=20 -print_final_stats=1 >"$log" 2>&1 || status=$?
    # The last status line: "#N <event> cov: C ft: F corp: ..."; the final stats give the runs.
    last=$(grep -E '^#[0-9]+' "$log" | tail -n 1 || true)
    cov=$(sed -nE 's/.* cov: ([0-9]+).*/\1/p' <<<"$last")
    ft=$(sed -nE 's/.* ft: ([0-9]+).*/\1/p' <<<"$last")
    runs=$(sed -nE 's/^stat::number_of_executed_units: *([0-9]+).*/\1/p' "$log" | tail -n 1)
    rate=$(sed -nE 's/^stat::average_exec_per_sec: *([0-9]+).*/\1/p' "$log" | tail -n 1)
    cpu=$(awk '/^[0-9.]+ [0-9.]+$/ { printf "%.0f", $1 + $2 }' "artifacts/$target/last-run.cpu" 2>/dev/null || true)
    printf '%-11s %12s %9s %8s %7s %7s %s\n' "$target" "${runs:-?}" "${rate:-?}" "${cov:-?}" "${ft:-?}" "${cpu:-?}" "$seconds"
    if [[ $status != 0 ]]; then
        failed+=("$target")
        grep -E 'panicked at|ERROR: libFuzzer|Test unit written to' "$log" | head -n 5 >&2 || true
        echo "$target failed (exit $status): see fuzz/$log" >&2
    fi
done
if [[ ${#failed[@]} != 0 ]]; then
    echo "crashed: ${failed[*]}" >&2
    exit 1
fi
