"""Validates JSON files with Python's jsonschema (Draft 2020-12, format checking on).

Usage: python3 jsonschema_check.py SCHEMA FILE [FILE ...] [-- SCHEMA FILE ...]
Prints one line per problem, `FILE: /pointer: message`, and exits 1 when there is any.
"""
import json
import sys

from jsonschema import Draft202012Validator

problems = 0
groups = [[]]
for arg in sys.argv[1:]:
    if arg == "--":
        groups.append([])
    else:
        groups[-1].append(arg)
for schema_path, *files in (g for g in groups if g):
    with open(schema_path, encoding="utf-8") as f:
        schema = json.load(f)
    Draft202012Validator.check_schema(schema)
    validator = Draft202012Validator(schema, format_checker=Draft202012Validator.FORMAT_CHECKER)
    for path in files:
        with open(path, encoding="utf-8-sig") as f:
            instance = json.load(f)
        for error in sorted(validator.iter_errors(instance), key=lambda e: list(e.absolute_path)):
            pointer = "".join(f"/{p}" for p in error.absolute_path)
            print(f"{path}: {pointer}: {error.message}")
            problems += 1
sys.exit(1 if problems else 0)
