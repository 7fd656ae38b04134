"""Issue 21 in the app: every attack shows as an edit when the author opens the file, copies live side
by side, a receipt is saved from the Releases tab, and a hot journal is never applied on open."""

from __future__ import annotations

import shutil
from fractions import Fraction
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFileDialog, QMessageBox

from dpdesk.gui.shell.tasks import TASKS
from dpdesk.project import Project, ledger
from tests.gui.test_gui_tabulate import histogram, make_project, release_and_wait, spent
from tests.helpers import hostile
from tests.project.test_hostile_files import hot_journal_project
from tests.project.test_ledger_attacks import ATTACKS, STOPPED, author_project


@pytest.fixture
def settings_dir(tmp_path, monkeypatch):
    """The window runs on "computer A" (the attacks switch to computer B and back by this name)."""
    folder = tmp_path / "computer-a"
    folder.mkdir()
    monkeypatch.setenv("DPDESK_SETTINGS_DIR", str(folder))
    return folder


def releases_tab(window):
    v = window.tabulate_view
    window.nav.setCurrentRow(TASKS.index("Tabulate"))
    v.tabs.setCurrentWidget(v.ledger_view)
    return v


@pytest.mark.parametrize("attack", list(ATTACKS), ids=lambda f: f.__name__)
def test_every_attack_shows_as_an_edit_in_the_app(window, tmp_path, monkeypatch, attack):
    path = author_project(tmp_path / "t.dpdesk", lowered=ATTACKS[attack])
    attack(path, monkeypatch=monkeypatch, tmp_path=tmp_path)
    assert window.open_project(path)
    v = releases_tab(window)
    lv = v.ledger_view
    assert lv.banner.isVisible() and "edited outside dpdesk" in lv.banner.text()
    assert not lv.accept_button.isVisible() and not lv.verification.isVisible()
    assert not lv.receipt_button.isEnabled()
    v.update_preview()
    assert "edited outside dpdesk" in v.reason.text() and not v.release_button.isEnabled()
    assert "Ledger intact" not in window.project.ledger_check.headline


@pytest.mark.parametrize("attack", list(STOPPED), ids=lambda f: f.__name__)
def test_a_foreign_seal_over_data_released_here_is_stopped_until_confirmed_in_the_app(window, tmp_path, monkeypatch,
                                                                                      qtbot, attack):
    path = author_project(tmp_path / "t.dpdesk", lowered=STOPPED[attack])
    attack(path, monkeypatch=monkeypatch, tmp_path=tmp_path)
    assert window.open_project(path)
    v = releases_tab(window)
    lv = v.ledger_view
    assert lv.banner.isVisible() and "holds data this computer released from under another ledger" in lv.banner.text()
    assert "released from on" in lv.banner.text() and "Ledger intact" not in window.project.ledger_check.headline
    v.update_preview()
    assert not v.release_button.isEnabled()
    asked = []
    monkeypatch.setattr(QMessageBox, "question",
                        lambda parent, title, text, *a, **k:
                        asked.append((title, text)) or QMessageBox.StandardButton.Yes)
    assert lv.accept_button.isVisible() and lv.accept_button.text() == "Confirm a project of its own…"
    qtbot.mouseClick(lv.accept_button, Qt.MouseButton.LeftButton)
    assert asked[0][0] == "Confirm a project of its own" and "the same respondents" in asked[0][1]
    assert not lv.banner.isVisible() and "it is a project of its own" in lv.confirmed.text()


def test_confirming_a_copy_from_before_the_budget_was_lowered_keeps_the_lower_budget_in_the_app(window, tmp_path,
                                                                                               qtbot, monkeypatch):
    """Audit of issue 21: confirming a genuine copy from before 1 -> 0.5 brought budget 1 back."""
    path = author_project(tmp_path / "t.dpdesk")
    older = tmp_path / "older.dpdesk"
    shutil.copyfile(path, older)
    with Project.open(path) as p:
        ledger.lower_budget(p, "0.5")
    assert window.open_project(older)
    v = releases_tab(window)
    lv = v.ledger_view
    assert lv.banner.isVisible() and "before this computer lowered it to ε = 0.5" in lv.banner.text()
    assert "confirming keeps the lower budget" in lv.banner.text()
    assert "may already be published" not in lv.banner.text()
    asked = []
    monkeypatch.setattr(QMessageBox, "question",
                        lambda parent, title, text, *a, **k: asked.append(text) or QMessageBox.StandardButton.Yes)
    qtbot.mouseClick(lv.accept_button, Qt.MouseButton.LeftButton)
    assert "lowered back to the lowest this computer sealed" in asked[0] and "never published" not in asked[0]
    assert not lv.banner.isVisible() and lv.confirmed.isVisible() and "lowered back to ε = 0.5" in lv.confirmed.text()
    assert "although this computer had seen release #3" not in lv.confirmed.text()
    assert ledger.budget_status(window.project).total_epsilon == Fraction(1, 2)
    histogram(v, 0.2)
    assert not v.release_button.isEnabled() and "does not fit" in v.reason.text(), v.reason.text()  # 0.35 + 0.2 > 0.5


def test_a_release_names_the_spending_of_the_same_respondents_in_another_project_in_the_app(window, tmp_path,
                                                                                           qtbot):
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    first = make_project(tmp_path / "a")
    with Project.open(first) as p:
        ledger.set_budget(p, 1)
        ledger.release(p, {"statistic": "count", "epsilon": "0.3"})
    second = make_project(tmp_path / "b")  # the same students, another project
    assert window.open_project(second)
    v = releases_tab(window)
    assert v.apply_budget(Fraction(1))
    asked = []
    v.confirm = lambda parent, text: asked.append(text) or True
    histogram(v, 0.1)
    with qtbot.waitSignal(v.released, timeout=20000):
        qtbot.mouseClick(v.release_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: not v._releasing, timeout=5000)
    # issue 28: the same people, so the first project's spending counts here (not only a note)
    assert "These people's budget: spent here ε = 0, in copies and other files of these people on this computer " \
        "ε = 0.3" in asked[0]
    assert ledger.budget_status(window.project).spent_epsilon == Fraction("0.4")


def test_a_lost_key_is_re_keyed_in_the_app(window, tmp_path, qtbot, monkeypatch):
    """Issue 28: with ledger.key deleted, the Releases tab says the key is missing (not an edit) and offers
    re-keying, which is recorded in the project."""
    from dpdesk.project.ledger import key

    path = author_project(tmp_path / "t.dpdesk")
    key.key_path().unlink()
    assert window.open_project(path)
    v = releases_tab(window)
    lv = v.ledger_view
    assert lv.banner.isVisible() and "ledger key, which sealed this file, is missing" in lv.banner.text()
    assert "edited outside dpdesk" not in lv.banner.text()
    asked = []
    monkeypatch.setattr(QMessageBox, "question",
                        lambda parent, title, text, *a, **k: asked.append(title) or QMessageBox.StandardButton.Yes)
    assert lv.accept_button.isVisible() and lv.accept_button.text() == "Re-key this project…"
    qtbot.mouseClick(lv.accept_button, Qt.MouseButton.LeftButton)
    assert asked == ["Re-key this project"]
    assert not lv.banner.isVisible() and "Re-keyed and recorded in the project" in lv.confirmed.text()
    assert window.project.ledger_check.ok and key.key_path().exists()


def test_copies_of_a_template_both_release_in_the_app(window, tmp_path, qtbot):
    template = make_project(tmp_path)
    copies = [tmp_path / "A.dpdesk", tmp_path / "B.dpdesk"]
    for copy in copies:
        shutil.copyfile(template, copy)
    for _round in range(2):
        for copy in copies:
            assert window.open_project(copy)
            v = releases_tab(window)
            if not _round:
                assert v.apply_budget(Fraction(1))
            v.confirm = lambda parent, text: True
            histogram(v, 0.1 + _round / 10)
            assert v.release_button.isEnabled(), v.reason.text()
            release_and_wait(v, qtbot)
            assert "verified with this computer's key" in v.ledger_view.verification.text()
            assert not v.ledger_view.banner.isVisible()
            window.close_project()
    for copy in copies:  # both hold the template's students: each counts the other's spending (issue 28)
        with Project.open(copy) as p:
            status = ledger.budget_status(p)
            assert status.spent_here_epsilon == Fraction(3, 10) and status.spent_epsilon == Fraction(6, 10)


def test_a_copy_made_after_releases_is_confirmed_once_in_the_app(window, tmp_path, qtbot, monkeypatch):
    a = author_project(tmp_path / "A.dpdesk")
    b = tmp_path / "B.dpdesk"
    shutil.copyfile(a, b)
    with Project.open(a) as p:
        ledger.release(p, {"statistic": "count", "epsilon": "0.01"})
    assert window.open_project(b)
    lv = releases_tab(window).ledger_view
    assert lv.banner.isVisible() and "a copy made at release #3" in lv.banner.text()
    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: QMessageBox.StandardButton.Yes)
    qtbot.mouseClick(lv.accept_button, Qt.MouseButton.LeftButton)
    assert not lv.banner.isVisible() and "verified with this computer's key" in lv.verification.text()
    window.close_project()
    assert window.open_project(a)  # the other copy is not blocked by the confirmation
    assert not releases_tab(window).ledger_view.banner.isVisible()


def test_the_receipt_button_saves_a_qr_code_and_its_text(window, tmp_path, qtbot, monkeypatch):
    path = author_project(tmp_path / "t.dpdesk")
    assert window.open_project(path)
    lv = releases_tab(window).ledger_view
    assert lv.receipt_button.isVisible() and lv.receipt_button.isEnabled()
    target = tmp_path / "receipt.png"
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(target), ""))
    with qtbot.waitSignal(lv.receipt_saved, timeout=5000):
        qtbot.mouseClick(lv.receipt_button, Qt.MouseButton.LeftButton)
    assert target.read_bytes()[:4] == b"\x89PNG"
    text = target.with_suffix(".txt").read_text()
    assert "dpdesk-receipt:2:3:" in text
    (box,) = [b for b in window.findChildren(QMessageBox, "receiptDialog") if b.isVisible()]
    assert "dpdesk-receipt:2:3:" in box.detailedText() and str(target) in box.informativeText()
    box.accept()
    with Project.open(path, read_only=True) as p:
        assert ledger.verify_receipt(p, text).ok


@pytest.fixture(scope="module")
def base(tmp_path_factory):
    return hostile.make_base(tmp_path_factory.mktemp("base") / "base.dpdesk")


def test_a_hot_journal_is_never_applied_on_open_and_is_recovered_into_a_copy(window, base, tmp_path, monkeypatch):
    crashed = hot_journal_project(base, tmp_path)
    before = hostile.digest(crashed), Path(f"{crashed}-journal").read_bytes()
    asked = []
    monkeypatch.setattr(QMessageBox, "question",
                        lambda parent, title, text, *a, **k: asked.append(text) or QMessageBox.StandardButton.Cancel)
    assert not window.open_project(crashed) and window.project is None
    assert "unfinished change" in asked[0] and "left both files untouched" in asked[0]
    assert (hostile.digest(crashed), Path(f"{crashed}-journal").read_bytes()) == before
    target = tmp_path / "recovered.dpdesk"
    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: QMessageBox.StandardButton.Yes)
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(target), ""))
    assert window.open_project(crashed)
    assert window.project.path == target.resolve() and window.project.analyses() == []
    assert (hostile.digest(crashed), Path(f"{crashed}-journal").read_bytes()) == before


def test_a_state_never_seen_here_cannot_be_confirmed_in_the_app(window, tmp_path, monkeypatch, settings_dir):
    """The officer's computer saw release #4; a copy that went another way after #3 is shown as behind,
    with no button to confirm it."""
    path = author_project(tmp_path / "t.dpdesk")  # on "computer A", the window's data folder
    fork = tmp_path / "fork.dpdesk"
    shutil.copyfile(path, fork)
    with Project.open(path) as p:
        ledger.release(p, {"statistic": "count", "epsilon": "0.01"})
    monkeypatch.setenv("DPDESK_SETTINGS_DIR", str(tmp_path / "officer"))
    with Project.open(path) as p:
        assert ledger.verify_ledger(p).ok  # the officer sees #4
    monkeypatch.setenv("DPDESK_SETTINGS_DIR", str(settings_dir))
    with Project.open(fork) as p:
        ledger.accept_rollback(p)
        ledger.release(p, {"statistic": "count", "epsilon": "0.02"})
    monkeypatch.setenv("DPDESK_SETTINGS_DIR", str(tmp_path / "officer"))
    assert window.open_project(fork)
    v = releases_tab(window)
    lv = v.ledger_view
    assert lv.banner.isVisible() and "never sealed or saw" in lv.banner.text()
    assert "cannot be confirmed here" in lv.banner.text() and not lv.accept_button.isVisible()
    v.update_preview()
    assert not v.release_button.isEnabled()
