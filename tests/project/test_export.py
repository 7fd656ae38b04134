"""Excel and CSV export: read the files back and check values, formats and layout."""

from __future__ import annotations

import csv
import json
import math
import os
import zipfile
from fractions import Fraction

import openpyxl
import pytest

from dpdesk.errors import DpdeskError
from dpdesk.project import export_results
from dpdesk.project.export.results import ExportError, ReproItem, ResultsBundle, write_xlsx

ESTIMATES = [
    {"item": "Q1 cannabis", "design": "warner", "n": 412, "excluded": 3, "estimate": 0.1234567890123,
     "SE": 0.0456789012345, "CI low": 0.0339, "CI high": 0.2130, "CI method": "wald",
     "confidence": 0.95, "local epsilon": 0.8472978603872037},
    {"item": "Q2 cheating", "design": "forced", "n": 398, "excluded": 0, "estimate": -0.5,
     "SE": 0.061, "CI low": -0.62, "CI high": -0.38, "CI method": "wald",
     "confidence": 0.95, "local epsilon": float("inf")},
]
BY_FACULTY = [
    {"item": "Q1 cannabis", "subgroup": "Law", "n": 200, "estimate": 0.1, "SE": 0.05, "CI low": 0.002, "CI high": 0.198},
    {"item": "Q1 cannabis", "subgroup": "Medicine", "n": 212, "estimate": 0.15, "SE": 0.05, "CI low": 0.052, "CI high": 0.248},
    {"item": "Q1 cannabis", "subgroup": "Law - Medicine (difference)", "n": None, "estimate": -0.05,
     "SE": 0.0707, "CI low": -0.1886, "CI high": 0.0886},
]
METADATA = {
    "app version": "0.1.0",
    "input file": "survey.csv",
    "input SHA-256": "ab" * 32,
    "import options": {"encoding": "utf-8", "user_missing": True},
    "design parameters": {"Q1 cannabis": {"p": 0.7}, "Q2 cheating": {"p_truth": 0.8, "p_yes": 0.1}},
    "CI method": "wald",
    "privacy budget spent": Fraction(3, 10),
    "privacy budget left": None,
}


def bundle(**extra) -> ResultsBundle:
    return ResultsBundle(
        tables={"Estimates": ESTIMATES, "By faculty": BY_FACULTY},
        metadata=METADATA,
        repro=[ReproItem("Q1 cannabis", "warner", {"p": 0.7}, [250, 162])],
        **extra,
    )


def test_xlsx_values_formats_and_layout(tmp_path):
    path = tmp_path / "results.xlsx"
    written = export_results(bundle(), path)
    assert written == [path, tmp_path / "results_reproduce.py"]
    wb = openpyxl.load_workbook(path)
    assert wb.sheetnames == ["Estimates", "By faculty", "Metadata", "Readme"]
    ws = wb["Estimates"]
    assert [c.value for c in ws[1]] == list(ESTIMATES[0])
    assert ws.freeze_panes == "A2"
    assert ws.auto_filter.ref == "A1:K3"
    row = {h.value: c for h, c in zip(ws[1], ws[2])}
    assert row["estimate"].value == 0.1234567890123 and row["estimate"].data_type == "n"
    assert row["n"].value == 412 and row["n"].number_format == "0"
    assert row["excluded"].number_format == "0"
    assert row["estimate"].number_format == "0.0000"
    assert row["SE"].number_format == "0.0000" and row["SE"].value == 0.0456789012345
    assert row["CI low"].number_format == row["CI high"].number_format == "0.0000"
    assert row["confidence"].number_format == "0.0%"
    assert row["local epsilon"].number_format == "0.000"
    negative = {h.value: c for h, c in zip(ws[1], ws[3])}
    assert negative["estimate"].value == -0.5 and negative["estimate"].data_type == "n"
    assert negative["local epsilon"].value == "∞"
    assert ws.column_dimensions["A"].width > 10  # item names are wider than the default
    faculty = wb["By faculty"]
    assert faculty.freeze_panes == "A2" and faculty.auto_filter.ref == "A1:G4"
    assert faculty["C4"].value is None  # missing n is an empty cell
    assert faculty["D4"].value == -0.05


def test_xlsx_metadata_and_readme(tmp_path):
    path = tmp_path / "results.xlsx"
    export_results(bundle(), path, repro=False)
    assert not (tmp_path / "results_reproduce.py").exists()
    wb = openpyxl.load_workbook(path)
    meta = {r[0]: r[1] for r in wb["Metadata"].iter_rows(min_row=2, values_only=True)}
    assert [c.value for c in wb["Metadata"][1]] == ["Key", "Value"]
    assert meta["app version"] == "0.1.0"
    assert meta["input SHA-256"] == "ab" * 32
    assert meta["import options / user_missing"] == "yes"
    assert meta["design parameters / Q2 cheating / p_yes"] == 0.1
    assert meta["privacy budget spent"] == 0.3
    assert meta["privacy budget left"] == "n/a"
    assert "exported at (UTC)" in meta
    readme = " ".join(str(v) for (v,) in wb["Readme"].iter_rows(values_only=True) if v)
    for word in ("estimate:", "SE:", "CI low", "local epsilon", "subgroup:", "randomized"):
        assert word in readme


def test_percent_option_and_renamed_sheets(tmp_path):
    path = tmp_path / "pct.xlsx"
    tables = {"Estimates": ESTIMATES, "By faculty: law/medicine [2026]": BY_FACULTY}
    export_results(ResultsBundle(tables, METADATA), path, percent=True)
    wb = openpyxl.load_workbook(path)
    assert wb.sheetnames[1] == "By faculty_ law_medicine _2026_"
    ws = wb["Estimates"]
    formats = {h.value: c.number_format for h, c in zip(ws[1], ws[2])}
    assert formats["estimate"] == formats["CI low"] == formats["CI high"] == "0.0%"
    assert formats["SE"] == "0.0%" and ws["E2"].value == 0.1234567890123  # the SE in the unit of its estimate
    meta = {r[0]: r[1] for r in wb["Metadata"].iter_rows(min_row=2, values_only=True)}
    assert meta["sheet By faculty_ law_medicine _2026_ / table name"] == "By faculty: law/medicine [2026]"


def test_exact_fraction_that_is_not_a_decimal_is_text(tmp_path):
    path = tmp_path / "r.xlsx"
    export_results(ResultsBundle({"Estimates": ESTIMATES}, {"budget spent": Fraction(1, 3)}), path)
    meta = {r[0]: r[1] for r in openpyxl.load_workbook(path)["Metadata"].iter_rows(min_row=2, values_only=True)}
    assert meta["budget spent"].startswith("1/3 (")


def test_dataframe_tables_with_numpy_types_and_missing(tmp_path):
    pd = pytest.importorskip("pandas")
    import numpy as np

    df = pd.DataFrame({"item": ["a", "b"], "n": np.array([5, 7], dtype=np.int64),
                       "estimate": [np.float64(0.25), np.nan], "SE": pd.array([0.1, None], dtype="Float64")})
    path = tmp_path / "df.xlsx"
    export_results(ResultsBundle({"Estimates": df}), path)
    ws = openpyxl.load_workbook(path)["Estimates"]
    assert [[c.value for c in r] for r in ws.iter_rows(min_row=2)] == [["a", 5, 0.25, 0.1], ["b", 7, None, None]]
    assert ws["B2"].number_format == "0"


def test_csv_one_file_per_table_with_bom(tmp_path):
    path = tmp_path / "results.csv"
    written = export_results(bundle(), path)
    assert written == [path, tmp_path / "results_by_faculty.csv", tmp_path / "results_metadata.csv",
                       tmp_path / "results_readme.txt", tmp_path / "results_reproduce.py"]
    raw = path.read_bytes()
    assert raw.startswith(b"\xef\xbb\xbf") and b"\r\n" in raw
    with open(path, encoding="utf-8-sig", newline="") as handle:
        rows = list(csv.DictReader(handle))
    assert list(rows[0]) == list(ESTIMATES[0])
    assert float(rows[0]["estimate"]) == 0.1234567890123  # full precision
    assert float(rows[1]["estimate"]) == -0.5 and rows[1]["estimate"] == "-0.5"  # a number, not escaped
    assert rows[0]["n"] == "412" and rows[1]["local epsilon"] == "∞"
    with open(tmp_path / "results_by_faculty.csv", encoding="utf-8-sig", newline="") as handle:
        faculty = list(csv.DictReader(handle))
    assert [r["subgroup"] for r in faculty] == ["Law", "Medicine", "Law - Medicine (difference)"]
    assert faculty[2]["n"] == ""
    with open(tmp_path / "results_metadata.csv", encoding="utf-8-sig", newline="") as handle:
        meta = dict(csv.reader(handle))
    assert meta["Key"] == "Value" and meta["input file"] == "survey.csv"
    assert "estimate:" in (tmp_path / "results_readme.txt").read_text(encoding="utf-8")


def test_csv_table_names_cannot_escape_the_folder(tmp_path):
    tables = {"Estimates": ESTIMATES, "../../evil": BY_FACULTY, "Metadata": BY_FACULTY, "": BY_FACULTY}
    written = export_results(ResultsBundle(tables), tmp_path / "r.csv")
    assert all(p.parent == tmp_path for p in written)
    assert len(set(written)) == len(written)
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(p.name for p in written)


def test_unknown_suffix_and_missing_folder_are_clear_errors(tmp_path):
    with pytest.raises(ExportError, match=r"\.xlsx.*\.csv"):
        export_results(bundle(), tmp_path / "results.ods")
    with pytest.raises(DpdeskError, match="does not exist"):
        export_results(bundle(), tmp_path / "nope" / "results.xlsx")
    with pytest.raises(ExportError, match="no results"):
        export_results(ResultsBundle({}), tmp_path / "results.csv")


def test_failed_write_keeps_the_old_file_and_leaves_no_temp(tmp_path, monkeypatch):
    path = tmp_path / "results.xlsx"
    export_results(bundle(), path, repro=False)
    before = path.read_bytes()
    import dpdesk.project.export.xlsx as xl

    def broken(b, target, **options):
        target.write_bytes(b"half a workbook")
        raise RuntimeError("disk pulled out")

    monkeypatch.setattr(xl, "build_workbook", broken)
    with pytest.raises(RuntimeError):
        write_xlsx(bundle(), path)
    assert path.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir()] == ["results.xlsx"]


def test_written_file_has_ordinary_permissions(tmp_path):
    path = tmp_path / "results.csv"
    export_results(bundle(), path)
    umask = os.umask(0o022)
    os.umask(umask)
    assert path.stat().st_mode & 0o777 == 0o666 & ~umask
    path.chmod(0o600)  # a replaced file keeps its permissions
    export_results(bundle(), path)
    assert path.stat().st_mode & 0o777 == 0o600


def test_no_formula_elements_in_the_workbook_xml(tmp_path):
    path = tmp_path / "results.xlsx"
    export_results(bundle(), path)
    with zipfile.ZipFile(path) as z:
        for name in z.namelist():
            if name.startswith("xl/worksheets/"):
                assert b"<f>" not in z.read(name) and b"<f " not in z.read(name)


def test_bundle_round_trips_through_json(tmp_path):
    b = bundle()
    again = ResultsBundle.from_dict(json.loads(json.dumps(b.to_dict())))
    assert again.metadata["privacy budget spent"] == "3/10"  # exact, as text
    assert again.repro == b.repro
    assert again.tables["Estimates"][0]["estimate"] == 0.1234567890123
    assert math.isinf(again.tables["Estimates"][1]["local epsilon"])
