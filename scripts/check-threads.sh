#!/usr/bin/env bash
# Runs the tests of the parts that share state between threads — the stores (SQLite, Redis), the HTTP loop and the engine —
# under ThreadSanitizer, in a build of their own (.build/tsan), and fails on any report.
#
#   scripts/check-threads.sh [FILTER]    FILTER: a test filter (a regular expression) instead of those four test targets
#
# Suppressions, each with its reason, are in scripts/tsan-suppressions.txt.
# Exit code: 0 when the tests pass with no report, 1 otherwise.
set -euo pipefail
cd "$(dirname "$0")/.."
filter=${1:-'^(IsobarStoreTests|IsobarHTTPTests|IsobarRedisTests|IsobarEngineTests)\.'}
log=.build/tsan.log
mkdir -p .build
export TSAN_OPTIONS="halt_on_error=0 second_deadlock_stack=1 suppressions=$PWD/scripts/tsan-suppressions.txt ${TSAN_OPTIONS:-}"
status=0
swift test --disable-xctest --sanitize=thread --build-path .build/tsan --filter "$filter" >"$log" 2>&1 || status=$?
reports=$(grep -c "WARNING: ThreadSanitizer" "$log" || true)
grep -E "Test run with|✘" "$log" | tail -20 || true
if [ "$reports" -gt 0 ]; then
  grep -A30 "WARNING: ThreadSanitizer" "$log" | head -120 >&2
  echo "check-threads: $reports ThreadSanitizer report(s); the whole log is $log" >&2
  exit 1
fi
if [ "$status" -ne 0 ]; then
  tail -40 "$log" >&2
  echo "check-threads: the tests failed under ThreadSanitizer (log: $log)" >&2
  exit 1
fi
echo "check-threads: no ThreadSanitizer report"
