#!/usr/bin/env python3
"""Makes the hostile bundles the end-to-end tests feed to tripdoc, from the valid trips.tripbundle.

    cd Tests/tripdocTests/Fixtures && python3 make_hostile_bundles.py

Each file breaks one rule a bundle reader must enforce (see docs/FORMATS.md, "Reading a bundle").
"""
import hashlib
import json
import warnings
import zipfile

with zipfile.ZipFile("trips.tripbundle") as source:
    entries = [(info.filename, source.read(info.filename)) for info in source.infolist()]


def write(name, items, compression=zipfile.ZIP_DEFLATED):
    """Writes (entry name, bytes) pairs as a zip archive with fixed times."""
    with zipfile.ZipFile(name, "w", compression) as target:
        for entry_name, data in items:
            info = zipfile.ZipInfo(entry_name, date_time=(1980, 1, 1, 0, 0, 0))
            info.compress_type = compression
            target.writestr(info, data)


# An entry whose name climbs out of the folder it would be extracted to.
write("zip-slip.tripbundle", entries + [("../../evil.json", b"{}")])
# An entry with an absolute path.
write("absolute-path.tripbundle", entries + [("/etc/cron.d/evil", b"* * * * * root true\n")])

# A symbolic link entry (Unix mode 0120777 in the external attributes).
with zipfile.ZipFile("symlink.tripbundle", "w", zipfile.ZIP_DEFLATED) as target:
    for name, data in entries:
        target.writestr(zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0)), data)
    link = zipfile.ZipInfo("snapshots/link.json", date_time=(1980, 1, 1, 0, 0, 0))
    link.create_system = 3
    link.external_attr = (0o120777 << 16)
    target.writestr(link, "/etc/passwd")

# A zip bomb: 50 MB of zeros deflate to about 50 KB (1000:1).
write("bomb.tripbundle", entries + [("external/bomb", bytes(50_000_000))])

# Cut short: the second half of the archive (and its central directory) is missing.
with open("trips.tripbundle", "rb") as whole:
    data = whole.read()
with open("truncated.tripbundle", "wb") as cut:
    cut.write(data[: len(data) // 2])

# A flipped byte in a stored entry's data: the CRC no longer matches.
write("crc-corrupted.tripbundle", entries, compression=zipfile.ZIP_STORED)
with open("crc-corrupted.tripbundle", "r+b") as damaged:
    contents = damaged.read()
    at = contents.index(b'"Tokyo')
    damaged.seek(at + 1)
    damaged.write(b"X")

# A manifest whose digest for snapshots/Trip.json does not match the entry.
manifest = json.loads(dict(entries)["manifest.json"])
for entry in manifest["entries"]:
    if entry["name"] == "snapshots/Trip.json":
        entry["sha256"] = hashlib.sha256(b"something else").hexdigest()
write("manifest-lies.tripbundle", [("manifest.json", json.dumps(manifest).encode())] + entries[1:])

# Two entries with the same name (zipfile warns, and writes both).
warnings.simplefilter("ignore")
write("duplicate-names.tripbundle", entries + [("snapshots/Trip.json", b"[]")])
