"""Edits and rewinds of the release ledger, made with plain sqlite3 as an adversary would (issue 14).

Each test runs with a data folder of its own (its own key and register of heads); "another
computer" is another data folder.
"""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import stat
import subprocess
import sys
import threading

import pytest

from dpdesk.errors import BudgetError, DpdeskError
from dpdesk.project import Project, ledger
from dpdesk.project.file import schema
from dpdesk.project.ledger import chain, heads, key
from tests.helpers.cli import run
from tests.helpers.paths import ROOT
from tests.project.test_ledger import HIST, SHA, frame

COUNT = {"statistic": "count", "epsilon": "0.1"}


@pytest.fixture
def home(tmp_path, monkeypatch):
    folder = tmp_path / "computer-a"
    monkeypatch.setenv("DPDESK_SETTINGS_DIR", str(folder))
    return folder


def elsewhere(monkeypatch, tmp_path, name="computer-b"):
    monkeypatch.setenv("DPDESK_SETTINGS_DIR", str(tmp_path / name))


@pytest.fixture
def path(tmp_path, home):
    """A project with a budget of 1 and three releases of 0.1, made on computer A."""
    p = tmp_path / "t.dpdesk"
    with Project.create(p) as project:
        project.add_dataset("d", frame(100), source={"sha256": SHA})
        ledger.set_budget(project, 1)
        for eps in ("0.1", "0.2", "0.3"):
            ledger.release(project, dict(COUNT, epsilon=eps))
    return p


def sql(path, *statements, params=()):
    conn = sqlite3.connect(path)
    try:
        for s in statements:
            conn.execute(s, params) if "?" in s else conn.execute(s)
        conn.commit()
    finally:
        conn.close()


def app_value(path, name):
    conn = sqlite3.connect(path)
    try:
        row = conn.execute("SELECT value FROM app WHERE key = ?", (name,)).fetchone()
    finally:
        conn.close()
    return None if row is None else row[0]


def quietly(path, *statements, params=()):
    """Edit with the protecting triggers dropped, then put them back exactly as they were."""
    conn = sqlite3.connect(path)
    saved = conn.execute("SELECT name, sql FROM sqlite_master WHERE type = 'trigger'").fetchall()
    conn.close()
    sql(path, *[f"DROP TRIGGER {name}" for name, _ in saved], *statements, *[q for _, q in saved], params=params)


def recompute_every_hash(path):
    """What a careful adversary does after an edit: rebuild the whole SHA-256 chain and the head."""
    conn = sqlite3.connect(path)
    conn.row_factory = sqlite3.Row
    saved = conn.execute("SELECT name, sql FROM sqlite_master WHERE type = 'trigger'").fetchall()
    for name, _ in saved:
        conn.execute(f"DROP TRIGGER {name}")
    prev = chain.GENESIS
    n = 0
    for row in conn.execute("SELECT * FROM releases ORDER BY seq").fetchall():
        fields = dict(row)
        fields["prev_hash"] = prev
        fields["hash"] = chain.row_hash(fields)
        conn.execute("UPDATE releases SET prev_hash = ?, hash = ? WHERE seq = ?", (prev, fields["hash"], row["seq"]))
        prev, n = fields["hash"], row["seq"]
    conn.execute("UPDATE app SET value = ? WHERE key = 'ledger_head'", (f"{n}:{prev}",))
    for _, statement in saved:
        conn.execute(statement)
    conn.commit()
    conn.close()


def verified(path):
    with Project.open(path) as p:
        return ledger.verify_ledger(p)


def checked_raw(path):
    """The ledger check alone, on a plain sqlite3 connection: a file whose schema was changed is
    refused by the project file's schema check before the ledger is read, but the ledger's own
    check must find the change too."""
    conn = sqlite3.connect(path)
    conn.row_factory = sqlite3.Row
    try:
        return chain.check(conn, path)
    finally:
        conn.close()


def refused(path, error=ledger.LedgerTamperedError, match=None):
    with Project.open(path) as p:
        before = ledger.budget_status(p).spent_epsilon
        with pytest.raises(error, match=match):
            ledger.release(p, dict(COUNT, epsilon="0.01"))
        assert not ledger.preview(p, dict(COUNT, epsilon="0.01")).fits
        assert ledger.budget_status(p).spent_epsilon == before


# ---------------------------------------------------------------- the key and the register


def test_the_key_is_private_made_once_and_seals_the_ledger(path, home):
    kp = key.key_path()
    assert kp.parent == home / "data" / "ledger"
    assert stat.S_IMODE(kp.stat().st_mode) == 0o600 and stat.S_IMODE(kp.parent.stat().st_mode) == 0o700
    assert stat.S_IMODE(heads.registry_path().stat().st_mode) == 0o600
    k = key.load()
    assert len(kp.read_text().strip()) == 64 and k.id == key.load(create=True).id and k.id not in repr(k.secret)
    check = verified(path)
    assert check.ok and check.trust == chain.KEY and check.sealed_to == 3 and check.verified_from == 1
    assert check.sealed_by == k.id and "verified with this computer's key" in check.headline
    assert json.loads(app_value(path, "ledger_seal"))["key_id"] == k.id
    assert app_value(path, "project_id") == check.project_id
    assert heads.last_seen(check.project_id).seq == 3 and heads.last_seen(check.project_id).sealed


def test_a_loosened_key_file_is_closed_again(path):
    os.chmod(key.key_path(), 0o644)
    key.load()
    assert stat.S_IMODE(key.key_path().stat().st_mode) == 0o600


def test_processes_racing_to_make_the_key_all_get_the_same_one(home):
    code = "from dpdesk.project.ledger import key; print(key.load(create=True).id)"
    env = dict(os.environ, DPDESK_SETTINGS_DIR=str(home))
    procs = [subprocess.Popen([sys.executable, "-c", code], cwd=ROOT, env=env, stdout=subprocess.PIPE, text=True)
             for _ in range(4)]
    ids = {p.communicate(timeout=60)[0].strip() for p in procs}
    assert len(ids) == 1 and key.load().id in ids
    assert [f.name for f in key.key_path().parent.iterdir()] == ["ledger.key"]  # no temporary file left


def test_the_register_only_moves_forward_under_concurrent_writers(home):
    code = ("import sys; from dpdesk.project.ledger import heads\n"
            "for s in range(int(sys.argv[1]), 60, 3): heads.remember(heads.Head('p', s, f'h{s}', True, path='x'))")
    env = dict(os.environ, DPDESK_SETTINGS_DIR=str(home))
    procs = [subprocess.Popen([sys.executable, "-c", code, str(i)], cwd=ROOT, env=env) for i in range(3)]
    threads = [threading.Thread(target=lambda s=s: heads.remember(heads.Head("p", s, f"h{s}", True)))
               for s in range(0, 40)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert all(p.wait(timeout=120) == 0 for p in procs)
    seen = heads.last_seen("p")
    assert (seen.seq, seen.head) == (59, "h59")
    heads.remember(heads.Head("p", 59, "another", True))  # the same length, another head: kept out
    heads.remember(heads.Head("p", 12, "h12", True))  # a slower writer: never lowers it
    assert (heads.last_seen("p").seq, heads.last_seen("p").head) == (59, "h59")
    heads.reset(heads.Head("p", 12, "h12", True))  # only a confirmed rollback lowers it
    assert heads.last_seen("p").seq == 12


# ---------------------------------------------------------------- the edits of issue 14, section 4


def test_deleting_the_last_release_and_moving_the_head_back_is_found(path):
    conn = sqlite3.connect(path)
    prev = conn.execute("SELECT hash FROM releases WHERE seq = 2").fetchone()[0]
    conn.close()
    quietly(path, "DELETE FROM releases WHERE seq = 3", f"UPDATE app SET value = '2:{prev}' WHERE key = 'ledger_head'")
    check = verified(path)
    assert not check.ok and check.problems == ["releases after #2 were deleted: this computer sealed the ledger at "
                                               "release #3"]
    refused(path)  # no budget given back: a new release of 0.6 is not accepted


def test_deleting_the_last_release_with_an_older_seal_put_back_is_a_rollback(path):
    """The adversary kept the app rows from before release #3: the file is self-consistent, sealed
    at #2 with this computer's key. Only the register outside the file knows about #3."""
    with Project.open(path) as p:
        ledger.release(p, dict(COUNT, epsilon="0.05"))
        conn = p.connection
        kept = dict(conn.execute("SELECT key, value FROM app WHERE key IN ('ledger_head', 'ledger_seal')").fetchall())
    with Project.open(path) as p:
        ledger.release(p, dict(COUNT, epsilon="0.06"))
    quietly(path, "DELETE FROM releases WHERE seq = 5")
    for name, value in kept.items():
        sql(path, "UPDATE app SET value = ? WHERE key = ?", params=(value, name))
    check = verified(path)
    assert check.intact and not check.ok and check.trust == chain.KEY
    assert "ends at release #4, but this computer saw release #5" in check.rollback
    refused(path, ledger.LedgerRolledBackError, match="behind the ledger this computer last saw.*--accept-rollback")


def test_deleting_every_release_and_the_head_is_found(path):
    quietly(path, "DELETE FROM releases", "DELETE FROM app WHERE key = 'ledger_head'")
    check = verified(path)
    assert not check.ok and check.releases == 0
    assert any("releases after #0 were deleted" in p for p in check.problems)
    refused(path)


def test_deleting_every_release_the_head_the_seal_and_the_project_id_is_a_rollback_never_confirmed(path):
    quietly(path, "DELETE FROM releases", "DELETE FROM app WHERE key IN ('ledger_head', 'ledger_seal', 'project_id')")
    check = verified(path)  # the budget's first row still names the history
    assert not check.ok and "no releases, but this computer sealed release #3 under the same privacy budget" in \
        check.rollback and "seal it put on this file is gone: its releases were deleted" in check.rollback
    assert not check.confirmable  # no seal of this computer over that empty state
    refused(path, ledger.LedgerRolledBackError)
    with Project.open(path) as p:
        with pytest.raises(BudgetError, match="never sealed or saw"):
            ledger.accept_rollback(p)


def test_no_op_triggers_of_the_same_names_are_found(path):
    statements = []
    for name, what in [("releases_no_update", "UPDATE"), ("releases_no_delete", "DELETE"),
                       ("budget_no_update", "UPDATE"), ("budget_no_delete", "DELETE")]:
        table = name.split("_")[0]
        statements += [f"DROP TRIGGER {name}",
                       f"CREATE TRIGGER {name} BEFORE {what} ON {table} WHEN 0 BEGIN SELECT RAISE(ABORT, 'x'); END"]
    sql(path, *statements)
    sql(path, "DELETE FROM releases WHERE seq = 3")  # a plain DELETE gets through the no-op trigger
    check = checked_raw(path)
    replaced = [p for p in check.problems if "replaced by another one of the same name" in p]
    assert len(replaced) == 4 and not check.ok
    with pytest.raises(DpdeskError, match="outside dpdesk"):  # on open (schema check) or by the ledger
        with Project.open(path) as p:
            ledger.release(p, dict(COUNT, epsilon="0.01"))


def test_a_trigger_added_to_the_ledger_is_found(path):
    sql(path, "CREATE TRIGGER spy AFTER INSERT ON releases BEGIN SELECT 1; END")
    assert any("'spy'" in p for p in checked_raw(path).problems)


def test_a_gap_in_the_numbering_is_found(path):
    quietly(path, "UPDATE releases SET seq = 7 WHERE seq = 3")
    assert any("release #7 is out of sequence" in p for p in verified(path).problems)


def test_restoring_an_older_copy_is_a_rollback_until_confirmed(path, tmp_path, capsys):
    backup = tmp_path / "backup.dpdesk"
    shutil.copyfile(path, backup)
    with Project.open(path) as p:
        for eps in ("0.15", "0.05"):
            ledger.release(p, dict(COUNT, epsilon=eps))  # 0.8 spent
    shutil.copyfile(backup, path)  # the older copy: 0.6 spent, and self-consistent
    check = verified(path)
    assert check.intact and not check.ok and check.trust == chain.KEY
    assert "ends at release #3, but this computer saw release #5" in check.rollback
    assert "rolled back" in check.headline
    refused(path, ledger.LedgerRolledBackError)
    with Project.open(path) as p:
        assert not ledger.budget_status(p).ledger_intact
    code, out, _ = run(capsys, "ledger", str(path))
    assert code == 1 and "behind the ledger this computer last saw" in out and "--accept-rollback" in out
    code, out, _ = run(capsys, "ledger", str(path), "--json")
    assert code == 1 and json.loads(out)["rolled_back"] and json.loads(out)["verified"] == "key"
    # the researcher confirms; the confirmation is recorded in the project and sealed
    code, out, _ = run(capsys, "ledger", str(path), "--accept-rollback")
    assert code == 0 and "Rollback confirmed" in out and "#5" in out
    check = verified(path)
    assert check.ok and check.trust == chain.KEY and len(check.rollbacks) == 1
    assert (check.rollbacks[0]["releases"], check.rollbacks[0]["seen_releases"]) == (3, 5)
    with Project.open(path) as p:
        with pytest.raises(BudgetError, match="no rollback to confirm"):
            ledger.accept_rollback(p)
        ledger.release(p, dict(COUNT, epsilon="0.04"))
    code, out, _ = run(capsys, "ledger", str(path))
    assert code == 0 and "confirmed rollback" in out.lower()
    # and the record cannot be removed unseen
    sql(path, "DELETE FROM app WHERE key = 'ledger_rollbacks'")
    assert any("record of confirmed rollbacks" in p for p in verified(path).problems)


def test_an_edit_is_never_confirmed_away(path):
    quietly(path, "UPDATE releases SET result = '{}' WHERE seq = 2")
    with Project.open(path) as p:
        with pytest.raises(ledger.LedgerTamperedError):
            ledger.accept_rollback(p)


def test_recomputing_every_hash_after_an_edit_is_found_without_the_key(path):
    quietly(path, "UPDATE releases SET cost = replace(cost, '\"epsilon\":\"3/10\"', '\"epsilon\":\"3/1000\"') "
            "WHERE seq = 3")
    recompute_every_hash(path)
    conn = sqlite3.connect(path)
    conn.row_factory = sqlite3.Row
    rows = conn.execute("SELECT * FROM releases ORDER BY seq").fetchall()
    conn.close()
    assert all(chain.row_hash(r) == r["hash"] for r in rows) and "3/1000" in rows[2]["cost"]
    check = verified(path)  # the structure holds; the seal does not
    assert check.problems == [
        "the releases up to #3 are not the ones this computer sealed (they were changed, and their hashes recomputed)"]
    refused(path)


def test_a_forged_seal_without_the_key_is_found(path):
    recompute_every_hash(path)
    forged = json.loads(app_value(path, "ledger_seal"))
    forged["head"] = "0" * 64
    sql(path, "UPDATE app SET value = ? WHERE key = 'ledger_seal'", params=(json.dumps(forged),))
    assert any("seal does not match" in p for p in verified(path).problems)


def test_recomputing_every_hash_and_removing_the_seal_is_caught_by_the_register(path):
    quietly(path, "UPDATE releases SET time = '2020-01-01T00:00:00.000Z' WHERE seq = 1",
            "DELETE FROM app WHERE key = 'ledger_seal'")
    recompute_every_hash(path)
    check = verified(path)
    assert not check.ok and check.rollback is None
    assert len(check.problems) == 1 and "its releases are not the ones this computer sealed" in check.problems[0]
    assert "its history was rewritten" in check.problems[0]
    refused(path)


def test_a_lowered_budget_removed_or_a_budget_raised_before_any_release_is_found(path, tmp_path):
    with Project.open(path) as p:
        ledger.lower_budget(p, "0.7")
    quietly(path, "DELETE FROM budget WHERE epsilon = '7/10'")  # back to 1, triggers as they were
    check = verified(path)
    assert check.problems == ["the budget rows were changed after this computer sealed the ledger (a lowered "
                              "budget removed, or one added outside dpdesk)"]
    refused(path)
    fresh = tmp_path / "fresh.dpdesk"
    with Project.create(fresh) as p:
        p.add_dataset("d", frame(100), source={"sha256": SHA})
        ledger.set_budget(p, "0.5")
    quietly(fresh, "UPDATE budget SET epsilon = '50'")
    assert any("budget rows were changed" in x for x in verified(fresh).problems)


def test_removing_only_the_seal_is_found(path):
    sql(path, "DELETE FROM app WHERE key = 'ledger_seal'")
    assert any("seal this computer put on the ledger at release #3 was removed" in p
               for p in verified(path).problems)


def test_a_rewritten_identity_is_found_by_the_budget_it_kept(path):
    """An adversary who rewrites the chain from release #1, drops the seal and the project's identity:
    the budget rows still name the history this computer sealed (issue 21)."""
    quietly(path, "UPDATE releases SET result = '{}' WHERE seq = 1",
            "DELETE FROM app WHERE key IN ('ledger_seal', 'project_id')",
            "UPDATE app SET value = '2001-01-01' WHERE key = 'created_at'")
    recompute_every_hash(path)
    check = verified(path)
    assert not check.ok and "not the ones this computer sealed under the same privacy budget" in check.problems[0]
    refused(path)


_DATA_DISGUISED = ("UPDATE datasets SET source_sha256 = '" + "cd" * 32 + "', imported_at = '2001-01-01T00:00:00Z'",
                   "UPDATE releases SET dataset_sha256 = '" + "cd" * 32 + "'",
                   "DELETE FROM app WHERE key LIKE 'respondents:%'")


def test_a_history_rewritten_with_its_budget_identity_and_recorded_data_is_found_by_its_respondents(path):
    """Every release, the budget rows, the ids, the data's recorded SHA-256 and import rewritten, the
    cached signature deleted: the rows themselves still carry the respondents' signature this computer
    recorded when it sealed the ledger."""
    quietly(path, "UPDATE releases SET result = '{}' WHERE seq = 1",
            "UPDATE budget SET set_time = '2001-01-01T00:00:00.000Z'",
            "DELETE FROM app WHERE key IN ('ledger_seal', 'project_id')", *_DATA_DISGUISED)
    recompute_every_hash(path)
    check = verified(path)
    assert not check.ok and "it holds the data 'd' that this computer released from" in check.problems[0]
    refused(path)


def test_the_respondents_of_a_single_release_are_recorded_with_its_seal(tmp_path, home):
    p = tmp_path / "one.dpdesk"
    with Project.create(p) as project:
        project.add_dataset("d", frame(100), source={"sha256": SHA})
        ledger.set_budget(project, 1)
        ledger.release(project, dict(COUNT, epsilon="0.1"))
    quietly(p, "UPDATE releases SET result = '{}' WHERE seq = 1",
            "UPDATE budget SET set_time = '2001-01-01T00:00:00.000Z'",
            "DELETE FROM app WHERE key IN ('ledger_seal', 'project_id')", *_DATA_DISGUISED)
    recompute_every_hash(p)
    assert "it holds the data 'd' that this computer released from" in verified(p).problems[0]


def test_a_forged_respondents_signature_in_the_file_does_not_hide_the_rows(path):
    conn = sqlite3.connect(path)
    key = conn.execute("SELECT key FROM app WHERE key LIKE 'respondents:%'").fetchone()[0]
    conn.close()
    quietly(path, "UPDATE releases SET result = '{}' WHERE seq = 1",
            "UPDATE budget SET set_time = '2001-01-01T00:00:00.000Z'",
            "DELETE FROM app WHERE key IN ('ledger_seal', 'project_id')", *_DATA_DISGUISED[:2],
            "INSERT OR REPLACE INTO app(key, value) VALUES (?, '{\"fingerprint\": \"forged\"}')", params=(key,))
    recompute_every_hash(path)
    assert "it holds the data 'd' that this computer released from" in verified(path).problems[0]


def test_the_limit_a_history_rewritten_with_its_budget_identity_and_data_is_another_project(path):
    """Rewriting every release, the budget rows and every row of the data too leaves nothing of the
    history this computer knows: the file is another project to it, verified by structure only, and
    says truthfully that its seal was removed (the receipt a data protection officer holds still
    finds it)."""
    conn = sqlite3.connect(path)
    table = conn.execute("SELECT table_name FROM datasets").fetchone()[0]
    conn.close()
    quietly(path, "UPDATE releases SET result = '{}' WHERE seq = 1",
            "UPDATE budget SET set_time = '2001-01-01T00:00:00.000Z'",
            "DELETE FROM app WHERE key IN ('ledger_seal', 'project_id')", *_DATA_DISGUISED,
            f"UPDATE {table} SET c1 = c1 + 1")  # every age one year more
    recompute_every_hash(path)
    check = verified(path)
    assert check.ok and check.trust == chain.STRUCTURE and "verified by structure only" in check.headline
    assert "made by a dpdesk before ledgers were sealed" not in check.trust_text
    assert "the seal was removed outside dpdesk, or the ledger was written by another program" in check.trust_text


# ---------------------------------------------------------------- files from elsewhere, older files


def test_a_file_from_another_computer_is_verified_by_structure_only(path, tmp_path, monkeypatch, capsys):
    mine = verified(path).sealed_by
    elsewhere(monkeypatch, tmp_path)
    check = verified(path)
    assert check.ok and check.trust == chain.STRUCTURE and check.structure_only and check.releases == 3
    assert "verified by structure only" in check.trust_text and f"key id {mine}" in check.trust_text
    code, out, _ = run(capsys, "ledger", str(path))
    assert code == 0 and "Ledger intact: 3 release(s), verified by structure only" in out
    assert f"Head: release #3, SHA-256 {check.head}, sealed with key id {mine}" in out  # what the owner's shows too
    code, out, _ = run(capsys, "ledger", str(path), "--json")
    assert json.loads(out)["verified"] == "structure" and json.loads(out)["intact"]
    # structure is still checked there: a gap or a changed row is found without any key
    broken = tmp_path / "broken.dpdesk"
    shutil.copyfile(path, broken)
    quietly(broken, "UPDATE releases SET result = '{}' WHERE seq = 2")
    assert any("release #2 was changed" in p for p in verified(broken).problems)
    # releasing there seals it with that computer's key; the earlier releases stay structure-only
    with Project.open(path) as p:
        ledger.release(p, dict(COUNT, epsilon="0.05"))
    check = verified(path)
    assert check.trust == chain.KEY and check.verified_from == 4 and "#1-#3 were checked by structure only" in check.trust_text


def test_the_other_computer_finds_an_older_copy_it_has_seen_before(path, tmp_path, monkeypatch):
    """A data protection officer who received version 2 of a file, and then version 1."""
    v1 = tmp_path / "v1.dpdesk"
    shutil.copyfile(path, v1)
    with Project.open(path) as p:
        ledger.release(p, dict(COUNT, epsilon="0.05"))
    elsewhere(monkeypatch, tmp_path, "officer")
    assert verified(path).ok
    check = verified(v1)
    assert not check.ok and "ends at release #3, but this computer saw release #4" in check.rollback
    assert "another file" in check.rollback


def test_an_unsealed_ledger_keeps_verifying_and_is_sealed_by_its_next_release(tmp_path, monkeypatch):
    """A file made before seals (simulated: sealed parts removed, opened on a computer that never saw it)."""
    elsewhere(monkeypatch, tmp_path, "old-dpdesk")
    p = tmp_path / "old.dpdesk"
    with Project.create(p) as project:
        project.add_dataset("d", frame(100), source={"sha256": SHA})
        ledger.set_budget(project, 1)
        ledger.release(project, HIST)
        ledger.release(project, COUNT)
    sql(p, "DELETE FROM app WHERE key IN ('ledger_seal', 'project_id')")
    conn = sqlite3.connect(p)
    history = conn.execute("SELECT seq, hash FROM releases ORDER BY seq").fetchall()
    schema._v4_ledger(conn)  # what the upgrade to the first sealing format notes about it
    conn.commit()
    conn.close()
    elsewhere(monkeypatch, tmp_path, "new-dpdesk")
    check = verified(p)
    assert check.ok and check.trust == chain.STRUCTURE
    assert ("(not sealed: the file says it was made by a dpdesk before ledgers were sealed, a claim of the file "
            "itself that this computer cannot check;") in check.trust_text
    later = tmp_path / "later.dpdesk"
    shutil.copyfile(p, later)
    with Project.open(p) as project:
        ledger.release(project, dict(COUNT, epsilon="0.2"))
    check = verified(p)
    assert check.ok and check.trust == chain.KEY and check.verified_from == 3
    conn = sqlite3.connect(p)
    assert conn.execute("SELECT seq, hash FROM releases WHERE seq < 3 ORDER BY seq").fetchall() == history  # history kept
    conn.close()
    assert json.loads(app_value(p, "ledger_seal"))["since"] == 2
    with Project.open(later) as project:  # a release added after the upgrade, then its seal removed: said so
        ledger.accept_rollback(project)  # a copy made at #2, which this computer saw (old.dpdesk went on)
        ledger.release(project, dict(COUNT, epsilon="0.3"))
    sql(later, "DELETE FROM app WHERE key IN ('ledger_seal', 'project_id')")
    elsewhere(monkeypatch, tmp_path, "third-computer")
    assert "the file says releases #1-#2 were made by a dpdesk before ledgers were sealed, but the later ones were " \
        "added, or the seal removed, outside dpdesk" in verified(later).trust_text


def test_a_new_project_has_nothing_to_verify(tmp_path, home):
    with Project.create(tmp_path / "n.dpdesk") as p:
        check = ledger.verify_ledger(p)
    assert check.ok and check.trust == chain.NOTHING and check.releases == 0
    assert heads.last_seen(check.project_id) is None and app_value(p.path, "project_id") is None  # a read writes nothing


def test_without_a_usable_data_folder_files_verify_by_structure_and_releases_say_why(path, tmp_path, monkeypatch):
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("x")
    monkeypatch.setenv("DPDESK_SETTINGS_DIR", str(blocker / "settings"))  # cannot be created
    check = verified(path)
    assert check.ok and check.trust == chain.STRUCTURE
    with Project.open(path) as p:
        with pytest.raises(DpdeskError, match="cannot create the folder for its ledger key.*DPDESK_SETTINGS_DIR"):
            ledger.release(p, dict(COUNT, epsilon="0.01"))
        assert ledger.budget_status(p).releases == 3  # nothing was recorded


@pytest.mark.parametrize("value", ["[" * 100000, '{"v": 1, "seq": 1e999}', "\u00e9" * 64, "null",
                                   '{"v":1,"key_id":"K","project_id":"p","seq":3,"head":"h","since":0,'
                                   '"rollbacks":"","budgets":"","mac":"\u00e9\u00e9"}'])
def test_an_odd_seal_is_reported_never_a_traceback(path, value):
    if '"key_id":"K"' in value:
        value = value.replace('"K"', json.dumps(key.load().id))  # this computer's key id, a non-ASCII MAC
    sql(path, "UPDATE app SET value = ? WHERE key = 'ledger_seal'", params=(value,))
    sql(path, "INSERT OR REPLACE INTO app(key, value) VALUES ('ledger_rollbacks', ?)", params=("[" * 100000,))
    check = verified(path)
    assert not check.ok and any("seal" in p for p in check.problems)
