"""The user guide as shipped in the package: where its pages are, their titles, their order.

The pages are Markdown files in ``dpdesk/resources/guide/``, copied there from ``docs/guide/`` by
``tools/build_guide.py`` (``make guide``). They are read with :mod:`importlib.resources`, so the
source tree, an installed wheel and a PyInstaller bundle find them the same way, offline. No Qt here.
"""

from __future__ import annotations

import re
import unicodedata
from importlib import resources
from pathlib import Path

INDEX = "index.md"
_TITLE = re.compile(r"^#\s+(.+?)\s*#*\s*$")
_LINK = re.compile(r"\]\(<?([^)>\s#]+\.md)(?:#[^)>\s]*)?>?(?:\s+\"[^\"]*\")?\)")


def guide_folder() -> Path:
    """``dpdesk/resources/guide`` on disk (a real folder in every way dpdesk is installed)."""
    return Path(str(resources.files("dpdesk").joinpath("resources", "guide")))


def page_path(page: str, folder: Path | None = None) -> Path:
    return (folder or guide_folder()) / page


def title(path: Path) -> str:
    """The page's first level-1 heading, else its file name without ``.md``."""
    try:
        with path.open(encoding="utf-8") as f:
            for line in f:
                m = _TITLE.match(line)
                if m:
                    return m.group(1).strip()
    except OSError:
        pass
    return path.stem.replace("-", " ").capitalize()


def contents(folder: Path | None = None) -> list[tuple[str, str]]:
    """``[(page, title)]`` of every page: the index, then the pages in the order the index links to
    them, then any other page by file name."""
    folder = folder or guide_folder()
    if not folder.is_dir():
        return []
    found = sorted(p.name for p in folder.glob("*.md"))
    order = [INDEX] if INDEX in found else []
    if order:
        for page in _LINK.findall((folder / INDEX).read_text(encoding="utf-8")):
            if page in found and page not in order:
                order.append(page)
    order += [p for p in found if p not in order]
    return [(p, title(folder / p)) for p in order]


def slug(heading: str) -> str:
    """The anchor of a heading as GitHub makes it: lower case, punctuation dropped, spaces as ``-``.

    ``"Setting the budget (ε)"`` -> ``"setting-the-budget-ε"``, so links written for GitHub
    (``tabulate.md#setting-the-budget``) also work in the app."""
    text = unicodedata.normalize("NFC", heading).strip().lower()
    text = "".join(c for c in text if c.isalnum() or c in " -_")
    return text.replace(" ", "-")


def anchors(headings: list[str]) -> list[str]:
    """The anchors of a page's headings in order; a repeated heading gets ``-1``, ``-2``, ... (as on GitHub)."""
    seen: dict[str, int] = {}
    out = []
    for heading in headings:
        base = slug(heading)
        n = seen.get(base, 0)
        seen[base] = n + 1
        out.append(base if n == 0 else f"{base}-{n}")
    return out


def headings(path: Path) -> list[str]:
    """The Markdown headings (``#`` to ``######``) of a page, outside fenced code."""
    out, fenced = [], False
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.lstrip().startswith(("```", "~~~")):
            fenced = not fenced
        elif not fenced:
            m = re.match(r"^#{1,6}\s+(.+?)\s*#*\s*$", line)
            if m:
                out.append(m.group(1))
    return out
