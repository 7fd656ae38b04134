"""Subgroups by dataset in the report's words: the methods text names the datasets ("for each dataset
(wave1.csv, wave2.csv)") and the subgroup table's first column is headed "Dataset"; a column's
subgroups keep "each group of gender" and the column's own name."""

from __future__ import annotations

import pandas as pd

from dpdesk.project import Project
from dpdesk.project.report.report import report_parts
from tests.project.test_item_mappings import two_waves  # noqa: F401 - the fixture


def test_subgroups_by_dataset_read_naturally(two_waves):  # noqa: F811
    with Project.open(two_waves) as p:
        p.set_mapping("cheating", "wave2.csv", column="ai_cw", codes={"yes": ["Yes"], "no": ["No"]})
        doc, methods, _ = report_parts(p, by_dataset=True)
    text = methods.text()
    assert ("Estimates were also computed separately for each dataset (wave1.csv, wave2.csv); differences "
            "between datasets have Newcombe-type (MOVER) intervals") in text
    assert "the equality of all datasets was tested" in text and "group of dataset" not in text
    table = doc.table("subgroups:cheating")
    assert table.columns[0].label == "Dataset"
    assert {row.cells[0].text for row in table.rows} == {"wave1.csv", "wave2.csv"}


def test_subgroups_by_a_column_keep_its_name(tmp_path):
    from dpdesk.mechanisms import rr

    frame = pd.DataFrame({"q7": ["Yes", "No", "No"] * 40, "gender": ["f", "m"] * 60})
    with Project.create(tmp_path / "p.dpdesk") as p:
        p.add_dataset("wave", frame)
        p.add_item("cheating", rr.design("warner", p=0.7), column="q7", codes={"yes": ["Yes"], "no": ["No"]})
        doc, methods, _ = report_parts(p, by="gender")
    assert "separately for each group of gender; differences between groups" in methods.text()
    assert doc.table("subgroups:cheating").columns[0].label == "gender"
