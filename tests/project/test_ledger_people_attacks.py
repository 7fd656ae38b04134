"""Issue 28, part 1: the budget follows the people, not the exact bytes of the data (API and command line).

The author (computer A) releases 0.05, 0.1 and 0.2 (0.35 of 1) and lowers the budget to 0.5. A
colleague without the key rewrites the project as in issue 21 (release #1 cut to 0.0005, the
first budget row's time changed, the lowered budget deleted, a new project id, every recorded
SHA-256 and the import rewritten, the cached signature deleted, no seal or a forged one), then
changes the data slightly: a column renamed, one respondent deleted, one answer changed, or all
three. Before: "Ledger intact" and a release of 0.6 accepted. Each is found by the people
themselves (the name-free sketch of their rows, dpdesk.project.people.sketch).
"""

from __future__ import annotations

import json
import sqlite3
from fractions import Fraction

import pytest

from dpdesk.project import Project, ledger
from dpdesk.project.people import sketch
from dpdesk.project.people.fingerprint import overlap, respondents_signature
from tests.helpers.cli import run
from tests.project.test_ledger import SHA, frame
from tests.project.test_ledger_attacks import (BIG, COUNT, _forged_seal, author_project, full_rewrite_with_a_new_id,
                                               home, on)  # noqa: F401 - home is a fixture
from tests.project.test_ledger_tamper import app_value, quietly, recompute_every_hash, verified

_DISGUISED = ("UPDATE datasets SET source_sha256 = '" + "cd" * 32 + "', imported_at = '2001-01-01T00:00:00Z'",
              "UPDATE releases SET dataset_sha256 = '" + "cd" * 32 + "'",
              "DELETE FROM app WHERE key LIKE 'respondents:%'")


def _table(path) -> str:
    conn = sqlite3.connect(path)
    try:
        return conn.execute("SELECT table_name FROM datasets").fetchone()[0]
    finally:
        conn.close()


def rename_one_column(path):
    quietly(path, "UPDATE dataset_columns SET name = 'years' WHERE name = 'age'")


def delete_one_respondent(path):
    table = _table(path)
    quietly(path, f"DELETE FROM {table} WHERE rowid = (SELECT min(rowid) FROM {table})",
            "UPDATE datasets SET n_rows = n_rows - 1")


def change_one_answer(path):
    table = _table(path)
    quietly(path, f"UPDATE {table} SET c1 = c1 + 1 WHERE rowid = (SELECT min(rowid) FROM {table})")


def all_three(path):
    rename_one_column(path)
    delete_one_respondent(path)
    change_one_answer(path)


CHANGES = (rename_one_column, delete_one_respondent, change_one_answer, all_three)


def rewritten(path, change, seal=None):
    """The issue-21 rewrite, every recorded SHA-256 and import disguised, then ``change`` to the data."""
    full_rewrite_with_a_new_id(path)
    quietly(path, *_DISGUISED)
    change(path)
    recompute_every_hash(path)
    if seal is not None:
        sql_seal(path, seal)


def sql_seal(path, seal):
    conn = sqlite3.connect(path)
    conn.execute("INSERT OR REPLACE INTO app(key, value) VALUES ('ledger_seal', ?)", (seal,))
    conn.commit()
    conn.close()
    _forged_seal(path)


@pytest.mark.parametrize("change", CHANGES, ids=lambda f: f.__name__)
def test_a_rewrite_with_slightly_changed_data_and_no_seal_is_an_edit(tmp_path, home, change, capsys):
    path = author_project(tmp_path / "t.dpdesk", lowered=True)
    rewritten(path, change)
    check = verified(path)
    assert not check.ok and check.problems, check.headline
    assert "it holds mostly the same people" in check.problems[0] and "no seal" in check.problems[0]
    assert "which spent ε = 0.35 on them" in check.problems[0]  # what was spent on those people here
    assert "Ledger intact" not in check.headline
    with Project.open(path) as p:
        with pytest.raises(ledger.LedgerTamperedError, match="mostly the same people"):
            ledger.release(p, BIG)
        assert not ledger.preview(p, BIG).fits
        with pytest.raises(ledger.LedgerTamperedError):
            ledger.accept_rollback(p)
    code, out, _ = run(capsys, "ledger", path)
    assert code == 1 and "edited outside dpdesk" in out and "mostly the same people" in out
    code, _out, err = run(capsys, "release", path, "--stat", "count", "--epsilon", "0.6")
    assert code != 0 and "edited outside dpdesk" in err


@pytest.mark.parametrize("change", CHANGES, ids=lambda f: f.__name__)
def test_the_same_rewrite_under_a_forged_foreign_seal_stops_until_confirmed_and_is_charged(tmp_path, home, change,
                                                                                          capsys):
    path = author_project(tmp_path / "t.dpdesk", lowered=True)
    seal = app_value(path, "ledger_seal")
    rewritten(path, change, seal=seal)
    check = verified(path)
    assert check.intact and not check.ok and check.rollback_kind == "shared" and check.confirmable
    assert "mostly the same people" in check.rollback and "key id 0123456789abcdef" in check.rollback
    assert "Ledger intact" not in check.headline
    with Project.open(path) as p:
        with pytest.raises(ledger.LedgerRolledBackError, match="mostly the same people"):
            ledger.release(p, BIG)
    code, out, _ = run(capsys, "ledger", path, "--accept-rollback")  # the author decides, knowingly
    assert code == 0 and "mostly the same people" in out and "which spent ε = 0.35 on them" in out
    with Project.open(path) as p:  # now its own project, and the spending on these people follows them
        status = ledger.budget_status(p)
        assert status.spent_here_epsilon == Fraction("0.0005") + Fraction("0.3")
        assert status.spent_epsilon == Fraction("0.6505") and status.copies[0][0] == str(tmp_path / "t.dpdesk")
        with pytest.raises(ledger.BudgetExceeded, match="from the same people"):
            ledger.release(p, BIG)


def test_the_issue_numbers_cost_cut_and_one_answer_changed(tmp_path, home):
    """The issue: with release #3 also cut from 0.2 to 0.002 the file said 0.152 spent and took 0.6."""
    path = author_project(tmp_path / "t.dpdesk")
    quietly(path, "UPDATE releases SET cost = replace(cost, '\"epsilon\":\"1/5\"', '\"epsilon\":\"1/500\"'), "
            "noise_params = replace(noise_params, '\"scale\":\"5\"', '\"scale\":\"500\"') WHERE seq = 3",
            "UPDATE budget SET set_time = '2020-01-01T00:00:00.000Z' WHERE id = 1",
            "DELETE FROM app WHERE key = 'ledger_seal'",
            "UPDATE app SET value = 'p-colleague' WHERE key = 'project_id'",
            "UPDATE releases SET result = '{}' WHERE seq = 1", *_DISGUISED)
    change_one_answer(path)
    recompute_every_hash(path)
    check = verified(path)
    assert not check.ok and "mostly the same people" in check.problems[0]
    with Project.open(path) as p:
        with pytest.raises(ledger.LedgerTamperedError):
            ledger.release(p, BIG)


def test_a_new_project_of_the_same_people_here_is_charged_what_they_spent(tmp_path, home, capsys):
    """Releases this computer made from those people count against any file holding them: a new project
    from the same survey (columns renamed, two respondents dropped) starts with their spending."""
    author_project(tmp_path / "t.dpdesk")
    new = tmp_path / "new.dpdesk"
    with Project.create(new) as p:
        p.add_dataset("d", frame(100).rename(columns={"age": "years"}).iloc[2:], source={"sha256": "cd" * 32})
        ledger.set_budget(p, 1)
        status = ledger.budget_status(p)
        assert status.spent_epsilon == Fraction("0.35") and status.people_files == (str(tmp_path / "t.dpdesk"),)
        assert "in copies and other files of these people on this computer ε = 0.35" in status.people_text
        with pytest.raises(ledger.BudgetExceeded, match="from the same people"):
            ledger.release(p, dict(COUNT, epsilon="0.7"))
        ledger.release(p, dict(COUNT, epsilon="0.6"))
    assert verified(new).ok  # sealed here: a project of its own, not stopped
    code, out, _ = run(capsys, "budget", new)
    assert code == 0 and "from the same people" in out and "ε = 0.95" in out
    with Project.open(tmp_path / "t.dpdesk") as p:  # and back: the first project is charged the new one's
        assert ledger.budget_status(p).spent_epsilon == Fraction("0.95")
        with pytest.raises(ledger.BudgetExceeded):
            ledger.release(p, dict(COUNT, epsilon="0.11"))  # 0.1 would be release #2 again, free


def test_an_unrelated_project_sharing_a_few_respondents_is_warned_not_charged(tmp_path, home):
    import pandas as pd

    author_project(tmp_path / "t.dpdesk")
    mixed = pd.concat([frame(100).iloc[:10], frame(90, seed=11)], ignore_index=True)  # 10 of 100 in common
    with Project.create(tmp_path / "other.dpdesk") as p:
        p.add_dataset("d", mixed, source={"sha256": "ef" * 32})
        ledger.set_budget(p, 1)
        warnings = ledger.shared_spending(p)
        assert len(warnings) == 1 and "t.dpdesk" in warnings[0] and "ε = 0.35" in warnings[0]
        assert "% of these respondents" in warnings[0]
        ledger.release(p, dict(COUNT, epsilon="0.9"))  # nothing blocked
        assert ledger.budget_status(p).copies == ()
    assert verified(tmp_path / "other.dpdesk").ok


# ---------------------------------------------------------------- the sketch itself


def test_the_sketch_recognises_renamed_reordered_columns_and_a_few_changed_rows():
    f = frame(1000)
    a = respondents_signature(f)
    g = f.rename(columns={"age": "years", "region": "area"})[["income", "years", "group", "area"]]
    assert overlap(a, respondents_signature(g)) == 1.0
    assert overlap(a, respondents_signature(f.iloc[10:])) == 1.0  # deleted rows: all left are the same people
    h = f.copy()
    h.loc[:9, "age"] += 1  # ten answers changed
    assert overlap(a, respondents_signature(h)) >= 0.95
    assert overlap(a, respondents_signature(frame(1000, seed=3))) == 0.0


def test_the_threshold_what_a_rewrite_must_change(tmp_path):
    """Changing a cell in 60% of the rows gets below SAME_PEOPLE; 40% does not (k = 256: 0.1 is over 3 SE)."""
    f = frame(2000)
    a = respondents_signature(f)
    for share, same in ((0.4, True), (0.6, False)):
        h = f.copy()
        h.loc[: int(share * len(f)) - 1, "age"] += 1
        assert (overlap(a, respondents_signature(h)) >= sketch.SAME_PEOPLE) is same


def test_a_column_blank_in_every_row_changes_nothing_and_duplicated_rows_do_not_hide():
    import pandas as pd

    f = frame(500)
    a = respondents_signature(f)
    assert overlap(a, respondents_signature(f.assign(note=None))) == 1.0
    assert overlap(a, respondents_signature(pd.concat([f, f]))) == 1.0


def test_rows_that_do_not_tell_people_apart_are_not_compared_by_sketch():
    import numpy as np
    import pandas as pd

    rng = np.random.default_rng(1)
    yes_no = pd.DataFrame({"q1": rng.integers(0, 2, 500), "q2": rng.integers(0, 2, 500)})  # 4 possible rows
    other = pd.DataFrame({"q1": rng.integers(0, 2, 500), "q2": rng.integers(0, 2, 500)})
    assert overlap(respondents_signature(yes_no), respondents_signature(other)) == 0.0


def test_the_sketch_streams_in_bounded_memory_and_equals_the_whole():
    import numpy as np

    f = frame(3000)
    whole = respondents_signature(f)["people"]
    from dpdesk.project.people.fingerprint import _column_texts

    columns = []
    for name in f.columns:
        _texts, texts, index = _column_texts(f[name], people=True)
        columns.append((sketch.value_hashes(texts), index))
    hashes = sketch.row_hashes_from(columns, len(f))
    streamed = sketch.PeopleSketch()
    for chunk in np.array_split(hashes, 7):
        streamed.add(chunk)
    result = streamed.result()
    assert result["sketch"] == whole["sketch"] and result["rows"] == whole["rows"] == 3000
    assert abs(result["distinct"] - 3000) < 3000 * 4 / 16  # estimated: within 4 standard errors (1/sqrt(k))
    assert json.loads(json.dumps(result)) == result
    from dpdesk.project.people.fingerprint import people_of_chunks

    chunked = people_of_chunks(f.iloc[i:i + 500] for i in range(0, len(f), 500))
    assert chunked["sketch"] == whole["sketch"] and chunked["rows"] == 3000
    assert sketch.same_people(chunked, whole) == 1.0


def test_the_whole_ledger_deleted_and_a_column_renamed_reads_as_a_new_project_but_is_charged(tmp_path, home,
                                                                                             capsys):
    """The limit: with every release and budget row deleted there is no ledger to call edited; the file
    says whose people it holds, and a new budget there is charged what this computer spent on them."""
    path = author_project(tmp_path / "t.dpdesk", lowered=True)
    quietly(path, "DELETE FROM releases", "DELETE FROM budget",
            "DELETE FROM app WHERE key IN ('ledger_seal', 'ledger_head', 'project_id')", *_DISGUISED)
    rename_one_column(path)
    check = verified(path)
    assert check.ok and "it holds mostly the same people" in check.trust_text
    assert "those releases count against this file's budget" in check.trust_text
    assert run(capsys, "budget", path, "--set", "1")[0] == 0
    code, _out, err = run(capsys, "release", path, "--stat", "count", "--epsilon", "0.7")
    assert code != 0 and "from the same people" in err  # 0.35 spent on them here + 0.7 > 1
    code, out, _ = run(capsys, "release", path, "--stat", "count", "--epsilon", "0.6")
    assert code == 0 and "other files of these people on this computer ε = 0.35, left ε = 0.05" in out
