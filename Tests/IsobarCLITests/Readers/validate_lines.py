"""Validates JSON lines against Isobar's schema: prints `LINE<TAB>PATH<TAB>MESSAGE` for every problem.

Usage: python3 validate_lines.py SCHEMA FILE. Exit 0: every line is valid; 1: some are not; 3: jsonschema is missing.
"""
import json
import sys

try:
    import jsonschema
except ImportError:
    print("the Python package jsonschema is not installed (scripts/install-deps.sh installs it)", file=sys.stderr)
    sys.exit(3)

with open(sys.argv[1], encoding="utf-8") as handle:
    schema = json.load(handle)
jsonschema.Draft202012Validator.check_schema(schema)
validator = jsonschema.Draft202012Validator(schema)
problems = 0
with open(sys.argv[2], encoding="utf-8") as handle:
    for number, text in enumerate(handle, start=1):
        try:
            line = json.loads(text)
        except json.JSONDecodeError as error:
            print(f"{number}\t$\tnot JSON: {error}")
            problems += 1
            continue
        for error in sorted(validator.iter_errors(line), key=lambda error: error.json_path):
            print(f"{number}\t{error.json_path}\t{error.message[:300]}")
            problems += 1
sys.exit(1 if problems else 0)
