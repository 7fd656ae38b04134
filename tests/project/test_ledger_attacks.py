"""Issue 21: edits made without this computer's key never pass as intact (API and command line).

The author (computer A: a data folder of its own, with its key and register) makes three
releases (0.05, 0.1, 0.2: 0.35 of 1 spent), in some cases then lowers the budget to 0.5. A
colleague on computer B edits a copy with sqlite3, or with their own dpdesk, and sends it
back; the author opens it on A. ``ATTACKS`` names each edit; every one must be reported as
changed outside dpdesk, and no release (of 0.6, which the real spending refuses) accepted.
The GUI half is tests/gui/test_gui_ledger_attacks.py.
"""

from __future__ import annotations

import json
import shutil
import sqlite3
from fractions import Fraction

import pytest

from dpdesk.errors import BudgetError
from dpdesk.project import Project, ledger
from dpdesk.project.ledger import chain, heads, key
from tests.helpers.cli import run
from tests.project.test_ledger import SHA, frame
from tests.project.test_ledger_tamper import app_value, quietly, recompute_every_hash, sql, verified

COUNT = {"statistic": "count", "epsilon": "0.1"}
BIG = dict(COUNT, epsilon="0.6")


@pytest.fixture
def home(tmp_path, monkeypatch):
    folder = tmp_path / "computer-a"
    monkeypatch.setenv("DPDESK_SETTINGS_DIR", str(folder))
    return folder


def on(monkeypatch, folder):
    monkeypatch.setenv("DPDESK_SETTINGS_DIR", str(folder))


def author_project(path, lowered=False):
    with Project.create(path) as project:
        project.add_dataset("d", frame(100), source={"sha256": SHA})
        ledger.set_budget(project, 1)
        for eps in ("0.05", "0.1", "0.2"):
            ledger.release(project, dict(COUNT, epsilon=eps))
        if lowered:
            ledger.lower_budget(project, "0.5")
    return path


# ---------------------------------------------------------------- the colleague's edits


def new_id_makes_a_rewrite_look_old(path, **_):
    """Release #3 from 0.2 to 0.002, the public chain recomputed, the seal deleted, a new project id."""
    quietly(path, "UPDATE releases SET cost = replace(cost, '\"epsilon\":\"1/5\"', '\"epsilon\":\"1/500\"'), "
            "noise_params = replace(noise_params, '\"scale\":\"5\"', '\"scale\":\"500\"') WHERE seq = 3",
            "DELETE FROM app WHERE key = 'ledger_seal'",
            "UPDATE app SET value = 'p-colleague' WHERE key = 'project_id'")
    recompute_every_hash(path)


def edit_and_seal_deleted(path, **_):
    """The same edit, the project id kept: the case where the old advice was to confirm a rollback."""
    quietly(path, "UPDATE releases SET cost = replace(cost, '\"epsilon\":\"1/5\"', '\"epsilon\":\"1/500\"'), "
            "noise_params = replace(noise_params, '\"scale\":\"5\"', '\"scale\":\"500\"') WHERE seq = 3",
            "DELETE FROM app WHERE key = 'ledger_seal'")
    recompute_every_hash(path)


def _forged_seal(path, key_id="0123456789abcdef"):
    seal = json.loads(app_value(path, "ledger_seal"))
    seal.update(key_id=key_id, mac="0" * 64, since=0)
    sql(path, "UPDATE app SET value = ? WHERE key = 'ledger_seal'", params=(json.dumps(seal),))


def foreign_seal_wipes_a_lowered_budget(path, **_):
    quietly(path, "DELETE FROM budget WHERE epsilon = '1/2'")
    _forged_seal(path)


def foreign_release_wipes_a_lowered_budget(path, monkeypatch, tmp_path, **_):
    quietly(path, "DELETE FROM budget WHERE epsilon = '1/2'")
    on(monkeypatch, tmp_path / "computer-b")
    with Project.open(path) as p:
        ledger.release(p, dict(COUNT, epsilon="0.01"))
    on(monkeypatch, tmp_path / "computer-a")


def foreign_seal_over_the_same_history(path, **_):
    _forged_seal(path)


def last_release_seal_and_id_deleted(path, **_):
    conn = sqlite3.connect(path)
    prev = conn.execute("SELECT hash FROM releases WHERE seq = 2").fetchone()[0]
    conn.close()
    quietly(path, "DELETE FROM releases WHERE seq = 3", f"UPDATE app SET value = '2:{prev}' WHERE key = 'ledger_head'",
            "DELETE FROM app WHERE key IN ('ledger_seal', 'project_id')")


def first_release_rewritten_with_a_new_id(path, **_):
    quietly(path, "UPDATE releases SET cost = replace(cost, '\"epsilon\":\"1/20\"', '\"epsilon\":\"1/2000\"'), "
            "noise_params = replace(noise_params, '\"scale\":\"20\"', '\"scale\":\"2000\"') WHERE seq = 1",
            "DELETE FROM app WHERE key = 'ledger_seal'",
            "UPDATE app SET value = 'p-colleague' WHERE key = 'project_id'")
    recompute_every_hash(path)


def rewrite_then_release_elsewhere(path, monkeypatch, tmp_path, **_):
    """Release #3 rewritten, then released upon on computer B: B's seal covers the rewrite."""
    new_id_makes_a_rewrite_look_old(path)
    on(monkeypatch, tmp_path / "computer-b")
    with Project.open(path) as p:
        ledger.release(p, dict(COUNT, epsilon="0.01"))
    on(monkeypatch, tmp_path / "computer-a")


_REWRITE_FROM_THE_FIRST = (
    "UPDATE releases SET cost = replace(cost, '\"epsilon\":\"1/20\"', '\"epsilon\":\"1/2000\"'), "
    "noise_params = replace(noise_params, '\"scale\":\"20\"', '\"scale\":\"2000\"') WHERE seq = 1",
    "UPDATE budget SET set_time = '2020-01-01T00:00:00.000Z' WHERE id = 1",  # another budget history
    "DELETE FROM budget WHERE epsilon = '1/2'",
    "DELETE FROM app WHERE key = 'ledger_seal'",
    "UPDATE app SET value = 'p-colleague' WHERE key = 'project_id'")


def full_rewrite_with_a_new_id(path, **_):
    """Audit of issue 21: release #1 rewritten, the first budget row's time changed, the lowered budget
    dropped, a new project id, no seal. Before: "Ledger intact … structure only", budget 1, 0.6 accepted.
    Only the data (the same import, the same SHA-256) are left to recognise it by."""
    quietly(path, *_REWRITE_FROM_THE_FIRST)
    recompute_every_hash(path)


def every_release_and_the_lowered_budget_deleted(path, **_):
    """Audit of issue 21: before, "Ledger intact: 0 release(s)" and a release of 0.9 accepted."""
    quietly(path, "DELETE FROM releases", "DELETE FROM budget WHERE epsilon = '1/2'",
            "UPDATE budget SET set_time = '2020-01-01T00:00:00.000Z' WHERE id = 1",
            "DELETE FROM app WHERE key IN ('ledger_seal', 'ledger_head')",
            "UPDATE app SET value = 'p-colleague' WHERE key = 'project_id'")


def forged_upgrade_note_over_a_full_rewrite(path, **_):
    """Audit of issue 21: one app row, ledger_unsealed_at_upgrade = "3:<head>", made the full rewrite read
    "not sealed: made by a dpdesk before ledgers were sealed". The file's own claim is not taken as fact:
    this computer sealed a ledger over that very import."""
    full_rewrite_with_a_new_id(path)
    head = app_value(path, "ledger_head")
    quietly(path, "INSERT OR REPLACE INTO app(key, value) VALUES ('ledger_unsealed_at_upgrade', ?)", params=(head,))


ATTACKS = {  # edit -> the author's budget was lowered to 0.5 first
    new_id_makes_a_rewrite_look_old: False,
    edit_and_seal_deleted: False,
    foreign_seal_wipes_a_lowered_budget: True,
    foreign_release_wipes_a_lowered_budget: True,
    foreign_seal_over_the_same_history: False,
    last_release_seal_and_id_deleted: False,
    first_release_rewritten_with_a_new_id: False,
    rewrite_then_release_elsewhere: False,
    full_rewrite_with_a_new_id: True,
    every_release_and_the_lowered_budget_deleted: True,
    forged_upgrade_note_over_a_full_rewrite: True,
}


def full_rewrite_under_a_forged_foreign_seal(path, **_):
    """Audit of issue 21: the full rewrite under a seal with any key id and a MAC of zeros passed. A seal
    of another computer cannot be checked here, and a colleague's own project made elsewhere from the
    same respondents looks the same: releases stop until the author confirms, never silently."""
    seal = app_value(path, "ledger_seal")
    full_rewrite_with_a_new_id(path)
    sql(path, "INSERT INTO app(key, value) VALUES ('ledger_seal', ?)", params=(seal,))
    _forged_seal(path)


def every_release_deleted_under_a_forged_foreign_seal(path, **_):
    seal = app_value(path, "ledger_seal")
    every_release_and_the_lowered_budget_deleted(path)
    sql(path, "INSERT INTO app(key, value) VALUES ('ledger_seal', ?)", params=(seal,))
    _forged_seal(path)


#: edits that cannot be told from a project of its own made elsewhere from the same respondents: stopped
#: until the author confirms (edit -> the author's budget was lowered to 0.5 first)
STOPPED = {
    full_rewrite_under_a_forged_foreign_seal: True,
    every_release_deleted_under_a_forged_foreign_seal: True,
}


@pytest.fixture(params=list(ATTACKS), ids=lambda f: f.__name__)
def attacked(request, tmp_path, home, monkeypatch):
    path = author_project(tmp_path / "t.dpdesk", lowered=ATTACKS[request.param])
    with Project.open(path) as p:
        assert ledger.verify_ledger(p).ok  # the author saw it intact, sealed
    request.param(path, monkeypatch=monkeypatch, tmp_path=tmp_path)
    return path


def test_every_attack_is_reported_as_changed_outside_dpdesk(attacked):
    check = verified(attacked)
    assert check.problems and not check.ok, check.headline
    assert "edited outside dpdesk" in check.headline and "verified" not in check.headline
    with Project.open(attacked) as p:
        with pytest.raises(ledger.LedgerTamperedError, match="edited outside dpdesk"):
            ledger.release(p, BIG)
        assert not ledger.preview(p, BIG).fits and not ledger.budget_status(p).ledger_intact
        with pytest.raises(ledger.LedgerTamperedError):  # an edit is never confirmed away
            ledger.accept_rollback(p)
    assert not verified(attacked).ok  # and stays reported


def test_every_attack_through_the_command_line(attacked, capsys):
    code, out, _ = run(capsys, "ledger", attacked)
    assert code == 1 and "was edited outside dpdesk" in out and "Ledger intact" not in out
    code, out, _ = run(capsys, "ledger", attacked, "--json")
    assert code == 1 and json.loads(out)["problems"] and not json.loads(out)["intact"]
    code, out, err = run(capsys, "release", attacked, "--stat", "count", "--epsilon", "0.6")
    assert code != 0 and "edited outside dpdesk" in err
    code, out, err = run(capsys, "ledger", attacked, "--accept-rollback")
    assert code != 0 and "edited outside dpdesk" in err
    code, out, err = run(capsys, "ledger", attacked, "--receipt")
    assert code != 0 and "No receipt can be made" in err


@pytest.fixture(params=list(STOPPED), ids=lambda f: f.__name__)
def stopped(request, tmp_path, home, monkeypatch):
    path = author_project(tmp_path / "t.dpdesk", lowered=STOPPED[request.param])
    request.param(path, monkeypatch=monkeypatch, tmp_path=tmp_path)
    return path


def test_a_foreign_seal_over_data_released_here_stops_releases_until_confirmed(stopped, capsys):
    check = verified(stopped)
    assert check.intact and not check.ok and check.rollback_kind == "shared" and check.confirmable
    assert "it holds the data 'd' that this computer released from" in check.rollback
    assert "budget ε = 0.5" in check.rollback and "key id 0123456789abcdef" in check.rollback
    assert "Ledger intact" not in check.headline and "holds data this computer released from" in check.headline
    with Project.open(stopped) as p:
        with pytest.raises(ledger.LedgerRolledBackError, match="released from"):
            ledger.release(p, BIG)
        assert not ledger.preview(p, BIG).fits and "holds data this computer released from" in ledger.preview(
            p, BIG).message
        ledger.lower_budget(p, "0.9")  # lowering a budget does not make the history this computer's
        with pytest.raises(ledger.LedgerRolledBackError):
            ledger.release(p, BIG)
    assert verified(stopped).rollback_kind == "shared"
    code, out, _ = run(capsys, "ledger", stopped)
    assert code == 1 and "Ledger intact" not in out and "released from" in out and "--accept-rollback" in out
    code, out, err = run(capsys, "release", stopped, "--stat", "count", "--epsilon", "0.6")
    assert code != 0 and "released from" in err
    code, out, _ = run(capsys, "ledger", stopped, "--accept-rollback")  # the author decides, knowingly
    assert code == 0 and "it is a project of its own" in out and "the same respondents" in out
    assert verified(stopped).ok


def test_a_project_of_its_own_from_the_same_data_on_this_computer_is_not_stopped(tmp_path, home):
    author_project(tmp_path / "t.dpdesk")
    with Project.create(tmp_path / "new.dpdesk") as p:  # the same survey, a new project, here
        p.add_dataset("d", frame(100), source={"sha256": SHA})
        ledger.set_budget(p, 1)
        ledger.release(p, dict(COUNT, epsilon="0.3"))
    assert verified(tmp_path / "new.dpdesk").ok


def test_the_new_id_attack_in_the_issue_words(tmp_path, home):
    """Before: "Ledger intact … (not sealed: made by a dpdesk before ledgers were sealed)", spent 0.152,
    a release of 0.6 accepted."""
    path = author_project(tmp_path / "t.dpdesk")
    new_id_makes_a_rewrite_look_old(path)
    check = verified(path)
    assert check.problems == [f"release #3 is not the one this computer sealed on {check.problems[0].split(' on ')[1]}"]
    assert "rewritten from there (whatever seal or project id the file now carries)" in check.problems[0]
    assert "made by a dpdesk before ledgers were sealed" not in check.trust_text
    with Project.open(path) as p:
        assert ledger.budget_status(p).spent_epsilon == Fraction("0.152")  # what the edit claims ...
        with pytest.raises(ledger.LedgerTamperedError):
            ledger.release(p, BIG)  # ... is not believed


def test_a_forged_upgrade_note_is_the_file_s_claim_not_a_fact(tmp_path, home, capsys):
    path = author_project(tmp_path / "t.dpdesk", lowered=True)
    forged_upgrade_note_over_a_full_rewrite(path)
    check = verified(path)
    assert check.problems and "although the file says it was made by a dpdesk before ledgers were sealed" \
        in check.problems[0] and "this computer sealed a ledger over that very import" in check.problems[0]
    code, out, _ = run(capsys, "ledger", path)
    assert code == 1 and "the file says" in out and "not sealed: made by a dpdesk" not in out


def test_an_old_unsealed_project_of_the_same_data_is_stopped_until_confirmed_not_called_an_edit(
        tmp_path, home, monkeypatch, capsys):
    """A file that says it was made before seals (an upgrade note naming its head), holding the same data
    imported in another project: either an old project of its own or a rewrite. Stopped, confirmable."""
    author_project(tmp_path / "t.dpdesk")
    old = tmp_path / "old.dpdesk"
    on(monkeypatch, tmp_path / "old-computer")
    with Project.create(old) as p:  # the same survey imported again, elsewhere
        p.add_dataset("d", frame(100), source={"sha256": SHA})
        ledger.set_budget(p, 1)
        ledger.release(p, dict(COUNT, epsilon="0.3"))
    head = app_value(old, "ledger_head")
    quietly(old, "DELETE FROM app WHERE key IN ('ledger_seal', 'project_id')",
            "INSERT INTO app(key, value) VALUES ('ledger_unsealed_at_upgrade', ?)", params=(head,))
    on(monkeypatch, tmp_path / "computer-a")
    check = verified(old)
    assert check.intact and not check.ok and check.rollback_kind == "shared" and check.confirmable
    assert "the file says its ledger was made by a dpdesk before ledgers were sealed" in check.rollback
    code, out, _ = run(capsys, "ledger", old, "--accept-rollback")
    assert code == 0 and "a project of its own" in out
    assert verified(old).ok


def test_a_register_made_by_an_older_dpdesk_learns_the_data_on_the_next_open(tmp_path, home):
    path = author_project(tmp_path / "t.dpdesk", lowered=True)
    register = sqlite3.connect(heads.registry_path())
    register.execute("DROP TABLE data")
    register.execute("DROP TABLE floors")
    register.commit()
    register.close()
    assert verified(path).ok  # read with the older register's tables, then the data recorded again
    copy = tmp_path / "copy.dpdesk"
    shutil.copyfile(path, copy)
    full_rewrite_with_a_new_id(copy)
    assert "it holds the data 'd' that this computer released from" in verified(copy).problems[0]


def test_the_limit_every_release_and_budget_row_deleted_reads_as_a_new_project_but_is_named(tmp_path, home,
                                                                                             capsys):
    """With its whole ledger deleted, a file is data imported into a project with no budget, as a new
    project from the same survey would be: dpdesk cannot stop it, but it says so on open and at release."""
    path = author_project(tmp_path / "t.dpdesk", lowered=True)
    quietly(path, "DELETE FROM releases", "DELETE FROM budget",
            "DELETE FROM app WHERE key IN ('ledger_seal', 'ledger_head', 'project_id')")
    check = verified(path)
    assert check.ok and "it holds the data 'd' that this computer released from" in check.trust_text
    assert "or that project with its whole ledger deleted" in check.trust_text
    code, out, _ = run(capsys, "ledger", path)
    assert code == 0 and "that project with its whole ledger deleted" in out
    assert run(capsys, "budget", path, "--set", "1")[0] == 0  # the spending of the original is named at release
    code, out, err = run(capsys, "release", path, "--stat", "count", "--epsilon", "0.6")
    assert code == 0 and "Note: This computer released from the same respondents in this very file" in err
    assert "ε = 0.35 spent), but its ledger now holds no release" in err


def test_the_foreign_seal_attack_names_the_rewrite(tmp_path, home):
    path = author_project(tmp_path / "t.dpdesk", lowered=True)
    foreign_seal_wipes_a_lowered_budget(path)
    check = verified(path)
    assert check.problems == ["the seal this computer put on the ledger at release #3 was replaced by the seal of "
                              "another computer (key id 0123456789abcdef): a foreign seal over a history this "
                              "computer sealed is a rewrite"]


def test_a_lowered_budget_wiped_under_a_foreign_release_is_named(tmp_path, home, monkeypatch):
    path = author_project(tmp_path / "t.dpdesk", lowered=True)
    foreign_release_wipes_a_lowered_budget(path, monkeypatch=monkeypatch, tmp_path=tmp_path)
    check = verified(path)
    assert len(check.problems) == 1 and check.problems[0].startswith(
        "the budget rows are not the ones this computer sealed at release #3")


# ---------------------------------------------------------------- what stays allowed


def test_a_file_released_upon_on_another_computer_comes_back_intact(tmp_path, home, monkeypatch):
    path = author_project(tmp_path / "t.dpdesk", lowered=True)
    on(monkeypatch, tmp_path / "computer-b")
    with Project.open(path) as p:
        ledger.release(p, dict(COUNT, epsilon="0.01"))
        ledger.lower_budget(p, "0.45")  # lowering elsewhere adds a row: it extends the ones sealed here
    on(monkeypatch, tmp_path / "computer-a")
    check = verified(path)
    assert check.ok and check.trust == chain.STRUCTURE and "sealed on another computer" in check.trust_text
    with Project.open(path) as p:
        ledger.release(p, dict(COUNT, epsilon="0.02"))
    assert verified(path).trust == chain.KEY


def test_an_older_state_sealed_here_is_a_rollback_confirmed_only_to_it(tmp_path, home, capsys):
    """A copy from before the budget was lowered carries this computer's own seal: not an edit, a
    rollback, which may be confirmed (it is a state this computer sealed)."""
    path = author_project(tmp_path / "t.dpdesk")
    older = tmp_path / "older.dpdesk"
    shutil.copyfile(path, older)
    with Project.open(path) as p:
        ledger.lower_budget(p, "0.5")
    shutil.copyfile(older, path)
    check = verified(path)
    assert check.intact and not check.ok and check.confirmable
    assert "privacy budget is the one from before this computer lowered it to ε = 0.5" in check.rollback
    code, out, _ = run(capsys, "ledger", path)
    assert code == 1 and "confirming keeps the lower budget" in out and "may already be published" not in out
    code, out, _ = run(capsys, "ledger", path, "--accept-rollback")
    assert code == 0 and "Rollback confirmed" in out
    assert "goes on at release #3 with the budget rows of a state this computer sealed before it lowered" in out
    assert "although this computer had seen release #3" not in out
    assert "lowered back to ε = 0.5, the lowest this computer sealed for this history" in out
    assert verified(path).ok
    code, out, _ = run(capsys, "ledger", path)  # the listing says what was confirmed
    assert "went on at release #3 with the budget rows from before the budget was lowered. The budget was " \
        "lowered back to ε = 0.5." in out and "had been seen" not in out
    with Project.open(path) as p:  # a confirmed rollback never raises a budget
        assert ledger.budget_status(p).total_epsilon == Fraction(1, 2)
        with pytest.raises(ledger.BudgetExceeded):
            ledger.release(p, dict(COUNT, epsilon="0.16"))  # 0.35 + 0.16 > 0.5


def test_a_copy_from_before_the_budget_was_lowered_keeps_the_lower_budget_through_the_api(tmp_path, home):
    """Audit of issue 21: a genuine copy from before 1 -> 0.5 was confirmable, and confirming it brought
    budget 1 back. The register keeps the lowest budget sealed for the history; confirming lowers the
    file back to it, and says so."""
    path = author_project(tmp_path / "t.dpdesk")
    older = tmp_path / "older.dpdesk"
    shutil.copyfile(path, older)
    with Project.open(path) as p:
        ledger.lower_budget(p, "0.5")
        ledger.release(p, dict(COUNT, epsilon="0.01"))  # release #4, under 0.5
    check = verified(older)  # a copy made at #3, under budget 1
    assert check.confirmable and check.copy and check.rollback_kind == "behind"
    with Project.open(older) as p:
        record = ledger.accept_rollback(p)
        assert record["budget_lowered_to"] == "ε = 0.5" and record["copy"]
        status = ledger.budget_status(p)
        # the copy's own 0.35, and t.dpdesk's release #4 after the split (the same people's budget)
        assert status.total_epsilon == Fraction(1, 2) and status.spent_here_epsilon == Fraction(35, 100)
        assert status.spent_epsilon == Fraction(36, 100)
        with pytest.raises(ledger.BudgetExceeded):
            ledger.release(p, dict(COUNT, epsilon="0.15"))
        ledger.release(p, dict(COUNT, epsilon="0.11"))
    assert verified(older).ok and verified(path).ok  # both copies go on
    from dpdesk.project.ledger.rewind import confirmed_text

    text = confirmed_text(record)
    assert "this copy goes on from release #3" in text and "release #4 stays recorded there" in text
    assert "no longer counted" not in text and "never published" not in text
    assert "lowered back to ε = 0.5" in text


def test_a_rollback_to_a_state_never_seen_here_cannot_be_confirmed(tmp_path, home, monkeypatch, capsys):
    """The officer's computer saw release #4; a file that went another way after #3 on the author's
    computer is behind what it saw, and not a state it saw: it cannot be confirmed there."""
    path = author_project(tmp_path / "t.dpdesk")
    fork = tmp_path / "fork.dpdesk"
    shutil.copyfile(path, fork)
    with Project.open(path) as p:
        ledger.release(p, dict(COUNT, epsilon="0.01"))
    on(monkeypatch, tmp_path / "officer")
    assert verified(path).ok
    on(monkeypatch, tmp_path / "computer-a")
    with Project.open(fork) as p:
        ledger.accept_rollback(p)  # the author: a copy made at #3 (a state sealed here)
        ledger.release(p, dict(COUNT, epsilon="0.02"))
    on(monkeypatch, tmp_path / "officer")
    check = verified(fork)
    assert check.intact and not check.ok and not check.confirmable
    assert "its release #4 is not the one this computer saw" in check.rollback
    assert "cannot be confirmed here" in check.message(fork) and "cannot be confirmed here" in check.headline
    with Project.open(fork) as p:
        with pytest.raises(BudgetError, match="never sealed or saw"):
            ledger.accept_rollback(p)
    code, out, _ = run(capsys, "ledger", fork)
    assert code == 1 and "cannot be confirmed here" in out
    code, out, err = run(capsys, "ledger", fork, "--accept-rollback")
    assert code != 0 and "never sealed or saw" in err
    code, out, err = run(capsys, "release", fork, "--stat", "count", "--epsilon", "0.03")
    assert code != 0 and "cannot be confirmed here" in err


# ---------------------------------------------------------------- the limit, and receipts


def test_the_owner_can_rewrite_with_their_own_key_but_not_past_a_receipt(tmp_path, home, capsys):
    """The owner of a computer can read their key: edit, seal again, update the register, and dpdesk
    says "verified with this computer's key". A receipt kept elsewhere still finds it."""
    path = author_project(tmp_path / "t.dpdesk")
    receipt = tmp_path / "receipt.txt"
    code, out, _ = run(capsys, "ledger", path, "--receipt", receipt)
    assert code == 0 and receipt.exists() and "dpdesk-receipt:2:3:" in receipt.read_text()
    code, out, _ = run(capsys, "ledger", path, "--verify-receipt", receipt)
    assert code == 0 and "still holds that history" in out
    new_id_makes_a_rewrite_look_old(path)
    quietly(path, "DELETE FROM app WHERE key = 'project_id'")
    conn = sqlite3.connect(path)  # the owner reseals with the key they can read ...
    conn.row_factory = sqlite3.Row
    n, head = conn.execute("SELECT seq, hash FROM releases ORDER BY seq DESC LIMIT 1").fetchone()
    news = chain.record_head(conn, n, head, str(path), new=False)
    conn.commit()
    conn.close()
    heads.reset(news)  # ... and updates the register
    assert key.load() is not None
    check = verified(path)
    assert check.ok and check.trust == chain.KEY  # what a local key cannot prove
    code, out, _ = run(capsys, "ledger", path, "--verify-receipt", receipt)
    assert code == 1 and "were rewritten after the receipt was made" in out
    with Project.open(path) as p:
        result = ledger.verify_receipt(p, receipt.read_text())
    assert not result.ok and result.releases == 3


def test_a_receipt_as_a_qr_code_and_later_releases(tmp_path, home, capsys):
    path = author_project(tmp_path / "t.dpdesk")
    with Project.open(path) as p:
        made = ledger.receipt(p)
    assert made.releases == 3 and made.code in made.text and "0.35" in made.spent
    for suffix in (".png", ".svg"):
        code, out, _ = run(capsys, "ledger", path, "--receipt", tmp_path / f"r{suffix}")
        assert code == 0 and (tmp_path / f"r{suffix}").stat().st_size > 100 and made.code.rsplit(":", 2)[0] in out
    assert (tmp_path / "r.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert b"<svg" in (tmp_path / "r.svg").read_bytes()
    with Project.open(path) as p:
        ledger.release(p, dict(COUNT, epsilon="0.01"))
        result = ledger.verify_receipt(p, made.text)
    assert result.ok and "1 release(s) were made after it" in result.message
    bad = tmp_path / "not-a-receipt.txt"
    bad.write_text("hello")
    code, _, err = run(capsys, "ledger", path, "--verify-receipt", bad)
    assert code != 0 and "not a dpdesk ledger receipt" in err
    quietly(path, "DELETE FROM releases WHERE seq >= 3", "DELETE FROM app WHERE key = 'ledger_head'")
    with Project.open(path, read_only=True) as p:
        result = ledger.verify_receipt(p, made.text)
    assert not result.ok and "only 2 release(s)" in result.message


def test_a_receipt_covers_the_budget_rows_and_the_budget_in_force(tmp_path, home, capsys):
    """Audit of issue 21: after the 0.5 budget row was deleted, --verify-receipt still said "Receipt
    verified" though the receipt's text said "of ε = 0.5"."""
    path = author_project(tmp_path / "t.dpdesk", lowered=True)
    receipt = tmp_path / "receipt.txt"
    assert run(capsys, "ledger", path, "--receipt", receipt)[0] == 0
    text = receipt.read_text()
    assert "of ε = 0.5" in text and "Budget rows: 2 (SHA-256 " in text and "dpdesk-receipt:2:3:" in text
    with Project.open(path) as p:
        ledger.lower_budget(p, "0.45")  # lowered after the receipt: still that history
        assert ledger.verify_receipt(p, text).ok
        assert "the budget was lowered 1 time(s) since" in ledger.verify_receipt(p, text).message
    quietly(path, "DELETE FROM budget WHERE epsilon IN ('1/2', '9/20')")
    code, out, _ = run(capsys, "ledger", path, "--verify-receipt", receipt)
    assert code == 1 and "Receipt verified" not in out and "receipt not matched" in out
    assert "a budget was deleted or changed after the receipt was made" in out
    quietly(path, "INSERT INTO budget(id, epsilon, delta, set_time) VALUES (2, '1/2', '0', '2020-01-01T00:00:00Z')")
    with Project.open(path, read_only=True) as p:  # the same budget, set at another time: not the same row
        assert not ledger.verify_receipt(p, text).ok
    old = text.replace(text.split("Code: ")[1].strip(), "dpdesk-receipt:1:3:" + text.split(":3:")[1].split(":")[0]
                       + ":-:-")
    with Project.open(path, read_only=True) as p:  # a receipt of the first version names no budget, and says so
        result = ledger.verify_receipt(p, old)
    assert result.ok and "does not name the budget" in result.message


def test_no_receipt_without_releases(tmp_path, home):
    with Project.create(tmp_path / "n.dpdesk") as p:
        with pytest.raises(BudgetError, match="no releases yet"):
            ledger.receipt(p)


# ---------------------------------------------------------------- what another computer's work may do


def test_a_budget_lowered_elsewhere_over_sealed_releases_reads_as_a_rewrite(tmp_path, home, monkeypatch):
    path = author_project(tmp_path / "t.dpdesk")
    on(monkeypatch, tmp_path / "computer-b")
    with Project.open(path) as p:
        ledger.lower_budget(p, "0.8")  # sealed again there, over releases sealed here
    on(monkeypatch, tmp_path / "computer-a")
    check = verified(path)
    assert not check.ok and "replaced by the seal of another computer" in check.problems[0]


def test_a_copy_released_upon_elsewhere_after_another_release_here_reads_as_a_rewrite(tmp_path, home, monkeypatch):
    path = author_project(tmp_path / "t.dpdesk")
    copy = tmp_path / "copy.dpdesk"
    shutil.copyfile(path, copy)
    with Project.open(path) as p:
        ledger.release(p, dict(COUNT, epsilon="0.01"))  # release #4 sealed here
    on(monkeypatch, tmp_path / "computer-b")
    with Project.open(copy) as p:
        ledger.release(p, dict(COUNT, epsilon="0.02"))  # another release #4, there
    on(monkeypatch, tmp_path / "computer-a")
    check = verified(copy)
    assert not check.ok and check.problems[0].startswith("release #4 is not the one this computer sealed")


def test_a_history_rewritten_from_its_first_release_then_sealed_elsewhere_is_stopped(tmp_path, home, monkeypatch,
                                                                                      capsys):
    """None of its releases is known here, but its first budget row is: under another computer's seal it
    went another way elsewhere (or was rewritten), a state never seen here, so it cannot be confirmed."""
    path = author_project(tmp_path / "t.dpdesk")
    first_release_rewritten_with_a_new_id(path)
    on(monkeypatch, tmp_path / "computer-b")
    with Project.open(path) as p:
        ledger.release(p, dict(COUNT, epsilon="0.01"))
    on(monkeypatch, tmp_path / "computer-a")
    check = verified(path)
    assert check.intact and not check.ok and not check.confirmable and check.known == 0
    assert "its releases are not the ones this computer sealed under the same privacy budget" in check.rollback
    with Project.open(path) as p:
        with pytest.raises(ledger.LedgerRolledBackError):
            ledger.release(p, BIG)
        with pytest.raises(BudgetError, match="never sealed or saw"):
            ledger.accept_rollback(p)
    code, out, _ = run(capsys, "ledger", path)
    assert code == 1 and "cannot be confirmed here" in out
    code, out, err = run(capsys, "release", path, "--stat", "count", "--epsilon", "0.6")
    assert code != 0 and "cannot be confirmed here" in err


def test_a_register_made_again_learns_the_states_this_computer_sealed_from_their_seals(tmp_path, home):
    """The register was moved aside: opening a file whose seal is this computer's records its state again,
    so a later foreign seal over it is still a rewrite."""
    path = author_project(tmp_path / "t.dpdesk")
    heads.registry_path().unlink()
    assert verified(path).ok  # learnt again from the seal
    foreign_seal_over_the_same_history(path)
    assert "replaced by the seal of another computer" in verified(path).problems[0]
