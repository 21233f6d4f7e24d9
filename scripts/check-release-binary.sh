#!/usr/bin/env bash
# Checks how the release binary is linked, which decides what every command pays before it starts (docs/benchmarks.md):
# SQLite, jansson and hiredis inside it (a shared SQLite cost 1,500 symbol lookups at each start), libcurl loaded only when
# a request is sent, and none of Isobar's own symbols exported (each one slowed every lookup the loader makes).
# Usage: scripts/check-release-binary.sh [BINARY]   (default .build/release/isobar, made by `swift build -c release`)
set -euo pipefail
binary=${1:-"$(dirname "$0")/../.build/release/isobar"}
fail() { echo "check-release-binary: $*" >&2; exit 1; }
[ -x "$binary" ] || fail "no binary at $binary: run 'swift build -c release' first"
command -v readelf >/dev/null || fail "readelf is missing: apt-get install binutils"
needed=$(readelf -dW "$binary" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p')
for library in libsqlite3 libjansson libhiredis libcurl; do
  if grep -q "^$library\." <<<"$needed"; then fail "$binary needs $library as a shared library (it should be linked in, or loaded on use)"; fi
done
exported=$(readelf -W --dyn-syms "$binary" | awk '$7 != "UND" && $4 != "SECTION" && $1 ~ /^[0-9]+:$/ && $2 != "0000000000000000"' | wc -l)
[ "$exported" -le 16 ] || fail "$binary exports $exported symbols (expected a handful: its own symbols should not be in the dynamic table)"
echo "check-release-binary: $(wc -l <<<"$needed") shared libraries ($(tr '\n' ' ' <<<"$needed")), $exported exported symbols"
