"""Walk the linked-data path in the real app under Xvfb with xdotool: link -> Data view -> Tabulate.

    python tools/walk_linked.py OUT_FOLDER        (needs Xvfb, xdotool and ImageMagick's import)

Makes a project with an imported pilot and a budget, and a folder of three Parquet files; starts
``python -m dpdesk PROJECT`` on a private X display; clicks Data, Import data…, Escape (the file
chooser), "Link a large dataset (not copied)…", types a glob, presses Return (Link), Close; checks
the Data view; clicks Tabulate and releases a count (confirming with the Release button); adds a
file to the source, releases again (refused: the error dialog), presses Relink… and confirms. Each
step's window is saved as OUT_FOLDER/NN-step.png; the project is read at the end (one release
charged, one relink recorded, the refusal spent nothing). Coordinates are those of the window's
default size (1100 x 720) and of its dialogs; exit status 0 when every check passes.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def _x(*args: str, env=None) -> str:
    return subprocess.run(["xdotool", *args], capture_output=True, text=True, env=env).stdout.strip()


class Walk:
    def __init__(self, out: Path, display: str = ":97") -> None:
        self.out, self.n = out, 0
        self.env = dict(os.environ, DISPLAY=display, PYTHONPATH=str(ROOT), MPLBACKEND="Agg",
                        DPDESK_SETTINGS_DIR=str(out / "settings"))
        self.env.pop("QT_QPA_PLATFORM", None)
        self.xvfb = subprocess.Popen(["Xvfb", display, "-screen", "0", "1280x800x24"], stderr=subprocess.DEVNULL)
        self.app = None

    def window(self, title: str, timeout: float = 30, gone: str = "") -> str:
        """The newest visible window whose title matches (other than ``gone``, one just closed)."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            found = [w for w in _x("search", "--onlyvisible", "--name", title, env=self.env).split() if w != gone]
            if found:
                return found[-1]
            time.sleep(0.2)
        raise SystemExit(f"walk: no window {title!r} after {timeout} s")

    def click(self, win: str, x: int, y: int, pause: float = 1.0) -> None:
        _x("mousemove", "--window", win, str(x), str(y), "click", "1", env=self.env)
        time.sleep(pause)

    def click_until(self, win: str, x: int, y: int, title: str, tries: int = 5) -> str:
        """Click until a window ``title`` opens (a view still being built ignores the first click)."""
        for _ in range(tries):
            self.click(win, x, y, pause=0.5)
            try:
                return self.window(title, timeout=5)
            except SystemExit:
                continue
        raise SystemExit(f"walk: clicking ({x}, {y}) never opened {title!r}")

    def click_from_corner(self, win: str, dx: int, dy: int, pause: float = 1.0) -> None:
        """Click ``dx``, ``dy`` pixels left of and above the window's bottom-right corner (a dialog's buttons)."""
        geometry = _x("getwindowgeometry", "--shell", win, env=self.env)
        size = dict(line.split("=") for line in geometry.splitlines() if "=" in line)
        self.click(win, int(size["WIDTH"]) - dx, int(size["HEIGHT"]) - dy, pause)

    def key(self, win: str, *keys: str, pause: float = 0.5) -> None:
        _x("key", "--window", win, *keys, env=self.env)
        time.sleep(pause)

    def type(self, text: str) -> None:
        _x("type", "--delay", "20", text, env=self.env)
        time.sleep(0.5)

    def shot(self, win: str, step: str) -> None:
        self.n += 1
        subprocess.run(["import", "-window", win, str(self.out / f"{self.n:02d}-{step}.png")], env=self.env,
                       check=True)

    def close(self) -> None:
        """End the app (every change is already committed to the project file) and the X server."""
        for proc in (self.app, self.xvfb):
            if proc is not None and proc.poll() is None:
                proc.terminate()
                proc.wait(10)


def make_data(out: Path) -> Path:
    from dpdesk.project import Project, ledger
    from tests.helpers import linked as data

    data.write_parts(data.frame(600), out / "registry", parts=3)
    path = out / "walk.dpdesk"
    with Project.create(path) as p:
        p.add_dataset("pilot", data.frame(40, seed=3))
        ledger.set_budget(p, 1)
    return path


def main(out: Path) -> int:
    shutil.rmtree(out, ignore_errors=True)
    (out / "settings").mkdir(parents=True)
    project = make_data(out)
    w = Walk(out)
    try:
        time.sleep(1)
        w.app = subprocess.Popen([sys.executable, "-m", "dpdesk", str(project)], env=w.env,
                                 stdout=subprocess.DEVNULL, stderr=open(out / "app.log", "w"))
        main_win = w.window("walk — dpdesk")
        time.sleep(2)
        w.click(main_win, 35, 69)  # Data
        w.click(main_win, 1019, 53, pause=2)  # Import data… (its file chooser opens)
        end = time.monotonic() + 30
        while len(found := _x("search", "--onlyvisible", "--name", "Import survey data", env=w.env).split()) < 2:
            if time.monotonic() > end:
                raise SystemExit("walk: the import dialog and its file chooser did not both open")
            time.sleep(0.2)
        importer, chooser = sorted(found, key=int)[:2]  # the dialog first, then its chooser
        w.key(chooser, "Escape", pause=1)
        w.shot(importer, "import-dialog")
        w.click(importer, 877, 21)  # Link a large dataset (not copied)…
        link = w.window("Link a large dataset")
        w.click(link, 300, 69)  # Source
        w.type(str(out / "registry" / "part-*.parquet"))
        w.key(link, "Return", pause=4)  # Link (the default button)
        w.shot(link, "linked")
        w.key(link, "Return", pause=2)  # Close (the default once linked)
        w.shot(main_win, "data-view")
        w.click(main_win, 48, 171, pause=3)  # Tabulate
        confirm = w.click_until(main_win, 430, 549, "Release with noise")  # Release… (a count)
        w.click_from_corner(confirm, 139, 24, pause=3)  # Release (left of Cancel)
        w.shot(main_win, "released")
        from tests.helpers import linked as data

        data.write_parquet(data.frame(50, seed=9), out / "registry" / "part-9.parquet")
        confirm = w.click_until(main_win, 430, 549, "Release with noise")  # again: the source changed
        w.click_from_corner(confirm, 139, 24, pause=3)
        error = w.window("^dpdesk$", gone=main_win)
        w.shot(error, "refused")
        w.key(error, "Return", pause=1)
        w.shot(main_win, "changed")
        confirm = w.click_until(main_win, 1027, 123, "Relink the source")  # Relink…
        w.shot(confirm, "relink-confirm")
        w.click_from_corner(confirm, 139, 24, pause=4)  # Relink
        w.shot(main_win, "relinked")
    finally:
        w.close()
    from dpdesk.project import Project, ledger

    with Project.open(project) as p:
        rows = ledger.ledger(p)
        status = ledger.budget_status(p)
        kinds = [r.mechanism for r in rows]
        ok = (len(rows) == 2 and kinds[1] == "relink" and status.releases == 1
              and rows[0].noise_params["source"]["rows"] == 600 and rows[1].result["after"]["rows"] == 650)
        print(f"walk: {len(rows)} ledger rows ({', '.join(kinds)}), spent {status.spent_text}; "
              f"screenshots in {out}: {'OK' if ok else 'FAILED'}")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main(Path(sys.argv[1] if len(sys.argv) > 1 else "walk-linked").resolve()))
