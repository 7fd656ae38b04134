"""The report in every format (HTML, PDF, Word, LaTeX) from one document: the same tables, APA rules,
figures with their own captions, one methods text, and no internal word, raw float or folder in any output.

Two studies: the bundled example (three items, by gender) and :func:`tests.helpers.study.make_study`
(three items, one with three answers, subgroups, a saved regression and two noisy releases).
"""

from __future__ import annotations

import html
import math
import re
import unicodedata

import pytest
from hypothesis import given, strategies as st

from dpdesk.project import Project
from dpdesk.project.number_style import LIMIT, MINUS, NumberStyle, typographic
from tests.helpers.cli import run
from tests.helpers.pdftext import pdf_text
from tests.helpers.report_tables import docx_tables, html_tables, tex_tables
from tests.helpers.study import BY, make_study

FORMATS = ("html", "pdf", "docx", "tex")


# ----------------------------------------------------------------------------- APA number rules


def test_apa_number_rules():
    assert NumberStyle.p(0.0004) == "< .001" and NumberStyle.p(0.0123) == ".012" and NumberStyle.p_in_text(0.2) == \
        "p = .200"
    assert NumberStyle.proportion(0.42) == ".42" and NumberStyle.proportion(-0.07) == "-.07"
    assert NumberStyle("proportion", 3).share(0.1234) == ".123"  # bounded by 1: no leading zero
    assert NumberStyle.number(1.0986) == "1.10"  # can exceed 1: leading zero kept
    assert NumberStyle.estimate(-0.113) == "-0.11" and NumberStyle.estimate(14700.2) == "14,700.20"
    assert NumberStyle.count(12345) == "12,345"
    assert typographic("[-8.8, 7.9]") == f"[{MINUS}8.8, 7.9]"
    assert NumberStyle.limit(14732.9) == "> 1,000" and NumberStyle.limit(float("inf")) == "> 1,000"
    assert NumberStyle.limit(0.0) == "< 0.001" and NumberStyle.limit(2.613) == "2.61"
    assert NumberStyle.beyond_limit(0.5, 1e4) and not NumberStyle.beyond_limit(0.5, 3.0)
    assert NumberStyle.ratio_in_text(2.9657) == "2.97 times"
    assert NumberStyle.ratio_in_text(3.0) == "3.00 times" and NumberStyle.ratio_in_text(1096.63) == "1,097 times"
    # estimates and p have their own decimals: p always three, estimates as the style says
    s = NumberStyle("percent", 1)
    assert (s.share(0.4567), NumberStyle.p(0.4567)) == ("45.7", ".457")
    with pytest.raises(ValueError):
        NumberStyle.proportion(1.5)


@given(st.floats(0, 1, allow_nan=False))
def test_p_is_apa_for_every_p(p):
    text = NumberStyle.p(p)
    assert not text.startswith("0") and "e" not in text
    if p < 0.001:
        assert text == "< .001"
    elif p > 0.999:
        assert text == "> .999"
    else:
        assert re.fullmatch(r"\.\d{3}", text) and abs(float(text) - p) <= 0.0005 + 1e-12


@given(st.floats(-1, 1, allow_nan=False), st.integers(1, 3))
def test_proportions_never_have_a_leading_zero(x, decimals):
    text = NumberStyle.proportion(x, decimals)
    assert not text.lstrip("-").startswith("0.") and abs(float(text) - x) <= 0.5 * 10 ** -decimals + 1e-12


@given(st.floats(0, 1e9, allow_nan=False))
def test_a_limit_is_never_in_scientific_notation(x):
    text = NumberStyle.limit(x)
    assert "e" not in text.lower()
    if x > LIMIT:
        assert text == "> 1,000"
    elif x >= 1 / LIMIT:
        assert math.isclose(float(text.replace(",", "")), x, abs_tol=0.005)


@given(st.integers(0, 10**9))
def test_counts_have_thousands_separators(n):
    text = NumberStyle.count(n)
    assert int(text.replace(",", "")) == n and all(len(g) == 3 for g in text.split(",")[1:])


# ----------------------------------------------------------------------------- the reports


def _write_all(project_path, folder, *extra):
    out = {}
    for fmt in FORMATS:
        path = folder / f"report.{fmt}"
        code = _cli("report", project_path, path, *extra)
        assert code == 0
        out[fmt] = path
    return out


def _cli(*args):
    from dpdesk.cli import main

    return main([str(a) for a in args])


@pytest.fixture(scope="module")
def study(tmp_path_factory):
    folder = tmp_path_factory.mktemp("study")
    path = make_study(folder / "study.dpdesk")
    return path, _write_all(path, folder, "--by", BY)


@pytest.fixture(scope="module")
def example(tmp_path_factory):
    from dpdesk.gui.shell.example_project import build_example

    folder = tmp_path_factory.mktemp("example")
    path = build_example(None, folder / "example.dpdesk")
    return path, _write_all(path, folder, "--by", "gender")


@pytest.fixture(scope="module")
def parts(study):
    from dpdesk.project.report.report import report_parts

    with Project.open(study[0]) as p:
        return report_parts(p, by=BY)


def _pdf(path) -> str:
    """The PDF's text: by poppler's pdftotext when installed, else by the small reader in tests.helpers."""
    import shutil
    import subprocess

    if shutil.which("pdftotext"):
        text = subprocess.run(["pdftotext", str(path), "-"], capture_output=True, text=True, check=True,
                              timeout=120).stdout
    else:
        text = pdf_text(path.read_bytes())
    return unicodedata.normalize("NFKC", text)


@pytest.mark.parametrize("which", ["study", "example"])
def test_every_format_holds_the_same_tables(which, request):
    _path, files = request.getfixturevalue(which)
    from_html = html_tables(files["html"].read_text(encoding="utf-8"))
    from_docx = docx_tables(files["docx"])
    assert len(from_html) >= 3 and from_docx == from_html  # every cell string, header included
    from dpdesk.project.report.latex import escape

    tex = files["tex"].read_text(encoding="utf-8")
    bodies = tex_tables(tex)
    assert len(bodies) == len(from_html)
    for table, body in zip(from_html, bodies):
        for row in table[1:]:
            assert " & ".join(escape(c) for c in row) in body.replace(r"\hspace{1em}", "").replace("~", " ")
    pdf = " ".join(_pdf(files["pdf"]).split())
    for table in from_html:
        for row in table[1:]:
            assert " ".join(row[0].split()[:2]) in pdf, (row, pdf)  # a long label may wrap in its cell
            for cell in row[1:]:  # numbers never wrap
                assert cell in pdf, (cell, row, pdf)


def test_the_report_tells_the_whole_study(study, parts):
    doc, methods, figures = parts
    keys = [t.key for t in doc.tables()]
    for item in ("cheating", "plagiarism", "lateness"):
        assert f"subgroups:{item}" in keys  # a subgroup table for every item
    grid = doc.table("subgroup-grid")  # the yes/no items by group at a glance, before each item's tables
    assert [c.label for c in grid.columns] == ["Item", "female", "male", "p"] and len(grid.rows) == 2
    assert keys.index("subgroup-grid") < keys.index("subgroups:cheating")
    assert "regression:1" in keys and "regression-tests:1" in keys
    assert "release:1" in keys and "release:2" in keys
    grid = doc.table("release:1")
    assert [c.label for c in grid.columns] == ["gender", "Arts", "Law", "Science", "Total"]
    assert grid.rows[-1].cells[0].text == "Total"  # the margins
    notes = " ".join(grid.notes)
    assert "Laplace noise with scale 5 on each count" in notes and "±" in notes
    assert "privacy cost ε = 0.2, δ = 10⁻⁶" in notes  # as the ledger and the workbook write it, never 0.199999
    mean = doc.table("release:2")
    assert "scale 80 on the sum of age" in " ".join(mean.notes)  # 8,000 grid steps of 0.01: 80 years
    assert {f.kind for f in figures} >= {"forest", "bars", "grouped_bars", "odds_ratios", "prevalence_curve"}
    assert "noisy release" in doc.cover["Contents"] and "/" not in doc.cover["Project"]


def test_each_figure_has_its_own_caption(parts):
    _doc, _m, figures = parts
    by_key = {f.key: f for f in figures}
    assert by_key["bars:lateness"].kind == "bars" and BY not in by_key["bars:lateness"].caption  # the overall chart
    assert by_key["subgroup-bars:lateness"].kind == "grouped_bars" and BY in by_key["subgroup-bars:lateness"].caption
    assert BY in by_key["subgroups"].caption and {r["of"] for r in by_key["subgroups"].rows} == {
        "In the last year, have you cheated in an exam?", "Have you handed in copied work?"}  # items by their labels
    assert [f.number for f in figures] == list(range(1, len(figures) + 1))


def test_the_methods_text_is_one_text(study, parts, capsys):
    import docx

    path, files = study
    _doc, methods, _ = parts
    code = _cli("methods", path, "--by", BY)
    assert code == 0
    assert capsys.readouterr().out == methods.text()
    word = [p.text for p in docx.Document(str(files["docx"])).paragraphs]
    start = word.index("Methods") + 1
    assert word[start:start + len(methods.paragraphs)] == methods.paragraphs
    page = files["html"].read_text(encoding="utf-8")
    assert all(html.escape(p, quote=False) in page for p in methods.paragraphs)
    text = methods.text()
    assert "cross-tabulation of gender by faculty" in text and "discrete Laplace (geometric) mechanism" in text
    assert "logistic regression" in text and "scale 80 on the sum of age" in text


def test_word_tables_follow_apa(study):
    import docx
    from docx.oxml.ns import qn

    word = docx.Document(str(study[1]["docx"]))
    assert word.tables
    for table in word.tables:
        borders = table._tbl.tblPr.find(qn("w:tblBorders"))
        assert all(e.get(qn("w:val")) == "nil" for e in borders)  # no rule unless a cell asks for one
        last = len(table.rows) - 1
        for i, row in enumerate(table.rows):
            for cell in row.cells:
                tc = cell._tc.tcPr.find(qn("w:tcBorders"))
                val = {e.tag.split("}")[1]: e.get(qn("w:val")) for e in tc}
                assert val["left"] == val["right"] == "nil"  # no vertical rules
                assert (val.get("top") == "single") == (i == 0)
                assert (val.get("bottom") == "single") == (i in (0, last))
    # the caption: "Table N" bold, the title italic, kept with the table
    paragraphs = word.paragraphs
    numbers = [p for p in paragraphs if re.fullmatch(r"Table \d+", p.text)]
    assert len(numbers) == len(word.tables) and all(p.runs[0].bold for p in numbers)
    titles = [paragraphs[paragraphs.index(p) + 1] for p in numbers]
    assert all(t.runs[0].italic and t.paragraph_format.keep_with_next for t in titles)
    refs = [p for p in paragraphs if p.text.startswith("Boruch, R. F.")]
    assert refs and refs[0].paragraph_format.first_line_indent < 0  # hanging indent
    figures = [p.text for p in paragraphs if re.fullmatch(r"Figure \d+", p.text)]
    assert len(figures) == 6 and len(word.inline_shapes) == 6


def test_latex_is_standalone_with_booktabs_and_figures_beside_it(study):
    files = study[1]
    tex = files["tex"].read_text(encoding="utf-8")
    assert tex.startswith(r"\documentclass") and tex.rstrip().endswith(r"\end{document}")
    assert tex.count(r"\toprule") == tex.count(r"\midrule") == tex.count(r"\bottomrule") == tex.count(r"\caption{") - 6
    for n in range(1, 7):
        name = f"report-figure-{n}.png"
        assert name in tex and (files["tex"].parent / name).read_bytes().startswith(b"\x89PNG")
    assert "ε" not in tex and "−" not in tex and "\\varepsilon" in tex  # pdfLaTeX-safe


# ----------------------------------------------------------------------------- no internal words


INTERNAL = ("p_truth", "p_yes", "forced_multi", "discrete_laplace", "crosstab", "Newton steps", "(dropped)", "chi2",
            "deltaG2", "G^2", "sensitivity 4000", "(all its columns)", "codes / yes", "codes / no")
#: Six or more decimals (0.199999, 4.805412665357462) or a computer's exponent (1e-6, 1.47e+04, 2E5).
RAW_FLOAT = re.compile(r"\d\.\d{6,}|(?<![\w.])\d+(?:\.\d+)?[eE][+-]?\d+(?!\w)")


def _visible_outputs(study, tmp_path, capsys) -> dict[str, str]:
    import docx
    import openpyxl

    path, files = study
    out = {"html": re.sub(r"<[^>]+>", " ", re.sub(r"<img[^>]*>|<style>.*?</style>", "",
                                                 files["html"].read_text(encoding="utf-8"), flags=re.S)),
           "pdf": _pdf(files["pdf"]), "tex": files["tex"].read_text(encoding="utf-8")}
    word = docx.Document(str(files["docx"]))
    out["docx"] = "\n".join([p.text for p in word.paragraphs] + [c.text for t in word.tables for row in t.rows
                                                                  for c in row.cells])
    workbook = tmp_path / "results.xlsx"
    assert _cli("export", path, workbook, "--by", BY) == 0
    book = openpyxl.load_workbook(workbook)
    out["xlsx"] = "\n".join(str(v) for ws in book for row in ws.iter_rows(values_only=True) for v in row
                            if isinstance(v, str))
    capsys.readouterr()
    assert _cli("regress", path, "cheating", "--predictors", "age", "faculty", "--ref", "faculty=Arts", "--center",
                "age", "--export", tmp_path / "regression.xlsx", "--no-save") == 0  # the Regression view's Export
    book = openpyxl.load_workbook(tmp_path / "regression.xlsx")
    out["regress --export"] = "\n".join(str(v) for ws in book for row in ws.iter_rows(
        values_only=True) for v in row if isinstance(v, str))
    capsys.readouterr()
    for args in (("estimate", path, "--by", BY), ("methods", path), ("ledger", path), ("budget", path),
                 ("regress", path, "cheating", "--predictors", "age", "faculty", "--ref", "faculty=Arts")):
        assert _cli(*args) == 0
        out[args[0]] = capsys.readouterr().out
    return out


def test_no_internal_word_raw_float_or_folder_in_any_output(study, tmp_path, capsys):
    folder = str(study[0].parent)
    outputs = _visible_outputs(study, tmp_path, capsys)
    for name, text in outputs.items():
        for word in INTERNAL:
            assert word not in text, (name, word)
        assert not RAW_FLOAT.search(text), (name, RAW_FLOAT.search(text))
        assert folder not in text and "/tmp/" not in text, name
    assert "Forced response: truthful with probability 3/4, 'yes' 1/6, 'no' 1/12" in outputs["xlsx"]
    assert "codes / Both answers are the same" in outputs["xlsx"]


def test_subgroup_tests_in_the_number_style(study, tmp_path, capsys):
    """The tests by group: statistic, p and the pooled estimate formatted in the workbook, the pooled
    estimate in the unit of the estimates on the command line, and APA p in the sentences."""
    import openpyxl

    path = study[0]
    assert _cli("export", path, tmp_path / "res.xlsx", "--by", BY) == 0
    book = openpyxl.load_workbook(tmp_path / "res.xlsx")
    ws = book[f"Tests by {BY}"]
    formats = {h.value: c.number_format for h, c in zip(ws[1], ws[2])}
    assert formats["statistic"] == "0.00" and formats["p-value"] == "0.000" and formats["pooled estimate"] == "0.0%"
    ws = book[f"By {BY}"]
    head = [c.value for c in ws[1]]
    holm = head.index("p-value (Holm)")
    assert {r[holm].number_format for r in ws.iter_rows(min_row=2) if r[holm].value is not None} == {"0.000"}
    capsys.readouterr()
    assert _cli("estimate", path, "--by", BY) == 0
    out = capsys.readouterr().out
    tests = out[out.index(f"Tests by {BY}"):]
    pooled = [line.split()[-1] for line in tests.splitlines()[3:5]]  # the yes/no items
    assert all(x.endswith("%") for x in pooled), pooled  # 25.9%, as the estimates, never 0.2593
    sentence = next(line for line in out.splitlines() if line.startswith("In the last year") and "test that" in line)
    assert re.search(r"likelihood ratio, G²\(1\) = \d+\.\d\d, p = \.\d{3}\.$", sentence), sentence


def test_an_open_ended_interval_is_explained_wherever_it_is_shown(tmp_path, capsys):
    """Quasi-separation: "> 1,000" on the command line and in the report's table, each with the note."""
    from dpdesk.project.regression.report import RegressionSpec, fit_report, save_report
    from dpdesk.project.number_style import SEPARATION_NOTE
    from dpdesk.project.report.report import report_parts
    from tests.helpers.separated import make_separated

    path = make_separated(tmp_path)
    capsys.readouterr()
    assert _cli("regress", path, "q", "--predictors", "faculty", "--ref", "faculty=A") == 0
    out = capsys.readouterr().out
    assert "> 1,000]" in out and SEPARATION_NOTE in out
    with Project.open(path) as p:
        save_report(p, fit_report(p, RegressionSpec("q", ["faculty"], {"faculty": "A"})))
        doc, _m, _f = report_parts(p)
    table = doc.table("regression:1")
    assert any("> 1,000" in c.text for row in table.rows for c in row.cells)
    assert html.escape(SEPARATION_NOTE, quote=False) in table.notes  # notes are HTML
    for suffix in ("html", "pdf", "docx", "tex"):  # the whole note in every format, "< 0.001" and all
        assert _cli("report", path, tmp_path / f"sep.{suffix}") == 0
    texts = {"html": html.unescape(re.sub(r"<[^>]+>", " ", (tmp_path / "sep.html").read_text(encoding="utf-8"))),
             "pdf": _pdf(tmp_path / "sep.pdf"), "tex": (tmp_path / "sep.tex").read_text(encoding="utf-8")}
    import docx

    texts["docx"] = "\n".join(p.text for p in docx.Document(str(tmp_path / "sep.docx")).paragraphs)
    for name, text in texts.items():
        words = " ".join(text.split())
        assert "(or < 0.001) is larger" in words.replace("$<$", "<").replace("\\textless{}", "<") and \
            "open-ended on that side" in words, name


def test_estimate_and_export_take_the_number_style(study, tmp_path, capsys):
    """--style as for report: the command line's tables and sentences (estimate, regress) and the workbook."""
    import openpyxl

    path = study[0]
    capsys.readouterr()
    assert _cli("estimate", path, "--style", "proportion:3") == 0
    out = capsys.readouterr().out
    row = next(line for line in out.splitlines() if line.startswith("In the last year") and "900" in line)
    assert re.search(r" \.\d{3} +\.\d{3} +\.\d{3} +\.\d{3} ", row) and "%" not in row, row
    assert re.search(r"We estimate that \.\d{3} \(95% CI \.\d{3} to \.\d{3}\)", out)
    assert _cli("regress", path, "cheating", "--predictors", "age", "--style", "proportion:3", "--no-save") == 0
    assert re.search(r"Average predicted prevalence: \.\d{3} \(95% CI \.\d{3} to \.\d{3}\)", capsys.readouterr().out)
    for style, fmt in (("percent:1", "0.0%"), ("proportion:3", "0.0000")):
        assert _cli("export", path, tmp_path / f"{style[:3]}.xlsx", "--style", style) == 0
        ws = openpyxl.load_workbook(tmp_path / f"{style[:3]}.xlsx")["Estimates"]
        formats = {h.value: c.number_format for h, c in zip(ws[1], ws[2])}
        assert formats["estimate"] == formats["SE"] == fmt, style


def latest_regressions_note(path):
    from dpdesk.project.report.regression import latest_regressions

    with Project.open(path) as p:
        return latest_regressions(p)[0].separation_note()


def test_workbook_regression_sheets_are_formatted(study, tmp_path):
    import openpyxl

    from dpdesk.project.export.results import export_results
    from dpdesk.project.regression.export import regression_bundle
    from dpdesk.project.regression.report import RegressionSpec, fit_report

    with Project.open(study[0]) as p:  # age centred at its mean (not saved: the study stays as it is)
        report = fit_report(p, RegressionSpec("cheating", ["age", "faculty"], {"faculty": "Arts"}, center=["age"]))
        bundle = regression_bundle(p, report)
    book = openpyxl.load_workbook(export_results(bundle, tmp_path / "reg.xlsx")[0])
    ws = book["Regression"]
    formats = {h.value: c.number_format for h, c in zip(ws[1], ws[2])}
    assert formats["b"] == formats["OR"] == formats["CI low (OR)"] == "0.00" and formats["p"] == "0.000"
    assert formats["LR χ²"] == formats["SE (b)"] == "0.00"  # a log-odds SE, never a share in %
    assert latest_regressions_note(study[0]) is None  # every limit finite: no separation note
    assert all(c.value is not None for c in ws[2])  # no blank limit beside a finite one
    meta = dict(book["Metadata"].iter_rows(values_only=True))
    assert "age (centred at its mean, " in meta["regression / predictors"]
    assert meta["item mappings / cheating / codes / Yes"] == "'Yes'"  # the answer's words, not "yes"


def test_a_project_of_releases_only(tmp_path):
    """No items: no empty estimates table; every statistic's release is a table; δ never as 1e-06."""
    import numpy as np
    import pandas as pd

    from dpdesk.project import ledger
    from dpdesk.project.report.report import report_parts

    rng = np.random.default_rng(1)
    frame = pd.DataFrame({"region": rng.choice(["north", "south"], 300), "age": rng.integers(18, 60, 300)})
    with Project.create(tmp_path / "r.dpdesk") as p:
        p.add_dataset("d", frame, source={"name": "d.csv", "sha256": "ab" * 32})
        ledger.set_budget(p, 10, "1e-6")
        ledger.release(p, {"statistic": "histogram", "columns": ["region"], "keys": ["north", "south"], "epsilon": 1})
        ledger.release(p, {"statistic": "median", "columns": ["age"], "bounds": [0, 100], "epsilon": 1})
        ledger.release(p, {"statistic": "count", "mechanism": "gaussian", "epsilon": 0.5, "confidence": "0.95"})
        doc, methods, figures = report_parts(p)
        from dpdesk.printing import write_report

        for suffix in ("docx", "tex"):  # the writers need no figures
            write_report(p, tmp_path / f"r.{suffix}")
    assert [s.key for s in doc.sections] == ["releases"] and not figures
    assert [t.rows[0].cells[0].text for t in doc.tables()] == ["north", "All respondents", "All respondents"]
    assert "δ = 10⁻⁶" in methods.text() and "e-06" not in methods.text()
    assert r"\toprule" in (tmp_path / "r.tex").read_text(encoding="utf-8")
