"""``dpdesk report`` (HTML and PDF, read back as text) and ``dpdesk methods``; the same from Python."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from dpdesk.mechanisms import rr
from dpdesk.project import Project
from tests.helpers.cli import run
from tests.helpers.pdftext import page_count, pdf_text

FORCED = rr.design("forced", p_truth=0.5, p_yes=0.25, p_no=0.25)
SLD = rr.design("sld", p1=0.3, p2=0.7)


@pytest.fixture
def project_path(tmp_path):
    rng = np.random.default_rng(11)
    n = 400
    frame = pd.DataFrame({"q": rng.choice(["Yes", "No", None], n, p=[0.4, 0.55, 0.05]),
                          "s": rng.choice(["Yes", "No"], n), "g": rng.choice([1, 2], n),
                          "sex": rng.choice(["f", "m"], n)})
    path = tmp_path / "survey.dpdesk"
    with Project.create(path) as p:
        p.add_dataset("survey", frame, source={"name": "survey.csv"})
        p.add_item("cheat", FORCED, column="q", codes={"no": ["No"], "yes": ["Yes"]},
                   question="Have you cheated in an exam?", instructions="Toss a coin twice.")
        p.add_item("drugs", SLD, column="s", codes={"no": ["No"], "yes": ["Yes"]}, group_column="g",
                   group_codes={"1": [1], "2": [2]}, question="Have you used a study drug?")
    return path


def test_report_html_and_pdf(project_path, tmp_path, capsys):
    out = tmp_path / "report.html"
    code, stdout, err = run(capsys, "report", project_path, out, "--by", "sex")
    assert code == 0, err
    page = out.read_text(encoding="utf-8")
    for text in ("Data fingerprint (SHA-256)", "dpdesk ", "Table 1", "Subgroups by sex", "Methods", "References",
                 "Forced response with a coin (Boruch, 1971): truthful with probability 1/2, 'yes' 1/4, 'no' 1/4",
                 "Boruch, R. F. (1971)", "Moshagen, M., Musch, J., &amp; Erdfelder, E. (2012)"):
        assert text in page, text
    assert "Warner, S. L." not in page  # only what the text cites
    assert page.count("<img src='data:image/svg+xml;base64,") == 2 and "Figure 2" in page  # forest, by subgroup
    pdf = tmp_path / "report.pdf"
    code, _, err = run(capsys, "report", project_path, pdf, "--style", "proportion:3")
    assert code == 0, err
    data = pdf.read_bytes()
    assert data.startswith(b"%PDF") and page_count(data) >= 2
    text = pdf_text(data)
    assert "Estimated prevalence of each item" in text and "References" in text and "Figure 1" in text
    assert b"/Subtype /Image" in data  # the plot, as an image
    from dpdesk.project.analysis.estimates import analyze

    with Project.open(project_path) as p:
        e = analyze(p)[0].estimate
    assert f"{e.prevalence:.3f}"[1:] in text  # proportion, 3 decimals, no leading zero


def test_report_refuses_other_suffixes_and_bad_styles(project_path, tmp_path, capsys):
    code, _, err = run(capsys, "report", project_path, tmp_path / "r.odt")
    assert code == 1 and ".pdf, .docx, .html or .tex" in err and "Traceback" not in err
    code, _, err = run(capsys, "report", project_path, tmp_path / "r.html", "--style", "percent:7")
    assert code == 1 and "percent:1" in err


def test_methods_paragraph(project_path, capsys):
    code, text, err = run(capsys, "methods", project_path)
    assert code == 0, err
    assert "truthful with probability 1/2, 'yes' 1/4, 'no' 1/4" in text
    assert "ε = 1.10" in text and "3.00 times as likely" in text  # ln 3 for the coin design
    assert "ε = ∞" in text  # the lie detector has impossible answers for liars
    assert "were left out (" in text and "blank" in text
    assert "Feldman & Cousins, 1998" in text and "Heck & Moshagen, 2018" in text
    refs = text.split("References", 1)[1]
    assert refs.index("Boruch") < refs.index("Feldman") < refs.index("Heck") < refs.index("Moshagen")
    assert "Dwork" not in text  # no releases, no central DP text


def test_methods_with_a_release(project_path):
    from dpdesk.project.analysis.estimates import analyze
    from dpdesk.project.ledger.budget import set_budget
    from dpdesk.project.ledger.releases import release
    from dpdesk.project.report.methods import methods

    with Project.open(project_path) as p:
        set_budget(p, 1)
        release(p, {"statistic": "count", "columns": ["sex"], "epsilon": "0.5"})
        m = methods(p, analyze(p))
    text = m.text()
    assert "central differential privacy (Dwork et al., 2006)" in text and "ε = 0.5" in text
    assert "basic composition" in text and "Dwork, C., McSherry" in text
