"""The report's appendix reproduces what respondents saw: every item in every language fielded,
with the format and time of the export, in HTML, PDF, Word and LaTeX alike."""

from __future__ import annotations

import unicodedata

from dpdesk.project import languages as L
from dpdesk.project.fielding import export_instrument
from dpdesk.project.reading.importing import import_file
from tests.helpers.fielding import fielding_project, qualtrics_export, simulate

GERMAN = "Haben Sie jemals forced getan?"
GERMAN_B = "Hat Ihre Mutter im Januar Geburtstag?"
ENGLISH = "Have you ever done thing forced?"
ENGLISH_B = "Is your mother's birthday in January-March (crosswise)?"


def _text(path) -> str:
    from tests.helpers.pdftext import pdf_text

    if path.suffix == ".pdf":
        import shutil
        import subprocess

        if shutil.which("pdftotext"):
            text = subprocess.run(["pdftotext", str(path), "-"], capture_output=True, text=True, check=True,
                                  timeout=120).stdout
        else:
            text = pdf_text(path.read_bytes())
    elif path.suffix == ".docx":
        import docx

        text = "\n".join(p.text for p in docx.Document(str(path)).paragraphs)
    else:
        text = path.read_text(encoding="utf-8")
    return " ".join(unicodedata.normalize("NFKC", text).replace("&#x27;", "'").split())


def test_every_report_format_carries_the_fielded_text_in_english_and_german(tmp_path):
    from dpdesk.cli import main

    path = tmp_path / "p.dpdesk"
    with fielding_project(path, ["forced", "crosswise"]) as project:
        L.set_text(project, "forced", "de", question=GERMAN)
        L.set_text(project, "crosswise", "de", question="Haben Sie jemals crosswise getan?", question_b=GERMAN_B)
        files = export_instrument(project, tmp_path / "survey", "qsf", languages=["en", "de"]).files
        rows, _ = simulate(project, n=60)
        answers = tmp_path / "answers.csv"
        answers.write_text(qualtrics_export(files[0], rows), encoding="utf-8", newline="")
        import_file(project, answers)  # the answers back, mapped: the report needs data
    for fmt in ("html", "pdf", "docx", "tex"):
        out = tmp_path / f"report.{fmt}"
        assert main(["report", str(path), str(out)]) == 0
        text = _text(out)
        if fmt == "tex":
            text = text.replace("\\textit{", "").replace("\\textbf{", "").replace("}", "").replace("\\'", "'")
        for words in ("Fielded Text", "Qualtrics survey file (.qsf)", "German (de)", "English (en)", GERMAN,
                      GERMAN_B, ENGLISH, ENGLISH_B, "Beide Antworten sind gleich", "Both answers are the same"):
            assert words in text, (fmt, words)


def test_no_appendix_without_an_export(tmp_path):
    from dpdesk.project.report.fielded import fielded_section

    with fielding_project(tmp_path / "p.dpdesk", ["forced"]) as project:
        assert fielded_section(project) is None


GERMAN_B2 = "Hat Ihre Mutter von April bis Dezember Geburtstag?"


def test_an_ecwm_items_appendix_shows_both_versions_in_every_language(tmp_path):
    """Both versions of question B, each with its instructions (its own share of 'yes'), in English and
    German, read back from the PDF with pdftotext."""
    from dpdesk.cli import main

    path = tmp_path / "p.dpdesk"
    with fielding_project(path, ["ecwm"]) as project:
        L.set_text(project, "ecwm", "de", question="Haben Sie jemals ecwm getan?", question_b=GERMAN_B,
                   question_b2=GERMAN_B2)
        files = export_instrument(project, tmp_path / "survey", "qsf", languages=["en", "de"]).files
        rows, _ = simulate(project, n=80)
        answers = tmp_path / "answers.csv"
        answers.write_text(qualtrics_export(files[0], rows), encoding="utf-8", newline="")
        import_file(project, answers)
    out = tmp_path / "report.pdf"
    assert main(["report", str(path), str(out)]) == 0
    text = _text(out)
    appendix = text[text.index("Appendix: Fielded Text"):]
    for words in ("Question B, version 1: Is your mother's birthday in January-March (ecwm)?",
                  "Question B, version 2: Is your mother's birthday in April-December (ecwm)?",
                  f"Question B, version 1: {GERMAN_B}", f"Question B, version 2: {GERMAN_B2}"):
        assert words in appendix, words
    english = appendix[appendix.index("ecwm, English (en)"):appendix.index("ecwm, German (de)")]
    v1, v2 = english.index("Instructions, version 1:"), english.index("Instructions, version 2:")
    assert "about 25% of people answer 'yes' to B" in english[v1:v2]
    assert "about 75% of people answer 'yes' to B" in english[v2:]
    assert appendix.count("Why the answer is private:") == 2  # once per language, not per version


def test_an_older_ecwm_record_without_the_versions_instructions_still_shows_version_2(tmp_path):
    from dpdesk.project.report.fielded import _item_paragraphs

    old = {"question": "A?", "question_b": "Jan-Mar?", "question_b2": "Apr-Dec?", "instructions": "Tick."}
    shown = " ".join(_item_paragraphs("ecwm", "en", old))
    assert "Question B, version 1:</i> Jan-Mar?" in shown and "Question B, version 2:</i> Apr-Dec?" in shown
    assert "Instructions, version 1:</i> Tick." in shown
