"""Write /usr/share/doc/dpdesk/copyright in Debian's machine-readable format (copyright-format 1.0).

    python packaging/linux/debian_copyright.py LICENCES_DIR OUT [--prefix usr/lib/dpdesk/_internal]

LICENCES_DIR is what ``packaging/collect_licences.py --bundle`` wrote into the bundle
(``_internal/dpdesk/resources/licences``). One Files paragraph per bundled library (its installed
folders, the copyright lines of its licence files, its declared licence and the full texts);
bundled system libraries point to their Debian package's copyright file, shipped beside this one
in /usr/share/doc/dpdesk/system/.
"""

from __future__ import annotations

import argparse
import json
import re
from pathlib import Path

HEADER = """Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/
Upstream-Name: dpdesk
Upstream-Contact: dpdesk developers <dpdesk@example.org>
Source: https://github.com/dpdesk/dpdesk
Comment: dpdesk is a self-contained bundle ({root}): it carries Python, Qt (PySide6,
 LGPL-3.0) and the Python libraries below, each under its own licence, whose full texts follow.
 The same texts are in {prefix}/dpdesk/resources/licences/. Pure-Python
 modules live inside the program's archive (PYZ), so some Files patterns name the folder a
 library would have, not a file on disk.
"""
ROOT = Path(__file__).resolve().parents[2]


def short_name(licence: str) -> str:
    """A licence short name as copyright-format writes it: no spaces in a name; 'and' / 'or'."""
    words = re.split(r"\s+(AND|OR|and|or)\s+", licence.strip()) or ["unknown"]
    out = []
    for i, word in enumerate(words):
        out.append(word.lower() if i % 2 else re.sub(r"[\s,()]+", "-", word).strip("-") or "unknown")
    return " ".join(out)


def as_field(text: str) -> str:
    """Continuation lines of a field: each indented by one space, empty lines as ' .'."""
    lines = text.replace("\t", "    ").rstrip().splitlines()
    return "\n".join(" " + line.rstrip() if line.strip() else " ." for line in lines)


def copyright_lines(texts: list[str], name: str) -> str:
    found: list[str] = []
    for text in texts:
        for line in text.splitlines():
            line = line.strip().lstrip("#*/ ").strip()
            if re.match(r"(?i)^(copyright\s*(\(c\)|©|\d{4})|\(c\)\s*\d{4})", line) and line not in found:
                found.append(line[:200])
    if not found:
        return f"the {name} authors"
    return found[0] + ("".join("\n " + line for line in found[1:8]) + ("\n and others" if len(found) > 8 else ""))


def render(folder: Path, prefix: str) -> str:
    index = json.loads((folder / "index.json").read_text(encoding="utf-8"))
    paragraphs = [HEADER.format(root=prefix.rsplit("/_internal", 1)[0], prefix=prefix).rstrip()]
    own = next(e for e in index["libraries"] if e["name"].lower() == "dpdesk")
    own_text = "\n".join((folder / own["folder"] / f).read_text(encoding="utf-8") for f in own["files"]) \
        or (ROOT / "LICENSE").read_text(encoding="utf-8")
    paragraphs.append("Files: *\nCopyright: " + copyright_lines([own_text], "dpdesk") + "\nLicense: MIT")
    for entry in index["libraries"]:
        if entry is own:
            continue
        texts = [(f, (folder / entry["folder"] / f).read_text(encoding="utf-8", errors="replace")) for f in entry["files"]]
        paths = [f"{prefix}/{p}" if ("." in p or "*" in p) and not p.endswith(".libs") else f"{prefix}/{p}/*"
                 for p in entry["paths"]]
        paths = paths or [f"{prefix}/{entry['folder']}-is-linked-into-the-program"]
        body = "\n\n".join(f"==> {f} <==\n{t}" for f, t in texts) or "(no licence text shipped)"
        paragraphs.append(
            f"Files: {' '.join(paths)}\n"
            f"Copyright: {copyright_lines([t for _, t in texts], entry['name'])}\n"
            f"License: {short_name(entry['licence'])}\n"
            f" {entry['name']} {entry['version']}: the licence files it ships follow.\n .\n"
            f"{as_field(body)}")
    for entry in index.get("system", []):
        paragraphs.append(
            f"Files: {' '.join(f'{prefix}/{lib}' for lib in entry['libraries'])}\n"
            f"Copyright: see /usr/share/doc/dpdesk/system/{entry['package']}.copyright\n"
            f"License: other\n"
            f" Copied from Debian's {entry['package']} {entry['version']}; its copyright file, with the\n"
            f" licence texts, is /usr/share/doc/dpdesk/system/{entry['package']}.copyright.")
    paragraphs.append("License: MIT\n" + as_field(own_text))
    return "\n\n".join(paragraphs) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("licences", type=Path)
    parser.add_argument("out", type=Path)
    parser.add_argument("--prefix", default="usr/lib/dpdesk/_internal")
    args = parser.parse_args(argv)
    args.out.write_text(render(args.licences, args.prefix), encoding="utf-8")
    print(f"debian_copyright: {args.out} ({args.out.stat().st_size // 1024} KiB)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
