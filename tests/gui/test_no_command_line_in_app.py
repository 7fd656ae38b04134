"""No command-line flag ever appears in the app's text (issue 29: a refusal in the app said "--no-design").

Every string the GUI can show is a string in the GUI's own code, or a message raised into it from the
project and mechanisms layers (shown through ``dpdesk.errors.app_words``). So:

* the GUI's strings name no flag at all;
* a string of the lower layers that names a flag is the command-line wording of an error that also
  carries the app's wording (``in_app(error, app_text)``: the first argument of ``in_app``), or lives in
  a function for the command line only (its name ends in ``_cli``);
* the GUI shows an error's words only through ``app_words`` (never ``str(exc)``).
"""

from __future__ import annotations

import ast
import re

from dpdesk.errors import BudgetError, app_words, in_app
from tests.helpers.paths import ROOT

PACKAGE = ROOT / "dpdesk"
FLAG = re.compile(r"(?<![\w-])--[a-z][a-z-]*")


def _strings(path):
    """(string, line, allowed) for every non-docstring string constant, allowed when it is the command-line
    wording of an in_app error or inside a *_cli function."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docs = {id(n.body[0].value) for n in ast.walk(tree)
            if isinstance(n, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and n.body
            and isinstance(n.body[0], ast.Expr) and isinstance(n.body[0].value, ast.Constant)}
    allowed: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name.endswith("_cli"):
            allowed |= {id(n) for n in ast.walk(node)}
        if isinstance(node, ast.Call) and getattr(node.func, "id", getattr(node.func, "attr", None)) == "in_app" \
                and node.args:
            allowed |= {id(n) for n in ast.walk(node.args[0])}
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docs:
            yield node.value, node.lineno, id(node) in allowed


def _files(*parts):
    for part in parts:
        target = PACKAGE / part
        yield from (sorted(target.rglob("*.py")) if target.is_dir() else [target])


def test_the_gui_names_no_command_line_flag():
    found = [f"{p.relative_to(ROOT)}:{line}: {text[:80]!r}" for p in _files("gui")
             for text, line, _ in _strings(p) if FLAG.search(text)]
    assert not found, "\n".join(found)


def test_messages_raised_into_the_gui_carry_the_apps_words():
    found = [f"{p.relative_to(ROOT)}:{line}: {text[:80]!r}"
             for p in _files("project", "mechanisms", "errors.py", "printing.py", "plotting.py", "lazy.py")
             for text, line, allowed in _strings(p) if FLAG.search(text) and not allowed]
    assert not found, "\n".join(found)


def test_the_gui_shows_errors_through_app_words():
    shown = re.compile(r"str\(exc\)|\{exc\}|str\(error\)|\{error\}")
    found = [f"{p.relative_to(ROOT)}:{i}" for p in _files("gui") if p.name != "selftest.py"
             for i, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1) if shown.search(line)]
    assert not found, "\n".join(found)


def test_app_words_prefer_the_apps_wording():
    exc = in_app(BudgetError("set one: dpdesk budget P --set 1"), "set one: Tabulate > Set the privacy budget…")
    assert app_words(exc) == "set one: Tabulate > Set the privacy budget…" and "--" in str(exc)
    assert app_words(ValueError("plain")) == "plain"



def test_an_items_error_in_the_results_uses_the_apps_words(tmp_path, monkeypatch):
    """An error stored with an item's result (shown in the Results document) keeps both wordings; the
    Results view shows the app's."""
    import pandas as pd

    from dpdesk.errors import DataError
    from dpdesk.gui.views import results_job
    from dpdesk.mechanisms import rr
    from dpdesk.project import Project
    from dpdesk.project.analysis import estimates

    with Project.create(tmp_path / "p.dpdesk") as p:
        p.add_dataset("w", pd.DataFrame({"q": ["Yes", "No"] * 20}))
        p.add_item("cash", rr.design("warner", p=0.7), column="q", codes={"yes": ["Yes"], "no": ["No"]})

        def refuse(*args, **kwargs):
            raise in_app(DataError("refused (--no-design)"), "refused (remove the design in the Data view)")

        monkeypatch.setattr(estimates, "item_counts", refuse)
        (r,) = estimates.analyze(p)
        assert "--no-design" in r.error and r.error_in_app == "refused (remove the design in the Data view)"

        class Job:
            def progress(self, *args):
                pass

            def check(self):
                pass

        rs = results_job._analyze(Job(), p, results_job.Options())
    assert "--" not in rs.results[0].error and "remove the design in the Data view" in rs.results[0].error
