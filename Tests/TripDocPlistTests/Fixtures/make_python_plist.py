#!/usr/bin/env python3
"""Writes a tripdoc JSON document's data as an XML property list with Python's plistlib.

    python3 make_python_plist.py trips.json python-written.plist

The result is the fixture that proves tripdoc reads plists written by another program: key order,
indentation and the spelling of reals and base64 are plistlib's, not tripdoc's.
"""
import json
import plistlib
import sys

with open(sys.argv[1], encoding="utf-8") as source:
    data = json.load(source)
with open(sys.argv[2], "wb") as target:
    plistlib.dump(data, target, fmt=plistlib.FMT_XML, sort_keys=True)
