"""The public API stays importable: every import the README and the guide show, and the names
that scripts and notebooks use (issue 12: the layout changed, these did not)."""

import importlib
import re

import pytest

from tests.helpers.paths import ROOT

DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
IMPORT = re.compile(r"^\s*(?:>>> )?(from dpdesk[\w.]* import [\w, ]+|import dpdesk[\w.]*)", re.M)

STABLE = {
    "dpdesk.project": ["Project", "read_table", "Table", "ImportReport", "map_item", "ItemMapping",
                       "MappingReport", "export_results", "import_file"],
    "dpdesk.project.mapping": ["map_item", "map_counts", "counts_by", "ItemMapping", "MappingReport"],
    "dpdesk.project.ledger": ["release", "set_budget", "lower_budget", "budget_status", "ledger",
                              "verify_ledger", "preview", "plan", "BudgetExceeded", "LedgerTamperedError"],
    "dpdesk.project.reading": ["read_table", "Table", "ImportReport", "import_file"],
    "dpdesk.project.export": ["export_results", "ResultsBundle", "write_csv", "write_xlsx"],
    "dpdesk.mechanisms": ["rr", "central", "accounting"],
    "dpdesk.mechanisms.central": ["count", "histogram", "crosstab", "sum", "mean", "median", "quantile",
                                  "laplace_counts", "gaussian_counts", "Release"],
}


def _documented():
    for doc in DOCS:
        for line in IMPORT.findall(doc.read_text(encoding="utf-8")):
            yield pytest.param(line.strip().rstrip(","), id=f"{doc.name}: {line.strip()}")


@pytest.mark.parametrize("statement", list(_documented()))
def test_documented_imports_work(statement):
    exec(statement, {})  # noqa: S102 - the docs' own import lines


@pytest.mark.parametrize("module", sorted(STABLE))
def test_stable_names(module):
    mod = importlib.import_module(module)
    missing = [name for name in STABLE[module] if getattr(mod, name, None) is None]
    assert not missing, f"{module} lost {missing}"
