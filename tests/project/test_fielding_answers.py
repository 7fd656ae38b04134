"""Answers come back mapped: each platform's export of a fielded instrument imports with no mapping
step and gives the same estimate as the counts the simulated answers came from."""

from __future__ import annotations

import numpy as np
import pytest

from dpdesk.mechanisms import rr
from dpdesk.project.analysis.estimates import analyze
from dpdesk.project.fielding import export_instrument
from dpdesk.project.reading.importing import import_file
from tests.helpers import fielding as helpers

CASES = {
    "qualtrics-text": ("qsf", lambda files, rows: helpers.qualtrics_export(files[0], rows)),
    "qualtrics-values": ("qsf", lambda files, rows: helpers.qualtrics_export(files[0], rows, choice_text=False)),
    "redcap": ("redcap", lambda files, rows: helpers.redcap_export(files[0], rows)),
    "limesurvey": ("limesurvey", lambda files, rows: helpers.limesurvey_export(files[0], rows)),
    "odk-central": ("xlsform", lambda files, rows: helpers.odk_export(files[0], rows, separator="-")),
    "kobo": ("xlsform", lambda files, rows: helpers.odk_export(files[0], rows, separator="/")),
}


def _same_estimate(result, design, counts):
    expected = rr.estimate(design, counts)
    assert result.estimate is not None, result.error
    got = result.estimate
    assert got.n == expected.n
    for a, b in ((got.counts, expected.counts), (got.prevalence, expected.prevalence), (got.se, expected.se)):
        np.testing.assert_allclose(np.asarray(a, float), np.asarray(b, float), rtol=0, atol=1e-12)


@pytest.mark.parametrize("case", CASES)
def test_every_design_comes_back_mapped(tmp_path, case):
    fmt, write = CASES[case]
    with helpers.fielding_project(tmp_path / "study.dpdesk") as project:
        files = export_instrument(project, tmp_path / "instrument", fmt).files
        rows, counts = helpers.simulate(project)
        export = tmp_path / "answers.csv"
        export.write_text(write(files, rows), encoding="utf-8", newline="")
        table = import_file(project, export)
        assert not [w for w in table.report.warnings if "Not mapped" in w]
        results = {r.item: r for r in analyze(project)}
        assert set(results) == set(rr.DESIGN_NAMES)
        for name, result in results.items():
            _same_estimate(result, project.item(name).design, counts[name])


def test_renamed_qualtrics_columns_map_by_qid(tmp_path):
    with helpers.fielding_project(tmp_path / "s.dpdesk", ["crosswise", "sld"]) as project:
        files = export_instrument(project, tmp_path / "i", "qsf").files
        rows, counts = helpers.simulate(project)
        export = tmp_path / "answers.csv"
        export.write_text(helpers.qualtrics_export(files[0], rows, rename={"crosswise": "Q7", "sld_group": "G2"}),
                          encoding="utf-8")
        import_file(project, export)
        assert project.item("crosswise").column == "Q7" and project.item("sld").group_column == "G2"
        for r in analyze(project):
            _same_estimate(r, project.item(r.item).design, counts[r.item])


def test_what_cannot_be_matched_is_listed(tmp_path):
    with helpers.fielding_project(tmp_path / "s.dpdesk", ["forced", "warner"]) as project:
        files = export_instrument(project, tmp_path / "i", "redcap").files
        rows, _ = helpers.simulate(project)
        text = helpers.redcap_export(files[0], [{k: v for k, v in r.items() if k != "warner"} for r in rows])
        text = text.replace(",warner,", ",other,")
        export = tmp_path / "answers.csv"
        export.write_text(text, encoding="utf-8")
        table = import_file(project, export)
        assert project.item("forced").column == "forced" and project.item("warner").column is None
        assert any("warner" in w and "Not mapped" in w for w in table.report.warnings)


def test_redcap_labelled_export_maps_by_question_text(tmp_path):
    import csv

    with helpers.fielding_project(tmp_path / "s.dpdesk", ["crosswise", "forced"]) as project:
        files = export_instrument(project, tmp_path / "i", "redcap").files
        rows, counts = helpers.simulate(project)
        with open(files[0], encoding="utf-8", newline="") as f:
            fields = {r["Variable / Field Name"]: r for r in csv.DictReader(f) if r["Field Type"] == "radio"}
        labels = {n: dict(c.split(", ", 1) for c in r["Choices, Calculations, OR Slider Labels"].split(" | "))
                  for n, r in fields.items()}
        head = ["Record ID", *[fields[n]["Field Label"] for n in fields], "Complete?"]
        body = [[str(i + 1), *[labels[n][str(r[n])] for n in fields], "Complete"] for i, r in enumerate(rows)]
        export = tmp_path / "labels.csv"
        export.write_text(helpers._csv([head, *body]), encoding="utf-8")
        import_file(project, export)
        for r in analyze(project):
            _same_estimate(r, project.item(r.item).design, counts[r.item])
