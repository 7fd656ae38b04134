"""The fixed cost of a command (issue 31): a command registers only its own family's parser, and a
release loads only the libraries it needs (no DuckDB, Spark or Qt for an imported dataset; no pandas,
Spark or Qt for a linked one; never OpenDP's scikit-learn/numpy/polars extras). Each release runs in a
fresh interpreter, as from the command line, and reports the modules it loaded."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from dpdesk.cli import COMMANDS, FAMILIES, build_parser

ROOT = Path(__file__).resolve().parents[2]
KEYS = [str(k) for k in range(5)]

PROBE = """
import json, sys
from dpdesk.cli import main
code = main(sys.argv[1:])
loaded = [m for m in ("pandas", "duckdb", "pyspark", "PySide6", "scipy", "matplotlib", "opendp.extras",
                      "opendp.prelude", "dpdesk.cli.report", "dpdesk.cli.regress") if m in sys.modules]
print(json.dumps({"code": code, "loaded": loaded}))
"""


def _commands(parser) -> list[str]:
    return list(next(a.choices for a in parser._actions if getattr(a, "choices", None)))


def test_each_family_registers_exactly_its_commands():
    everything = _commands(build_parser())
    assert everything == list(COMMANDS)  # the table lists every command, in the order of --help
    for family, commands in FAMILIES.items():
        for command in commands:
            assert _commands(build_parser(command)) == list(commands), (family, command)


def test_an_unknown_command_still_lists_every_command(capsys):
    from dpdesk.cli import main

    with pytest.raises(SystemExit):
        main(["releas", "x.dpdesk"])
    err = capsys.readouterr().err
    assert "invalid choice" in err and "'release'" in err and "'regress'" in err


def _probe(tmp_path, *argv) -> dict:
    env = dict(os.environ, PYTHONPATH=str(ROOT), DPDESK_SETTINGS_DIR=str(tmp_path / "settings"))
    out = subprocess.run([sys.executable, "-c", PROBE, *map(str, argv)], env=env, cwd=tmp_path,
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout.strip().splitlines()[-1])


def _cli(*argv):
    from dpdesk.cli import main

    assert main([str(a) for a in argv]) == 0


def test_release_on_an_imported_dataset_loads_no_engine_and_no_qt(tmp_path):
    project, csv = tmp_path / "small.dpdesk", tmp_path / "small.csv"
    csv.write_text("region\n" + "".join(f"{i % 5}\n" for i in range(200)))
    _cli("new", project)
    _cli("import", project, csv)
    _cli("budget", project, "--set", "10")
    got = _probe(tmp_path, "release", project, "--stat", "histogram", "--columns", "region", "--keys", *KEYS,
                 "--epsilon", "0.5")
    assert got["code"] == 0
    assert got["loaded"] == ["pandas"]  # pandas reads the stored rows; nothing else heavy


def test_release_on_a_linked_dataset_loads_no_pandas_spark_or_qt(tmp_path):
    duckdb = pytest.importorskip("duckdb")
    parquet = tmp_path / "tiny.parquet"
    duckdb.connect().execute(f"COPY (SELECT (i % 5)::INTEGER AS region FROM range(200) t(i)) "
                             f"TO '{parquet}' (FORMAT parquet)")
    project = tmp_path / "linked.dpdesk"
    _cli("new", project)
    _cli("import", project, parquet, "--link", "--name", "tiny")
    _cli("budget", project, "--set", "10")
    got = _probe(tmp_path, "release", project, "--dataset", "tiny", "--stat", "histogram", "--columns", "region",
                 "--keys", *KEYS, "--epsilon", "0.5")
    assert got["code"] == 0
    assert got["loaded"] == ["duckdb"]
