"""Latency people feel: from a click to the page or view shown, first use and warm.

Measures, with real mouse and key events (QTest) on the offscreen platform, the wall time
from the input event until the widget it shows has been painted (the loop processes
events until a Paint event of the target widget or one of its children was handled):

* cold start: a fresh process (the real entry point's steps: application, main window,
  open a project) until the project window's view is painted;
* every main-window view: a click on its task in the list, on first use (the first visit in
  the process) and warm (the second visit);
* every wizard page: a click on New survey item, then on Next for each page, first use
  (the first wizard of the process) and warm (a second wizard);
* the simulation preview of wizard page 4: from the click on Simulate again to the first
  visible feedback (the progress bar painted as busy) and to the plot painted; on first use
  (the preview started when the page opens) and warm.

Each walk runs in a fresh process (``--runs``, median of the runs); the project is the
example project with a privacy budget and one release. Targets (issue 20): visible feedback
within 100 ms of a click, every page or view shown within 300 ms on first use.

    QT_QPA_PLATFORM=offscreen .venv/bin/python benchmarks/latency.py [--runs 3] [--write] [--label after]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "benchmarks" / "results" / "latency.md"
sys.path[:0] = [str(ROOT), str(ROOT / "benchmarks")]  # this checkout's dpdesk, not another editable install

FEEDBACK_MS, SHOWN_MS = 100, 300
TIMEOUT_S = 60.0


# ----------------------------------------------------------------------------- in the child


class PaintWatch:
    """Event filters on a target widget and its children, noting their Paint events (a widget
    covered by opaque children gets none itself, so its children are watched too)."""

    def __init__(self, app) -> None:
        from PySide6.QtCore import QEvent, QObject

        watch = self
        self.targets: list = []
        self.seen = False

        class Filter(QObject):
            def eventFilter(self, obj, ev):  # noqa: N802 - Qt API
                if ev.type() == QEvent.Type.Paint:
                    watch.seen = True
                return False

        self.filter = Filter()

    def arm(self, target) -> None:
        from PySide6.QtWidgets import QWidget

        for old in self.targets:
            try:
                old.removeEventFilter(self.filter)
            except RuntimeError:  # already deleted
                pass
        self.targets = [] if target is None else [target, *target.findChildren(QWidget)]
        self.seen = False
        for widget in self.targets:
            widget.installEventFilter(self.filter)

    @property
    def target(self):
        return self.targets[0] if self.targets else None


def keep_none_alive(extra: int = 1_000_000) -> None:
    """PySide6 6.12 on Python 3.11 drops a reference to None on every call of a method that
    returns nothing (measured: -1 per ``setText`` or ``processEvents``), and the process aborts
    ("deallocating None") once they run out. This benchmark calls ``processEvents`` in a loop
    many thousands of times, so it holds enough extra references for any run."""
    import ctypes

    for _ in range(extra):
        ctypes.pythonapi.Py_IncRef(ctypes.py_object(None))


def wait(app, done, timeout: float = TIMEOUT_S) -> float:
    """Process events until ``done()``; returns the time it became true (perf_counter)."""
    import traceback

    from PySide6.QtCore import QEventLoop

    end = time.perf_counter() + timeout
    while not done():
        if time.perf_counter() > end:
            raise SystemExit("timed out waiting for the GUI at\n" + "".join(traceback.format_stack(limit=4)))
        app.processEvents(QEventLoop.ProcessEventsFlag.AllEvents, 5)
        time.sleep(0.0005)  # workers run meanwhile; a tight loop would only compete with them
    return time.perf_counter()


def until_painted(app, watch, target, after) -> float:
    """Arm ``watch`` on ``target``, run ``after`` (the input event), wait for its paint: ms."""
    watch.arm(target)
    t0 = time.perf_counter()
    after()
    t1 = wait(app, lambda: watch.seen)
    return 1000 * (t1 - t0)


def make_project(folder: Path) -> Path:
    """The example project with a budget and one release (so Tabulate and the meter have content)."""
    from dpdesk.gui.shell.example_project import build_example
    from dpdesk.project import ledger
    from dpdesk.project.file.store import Project

    path = build_example(None, folder / "latency.dpdesk")
    with Project.open(path) as project:
        ledger.set_budget(project, 1)
        ledger.release(project, {"statistic": "count", "epsilon": "0.1"})
    return path


def child_cold(project: str) -> None:
    from dpdesk.gui.shell.app import make_app

    app = make_app([])
    from dpdesk.gui.shell.main_window import MainWindow

    watch = PaintWatch(app)
    window = MainWindow()
    window.show()
    watch.arm(window.views)
    window.open_project(project)
    wait(app, lambda: watch.seen)
    print("shown", flush=True)
    window.close()
    app.processEvents()


class PlotWatch:
    """Counts the previews given to the meaning page's plot; arms ``watch`` on its canvas each time."""

    def __init__(self, watch, meaning) -> None:
        self.shown = 0
        plot, original = meaning.plot, type(meaning.plot).show_preview

        def show_preview(preview):
            original(plot, preview)
            watch.arm(plot.canvas)  # the canvas paints the new figure after this
            self.shown += 1

        plot.show_preview = show_preview

    def wait(self, app, watch, before: int) -> float:
        """Wait for a preview after the ``before``-th and its canvas painted."""
        return wait(app, lambda: self.shown > before and watch.seen)


def click(widget, pos=None) -> None:
    from PySide6.QtCore import Qt
    from PySide6.QtTest import QTest

    if pos is None:
        QTest.mouseClick(widget, Qt.MouseButton.LeftButton)
    else:
        QTest.mouseClick(widget, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, pos)


def child_walk(project: str, fresh: bool = False) -> None:
    from PySide6.QtCore import Qt
    from PySide6.QtTest import QTest
    from PySide6.QtWidgets import QWizard

    from dpdesk.gui.shell.app import make_app

    app = make_app([])
    from dpdesk.gui.shell.main_window import MainWindow
    from dpdesk.gui.shell.tasks import TASKS

    watch = PaintWatch(app)
    window = MainWindow()
    window.show()
    watch.arm(window.views)
    if fresh:  # a new, empty project: what someone starting out meets first
        assert window.create_project(Path(project).with_name(f"new-{os.getpid()}.dpdesk"))
    else:
        window.open_project(project)
    wait(app, lambda: watch.seen)
    out: dict[str, float] = {}

    def nav_click(task: str) -> float:
        row = TASKS.index(task)
        item = window.nav.item(row)
        pos = window.nav.visualItemRect(item).center()
        target = window.views.widget(row)
        return until_painted(app, watch, target, after=lambda: click(window.nav.viewport(), pos))

    def wizard_walk(kind: str) -> None:
        design = window.design_view
        opened = []
        design.wizard_opened.connect(opened.append)
        watch.arm(None)
        t0 = time.perf_counter()

        def ready():
            if opened and watch.target is None:
                watch.arm(opened[0].currentPage())
            return bool(opened) and watch.seen

        click(design.new_button)
        out[f"wizard page 1 (question): {kind}"] = 1000 * (wait(app, ready) - t0)
        design.wizard_opened.disconnect(opened.append)
        wizard = opened[0]
        QTest.keyClicks(wizard.question_page.question, "Have you ever copied an exam answer?")
        next_button = wizard.button(QWizard.WizardButton.NextButton)
        names = {1: "2 (design)", 2: "3 (randomizer)", 3: "4 (meaning)", 4: "5 (instructions)"}
        for index in range(1, 5):
            page = wizard.page(wizard.pageIds()[index])
            if index == 3:  # the meaning page: also its preview, started when the page opens
                meaning = page
                plots = PlotWatch(watch, meaning)
                t0 = time.perf_counter()
                out[f"wizard page {names[index]}: {kind}"] = until_painted(
                    app, watch, page, after=lambda: click(next_button))
                busy = wait(app, lambda: meaning.runner.running or plots.shown > 0)
                drawn = plots.wait(app, watch, 0)
                out[f"preview on opening page 4, job started: {kind}"] = 1000 * (busy - t0)
                out[f"preview on opening page 4, plot drawn: {kind}"] = 1000 * (drawn - t0)
                wait(app, lambda: not meaning.runner.running)
                t0 = time.perf_counter()
                watch.arm(meaning.progress)
                click(meaning.again)
                feedback = wait(app, lambda: watch.seen or plots.shown > 1)
                drawn = plots.wait(app, watch, 1)
                out[f"preview, Simulate again to feedback: {kind}"] = 1000 * (feedback - t0)
                out[f"preview, Simulate again to plot drawn: {kind}"] = 1000 * (drawn - t0)
            else:
                out[f"wizard page {names[index]}: {kind}"] = until_painted(
                    app, watch, page, after=lambda: click(next_button))
        QWizard.done(wizard, 0)  # close without the "discard?" question
        wait(app, lambda: window.design_view.wizard is None)

    def views_walk() -> None:
        order = [t for t in TASKS if t != "Design"] + ["Design"]
        for task in order:
            out[f"view {task}: first use"] = nav_click(task)
        for task in order:
            out[f"view {task}: warm"] = nav_click(task)

    if fresh:  # the wizard first (a new project's first task), then the views
        wizard_walk("first use")
        wizard_walk("warm")
        views_walk()
    else:
        views_walk()
        wizard_walk("first use")
        wizard_walk("warm")
    print("RESULT " + json.dumps(out), flush=True)
    window.close()
    app.processEvents()


# ----------------------------------------------------------------------------- in the parent


def run_child(mode: str, project: Path, env: dict) -> tuple[float, dict]:
    """Run a child; returns (seconds from launch to its "shown" line, or to its end; its RESULT)."""
    start = time.perf_counter()
    proc = subprocess.Popen([sys.executable, __file__, "--child", mode, str(project)], env=env, cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    shown, result, lines = None, {}, []
    for line in proc.stdout:
        lines.append(line)
        if line.startswith("shown") and shown is None:
            shown = time.perf_counter() - start
        elif line.startswith("RESULT "):
            result = json.loads(line[len("RESULT "):])
    err = proc.stderr.read()
    if proc.wait(timeout=600) != 0:
        raise SystemExit(f"{mode} run failed ({proc.returncode}):\n{''.join(lines)}\n{err}")
    return (shown if shown is not None else time.perf_counter() - start), result


COLD = "cold start: launch to the project window drawn (fresh process)"
WALK = "Opening the example project (budget set, one release), then every view, then the wizard"
NEW = "A new, empty project: the wizard first, then every view"


def read_before(path: str) -> dict:
    """``{(section, step): median}`` (and ``"label"``) from an earlier run's markdown output."""
    out, section = {}, ""
    for line in Path(path).read_text(encoding="utf-8").splitlines():
        if line.startswith("# Latency"):
            out["label"] = line.partition("(")[2].rstrip(")") or line
        elif line.startswith("**") and line.endswith("**"):
            section = line.strip("*")
        elif line.startswith("| ") and not line.startswith("| step"):
            cells = [c.strip() for c in line.strip("|").split("|")]
            if len(cells) >= 2 and cells[1].isdigit():
                step = COLD if cells[0].startswith("cold start") else cells[0]
                out[("" if step == COLD else section, step)] = cells[1]
    return out


def target_of(step: str) -> tuple[int | None, str]:
    if step == COLD:  # no target in the issue: 3.5 s in its walk
        return None, ""
    if "warm" in step and "feedback" not in step:
        return None, ""
    if "feedback" in step or "job started" in step:
        return FEEDBACK_MS, "feedback"
    if "plot drawn" in step:
        return None, ""
    return SHOWN_MS, "shown"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--write", action="store_true", help=f"write {RESULTS.relative_to(ROOT)}")
    parser.add_argument("--label", default="", help="a heading for this run (e.g. 'before', 'after')")
    parser.add_argument("--before", help="an earlier run's output (markdown) to show beside this one")
    parser.add_argument("--child", nargs=2, metavar=("MODE", "PROJECT"), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        mode, project = args.child
        if mode == "cold":
            child_cold(project)
        else:
            keep_none_alive()
            child_walk(project, fresh=mode == "new")
        return 0

    from provenance import stamp

    with tempfile.TemporaryDirectory(prefix="dpdesk-latency-") as tmp:
        env = dict(os.environ, QT_QPA_PLATFORM=os.environ.get("QT_QPA_PLATFORM", "offscreen"),
                   DPDESK_SETTINGS_DIR=tmp, MPLBACKEND="QtAgg", PYTHONPYCACHEPREFIX=str(Path(tmp) / "pycache"))
        env.pop("PYTHONDONTWRITEBYTECODE", None)  # compiled once (the warm-up run), as an installed app is
        os.environ.update(DPDESK_SETTINGS_DIR=tmp)
        project = make_project(Path(tmp))
        run_child("cold", project, env)  # warm the file cache
        cold, walks, news = [], [], []
        for _ in range(args.runs):
            cold.append(run_child("cold", project, env)[0])
            walks.append(run_child("walk", project, env)[1])
            news.append(run_child("new", project, env)[1])
    before = read_before(args.before) if args.before else {}
    head = "| step | median (ms) | worst (ms) | target | |" + (" before: median (ms) |" if before else "")
    rule = "|---|---:|---:|---|---|" + ("---:|" if before else "")

    def row(section: str, step: str, values: list[float]) -> str:
        med = statistics.median(values)
        limit, _kind = target_of(step)
        verdict = "" if limit is None else ("meets" if med <= limit else "**misses**")
        old = before.get((section, step))
        return (f"| {step} | {med:.0f} | {max(values):.0f} | {f'< {limit} ms' if limit else '-'} | {verdict} |"
                + (f" {old} |" if before else ""))

    cold_ms = [1000 * c for c in cold]
    lines = [
        f"# Latency: from a click to the page shown{' (' + args.label + ')' if args.label else ''}",
        "",
        stamp("latency").rstrip(),
        f"- Machine: {platform.machine()}, {os.cpu_count()} CPUs, {platform.system()} {platform.release()}, "
        f"Python {platform.python_version()}, QT_QPA_PLATFORM={env['QT_QPA_PLATFORM']}; "
        f"load average at the end {' '.join(f'{x:.1f}' for x in os.getloadavg())} (a shared machine)",
        "- Bytecode compiled once before the runs (as in an installed app; this machine's environment sets "
        "PYTHONDONTWRITEBYTECODE, which would add about 0.5-0.8 s of compiling to every start)",
        f"- Command: `.venv/bin/python benchmarks/latency.py --runs {args.runs}"
        f"{' --before ' + Path(args.before).name if args.before else ''}` (median of {args.runs} fresh "
        "processes; each walks every view twice and the wizard twice)",
        f"- Targets: visible feedback within {FEEDBACK_MS} ms of a click; every page or view shown within "
        f"{SHOWN_MS} ms on first use. Times run from the input event (QTest click) until the page or view has "
        "been painted; the plot times until the matplotlib canvas has been painted with the new figure.",
        *([f"- Before: {before['label']}"] if before.get("label") else []),
        "",
        head, rule, row("", COLD, cold_ms),
    ]
    misses = 0
    for title, runs in ((WALK, walks), (NEW, news)):
        lines += ["", f"**{title}**", "", head, rule]
        for step in runs[0]:
            lines.append(row(title, step, [w[step] for w in runs if step in w]))
            misses += lines[-1].count("**misses**")
    lines += ["", f"Steps missing their target (median): {misses}.", ""]
    text = "\n".join(lines)
    print(text)
    if args.write:
        RESULTS.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
