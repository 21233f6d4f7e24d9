#!/usr/bin/env bash
# Installs what Isobar builds and tests against: the Debian packages of its C libraries (JSON, HTTP, storage, Redis client;
# their -dev packages carry the static archives a release build links), binutils (readelf checks the release binary),
# redis-server (the shared-store tests start their own, on a free loopback port), jq, strace (the start-up tests count the
# threads a command starts), groff (the man page is rendered), zsh and fish (the completion scripts are run in them), and the
# Python packages the tests use to check the JSON-lines schema (jsonschema) and to read the output as docs/json-lines.md shows
# (duckdb, pandas), and aiohttp for the batch benchmark's comparison script. A Python package that cannot be installed is
# reported; the tests (and the benchmark comparison) that need it are skipped, with a message.
set -euo pipefail
packages=(libjansson-dev libcurl4-openssl-dev libsqlite3-dev libhiredis-dev binutils redis-server pkg-config jq strace groff-base zsh fish)
python3 -m pip --version >/dev/null 2>&1 || packages+=(python3 python3-pip)
missing=()
for package in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
if [ ${#missing[@]} -gt 0 ]; then
  sudo=""
  if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}"
fi

python_packages=(jsonschema duckdb pandas aiohttp)
wanted=()
for package in "${python_packages[@]}"; do
  python3 -c "import $package" >/dev/null 2>&1 || wanted+=("$package")
done
if [ ${#wanted[@]} -gt 0 ]; then
  pip=(python3 -m pip install --quiet --disable-pip-version-check --root-user-action=ignore)
  # A Debian-managed Python refuses plain pip installs; the packages go to that Python all the same.
  "${pip[@]}" "${wanted[@]}" 2>/dev/null || "${pip[@]}" --break-system-packages "${wanted[@]}" \
    || echo "install-deps: could not install the Python packages ${wanted[*]}; the tests that need them are skipped" >&2
fi
