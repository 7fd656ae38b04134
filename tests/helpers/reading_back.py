"""Read a report back as a reader sees it, and find what a reader would stumble on.

The Word file is opened by LibreOffice (``soffice --headless --convert-to pdf``), the .tex is
compiled by pdfLaTeX (optionally with the TeX tree that holds ``lmodern`` hidden, as on a
basic TeX), and each PDF is read by ``pdftotext -layout``. :func:`table_problems` then checks
every table of the document in that text: a number cell split over two lines (".01" over "1")
and a word of a text cell broken inside (``mon ths``), and :func:`overfull` reads pdfLaTeX's log.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import unicodedata
from pathlib import Path

import pytest

CAPTION = re.compile(r"^\s*(Table|Figure) \d+( \(continued\))?\s*$")


def need(*tools: str) -> None:
    for tool in tools:
        if not shutil.which(tool):
            pytest.skip(f"{tool} is not installed")


def layout_text(pdf: Path) -> str:
    need("pdftotext")
    text = subprocess.run(["pdftotext", "-layout", str(pdf), "-"], capture_output=True, text=True, check=True,
                          timeout=120).stdout
    return unicodedata.normalize("NFKC", text)


def word_as_pdf(docx: Path, folder: Path) -> Path:
    """The .docx as LibreOffice lays it out (a PDF in ``folder``)."""
    need("soffice")
    subprocess.run(["soffice", "--headless", f"-env:UserInstallation=file://{folder}/lo", "--convert-to", "pdf",
                    "--outdir", str(folder), str(docx)], check=True, capture_output=True, timeout=300)
    return folder / f"{docx.stem}.pdf"


def basic_tex_env() -> dict | None:
    """The environment of a TeX without lmodern: kpathsea's TEXMF without the tree that holds lmodern.sty
    (None when that tree is TeX's own, so it cannot be hidden; the .tex must compile either way)."""
    need("kpsewhich")
    run = lambda *a: subprocess.run(["kpsewhich", *a], capture_output=True, text=True).stdout.strip()  # noqa: E731
    lm, latex, trees = run("lmodern.sty"), run("latex.ltx"), run("--var-value", "TEXMF")
    env = dict(os.environ)
    if not lm:
        return env
    entries = trees.strip("{}").split(",")
    holder = [e for e in entries if e.lstrip("!") and lm.startswith(e.lstrip("!").rstrip("/") + "/")]
    if not holder or latex.startswith(holder[0].lstrip("!").rstrip("/") + "/"):
        return None
    env["TEXMF"] = "{" + ",".join(e for e in entries if e not in holder) + "}"
    return env


def latex_as_pdf(tex: Path, folder: Path, env: dict | None = None) -> tuple[Path, str]:
    """``tex`` compiled by pdfLaTeX into ``folder`` (the figures beside it): the PDF and the log."""
    need("pdflatex")
    run = subprocess.run(["pdflatex", "-interaction=nonstopmode", "-halt-on-error", "-output-directory",
                          str(folder), tex.name], cwd=tex.parent, capture_output=True, text=True, timeout=300,
                         env=env)
    log = (folder / f"{tex.stem}.log").read_text(encoding="latin-1")
    assert run.returncode == 0, log[-3000:]
    return folder / f"{tex.stem}.pdf", log


def overfull(log: str) -> list[str]:
    """pdfLaTeX's "Overfull \\hbox" (a line or a table wider than the page) and "Overfull \\vbox" (a figure
    taller than the page) warnings."""
    return re.findall(r"Overfull \\[hv]box.*", log)


def _regions(text: str) -> list[list[str]]:
    """The lines after each "Table N" caption up to the next caption, in order."""
    regions, current = [], None
    for line in text.splitlines():
        m = CAPTION.match(line)
        if m:
            current = [] if m.group(1) == "Table" else None
            if current is not None:
                regions.append(current)
        elif current is not None:
            current.append(line)
    return regions


def _squash(text: str) -> str:
    return " ".join(unicodedata.normalize("NFKC", text).replace("\u00a0", " ").split())


def _word(w: str) -> str:
    return w.replace("…", "").replace(". . .", "").strip(".,;:()[]“”\"'?!")


def table_problems(text: str, doc) -> list[str]:
    """Where the tables of ``doc`` (each split as every writer splits it) read wrong in ``text``: a number cell
    not whole on one line, or a word of a text cell not whole anywhere in its table."""
    from dpdesk.project.report.layout import table_parts
    from dpdesk.project.report.render import cell_texts

    parts = [part for t in doc.tables() for part, _fit in table_parts(t)]
    regions = _regions(text)
    if len(regions) != len(parts):
        return [f"{len(regions)} tables in the text, {len(parts)} in the document"]
    problems = []
    for part, lines in zip(parts, regions):
        flat = [_squash(line) for line in lines]
        tokens = {_word(w) for line in flat for w in line.replace(". . .", "…").split()}
        texts = cell_texts(part)
        for row in texts[1:]:
            for c, cell in zip(part.columns, row):
                if c.numeric and _squash(cell) and not any(_squash(cell) in line for line in flat):
                    problems.append(f"{part.title}: the number {cell!r} is not on one line")
                if not c.numeric:
                    for w in cell.split():
                        if _word(w) and _word(w) not in tokens:
                            problems.append(f"{part.title}: the word {w!r} is broken")
    return problems
