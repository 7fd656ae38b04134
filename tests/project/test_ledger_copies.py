"""Issue 21, section 2: copies of a project live side by side (API and command line).

Copies of an empty template, and "Save As" before any release, are projects of their own (a
project gets its own id with its first release). A copy made after releases shares their
history: it is told apart from a rollback by the register of histories, confirmed once, and
then both copies go on, each spending against the same people (the respondents' signature
registry warns when the same respondents arrive in another project).
"""

from __future__ import annotations

import shutil

import pytest

from dpdesk.project import Project, ledger
from tests.helpers.cli import run
from tests.project.test_ledger import SHA, frame
from tests.project.test_ledger_attacks import author_project, verified

COUNT = {"statistic": "count", "epsilon": "0.1"}


@pytest.fixture
def home(tmp_path, monkeypatch):
    monkeypatch.setenv("DPDESK_SETTINGS_DIR", str(tmp_path / "computer-a"))
    return tmp_path / "computer-a"


def test_the_issue_reproduction_copies_of_a_template_both_release(tmp_path, home, capsys):
    """dpdesk new t.dpdesk; cp t.dpdesk A.dpdesk; cp t.dpdesk B.dpdesk; import other data and set a
    budget in each; release in A, then in B."""
    t, a, b = (tmp_path / n for n in ("t.dpdesk", "A.dpdesk", "B.dpdesk"))
    assert run(capsys, "new", t)[0] == 0
    shutil.copyfile(t, a)
    shutil.copyfile(t, b)
    for path, seed in ((a, 1), (b, 2)):
        data = tmp_path / f"{path.stem}.csv"
        frame(200, seed=seed).to_csv(data, index=False)
        assert run(capsys, "import", path, data)[0] == 0
        assert run(capsys, "budget", path, "--set", "1")[0] == 0
    for _round in range(2):  # and again: no copy blocks the other
        for path in (a, b):
            code, out, err = run(capsys, "release", path, "--stat", "count", "--epsilon", f"0.0{_round + 1}")
            assert code == 0, err
            code, out, _ = run(capsys, "ledger", path)
            assert code == 0 and "Ledger intact" in out and "verified with this computer's key" in out
    assert verified(a).project_id != verified(b).project_id  # two projects now


def test_save_as_before_any_release_is_a_project_of_its_own(tmp_path, home):
    with Project.create(tmp_path / "a.dpdesk") as p:
        p.add_dataset("d", frame(100), source={"sha256": SHA})
        ledger.set_budget(p, 1)
        p.backup_to(tmp_path / "b.dpdesk")  # the same budget rows, sealed here, no release yet
        ledger.release(p, COUNT)
    check = verified(tmp_path / "b.dpdesk")
    assert check.ok and "a copy made before the first release" in check.trust_text
    with Project.open(tmp_path / "b.dpdesk") as p:
        ledger.release(p, dict(COUNT, epsilon="0.2"))
    assert verified(tmp_path / "a.dpdesk").ok and verified(tmp_path / "b.dpdesk").ok


def test_a_copy_made_after_releases_is_confirmed_once_then_both_go_on(tmp_path, home, capsys):
    a = author_project(tmp_path / "A.dpdesk")
    b = tmp_path / "B.dpdesk"
    shutil.copyfile(a, b)
    with Project.open(a) as p:
        ledger.release(p, dict(COUNT, epsilon="0.01"))
    check = verified(b)  # behind a history seen here, in another file
    assert check.intact and not check.ok and check.confirmable
    assert "ends at release #3, but this computer saw release #4 of this history" in check.rollback
    assert f"in {a}" in check.rollback and "this one is a copy made at release #3, or an older backup" in check.rollback
    code, out, err = run(capsys, "release", b, "--stat", "count", "--epsilon", "0.02")
    assert code != 0 and "--accept-rollback" in err
    code, out, _ = run(capsys, "ledger", b, "--accept-rollback", "--note", "a copy for wave 2")
    assert code == 0 and "this copy goes on from release #3. The other file went on to release #4" in out
    assert "release #4 stays recorded there, not in this copy" in out
    assert "no longer counted" not in out and "never published" not in out  # a copy, not a rollback
    for _round in range(3):  # no back and forth: each goes on, neither blocks the other
        for path, eps in ((a, "0.0%d1"), (b, "0.0%d2")):
            code, out, err = run(capsys, "release", path, "--stat", "count", "--epsilon", eps % (_round + 1))
            assert code == 0, err
    assert verified(a).ok and verified(b).ok
    assert verified(a).releases == 7 and verified(b).releases == 6


def test_the_same_respondents_in_a_copy_are_recognised(tmp_path, home):
    """Spending of both copies is about the same people: importing them into another project warns."""
    a = author_project(tmp_path / "A.dpdesk")
    with Project.create(tmp_path / "other.dpdesk") as p:
        from dpdesk.project.people import respondents

        _sig, warnings = respondents.import_warnings(p, frame(100))
    assert warnings and "A.dpdesk" in warnings[0] and "already spent" in warnings[0]


def test_a_release_from_the_same_respondents_in_another_project_counts_their_spending(tmp_path, home, capsys):
    """Issue 21 audit, item 5, then issue 28: the spending of the same people in another project on this
    computer is named at release, and counted in this project's budget (the budget follows the people)."""
    a = author_project(tmp_path / "A.dpdesk")
    with Project.create(tmp_path / "new.dpdesk") as p:  # the same survey in a new project
        p.add_dataset("d", frame(100), source={"sha256": SHA})
        ledger.set_budget(p, 1)
        assert ledger.shared_spending(p) == []  # not "not in this budget": it is in it
    code, out, err = run(capsys, "release", tmp_path / "new.dpdesk", "--stat", "count", "--epsilon", "0.1")
    assert code == 0 and "in copies and other files of these people on this computer ε = 0.35" in out
    code, out, _ = run(capsys, "budget", tmp_path / "new.dpdesk")
    assert code == 0 and f"{a}: ε = 0.35 in 3 release(s) made there from the same people" in out
    with Project.open(a) as p:  # and back: A now counts new.dpdesk's spending
        assert ledger.budget_status(p).people_files == (str(tmp_path / "new.dpdesk"),)
