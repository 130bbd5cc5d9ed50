"""Write the day each release of a package was published on PyPI (the first file's upload, UTC), for the releases a
dialect lists: a project that installs the framework from a branch (``git+…@main``) at a commit of day D runs what
that branch held on D, which lies between the last release published by D and the next (translator/dialects/pins.py).

    python scripts/gen_release_dates.py trl translator/frameworks/trl/release_dates.txt

Needs the network (PyPI's JSON API); run by hand when a dialect's versions grow, and commit the file.
"""

from __future__ import annotations

import json
import os
import re
import sys
import urllib.request

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
from translator import dialects
from translator.dialects.versions import split_version, version_key


def main(package: str, out: str) -> None:
    with urllib.request.urlopen(f"https://pypi.org/pypi/{package}/json", timeout=60) as response:
        releases = json.load(response)["releases"]
    dialect = dialects.get(package)
    first, last = (version_key(split_version(v)) or () for v in (dialect.versions[0], dialect.versions[-1]))
    lines = [f"# {package}: release → the day PyPI first published a file of it (UTC); scripts/gen_release_dates.py"]
    final = [v for v in releases if re.fullmatch(r"\d+(\.\d+)*", v)]  # no pre-releases: a branch passes them
    for version in sorted(final, key=lambda v: version_key(split_version(v)) or ()):
        days = sorted(f["upload_time_iso_8601"][:10] for f in releases[version] or [])
        if days and first <= (version_key(split_version(version)) or ()) <= last:
            lines.append(f"{version} {days[0]}")
    with open(out, "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main(*sys.argv[1:3])
