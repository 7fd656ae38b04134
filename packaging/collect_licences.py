"""Collect the third-party licences at build time, for the bundle, the .deb and the About dialog.

    python packaging/collect_licences.py build/licences                    # before PyInstaller
    python packaging/collect_licences.py OUT --bundle dist/dpdesk/_internal  # after: + system libraries

Writes ``OUT/index.json`` and one folder per library with its licence files, from the installed
distributions (``dpdesk.licences.installed``: dpdesk's run-time requirements, recursively, the
licence files of their .dist-info folders, the standard texts for wheels that ship none, and
Python's own licence). ``dpdesk/licences.py`` reads the same index in the frozen app.

With ``--bundle`` (Linux), each system library the bundle carries (libxcb, fontconfig, glib...)
is traced to its Debian package (``dpkg -S``), and that package's
``/usr/share/doc/PKG/copyright`` is copied to ``OUT/system/PKG.copyright``.
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import subprocess
import sys
from importlib import metadata
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from dpdesk import licences  # noqa: E402


def _safe(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9._+-]", "_", name)


def installed_paths(name: str) -> list[str]:
    """Top-level files and folders a distribution installs (for the Debian Files: globs)."""
    if name == "Python":
        return ["base_library.zip", "lib-dynload/*", "libpython3*"]
    try:
        files = metadata.distribution(name).files or []
    except metadata.PackageNotFoundError:
        return []
    tops = {f.parts[0] for f in files if f.parts and not f.parts[0].endswith((".dist-info", ".egg-info"))
            and f.parts[0] not in ("..", "bin", "__pycache__") and not f.parts[0].endswith(".pth")}
    return sorted(tops)


def write_python_licences(out: Path) -> list[dict]:
    entries = []
    for lib in licences.installed():
        folder = _safe(f"{lib.name}")
        (out / folder).mkdir(parents=True, exist_ok=True)
        for name, text in lib.texts:
            target = out / folder / name
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(text, encoding="utf-8")
        entry = lib.to_json()
        entry.update(folder=folder, paths=installed_paths(lib.name))
        entries.append(entry)
        if not lib.texts:
            print(f"collect_licences: WARNING: {lib.name} {lib.version} ships no licence file", file=sys.stderr)
    return entries


def _package_of(library: Path) -> str | None:
    """The Debian package that installed a system library of the same name."""
    out = subprocess.run(["dpkg", "-S", f"*/{library.name}"], capture_output=True, text=True).stdout
    for line in out.splitlines():
        package, _, path = line.partition(": ")
        if path.endswith("/" + library.name):
            return package.split(":")[0].split(",")[0].strip()
    return None


def write_system_licences(out: Path, bundle: Path) -> list[dict]:
    """Copyright files of the Debian packages whose libraries sit at the top of the bundle."""
    if shutil.which("dpkg") is None:
        return []
    found: dict[str, list[str]] = {}
    for lib in sorted(bundle.glob("lib*.so*")):
        package = _package_of(lib)
        if package:
            found.setdefault(package, []).append(lib.name)
    entries = []
    (out / "system").mkdir(parents=True, exist_ok=True)
    for package, libs in sorted(found.items()):
        source = Path("/usr/share/doc") / package / "copyright"
        if not source.is_file():
            continue
        version = subprocess.run(["dpkg-query", "-W", "-f=${Version}", package], capture_output=True, text=True).stdout
        shutil.copyfile(source, out / "system" / f"{package}.copyright")
        entries.append({"package": package, "version": version, "libraries": libs, "file": f"system/{package}.copyright"})
    return entries


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--bundle", type=Path, help="a PyInstaller _internal folder: also its system libraries")
    args = parser.parse_args(argv)
    if args.out.exists():
        shutil.rmtree(args.out)
    args.out.mkdir(parents=True)
    index = {"libraries": write_python_licences(args.out)}
    if args.bundle is not None:
        index["system"] = write_system_licences(args.out, args.bundle)
    (args.out / "index.json").write_text(json.dumps(index, indent=1) + "\n", encoding="utf-8")
    print(f"collect_licences: {len(index['libraries'])} libraries"
          + (f", {len(index['system'])} Debian packages of bundled system libraries" if "system" in index else "")
          + f" -> {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
