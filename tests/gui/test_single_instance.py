"""One instance (issue 17; issue 28, part 3): a later start hands its project to the running
window of the same user and data folder, through a socket nobody else can find or reach.

The attacks: a listener squatting the old predictable name in /tmp, a listener of another data
folder, a foreign peer at either end (another user: SO_PEERCRED, simulated by a fake
peer-credential function, and for real when the suite runs as root), runtime folders that are
open, links or someone else's.
"""

from __future__ import annotations

import getpass
import hashlib
import json
import os
import socket
import stat
import subprocess
import sys
import threading

import pytest

from tests.helpers.paths import ROOT

WAIT = 20  # seconds: a bound for a hang, never reached when a test passes


@pytest.fixture
def server(window, qtbot):
    from dpdesk.gui.shell.single_instance import InstanceServer

    s = InstanceServer()
    assert s.listen()
    s.open_requested.connect(window.bring_forward)
    yield s
    s.close()


@pytest.fixture
def short_folder():
    """A folder with a short path (a socket path holds about 100 bytes; tmp_path's are long)."""
    import shutil
    import tempfile
    from pathlib import Path

    folder = Path(tempfile.mkdtemp(prefix="dps-", dir="/tmp"))
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


def _project(tmp_path, name="handed"):
    from dpdesk.project import Project

    path = tmp_path / f"{name}.dpdesk"
    Project.create(path).close()
    return path


def _in_thread(fn):
    out: dict = {}

    def run():
        try:
            out["value"] = fn()
        except BaseException as exc:  # noqa: BLE001 - the test looks at it
            out["error"] = exc

    t = threading.Thread(target=run)
    t.start()
    return t, out


def _old_name() -> str:
    """The socket name dpdesk used before issue 28: predictable by anyone on the machine."""
    try:
        user = getpass.getuser()
    except (KeyError, OSError):
        user = str(os.getuid())
    digest = hashlib.sha256(f"{user}\0{os.environ.get('DPDESK_SETTINGS_DIR', '')}".encode()).hexdigest()[:16]
    return f"dpdesk-{digest}"


class Squatter:
    """A plain Unix-socket listener at ``path`` that says ``hello`` and records what it is sent."""

    def __init__(self, path: str, hello: bytes = b"") -> None:
        self.path, self.hello = path, hello
        self.connected, self.received = False, b""
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.bind(path)
        self.sock.listen(4)
        self.sock.settimeout(WAIT)
        self.thread = threading.Thread(target=self._run)
        self.thread.start()

    def _run(self) -> None:
        try:
            conn, _ = self.sock.accept()
        except OSError:
            return
        with conn:
            self.connected = True
            conn.settimeout(WAIT)
            try:
                if self.hello:
                    conn.sendall(self.hello)
                while chunk := conn.recv(4096):
                    self.received += chunk
            except OSError:
                pass

    def close(self) -> None:
        self.thread.join(WAIT)  # the connection the test made is accepted and read to its end
        self.sock.close()
        if os.path.exists(self.path):
            os.unlink(self.path)


def _hello(data: str) -> bytes:
    return (json.dumps({"dpdesk": 1, "data": data}) + "\n").encode()


# ------------------------------------------------------------------ the hand-off works
def test_a_second_start_in_process_opens_the_project_here(window, server, qtbot, tmp_path):
    from dpdesk.gui.shell.single_instance import hand_over

    path = _project(tmp_path)
    t, out = _in_thread(lambda: hand_over(str(path)))  # the running window answers on this thread's loop
    qtbot.waitUntil(lambda: window.project is not None, timeout=10_000)
    t.join(WAIT)
    assert out == {"value": True}
    assert window.project.path == path.resolve()


def test_a_second_program_hands_over_and_exits(window, server, qtbot, tmp_path):
    path = _project(tmp_path)
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", PYTHONPATH=str(ROOT))
    env.pop("DPDESK_QUIT_AFTER_SHOW", None)
    proc = subprocess.Popen([sys.executable, "-m", "dpdesk", str(path)], env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    try:
        qtbot.waitUntil(lambda: proc.poll() is not None, timeout=60_000)  # this window answers meanwhile
    finally:
        if proc.poll() is None:
            proc.kill()
        out, err = proc.communicate(timeout=WAIT)
    assert proc.returncode == 0, err
    assert "already running" in out
    qtbot.waitUntil(lambda: window.project is not None, timeout=10_000)
    assert window.project.path == path.resolve()


def test_nobody_listening_means_no_hand_over(settings_dir):
    from dpdesk.gui.shell.single_instance import hand_over

    assert not hand_over(None)


# ------------------------------------------------------------------ where the socket is
def test_the_socket_is_in_a_folder_of_this_user_only(settings_dir):
    from dpdesk.gui.shell import private_socket

    path = private_socket.socket_path()
    folder = os.lstat(os.path.dirname(path))
    assert stat.S_ISDIR(folder.st_mode) and folder.st_uid == os.getuid() and not folder.st_mode & 0o077
    assert os.path.basename(path) != _old_name() and os.path.dirname(path) != "/tmp"


def test_the_runtime_folder_is_used_only_when_it_is_private(settings_dir, short_folder, monkeypatch):
    from dpdesk.gui.shell import private_socket

    runtime = short_folder
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(runtime))
    assert private_socket.socket_path().startswith(str(runtime / "dpdesk") + "/")
    os.chmod(runtime, 0o755)  # a runtime folder others can list and enter: not used
    assert not private_socket.socket_path().startswith(str(runtime))


def test_a_link_in_place_of_the_socket_folder_is_refused(settings_dir, tmp_path, monkeypatch):
    from dpdesk.gui.shell import private_socket

    runtime, elsewhere = tmp_path / "run", tmp_path / "elsewhere"
    runtime.mkdir(mode=0o700)
    elsewhere.mkdir(mode=0o700)
    (runtime / "dpdesk").symlink_to(elsewhere)  # planted: the socket would go where the link points
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(runtime))
    path = private_socket.socket_path()
    assert path is None or not path.startswith((str(runtime), str(elsewhere)))
    assert private_socket.private_folder(runtime / "dpdesk") is None


def test_a_folder_owned_by_another_user_is_refused(settings_dir, tmp_path, monkeypatch):
    from dpdesk.gui.shell import private_socket

    folder = tmp_path / "theirs"
    folder.mkdir(mode=0o700)
    if os.getuid() == 0:
        os.chown(folder, 65534, 65534)  # really someone else's
    else:
        monkeypatch.setattr(private_socket, "_uid", lambda: os.getuid() + 1)  # we are someone else
    assert private_socket.private_folder(folder) is None


def test_no_private_folder_means_no_socket_and_a_window_of_its_own(settings_dir, monkeypatch):
    from dpdesk.gui.shell import private_socket, single_instance

    monkeypatch.setattr(private_socket, "private_folder", lambda path: None)
    assert private_socket.socket_path() is None
    assert not single_instance.hand_over("x.dpdesk")
    assert not single_instance.InstanceServer().listen()


def test_the_windows_pipe_name_cannot_be_guessed(tmp_path):
    """Pipe names are one namespace for every user of a Windows computer: the name is a random token
    kept in the data folder, the same for every start with that folder, different for another."""
    from dpdesk.gui.shell.private_socket import pipe_name

    name = pipe_name(tmp_path / "a")
    assert name is None  # no data folder: no name (never a guessable one)
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    name = pipe_name(tmp_path / "a")
    assert len(name) == len("dpdesk-") + 32 and name == pipe_name(tmp_path / "a") != pipe_name(tmp_path / "b")
    (tmp_path / "a" / "run" / "pipe-name").write_text("dpdesk-predictable\n")  # planted: not used
    assert pipe_name(tmp_path / "a") is None


# ------------------------------------------------------------------ attacks
def test_a_squatter_at_the_old_predictable_name_gets_nothing(window, server, qtbot, tmp_path):
    from PySide6.QtCore import QCoreApplication
    from PySide6.QtNetwork import QLocalServer

    from dpdesk.gui.shell.single_instance import hand_over

    squat = QLocalServer()
    QLocalServer.removeServer(_old_name())
    assert squat.listen(_old_name())  # /tmp/dpdesk-<hash of user and settings folder>, as before
    try:
        path = tmp_path / "secret-study" / "drug_use_wave2.dpdesk"
        path.parent.mkdir()
        _project(path.parent, "drug_use_wave2")
        t, out = _in_thread(lambda: hand_over(str(path)))
        qtbot.waitUntil(lambda: window.project is not None, timeout=10_000)
        t.join(WAIT)
        QCoreApplication.processEvents()
        assert out == {"value": True} and not squat.hasPendingConnections()
    finally:
        squat.close()


def test_a_listener_of_another_data_folder_is_not_used(qtbot, tmp_path, monkeypatch):
    from PySide6.QtCore import QCoreApplication

    from dpdesk.gui.shell.single_instance import InstanceServer, hand_over

    monkeypatch.setenv("DPDESK_SETTINGS_DIR", str(tmp_path / "other-home"))
    theirs = InstanceServer()
    assert theirs.listen()
    asked = []
    theirs.open_requested.connect(asked.append)
    theirs.refused.connect(asked.append)
    try:
        monkeypatch.setenv("DPDESK_SETTINGS_DIR", str(tmp_path / "my-home"))
        assert not hand_over(str(tmp_path / "mine.dpdesk"))
        QCoreApplication.processEvents()
        assert asked == []  # it was never even reached
    finally:
        theirs.close()


def test_a_listener_announcing_another_data_folder_gets_no_path(settings_dir, tmp_path):
    """Even at this data folder's socket, a listener that serves another data folder is told nothing."""
    from dpdesk.gui.shell import private_socket
    from dpdesk.gui.shell.single_instance import hand_over

    squat = Squatter(private_socket.socket_path(), _hello(str(tmp_path / "other" / "data")))
    try:
        assert not hand_over(str(tmp_path / "secret-study" / "drug_use_wave2.dpdesk"))
    finally:
        squat.close()
    assert squat.connected and squat.received == b""


def test_a_listener_of_another_user_gets_no_path(settings_dir, tmp_path, monkeypatch):
    """SO_PEERCRED says the listener is another user (a fake peer-credential function): the client
    hangs up before it says anything, although the listener speaks the protocol perfectly."""
    from dpdesk.gui.shell import private_socket
    from dpdesk.gui.shell.single_instance import hand_over

    squat = Squatter(private_socket.socket_path(), _hello(private_socket.data_folder()))
    monkeypatch.setattr(private_socket, "peer_uid", lambda fd: os.getuid() + 1)
    try:
        assert not hand_over(str(tmp_path / "secret-study" / "drug_use_wave2.dpdesk"))
    finally:
        squat.close()
    assert squat.connected and squat.received == b""


def test_the_listener_s_real_peer_credentials_are_checked(settings_dir, short_folder, tmp_path):
    """The same attack with a real listener of another user (only when the suite runs as root)."""
    if os.getuid() != 0:
        pytest.skip("needs root to run a listener as another user")
    from dpdesk.gui.shell.single_instance import hand_over

    os.chmod(short_folder, 0o777)  # a place the other user can reach (dpdesk's own folder is 0700)
    path = str(short_folder / "s")
    from dpdesk.gui.shell import private_socket

    code = ("import json, os, socket, sys\n"
            "os.setgid(65534); os.setuid(65534)\n"
            "s = socket.socket(socket.AF_UNIX); s.bind(sys.argv[1]); s.listen(1)\n"
            "print('ready', flush=True)\n"
            "c, _ = s.accept(); c.settimeout(20); data = b''\n"
            "try:\n"
            "    c.sendall(sys.argv[2].encode())\n"
            "    while chunk := c.recv(4096): data += chunk\n"
            "except OSError: pass\n"
            "print(len(data), flush=True)\n")
    squat = subprocess.Popen([sys.executable, "-c", code, path, _hello(private_socket.data_folder()).decode()],
                             stdout=subprocess.PIPE, text=True)
    try:
        assert squat.stdout.readline().strip() == "ready"
        assert not hand_over(str(tmp_path / "secret.dpdesk"), path)
        assert squat.stdout.readline().strip() == "0"  # it received nothing
    finally:
        squat.kill()
        squat.wait(WAIT)


def test_another_user_cannot_even_reach_the_socket(server, tmp_path):
    """The folder is 0700: a process of another user is refused by the file system before any check."""
    if os.getuid() != 0:
        pytest.skip("needs root to connect as another user")
    code = ("import os, socket, sys\n"
            "os.setgid(65534); os.setuid(65534)\n"
            "s = socket.socket(socket.AF_UNIX)\n"
            "try:\n    s.connect(sys.argv[1])\nexcept PermissionError:\n    print('refused')\n"
            "else:\n    print('connected')\n")
    done = subprocess.run([sys.executable, "-c", code, server.path], capture_output=True, text=True, timeout=60)
    assert done.stdout.strip() == "refused", done.stderr


def test_a_foreign_client_is_turned_away_before_a_word(window, server, qtbot, tmp_path, monkeypatch):
    """SO_PEERCRED says the client is another user: the server hangs up without its hello and
    opens nothing, although the request is well formed."""
    from dpdesk.gui.shell import private_socket

    monkeypatch.setattr(private_socket, "peer_uid", lambda fd: os.getuid() + 1)
    target = _project(tmp_path)
    request = (json.dumps({"data": private_socket.data_folder(), "open": str(target)}) + "\n").encode()

    def client():
        with socket.socket(socket.AF_UNIX) as s:
            s.settimeout(WAIT)
            s.connect(server.path)
            s.sendall(request)
            data = b""
            try:
                while chunk := s.recv(4096):
                    data += chunk
            except OSError:
                pass
            return data

    with qtbot.waitSignal(server.refused, timeout=10_000) as refused:
        t, out = _in_thread(client)
    t.join(WAIT)
    assert refused.args == ["another user"] and out == {"value": b""}
    assert window.project is None


def test_a_request_for_another_data_folder_is_refused(window, server, qtbot, tmp_path):
    from dpdesk.gui.shell import private_socket

    target = _project(tmp_path)
    request = (json.dumps({"data": str(tmp_path / "other"), "open": str(target)}) + "\n").encode()

    def client():
        with socket.socket(socket.AF_UNIX) as s:
            s.settimeout(WAIT)
            s.connect(server.path)
            s.sendall(request)
            data = b""
            while chunk := s.recv(4096):
                data += chunk
            return data

    with qtbot.waitSignal(server.refused, timeout=10_000):
        t, out = _in_thread(client)
    t.join(WAIT)
    assert out["value"] == _hello(private_socket.data_folder()) + b"no\n"
    assert window.project is None


def test_the_application_has_dpdesk_s_icon(qapp):
    from dpdesk.gui.shell.app import app_icon, make_app

    app = make_app([])
    assert app_icon() is not None and not app.windowIcon().isNull()
