"""Writes python-json-goldens.json: json.dumps outputs that core/python must reproduce byte for byte.

Inputs avoid integral floats (JS cannot tell 1.0 from 1); PythonFloat covers those.
Run: python3 make-python-json-goldens.py > python-json-goldens.json
"""
import json
import sys

VALUES = [
    {"phase": "triage", "phase_index": 1, "ok": True, "none": None, "list": [1, 2, [3, []]], "empty": {}},
    {"text": "caf\u00e9 \u4e2d\u6587 \U0001F600 tab\tnewline\n quote\" backslash\\ del\x7f ctrl\x01"},
    [0.1, -0.25, 1e-05, 0.0001, 123456789.125, 2.5e-10, 1.5e-7, -0.867, 0.15000000000000002],
    {"b": 1, "a": [{"z": "x", "y": []}], "\u00e9": 2, "A": 3},
    "plain string",
    [],
    {},
    [{"nested": {"deep": [True, False, None]}}],
]

OPTIONS = [
    ("default", {}),
    ("unicode", {"ensure_ascii": False}),
    ("compact", {"separators": (",", ":"), "ensure_ascii": False}),
    ("compact_ascii", {"separators": (",", ":")}),
    ("indent2", {"indent": 2}),
    ("indent2_unicode", {"indent": 2, "ensure_ascii": False}),
    ("sorted", {"sort_keys": True}),
    ("indent4_sorted", {"indent": 4, "sort_keys": True}),
]

cases = []
for value in VALUES:
    for name, kwargs in OPTIONS:
        cases.append({"value": value, "options": name, "expected": json.dumps(value, **kwargs)})

floats = [[f, repr(f)] for f in [0.0, -0.0, 1.0, 5.0, 100.0, 1e16, 1e15, 123456789012345.6, 0.0001, 0.00012, 1e-05, 3.14, -1.0, 1e-300, 1.7976931348623157e308, 5e-324, 1.5e16, 1e22]]
json.dump({"python": sys.version.split()[0], "cases": cases, "floats": floats}, sys.stdout, ensure_ascii=True, indent=1)
sys.stdout.write("\n")
