#!/usr/bin/env bash
# Installs Isobar under a prefix, or removes an earlier install.
#
#   scripts/install.sh [--prefix DIR] [--no-build | --binary PATH]
#   scripts/install.sh --uninstall [--prefix DIR]
#
#   --prefix DIR    where to install (default ~/.local; /usr/local for every user of the machine)
#   --no-build      do not build: install the release binary already built in .build/release/isobar
#   --binary PATH   install this isobar binary instead of building one (implies --no-build)
#   --uninstall     remove exactly the files and folders the install under DIR created (listed in its manifest)
#
# Installs PREFIX/bin/isobar; the bundled data (places, gazetteer, demo configuration and recordings,
# JSON Schemas when the repository has them) in PREFIX/share/isobar/; the man page
# PREFIX/share/man/man1/isobar.1; completions for bash, zsh and fish (written by `isobar completions`).
# PREFIX/share/isobar/install-manifest.txt lists everything installed; --uninstall removes only that, never
# your cities, home or cache. Exit codes: 0 done, 64 usage error, 1 anything else (a failed build, a missing file).
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
prefix=${HOME:+$HOME/.local}
build=1
binary=""
uninstall=0

fail() { echo "install.sh: $1" >&2; exit 1; }
usage_error() { echo "install.sh: $1; see scripts/install.sh --help" >&2; exit 64; }

while [ $# -gt 0 ]; do
  case $1 in
    --prefix) [ $# -ge 2 ] || usage_error "--prefix needs a directory"; prefix=$2; shift 2 ;;
    --prefix=*) prefix=${1#--prefix=}; shift ;;
    --binary) [ $# -ge 2 ] || usage_error "--binary needs the path of an isobar executable"; binary=$2; build=0; shift 2 ;;
    --binary=*) binary=${1#--binary=}; build=0; shift ;;
    --no-build) build=0; shift ;;
    --uninstall) uninstall=1; shift ;;
    -h|--help) sed -n '2,16p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) usage_error "unknown option '$1'" ;;
  esac
done
[ -n "$prefix" ] || usage_error "no prefix: HOME is not set, so give --prefix DIR"
case $prefix in /*) ;; *) prefix=$PWD/$prefix ;; esac
prefix=${prefix%/}
manifest_name=share/isobar/install-manifest.txt
manifest=$prefix/$manifest_name

# Removes what the manifest lists: files first, then the folders the install created, deepest first, when empty.
remove_installed() {
  local entry dirs=() index
  while IFS= read -r entry || [ -n "$entry" ]; do
    case $entry in
      ''|'#'*) ;;
      /*|../*|*/../*|*/..|..) echo "install.sh: warning: skipping '$entry' in the manifest: not inside the prefix" >&2 ;;
      */) dirs+=("${entry%/}") ;;
      *) rm -f -- "$prefix/$entry" ;;
    esac
  done < "$manifest"
  rm -f -- "$manifest"
  for (( index = ${#dirs[@]} - 1; index >= 0; index-- )); do
    if [ -d "$prefix/${dirs[index]}" ] && ! rmdir -- "$prefix/${dirs[index]}" 2>/dev/null; then
      echo "install.sh: kept $prefix/${dirs[index]}: it holds files Isobar did not install"
    fi
  done
}

if [ "$uninstall" -eq 1 ]; then
  [ -f "$manifest" ] || fail "nothing to uninstall in $prefix: $manifest not found (give the --prefix used to install)"
  remove_installed
  echo "Uninstalled Isobar from $prefix."
  exit 0
fi

for item in places.json demo.json isobar.json gazetteer stations cassettes demo-history plugins/nws.py; do
  [ -e "$root/config/$item" ] || fail "the bundled data is incomplete: $root/config/$item is missing"
done
[ -f "$root/docs/isobar.1" ] || fail "the man page $root/docs/isobar.1 is missing"
if [ -n "$binary" ]; then
  [ -f "$binary" ] && [ -x "$binary" ] || fail "no executable at $binary"
elif [ "$build" -eq 1 ]; then
  (cd "$root" && swift build -c release) || fail "the release build failed (see above)"
  binary=$root/.build/release/isobar
else
  binary=$root/.build/release/isobar
  [ -x "$binary" ] || fail "no release binary at $binary: build it with 'swift build -c release', or leave out --no-build"
fi

if [ -f "$manifest" ]; then
  echo "Removing the earlier install in $prefix first."
  remove_installed
fi
mkdir -p -- "$prefix"

# Makes $prefix/$1 and its missing parents, listing in the manifest each folder it created.
make_dir() {
  local path="" part parts
  IFS=/ read -ra parts <<< "$1"
  for part in "${parts[@]}"; do
    path=${path:+$path/}$part
    if [ ! -d "$prefix/$path" ]; then
      mkdir -- "$prefix/$path"
      [ -f "$manifest" ] && echo "$path/" >> "$manifest"
      created+=("$path/")
    fi
  done
}

# Installs file $1 as $prefix/$2 with mode $3 and lists it in the manifest.
put() {
  make_dir "$(dirname "$2")"
  install -m "$3" -- "$1" "$prefix/$2"
  echo "$2" >> "$manifest"
}

# The manifest comes first, so even an install stopped half-way can be uninstalled.
created=()
make_dir share/isobar
{
  echo "# Installed by scripts/install.sh; removed by scripts/install.sh --uninstall --prefix $prefix"
  echo "# Paths are relative to the prefix; a path ending in / is a folder the install created."
  printf '%s\n' "${created[@]}"
} > "$manifest"

put "$binary" bin/isobar 755
for item in places.json demo.json isobar.json; do put "$root/config/$item" "share/isobar/$item" 644; done
put "$root/config/plugins/nws.py" share/isobar/plugins/nws.py 755
while IFS= read -r -d '' file; do
  put "$root/config/${file#./}" "share/isobar/${file#./}" 644
done < <(cd "$root/config" && find ./gazetteer ./stations ./cassettes ./demo-history -type f -print0 | sort -z)
if [ -d "$root/schemas" ]; then
  while IFS= read -r -d '' file; do
    put "$root/${file#./}" "share/isobar/${file#./}" 644
  done < <(cd "$root" && find ./schemas -type f -print0 | sort -z)
fi
put "$root/NOTICE" share/isobar/NOTICE 644
put "$root/docs/isobar.1" share/man/man1/isobar.1 644

scratch=$(mktemp -d)
trap 'rm -rf -- "$scratch"' EXIT
for shell in bash zsh fish; do
  "$prefix/bin/isobar" completions "$shell" > "$scratch/$shell" \
    || fail "$prefix/bin/isobar cannot write its $shell completions"
done
put "$scratch/bash" share/bash-completion/completions/isobar 644
put "$scratch/zsh" share/zsh/site-functions/_isobar 644
put "$scratch/fish" share/fish/vendor_completions.d/isobar.fish 644

echo "Installed $("$prefix/bin/isobar" --version) in $prefix:"
echo "  $prefix/bin/isobar"
echo "  $prefix/share/isobar/ (places, gazetteer, demo, recordings)"
echo "  $prefix/share/man/man1/isobar.1"
echo "  completions: $prefix/share/bash-completion/completions/isobar, $prefix/share/zsh/site-functions/_isobar,"
echo "               $prefix/share/fish/vendor_completions.d/isobar.fish"
echo "Uninstall with: scripts/install.sh --uninstall --prefix $prefix"
case ":${PATH:-}:" in
  *":$prefix/bin:"*) ;;
  *) echo "Note: $prefix/bin is not on your PATH; add it, e.g. in ~/.profile: PATH=\"$prefix/bin:\$PATH\"" ;;
esac
case $prefix in
  /usr/local|/usr) ;;
  *) echo "Note: for zsh, add fpath+=($prefix/share/zsh/site-functions) before compinit in ~/.zshrc" ;;
esac
