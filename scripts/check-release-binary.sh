#!/usr/bin/env bash
# Checks how the release binary is linked, which decides what every command pays before it starts (docs/benchmarks.md):
# SQLite, jansson and hiredis inside it (a shared SQLite cost 1,500 symbol lookups at each start), libcurl loaded only when
# a request is sent, none of Isobar's own symbols exported (each one slowed every lookup the loader makes), library
# functions bound at start, and the functions short commands run placed together at the start of the code
# (Sources/isobar/startup-order.txt).
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
# Library functions bound as the program starts (-z now, see Package.swift): lazily, a cache hit paid the loader's resolver
# at each first call.
readelf -dW "$binary" | grep -q "FLAGS_1.*NOW" || fail "$binary binds library functions lazily (expected -z now: see bindNow in Package.swift)"
# The first 1,000 names of the start-up order (functions with small sections of their own) must lie in the first MiB of the
# code: spread over megabytes, each touches a page of its own (a large shared section pulled in among them, or Isobar's
# code compiled without -function-sections, spread them over 6 MB).
order=$(dirname "$0")/../Sources/isobar/startup-order.txt
# nm prints addresses as 16 hex digits: compared as strings, they order as numbers.
read -r first last < <(nm --defined-only "$binary" | awk -v order="$order" '
  BEGIN { while ((getline name < order) > 0) if (!(name in rank)) rank[name] = ++count }
  $2 ~ /^[tT]$/ { if (first == "" || $1 < first) first = $1
                  if ($3 in rank && rank[$3] <= 1000 && $1 > last) last = $1 }
  END { print first, last }')
spread=$((16#$last - 16#$first))
[ "$spread" -le 1048576 ] || fail "the first 1,000 functions of $order span $((spread / 1024)) KiB of code (expected under 1 MiB: see scripts/make-startup-order.sh)"
echo "check-release-binary: $(wc -l <<<"$needed") shared libraries ($(tr '\n' ' ' <<<"$needed")), $exported exported symbols, start-up functions within $((spread / 1024)) KiB"
