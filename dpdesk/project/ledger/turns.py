"""One release at a time on this computer: a fair queue that waits as long as it takes.

Two copies of a project releasing at the same moment would each check the budget before the
other's release reached the register, and together spend past it. So a release holds the
spending lock from its budget check until the register is updated
(:func:`dpdesk.project.ledger.releases.release`): an exclusive ``flock`` on
``<user data folder>/ledger/spending.lock``, which the operating system drops when its process
dies.

The wait is blocking and fair, and it never gives up:

- in this process, requests line up first come, first served (a ticket queue ahead of the file
  lock: each waits on its own event, and the one leaving hands the turn to the next, so a
  thousand waiting requests cost nothing while they wait);
- the request at the head of the queue takes the file lock with a blocking ``flock`` (other
  programs on this computer: the operating system wakes a waiter when the lock is given back);
- a request fails only for its own reasons (its budget, its data). A caller that can cancel
  passes ``waiting``: it is called when the request has to wait, then every
  :data:`CHECK_EVERY` seconds while it waits, and whatever it raises (the app's Cancel) takes
  the request out of the queue with nothing spent. The blocking ``flock`` of a cancellable
  request runs in a helper thread, so Cancel does not wait for another program; a lock that
  helper gets after its request was cancelled is given back at once.

A data folder that cannot be written has no register to coordinate: nothing is locked.
"""

from __future__ import annotations

import contextlib
import os
import threading
from collections import deque
from typing import Callable, Iterator

from dpdesk.errors import ProjectError
from dpdesk.project.file.lock import try_lock
from dpdesk.project.ledger import key

try:  # POSIX
    import fcntl
except ImportError:  # pragma: no cover - Windows
    fcntl = None
    import msvcrt

__all__ = ["LOCK", "CHECK_EVERY", "spending_lock", "queued"]

LOCK = "spending.lock"
#: Seconds between two calls of a waiting request's ``waiting`` (its chance to cancel).
CHECK_EVERY = 0.1


class _Queue:
    """This process's requests for the spending lock, first come, first served."""

    def __init__(self) -> None:
        self._mutex = threading.Lock()
        self._line: deque[threading.Event] = deque()

    def __len__(self) -> int:
        with self._mutex:
            return len(self._line)

    def enter(self, waiting: Callable[[], None] | None) -> threading.Event:
        """Join the queue and wait for this request's turn (``waiting``: see the module)."""
        turn = threading.Event()
        with self._mutex:
            self._line.append(turn)
            if self._line[0] is turn:
                turn.set()
        if turn.is_set():
            return turn
        try:
            if waiting is None:
                turn.wait()
            else:
                waiting()
                while not turn.wait(CHECK_EVERY):
                    waiting()
        except BaseException:
            self.leave(turn)
            raise
        return turn

    def leave(self, turn: threading.Event) -> None:
        """Leave the queue (done or cancelled); the next request's turn comes if this one had it."""
        with self._mutex:
            head = bool(self._line) and self._line[0] is turn
            with contextlib.suppress(ValueError):
                self._line.remove(turn)
            if head and self._line:
                self._line[0].set()

    def reset(self) -> None:
        """A forked child starts with no queue (its parent's waiting threads are not in it)."""
        self._mutex = threading.Lock()
        self._line = deque()


_QUEUE = _Queue()
if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_QUEUE.reset)


def queued() -> int:
    """How many requests of this process hold or wait for the spending lock (for tests and progress)."""
    return len(_QUEUE)


def _block(fd: int) -> None:
    """Take the exclusive lock on ``fd``, waiting as long as another program holds it."""
    if fcntl is not None:
        fcntl.flock(fd, fcntl.LOCK_EX)
        return
    while True:  # pragma: no cover - Windows: LK_LOCK tries for about 10 s, then raises; try again
        try:
            msvcrt.locking(fd, msvcrt.LK_LOCK, 1)
            return
        except OSError:
            continue


class _Helper:
    """A blocking ``flock`` in a thread of its own, so that a cancellable request can stop waiting."""

    def __init__(self, fd: int) -> None:
        self.fd = fd
        self.got = threading.Event()
        self._mutex = threading.Lock()
        self._abandoned = False
        self.error: OSError | None = None
        threading.Thread(target=self._run, name="dpdesk-spending-lock", daemon=True).start()

    def _run(self) -> None:
        try:
            _block(self.fd)
        except OSError as exc:  # nothing is held; the request goes on without the lock (see spending_lock)
            self.error = exc
        with self._mutex:
            if self._abandoned:
                os.close(self.fd)  # its request was cancelled: give the lock back at once
            else:
                self.got.set()

    def abandon(self) -> None:
        """The request was cancelled: give the lock back now if it came, or as soon as it does."""
        with self._mutex:
            if self.got.is_set():
                os.close(self.fd)
            else:
                self._abandoned = True


def _take_file(path, waiting: Callable[[], None] | None) -> int:
    """Open ``path`` and hold an exclusive lock on it (blocking, cancellable through ``waiting``)."""
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    if try_lock(fd):
        return fd
    if waiting is None:
        try:
            _block(fd)
        except BaseException:
            os.close(fd)
            raise
        return fd
    helper = _Helper(fd)
    try:
        waiting()
        while not helper.got.wait(CHECK_EVERY):
            waiting()
    except BaseException:
        helper.abandon()
        raise
    if helper.error is not None:
        os.close(fd)
        raise helper.error
    return fd


@contextlib.contextmanager
def spending_lock(waiting: Callable[[], None] | None = None) -> Iterator[None]:
    """Hold this computer's spending lock for the ``with`` block, after every request before this one.

    ``waiting`` (optional) is called when the request has to wait and every :data:`CHECK_EVERY`
    seconds until its turn; what it raises cancels the request (it leaves the queue, nothing held)."""
    try:
        path = key.ledger_folder() / LOCK
    except (OSError, ProjectError):
        yield
        return
    turn = _QUEUE.enter(waiting)
    try:
        try:
            fd = _take_file(path, waiting)
        except OSError:  # the lock file cannot be made (a read-only data folder): nothing to coordinate
            fd = None
        try:
            yield
        finally:
            if fd is not None:
                os.close(fd)  # closing the descriptor gives the lock back
    finally:
        _QUEUE.leave(turn)
