#!/usr/bin/env bash
# Runs the test suite (the README's test command) while two CPU-bound processes keep both cores of a small machine busy, so
# that a test that depends on the machine's speed fails here rather than on a newcomer's machine.
#
#   scripts/test-under-load.sh [HOGS]    HOGS busy processes beside the suite (default 2)
#
# Exit code: the suite's (0 when every test passed); 64 for a usage error.
set -euo pipefail
cd "$(dirname "$0")/.."
hogs=${1:-2}
if ! [[ $hogs =~ ^[0-9]+$ ]]; then echo "test-under-load.sh: HOGS must be a whole number, not '$hogs'" >&2; exit 64; fi
pids=()
stop_hogs() { for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done; }
trap stop_hogs EXIT
for _ in $(seq 1 "$hogs"); do
  sh -c 'while :; do :; done' &
  pids+=($!)
done
echo "test-under-load: $hogs busy processes beside the suite" >&2
swift test --disable-xctest
