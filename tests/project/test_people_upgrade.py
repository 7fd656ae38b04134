"""Issue 31: projects and registers saved before people hash version 3 (tests/fixtures/people_v2, made by the
code of main at 6fabc54) keep protecting their people: nothing is given back, no register entry is lost."""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
from fractions import Fraction
from pathlib import Path

import pytest

from dpdesk.project import Project, ledger
from dpdesk.project.people import sketch

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "people_v2"


@pytest.fixture
def old(tmp_path, monkeypatch):
    """The fixture in a folder of its own, its user data folder this test's."""
    here = tmp_path / "old"
    shutil.copytree(FIXTURE, here)
    monkeypatch.setenv("DPDESK_SETTINGS_DIR", str(here / "user"))
    _move_link(here / "linked.dpdesk", here / "registry.parquet")
    return here


def _move_link(project: Path, parquet: Path) -> None:
    """Point the old linked dataset at the fixture's copy of its file (its recorded size and time kept)."""
    conn = sqlite3.connect(project)
    (options, report) = conn.execute("SELECT options, report FROM datasets").fetchone()
    options, report = json.loads(options), json.loads(report)
    options["linked"]["source"] = str(parquet)
    (stat,) = report["linked"]["fingerprint"]["files"]
    mtime = stat["mtime_ns"] if isinstance(stat, dict) else stat[2]
    os.utime(parquet, ns=(mtime, mtime))
    conn.execute("UPDATE datasets SET options = ?", (json.dumps(options),))
    conn.commit()
    conn.close()


def _register_versions() -> set:
    folder = Path(os.environ["DPDESK_SETTINGS_DIR"]) / "data" / "ledger" / "heads.sqlite"
    conn = sqlite3.connect(folder)
    try:
        return {json.loads(t).get("v") for (t,) in conn.execute("SELECT sketch FROM people")}
    finally:
        conn.close()


def test_the_fixture_was_made_before_version_3(old):
    assert _register_versions() == {2} and sketch.VERSION == 3


def test_an_old_register_entry_still_charges_a_renamed_copy(old):
    import pandas as pd

    from dpdesk.project.reading.importing import import_file

    renamed = old / "renamed.csv"
    pd.read_csv(old / "registry.csv").rename(columns={"income": "earnings"}).to_csv(renamed, index=False)
    with Project.create(old / "new.dpdesk") as p:
        import_file(p, renamed, name="copy")
        ledger.set_budget(p, 1)
        assert ledger.budget_status(p).spent_epsilon == Fraction(3, 5)  # the old file's 0.6, by its version 2 sketch
    assert _register_versions() == {2}  # nothing replaced


def test_an_old_linked_dataset_is_brought_up_to_date_by_its_next_release(old):
    from dpdesk.project.reading.importing import import_file

    with Project.open(old / "linked.dpdesk") as p:
        (ds,) = p.datasets()
        before = ds.report["linked"]["respondents"]
        assert before["version"] == "dpdesk-linked-respondents-1" and "people" not in before
        ledger.release(p, {"statistic": "count", "epsilon": "0.1"}, dataset="registry")
        (ds,) = p.datasets()
        now = ds.report["linked"]["respondents"]
        assert now["people"]["v"] == sketch.VERSION and ds.report["linked"]["respondents_before"] == before
        assert ledger.budget_status(p).spent_epsilon == Fraction(2, 5)
    assert _register_versions() == {2, 3}
    with Project.create(old / "new.dpdesk") as p:
        import_file(p, old / "registry.csv", name="copy")
        ledger.set_budget(p, 1)
        # the imported file's 0.6 (version 2) and the linked file's 0.3 + 0.1 (version 3, its old release too)
        assert ledger.budget_status(p).spent_epsilon == Fraction(1)
        with pytest.raises(ledger.BudgetExceeded):
            ledger.release(p, {"statistic": "count", "epsilon": "0.01"}, dataset="copy")


def test_an_old_imported_release_is_upgraded_by_the_next_and_then_charges_a_link(old):
    from dpdesk.project import linked

    with Project.open(old / "imported.dpdesk") as p:
        ledger.release(p, {"statistic": "count", "epsilon": "0.1"}, dataset="registry")
    kept = _register_versions()
    assert 3 in kept  # the entry now holds version 3, its version 2 inside it
    with Project.create(old / "new.dpdesk") as p:
        linked.link_dataset(p, str(old / "registry.parquet"), name="again")
        ledger.set_budget(p, 1)
        # both of the imported file's releases, 0.6 and 0.1; the old linked file's 0.3 waits for its next release
        assert ledger.budget_status(p).spent_epsilon == Fraction(7, 10)
