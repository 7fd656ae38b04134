"""This installation's secret key, which seals release ledgers (HMAC-SHA-256).

The key is 32 random bytes from :func:`secrets.token_bytes`, kept as hex text in
``<user data folder>/ledger/ledger.key`` (:func:`dpdesk.project.people.user_data.user_data_folder`,
:func:`ledger_folder`): the folder is mode 0700, the file 0600. It is made on first use, atomically: written
under a temporary name, flushed to disk, then linked to its final name, which fails if
another dpdesk process made one first (its key is then used). A key is never replaced.

The key id (first 16 hex digits of SHA-256 of a label and the key) names the key in a
ledger's seal without revealing it, so a file sealed elsewhere is recognised as such. The
register keeps every key id this computer sealed with (:func:`dpdesk.project.ledger.heads.own_key_ids`),
so after the key file is lost a file sealed with it is said as sealed by this computer's own,
missing key, and can be re-keyed (:func:`dpdesk.project.ledger.rewind.rekey`).
"""

from __future__ import annotations

import hashlib
import hmac
import os
import secrets
import stat
from dataclasses import dataclass
from pathlib import Path

from dpdesk.errors import ProjectError
from dpdesk.project.people.user_data import user_data_folder

__all__ = ["InstallationKey", "load", "key_path", "ledger_folder", "FOLDER"]

FOLDER = "ledger"
FILE = "ledger.key"


@dataclass(frozen=True)
class InstallationKey:
    """The secret and its public id; :meth:`mac` is HMAC-SHA-256 (RFC 2104) in hex."""

    secret: bytes
    path: Path

    @property
    def id(self) -> str:
        return hashlib.sha256(b"dpdesk ledger key id\0" + self.secret).hexdigest()[:16]

    def mac(self, message: str) -> str:
        return hmac.new(self.secret, message.encode("utf-8"), hashlib.sha256).hexdigest()

    def __repr__(self) -> str:  # never print the secret
        return f"InstallationKey(id={self.id!r}, path={str(self.path)!r})"


def ledger_folder() -> Path:
    """``<user data folder>/ledger``, readable and writable by its owner only (0700 on POSIX)."""
    try:
        path = user_data_folder() / FOLDER
        path.mkdir(mode=0o700, exist_ok=True)
        if os.name == "posix" and path.stat().st_mode & 0o077:
            os.chmod(path, 0o700)  # made by hand or opened up since: close it
    except OSError as exc:
        raise ProjectError(f"dpdesk cannot create the folder for its ledger key and register of heads "
                           f"({exc.filename or 'the user data folder'}: {exc.strerror or exc}). Check that your "
                           "home folder is writable, or set DPDESK_SETTINGS_DIR to a folder of yours.") from exc
    return path


def key_path() -> Path:
    return ledger_folder() / FILE


def load(create: bool = False) -> InstallationKey | None:
    """The key of this installation; None if there is none yet and ``create`` is False."""
    try:
        path = key_path()
    except ProjectError:
        if create:
            raise
        return None  # no folder, so no key: files are verified by structure only
    try:
        return _read(path)
    except FileNotFoundError:
        if not create:
            return None
    _make(path)
    return _read(path)


def _read(path: Path) -> InstallationKey:
    info = os.lstat(path)  # FileNotFoundError: no key yet
    if not stat.S_ISREG(info.st_mode) or info.st_size > 4096:  # a link, folder, FIFO or device: never opened
        what = "a link" if stat.S_ISLNK(info.st_mode) else ("too long" if stat.S_ISREG(info.st_mode) else
                                                               "not a regular file")
        raise _damaged(path, what)
    if os.name == "posix" and info.st_mode & 0o077:
        try:
            os.chmod(path, 0o600)  # loosened by hand: close it again
        except OSError:
            pass
    with open(path, "rb") as f:
        text = f.read(4096).decode("ascii", errors="replace").strip()
    try:
        secret = bytes.fromhex(text)
    except ValueError:
        secret = b""
    if len(secret) != 32:
        raise _damaged(path, "it should hold 64 hex digits")
    return InstallationKey(secret, path)


def _damaged(path: Path, why: str) -> ProjectError:
    return ProjectError(f"The ledger key {path} is damaged ({why}). dpdesk cannot "
                           "check or seal ledgers with it. Restore it from a backup of your data folder; if it is "
                           "lost, move it aside: a new key is made, and each project sealed with the old one says "
                           "so and can be re-keyed (dpdesk ledger PROJECT --rekey) against this computer's "
                           "register.")


def _make(path: Path) -> None:
    tmp = path.with_name(f".{path.name}.{os.getpid()}.{secrets.token_hex(4)}.tmp")
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        try:
            os.write(fd, (secrets.token_bytes(32).hex() + "\n").encode("ascii"))
            os.fsync(fd)
        finally:
            os.close(fd)
        try:
            os.link(tmp, path)  # atomic, and never over a key another process made first
        except FileExistsError:
            pass
        except OSError:  # no hard links (some file systems): exclusive rename where possible
            if not path.exists():
                os.replace(tmp, path)
    except OSError as exc:
        raise ProjectError(f"dpdesk could not create its ledger key {path} ({exc.strerror or exc}). Releases "
                           "are sealed with this key; check that the folder is writable, or set "
                           "DPDESK_SETTINGS_DIR to a folder of yours.") from exc
    finally:
        try:
            os.unlink(tmp)
        except OSError:
            pass
