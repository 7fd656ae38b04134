"""A dataset's survey design: its weight, stratum, cluster (PSU) and population-size columns.

Stored with the dataset in the project file (table ``survey_designs``, one row per dataset
that has one). With a design, results, subgroups and regression are design-based
(``rr.survey_estimate``, ``rr.survey_estimate_by``, ``rr.logistic(weights=...)``): weighted,
with Taylor-linearization standard errors over the PSUs within strata. Noisy tabulations
stay unweighted counts: weights would change their sensitivity.

``guess_design`` offers columns whose names look like a weight, stratum or PSU (``weight``,
``wgt``, ESS's ``anweight``, ``psu``, ``stratum``); the app shows them as suggestions and never
applies them by itself.
"""

from __future__ import annotations

import datetime as _dt
import math
import re
import sqlite3
from dataclasses import asdict, dataclass

import numpy as np

from dpdesk.errors import DataError
from dpdesk.mechanisms.rr.linearization import LONELY_PSU
from dpdesk.project.study.active import dataset_named

ROLES = {"weights": "weight", "strata": "stratum", "clusters": "cluster (PSU)", "fpc": "population size"}
LONELY_WORDS = {
    "fail": "stop with a message",
    "certainty": "treat as certain (no variance)",
    "average": "give the average variance of the other strata",
    "adjust": "centre at the overall mean",
}


@dataclass(frozen=True)
class SurveyDesign:
    """Column names of a dataset's design (None: not used), a known population size, the lonely-PSU rule."""

    weights: str | None = None
    strata: str | None = None
    clusters: str | None = None
    fpc: str | None = None
    population: float | None = None
    lonely_psu: str = "fail"

    def __post_init__(self) -> None:
        if self.lonely_psu not in LONELY_PSU:
            raise DataError(f"The single-PSU rule {self.lonely_psu!r} is not known; choose one of "
                            f"{', '.join(LONELY_PSU)}.")
        if self.population is not None and not (float(self.population) > 0):
            raise DataError(f"The population size must be a positive number, not {self.population!r}.")

    @property
    def is_empty(self) -> bool:
        return not any((self.weights, self.strata, self.clusters, self.fpc))

    def columns(self) -> dict[str, str]:
        """``{role: column}`` for the roles that are set."""
        return {role: getattr(self, role) for role in ROLES if getattr(self, role)}

    def to_dict(self) -> dict:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict) -> "SurveyDesign":
        known = {k: data.get(k) for k in ("weights", "strata", "clusters", "fpc", "population")}
        return cls(**known, lonely_psu=data.get("lonely_psu") or "fail")

    def describe(self, labels: dict | None = None) -> str:
        """``"weight 'wgt', strata 'region', PSUs 'school'"`` (or "no survey design").

        ``labels`` (``{column: label}``) adds each labelled column's label: ``"strata 'region' (Region)"``."""
        labels = labels or {}
        parts = [f"{ROLES[role].replace('cluster (PSU)', 'PSUs').replace('stratum', 'strata')} {name!r}"
                 + (f" ({labels[name]})" if labels.get(name) and labels[name] != name else "")
                 for role, name in self.columns().items()]
        if self.population:
            parts.append(f"population size {self.population:,.0f}")
        if self.lonely_psu != "fail":
            parts.append(f"single-PSU strata: {LONELY_WORDS[self.lonely_psu]}")
        return ", ".join(parts) or "no survey design"


@dataclass(frozen=True)
class DesignChanges:
    """Run-time design options (the command line's ``--weights ... --population``) for one analysis.

    They add to the dataset's stored design: each option given replaces that part of the
    stored design and the others are kept (``--population 50000`` alone keeps the stored
    weights, strata and PSUs). ``changes``: ``{field: value}`` of the options given.
    """

    changes: tuple[tuple[str, object], ...]

    def over(self, stored: "SurveyDesign | None") -> "SurveyDesign":
        """The stored design (or none) with these options applied."""
        base = (stored or SurveyDesign()).to_dict()
        base.update(dict(self.changes))
        return SurveyDesign.from_dict(base)


def survey_design(project, dataset: str | None = None) -> SurveyDesign | None:
    """The stored design of the named (default: active) dataset, or None."""
    ds = dataset_named(project, dataset)
    names = ("weights", "strata", "clusters", "fpc", "population", "lonely_psu")
    try:
        row = project.connection.execute(f"SELECT {', '.join(names)} FROM survey_designs WHERE dataset_id = ?",
                                         (ds.id,)).fetchone()
    except sqlite3.OperationalError:  # a file of an older version, opened read-only (not upgraded)
        return None
    return None if row is None else SurveyDesign.from_dict(dict(zip(names, tuple(row))))


def population_from_text(text: str) -> float | None:
    """The known population size typed in the Survey design panel: None when empty.

    ``10777``, ``10,777``, ``10 777`` and ``1.5e4`` are read; anything else, zero, a negative
    or an unending number is a :class:`DataError` in words.
    """
    raw = (text or "").strip().replace(" ", "").replace("\u00a0", "").replace("_", "")
    if not raw:
        return None
    if re.fullmatch(r"\d{1,3}(,\d{3})+(\.\d*)?", raw):
        raw = raw.replace(",", "")
    try:
        value = float(raw.replace(",", "."))
    except ValueError:
        value = math.nan
    if not (math.isfinite(value) and value > 0):
        raise DataError(f"The known population size '{text.strip()}' is not a positive number: type the number of "
                        f"people in the population the sample was drawn from (such as 10777), or leave the box "
                        f"empty for weighted means.")
    return value


def set_survey_design(project, design: SurveyDesign, dataset: str | None = None, *, frame=None) -> SurveyDesign:
    """Store ``design`` for the dataset after checking its columns and values (DataError naming rows).

    ``frame``: the dataset's rows when already at hand (the Data view), else they are read.
    """
    ds = dataset_named(project, dataset)
    if design.is_empty and design.population is None:
        clear_survey_design(project, ds.name)
        return design
    check_design(project.dataset_frame(ds.name) if frame is None else frame, design, _first_row(ds), ds.report,
                 arrays=False)
    now = _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds")
    with project.transaction() as conn:
        conn.execute("INSERT OR REPLACE INTO survey_designs(dataset_id, weights, strata, clusters, fpc, population,"
                     " lonely_psu, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                     (ds.id, design.weights, design.strata, design.clusters, design.fpc,
                      None if design.population is None else float(design.population), design.lonely_psu, now))
    return design


def clear_survey_design(project, dataset: str | None = None) -> None:
    """Forget the dataset's design: it is analysed as a simple random sample again."""
    ds = dataset_named(project, dataset)
    with project.transaction() as conn:
        conn.execute("DELETE FROM survey_designs WHERE dataset_id = ?", (ds.id,))


def _first_row(ds) -> int:
    return int((ds.report or {}).get("first_data_row") or 2)


def check_design(frame, design: SurveyDesign, first_row: int = 2, report=None, *, arrays: bool = True) -> dict:
    """The design's columns as arrays for the estimators, or a DataError naming the column and file rows.

    ``arrays=False`` only checks (blank values, weights and population sizes not positive).
    """
    kind = report.get("kind") if isinstance(report, dict) else getattr(report, "kind", None)
    if kind == "counts":
        raise DataError("This dataset is a counts table: it has no respondents to weight. A survey design needs the "
                        "respondents' rows (one per person) with their weight, stratum and cluster.")
    out: dict = {}
    for role, column in design.columns().items():
        if column not in frame.columns:
            shown = ", ".join(repr(str(c)) for c in list(frame.columns)[:15])
            raise DataError(f"There is no column {column!r} for the {ROLES[role]}; the columns are {shown}.")
        values = frame[column]
        blank = values.isna().to_numpy()
        if blank.any():
            raise DataError(f"Column {column!r} (the {ROLES[role]}) is blank in {_rows(blank, frame, first_row)}. "
                            f"Every respondent needs a {ROLES[role]}: fill them in, or leave those rows out of "
                            f"the file.")
        if role in ("weights", "fpc"):
            import pandas as pd

            num = pd.to_numeric(values, errors="coerce").astype("float64").to_numpy()
            bad = ~np.isfinite(num) | (num <= 0)
            if bad.any():
                raise DataError(f"Column {column!r} (the {ROLES[role]}) must be a positive number; it is not in "
                                f"{_rows(bad, frame, first_row)} (for example {values.iloc[int(bad.argmax())]!r}).")
            out[role] = num
        elif arrays:
            out[role] = np.asarray(values.astype(str).to_numpy(), dtype=object)
    return out


def _rows(mask: np.ndarray, frame, first_row: int) -> str:
    idx = np.flatnonzero(mask)
    rows = []
    for i in idx[:5]:
        try:
            rows.append(str(int(frame.index[i]) + first_row))
        except (TypeError, ValueError):
            rows.append(str(frame.index[i]))
    more = f" and {len(idx) - 5} more" if len(idx) > 5 else ""
    return f"row{'s' if len(idx) > 1 else ''} {', '.join(rows)}{more}"


def estimator_arguments(frame, design: SurveyDesign, first_row: int = 2, report=None) -> dict:
    """Keyword arguments for ``rr.survey_estimate``/``rr.logistic``: weights, strata, clusters, fpc, lonely_psu."""
    arrays = check_design(frame, design, first_row, report)
    return {**arrays, "lonely_psu": design.lonely_psu}


_GUESSES = {
    "weights": re.compile(r"^(an|ps|d|p|final|base|pop|samp|survey|design)?_?(weight|weights|wgt|wght|wt|pweight)"
                          r"(_?\w{0,8})?$", re.I),
    "strata": re.compile(r"^(strat|strata|stratum|stratify|str|vstrat|sdmvstra)$", re.I),
    "clusters": re.compile(r"^(psu|vpsu|cluster|clusters|clus|sdmvpsu|school|schoolid|school_id)$", re.I),
    "fpc": re.compile(r"^(fpc|pop_?size|population|n_?pop|stratum_?size)$", re.I),
}


def guess_design(columns) -> SurveyDesign:
    """Suggested columns by name (ESS: anweight, psu, stratum); never applied without the researcher."""
    found: dict = {}
    for role, pattern in _GUESSES.items():
        for col in columns:
            if pattern.match(str(col).strip()) and str(col) not in found.values():
                found[role] = str(col)
                break
    return SurveyDesign(**found)
