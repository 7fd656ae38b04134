"""Respondents seen before (issue 13): an import of data already released from warns, and says where."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from dpdesk.project import Project
from dpdesk.project.people.fingerprint import overlap, respondents_signature
from dpdesk.project.people.user_data import user_data_folder
from tests.helpers.cli import run


@pytest.fixture(autouse=True)
def _own_registry(tmp_path, monkeypatch):
    """Each test its own user data folder (the registry is per user, not per project)."""
    monkeypatch.setenv("DPDESK_SETTINGS_DIR", str(tmp_path / "user"))


def _survey(n=200, seed=3) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    return pd.DataFrame({"region": rng.choice(["north", "south", "east"], n), "age": rng.integers(18, 80, n),
                         "score": rng.normal(50, 10, n).round(3)})


def _released_project(tmp_path, capsys, frame, name="first.dpdesk"):
    csv, path = tmp_path / f"{name}.csv", tmp_path / name
    frame.to_csv(csv, index=False)
    run(capsys, "new", path)
    run(capsys, "import", path, csv)
    run(capsys, "budget", path, "--set", "1")
    assert run(capsys, "release", path, "--stat", "count", "--epsilon", "0.8")[0] == 0
    return path


def test_the_same_people_in_another_project_and_format_warn_with_where_and_how_much(tmp_path, capsys):
    frame = _survey()
    first = _released_project(tmp_path, capsys, frame)
    again = tmp_path / "again.xlsx"  # reordered, as Excel, with a blank row
    shuffled = frame.sample(frac=1, random_state=4)
    pd.concat([shuffled.iloc[:50], pd.DataFrame([{}]), shuffled.iloc[50:]]).to_excel(again, index=False)
    second = tmp_path / "second.dpdesk"
    run(capsys, "new", second)
    code, out, _ = run(capsys, "import", second, again)
    assert code == 0  # it warns; it does not block
    assert "the same respondents" in out and str(first.resolve()) in out and "ε = 0.8" in out


def test_a_subset_warns_with_its_share_and_other_people_do_not(tmp_path, capsys):
    frame = _survey(400)
    _released_project(tmp_path, capsys, frame)
    subset, other = tmp_path / "subset.csv", tmp_path / "other.csv"
    frame.iloc[:300].to_csv(subset, index=False)
    _survey(400, seed=99).to_csv(other, index=False)
    target = tmp_path / "t.dpdesk"
    run(capsys, "new", target)
    code, out, _ = run(capsys, "import", target, subset)
    assert code == 0 and "about" in out and "already spent" in out
    code, out, _ = run(capsys, "import", target, other)
    assert code == 0 and "already spent" not in out


def test_inside_the_project_the_budget_already_covers_them(tmp_path, capsys):
    frame = _survey()
    path = _released_project(tmp_path, capsys, frame)
    copy = tmp_path / "copy.csv"
    frame.iloc[::-1].to_csv(copy, index=False)
    code, out, _ = run(capsys, "import", path, copy)
    assert code == 0 and "of this project" in out and "nothing is reset" in out


def test_an_unreadable_registry_never_stops_an_import(tmp_path, capsys):
    (user_data_folder() / "released_respondents.sqlite").write_bytes(b"not a database" * 100)
    path, csv = tmp_path / "p.dpdesk", tmp_path / "s.csv"
    _survey().to_csv(csv, index=False)
    run(capsys, "new", path)
    code, out, err = run(capsys, "import", path, csv)
    assert code == 0 and err == ""
    with Project.open(path) as p:
        assert len(p.datasets()) == 1


def test_signature_ignores_order_blank_rows_and_number_format():
    frame = _survey()
    a = respondents_signature(frame)
    b = respondents_signature(pd.concat([frame.iloc[::-1], pd.DataFrame({"region": [None]})]).astype({"age": float}))
    assert a["fingerprint"] == b["fingerprint"] and a["rows"] == 200
    changed = frame.copy()
    changed.loc[0, "score"] = 1e6
    c = respondents_signature(changed)
    assert c["fingerprint"] != a["fingerprint"] and overlap(a, c) > 0.9
