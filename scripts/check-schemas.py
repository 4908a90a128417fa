#!/usr/bin/env python3
"""Validates what textrender writes against the JSON Schemas in docs/schemas/.

    scripts/check-schemas.py TEXTRENDER

Runs `measure` (cell and text layouts) and `feed` over examples/feed.jsonl (and `feed` over
examples/photo-feed.jsonl, whose cells hold pictures) and checks every
output line with jsonschema (Debian's python3-jsonschema, installed by scripts/setup.sh).
Exits non-zero naming the first line that does not match.
"""
import json
import subprocess
import sys
import tempfile
from pathlib import Path

import jsonschema

root = Path(__file__).resolve().parent.parent
tool = sys.argv[1] if len(sys.argv) > 1 else str(root / ".build/debug/textrender")
feed = str(root / "examples/feed.jsonl")


def validator(name):
    schema = json.loads((root / "docs/schemas" / name).read_text())
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


def check(lines, schema, what):
    count = 0
    for number, line in enumerate(lines, 1):
        errors = sorted(schema.iter_errors(json.loads(line)), key=lambda e: list(e.path))
        if errors:
            sys.exit(f"{what}, line {number}: {errors[0].message} at {list(errors[0].path)}")
        count += 1
    if count == 0:
        sys.exit(f"{what}: no output")
    print(f"{what}: {count} lines match", file=sys.stderr)


measure = validator("measure.schema.json")
for layout in ["cell", "text"]:
    for widths in ["375", "320,375,414,768"]:
        out = subprocess.run([tool, "measure", feed, "--layout", layout, "--width", widths],
                             capture_output=True, text=True, check=True).stdout
        check(out.splitlines(), measure, f"measure --layout {layout} --width {widths}")
for widths in ["375", "200,400"]:  # vertical text: widths for column lengths
    out = subprocess.run([tool, "measure", feed, "--layout", "text", "--vertical", "--width", widths],
                         capture_output=True, text=True, check=True).stdout
    check(out.splitlines(), measure, f"measure --layout text --vertical --width {widths}")
for source in [feed, str(root / "examples/photo-feed.jsonl")]:
    with tempfile.TemporaryDirectory() as directory:
        subprocess.run([tool, "feed", source, "--out", directory, "--scale", "1"], capture_output=True, check=True)
        check(Path(directory, "layouts.jsonl").read_text().splitlines(), validator("layouts.schema.json"),
              f"feed {Path(source).name} layouts.jsonl")
