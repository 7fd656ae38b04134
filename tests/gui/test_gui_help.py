"""The user guide in the app: each view's "?" opens its page offline, links and history work, F1."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QPoint, Qt, QUrl
from PySide6.QtGui import QTextCursor
from PySide6.QtWidgets import QToolButton

import dpdesk
from dpdesk.gui.help.pages import VIEW_PAGES
from dpdesk.gui.help.window import HelpWindow
from dpdesk.gui.shell.tasks import TASKS
from tests.helpers.gui import shot

SHIPPED = (Path(dpdesk.__file__).parent / "resources" / "guide").resolve()


def _help(window) -> HelpWindow:
    found = window.findChildren(HelpWindow)
    assert len(found) == 1, "one help window per main window"
    return found[0]


def _source(help_window) -> Path:
    return Path(help_window.browser.source().toLocalFile()).resolve()


def _heading_top(help_window, anchor: str) -> int:
    """Where the heading named ``anchor`` starts in the page (document coordinates)."""
    doc = help_window.browser.document()
    block = doc.begin()
    while block.isValid():
        if any(anchor in f.format.anchorNames() for f in block.textFormats()):
            return int(doc.documentLayout().blockBoundingRect(block).top())
        block = block.next()
    raise AssertionError(f"no heading #{anchor}")


@pytest.fixture
def project_window(window, tmp_path):
    assert window.create_project(tmp_path / "survey.dpdesk")
    return window


def test_each_view_help_button_opens_its_page_from_the_package(project_window, qtbot):
    window = project_window
    for row, task in enumerate(TASKS):
        window.nav.setCurrentRow(row)
        view = window.views.currentWidget()
        button = view.findChild(QToolButton, "view_help")
        assert button is not None and button.isVisible(), f"{task} has no help button"
        assert button.accessibleName() == f"Help on {task}"
        qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
        help_window = _help(window)
        page, anchor = VIEW_PAGES[task]
        assert help_window.isVisible() and help_window.page == page
        assert _source(help_window) == SHIPPED / page  # the shipped copy, never docs/guide
        text = help_window.browser.toPlainText()
        assert (SHIPPED / page).read_text(encoding="utf-8").splitlines()[0].lstrip("# ") in text
        assert len(text) > 500, f"{page} has hardly any text"
        assert help_window.contents.currentItem().data(Qt.ItemDataRole.UserRole) == page
    help_window.close()


def test_f1_opens_the_page_of_the_current_view(project_window, qtbot):
    window = project_window
    window.activateWindow()
    qtbot.waitActive(window)
    window.nav.setCurrentRow(TASKS.index("Tabulate"))
    qtbot.keyClick(window.nav, Qt.Key.Key_F1)
    help_window = _help(window)
    assert help_window.isVisible() and help_window.page == "tabulate.md"
    help_window.close()
    window.nav.setCurrentRow(TASKS.index("Share"))
    qtbot.keyClick(window.nav, Qt.Key.Key_F1)
    assert _help(window).page == "share.md"


def test_f1_on_the_welcome_screen_and_help_menu_guide(window, qtbot):
    window.actions_["help"].trigger()
    assert _help(window).page == VIEW_PAGES["Welcome"][0]
    window.actions_["guide"].trigger()
    assert _help(window).page == "index.md"


def test_links_between_pages_headings_back_and_forward(qtbot):
    help_window = HelpWindow()
    qtbot.addWidget(help_window)
    help_window.resize(1000, 720)
    help_window.show()
    qtbot.waitExposed(help_window)
    assert help_window.show_contents() and help_window.page == "index.md"

    # a real click on the index's link to the Data page
    doc = help_window.browser.document()
    cursor = doc.find("Data")
    while not cursor.charFormat().anchorHref():
        cursor = doc.find("Data", cursor)
        assert not cursor.isNull(), "no link to the Data page"
    assert cursor.charFormat().anchorHref() == "data.md"
    cursor.setPosition(cursor.selectionStart() + 1)
    help_window.browser.ensureCursorVisible()
    help_window.browser.setTextCursor(cursor)
    help_window.browser.ensureCursorVisible()
    point = help_window.browser.cursorRect(cursor).center()
    with qtbot.waitSignal(help_window.browser.sourceChanged):
        qtbot.mouseClick(help_window.browser.viewport(), Qt.MouseButton.LeftButton, pos=point)
    assert help_window.page == "data.md"
    assert _source(help_window) == SHIPPED / "data.md"
    assert help_window.back_button.isEnabled() and not help_window.forward_button.isEnabled()

    # a link to a heading of another page scrolls there
    help_window.browser.anchorClicked.emit(QUrl("tabulate.md#the-ledger-every-release"))
    assert help_window.page == "tabulate.md"
    bar = help_window.browser.verticalScrollBar()
    top = _heading_top(help_window, "the-ledger-every-release")
    assert bar.value() > 0 and abs(bar.value() - min(top, bar.maximum())) < 40

    # a heading on the same page; Back returns to where you were
    help_window.browser.anchorClicked.emit(QUrl("#setting-the-budget"))
    assert help_window.page == "tabulate.md"
    assert abs(bar.value() - min(_heading_top(help_window, "setting-the-budget"), bar.maximum())) < 40
    qtbot.mouseClick(help_window.back_button, Qt.MouseButton.LeftButton)
    assert help_window.browser.source().fragment() == "the-ledger-every-release"
    assert abs(bar.value() - min(top, bar.maximum())) < 40

    qtbot.mouseClick(help_window.back_button, Qt.MouseButton.LeftButton)
    assert help_window.page == "data.md" and help_window.forward_button.isEnabled()
    qtbot.mouseClick(help_window.back_button, Qt.MouseButton.LeftButton)
    assert help_window.page == "index.md" and not help_window.back_button.isEnabled()
    qtbot.mouseClick(help_window.forward_button, Qt.MouseButton.LeftButton)
    assert help_window.page == "data.md"

    # the contents list opens a page
    row = next(i for i in range(help_window.contents.count())
               if help_window.contents.item(i).data(Qt.ItemDataRole.UserRole) == "share.md")
    item = help_window.contents.item(row)
    qtbot.mouseClick(help_window.contents.viewport(), Qt.MouseButton.LeftButton,
                     pos=help_window.contents.visualItemRect(item).center())
    assert help_window.page == "share.md"
    qtbot.mouseClick(help_window.home_button, Qt.MouseButton.LeftButton)
    assert help_window.page == "index.md"

    # a link out of the guide says so and stays; a missing page says so
    help_window.browser.anchorClicked.emit(QUrl("../../../README.md"))
    assert help_window.page == "index.md" and "not part of the user guide" in help_window.message.text()
    assert not help_window.show_page("no-such-page.md")
    assert "no-such-page.md" in help_window.message.text() and help_window.page == "index.md"


def test_screenshots_are_shown_and_fit_the_page(qtbot):
    help_window = HelpWindow()
    qtbot.addWidget(help_window)
    help_window.resize(1000, 720)
    help_window.show()
    qtbot.waitExposed(help_window)
    help_window.show_view("Tabulate")
    doc = help_window.browser.document()
    images = []
    block = doc.begin()
    while block.isValid():
        it = block.begin()
        while not it.atEnd():
            fmt = it.fragment().charFormat()
            if fmt.isImageFormat():
                images.append(fmt.toImageFormat())
            it += 1
        block = block.next()
    assert images, "the Tabulate page shows its screenshots"
    room = help_window.browser.viewport().width()
    from dpdesk.gui.help.window import ORIGINAL_IMAGE

    for image in images:
        original = image.property(ORIGINAL_IMAGE) or image.name()
        assert (SHIPPED / original).is_file()
        picture = doc.resource(doc.ResourceType.ImageResource, QUrl(image.name()))
        assert picture is not None and not picture.isNull(), f"{image.name()} did not load"
        assert 0 < image.width() <= room and picture.width() == round(image.width())
    # narrower window: the screenshots follow
    widths = [image.width() for image in images]
    help_window.resize(700, 600)
    qtbot.waitUntil(lambda: help_window.browser.viewport().width() < 600)
    help_window._fit.timeout.emit()
    block, narrower = doc.begin(), []
    while block.isValid():
        it = block.begin()
        while not it.atEnd():
            fmt = it.fragment().charFormat()
            if fmt.isImageFormat():
                narrower.append(fmt.toImageFormat().width())
            it += 1
        block = block.next()
    assert len(narrower) == len(widths) and all(n <= help_window.browser.viewport().width() for n in narrower)
    assert any(n < w for n, w in zip(narrower, widths))


def test_help_window_screenshots(project_window, qtbot):
    window = project_window
    window.nav.setCurrentRow(TASKS.index("Tabulate"))
    window.show_help()
    help_window = _help(window)
    qtbot.waitExposed(help_window)
    for size, suffix in (((1000, 720), ""), ((1024, 700), "_1024")):
        help_window.resize(*size)
        qtbot.waitUntil(lambda: help_window.width() == size[0])
        help_window._fit_images()
        help_window.show_page("data.md")
        shot(help_window, f"help_window{suffix}")
    window.nav.setCurrentRow(TASKS.index("Design"))
    shot(window, "view_help_button")
    help_window.close()


def test_f1_in_the_wizard_and_the_import_dialog_opens_their_pages(project_window, qtbot):
    """A dialog gets its own help window (a window-modal dialog blocks its parent's other windows)."""
    window = project_window
    wizard = window.design_view.new_item()
    wizard.activateWindow()
    qtbot.waitUntil(wizard.isActiveWindow)
    qtbot.keyClick(wizard.focusWidget() or wizard, Qt.Key.Key_F1)
    help_window = wizard.findChild(HelpWindow)
    assert help_window is not None and help_window.isVisible()
    assert help_window.page == "design.md" and help_window.browser.source().fragment() == "the-wizard-new-survey-item"
    assert help_window.browser.verticalScrollBar().value() > 0
    wizard.reject()

    dialog = window.data_view.import_dialog()
    dialog.activateWindow()
    qtbot.waitUntil(dialog.isActiveWindow)
    qtbot.keyClick(dialog.focusWidget() or dialog, Qt.Key.Key_F1)
    help_window = dialog.findChild(HelpWindow)
    assert help_window is not None and help_window.page == "data.md"
    assert help_window.browser.source().fragment() == "importing-a-file"
    dialog.reject()
