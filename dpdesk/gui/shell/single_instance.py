"""One dpdesk per user and data folder: a later start hands its project to the running window.

Opening a ``.dpdesk`` file from the file manager while dpdesk runs must not start a second
program (which would find the project locked). The first instance listens on a local socket
(``QLocalServer``) at a full path in a folder only this user can open, named for the data
folder (:mod:`dpdesk.gui.shell.private_socket`). A later start connects and the two ends
check each other before anything is said:

1. each asks the operating system who the other end is, and hangs up on anyone but this user
   (:func:`~dpdesk.gui.shell.private_socket.same_user`);
2. the server says which data folder it serves (``{"dpdesk": 1, "data": ...}``); a client of
   another data folder hangs up without sending anything and starts its own window;
3. the client sends ``{"data": ..., "open": <absolute path or "">}``; the server checks the
   data folder again, answers ``ok`` and emits ``open_requested`` (``no`` otherwise).

The running window never acts on the request at once: :mod:`dpdesk.gui.shell.handoff`
waits for open dialogs to close and asks before it replaces an open project. On macOS the
Finder sends a ``QFileOpenEvent`` to the running program instead, handled by
:class:`FileOpenFilter` and the same hand-off.
"""

from __future__ import annotations

import json
import socket
import sys
from pathlib import Path

from PySide6.QtCore import QEvent, QObject, Signal
from PySide6.QtNetwork import QLocalServer, QLocalSocket

from dpdesk.gui.shell import private_socket

#: How long a second start waits for the running instance to connect and to answer (ms).
TIMEOUT_MS = 2000
#: The longest line either end reads (a path is short: never buffer without bound).
MAX_LINE = 8192


class _UnixChannel:
    """The client's end on POSIX: a plain Unix socket with timeouts (a blocking wait that lets other
    Python threads run, so a test can answer it from the same process)."""

    def __init__(self, path: str) -> None:
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.settimeout(TIMEOUT_MS / 1000)
        try:
            self.sock.connect(path)
        except BaseException:
            self.sock.close()
            raise
        self._rest = b""

    def fd(self) -> int:
        return self.sock.fileno()

    def read_line(self) -> bytes | None:
        data = self._rest
        while b"\n" not in data:
            if len(data) > MAX_LINE:
                return None
            chunk = self.sock.recv(4096)
            if not chunk:
                return None
            data += chunk
        line, self._rest = data.split(b"\n", 1)
        return line

    def send(self, data: bytes) -> None:
        self.sock.sendall(data)

    def close(self) -> None:
        self.sock.close()


class _PipeChannel:  # pragma: no cover - Windows: a named pipe through Qt
    """The client's end on Windows: ``QLocalSocket`` on the pipe (see private_socket on its access)."""

    def __init__(self, path: str) -> None:
        self.sock = QLocalSocket()
        self.sock.connectToServer(path)
        if not self.sock.waitForConnected(TIMEOUT_MS):
            raise OSError("no dpdesk is listening")
        self._rest = b""

    def fd(self) -> int:
        return int(self.sock.socketDescriptor())

    def read_line(self) -> bytes | None:
        data = self._rest
        while b"\n" not in data:
            if len(data) > MAX_LINE or (not self.sock.bytesAvailable() and not self.sock.waitForReadyRead(TIMEOUT_MS)):
                return None
            data += bytes(self.sock.readAll())
        line, self._rest = data.split(b"\n", 1)
        return line

    def send(self, data: bytes) -> None:
        self.sock.write(data)
        self.sock.waitForBytesWritten(TIMEOUT_MS)

    def close(self) -> None:
        self.sock.abort()


def hand_over(project: str | None, path: str | None = None) -> bool:
    """Give ``project`` (or nothing: come forward) to a running dpdesk of this user and data folder;
    True if one took it. ``path``: the socket (default :func:`private_socket.socket_path`)."""
    path = path or private_socket.socket_path()
    if path is None:
        return False
    try:
        channel = _PipeChannel(path) if sys.platform == "win32" else _UnixChannel(path)
    except OSError:
        return False  # nobody listens
    mine = private_socket.data_folder()
    try:
        if not private_socket.same_user(channel.fd()):
            return False  # someone else's listener: it gets nothing
        hello = channel.read_line()
        try:
            theirs = json.loads(hello.decode("utf-8")) if hello is not None else None
        except (UnicodeDecodeError, ValueError):
            theirs = None
        if not isinstance(theirs, dict) or theirs.get("dpdesk") != 1 or theirs.get("data") != mine:
            return False  # not a dpdesk of this data folder: start a window of our own
        text = str(Path(project).absolute()) if project else ""
        channel.send((json.dumps({"data": mine, "open": text}) + "\n").encode("utf-8"))
        return channel.read_line() == b"ok"
    except OSError:  # a timeout, a hang-up
        return False
    finally:
        channel.close()


class InstanceServer(QObject):
    """Listens for later starts; ``open_requested(path)`` ('' to just come forward);
    ``refused(reason)`` when a connection is turned away (for the log and the tests)."""

    open_requested = Signal(str)
    refused = Signal(str)

    def __init__(self, parent=None, path: str | None = None) -> None:
        super().__init__(parent)
        self.path = path
        self.server = QLocalServer(self)
        self.server.setSocketOptions(QLocalServer.SocketOption.UserAccessOption)  # only this user connects
        self.server.newConnection.connect(self._on_connection)
        self._buffers: dict[QLocalSocket, bytes] = {}
        self._data = private_socket.data_folder()

    def listen(self) -> bool:
        """Listen at the private socket; False when there is no private folder or the socket is taken."""
        if self.path is None:
            self.path = private_socket.socket_path()
        if self.path is None:
            return False
        if self.server.listen(self.path):
            return True
        QLocalServer.removeServer(self.path)  # a stale socket left by a program that crashed
        return self.server.listen(self.path)

    def close(self) -> None:
        self.server.close()

    def _on_connection(self) -> None:
        while self.server.hasPendingConnections():
            socket = self.server.nextPendingConnection()
            if not private_socket.same_user(int(socket.socketDescriptor())):
                self.refused.emit("another user")
                socket.abort()
                socket.deleteLater()
                continue
            self._buffers[socket] = b""
            socket.readyRead.connect(self._on_ready_read)
            socket.disconnected.connect(self._on_disconnected)
            socket.write((json.dumps({"dpdesk": 1, "data": self._data}) + "\n").encode("utf-8"))
            socket.flush()
            if socket.bytesAvailable():
                self._read(socket)

    def _on_ready_read(self) -> None:
        self._read(self.sender())

    def _read(self, socket) -> None:
        if socket not in self._buffers:
            return
        data = self._buffers[socket] + bytes(socket.readAll())
        if b"\n" not in data:
            if len(data) > MAX_LINE:
                self._drop(socket, "a request too long")
            else:
                self._buffers[socket] = data
            return
        line = data.split(b"\n", 1)[0]
        try:
            request = json.loads(line.decode("utf-8"))
        except (UnicodeDecodeError, ValueError):
            request = None
        if (not isinstance(request, dict) or request.get("data") != self._data
                or not isinstance(request.get("open"), str) or "\0" in request["open"]):
            socket.write(b"no\n")
            socket.flush()
            self._drop(socket, "not a request of this data folder")
            return
        socket.write(b"ok\n")
        socket.flush()
        self._buffers.pop(socket, None)  # one request per connection
        self.open_requested.emit(request["open"])

    def _drop(self, socket, reason: str) -> None:
        self._buffers.pop(socket, None)
        self.refused.emit(reason)
        socket.disconnectFromServer()

    def _on_disconnected(self) -> None:
        socket = self.sender()
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
