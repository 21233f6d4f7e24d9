#!/usr/bin/env bash
# Installs the Debian packages Isobar builds against (C libraries for JSON, HTTP and storage).
set -euo pipefail
packages=(libjansson-dev libcurl4-openssl-dev libsqlite3-dev pkg-config jq)
missing=()
for package in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi
sudo=""
if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}"
