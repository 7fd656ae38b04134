"""One dpdesk per user: a second start hands its project to the running window and exits.

Opening a ``.dpdesk`` file from the file manager while dpdesk runs must not start a second
program (which would find the project locked). The first instance listens on a local
socket (``QLocalServer``: a Unix-domain socket, or a named pipe on Windows) whose name is
private to the user and the settings folder; a later start connects, writes the absolute
path of the project to open (or an empty line: just come forward), and exits. The running
instance opens it and brings its window to the front. On macOS the Finder sends a
``QFileOpenEvent`` to the running program instead, handled by :class:`FileOpenFilter`.
"""

from __future__ import annotations

import getpass
import hashlib
import os
from pathlib import Path

from PySide6.QtCore import QEvent, QObject, Signal
from PySide6.QtNetwork import QLocalServer, QLocalSocket

#: How long a second start waits for the running instance to accept its message (ms).
TIMEOUT_MS = 1000


def server_name() -> str:
    """A socket name private to this user (and to the settings folder, so tests never meet)."""
    try:
        user = getpass.getuser()
    except (KeyError, OSError):  # no user name (some containers)
        user = str(os.getuid()) if hasattr(os, "getuid") else "user"
    scope = os.environ.get("DPDESK_SETTINGS_DIR", "")
    digest = hashlib.sha256(f"{user}\0{scope}".encode()).hexdigest()[:16]
    return f"dpdesk-{digest}"


def hand_over(project: str | None) -> bool:
    """Give ``project`` (or nothing: come forward) to a running dpdesk; True if one took it."""
    socket = QLocalSocket()
    socket.connectToServer(server_name())
    if not socket.waitForConnected(TIMEOUT_MS):
        return False
    text = str(Path(project).absolute()) if project else ""
    socket.write((text + "\n").encode("utf-8"))
    socket.flush()
    done = socket.bytesToWrite() == 0 or socket.waitForBytesWritten(TIMEOUT_MS)
    socket.disconnectFromServer()
    if socket.state() != QLocalSocket.LocalSocketState.UnconnectedState:
        socket.waitForDisconnected(TIMEOUT_MS)
    return done


class InstanceServer(QObject):
    """Listens for later starts; ``open_requested(path)`` ('' to just come forward)."""

    open_requested = Signal(str)

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.server = QLocalServer(self)
        self.server.setSocketOptions(QLocalServer.SocketOption.UserAccessOption)  # only this user connects
        self.server.newConnection.connect(self._on_connection)
        self._buffers: dict[QLocalSocket, bytes] = {}

    def listen(self) -> bool:
        name = server_name()
        if self.server.listen(name):
            return True
        QLocalServer.removeServer(name)  # a stale socket left by a program that crashed
        return self.server.listen(name)

    def close(self) -> None:
        self.server.close()

    def _on_connection(self) -> None:
        while self.server.hasPendingConnections():
            socket = self.server.nextPendingConnection()
            self._buffers[socket] = b""
            socket.readyRead.connect(self._on_ready_read)
            socket.disconnected.connect(self._on_disconnected)
            if socket.bytesAvailable():
                self._read(socket)

    def _on_ready_read(self) -> None:
        self._read(self.sender())

    def _read(self, socket) -> None:
        data = self._buffers.get(socket, b"") + bytes(socket.readAll())
        while b"\n" in data:
            line, data = data.split(b"\n", 1)
            self.open_requested.emit(line.decode("utf-8", "replace").strip())
        self._buffers[socket] = data[-4096:]  # a path is short: never buffer without bound

    def _on_disconnected(self) -> None:
        socket = self.sender()
        self._read(socket)
        self._buffers.pop(socket, None)
        socket.deleteLater()


class FileOpenFilter(QObject):
    """macOS: the Finder's 'open this file' arrives as a QFileOpenEvent on the application."""

    open_requested = Signal(str)

    def eventFilter(self, watched, event) -> bool:  # noqa: N802 - Qt API
        if event.type() == QEvent.Type.FileOpen:
            path = event.file()
            if path:
                self.open_requested.emit(path)
                return True
        return super().eventFilter(watched, event)
