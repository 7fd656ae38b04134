"""Several datasets on the command line (issue 20): map an item in a dataset, estimate each, compare them."""

from __future__ import annotations

import json

import pandas as pd
import pytest

from dpdesk.mechanisms import rr
from dpdesk.project import Project
from tests.helpers.cli import run


@pytest.fixture
def waves(tmp_path, capsys):
    """wave1.csv (column q7, Yes/No) and wave2.csv (column ai_cw, 1/2), the item mapped in wave 1 only."""
    path = tmp_path / "study.dpdesk"
    pd.DataFrame({"q7": ["Yes"] * 60 + ["No"] * 140}).to_csv(tmp_path / "wave1.csv", index=False)
    pd.DataFrame({"ai_cw": [1] * 120 + [2] * 180}).to_csv(tmp_path / "wave2.csv", index=False)
    assert run(capsys, "new", path)[0] == 0
    assert run(capsys, "import", path, tmp_path / "wave1.csv")[0] == 0
    code, out, err = run(capsys, "item", path, "cheating", "--design", "warner", "--param", "p=0.7",
                         "--column", "q7", "--codes", "yes=Yes", "--codes", "no=No")
    assert code == 0, out + err
    code, out, err = run(capsys, "import", path, tmp_path / "wave2.csv")
    assert code == 0 and "mapped automatically" not in out  # other names and codes: nothing guessed
    return path


def test_item_dataset_maps_an_existing_item_and_leaves_its_design(waves, capsys):
    code, out, err = run(capsys, "item", waves, "cheating", "--dataset", "wave2.csv", "--column", "ai_cw",
                         "--codes", "yes=1", "--codes", "no=2")
    assert code == 0, out + err
    assert "Mapped 'cheating' in 'wave2.csv' to the column 'ai_cw': 300 answers used" in out
    with Project.open(waves) as p:
        assert p.item("cheating", "wave1.csv").column == "q7"  # the other dataset keeps its mapping
        assert p.item("cheating", "wave2.csv").codes == {"yes": [1], "no": [2]}
        assert p.item("cheating").design_record == rr.design("warner", p=0.7).to_dict()
    for dataset, n in (("wave1.csv", 200), ("wave2.csv", 300)):
        code, out, err = run(capsys, "estimate", waves, "--dataset", dataset, "--json")
        assert code == 0, out + err
        (row,) = json.loads(out)["Estimates"]
        assert row["n"] == n


def test_item_dataset_refuses_a_column_the_dataset_lacks(waves, capsys):
    code, out, err = run(capsys, "item", waves, "cheating", "--dataset", "wave2.csv", "--column", "q7",
                         "--codes", "yes=Yes", "--codes", "no=No")
    assert code != 0 and "There is no column 'q7'" in out + err
    code, out, err = run(capsys, "item", waves, "nobody", "--column", "q7", "--codes", "yes=Yes")
    assert code != 0 and "no item named 'nobody'" in out + err and "--design" in out + err
    with Project.open(waves) as p:
        assert not p.item("cheating", "wave2.csv").mapped


def test_estimate_in_a_dataset_where_the_item_is_not_mapped_says_so(waves, capsys):
    code, out, _ = run(capsys, "estimate", waves)  # wave 1 stays active
    assert code == 0 and "We estimate that" in out
    code, out, _ = run(capsys, "estimate", waves, "--dataset", "wave2.csv")
    assert "cheating: not mapped in this dataset." in out


def test_estimate_by_dataset_compares_the_waves(waves, capsys):
    assert run(capsys, "item", waves, "cheating", "--dataset", "wave2.csv", "--column", "ai_cw",
               "--codes", "yes=1", "--codes", "no=2")[0] == 0
    code, out, err = run(capsys, "estimate", waves, "--by-dataset", "--json")
    assert code == 0, out + err
    tables = json.loads(out)
    rows = {r["subgroup"]: r for r in tables["By dataset"]}
    direct = rr.estimate_by(rr.design("warner", p=0.7), {"wave1.csv": [140, 60], "wave2.csv": [180, 120]})
    assert rows["wave1.csv"]["estimate"] == pytest.approx(direct.estimates["wave1.csv"].prevalence, abs=1e-12)
    assert rows["wave2.csv"]["estimate"] == pytest.approx(direct.estimates["wave2.csv"].prevalence, abs=1e-12)
    diff = direct.differences[("wave1.csv", "wave2.csv")]
    assert rows["wave1.csv - wave2.csv"]["estimate"] == pytest.approx(diff.difference, abs=1e-12)
    code, out, _ = run(capsys, "estimate", waves, "--by-dataset")
    assert "cheating: test that every dataset has the same prevalence" in out


def test_a_wave_with_the_same_columns_maps_itself_and_the_import_says_so(waves, tmp_path, capsys):
    pd.DataFrame({"q7": ["No", "Yes", "No"]}).to_csv(tmp_path / "wave3.csv", index=False)
    code, out, _ = run(capsys, "import", waves, tmp_path / "wave3.csv", "--use")
    assert code == 0
    assert "mapped automatically: cheating → q7 (the same column name as in 'wave1.csv')" in out
    code, out, _ = run(capsys, "estimate", waves, "--json")
    assert json.loads(out)["Estimates"][0]["n"] == 3


def test_export_by_dataset_writes_the_comparison(waves, tmp_path, capsys):
    import openpyxl

    assert run(capsys, "item", waves, "cheating", "--dataset", "wave2.csv", "--column", "ai_cw",
               "--codes", "yes=1", "--codes", "no=2")[0] == 0
    out_xlsx = tmp_path / "waves.xlsx"
    code, out, err = run(capsys, "export", waves, out_xlsx, "--by-dataset")
    assert code == 0, out + err
    book = openpyxl.load_workbook(out_xlsx)
    assert "By dataset" in book.sheetnames
    subgroups = {row[1] for row in book["By dataset"].iter_rows(values_only=True)}
    assert {"wave1.csv", "wave2.csv", "wave1.csv - wave2.csv"} <= subgroups


def test_missing_codes_belong_to_one_dataset(waves, tmp_path, capsys):
    code, out, err = run(capsys, "item", waves, "cheating", "--dataset", "wave2.csv", "--column", "ai_cw",
                         "--codes", "yes=1", "--codes", "no=3", "--missing-codes", "2")
    assert code == 0, out + err
    assert "120 answers used; 180 left out: 180 user-missing code" in out
    with Project.open(waves) as p:
        assert p.item("cheating", "wave2.csv").missing_codes == [2]
        assert p.item("cheating", "wave1.csv").missing_codes is None


def test_datasets_lists_the_items_mapped_in_each(waves, capsys):
    code, out, _ = run(capsys, "datasets", waves)
    assert code == 0
    lines = {line.split(":")[0].strip(" *"): line for line in out.splitlines() if ".csv:" in line}
    assert lines["wave1.csv"].endswith("1 of 1 items mapped") and lines["wave2.csv"].endswith("0 of 1 items mapped")
    code, out, _ = run(capsys, "datasets", waves, "--json")
    assert {r["name"]: r["items mapped"] for r in json.loads(out)} == {"wave1.csv": ["cheating"], "wave2.csv": []}


def test_an_item_for_a_column_of_a_later_wave_waits_for_it(waves, tmp_path, capsys):
    code, out, _ = run(capsys, "item", waves, "essay", "--design", "warner", "--param", "p=0.7",
                       "--column", "q8", "--codes", "yes=Yes", "--codes", "no=No")
    assert code == 0 and "has no column 'q8', so the item is not mapped there" in out
    pd.DataFrame({"q8": ["Yes", "No"]}).to_csv(tmp_path / "wave3.csv", index=False)
    code, out, _ = run(capsys, "import", waves, tmp_path / "wave3.csv")
    assert "mapped automatically: essay → q8 (the same column name as the item's mapping)" in out


def test_the_holm_note_counts_each_item_s_own_comparisons(tmp_path, capsys):
    """Two waves: a yes/no item has one comparison (nothing to adjust), a three-answer item three."""
    rng = __import__("numpy").random.default_rng(4)
    path = tmp_path / "two.dpdesk"
    for name, n in (("wave1.csv", 300), ("wave2.csv", 250)):
        pd.DataFrame({"q7": rng.choice(["Yes", "No"], n), "late": rng.choice(["never", "once", "often"], n)}
                     ).to_csv(tmp_path / name, index=False)
    assert run(capsys, "new", path)[0] == 0
    assert run(capsys, "import", path, tmp_path / "wave1.csv")[0] == 0
    code, out, err = run(capsys, "item", path, "cheating", "--design", "warner", "--param", "p=0.7", "--column",
                         "q7", "--codes", "yes=Yes", "--codes", "no=No", "--label", "Cheating")
    assert code == 0, out + err
    code, out, err = run(capsys, "item", path, "late", "--design", "krr", "--param", "epsilon=2", "--param",
                         'categories=["never","once","often"]', "--column", "late", "--codes", "never=never", "--codes",
                         "once=once", "--codes", "often=often", "--label", "Lateness")
    assert code == 0, out + err
    code, out, err = run(capsys, "import", path, tmp_path / "wave2.csv")
    assert code == 0, out + err
    for item, codes in (("cheating", ["yes=Yes", "no=No"]), ("late", ["never=never", "once=once", "often=often"])):
        column = "q7" if item == "cheating" else "late"
        args = ["item", path, item, "--dataset", "wave2.csv", "--column", column]
        for c in codes:
            args += ["--codes", c]
        run(capsys, *args)  # (the import may have mapped it already: the same columns and codes)
    code, out, err = run(capsys, "estimate", path, "--by-dataset")
    assert code == 0, out + err
    note = next(line for line in out.splitlines() if line.startswith("p-values of the pairwise differences"))
    assert "within each item (3 comparisons of Lateness)" in note
    assert "Cheating has a single comparison, which needs no adjustment" in note
    assert "comparisons of each item" not in note
    assert "e-0" not in out  # p-values in words (p < .001), never 4.57e-07
