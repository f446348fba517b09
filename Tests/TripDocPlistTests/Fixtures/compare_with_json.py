#!/usr/bin/env python3
"""Checks that plistlib reads a tripdoc plist and finds the same values as json finds in the
same document written as JSON. Exits 0 when they agree, 1 (printing the first difference) when not.

    python3 compare_with_json.py doc.plist doc.json

Data is bytes in the plist and base64 text in JSON; a string holding a character XML cannot
carry is written as its UTF-8 bytes in the plist. Both are compared through their JSON form.
"""
import base64
import json
import math
import plistlib
import sys


def same(plist_value, json_value, path):
    if isinstance(plist_value, bytes):
        if isinstance(json_value, str) and (
            base64.b64encode(plist_value).decode() == json_value or plist_value.decode("utf-8", "strict") == json_value
        ):
            return None
        return f"{path}: bytes {plist_value!r} vs {json_value!r}"
    if isinstance(plist_value, dict) and isinstance(json_value, dict):
        if sorted(plist_value) != sorted(json_value):
            return f"{path}: keys {sorted(plist_value)} vs {sorted(json_value)}"
        for key in plist_value:
            problem = same(plist_value[key], json_value[key], f"{path}.{key}")
            if problem:
                return problem
        return None
    if isinstance(plist_value, list) and isinstance(json_value, list):
        if len(plist_value) != len(json_value):
            return f"{path}: {len(plist_value)} elements vs {len(json_value)}"
        for index, (a, b) in enumerate(zip(plist_value, json_value)):
            problem = same(a, b, f"{path}[{index}]")
            if problem:
                return problem
        return None
    if type(plist_value) is not type(json_value):
        return f"{path}: {type(plist_value).__name__} {plist_value!r} vs {type(json_value).__name__} {json_value!r}"
    if isinstance(plist_value, float) and math.copysign(1, plist_value) != math.copysign(1, json_value):
        return f"{path}: {plist_value!r} vs {json_value!r}"
    return None if plist_value == json_value else f"{path}: {plist_value!r} vs {json_value!r}"


with open(sys.argv[1], "rb") as plist_file:
    plist_data = plistlib.load(plist_file)
with open(sys.argv[2], encoding="utf-8") as json_file:
    json_data = json.load(json_file)
problem = same(plist_data, json_data, "$")
if problem:
    print(problem)
    sys.exit(1)
