"""An item's mapping per dataset (issue 20, part 1): stored per dataset, migrated from v3,
found by itself in a new wave, and datasets compared as subgroups."""

from __future__ import annotations

import shutil
import sqlite3

import numpy as np
import pandas as pd
import pytest

from dpdesk.mechanisms import rr
from dpdesk.project import Project
from dpdesk.project.study.active import set_active_dataset
from dpdesk.project.analysis.estimates import analyze, results_bundle
from dpdesk.project.file import schema
from dpdesk.project.reading.importing import import_file, store_import
from dpdesk.project.reading.table import ImportReport, Source, Table
from tests.helpers.paths import ROOT

WARNER = rr.design("warner", p=0.7)


def _csv(path, column: str, yes: int, n: int, extra: dict | None = None):
    """A wave: ``yes`` of ``n`` answers 'Yes' in ``column`` (the rest 'No')."""
    frame = pd.DataFrame({column: ["Yes"] * yes + ["No"] * (n - yes), **(extra or {})})
    frame.to_csv(path, index=False)
    return path


@pytest.fixture
def two_waves(tmp_path):
    """A project with wave1.csv (column q7) and wave2.csv (column ai_cw): different names."""
    path = tmp_path / "study.dpdesk"
    with Project.create(path) as p:
        import_file(p, _csv(tmp_path / "wave1.csv", "q7", 70, 200))
        p.add_item("cheating", WARNER, column="q7", codes={"yes": ["Yes"], "no": ["No"]})
        import_file(p, _csv(tmp_path / "wave2.csv", "ai_cw", 90, 300), use=True)
    return path


def test_each_dataset_keeps_its_own_mapping(two_waves):
    with Project.open(two_waves) as p:
        assert p.item("cheating").dataset == "wave2.csv" and not p.item("cheating").mapped
        p.set_mapping("cheating", "wave2.csv", column="ai_cw", codes={"yes": ["Yes"], "no": ["No"]})
        assert p.item("cheating", "wave1.csv").column == "q7"
        assert p.item("cheating", "wave2.csv").column == "ai_cw"
        assert set(p.item("cheating").mappings) == {"wave1.csv", "wave2.csv"}
        for active, column, n in [("wave1.csv", "q7", 200), ("wave2.csv", "ai_cw", 300), ("wave1.csv", "q7", 200)]:
            set_active_dataset(p, active)  # switching back and forth loses nothing
            assert p.item("cheating").column == column
            (result,) = analyze(p)
            assert result.estimate is not None and result.estimate.n == n
        # a change in one dataset leaves the other alone; the design is untouched
        p.update_item("cheating", dataset="wave2.csv", codes={"yes": ["Yes", "yes"], "no": ["No"]})
        assert p.item("cheating", "wave1.csv").codes == {"yes": ["Yes"], "no": ["No"]}
        assert p.item("cheating", "wave2.csv").codes["yes"] == ["Yes", "yes"]
        assert p.item("cheating").design_record == WARNER.to_dict()
        p.clear_mapping("cheating", "wave2.csv")
        assert not p.item("cheating", "wave2.csv").mapped and p.item("cheating", "wave1.csv").mapped
        p.remove_dataset("wave1.csv")  # its mapping goes with it (ON DELETE CASCADE)
        assert p.item("cheating").mappings == {}
        assert p.latest_mapping("cheating")["column"] in ("q7", "ai_cw")  # the latest is kept for new imports


def test_an_item_not_mapped_in_the_active_dataset_says_so(two_waves):
    with Project.open(two_waves) as p:
        (result,) = analyze(p)
        assert result.not_mapped and result.estimate is None
        assert result.sentence() == "cheating: not mapped in this dataset."
        from dpdesk.project.report.document import build_document

        doc = build_document(p, [result])
        (table,) = doc.sections[0].tables
        assert [c.text for c in table.rows[0].cells][4] == "not mapped in this dataset"


def test_v3_mappings_become_mappings_in_every_dataset_with_their_columns():
    conn = sqlite3.connect(":memory:")
    schema.build_version(conn, 3)
    conn.executescript("""
        INSERT INTO items(id, name, design_name, design_params, design, column_name, codes) VALUES
            (1, 'cheating', 'warner', '{}', '{"name": "warner"}', 'q7', '{"pairs": [["yes", ["Y"]]]}'),
            (2, 'doping', 'sld', '{}', '{"name": "sld"}', 'q9', '{"pairs": [["yes", [1]]]}'),
            (3, 'unmapped', 'warner', '{}', '{"name": "warner"}', NULL, NULL);
        UPDATE items SET group_column = 'grp', group_codes = '{"pairs": [["1", ["A"]]]}' WHERE id = 2;
        INSERT INTO datasets(id, name, table_name, n_rows) VALUES (1, 'w1', 'data_1', 0), (2, 'w2', 'data_2', 0),
                                                                  (3, 'w3', 'data_3', 0);
        INSERT INTO dataset_columns(dataset_id, position, name, sql_name, dtype) VALUES
            (1, 0, 'q7', 'c0', 'object'), (1, 1, 'q9', 'c1', 'int64'), (1, 2, 'grp', 'c2', 'object'),
            (2, 0, 'q7', 'c0', 'object'), (2, 1, 'q9', 'c1', 'int64'),
            (3, -1, 'q7', 'idx', 'int64');
    """)
    schema.MIGRATIONS[2](conn)
    rows = conn.execute("SELECT item_id, dataset_id, column_name, codes, group_column FROM item_mappings"
                        " ORDER BY item_id, dataset_id").fetchall()
    assert rows == [(1, 1, "q7", '{"pairs": [["yes", ["Y"]]]}', None), (1, 2, "q7", '{"pairs": [["yes", ["Y"]]]}', None),
                    (2, 1, "q9", '{"pairs": [["yes", [1]]]}', "grp")]  # w2 has no group column; w3's is the index


def test_the_v3_fixture_opens_with_its_mappings(tmp_path):
    path = tmp_path / "v3.dpdesk"
    shutil.copyfile(ROOT / "tests" / "fixtures" / "projects" / "v3.dpdesk", path)
    with Project.open(path) as p:
        items = p.items()
        assert [it.column for it in items] == ["q7", "q8", "q9"]
        assert all(set(it.mappings) == {"wave 1"} for it in items)
        assert p.item("doping").group_codes == {"1": ["A"], "2": ["B"]}


def test_a_second_wave_with_the_same_columns_maps_itself(tmp_path):
    with Project.create(tmp_path / "p.dpdesk") as p:
        import_file(p, _csv(tmp_path / "wave1.csv", "q7", 70, 200))
        p.add_item("cheating", WARNER, column="q7", codes={"yes": ["Yes"], "no": ["No"]})
        table = import_file(p, _csv(tmp_path / "wave2.csv", "q7", 50, 100), use=True)
        assert table.auto_mapped == ["cheating → q7 (the same column name as in 'wave1.csv')"]
        assert p.item("cheating", "wave2.csv").column == "q7"
        (result,) = analyze(p)
        assert result.estimate.n == 100
        # codes that do not fit the new file: nothing is guessed
        other = pd.DataFrame({"q7": [1, 2, 2, 1]})
        other.to_csv(tmp_path / "wave3.csv", index=False)
        table = import_file(p, tmp_path / "wave3.csv")
        assert table.auto_mapped == [] and not p.item("cheating", "wave3.csv").mapped


def _labelled(frame, labels: dict, values: dict | None = None, name="w.sav") -> Table:
    report = ImportReport(format="sav", n_rows=len(frame), n_columns=frame.shape[1], variable_labels=labels,
                          value_labels=values or {})
    return Table(frame, report, Source(name, "", 1, "0" * 64))


def test_renamed_columns_map_by_question_text_or_value_labels(tmp_path):
    question = "Have you ever used AI to write an essay?"
    with Project.create(tmp_path / "p.dpdesk") as p:
        first = pd.DataFrame({"Q3": [1, 2, 2, 1, 1], "grp": ["A", "B", "A", "B", "A"]})
        store_import(p, _labelled(first, {"Q3": question}, {"Q3": {1: "Yes", 2: "No"}}, "w1.sav"), name="w1")
        p.add_item("essay", WARNER, column="Q3", codes={"yes": [1], "no": [2]})
        second = pd.DataFrame({"ai_cw": [1, 1, 2], "other": [2, 1, 1]})
        table = _labelled(second, {"ai_cw": f"  {question.upper()} "}, {}, "w2.sav")
        store_import(p, table, name="w2")
        assert table.auto_mapped == [f"essay → ai_cw (the same question text as 'Q3' as in 'w1')"]
        assert p.item("essay", "w2").column == "ai_cw"
        third = pd.DataFrame({"essay_w3": [2.0, 1.0, 2.0], "x": [1, 2, 3]})
        table = _labelled(third, {}, {"essay_w3": {"1": "yes", "2": "no"}, "x": {1: "a", 2: "b"}}, "w3.sav")
        store_import(p, table, name="w3")
        assert p.item("essay", "w3").column == "essay_w3"
        assert "the same value labels as 'Q3'" in table.auto_mapped[0]


def test_subgroups_by_dataset_equal_rr_from_the_counts(two_waves):
    with Project.open(two_waves) as p:
        p.set_mapping("cheating", "wave2.csv", column="ai_cw", codes={"yes": ["Yes"], "no": ["No"]})
        (result,) = analyze(p, by_dataset=True)
        assert result.by == "dataset"
        assert result.subgroup_counts == {"wave1.csv": [130, 70], "wave2.csv": [210, 90]}
        direct = rr.estimate_by(WARNER, {"wave1.csv": [130, 70], "wave2.csv": [210, 90]})
        for name in ("wave1.csv", "wave2.csv"):
            assert result.subgroups.estimates[name].prevalence == pytest.approx(direct.estimates[name].prevalence,
                                                                                abs=1e-12)
        ((pair, diff),) = result.subgroups.differences.items()
        assert pair == ("wave1.csv", "wave2.csv")
        assert diff.difference == pytest.approx(direct.differences[pair].difference, abs=1e-12)
        assert result.subgroups.test.p_value == pytest.approx(direct.test.p_value, abs=1e-12)
        # Warner: pi = (lambda - (1 - p)) / (2p - 1) with lambda the share of "yes" (Warner 1965)
        assert result.subgroups.estimates["wave1.csv"].prevalence == pytest.approx((70 / 200 - 0.3) / 0.4)
        bundle = results_bundle(p, [result])
        assert "By dataset" in bundle.tables
        assert {row["subgroup"] for row in bundle.tables["By dataset"]} >= {"wave1.csv", "wave2.csv"}
        assert np.isfinite(result.estimate.prevalence)  # the active dataset's own estimate stays


def test_a_corrected_export_keeps_the_mappings_of_the_data_it_replaces(tmp_path):
    with Project.create(tmp_path / "p.dpdesk") as p:
        import_file(p, _csv(tmp_path / "wave1.csv", "q7", 70, 200))
        p.add_item("cheating", WARNER, column="q7", codes={"yes": ["Yes"], "no": ["No"]})
        corrected = pd.DataFrame({"q7": ["Yes"] * 69 + ["No"] * 130 + ["Maybe"]})  # a value no code matches
        corrected.to_csv(tmp_path / "wave1 corrected.csv", index=False)
        table = import_file(p, tmp_path / "wave1 corrected.csv", replace=True)
        assert [d.name for d in p.datasets()] == ["wave1.csv"]
        assert table.auto_mapped == ["cheating → q7 (kept from the data it replaces)"]
        (result,) = analyze(p)  # the odd answer is left out and said, as before the replacement
        assert result.estimate.n == 199 and "matches no code" in result.mapping.left_out_text()
