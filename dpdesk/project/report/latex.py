"""The report as a standalone LaTeX file, and one table as LaTeX for the clipboard.

The same parts as the HTML and PDF report (``report.report_parts``). Tables use booktabs
(``\\toprule``, ``\\midrule``, ``\\bottomrule``: APA's horizontal rules), numbers right-aligned
with the same decimals per column, "Table N" in bold and the title in italics above
(``caption`` package), the notes below. Figures are PNG files written beside the .tex
(``<name>-figure-1.png``, ...) and included with ``\\includegraphics``. Tables are set in
``\\footnotesize`` (9 pt, :data:`.layout.TABLE_PT`) and laid out by the one rule of :mod:`.layout`:
number columns ``r`` (never wrapped), text columns ``l`` or, narrowed, a ragged ``p{}`` column as
wide as the rule says with hyphenation off (words wrap whole); a split table's later parts are
``\\ContinuedFloat`` (the same number). The preamble uses only :data:`PACKAGES`. Every text is
escaped; the few symbols outside Latin-1 (ε, χ, ², −, ∞, ±) become math, so the file
compiles with pdfLaTeX as well as XeLaTeX and LuaLaTeX.
"""

from __future__ import annotations

import os
from pathlib import Path

from dpdesk.project.report.inline import runs
from dpdesk.project.report.layout import TableFit, fit_table, table_parts
from dpdesk.project.report.model import Document, Figure, Table
from dpdesk.project.report.render import cell_texts

_SPECIAL = {"\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#", "_": r"\_", "{": r"\{",
            "}": r"\}", "~": r"\textasciitilde{}", "^": r"\textasciicircum{}", "<": r"\textless{}",
            ">": r"\textgreater{}", "|": r"\textbar{}"}
_SYMBOLS = {"ε": r"$\varepsilon$", "χ": r"$\chi$", "β": r"$\beta$", "γ": r"$\gamma$", "π": r"$\pi$",
            "ρ": r"$\rho$", "σ": r"$\sigma$", "λ": r"$\lambda$", "μ": r"$\mu$", "δ": r"$\delta$",
            "²": r"\textsuperscript{2}", "−": r"$-$", "∞": r"$\infty$",
            "±": r"$\pm$", "×": r"$\times$", "≤": r"$\leq$", "≥": r"$\geq$", "…": r"\ldots{}", "–": "--",
            "—": "---", "“": "``", "”": "''", "’": "'", "‘": "`", "\u00a0": "~", "·": r"$\cdot$",
            "⁻": r"\textsuperscript{$-$}", **{c: rf"\textsuperscript{{{d}}}" for c, d in zip("⁰¹²³⁴⁵⁶⁷⁸⁹", "0123456789")},
            "√": r"$\surd$", "ν": r"$\nu$", **{c: rf"\textsubscript{{{d}}}" for c, d in zip("₀₁₂₃₄₅₆₇₈₉", "0123456789")}}

#: Only packages of Debian's texlive-latex-base and texlive-latex-recommended (no lmodern: a package of its own);
#: Latin Modern in T1 when installed, else Computer Modern (its Type 1 fonts come with TeX itself).
PACKAGES = ("inputenc", "geometry", "booktabs", "array", "graphicx", "caption", "float")
PREAMBLE = r"""\documentclass[11pt,a4paper]{article}
\IfFileExists{lmodern.sty}{\usepackage[T1]{fontenc}\usepackage{lmodern}}{}
\usepackage[utf8]{inputenc}
\usepackage[margin=2cm]{geometry}
\usepackage{booktabs}
\usepackage{array}
\usepackage{graphicx}
\usepackage{caption}
\captionsetup{labelfont=bf, textfont=it, labelsep=newline, singlelinecheck=false, justification=raggedright,
  position=top, skip=4pt}
\usepackage{float}
\setlength{\parindent}{0pt}
\setlength{\parskip}{0.5em}
"""


def escape(text: str) -> str:
    """Plain text as LaTeX: special characters escaped, the few non-Latin-1 symbols as math."""
    parts = str(text).split("e^ε")  # the methods text's "e^ε" is a power
    return r"$e^{\varepsilon}$".join("".join(_SPECIAL.get(ch, _SYMBOLS.get(ch, ch)) for ch in p) for p in parts)


def breakable_urls(latex: str) -> str:
    """Let each ``https://...`` in ``latex`` break after its slashes and dots (``\\allowbreak``, no package)."""
    import re

    return re.sub(r"(https?://)(\S+)", lambda m: m.group(1) + re.sub(r"([/.])", r"\1\\allowbreak{}", m.group(2)),
                  latex)


def inline(fragment: str) -> str:
    """The document's inline HTML (``<i>``, ``<sup>``, entities) as LaTeX."""
    out = []
    for r in runs(fragment):
        text = escape(r.text)
        if r.code:
            text = rf"\texttt{{{text}}}"
        if r.superscript:
            text = rf"\textsuperscript{{{text}}}"
        if r.italic:
            text = rf"\textit{{{text}}}"
        if r.bold:
            text = rf"\textbf{{{text}}}"
        out.append(text)
    return "".join(out)


#: A narrowed text column: ragged right, words whole (no hyphenation), at the rule's width in ems.
NARROW = r">{\raggedright\arraybackslash\hyphenpenalty=10000\exhyphenpenalty=10000}p{%.2fem}"


def tabular(t: Table, fit: TableFit | None = None) -> str:
    """The booktabs tabular of ``t``: numbers right, text left (narrowed by the rule: ragged ``p`` columns);
    indented rows keep their indent."""
    fit = fit or fit_table(t)
    spec = "".join("r" if c.numeric else NARROW % w if fit.decision != "fits" else "l"
                   for c, w in zip(t.columns, fit.widths))
    texts = cell_texts(t)
    head = " & ".join((rf"\textit{{{escape(c.label)}}}" if c.italic else escape(c.label)) + escape(c.suffix)
                      for c in t.columns)
    lines = [rf"\begin{{tabular}}{{@{{}}{spec}@{{}}}}", r"\toprule", head + r" \\", r"\midrule"]
    for row, cells in zip(t.rows, texts[1:]):
        out = [escape(x) for x in cells]
        if row.indent and out:
            out[0] = rf"\hspace{{{row.indent}em}}" + out[0]
        lines.append(" & ".join(out) + r" \\")
    lines += [r"\bottomrule", r"\end{tabular}"]
    return "\n".join(lines)


def table_latex(t: Table) -> str:
    """One APA table as LaTeX ``table`` floats (booktabs, caption, array): one, or one per part when the rule
    of :mod:`.layout` splits it (the later ones ``\\ContinuedFloat``), the notes under the last."""
    out = []
    for i, (part, fit) in enumerate(table_parts(t)):
        out += [r"\begin{table}[H]", r"\footnotesize"]
        if i:
            out.append(r"\ContinuedFloat")
        title = part.title + (" (continued)" if i else "")  # the label stays "Table N" under \ContinuedFloat
        out += [rf"\caption{{{escape(title)}}}", tabular(part, fit)]
        if part.notes:
            out.append(r"\par\smallskip")
            out += [inline(n) + r"\par" for n in part.notes]
        out.append(r"\end{table}")
    return "\n".join(out)


def figure_latex(f: Figure, file_name: str) -> str:
    return "\n".join([r"\begin{figure}[H]", rf"\caption{{{escape(f.caption)}}}",
                      rf"\includegraphics[width=\linewidth,height=0.8\textheight,keepaspectratio]{{{file_name}}}",
                      r"\end{figure}"])  # a tall plot (many rows) is scaled to fit the page with its caption


def document_latex(doc: Document, methods, figure_files: dict[str, str]) -> str:
    """The whole report; ``figure_files`` maps a figure key to the PNG's file name beside the .tex."""
    out = [PREAMBLE, rf"\title{{{escape(doc.title)}}}", r"\date{}", r"\begin{document}", r"\maketitle",
           r"{\raggedright"]  # the summary as lines (a fingerprint is one long word: no table column holds it)
    out += [rf"\textbf{{{escape(k)}:}} {escape(v)}\par" for k, v in doc.cover.items()]
    out.append("}")
    for s in doc.sections:
        out.append(rf"\section*{{{escape(s.title)}}}")
        out += [inline(p) + "\n" for p in s.paragraphs]
        out += [table_latex(t) for t in s.tables]
        out += [figure_latex(f, figure_files[f.key]) for f in s.figures if f.key in figure_files]
    out.append(r"\section*{Methods}")
    out += [escape(p) + "\n" for p in methods.paragraphs]
    if methods.references:
        out.append(r"\subsection*{References}")
        # ragged right, and a DOI or URL may break after a slash or a dot: one long word would overrun the page
        out += ["{\\raggedright"] + [rf"\hangindent=2em\hangafter=1 {breakable_urls(inline(r))}\par"
                                      for r in methods.references] + ["}"]
    out.append(r"\end{document}")
    return "\n".join(out) + "\n"


def write_latex(doc: Document, methods, images: dict[str, bytes], path: str | os.PathLike) -> Path:
    """Write the report to ``path`` (.tex) and its figures beside it as ``<stem>-figure-N.png``, atomically each."""
    path = Path(path)
    files = {}
    for f in doc.figures():
        if f.key not in images:
            continue
        name = f"{path.stem}-figure-{f.number}.png"
        tmp = path.with_name(f".{name}.tmp")
        tmp.write_bytes(images[f.key])
        os.replace(tmp, path.with_name(name))
        files[f.key] = name
    tmp = path.with_name(f".{path.name}.tmp")
    tmp.write_text(document_latex(doc, methods, files), encoding="utf-8")
    os.replace(tmp, path)
    return path
