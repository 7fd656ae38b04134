"""Check that every system library the bundle links to comes from a package the .deb depends on.

    python packaging/linux/check_depends.py BUNDLE_DIR DEBIAN/control

Reads the NEEDED entries of every ELF file in the bundle (``readelf -d``), drops those the
bundle carries itself, finds the rest with ``ldconfig -p`` and their packages with
``dpkg -S``. Exits 1 naming each library whose package is missing from ``Depends``.
"""

from __future__ import annotations

import platform
import re
import subprocess
import sys
from pathlib import Path


def needed(path: Path) -> list[str]:
    out = subprocess.run(["readelf", "-d", str(path)], capture_output=True, text=True).stdout
    return re.findall(r"\(NEEDED\)\s+Shared library: \[(.+?)\]", out)


def is_elf(path: Path) -> bool:
    try:
        with path.open("rb") as f:
            return f.read(4) == b"\x7fELF"
    except OSError:
        return False


def system_paths() -> dict[str, str]:
    out = subprocess.run(["ldconfig", "-p"], capture_output=True, text=True).stdout
    found: dict[str, str] = {}
    for line in out.splitlines():
        m = re.match(r"\s*(\S+) \((.+?)\) => (\S+)", line)
        if m and (platform.machine() != "x86_64" or "x86-64" in m.group(2)):
            found.setdefault(m.group(1), m.group(3))
    return found


def depends(control: Path) -> set[str]:
    text = control.read_text()
    line = re.search(r"^Depends:(.*)$", text, re.M).group(1)
    return {re.split(r"[\s(]", alt.strip())[0] for d in line.split(",") for alt in d.split("|") if alt.strip()}


def main(argv: list[str]) -> int:
    bundle, control = Path(argv[0]), Path(argv[1])
    files = [p for p in bundle.rglob("*") if p.is_file() and not p.is_symlink() and is_elf(p)]
    carried = {p.name for p in bundle.rglob("*")}
    wanted = {name for f in files for name in needed(f)} - carried
    where = system_paths()
    listed = depends(control)
    problems = []
    for soname in sorted(wanted):
        path = where.get(soname)
        if path is None:
            problems.append(f"{soname}: not installed on this machine (install it, then add its package to Depends)")
            continue
        out = subprocess.run(["dpkg", "-S", str(Path(path).resolve())], capture_output=True, text=True).stdout
        if not out:
            out = subprocess.run(["dpkg", "-S", path], capture_output=True, text=True).stdout
        packages = {p.split(":")[0].strip() for p in out.split(":", 1)[0].split(",")} if out else set()
        if not packages & listed:
            problems.append(f"{soname} ({path}) comes from {', '.join(sorted(packages)) or 'no package'}, "
                            "which Depends does not list")
    for p in problems:
        print(f"check_depends: {p}", file=sys.stderr)
    if not problems:
        print(f"check_depends: {len(wanted)} system libraries, all from packages in Depends")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
