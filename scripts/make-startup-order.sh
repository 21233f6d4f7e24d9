#!/usr/bin/env bash
# Writes Sources/isobar/startup-order.txt: the functions short commands run, which the release link places together at the
# start of the program's code (lld's --symbol-ordering-file, set in Package.swift), so that a command touches fewer pages of
# it as it starts. The commands: a warm cache hit of compare with two providers answering from a loopback server, the same
# in the table view, --version, --help, and compare / now on the bundled recordings. Every function they run is listed
# (valgrind's callgrind sees each one), in the order callgrind first names it; a name the binary no longer has is skipped
# by the linker, so a stale list only orders less. The linker moves whole input sections, and a name moves every section
# that defines it (a local helper such as `__swift_destroy_boxed_opaque_existential_1Tm` is defined in hundreds): a name
# defined in a large section (most of Foundation's code is one section of 2.3 MB, the standard library's one of 1.6 MB)
# would pull all of it into the middle of the others. So the names come in four groups, each in the order run: those whose
# largest defining section is at most 4 KiB (a function of its own: Isobar's code is compiled with -function-sections),
# 16 KiB, 64 KiB, and the rest last.
# Usage: scripts/make-startup-order.sh   (after `swift build -c release`; needs valgrind, python3, binutils and gcc)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
binary=$root/.build/release/isobar
fail() { echo "make-startup-order: $*" >&2; exit 1; }
[ -x "$binary" ] || fail "no release binary at $binary: run 'swift build -c release' first"
command -v valgrind >/dev/null || fail "valgrind is missing: apt-get install valgrind"
scratch=$(mktemp -d)
trap 'kill "${server:-0}" 2>/dev/null || true; rm -rf "$scratch"' EXIT

# Two providers' recorded answers for Minsk, served on a free loopback port, so that the second compare is a cache hit.
python3 - "$root" "$scratch/port" <<'PY' &
import http.server, json, sys, urllib.parse
root, port_file = sys.argv[1], sys.argv[2]
bodies = {}
for name, path in (("openweathermap", "/data/2.5/weather"), ("open-meteo", "/v1/forecast")):
    for interaction in json.load(open(f"{root}/config/cassettes/{name}/minsk.json"))["interactions"]:
        if urllib.parse.urlparse(interaction["request"]["url"]).path == path:
            bodies[path] = interaction["response"]["body"].encode()
            break
class Answer(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        body = bodies.get(urllib.parse.urlparse(self.path).path, b"{}")
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)
    def log_message(self, *arguments): pass
server = http.server.HTTPServer(("127.0.0.1", 0), Answer)
open(port_file, "w").write(str(server.server_address[1]))
server.serve_forever()
PY
server=$!
for _ in $(seq 100); do [ -s "$scratch/port" ] && break; sleep 0.1; done
[ -s "$scratch/port" ] || fail "the loopback server did not start"
base=http://127.0.0.1:$(cat "$scratch/port")
cat > "$scratch/config.json" <<JSON
{"providers": [
  {"id": "openweathermap", "type": "openweathermap", "api_key_env": "ORDER_OWM_KEY", "base_url": "$base"},
  {"id": "open-meteo", "type": "open-meteo", "base_url": "$base"}]}
JSON
recorded_at=1795856400
export ORDER_OWM_KEY=order XDG_CACHE_HOME=$scratch/cache XDG_DATA_HOME=$scratch/data XDG_CONFIG_HOME=$scratch/config HOME=$scratch \
  ISOBAR_DATA_DIR=$root/config ISOBAR_TIME_SHIFT=$((recorded_at - $(date +%s)))
"$binary" compare 53.9,27.5667 --config "$scratch/config.json" --format jsonl > /dev/null
run=0
for arguments in "compare 53.9,27.5667 --config $scratch/config.json --format jsonl" "compare 53.9,27.5667 --config $scratch/config.json" \
                 "--version" "--help" "compare Minsk --demo" "compare Minsk --demo --format jsonl" "now Minsk --demo"; do
  run=$((run + 1))
  # shellcheck disable=SC2086
  valgrind --tool=callgrind --demangle=no --callgrind-out-file="$scratch/calls.$run" "$binary" $arguments > /dev/null 2>&1 \
    || fail "'isobar $arguments' failed under valgrind"
done
nm --defined-only "$binary" | awk '{print $3}' | sort -u > "$scratch/defined"
# The size of the input section each function of the link is in: its own objects, the static Swift libraries, and the
# C libraries linked in from their archives.
swift_static=$(dirname "$(dirname "$(readlink -f "$(command -v swift)")")")/lib/swift_static/linux
link_list=$(ls "$root"/.build/*/release/isobar.product/Objects.LinkFileList | head -1)
{ cat "$link_list"; ls "$swift_static"/*.a; for library in sqlite3 jansson hiredis; do gcc -print-file-name=lib$library.a; done; } \
  | python3 -c '
import re, subprocess, sys
sizes = {}
for path in (line.strip() for line in sys.stdin if line.strip()):
    listing = subprocess.run(["readelf", "-SsW", path], capture_output=True, text=True, errors="replace").stdout
    for member in re.split(r"\nFile: ", "\n" + listing):
        sections = {int(m.group(1)): int(m.group(2), 16) for m in
                    re.finditer(r"^\s*\[\s*(\d+)\]\s+\S+\s+\S+\s+[0-9a-f]+\s+[0-9a-f]+\s+([0-9a-f]+)", member, re.M)}
        for m in re.finditer(r"^\s*\d+:\s+[0-9a-f]+\s+\d+\s+FUNC\s+\S+\s+\S+\s+(\d+)\s+(\S+)", member, re.M):
            if int(m.group(1)) in sections: sizes[m.group(2)] = max(sizes.get(m.group(2), 0), sections[int(m.group(1))])
for name, size in sizes.items(): print(size, name)
' > "$scratch/section-sizes"
python3 - "$scratch" "$root/Sources/isobar/startup-order.txt" <<'PY'
import glob, re, sys
scratch, output = sys.argv[1], sys.argv[2]
defined = set(open(f"{scratch}/defined").read().split())
section_size = {name: int(size) for size, name in (line.split(" ", 1) for line in open(f"{scratch}/section-sizes").read().splitlines())}
order, seen = [], set()
for path in sorted(glob.glob(f"{scratch}/calls.*"), key=lambda p: int(p.rsplit(".", 1)[1])):
    for line in open(path, errors="replace"):
        match = re.match(r"^c?fn=\(\d+\) (\S+)$", line.rstrip("\n"))
        if match:
            name = match.group(1).split("'")[0]
            if name in defined and name not in seen:
                seen.add(name)
                order.append(name)
# The smallest sections first (see above); `sorted` keeps the order run within each group.
def group(name):
    size = section_size.get(name, 0)
    return 0 if size <= 4096 else 1 if size <= 16384 else 2 if size <= 65536 else 3
order = sorted(order, key=group)
large = sum(1 for name in order if group(name) == 3)
open(output, "w").write("".join(name + "\n" for name in order))
print(f"make-startup-order: {len(order)} functions written to {output}, the last {large} in large shared sections")
PY
