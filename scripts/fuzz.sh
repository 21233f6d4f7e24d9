#!/usr/bin/env bash
# Runs one of Isobar's libFuzzer targets for a while.
#
#   scripts/fuzz.sh                  list the targets
#   scripts/fuzz.sh TARGET SECONDS   fuzz TARGET for SECONDS seconds
#
# Builds Fuzz/isobar-fuzz with -sanitize=fuzzer,address into .build/fuzz, seeds a work corpus in
# .build/fuzz-corpus/TARGET from the bundled files (see seed below) and the kept regressions in
# Tests/FuzzRegressions/TARGET, runs libFuzzer with -max_total_time=SECONDS, and prints the executions, the
# corpus size and the path of every crash, hang (past -timeout) or out-of-memory input found; those are written to
# .build/fuzz-artifacts/TARGET. Extra libFuzzer options may follow in FUZZ_OPTIONS (e.g. FUZZ_OPTIONS=-jobs=2).
# Exit codes: 0 nothing found, 1 something found (or the build failed), 64 usage error.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
usage="usage: scripts/fuzz.sh [TARGET SECONDS]"

if [ $# -ne 0 ] && [ $# -ne 2 ]; then echo "fuzz.sh: $usage" >&2; exit 64; fi
if [ $# -eq 2 ] && ! [[ $2 =~ ^[1-9][0-9]*$ ]]; then echo "fuzz.sh: SECONDS must be a whole number above 0, not '$2'" >&2; exit 64; fi

build_path=.build/fuzz
if ! swift build -c release --build-path "$build_path" --product isobar-fuzz \
    -Xswiftc -sanitize=fuzzer,address -Xswiftc -D -Xswiftc ISOBAR_FUZZ \
    -Xswiftc -Xclang-linker -Xswiftc -fuse-ld=lld >"$build_path.log" 2>&1; then
  cat "$build_path.log" >&2
  echo "fuzz.sh: the fuzzing build failed (log: $build_path.log)" >&2
  exit 1
fi
binary=$build_path/release/isobar-fuzz
targets=$(ASAN_OPTIONS=detect_leaks=0 "$binary" --list)

if [ $# -eq 0 ]; then
  echo "$usage"
  echo "targets:"
  printf '%s\n' "$targets" | sed 's/^/  /'
  exit 0
fi
target=$1
seconds=$2
if ! printf '%s\n' "$targets" | cut -f1 | grep -qx -- "$target"; then
  echo "fuzz.sh: unknown target '$target'; targets: $(printf '%s\n' "$targets" | cut -f1 | paste -sd ' ')" >&2
  exit 64
fi

# Writes every response body recorded in the cassettes of config/cassettes/$1 to its own file in $2 and a short copy
# with every array cut to its first three elements (only the short ones with $3 = short-only: they fuzz much faster).
cassette_bodies() {
  python3 - "$1" "$2" "${3:-both}" <<'PY'
import base64, glob, json, os, sys
provider, out, which = sys.argv[1], sys.argv[2], sys.argv[3]

def short(value):
    if isinstance(value, list):
        return [short(item) for item in value[:3]]
    if isinstance(value, dict):
        return {key: short(item) for key, item in value.items()}
    return value

for path in sorted(glob.glob(f"config/cassettes/{provider}/*.json")):
    cassette = json.load(open(path, encoding="utf-8"))
    for number, interaction in enumerate(cassette["interactions"]):
        response = interaction["response"]
        body = response["body"].encode() if "body" in response else base64.b64decode(response.get("body_base64", ""))
        name = f"{provider}-{os.path.basename(path)[:-5]}-{number}"
        if which != "short-only":
            open(os.path.join(out, name), "wb").write(body)
        if which != "full-only":
            try:
                cut = json.dumps(short(json.loads(body)), ensure_ascii=False, separators=(",", ":")).encode()
            except ValueError:
                continue
            open(os.path.join(out, name + "-short"), "wb").write(cut)
PY
}

# The bundled inputs each target starts from.
seed() {
  local out=$2
  case $1 in
    openweathermap) cassette_bodies openweathermap "$out" short-only ;;
    open-meteo) cassette_bodies open-meteo "$out" short-only ;;
    met-norway) cassette_bodies met-norway "$out" short-only ;;
    exec-report) cp Fuzz/seeds/exec-report/* "$out"/ ;;
    cassette) for f in config/cassettes/*/*.json; do cp "$f" "$out/$(basename "$(dirname "$f")")-$(basename "$f")"; done ;;
    configuration) cp config/*.json "$out"/ ;;
    gazetteer) head -c 4096 config/gazetteer/cities15000.tsv >"$out/cities15000-start.tsv"; cp Fuzz/seeds/gazetteer/* "$out"/ ;;
    json) cassette_bodies openweathermap "$out" short-only; cassette_bodies open-meteo "$out" short-only; cp config/*.json "$out"/ ;;
    cap) cassette_bodies met-alerts "$out" full-only ;;
    *) echo "fuzz.sh: no seeds for '$1'" >&2; exit 1 ;;
  esac
}

corpus=.build/fuzz-corpus/$target
artifacts=.build/fuzz-artifacts/$target
mkdir -p "$corpus" "$artifacts"
seed "$target" "$corpus"
if [ -d "Tests/FuzzRegressions/$target" ]; then cp "Tests/FuzzRegressions/$target"/* "$corpus"/ 2>/dev/null || true; fi

log=.build/fuzz-artifacts/$target.log
marker=$(mktemp)
trap 'rm -f "$marker"' EXIT
echo "fuzzing $target for $seconds s (corpus $corpus, log $log)"
status=0
# shellcheck disable=SC2086  # FUZZ_OPTIONS holds several options
ISOBAR_FUZZ_TARGET=$target SWIFT_BACKTRACE=enable=no "$binary" \
  -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
  -artifact_prefix="$artifacts/" ${FUZZ_OPTIONS:-} "$corpus" >"$log" 2>&1 || status=$?

executions=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | tail -1 | grep -o '[0-9]*$' || true)
echo "target: $target"
echo "seconds: $seconds"
echo "executions: ${executions:-unknown}"
done_line=$(grep -E '^#[0-9]+[[:space:]]+DONE' "$log" | tail -1 || true)
echo "coverage: $(printf '%s' "$done_line" | grep -o 'cov: [0-9]*' | grep -o '[0-9]*' || echo unknown) edges"
echo "corpus: $(printf '%s' "$done_line" | grep -o 'corp: [0-9]*' | grep -o '[0-9]*$' || echo unknown) inputs kept by libFuzzer, $(find "$corpus" -type f | wc -l) files in $corpus"
found=$(find "$artifacts" -type f -newer "$marker" \( -name 'crash-*' -o -name 'timeout-*' -o -name 'oom-*' -o -name 'leak-*' -o -name 'slow-unit-*' \) | sort)
if [ -n "$found" ] || [ "$status" -ne 0 ]; then
  echo "findings:"
  printf '%s\n' "$found" | sed '/^$/d; s/^/  /'
  grep -m3 -E '^(==[0-9]+==ERROR|Fatal error|.*broken promise|SUMMARY)' "$log" | sed 's/^/  /' || true
  echo "fuzz.sh: $target found a problem (libFuzzer exit $status); log: $log" >&2
  exit 1
fi
echo "findings: none"
