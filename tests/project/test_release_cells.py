"""Released cells: raw vs post-processed values, intervals after post-processing, derived margins,
the export's words; Share's proposed roles for time stamps and direct-question twins."""

from __future__ import annotations


import numpy as np
import openpyxl
import pandas as pd
import pytest

from dpdesk.project.ledger.release_cells import grid_of, release_cells
from dpdesk.project.ledger.releases import LedgerEntry


def entry(stat="crosstab", values=None, keys=None, half=4.0, request=None, result=None, events=None):
    req = {"statistic": stat, "columns": ["gender", "faculty"], "confidence": "19/20", **(request or {})}
    res = result or {"keys": keys, "values": values, "noisy": values,
                     "half_width": {"confidence": "19/20", "cells": 4, "per_cell": 3.0, "simultaneous": half}}
    ev = events or [{"type": "laplace", "scale": "1", "sensitivity": "1", "discrete": True}]
    return LedgerEntry(seq=7, time="2026-12-01T10:00:00", app_version="t", dataset_sha256="ab" * 32, request=req,
                       mechanism="discrete_laplace", noise_params={"dataset": "s", "events": ev},
                       cost={"epsilon": "1/2", "delta": "0"}, result=res, prev_hash="", hash="")


def test_negative_counts_are_clamped_marked_and_their_interval_still_covers():
    e = entry(values=[[-3, 10], [5, 0]], keys=[["F", "M"], ["Arts", "Law"]])
    rc = release_cells(e)
    first = rc.cells[0]
    assert first.raw == -3 and first.shown == 0 and first.adjusted
    assert (first.low, first.high) == (0.0, 1.0)  # [max(0, -3 - 4), -3 + 4]
    assert not rc.cells[1].adjusted and rc.cells[1].shown == 10
    assert "set 1 negative" in rc.postprocessing and rc.cost == "ε = 0.5" and "scale 1" in rc.noise
    g = grid_of(rc, e.result["keys"])
    assert [m.shown for m in g.row_margins] == [10, 5] and [m.shown for m in g.col_margins] == [5, 10]
    assert g.total.shown == 15 and g.total.derived
    assert (g.row_margins[0].low, g.row_margins[0].high) == (0.0 + 6.0, 1.0 + 14.0)


def test_mean_cells_get_the_two_noise_interval():
    ev = [{"type": "laplace", "scale": "12000", "sensitivity": "6000", "discrete": True},
          {"type": "laplace", "scale": "2", "sensitivity": "1", "discrete": True}]
    res = {"keys": [], "values": 37.5, "sum": {"keys": [], "values": 15000.0, "noisy": 1500000},
           "count": {"keys": [], "values": 400.0, "noisy": 400}, "half_width": None, "postprocessing": "ratio"}
    e = entry("mean", result=res, events=ev,
              request={"columns": ["age"], "bounds": ["18", "60"], "resolution": "1/100"})
    rc = release_cells(e)
    (cell,) = rc.cells
    assert cell.shown == 37.5 and 18 <= cell.low < 37.5 < cell.high <= 60
    assert "union bound" in rc.coverage and "all at once" in rc.coverage


def test_export_has_the_words_and_an_about_sheet(tmp_path):
    from dpdesk.project.ledger.release_table import export_release, release_table

    e = entry(values=[[-3, 10], [5, 0]], keys=[["F", "M"], ["Arts", "Law"]])
    rows = release_table(e)
    assert rows[0]["released value"] == -3 and rows[0]["post-processed value"] == 0
    assert rows[0]["changed by post-processing"] == "yes" and rows[0]["interval low"] == 0.0
    wb = openpyxl.load_workbook(export_release(e, tmp_path / "r.xlsx"))
    assert wb.sheetnames == ["Release 7", "About"]
    about = dict(wb["About"].iter_rows(values_only=True))
    assert about["privacy cost"] == "ε = 0.5" and "max(0" in about["intervals cover"]


@pytest.mark.parametrize("name, values", [
    ("StartDate", [f"2024-03-01 10:{i % 60:02d}:00" for i in range(40)]),
    ("EndDate", pd.date_range("2024-03-01", periods=40, freq="h")),
    ("RecordedDate", [f"3/{1 + i % 28}/2024 11:{i % 60:02d}" for i in range(40)]),
    ("submitted", [f"2024-03-{1 + i % 28:02d}T10:00:00" for i in range(40)]),  # by content
])
def test_time_stamps_are_quasi_identifiers(name, values):
    from dpdesk.project.sharing.checks import QUASI, default_roles

    frame = pd.DataFrame({name: values, "x": np.arange(40) % 3})
    assert default_roles(frame)[name].role == QUASI


def test_the_direct_question_twin_is_sensitive():
    from dpdesk.project.sharing.checks import OTHER, SENSITIVE, default_roles

    frame = pd.DataFrame({"cheat": [1, 2] * 20, "cheat_direct": ["Yes", "No"] * 20, "mood": [1, 2] * 20})
    roles = default_roles(frame, protected=["cheat"])
    assert roles["cheat_direct"].role == SENSITIVE and "cheat" in roles["cheat_direct"].reason
    assert roles["mood"].role == OTHER


def test_release_form_defaults_skip_identifiers_and_time_stamps():
    from types import SimpleNamespace

    from dpdesk.project.ledger.column_choice import avoided_columns, default_column

    ds = SimpleNamespace(columns=["ResponseId", "StartDate", "email", "age", "faculty"],
                         dtypes={"ResponseId": "object", "StartDate": "datetime64[ns]", "email": "object",
                                 "age": "int64", "faculty": "category"})
    assert avoided_columns(ds) == {"ResponseId", "StartDate", "email"}
    assert default_column(ds) == "faculty" and default_column(ds, numeric=True) == "age"
