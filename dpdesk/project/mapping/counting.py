"""Map a randomized-response item to its column and count the recorded responses.

The estimators take counts, never rows (DESIGN.md, idea 2). ``map_item`` turns a column of
recorded answers into the count of each response (per group for two-group designs such as
the stochastic lie detector or cheating detection), given the codes that stand for each
response::

    report = map_item(table, "q7", {"no": ["No", 0, "Nein"], "yes": ["Yes", 1, "Ja"]})
    report.counts      # [412, 188] in the order of report.responses
    report.n_used      # 600

Text codes match case- and whitespace-insensitively; numbers match numerically (``1``,
``1.0`` and ``"1"`` are the same code); value labels from SPSS/Stata work as codes (``"Yes"``
matches the code ``1`` labelled "Yes"). Missing answers (blanks, and the file's user-missing
codes such as 98 "Refused" or 99 "Don't know") count as missing: they are left out of the
counts and listed (``report.missing``, each with its row number as the user sees it in the
file and why), never counted as an answer. To count a user-missing code as an answer
after all, give it among the codes of that response. A value that matches no code is an
error to fix: ``report.ok`` is False and ``report.problems`` says where; with
``exclude=True`` such rows are left out too, and listed.

With ``design=`` the codes may be keyed by the respondent's words (``{"same": [1],
"different": [2]}`` for crosswise) and a mapping that contradicts the file's own words
(a code labelled "same" mapped to "different") is refused with a :class:`DataError`
(see :mod:`dpdesk.project.mapping.answer_labels`). A counts table (``response``, ``count``, groups)
gives the same report, each row weighted by its count.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field

from dpdesk.errors import DataError
from dpdesk.project.mapping.code_matching import (  # noqa: F401 - Problem is part of this module's API
    Problem,
    _as_list,
    _classify,
    _describe_problems,
    _jsonable,
    _list_problems,
    _plain,
    _row,
    _same_names,
)

__all__ = ["ItemMapping", "MappingReport", "Problem", "counts_by", "map_counts", "map_item"]


@dataclass(frozen=True)
class ItemMapping:
    """Which column holds an item, which codes mean which response, and the group column."""

    column: str
    codes: dict
    responses: tuple = ()
    group_column: str | None = None
    group_codes: dict | None = None

    def __post_init__(self):
        codes = {str(k): _as_list(v) for k, v in dict(self.codes).items()}
        if not codes:
            raise DataError(f"Item '{self.column}': give the codes of each response, e.g. "
                            f"{{'no': ['No', 0], 'yes': ['Yes', 1]}}.")
        responses = tuple(str(r) for r in self.responses) if self.responses else tuple(codes)
        _same_names(responses, codes, "responses", self.column)
        object.__setattr__(self, "codes", codes)
        object.__setattr__(self, "responses", responses)
        if (self.group_column is None) != (self.group_codes is None):
            raise DataError(f"Item '{self.column}': give both group_column and group_codes (the "
                            f"codes of each group), or neither.")
        if self.group_codes is not None:
            groups = {str(k): _as_list(v) for k, v in dict(self.group_codes).items()}
            if len(groups) < 2:
                raise DataError(f"Item '{self.column}': group_codes needs at least two groups. "
                                f"Give the codes of each group, e.g. {{'A': [1], 'B': [2]}}.")
            object.__setattr__(self, "group_codes", groups)

    @property
    def groups(self) -> tuple:
        return tuple(self.group_codes) if self.group_codes else ()

    def to_dict(self) -> dict:
        return _jsonable(asdict(self))

    @classmethod
    def from_dict(cls, data: dict) -> "ItemMapping":
        return cls(data["column"], data["codes"], tuple(data.get("responses") or ()),
                   data.get("group_column"), data.get("group_codes"))

    def apply(self, data, *, exclude: bool = False, value_labels=None, missing_codes=None,
              first_row: int | None = None, weights: str | None = None, design=None) -> "MappingReport":
        """Count ``data`` (a :class:`Table` or a DataFrame) by this mapping."""
        return _count(self, data, exclude, value_labels, missing_codes, first_row, weights, design)


@dataclass
class MappingReport:
    """Counts of each response (per group), what was used, and every row not counted.

    ``counts`` is a list of ints in the order of ``responses``; for a two-group design it
    is a list (one per group, in the order of ``groups``) of such lists. ``unmatched`` and
    ``missing`` list :class:`Problem` rows (1-based row numbers as in the file); missing
    rows are always left out, unmatched rows only with ``exclude=True``. ``labels`` are
    the respondent's words for ``responses`` (same order) when the design was given.
    """

    column: str
    responses: tuple
    counts: list
    n_used: int
    n_rows: int
    groups: tuple = ()
    group_column: str | None = None
    unmatched: list = field(default_factory=list)
    missing: list = field(default_factory=list)
    excluded: bool = False
    problems: list = field(default_factory=list)
    warnings: list = field(default_factory=list)
    source: str | None = None
    labels: tuple = ()
    #: per row of the data: {"used": bool, "response": index into responses, "group": index into
    #: groups or None}; for design-based estimates (``survey_design``), never saved
    rows: dict | None = field(default=None, repr=False, compare=False)

    @property
    def ok(self) -> bool:
        """True when every row was counted or is missing, or unmatched rows were excluded on request."""
        return not self.problems

    def label(self, response) -> str:
        """The respondent's words for ``response`` (the key itself without a design)."""
        if self.labels and response in self.responses:
            return self.labels[self.responses.index(response)]
        return str(response)

    def left_out(self) -> dict:
        """Why rows were left out: ``{reason: number of rows}`` (blank, user-missing code (...),
        matches no code), most frequent first."""
        out: dict = {}
        problems = self.missing + (self.unmatched if self.excluded else [])
        for p in problems:
            out[p.reason] = out.get(p.reason, 0) + p.count
        return dict(sorted(out.items(), key=lambda kv: -kv[1]))

    def left_out_text(self) -> str:
        """``"7 left out: 5 blank, 2 user-missing code (Refused)"`` or ``""``."""
        reasons = self.left_out()
        if not reasons:
            return ""
        return f"{sum(reasons.values()):,} left out: " + ", ".join(f"{n:,} {r}" for r, n in reasons.items())

    @property
    def n_unmatched(self) -> int:
        return sum(p.count for p in self.unmatched)

    @property
    def n_missing(self) -> int:
        return sum(p.count for p in self.missing)

    @property
    def n_excluded(self) -> int:
        """Rows (or, for a counts table, respondents) left out: the missing ones, and the
        unmatched ones with ``exclude=True``."""
        return self.n_missing + (self.n_unmatched if self.excluded else 0)

    @property
    def unmatched_rows(self) -> list:
        return [p.row for p in self.unmatched]

    @property
    def missing_rows(self) -> list:
        return [p.row for p in self.missing]

    def raise_for_problems(self) -> None:
        """Raise :class:`DataError` with every problem when ``ok`` is False."""
        if self.problems:
            raise DataError(" ".join(self.problems))

    def to_dict(self) -> dict:
        data = {k: v for k, v in asdict(self).items() if k not in ("unmatched", "missing", "rows")}
        data["unmatched"] = [p._asdict() for p in self.unmatched]
        data["missing"] = [p._asdict() for p in self.missing]
        data["ok"] = self.ok
        return _jsonable(data)


def map_item(data, column: str, codes: dict, *, group_column: str | None = None,
             group_codes: dict | None = None, responses=None, exclude: bool = False,
             value_labels=None, missing_codes=None, first_row: int | None = None,
             weights: str | None = None, design=None) -> MappingReport:
    """Count the responses of an RR item in ``column`` of ``data`` (Table or DataFrame).

    ``codes`` maps each response to its codes, ``responses`` fixes their order (default:
    the order of ``codes``). ``group_column``/``group_codes`` split the counts by design
    group. ``value_labels`` (``{code: label}``) and ``missing_codes`` (user-missing codes)
    default to the import report's; ``first_row`` is the file row of index label 0
    (default: from the import, else 2 -- one header row); ``weights`` names a count
    column (default for a counts table: its ``count`` column). ``design`` (an
    ``rr.Design``) lets codes be keyed by the respondent's words, orders the responses as
    ``design.responses``, labels the report and refuses codes whose own labels name
    another response (:func:`dpdesk.project.mapping.answer_labels.check`).
    """
    if design is not None:
        from dpdesk.project.mapping.answer_labels import rename_keys

        codes = rename_keys(design, dict(codes))
        if not responses and set(design.responses) <= set(codes):
            responses = tuple(design.responses)
    mapping = ItemMapping(column, codes, tuple(responses or ()), group_column, group_codes)
    return mapping.apply(data, exclude=exclude, value_labels=value_labels,
                         missing_codes=missing_codes, first_row=first_row, weights=weights, design=design)


def map_counts(table, codes: dict, *, group_column: str | None = None, group_codes=None,
               responses=None, exclude: bool = False) -> MappingReport:
    """The same :class:`MappingReport` from a counts table (``read_table(..., kind="counts")``)."""
    report = getattr(table, "report", None)
    column = getattr(report, "response_column", None) or "response"
    if group_column is None and group_codes is not None and getattr(report, "group_columns", None):
        group_column = report.group_columns[0]
    return map_item(table, column, codes, group_column=group_column, group_codes=group_codes,
                    responses=responses, exclude=exclude)


def counts_by(data, column: str, codes: dict, by: str, *, responses=None, group_column=None,
              group_codes=None, exclude: bool = False, **options) -> dict:  # options: as map_item
    """Counts per subgroup value of ``by`` (for subgroup estimates): ``{value: MappingReport}``.

    Subgroups are in sorted order; rows with a blank subgroup come under the key ``None``
    (never dropped silently).
    """
    import pandas as pd

    frame, _ = _frame_and_report(data)
    if by not in frame.columns:
        raise DataError(_no_column(by, frame, "subgroup"))
    values = frame[by]
    present = pd.unique(values.dropna())
    try:
        present = sorted(present)
    except TypeError:
        present = sorted(present, key=str)
    result = {}
    for value in present:
        result[_plain(value)] = map_item(_subset(data, values == value), column, codes,
                                         group_column=group_column, group_codes=group_codes,
                                         responses=responses, exclude=exclude, **options)
    blank = values.isna()
    if blank.any():
        sub = map_item(_subset(data, blank), column, codes, group_column=group_column,
                       group_codes=group_codes, responses=responses, exclude=exclude, **options)
        sub.warnings.append(f"{int(blank.sum())} row(s) have no value in '{by}' and are counted "
                            f"in the group (missing).")
        result[None] = sub
    return result


def _subset(data, mask):
    frame, report = _frame_and_report(data)
    part = frame.loc[mask.to_numpy(dtype=bool, na_value=False)]  # a blank in a nullable column: not in the group
    if report is None:
        return part
    return type(data)(frame=part, report=report, source=data.source)


def _frame_and_report(data):
    frame = getattr(data, "frame", None)
    if frame is not None and hasattr(data, "report"):
        return frame, data.report
    if hasattr(data, "columns") and hasattr(data, "index"):
        return data, None
    raise DataError("map_item needs a table from read_table or a pandas DataFrame, "
                    f"not {type(data).__name__}. Pass the Table (or its .frame).")


def _no_column(column, frame, what="item") -> str:
    shown = ", ".join(repr(str(c)) for c in list(frame.columns)[:15])
    return (f"There is no column {column!r} for the {what}. The columns are: {shown}"
            f"{' ...' if frame.shape[1] > 15 else ''}. Check the name (it is case-sensitive).")


def _count(mapping: ItemMapping, data, exclude, value_labels, missing_codes, first_row, weights, design=None):
    import numpy as np

    frame, report = _frame_and_report(data)
    source = getattr(getattr(data, "source", None), "name", None)
    where = f"{source}: " if source else ""
    for col, what in ((mapping.column, "item"), (mapping.group_column, "group")):
        if col is not None and col not in frame.columns:
            raise DataError(where + _no_column(col, frame, what))
    if first_row is None:
        first_row = report.first_data_row if report is not None else frame.attrs.get("dpdesk_first_row", 2)
    if weights is None and report is not None and report.kind == "counts":
        weights = report.count_column
    if weights is None and frame.attrs.get("dpdesk_kind") == "counts" and "count" in frame.columns:
        weights = "count"
    labels_all = report.value_labels if report is not None else {}
    missing_all = report.missing_values if report is not None else {}
    labels = value_labels if value_labels is not None else labels_all.get(mapping.column, {})
    missing = missing_codes if missing_codes is not None else missing_all.get(mapping.column, [])
    if design is not None:
        from dpdesk.project.mapping.answer_labels import check

        check(design, mapping.codes, labels, mapping.column, where)
    answer, answer_values = _classify(frame[mapping.column], mapping.codes, labels, missing,
                                      mapping.column, where)
    weight = _weights(frame, weights, where, first_row)
    n_resp = len(mapping.responses)
    order = [list(mapping.codes).index(r) for r in mapping.responses]
    remap = np.full(len(order), 0, dtype=np.int64)
    remap[np.array(order)] = np.arange(len(order))
    valid = answer >= 0
    position = np.where(valid, remap[np.clip(answer, 0, None)], 0)
    problems = [(answer, answer_values, mapping.column)]
    if mapping.group_column is not None:
        g_labels = value_labels_for(report, mapping.group_column)
        g_missing = missing_all.get(mapping.group_column, [])
        group, group_values = _classify(frame[mapping.group_column], mapping.group_codes, g_labels,
                                        g_missing, mapping.group_column, where)
        valid &= group >= 0
        problems.append((group, group_values, mapping.group_column))
        cells = np.bincount((np.clip(group, 0, None) * n_resp + position)[valid],
                            weights=weight[valid], minlength=len(mapping.groups) * n_resp)
        counts = [[int(round(c)) for c in cells[g * n_resp:(g + 1) * n_resp]]
                  for g in range(len(mapping.groups))]
        n_used = sum(map(sum, counts))
    else:
        cells = np.bincount(position[valid], weights=weight[valid], minlength=n_resp)
        counts = [int(round(c)) for c in cells]
        n_used = sum(counts)
    result = MappingReport(mapping.column, mapping.responses, counts, n_used,
                           int(round(weight.sum())), mapping.groups, mapping.group_column,
                           excluded=exclude, source=source,
                           labels=tuple(design.label(r) for r in mapping.responses) if design is not None else ())
    result.rows = {"used": valid, "response": position,
                   "group": np.clip(group, 0, None) if mapping.group_column is not None else None}
    _list_problems(result, frame, problems, weight, first_row, labels_all, missing_all)
    _describe_problems(result, where, exclude)
    return result


def value_labels_for(report, column) -> dict:
    return report.value_labels.get(column, {}) if report is not None else {}


def _weights(frame, weights, where, first_row):
    import numpy as np
    import pandas as pd

    if weights is None:
        return np.ones(len(frame), dtype=np.float64)
    if weights not in frame.columns:
        raise DataError(where + _no_column(weights, frame, "counts"))
    values = pd.to_numeric(frame[weights], errors="coerce").astype("float64").to_numpy()
    bad = ~np.isfinite(values) | (values < 0) | (values != np.round(values))
    if bad.any():
        i = int(bad.argmax())
        raise DataError(f"{where}row {_row(frame.index[i], first_row)}, column '{weights}': "
                        f"'{frame[weights].iloc[i]}' is not a count (a whole number 0 or more). "
                        f"Fix the counts table.")
    return values


