"""Reads a JSON-lines file with pandas as the README shows and prints what it made of it, as one JSON object.

Usage: python3 read_pandas.py FILE. Exit 3 when pandas is missing.
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
print(json.dumps({"columns": {name: str(kind) for name, kind in frame.dtypes.items()}, "rows": len(frame),
                  "types": int(frame["type"].nunique()),
                  "hourly": {name: str(kind) for name, kind in hours.dtypes.items()},
                  "current": {name: str(kind) for name, kind in current.dtypes.items()}}))
