"""Reads a JSON-lines file with pandas as docs/json-lines.md shows and prints what it made of it, as one JSON object.

Usage: python3 read_pandas.py FILE [CSV]: the JSON lines, and optionally a CSV output to describe too. Exit 3 when pandas is missing.
"""
import json
import sys

try:
    import pandas
except ImportError:
    print("the Python package pandas is not installed (scripts/install-deps.sh installs it)", file=sys.stderr)
    sys.exit(3)

frame = pandas.read_json(sys.argv[1], lines=True)
hours = pandas.json_normalize(frame[frame.type.isin(["provider_result", "consensus"])].to_dict("records"), "hourly")
current = pandas.json_normalize(frame[frame.type.isin(["provider_result", "consensus"])]["current"].dropna().tolist())
csv = {}
if len(sys.argv) > 2:
    csv = {name: str(kind) for name, kind in pandas.read_csv(sys.argv[2]).dtypes.items()}
print(json.dumps({"csv": csv, "columns": {name: str(kind) for name, kind in frame.dtypes.items()}, "rows": len(frame),
                  "types": int(frame["type"].nunique()),
                  "hourly": {name: str(kind) for name, kind in hours.dtypes.items()},
                  "current": {name: str(kind) for name, kind in current.dtypes.items()}}))
