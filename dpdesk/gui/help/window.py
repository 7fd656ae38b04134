"""The help window: the user guide shipped with dpdesk, read offline.

Pages are Markdown rendered by Qt itself (``QTextBrowser``; no web engine). Links between pages
open the other page here, with Back and Forward; ``page.md#heading`` scrolls to that heading
(anchors as GitHub makes them); screenshots are scaled to the window's width. Web links open in the
browser. One help window per window (the main window, or a dialog): :func:`open_help` reuses it.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QSize, Qt, QTimer, QUrl
from PySide6.QtGui import (
    QColor,
    QDesktopServices,
    QImage,
    QKeySequence,
    QPainter,
    QShortcut,
    QTextBlockFormat,
    QTextCharFormat,
    QTextCursor,
    QTextDocument,
    QTextFormat,
)
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QSplitter,
    QTextBrowser,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from dpdesk.gui.help import guide
from dpdesk.gui.help.pages import CONTENTS, page_for

MAX_IMAGE_WIDTH = 900  # screenshots are shown at most this wide (and never wider than the page)
ORIGINAL_IMAGE = QTextFormat.Property.UserProperty.value + 1  # a fitted image's own file name


class GuideBrowser(QTextBrowser):
    """A page of the guide; screenshots get a thin frame, so that a picture of a dialog is not
    mistaken for part of the page."""

    def loadResource(self, kind: int, url: QUrl):  # noqa: N802 - Qt API
        if kind == QTextDocument.ResourceType.ImageResource.value:
            target = self.source().resolved(url) if url.isRelative() else url
            image = QImage(target.toLocalFile()) if target.isLocalFile() else QImage()
            if not image.isNull():
                framed = image.convertToFormat(QImage.Format.Format_RGB32)
                painter = QPainter(framed)
                painter.setPen(QColor("#a0a0a0"))
                painter.drawRect(0, 0, framed.width() - 1, framed.height() - 1)
                painter.end()
                return framed
        return super().loadResource(kind, url)


class HelpWindow(QWidget):
    """Contents on the left, the page on the right, Back / Forward / Contents above."""

    def __init__(self, parent=None, folder: Path | None = None) -> None:
        super().__init__(parent, Qt.WindowType.Window)
        self.setObjectName("help_window")
        self.setWindowTitle("dpdesk user guide")
        self.folder = (folder or guide.guide_folder()).resolve()
        self.resize(1000, 720)

        self.back_button = self._button("Back", "Go back to the page you read before", QKeySequence.StandardKey.Back)
        self.forward_button = self._button("Forward", "Go forward again", QKeySequence.StandardKey.Forward)
        self.home_button = self._button("Contents", "The guide's first page: what dpdesk is and a table of contents")
        self.back_button.setEnabled(False)
        self.forward_button.setEnabled(False)
        self.message = QLabel()
        self.message.setAccessibleName("Help message")
        self.message.setWordWrap(True)

        self.contents = QListWidget()
        self.contents.setAccessibleName("Contents")
        self.contents.setAccessibleDescription("The pages of the user guide")
        for page, title in guide.contents(self.folder):
            item = QListWidgetItem(title.split(": ")[0])  # "Tabulate: noisy tables and ..." -> "Tabulate"
            item.setData(Qt.ItemDataRole.UserRole, page)
            item.setToolTip(title)
            self.contents.addItem(item)
        self.contents.setMinimumWidth(150)
        self.contents.setObjectName("help_contents")
        self.contents.setStyleSheet("QListWidget#help_contents { border: none; background: palette(base); }"
                                    "QListWidget#help_contents::item { padding: 5px 8px; }")

        self.browser = GuideBrowser()
        self.browser.setAccessibleName("Guide page")
        self.browser.setOpenLinks(False)  # every link goes through _on_link
        self.browser.document().setDocumentMargin(16)
        self.browser.setStyleSheet("QTextBrowser { border: none; }")

        self.back_button.clicked.connect(self.browser.backward)
        self.forward_button.clicked.connect(self.browser.forward)
        self.home_button.clicked.connect(self.show_contents)
        self.browser.backwardAvailable.connect(self.back_button.setEnabled)
        self.browser.forwardAvailable.connect(self.forward_button.setEnabled)
        self.browser.anchorClicked.connect(self._on_link)
        self.browser.sourceChanged.connect(self._on_page)
        self.contents.itemActivated.connect(self._on_contents)
        self.contents.itemClicked.connect(self._on_contents)
        QShortcut(QKeySequence.StandardKey.Close, self, self.close)
        QShortcut(QKeySequence(Qt.Key.Key_Escape), self, self.close)

        self._fit = QTimer(self)  # scale the screenshots again once resizing pauses
        self._fit.setSingleShot(True)
        self._fit.setInterval(100)
        self._fit.timeout.connect(self._fit_images)

        bar = QHBoxLayout()
        for b in (self.back_button, self.forward_button, self.home_button):
            bar.addWidget(b)
        bar.addWidget(self.message, 1)
        split = QSplitter()
        split.addWidget(self.contents)
        split.addWidget(self.browser)
        split.setStretchFactor(1, 1)
        split.setSizes([220, 780])
        split.setChildrenCollapsible(False)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(8, 8, 8, 8)
        layout.addLayout(bar)
        layout.addWidget(split, 1)

    def _button(self, text: str, tip: str, key=None) -> QToolButton:
        b = QToolButton()
        b.setText(text)
        b.setToolTip(tip)
        b.setAccessibleName(text)
        b.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)
        if key is not None:
            b.setShortcut(QKeySequence(key))
        return b

    def sizeHint(self) -> QSize:  # noqa: N802 - Qt API
        return QSize(1000, 720)

    # ------------------------------------------------------------------ pages
    @property
    def page(self) -> str:
        """The file name of the page shown (``"data.md"``), or "" before any."""
        url = self.browser.source()
        return Path(url.toLocalFile()).name if url.isLocalFile() else ""

    def show_page(self, page: str, anchor: str = "") -> bool:
        """Show ``page`` of the guide (a file name such as ``"tabulate.md"``) at heading ``anchor``."""
        path = guide.page_path(page, self.folder)
        if not path.is_file():
            self.message.setText(f"The page {page} is not part of this installation's guide.")
            if self.browser.source().isEmpty():
                self.browser.setMarkdown(f"# The user guide is missing\n\nThis installation of dpdesk has no "
                                         f"page `{page}` in `{self.folder}`. Reinstalling dpdesk brings it back.")
            return False
        url = QUrl.fromLocalFile(str(path))
        if anchor:
            url.setFragment(anchor)
        if url == self.browser.source():
            self._scroll_to(anchor)
        else:
            self.browser.setSource(url, QTextDocument.ResourceType.MarkdownResource)
        return True

    def show_view(self, view: str) -> bool:
        """Show the page of ``view`` ("Design", "Tabulate", ...; see :data:`pages.VIEW_PAGES`)."""
        return self.show_page(*page_for(view))

    def show_contents(self) -> bool:
        return self.show_page(*CONTENTS)

    def _on_contents(self, item: QListWidgetItem) -> None:
        page = item.data(Qt.ItemDataRole.UserRole)
        if page != self.page:
            self.show_page(page)

    def _on_link(self, url: QUrl) -> None:
        """A click on a link: another page (or a heading) here, a web link in the browser."""
        self.message.clear()
        if url.scheme() in ("http", "https", "mailto"):
            QDesktopServices.openUrl(url)
            self.message.setText(f"Opened {url.toString()} in your web browser.")
            return
        target = self.browser.source().resolved(url) if url.isRelative() else url
        if not target.isLocalFile():
            self.message.setText(f"This link cannot be opened from the guide: {url.toString()}")
            return
        path = Path(target.toLocalFile())
        if path.parent.resolve() == self.folder and path.suffix == ".md":
            self.show_page(path.name, target.fragment())
        elif path == Path(self.browser.source().toLocalFile()):
            self._scroll_to(target.fragment())
        else:
            self.message.setText(f"{url.toString()} is not part of the user guide shipped with the app.")

    def _on_page(self, url: QUrl) -> None:
        """A page was loaded: name its headings, fit its screenshots, select it in the contents."""
        self._name_headings()
        self._fit_images()
        self._scroll_to(url.fragment())
        page = Path(url.toLocalFile()).name  # (source() may still be the page before)
        for i in range(self.contents.count()):
            if self.contents.item(i).data(Qt.ItemDataRole.UserRole) == page:
                self.contents.setCurrentRow(i)
                break
        title = guide.title(guide.page_path(page, self.folder))
        self.setWindowTitle(f"{title} — dpdesk user guide")

    def _scroll_to(self, anchor: str) -> None:
        if anchor:
            self.browser.scrollToAnchor(anchor)
        else:
            self.browser.verticalScrollBar().setValue(0)

    def _name_headings(self) -> None:
        """Give each heading its GitHub anchor (Qt's Markdown reader names none), so that
        ``page.md#heading`` links and :meth:`QTextBrowser.scrollToAnchor` find it; shade code blocks."""
        doc = self.browser.document()
        blocks, texts = [], []
        code = QTextBlockFormat()
        code.setBackground(QColor("#f3f3f3"))
        block = doc.begin()
        while block.isValid():
            fmt = block.blockFormat()
            if fmt.headingLevel() > 0 and block.length() > 1:
                blocks.append(block)
                texts.append(block.text())
            elif fmt.nonBreakableLines() or fmt.hasProperty(QTextFormat.Property.BlockCodeFence):
                QTextCursor(block).mergeBlockFormat(code)  # code blocks on a grey ground, as on GitHub
            block = block.next()
        for block, anchor in zip(blocks, guide.anchors(texts)):
            cursor = QTextCursor(block)
            cursor.setPosition(block.position() + block.length() - 1, QTextCursor.MoveMode.KeepAnchor)
            fmt = QTextCharFormat()
            fmt.setAnchor(True)
            fmt.setAnchorNames([anchor])
            cursor.mergeCharFormat(fmt)

    def _fit_images(self) -> None:
        """Show every image at its own size, or smoothly scaled down to fit the page (keeping its
        shape): the scaled copy is added to the page's resources, the original's name kept."""
        doc = self.browser.document()
        room = max(200, min(MAX_IMAGE_WIDTH, self.browser.viewport().width() - 2 * int(doc.documentMargin()) - 8))
        room -= room % 40  # few sizes, so that resizing the window adds few scaled copies
        changes = []
        block = doc.begin()
        while block.isValid():
            it = block.begin()
            while not it.atEnd():
                fragment = it.fragment()
                if fragment.charFormat().isImageFormat():
                    changes.append((fragment.position(), fragment.length(), fragment.charFormat().toImageFormat()))
                it += 1
            block = block.next()
        kind = QTextDocument.ResourceType.ImageResource
        for position, length, image in changes:
            original = image.property(ORIGINAL_IMAGE) or image.name()
            picture = doc.resource(kind, QUrl(original))
            if not isinstance(picture, QImage) or picture.isNull():
                continue
            width = min(picture.width(), room)
            name = original
            if width < picture.width():
                name = f"dpdesk-fitted:{width}/{original}"
                doc.addResource(kind, QUrl(name),
                                picture.scaledToWidth(width, Qt.TransformationMode.SmoothTransformation))
            if name == image.name() and abs(image.width() - width) < 0.5:
                continue
            image.setName(name)
            image.setProperty(ORIGINAL_IMAGE, original)
            image.setWidth(width)
            image.setHeight(picture.height() * width / picture.width())
            cursor = QTextCursor(doc)
            cursor.setPosition(position)
            cursor.setPosition(position + length, QTextCursor.MoveMode.KeepAnchor)
            cursor.setCharFormat(image)

    def resizeEvent(self, event) -> None:  # noqa: N802 - Qt API
        super().resizeEvent(event)
        self._fit.start()


def help_window(widget: QWidget) -> HelpWindow:
    """The help window of the window ``widget`` is in, made on first use. A dialog (the wizard, the
    import dialog) gets its own: a window-modal dialog blocks its parent's other windows."""
    top = widget.window()
    existing = top if isinstance(top, HelpWindow) else top.findChild(HelpWindow, "help_window")
    return existing or HelpWindow(top)


class HelpKey(QShortcut):
    """F1 in a dialog opens the guide's page on it (``view`` keys :data:`pages.VIEW_PAGES`)."""

    def __init__(self, dialog: QWidget, view: str) -> None:
        super().__init__(QKeySequence(Qt.Key.Key_F1), dialog)
        self.view = view
        self.activated.connect(self.open)

    def open(self) -> None:
        open_help(self.parent(), view=self.view)


def open_help(widget: QWidget, view: str = "", page: str = "", anchor: str = "") -> HelpWindow:
    """Show the guide from anywhere in the app: the page of ``view`` ("Data"), or ``page`` at
    ``anchor``, or the contents. The window comes to the front."""
    window = help_window(widget)
    if page:
        window.show_page(page, anchor)
    elif view:
        window.show_view(view)
    else:
        window.show_contents()
    window.show()
    window.raise_()
    window.activateWindow()
    return window
