"""Every design of the catalogue through every result path: no design is left behind.

For each of ``rr.DESIGN_NAMES`` a small survey is simulated (tests/helpers/designs.py),
imported from CSV, mapped and estimated overall and by gender, compared with a direct
question, exported as xlsx, CSV, JSON and the reproducibility script (which is run), copied
as a table, and run through ``dpdesk estimate`` (with ``--by`` and ``--json``). No cell of
any table may hold an array, a numpy repr or another raw Python object.
"""

from __future__ import annotations

import contextlib
import io
import json
import re
import runpy
import sys

import pytest

from dpdesk.errors import EstimationError
from dpdesk.mechanisms import rr
from dpdesk.project import Project
from dpdesk.project.analysis.estimates import analyze, results_bundle
from dpdesk.project.export.results import export_results, normalise_table, table_to_html, table_to_tsv
from dpdesk.project.reading.importing import import_file
from tests.helpers.cli import run
from tests.helpers.designs import EXAMPLE_PARAMS, example_design, item_mapping, survey_frame

#: Text that betrays an array or a raw object in a cell.
RAW = re.compile(r"\[\s*-?\d|array\(|np\.|numpy|object at 0x|dtype|\bnan\b|Estimate\(|EqualityTest\(")

DESIGNS = rr.DESIGN_NAMES


def test_every_design_of_the_catalogue_has_an_example():
    assert set(EXAMPLE_PARAMS) == set(rr.DESIGN_NAMES)


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """design name -> (project path, csv path), built once for the module."""
    root = tmp_path_factory.mktemp("matrix")
    out = {}
    for name in DESIGNS:
        folder = root / name
        folder.mkdir()
        csv = folder / "survey.csv"
        survey_frame(name).to_csv(csv, index=False)
        path = folder / "p.dpdesk"
        with Project.create(path) as project:
            import_file(project, csv)
            project.add_item("q", example_design(name), question="Asked?", **item_mapping(name))
        out[name] = path
    return out


def _strings(value):
    if isinstance(value, dict):
        for k, v in value.items():
            yield str(k)
            yield from _strings(v)
    elif isinstance(value, list):
        for v in value:
            yield from _strings(v)
    elif isinstance(value, str):
        yield value


def _plain_cells(rows, where):
    columns, values = normalise_table(rows)
    for col in columns:
        assert not RAW.search(col), (where, col)
    for row in values:
        for col, cell in zip(columns, row):
            assert cell is None or type(cell) in (bool, int, float, str), (where, col, type(cell), cell)
            if isinstance(cell, str):
                assert not RAW.search(cell), (where, col, cell)
    return columns, values


@pytest.mark.parametrize("name", DESIGNS)
def test_estimate_by_subgroup_tables_and_exports(name, built, tmp_path):
    d = example_design(name)
    k = 1 if d.is_binary else len(d.categories)
    with Project.open(built[name]) as project:
        results = analyze(project, by="gender")
        (r,) = results
        assert r.estimate is not None and r.error is None, r.error
        assert r.subgroups is not None and set(r.subgroups.estimates) == {"female", "male"}
        assert r.subgroups.test is not None and 0 <= r.subgroups.test.p_value <= 1
        bundle = results_bundle(project, results)
    ecwm = ["Non-adherence (ECWM)"] if name == "ecwm" else []  # both versions and the non-adherence test
    ecwm_by = ["Non-adherence (ECWM) by gender"] if name == "ecwm" else []  # the test in each subgroup
    assert list(bundle.tables) == ["Estimates", *ecwm, "By gender", "Tests by gender", *ecwm_by]
    for table_name, rows in bundle.tables.items():
        _plain_cells(rows, f"{name} / {table_name}")
        assert "\t" in table_to_tsv(rows) and "<table>" in table_to_html(rows)  # Copy table
    by = bundle.tables["By gender"]
    assert len(by) == 3 * k  # two subgroups and one difference, per category
    if not d.is_binary:
        assert [row["category"] for row in by[:k]] == list(d.categories)
        diff = [row for row in by if row["subgroup"] == "female - male"]
        est = r.subgroups.estimates
        assert [row["estimate"] for row in diff] == pytest.approx(
            list(est["female"].frequencies - est["male"].frequencies))
    tests = bundle.tables["Tests by gender"]
    assert tests[0]["df"] == r.subgroups.test.df

    # JSON, xlsx and CSV
    record = json.loads(json.dumps(bundle.to_dict()))
    for table_name, rows in record["tables"].items():
        for row in rows:
            assert all(v is None or type(v) in (bool, int, float, str) for v in row.values()), (table_name, row)
    assert not [s for s in _strings(record) if RAW.search(s)], "raw text in JSON"
    written = export_results(bundle, tmp_path / "r.xlsx")
    written += export_results(bundle, tmp_path / "r.csv", repro=False)
    from openpyxl import load_workbook

    wb = load_workbook(written[0], read_only=True)
    for ws in wb.worksheets:
        for row in ws.iter_rows(values_only=True):
            for cell in row:
                assert cell is None or isinstance(cell, (int, float)) or not RAW.search(str(cell)) or \
                    ws.title == "Metadata", (ws.title, cell)
    meta = dict(next(ws for ws in wb.worksheets if ws.title == "Metadata").iter_rows(values_only=True))
    assert meta["CI method citation"].startswith("Feldman & Cousins")
    assert len(meta["data fingerprint (SHA-256)"]) == 64
    assert "import options / header rows" in meta and "import options / encoding" in meta
    wb.close()
    for path in written:
        if path.suffix == ".csv" and "metadata" not in path.name:
            assert not RAW.search(path.read_text(encoding="utf-8-sig")), path.name

    # the reproducibility script: counts rebuilt from the stored data, then the estimates
    script = next(p for p in written if p.name.endswith("_reproduce.py"))
    out = io.StringIO()
    old = sys.argv
    sys.argv = [str(script), str(built[name])]
    try:
        with contextlib.redirect_stdout(out):
            runpy.run_path(str(script), run_name="__main__")
    finally:
        sys.argv = old
    printed = out.getvalue()
    assert "agree with the exported counts" in printed, printed
    assert printed.count("\nq ") == 3 * k, printed  # overall and two subgroups, per category


@pytest.mark.parametrize("name", DESIGNS)
def test_compare_with_a_direct_question(name, built):
    with Project.open(built[name]) as project:
        (r,) = analyze(project)
    if r.design.is_binary:
        dc = rr.compare_direct(r.estimate, 30, 200)
        for value in (dc.rr, dc.direct, dc.difference, dc.se, dc.z, dc.p_value, *dc.ci, *dc.rr_ci):
            assert type(value) is float
    else:  # one prevalence against one direct share: refused in words for designs with categories
        with pytest.raises(EstimationError, match="yes/no"):
            rr.compare_direct(r.estimate, 30, 200)


@pytest.mark.parametrize("name", DESIGNS)
def test_command_line_estimate_and_by(name, built, capsys):
    code, out, err = run(capsys, "estimate", built[name], "--by", "gender")
    assert code == 0, err
    assert "By gender" in out and "Tests by gender" in out and not RAW.search(out.split("\n\nq")[0]), out
    code, out, err = run(capsys, "estimate", built[name], "--by", "gender", "--json")
    assert code == 0, err
    tables = json.loads(out)
    for table_name, rows in tables.items():
        _plain_cells(rows, f"cli json {name} / {table_name}")


def test_command_line_adds_a_unary_item_with_its_option_columns(tmp_path, capsys):
    csv = tmp_path / "s.csv"
    survey_frame("unary").to_csv(csv, index=False)
    path = tmp_path / "p.dpdesk"
    assert run(capsys, "new", path)[0] == 0 and run(capsys, "import", path, csv)[0] == 0
    cats = EXAMPLE_PARAMS["unary"]["categories"]
    args = ["item", path, "news", "--design", "unary", "--param", f"categories={json.dumps(cats)}",
            "--param", "epsilon=2"]
    for c in cats:
        args += ["--option-column", f"{c}=tick_{c}"]
    code, out, err = run(capsys, *args)
    assert code == 0, err
    code, out, err = run(capsys, "estimate", path, "--by", "gender")
    assert code == 0 and "news: web" in out and "Tests by gender" in out, out + err
