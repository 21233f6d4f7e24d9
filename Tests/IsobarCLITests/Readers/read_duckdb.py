"""Reads a JSON-lines file with DuckDB as docs/json-lines.md shows and prints what it made of it, as one JSON object.

Usage: python3 read_duckdb.py FILE [CSV]: the JSON lines, and optionally a CSV output to describe too. Exit 3 when duckdb is missing.
"""
import json
import sys

try:
    import duckdb
except ImportError:
    print("the Python package duckdb is not installed (scripts/install-deps.sh installs it)", file=sys.stderr)
    sys.exit(3)

path = sys.argv[1]
connection = duckdb.connect()
# A file of every line type has many keys, each in few lines: without this, DuckDB reads each line as one MAP.
options = "map_inference_threshold = -1"
columns = {row[0]: row[1] for row in connection.execute(f"DESCRIBE SELECT * FROM read_json_auto('{path}', {options})").fetchall()}
rows = connection.execute(f"SELECT count(*) FROM read_json_auto('{path}', {options})").fetchone()[0]
types = connection.execute(f"SELECT count(DISTINCT type) FROM read_ndjson('{path}', {options})").fetchone()[0]
hourly = connection.execute(f"""
    SELECT typeof(h.temperature), count(*), count(h.temperature)
    FROM (SELECT unnest(hourly) AS h FROM read_json_auto('{path}', {options})) GROUP BY 1 ORDER BY 1""").fetchall()
consensus = connection.execute(f"""
    SELECT place.name, current.temperature FROM read_json_auto('{path}', {options})
    WHERE type = 'consensus' AND current.temperature IS NOT NULL ORDER BY 1, 2""").fetchall()
csv = {}
if len(sys.argv) > 2:
    csv = {row[0]: row[1] for row in connection.execute(f"DESCRIBE SELECT * FROM read_csv_auto('{sys.argv[2]}')").fetchall()}
print(json.dumps({"csv": csv, "columns": columns, "rows": rows, "types": types,
                  "hourly_temperature": [[str(kind), count, filled] for kind, count, filled in hourly],
                  "consensus_now": [[name, value] for name, value in consensus]}))
