"""The layer rule of DESIGN.md: imports only go down (gui -> project -> mechanisms)."""

import ast
import pathlib
import subprocess
import sys
from tests.helpers.paths import ROOT

PKG = ROOT / "dpdesk"

FORBIDDEN = {
    "mechanisms": ("PySide6", "pandas", "matplotlib", "dpdesk.project", "dpdesk.gui", "dpdesk.cli"),
    "project": ("PySide6", "matplotlib", "dpdesk.gui", "dpdesk.cli"),
}


def _imports(path: pathlib.Path):
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            yield node.lineno, node.module


def test_layers_by_walking_every_import():
    """Every import, including ones inside functions, respects the layers."""
    problems = []
    for layer, banned in FORBIDDEN.items():
        for path in (PKG / layer).rglob("*.py"):
            for lineno, name in _imports(path):
                if any(name == b or name.startswith(b + ".") for b in banned):
                    problems.append(f"{path.relative_to(ROOT)}:{lineno} imports {name}")
    assert not problems, "layer rule broken:\n" + "\n".join(problems)


def test_import_linter_contracts():
    """The same rule as import-linter contracts (pyproject.toml)."""
    exe = pathlib.Path(sys.executable).with_name("lint-imports")
    result = subprocess.run([str(exe)], cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
