"""Issue 21, section 2: the spending of copies of a project counts against the same people's budget.

A copy made after releases shares its ledger up to where it split from the other file. The
releases each copy makes after the split, from the same respondents, are charged to the
budget of the other (dpdesk.project.ledger.copies): pure epsilon summed exactly, with a
delta composed by the accountant, the shared history counted once. API and command line;
the app half is tests/gui/test_gui_ledger_copies.py.
"""

from __future__ import annotations

import shutil
from fractions import Fraction

import pytest

from dpdesk.mechanisms import accounting
from dpdesk.project import Project, ledger
from dpdesk.project.ledger import heads
from tests.helpers.cli import run
from tests.project.test_ledger import SHA, frame
from tests.project.test_ledger_attacks import author_project

COUNT = {"statistic": "count", "epsilon": "0.1"}


@pytest.fixture
def home(tmp_path, monkeypatch):
    for var, sub in (("DPDESK_SETTINGS_DIR", "settings"), ("XDG_CONFIG_HOME", "config"), ("XDG_DATA_HOME", "data")):
        monkeypatch.setenv(var, str(tmp_path / sub))
    return tmp_path / "settings"


def status(path):
    with Project.open(path, read_only=True) as p:
        return ledger.budget_status(p)


def releases(path) -> int:
    with Project.open(path, read_only=True) as p:
        return len(ledger.ledger(p))


def split(tmp_path):
    """A (0.35 spent in three releases), copied to B, then 0.3 released in A: the split is at #3."""
    a = author_project(tmp_path / "A.dpdesk")
    b = tmp_path / "B.dpdesk"
    shutil.copyfile(a, b)
    with Project.open(a) as p:
        ledger.release(p, dict(COUNT, epsilon="0.3"))
    with Project.open(b) as p:
        ledger.accept_rollback(p, note="a copy for wave 2")
    return a, b


def test_a_copy_counts_the_other_copys_releases_after_the_split(tmp_path, home):
    a, b = split(tmp_path)
    s = status(b)
    assert (s.spent_here_epsilon, s.spent_epsilon, s.remaining_epsilon) == (
        Fraction(35, 100), Fraction(65, 100), Fraction(35, 100))  # the shared 0.35 once, A's 0.3 after the split
    assert s.copies == ((str(a), 1, "ε = 0.3"),) and s.copies_checked
    assert s.people_text == ("spent here ε = 0.35, in copies on this computer ε = 0.3, left ε = 0.35 of the "
                             "people's budget ε = 1")
    with Project.open(b) as p:
        with pytest.raises(ledger.BudgetExceeded) as exc:
            ledger.release(p, dict(COUNT, epsilon="0.4"))
        assert f"0.3 in {a} (1 release(s))" in str(exc.value) and "nothing was spent" in str(exc.value)
        assert "here ε = 0.35, in copies on this computer ε = 0.3" in str(exc.value)
        assert not ledger.preview(p, dict(COUNT, epsilon="0.4")).fits
        assert ledger.preview(p, dict(COUNT, epsilon="0.35")).fits
        assert ledger.shared_spending(p) == []  # counted, so not warned about as "not in this budget"
    assert releases(b) == 3 and releases(a) == 4  # the refusal cost nothing, anywhere
    with Project.open(b) as p:
        ledger.release(p, dict(COUNT, epsilon="0.25"))
    s = status(a)  # and back: A counts B's release after the split, not the shared history twice
    assert (s.spent_here_epsilon, s.spent_epsilon, s.remaining_epsilon) == (
        Fraction(65, 100), Fraction(90, 100), Fraction(10, 100))
    assert s.copies == ((str(b), 1, "ε = 0.25"),)
    assert status(b).remaining_epsilon == Fraction(10, 100)  # the same people, the same figure in both
    with Project.open(a) as p:  # both go on, neither blocks the other
        ledger.release(p, dict(COUNT, epsilon="0.04"))
    with Project.open(b) as p:
        ledger.release(p, dict(COUNT, epsilon="0.06"))
        with pytest.raises(ledger.BudgetExceeded) as exc:
            ledger.release(p, dict(COUNT, epsilon="0.01"))  # 0.35 + 0.31 + 0.34 spent: nothing is left
        assert "nothing is left" in str(exc.value)
    assert status(a).remaining_epsilon == status(b).remaining_epsilon == 0


def test_a_copy_of_a_copy_and_a_later_split_count_each_release_once(tmp_path, home):
    a, b = split(tmp_path)
    c = tmp_path / "C.dpdesk"
    with Project.open(b) as p:
        ledger.release(p, dict(COUNT, epsilon="0.11"))  # B at #4 (its own)
    shutil.copyfile(b, c)
    with Project.open(c) as p:
        ledger.release(p, dict(COUNT, epsilon="0.01"))  # C: B's history + #5
    s = status(c)  # A's 0.3 (after A split from B's history at #3) and nothing of B twice
    assert s.spent_here_epsilon == Fraction(47, 100) and s.spent_epsilon == Fraction(77, 100)
    assert s.copies == ((str(a), 1, "ε = 0.3"),)
    assert status(a).spent_epsilon == Fraction(65 + 11 + 1, 100)  # B's #4 and C's #5, each once


def test_with_a_delta_the_copies_are_composed_by_the_accountant(tmp_path, home):
    a = tmp_path / "A.dpdesk"
    with Project.create(a) as p:
        p.add_dataset("d", frame(100), source={"sha256": SHA})
        ledger.set_budget(p, 2, "1e-6")
        mine = [ledger.release(p, dict(COUNT, epsilon="0.1"))]
    b = tmp_path / "B.dpdesk"
    shutil.copyfile(a, b)
    with Project.open(a) as p:
        theirs = ledger.release(p, dict(COUNT, epsilon="0.3"))
    with Project.open(b) as p:
        ledger.accept_rollback(p)
        ledger.release(p, dict(COUNT, epsilon="0.2"))
        s = ledger.budget_status(p)
    with Project.open(b, read_only=True) as p:
        events = [accounting.from_record(e) for entry in ledger.ledger(p) for e in entry.noise_params["events"]]
    events += [accounting.from_record(e) for e in theirs.noise_params["events"]]
    assert s.spent_epsilon == accounting.epsilon(events, Fraction(1, 10**6))
    assert s.spent_epsilon >= Fraction(6, 10) - Fraction(1, 10**6) and len(mine) == 1


def test_a_missing_register_is_said_and_warns_as_before(tmp_path, home):
    a, b = split(tmp_path)
    heads.registry_path().unlink()
    s = status(b)
    assert not s.copies_checked and s.copies == () and "register of ledgers is missing" in s.copies_unchecked
    assert "could not be checked" in s.people_text
    with Project.open(b, read_only=True) as p:
        warnings = ledger.shared_spending(p)
    assert any("could not be checked" in w for w in warnings)
    assert any("A.dpdesk" in w and "already spent" in w for w in warnings)  # the respondents' registry, as today


def test_a_new_project_of_the_same_respondents_is_charged_their_spending(tmp_path, home):
    """Issue 28: the budget follows the people. Before, a new project from the same respondents was only
    warned about (0.9 went through after 0.65 spent on them); now the releases this computer made from them
    count against it (a project sharing only a few respondents is still only warned about:
    tests/project/test_ledger_people_attacks.py)."""
    a, _b = split(tmp_path)
    new = tmp_path / "new.dpdesk"
    with Project.create(new) as p:
        p.add_dataset("d", frame(100), source={"sha256": SHA})
        ledger.set_budget(p, 1)
        assert ledger.shared_spending(p) == []  # counted, so not warned about as "not in this budget"
        status = ledger.budget_status(p)
        assert status.spent_epsilon == Fraction("0.65") and str(a) in status.people_files
        with pytest.raises(ledger.BudgetExceeded, match="from the same people"):
            ledger.release(p, dict(COUNT, epsilon="0.9"))
        ledger.release(p, dict(COUNT, epsilon="0.3"))


def test_a_copys_release_from_other_people_is_not_charged(tmp_path, home):
    a = tmp_path / "A.dpdesk"
    with Project.create(a) as p:
        p.add_dataset("d", frame(100), source={"sha256": SHA})
        p.add_dataset("other", frame(150, seed=99), source={"sha256": "b" * 64})
        ledger.set_budget(p, 1)
        ledger.release(p, dict(COUNT, epsilon="0.1"), dataset="d")
    b = tmp_path / "B.dpdesk"
    shutil.copyfile(a, b)
    with Project.open(b) as p:
        p.remove_dataset("other")
    with Project.open(a) as p:
        ledger.release(p, dict(COUNT, epsilon="0.2"), dataset="other")  # people B does not hold
        ledger.release(p, dict(COUNT, epsilon="0.3"), dataset="d")  # people B holds
    with Project.open(b) as p:
        ledger.accept_rollback(p)
    s = status(b)
    assert s.spent_epsilon == Fraction(4, 10) and s.copies == ((str(a), 1, "ε = 0.3"),)


def test_the_issue_reproduction_on_the_command_line(tmp_path, home, capsys):
    """dpdesk new t.dpdesk; import, set a budget, release; cp to A and B; release in A, then in B."""
    t, a, b = (tmp_path / n for n in ("t.dpdesk", "A.dpdesk", "B.dpdesk"))
    data = tmp_path / "survey.csv"
    frame(200).to_csv(data, index=False)
    assert run(capsys, "new", t)[0] == 0
    assert run(capsys, "import", t, data)[0] == 0
    assert run(capsys, "budget", t, "--set", "1")[0] == 0
    assert run(capsys, "release", t, "--stat", "count", "--epsilon", "0.2")[0] == 0
    shutil.copyfile(t, a)
    shutil.copyfile(t, b)
    code, out, err = run(capsys, "release", a, "--stat", "count", "--epsilon", "0.3")
    assert code == 0, err
    assert run(capsys, "ledger", b, "--accept-rollback")[0] == 0  # once: B is a copy made at release #1
    code, out, err = run(capsys, "release", b, "--stat", "count", "--epsilon", "0.6")
    assert code != 0 and f"ε = 0.3 in {a.resolve()}" in err and "nothing was spent" in err
    code, out, err = run(capsys, "budget", b)
    assert code == 0 and "spent here ε = 0.2, in copies on this computer ε = 0.3, left ε = 0.5" in out
    assert f"{a.resolve()}: ε = 0.3 in 1 release(s)" in out
    code, out, err = run(capsys, "release", b, "--stat", "count", "--epsilon", "0.4")
    assert code == 0, err
    assert "Note:" not in err  # t.dpdesk's 0.2 is this ledger's release #1, A's 0.3 is counted: nothing to warn
    code, out, err = run(capsys, "ledger", a)
    assert code == 0 and "Ledger intact" in out
    assert "spent here ε = 0.5, in copies on this computer ε = 0.4, left ε = 0.1 of the people's budget" in out
    code, out, err = run(capsys, "release", a, "--stat", "count", "--epsilon", "0.1")
    assert code == 0, err  # neither blocks the other
    code, out, _ = run(capsys, "budget", b)
    assert "left ε = 0" in out and "left   ε = 0\n" in out
    code, out, _ = run(capsys, "budget", a, "--json")
    assert '"copies_text": "ε = 0.4"' in out
    import json

    code, out, _ = run(capsys, "ledger", a, "--json")
    budget = json.loads(out)["budget"]
    assert budget["spent_here_text"] == "ε = 0.6" and budget["copies_text"] == "ε = 0.4"
    assert budget["copies"] == [[str(b.resolve()), 1, "ε = 0.4"]] and budget["remaining_epsilon"] == "0"


def test_a_release_of_a_copy_made_by_an_older_dpdesk_is_read_from_that_copy_or_said_unchecked(tmp_path, home):
    """A register without the release's cost (written by a dpdesk before costs were recorded): the release
    is read from the other copy itself (its row must hash to the register's hash); with that copy gone,
    the figure says it could not be checked."""
    import sqlite3

    a, b = split(tmp_path)
    with sqlite3.connect(heads.registry_path()) as reg:
        reg.execute("DROP TABLE costs")  # a register written by a dpdesk before costs were recorded
    s = status(b)
    assert s.copies_checked and s.spent_epsilon == Fraction(65, 100) and s.copies == ((str(a), 1, "ε = 0.3"),)
    a.unlink()
    s = status(b)
    assert not s.copies_checked and s.spent_epsilon == Fraction(35, 100)
    assert "1 release(s) made in" in s.copies_unchecked and "could not be read" in s.copies_unchecked
    assert s.people_text.endswith("(the spending of copies on this computer could not be checked)")


def test_removing_the_shared_data_from_a_copy_does_not_hide_the_people_of_the_shared_history(tmp_path, home):
    a, b = split(tmp_path)  # A's 0.3 after the split was released from 'd'
    with Project.open(b) as p:
        p.remove_dataset("d")
        p.add_dataset("e", frame(120, seed=5), source={"sha256": "c" * 64})
    s = status(b)  # B's own releases read 'd' (the register recorded it): A's 'd' release is theirs too
    assert s.copies == ((str(a), 1, "ε = 0.3"),) and s.spent_epsilon == Fraction(65, 100)


def test_a_receipt_says_what_was_spent_here_and_in_copies(tmp_path, home):
    from dpdesk.project.ledger import receipts

    _a, b = split(tmp_path)
    with Project.open(b) as p:
        made = receipts.receipt(p)
    assert made.spent == "ε = 0.35 here and ε = 0.3 in copies on this computer (ε = 0.65 together) of ε = 1"


def test_two_copies_releasing_at_the_same_moment_never_spend_past_the_peoples_budget(tmp_path, home):
    """Threads releasing 0.01 at a time in A and in B at once: the 0.35 the two have left together is
    spent exactly, never more (one release at a time on this computer, from check to register)."""
    import threading

    a, b = split(tmp_path)  # 0.35 shared, 0.3 in A after the split: 0.35 left for both together
    tally = {str(a): 0, str(b): 0}
    errors = []

    def fire(path, offset):
        with Project.open(path) as p:
            for i in range(25):
                try:
                    ledger.release(p, {"statistic": "count", "epsilon": "0.01", "confidence": f"0.9{offset + i:04d}"})
                    tally[str(path)] += 1
                except ledger.BudgetExceeded:
                    pass
                except Exception as exc:  # noqa: BLE001 - any other outcome fails below
                    errors.append(repr(exc))

    threads = [threading.Thread(target=fire, args=(a, 0)), threading.Thread(target=fire, args=(b, 100))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert tally[str(a)] + tally[str(b)] == 35
    assert status(a).remaining_epsilon == status(b).remaining_epsilon == 0


def test_a_budget_lowered_in_one_copy_after_the_split_holds_in_the_other(tmp_path, home, capsys):
    """A lowers the budget to 0.8 after the split (B was confirmed before): the lower promise to the same
    people holds in B too, and B's refusal says where it was lowered and how to lower B's."""
    a, b = split(tmp_path)  # 0.35 shared + A's 0.3: 0.65 spent of the people's budget
    with Project.open(a) as p:
        ledger.lower_budget(p, "0.8")
    s = status(b)
    assert s.total_epsilon == 1 and s.remaining_epsilon == Fraction(15, 100)  # 0.8 - 0.65, not 1 - 0.65
    assert s.people_text.endswith(f"left ε = 0.15 of the people's budget ε = 0.8 (lowered in {a})")
    with Project.open(b) as p:
        assert not ledger.preview(p, dict(COUNT, epsilon="0.22")).fits
        with pytest.raises(ledger.BudgetExceeded) as exc:
            ledger.release(p, dict(COUNT, epsilon="0.22"))  # fits B's 1, not the people's 0.8
        assert f"lowered to ε = 0.8 in {a}" in str(exc.value) and "--set 0.8" in str(exc.value)
        assert "ε = 0.15 is left" in str(exc.value)
        ledger.release(p, dict(COUNT, epsilon="0.15"))
    assert releases(b) == 4 and status(a).remaining_epsilon == 0 == status(b).remaining_epsilon
    code, out, err = run(capsys, "budget", b)
    assert "of the people's budget ε = 0.8 (lowered in" in out
