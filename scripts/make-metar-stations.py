#!/usr/bin/env python3
"""Build Isobar's bundled list of weather-reporting (METAR) stations from the airportsdata package.

Writes config/stations/metar-stations.tsv, byte-identical on every run with the same airportsdata version:
every airport with a four-letter ICAO location indicator (the stations METAR reports are filed under; local
identifiers such as `00AA` are left out). Not every airport reports: Isobar asks for several nearby stations at
once and takes the nearest one that has a recent report.

Data: airportsdata (https://github.com/mborsetti/airportsdata, MIT licence). Standard library and
airportsdata only. Usage:

    pip install airportsdata==20260905
    python3 scripts/make-metar-stations.py [--out FILE]

File format (UTF-8, LF line ends, fields separated by TAB):

    isobar-metar-stations<TAB>1<TAB>count
    # comment lines (source, licence, column names)
    ICAO, name, country code, latitude, longitude, elevation in metres   (sorted by ICAO)
"""

import argparse
import csv
import io
import re
from importlib import metadata, resources


def stations():
    text = resources.files("airportsdata").joinpath("airports.csv").read_text(encoding="utf-8")
    for row in csv.DictReader(io.StringIO(text)):
        if not re.fullmatch(r"[A-Z]{4}", row["icao"]):
            continue
        name = " ".join(row["name"].replace("\t", " ").split())
        elevation = round(float(row["elevation"] or 0) * 0.3048)
        yield (row["icao"], name, row["country"], f"{float(row['lat']):.4f}", f"{float(row['lon']):.4f}", str(elevation))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default="config/stations/metar-stations.tsv")
    arguments = parser.parse_args()
    rows = sorted(stations())
    version = metadata.version("airportsdata")
    with open(arguments.out, "w", encoding="utf-8", newline="\n") as out:
        out.write(f"isobar-metar-stations\t1\t{len(rows)}\n")
        out.write(f"# Isobar METAR stations, made by scripts/make-metar-stations.py from airportsdata {version}.\n")
        out.write("# Data: airportsdata, https://github.com/mborsetti/airportsdata, MIT licence; see NOTICE.\n")
        out.write("# icao\tname\tcountry\tlatitude\tlongitude\televation_m\n")
        for row in rows:
            out.write("\t".join(row) + "\n")


if __name__ == "__main__":
    main()
