"""Issue 28, part 2: receipts, the register and a lost key, as the attacks they stop (API and command line).

The author (computer A: a data folder of its own) releases 0.05, 0.1 and 0.2 (0.35 of 1).
"""

from __future__ import annotations

import os
import shutil
import sqlite3
from fractions import Fraction

import pytest

from dpdesk.errors import DpdeskError, ProjectError
from dpdesk.project import Project, ledger
from dpdesk.project.ledger import chain, heads, key
from tests.helpers.cli import run
from tests.project.test_ledger_attacks import home  # noqa: F401 - a fixture
from tests.project.test_ledger_attacks import COUNT, author_project, new_id_makes_a_rewrite_look_old, on
from tests.project.test_ledger_tamper import quietly, recompute_every_hash, verified


# ---------------------------------------------------------------- receipts


def test_a_budget_raised_after_a_receipt_fails_the_receipt_and_names_the_row(tmp_path, home, capsys):
    """Before: a row of epsilon 10 inserted (trigger dropped and restored) was "Receipt verified … the
    budget was lowered 1 time(s) since"."""
    path = author_project(tmp_path / "t.dpdesk", lowered=True)
    receipt = tmp_path / "receipt.txt"
    assert run(capsys, "ledger", path, "--receipt", receipt)[0] == 0
    with Project.open(path) as p:
        ledger.lower_budget(p, "0.45")  # a genuine lowering after the receipt
        assert ledger.verify_receipt(p, receipt.read_text()).ok
    quietly(path, "INSERT INTO budget(epsilon, delta, set_time) VALUES ('10', '0', '2030-01-01T00:00:00.000Z')")
    code, out, _ = run(capsys, "ledger", path, "--verify-receipt", receipt)
    assert code == 1 and "Receipt verified" not in out and "lowered" not in out.split("but")[-1].split(":")[0]
    assert "budget row 4 (ε = 10, set 2030-01-01T00:00:00.000Z), added after it, raises it" in out
    assert "every budget row after a receipt must lower the budget" in out
    with Project.open(path, read_only=True) as p:
        assert not ledger.verify_receipt(p, receipt.read_text()).ok


def test_a_budget_row_repeating_the_budget_or_for_one_dataset_after_a_receipt_fails_it(tmp_path, home):
    path = author_project(tmp_path / "t.dpdesk")
    with Project.open(path) as p:
        text = ledger.receipt(p).text
    quietly(path, "INSERT INTO budget(epsilon, delta, set_time) VALUES ('1', '0', '2030-01-01T00:00:00.000Z')")
    with Project.open(path, read_only=True) as p:
        result = ledger.verify_receipt(p, text)
    assert not result.ok and "does not lower it" in result.message


# ---------------------------------------------------------------- the register


def _split(tmp_path):
    """A (0.35), copied to B, then 0.3 released in A; B confirmed as a copy: 0.65 of the people's 1 spent."""
    a = author_project(tmp_path / "A.dpdesk")
    b = tmp_path / "B.dpdesk"
    shutil.copyfile(a, b)
    with Project.open(a) as p:
        ledger.release(p, dict(COUNT, epsilon="0.3"))
    with Project.open(b) as p:
        ledger.accept_rollback(p)
    return a, b


def _zero_link(path):
    path.unlink()
    path.symlink_to("/dev/zero")


def _truncated(path):
    os.truncate(path, 0)


def _cut_short(path):
    os.truncate(path, 1000)


def _cut_at_a_page(path):
    os.truncate(path, 4096)


def _garbage(path):
    path.write_bytes(b"not a database " * 500)


def _folder(path):
    path.unlink()
    path.mkdir()


def _fifo(path):
    path.unlink()
    os.mkfifo(path)


def _dangling_link(path):
    path.unlink()
    path.symlink_to(path.with_name("gone.sqlite"))


def _another_database(path):
    path.unlink()
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE t (x)")
    conn.commit()
    conn.close()


def _emptied(path):
    conn = sqlite3.connect(path)
    for (table,) in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'").fetchall():
        conn.execute(f"DELETE FROM {table}")
    conn.commit()
    conn.close()


DAMAGES = (_emptied, _zero_link, _truncated, _cut_short, _cut_at_a_page, _garbage, _folder, _fifo, _dangling_link,
           _another_database)


@pytest.mark.parametrize("damage", DAMAGES, ids=lambda f: f.__name__.strip("_"))
def test_a_register_that_is_not_one_stops_releases_and_never_reads_as_empty(tmp_path, home, damage, capsys):
    """Before: a register linked to /dev/zero or truncated read as empty, releases went on, and the spending
    of a copy went uncounted (1.25 of 1). Every unreadable or implausible register stops releases the same way."""
    _a, b = _split(tmp_path)
    damage(heads.registry_path())
    with Project.open(b) as p:
        with pytest.raises(ProjectError, match="damaged or not a register"):
            ledger.verify_ledger(p)
        with pytest.raises(DpdeskError, match="damaged or not a register"):
            ledger.release(p, dict(COUNT, epsilon="0.6"))
        assert len(ledger.ledger(p)) == 3  # nothing was spent
    code, _out, err = run(capsys, "release", b, "--stat", "count", "--epsilon", "0.6")
    assert code != 0 and "damaged or not a register" in err and "Traceback" not in err
    code, _out, err = run(capsys, "ledger", b)
    assert code != 0 and "Restore it from a backup of your data folder" in err


def test_a_register_moved_aside_is_made_again_whole_and_the_release_says_what_it_could_not_check(tmp_path, home,
                                                                                                capsys):
    _a, b = _split(tmp_path)
    heads.registry_path().rename(tmp_path / "old-register.sqlite")
    code, out, err = run(capsys, "release", b, "--stat", "count", "--epsilon", "0.02")
    assert code == 0 and "could not be checked" in out + err  # a missing register: the release goes on, said
    register = sqlite3.connect(heads.registry_path())
    tables = {r[0] for r in register.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    register.close()
    assert {"heads", "releases", "costs", "people", "spent_on", "keys"} <= tables


# ---------------------------------------------------------------- a lost key


def test_a_lost_key_is_said_as_a_missing_key_never_as_an_edit_and_re_keying_goes_on(tmp_path, home, capsys):
    """Before: with ledger.key deleted and the register kept, every project said "edited outside dpdesk …
    Restore the project from a backup", which is false and cannot help."""
    path = author_project(tmp_path / "t.dpdesk")
    other = author_project(tmp_path / "other.dpdesk")
    old_id = key.load().id
    key.key_path().unlink()
    check = verified(path)
    assert check.intact and not check.ok and check.rollback_kind == "key" and check.confirmable
    assert f"this computer's own ledger key (key id {old_id}" in check.rollback and "is missing from" in check.rollback
    assert "edited outside dpdesk" not in check.headline and "key" in check.headline
    assert "Restore the project from a backup" not in check.message(path)
    assert "a backup cannot help" in check.message(path).replace("restoring the project from a backup cannot help",
                                                                 "a backup cannot help")
    with Project.open(path) as p:
        with pytest.raises(ledger.LedgerRolledBackError, match="ledger key"):
            ledger.release(p, dict(COUNT, epsilon="0.01"))
    assert not key.key_path().exists()  # a check or a refused release never makes a key
    code, out, _ = run(capsys, "ledger", path)
    assert code == 1 and "edited outside dpdesk" not in out and "--rekey" in out
    code, out, _ = run(capsys, "ledger", path, "--rekey", "--note", "laptop reinstalled")
    assert code == 0 and f"sealed with this computer's former ledger key (key id {old_id})" in out
    new_id = key.load().id
    assert new_id != old_id and f"sealed with key id {new_id}" in out
    check = verified(path)
    assert check.ok and check.trust == chain.KEY and f"former key, id {old_id}, which was lost" in check.trust_text
    with Project.open(path) as p:
        ledger.release(p, dict(COUNT, epsilon="0.01"))
        status = ledger.budget_status(p)  # other.dpdesk holds the same people: its 0.35 counts here too
        assert status.spent_here_epsilon == Fraction("0.36") and status.spent_epsilon == Fraction("0.71")
    code, out, _ = run(capsys, "ledger", path)
    assert code == 0 and "Re-keyed on" in out and "laptop reinstalled" in out
    check = verified(other)  # another project of the lost key, now that a new key exists
    assert check.rollback_kind == "key" and "no longer this computer's key" in check.rollback
    with Project.open(other) as p:
        ledger.rekey(p)
    assert verified(other).ok


def test_an_edit_made_while_the_key_was_lost_is_still_an_edit_and_cannot_be_re_keyed(tmp_path, home, capsys):
    path = author_project(tmp_path / "t.dpdesk")
    key.key_path().unlink()
    new_id_makes_a_rewrite_look_old(path)
    check = verified(path)
    assert check.problems and "edited outside dpdesk" in check.headline
    code, _out, err = run(capsys, "ledger", path, "--rekey")
    assert code != 0 and "edited outside dpdesk" in err


def test_a_state_the_register_never_held_cannot_be_re_keyed(tmp_path, home):
    path = author_project(tmp_path / "t.dpdesk")
    head = verified(path).head
    key.key_path().unlink()
    register = sqlite3.connect(heads.registry_path())
    register.execute("DELETE FROM releases WHERE hash = ?", (head,))  # this computer never saw release #3
    register.commit()
    register.close()
    check = verified(path)
    assert check.rollback_kind == "key" and not check.confirmable and "cannot be re-keyed here" in check.message(path)
    with Project.open(path) as p:
        with pytest.raises(DpdeskError, match="never sealed or saw"):
            ledger.rekey(p)


def test_lowering_the_budget_of_a_file_sealed_with_a_lost_key_does_not_re_key_it(tmp_path, home):
    path = author_project(tmp_path / "t.dpdesk")
    key.key_path().unlink()
    with Project.open(path) as p:
        ledger.lower_budget(p, "0.9")
    assert verified(path).rollback_kind == "key"


# ---------------------------------------------------------------- the owner's own key


def test_the_owner_resealing_a_rewrite_with_the_key_and_leaving_the_register_is_an_edit(tmp_path, home, capsys):
    """Before: "verified with this computer's key". The rule "release #k+1 differs from one your computer
    sealed after #k: edited" holds under this computer's own seal too."""
    path = author_project(tmp_path / "t.dpdesk")
    new_id_makes_a_rewrite_look_old(path)  # release #3 cut from 0.2 to 0.002
    conn = sqlite3.connect(path)
    conn.row_factory = sqlite3.Row
    n, head = conn.execute("SELECT seq, hash FROM releases ORDER BY seq DESC LIMIT 1").fetchone()
    chain.record_head(conn, n, head, str(path), new=False)  # sealed with the key the owner can read
    conn.commit()
    conn.close()
    check = verified(path)
    assert not check.ok and check.problems[0].startswith("release #3 is not the one this computer sealed")
    assert "verified with this computer's key" not in check.headline
    code, out, _ = run(capsys, "ledger", path)
    assert code == 1 and "edited outside dpdesk" in out
    with Project.open(path) as p:
        with pytest.raises(ledger.LedgerTamperedError):
            ledger.release(p, dict(COUNT, epsilon="0.6"))


def test_the_owner_resealing_a_history_rewritten_from_its_first_release_is_an_edit(tmp_path, home):
    path = author_project(tmp_path / "t.dpdesk")
    quietly(path, "UPDATE releases SET result = '{}' WHERE seq = 1")
    recompute_every_hash(path)
    conn = sqlite3.connect(path)
    conn.row_factory = sqlite3.Row
    n, head = conn.execute("SELECT seq, hash FROM releases ORDER BY seq DESC LIMIT 1").fetchone()
    chain.record_head(conn, n, head, str(path), new=False)
    conn.commit()
    conn.close()
    check = verified(path)
    assert not check.ok and "although it carries this computer's seal" in check.problems[0]


# ---------------------------------------------------------------- "this computer" is this user's data folder


def test_another_account_on_the_same_machine_is_another_computer_and_the_docs_say_so(tmp_path, home, monkeypatch):
    """A copy released under another account spent 1.55 of 1 on the same people: each account's data folder
    has its own register, which dpdesk cannot see from another account. The README says so plainly."""
    _a, b = _split(tmp_path)
    on(monkeypatch, tmp_path / "another-account")
    with Project.open(b) as p:
        assert ledger.budget_status(p).copies == ()  # not known there: the documented limit
    from tests.helpers.paths import ROOT

    readme = " ".join((ROOT / "README.md").read_text(encoding="utf-8").split())
    assert "\"This computer\" means this user's data folder" in readme
    assert "a release then goes ahead without that check" in readme
    guide = " ".join((ROOT / "docs" / "guide" / "project-files.md").read_text(encoding="utf-8").split())
    assert "means **this user's data folder**" in guide and "**a release goes ahead without that check**" in guide


@pytest.mark.parametrize("damage", (_zero_link, _fifo, _folder), ids=lambda f: f.__name__.strip("_"))
def test_a_key_that_is_not_a_key_file_stops_releases_and_is_never_read(tmp_path, home, damage, capsys):
    """A ledger.key linked to /dev/zero would be read forever, a FIFO would block: neither is opened."""
    path = author_project(tmp_path / "t.dpdesk")
    damage(key.key_path())
    with Project.open(path) as p:
        with pytest.raises(ProjectError, match="ledger key .* is damaged"):
            ledger.release(p, dict(COUNT, epsilon="0.01"))
    code, _out, err = run(capsys, "release", path, "--stat", "count", "--epsilon", "0.01")
    assert code != 0 and "is damaged" in err and "Traceback" not in err
