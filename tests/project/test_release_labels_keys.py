"""Release categories typed as the value labels the app shows, or as codes (issue 29); a key that is neither
is refused by the preview, before any confirmation, with nothing spent."""

from __future__ import annotations

from fractions import Fraction

import pandas as pd
import pytest

from dpdesk.errors import DataError
from dpdesk.project import Project, ledger


@pytest.fixture
def coded(tmp_path):
    path = tmp_path / "p.dpdesk"
    frame = pd.DataFrame({"region": [1, 2, 3, 1] * 50, "sex": ["f", "m"] * 100})
    with Project.create(path) as p:
        p.add_dataset("wave", frame)
        p.set_column_label("wave", "region", "Region", value_labels={1: "North", 2: "South", 3: "East"})
        p.set_column_label("wave", "sex", value_labels={"f": "Female", "m": "Male"})
        ledger.set_budget(p, Fraction(1))
    return path


def test_labels_and_codes_are_the_same_categories(coded):
    with Project.open(coded) as p:
        by_label = ledger.preview(p, {"statistic": "histogram", "columns": ["region"],
                                      "keys": ["North", " south ", "3"], "epsilon": 0.1})
        assert by_label.request["keys"] == [[1, 2, 3]]
        entry = ledger.release(p, {"statistic": "histogram", "columns": ["region"], "keys": ["North", "South", "East"],
                                   "by": "sex", "by_keys": ["Female", "Male"], "epsilon": 0.1})
        assert entry.request["keys"] == [[1, 2, 3]] and entry.request["by_keys"] == ["f", "m"]
        again = ledger.release(p, {"statistic": "histogram", "columns": ["region"], "keys": [1, 2, 3],
                                   "by": "sex", "by_keys": ["f", "m"], "epsilon": 0.1})
        assert again.replayed  # the same table, typed with codes: free


def test_a_key_that_is_neither_is_refused_by_the_preview(coded):
    with Project.open(coded) as p:
        with pytest.raises(DataError) as err:
            ledger.preview(p, {"statistic": "histogram", "columns": ["region"], "keys": ["Nord", "South"],
                               "epsilon": 0.1})
        assert "'Nord' is neither a value label nor a code of the column region" in str(err.value)
        assert "North (1)" in str(err.value) and "no budget was spent" in str(err.value)
        assert ledger.budget_status(p).spent_epsilon == 0
