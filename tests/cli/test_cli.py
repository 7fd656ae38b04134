"""The command line: new, import, item, estimate, export, demo; errors in one line."""

import json

import openpyxl
import pytest

from dpdesk.cli import main
from tests.helpers.cli import run
from dpdesk.project.example import example_folder

CSV = example_folder() / "students.csv"




@pytest.fixture
def project(tmp_path, capsys):
    path = tmp_path / "survey.dpdesk"
    assert run(capsys, "new", path)[0] == 0
    code, out, _ = run(capsys, "import", path, CSV)
    assert code == 0 and "1200 rows" in out and "email" in out  # identifier left out, and said so
    code, out, _ = run(capsys, "item", path, "cheating", "--design", "forced", "--param", "p_truth=0.5",
                       "--param", "p_yes=0.25", "--param", "p_no=0.25", "--column", "cheat_rr",
                       "--codes", "yes=Yes", "--codes", "no=No", "--question", "Cheated in an exam?")
    assert code == 0 and "1.099" in out
    code, out, _ = run(capsys, "item", path, "drugs", "--design", "sld", "--param", "p1=0.3", "--param", "p2=0.7",
                       "--column", "drug_sld", "--codes", "yes=Yes", "--codes", "no=No",
                       "--group-column", "sld_group", "--group-codes", "1=1", "--group-codes", "2=2")
    assert code == 0
    return path


def test_estimate_prints_the_table_and_a_sentence(project, capsys):
    code, out, _ = run(capsys, "estimate", project)
    assert code == 0
    assert "We estimate that 26.6% (95% CI 20.4% to 32.9%)" in out
    assert "286 left out: 286 blank" in out  # the direct-question group is missing: left out, and said so


def test_estimate_json_and_subgroups(project, capsys):
    code, out, _ = run(capsys, "estimate", project, "--by", "faculty", "--json")
    assert code == 0
    tables = json.loads(out)
    assert {"Estimates", "By faculty"} <= set(tables)
    rows = {r["item"]: r for r in tables["Estimates"]}
    cheating = rows["Cheated in an exam?"]  # output names an item by its question (the name is an identifier)
    assert cheating["n"] == 914 and cheating["excluded"] == 286
    assert 0 <= rows["drugs"]["estimate"] <= 1 and "drugs [t]" in rows
    assert any(r["subgroup"] == "Arts - Law" for r in tables["By faculty"])


def test_strict_estimate_names_the_rows(project, capsys):
    code, out, _ = run(capsys, "estimate", project, "--strict")
    assert code == 0  # missing answers (blanks) never stop an estimate: they are left out and reported
    assert "286 left out: 286 blank" in out
    code, out, _ = run(capsys, "item", project, "typo", "--design", "forced", "--param", "p_truth=0.5",
                       "--param", "p_yes=0.25", "--param", "p_no=0.25", "--column", "cheat_rr",
                       "--codes", "yes=Yes", "--codes", "no=Nope")
    assert code == 0
    code, out, _ = run(capsys, "estimate", project, "--strict")
    assert "'No' in" in out and "which matches no code" in out  # a value that matches no code is an error
    code, out, _ = run(capsys, "estimate", project)
    line = next(x for x in out.splitlines() if "(typo:" in x)  # without --strict: left out and reported
    assert "matches no code" in line and "blank" in line


def test_item_codes_in_the_respondents_words_and_a_contradiction_refused(tmp_path, capsys):
    csv = tmp_path / "cw.csv"
    csv.write_text("q\n" + "same\n" * 3 + "different\n" * 7, encoding="utf-8")
    path = tmp_path / "cw.dpdesk"
    assert run(capsys, "new", path)[0] == 0
    assert run(capsys, "import", path, csv)[0] == 0
    code, out, err = run(capsys, "item", path, "cw", "--design", "crosswise", "--param", "p=0.25", "--column", "q",
                         "--codes", "yes=different", "--codes", "no=same")
    assert code != 0 and "would be inverted" in out + err and "'Both answers are the same'" in out + err
    from dpdesk.project import Project

    with Project.open(path) as p:
        assert [i.name for i in p.items()] == []  # nothing stored
    code, out, err = run(capsys, "item", path, "cw", "--design", "crosswise", "--param", "p=0.25", "--column", "q",
                         "--codes", "same=same", "--codes", "different=different")
    assert code == 0, out + err
    with Project.open(path) as p:
        assert p.item("cw").codes == {"yes": ["same"], "no": ["different"]}


def test_export_xlsx_and_csv(project, tmp_path, capsys):
    out_xlsx = tmp_path / "results.xlsx"
    code, out, _ = run(capsys, "export", project, out_xlsx, "--by", "gender")
    assert code == 0 and out_xlsx.exists()
    wb = openpyxl.load_workbook(out_xlsx)
    assert wb.sheetnames[:2] == ["Estimates", "By gender"] and "Metadata" in wb.sheetnames
    sheet = wb["Estimates"]
    header = [c.value for c in sheet[1]]
    assert header[:8] == ["item", "design", "n", "excluded", "estimate", "SE", "CI low", "CI high"]
    assert isinstance(sheet.cell(2, 5).value, float)
    meta = {r[0].value: r[1].value for r in wb["Metadata"].iter_rows()}
    assert any("SHA-256" in str(k) for k in meta)
    assert (tmp_path / "results_reproduce.py").exists()
    code, out, _ = run(capsys, "export", project, tmp_path / "results.csv")
    assert code == 0 and (tmp_path / "results.csv").exists()


def test_demo_builds_and_exports(tmp_path, capsys):
    code, out, _ = run(capsys, "demo", tmp_path / "demo")
    assert code == 0
    assert (tmp_path / "demo" / "example.dpdesk").exists()
    assert (tmp_path / "demo" / "example-results.xlsx").exists()
    assert "Results written to" in out
    assert run(capsys, "demo", tmp_path / "demo")[0] == 0  # a second run replaces the first


def test_a_fresh_example_fields_as_it_is(tmp_path, capsys):
    """The example's crosswise item has its question B, so its three items field without a word written."""
    from dpdesk.gui.shell.example_project import build_example

    assert run(capsys, "demo", tmp_path / "demo")[0] == 0
    for path in (tmp_path / "demo" / "example.dpdesk", build_example(None, tmp_path / "app.dpdesk")):
        code, out, err = run(capsys, "field", path, tmp_path / f"{path.stem}-survey", "--format", "qsf")
        assert code == 0, err
        survey = json.loads((tmp_path / f"{path.stem}-survey.qsf").read_text(encoding="utf-8"))
        text = json.dumps(survey).replace("&#x27;", "'")  # QSF texts are HTML
        assert "Is your mother's birthday in January, February or March?" in text and "3 item(s)" in out


@pytest.mark.parametrize("args,words", [
    (["item", "{p}", "x", "--design", "warner", "--param", "p=0.5"], "unidentifiable"),
    (["item", "{p}", "x", "--design", "nope"], "There is no design called"),
    (["item", "{p}", "x", "--design", "sld", "--param", "p1=0.3", "--param", "p2=0.7", "--column", "drug_sld",
      "--codes", "yes=Yes", "--codes", "no=No"], "--group-column"),
    (["item", "{p}", "x", "--design", "warner", "--param", "p=0.7", "--codes", "yes=Yes"], "no codes for response"),
    (["estimate", "{missing}"], "no project file"),
    (["import", "{p}", "{missing}"], ""),
    (["item", "{p}", "cheating", "--design", "warner", "--param", "p=0.7"], "already has an item"),
])
def test_errors_print_one_clear_line_and_exit_non_zero(project, tmp_path, capsys, args, words):
    args = [a.format(p=project, missing=tmp_path / "missing.dpdesk") for a in args]
    code, out, err = run(capsys, *args)
    assert code != 0
    assert err.startswith("dpdesk ") and "Traceback" not in err
    assert len(err.strip().splitlines()) == 1
    assert words.lower() in err.lower()


@pytest.mark.parametrize("command", ["new", "import", "item", "estimate", "export", "demo"])
def test_help_on_each_command(command, capsys):
    with pytest.raises(SystemExit) as info:
        main([command, "--help"])
    assert info.value.code == 0
    assert "usage: dpdesk " + command in capsys.readouterr().out
