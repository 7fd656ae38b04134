"""Columns named exactly like the items map themselves on import (issue 29: "0 of 3 items mapped"), their
codes read from the answers' own words; codes that read more than one way are never guessed."""

from __future__ import annotations

import pandas as pd
import pytest

from dpdesk.mechanisms import rr
from dpdesk.project import Project
from dpdesk.project.analysis.estimates import analyze
from dpdesk.project.reading.importing import import_file
from tests.helpers.cli import run


@pytest.fixture
def study(tmp_path):
    path = tmp_path / "study.dpdesk"
    with Project.create(path) as p:  # items designed before any data: no mapping anywhere
        p.add_item("q_cash", rr.design("forced", p_truth=0.75, p_yes=0.125, p_no=0.125))
        p.add_item("q_undecl", rr.design("warner", p=0.7))
        p.add_item("q_share", rr.design("crosswise", p=0.25))
    n = 120
    pd.DataFrame({"id": range(n), "q_cash": ["Yes", "No", "No", ""] * (n // 4),
                  "q_undecl": [1, 0, 0] * (n // 3),
                  "q_share": ["Both answers are the same", "The answers are different"] * (n // 2)}
                 ).to_csv(tmp_path / "answers.csv", index=False)
    return path, tmp_path / "answers.csv"


def test_same_name_columns_map_themselves(study):
    path, csv = study
    with Project.open(path) as p:
        table = import_file(p, csv)
        found = {name: m.mapping for name, m in table.auto_mapped.items()} if isinstance(table.auto_mapped, dict) \
            else None
        items = {it.name: it for it in p.items(p.datasets()[-1].name)}
        assert all(items[n].mapped for n in ("q_cash", "q_undecl", "q_share"))
        assert items["q_cash"].codes == {"yes": ["Yes"], "no": ["No"]}
        assert items["q_undecl"].codes == {"yes": [1], "no": [0]}
        assert set(items["q_share"].codes) == {"yes", "no"}
        results = {r.item: r for r in analyze(p)}
    assert all(r.estimate is not None for r in results.values())
    assert results["q_cash"].estimate.n == 90  # the blanks are missing, never an answer
    assert found is None or set(found) == {"q_cash", "q_undecl", "q_share"}


def test_the_command_line_says_3_of_3_mapped(study, capsys):
    path, csv = study
    code, out, err = run(capsys, "import", path, csv)
    assert code == 0, err
    code, out, _ = run(capsys, "datasets", path)
    assert "3 of 3 items mapped" in out


def test_codes_that_read_two_ways_are_not_guessed(tmp_path):
    path = tmp_path / "p.dpdesk"
    with Project.create(path) as p:
        p.add_item("q_cash", rr.design("warner", p=0.7))
        pd.DataFrame({"q_cash": [1, 2, 2] * 20}).to_csv(tmp_path / "a.csv", index=False)  # 1/2: yes/no or no/yes?
        import_file(p, tmp_path / "a.csv")
        assert not p.items(p.datasets()[-1].name)[0].mapped
