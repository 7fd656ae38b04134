"""Which libraries this copy of dpdesk runs on, their versions and their licence texts.

For the About dialog (the GUI shows what :func:`libraries` returns; nothing here imports Qt)
and for the build (``packaging/collect_licences.py`` writes the same records into the bundle
and the Debian copyright file).

Where the records come from:

1. A frozen bundle carries ``dpdesk/resources/licences/index.json`` and the texts beside it,
   collected at build time from the installed distributions (:func:`bundled`).
2. Otherwise (a wheel or a source checkout in a venv) the records are read from the installed
   distributions' metadata: every distribution dpdesk requires at run time, recursively, and the
   licence files in their ``.dist-info`` folders (:func:`installed`).

Some wheels carry no licence file at all (PySide6-Essentials and shiboken6: Qt's LGPL-3.0;
dp-accounting: Apache-2.0); for those the licence text named by their metadata is taken from
``dpdesk/resources/licence_texts`` (:data:`MISSING_TEXTS`).
"""

from __future__ import annotations

import json
import platform
import re
import sys
from dataclasses import dataclass, field
from importlib import metadata
from pathlib import Path

__all__ = ["Library", "libraries", "installed", "bundled", "runtime_distributions", "versions"]

#: Distributions whose wheels ship no licence file: the texts their metadata names.
MISSING_TEXTS = {
    "pyside6-essentials": ("LGPL-3.0-only", "GPL-3.0-only"),  # Qt for Python; LGPLv3 builds on GPLv3's text
    "shiboken6": ("LGPL-3.0-only", "GPL-3.0-only"),
    "dp-accounting": ("Apache-2.0",),
}
_LICENCE_FILE = re.compile(r"(^|/)(licen[cs]es?|copying|notice|copyright|authors)([./_-]|$)", re.I)


@dataclass(frozen=True)
class Library:
    """One library: its distribution name, version, declared licence and the licence texts."""

    name: str
    version: str
    licence: str
    #: (file name, text) pairs: the licence files the distribution ships (or the standard texts).
    texts: tuple[tuple[str, str], ...] = field(default=(), repr=False)

    def to_json(self) -> dict:
        return {"name": self.name, "version": self.version, "licence": self.licence,
                "files": [name for name, _ in self.texts]}


def _normalise(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def declared_licence(dist: metadata.Distribution) -> str:
    """The licence a distribution declares: License-Expression, a short License field, or its classifiers."""
    meta = dist.metadata
    expression = meta.get("License-Expression")
    if expression:
        return expression.strip()
    text = (meta.get("License") or "").strip()
    if text and "\n" not in text and len(text) <= 60:
        return text
    classifiers = [c.split("::")[-1].strip() for c in meta.get_all("Classifier") or [] if c.startswith("License ::")]
    if classifiers:
        return " OR ".join(classifiers)
    return text.splitlines()[0][:60] if text else "unknown"


def _requirements(dist: metadata.Distribution) -> list[str]:
    """Names of the run-time requirements of ``dist`` (extras left out; markers evaluated here)."""
    try:
        from packaging.requirements import Requirement  # matplotlib depends on packaging
    except ImportError:  # pragma: no cover
        Requirement = None
    names = []
    for line in dist.requires or []:
        if Requirement is not None:
            try:
                req = Requirement(line)
            except Exception:  # noqa: BLE001 - an unparsable requirement is skipped, not fatal
                continue
            if req.marker is not None and not req.marker.evaluate({"extra": ""}):
                continue
            names.append(req.name)
        elif "extra ==" not in line:
            names.append(re.match(r"\s*([A-Za-z0-9._-]+)", line)[1])
    return names


def runtime_distributions(root: str = "dpdesk") -> list[metadata.Distribution]:
    """``root`` and every installed distribution it requires at run time, recursively, by name."""
    seen: dict[str, metadata.Distribution] = {}
    todo = [root]
    while todo:
        name = _normalise(todo.pop())
        if name in seen:
            continue
        found = list(metadata.distributions(name=name))
        if not found:
            continue  # an optional or platform-specific requirement that is not installed
        # an installed .dist-info before a source tree's stale .egg-info found through the current folder
        dist = next((d for d in found if str(getattr(d, "_path", "")).endswith(".dist-info")), found[0])
        seen[name] = dist
        todo.extend(_requirements(dist))
    return sorted(seen.values(), key=lambda d: _normalise(d.metadata["Name"]))


def licence_files(dist: metadata.Distribution) -> list[tuple[str, str]]:
    """The licence files inside ``dist``'s metadata folder, as (relative name, text)."""
    texts = []
    for file in dist.files or []:
        parts = file.parts
        if not parts or not parts[0].endswith((".dist-info", ".egg-info")):
            continue
        inner = "/".join(parts[1:])
        if not _LICENCE_FILE.search(inner) or inner.endswith((".py", ".pyc")):
            continue
        try:
            texts.append((inner, file.read_text(encoding="utf-8")))
        except (OSError, UnicodeDecodeError, TypeError):
            continue
    folder = getattr(dist, "_path", None)  # the .dist-info folder; RECORD of editable installs omits licences
    if not texts and folder is not None and Path(folder).is_dir():
        for file in sorted(Path(folder).rglob("*")):
            inner = file.relative_to(folder).as_posix()
            if file.is_file() and _LICENCE_FILE.search(inner) and not inner.endswith((".py", ".pyc")):
                try:
                    texts.append((inner, file.read_text(encoding="utf-8")))
                except (OSError, UnicodeDecodeError):
                    continue
    return texts


def _standard_texts(ids: tuple[str, ...]) -> list[tuple[str, str]]:
    from dpdesk.resources import path

    return [(f"LICENSE.{i}", path("licence_texts", f"{i}.txt").read_text(encoding="utf-8")) for i in ids]


def _library(dist: metadata.Distribution) -> Library:
    name = dist.metadata["Name"]
    texts = licence_files(dist)
    if not texts and _normalise(name) in MISSING_TEXTS:
        texts = _standard_texts(MISSING_TEXTS[_normalise(name)])
    return Library(name, dist.version, declared_licence(dist), tuple(texts))


def python_library() -> Library:
    """The Python interpreter itself (its licence, from the standard library folder where present)."""
    import sysconfig

    texts = []
    for candidate in (Path(sysconfig.get_paths()["stdlib"]) / "LICENSE.txt", Path(sys.base_prefix) / "LICENSE.txt"):
        if candidate.is_file():
            texts.append(("LICENSE.txt", candidate.read_text(encoding="utf-8", errors="replace")))
            break
    return Library("Python", platform.python_version(), "PSF-2.0", tuple(texts))


def installed(root: str = "dpdesk") -> list[Library]:
    """Records of the running interpreter and ``root``'s run-time distributions, from their metadata."""
    libs = [_library(d) for d in runtime_distributions(root)]
    own = [lib for lib in libs if _normalise(lib.name) == _normalise(root)]
    return own + [python_library()] + [lib for lib in libs if lib not in own]


def bundled() -> list[Library] | None:
    """The records collected at build time into ``dpdesk/resources/licences``, or None if there are none."""
    from dpdesk.resources import path

    folder = path("licences")
    index = folder / "index.json"
    if not index.is_file():
        return None
    out = []
    for entry in json.loads(index.read_text(encoding="utf-8"))["libraries"]:
        texts = tuple((name, (folder / entry["folder"] / name).read_text(encoding="utf-8", errors="replace"))
                      for name in entry["files"])
        out.append(Library(entry["name"], entry["version"], entry["licence"], texts))
    return out


def libraries() -> list[Library]:
    """What this copy runs on: the bundle's records where there are some, else the installed ones."""
    found = bundled()
    return found if found is not None else installed()


def versions() -> dict[str, str]:
    """Name -> version of Python and every run-time library, dpdesk first (metadata only, no texts)."""
    from dpdesk.resources import path

    index = path("licences", "index.json")
    if index.is_file():
        return {e["name"]: e["version"] for e in json.loads(index.read_text(encoding="utf-8"))["libraries"]}
    dists = runtime_distributions()
    found = {d.metadata["Name"]: d.version for d in dists if _normalise(d.metadata["Name"]) == "dpdesk"}
    found["Python"] = platform.python_version()
    found.update((d.metadata["Name"], d.version) for d in dists)
    return found
