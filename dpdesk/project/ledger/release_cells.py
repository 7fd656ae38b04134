"""The cells of a recorded release with what the screen, the clipboard and an export show.

For each released cell: the value as recorded (the raw noisy value), the value after free
post-processing (counts clamped at 0 by
:func:`dpdesk.mechanisms.central.postprocess.clamp_nonnegative`), whether post-processing
changed it, and its interval at the release's confidence, all cells at once:

* counts, tables, sums: ``[y - a, y + a]`` around the raw value ``y`` with the ledger's
  simultaneous half-width ``a``; clamped to ``[max(0, y - a), y + a]`` where the truth
  cannot be negative (the interval still covers the truth, see ``postprocess``);
* means: :func:`dpdesk.mechanisms.central.ratio.mean_intervals` (the noise of both the sum
  and the count, union bound, interval division, clipped to the bounds);
* medians: none (a choice among public candidates, not additive noise).

A two-way table also gets its margins, derived here by adding the post-processed cells
(free post-processing); on the event that every cell is within its interval, a margin's
truth lies between the sums of its cells' interval ends, so that is the margin's interval.
Reads only the ledger entry: costs nothing.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

__all__ = ["Cell", "ReleaseCells", "Grid", "release_cells", "grid_of", "entry_labels", "described"]


@dataclass(frozen=True)
class Cell:
    keys: tuple
    raw: Any
    shown: Any
    low: float | None = None
    high: float | None = None
    adjusted: bool = False
    derived: bool = False


@dataclass(frozen=True)
class ReleaseCells:
    """Cells plus the words every copy and export carries."""

    statistic: str
    axes: list[str]
    cells: list[Cell]
    confidence: float | None
    noise: str
    cost: str
    coverage: str
    postprocessing: str
    notes: list[str] = field(default_factory=list)
    key_texts: list[list[str]] = field(default_factory=list)  # each axis's keys as shown (value labels)


@dataclass(frozen=True)
class Grid:
    """A two-way table: ``cells[i][j]``, row margins, column margins and the total (derived)."""

    row_axis: str
    col_axis: str
    rows: list
    cols: list
    cells: list[list[Cell]]
    row_margins: list[Cell]
    col_margins: list[Cell]
    total: Cell


def _events(entry) -> list:
    from dpdesk.mechanisms import accounting

    out = []
    for record in (entry.noise_params or {}).get("events") or []:
        try:
            out.append(accounting.from_record(record))
        except Exception:  # noqa: BLE001 - an unreadable record: say "unreadable" below
            return []
    return out


def _cost_text(entry) -> str:
    from dpdesk.project.ledger.text import epsilon_text

    try:
        return epsilon_text(Fraction(entry.cost["epsilon"]), Fraction(entry.cost.get("delta", "0")), up=True)
    except (KeyError, ValueError, ZeroDivisionError, TypeError):
        return "unreadable"


def _amount(x) -> str:
    """A noise scale in the data's units: ``80``, ``2.67``, ``1,250``."""
    x = float(x)
    if x == int(x) or x >= 100:
        return f"{x:,.0f}"
    return f"{x:.3g}"


def _noise_text(entry, events) -> str:
    """The noise in the data's units, e.g. "discrete Laplace noise with scale 80 on the sum of age (one
    respondent changes it by at most 40; ε = 0.5)"; a sum's fixed-point grid (the resolution) is undone."""
    from dpdesk.mechanisms import accounting

    request = entry.request or {}
    columns = [str(c) for c in request.get("columns") or []]
    resolution = Fraction(str(request.get("resolution", 1)))
    summed = entry.statistic in ("sum", "mean")
    counts = "each count" if entry.statistic in ("histogram", "crosstab") or request.get("by") else "the count"
    parts = []
    for i, e in enumerate(events):
        if isinstance(e, accounting.PureDP):
            parts.append(f"a choice by the exponential mechanism (ε = {_amount(e.epsilon)})")
            continue
        on_sum = summed and i == 0
        unit = resolution if on_sum else 1
        what = f"the sum of {columns[0]}" if on_sum and columns else counts
        gaussian = isinstance(e, accounting.Gaussian)
        size = (e.sigma if gaussian else e.scale) * unit
        kind = "Gaussian noise with standard deviation" if gaussian else "Laplace noise with scale"
        cost = f"ρ = {_amount(e.rho)}" if gaussian else f"ε = {_amount(e.epsilon)}"
        parts.append(f"{'discrete ' if e.discrete else ''}{kind} {_amount(size)} on {what} (one respondent changes "
                     f"it by at most {_amount(e.sensitivity * unit)}; {cost})")
    return "; ".join(parts) or "unreadable"


def _flat(keys: list, values, prefix: tuple = ()) -> list[tuple[tuple, Any]]:
    if not keys:
        return [(prefix, values)]
    if not isinstance(values, (list, tuple)) or len(values) != len(keys[0]):
        return [(prefix, values)]
    out = []
    for key, value in zip(keys[0], values):
        out.extend(_flat(keys[1:], value, prefix + (key,)))
    return out


def entry_labels(project, entry):
    """The labels (a :class:`dpdesk.project.study.labels.Labels`) of the dataset ``entry`` was released from."""
    from dpdesk.project.study.labels import Labels

    try:
        stored = project.column_labels(entry.dataset) if entry.dataset else {}
    except Exception:  # noqa: BLE001 - a dataset since removed: its codes, as recorded
        stored = {}
    return Labels.from_stored(stored)


def described(entry, labels=None) -> str:
    """The release in words with the columns' labels: "count by What is your gender?"."""
    from dpdesk.mechanisms.central.request import describe

    request = entry.request or {}
    if request.get("statistic") == "relink":  # a linked source recorded anew (ledger.relinks): no release
        changes = "; ".join(str(c) for c in (entry.result or {}).get("changes") or [])
        return f"relinked {request.get('dataset')!r} to its source as it is now ({changes})"
    return describe(request, labels.column if labels is not None else str)


def axis_names(entry, n_axes: int, labels=None) -> list[str]:
    """The key axes' names: the request's columns, then its ``by`` column, as ``labels`` call them."""
    request = entry.request or {}
    names = [str(c) for c in request.get("columns") or []]
    if request.get("by"):
        names.append(str(request["by"]))
    if entry.statistic in ("sum", "mean", "median", "quantile"):
        names = names[1:]  # the numeric column is what is summed, not a key
    if len(names) != n_axes:
        return [f"key {i + 1}" for i in range(n_axes)]
    return [labels.column(n) for n in names] if labels is not None else names


def _axis_codes(entry, n_axes: int) -> list[str]:
    return axis_names(entry, n_axes)


def _is_number(v) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def release_cells(entry, labels=None) -> ReleaseCells:
    """The cells of ``entry`` (a :class:`~dpdesk.project.ledger.releases.LedgerEntry`).

    With ``labels`` (:func:`entry_labels`) the axes carry the columns' labels and each cell's
    ``keys`` the value labels ("Female", not 1); the codes stay in the ledger and in a note.
    """
    result, stat, request = entry.result or {}, entry.statistic, entry.request or {}
    keys = list(result.get("keys") or [])
    codes = _axis_codes(entry, len(keys))
    texts = [list(labels.values_of(c, axis).values()) if labels is not None and not c.startswith("key ")
             else [str(k) for k in axis] for c, axis in zip(codes, keys)]
    flat = _flat(texts if labels is not None else keys, result.get("values"))
    events = _events(entry)
    hw = result.get("half_width") or None
    conf = hw.get("confidence") if hw else request.get("confidence")
    confidence = None if conf is None else float(Fraction(str(conf)))
    clampable = stat in ("count", "histogram", "crosstab") or (
        stat == "sum" and Fraction(str((request.get("bounds") or ["-1"])[0])) >= 0)
    cells: list[Cell] = []
    post = "none"
    coverage = "no interval"
    notes: list[str] = []
    if stat == "mean" and len(events) == 2 and confidence is not None:
        from dpdesk.mechanisms.central.ratio import METHOD, mean_intervals

        sums = [v for _k, v in _flat(keys, (result.get("sum") or {}).get("values"))]
        counts = [v for _k, v in _flat(keys, (result.get("count") or {}).get("noisy"))]
        lo, hi = request["bounds"]
        ivs = mean_intervals(sums, events[0], counts, events[1], Fraction(str(conf)), lo, hi,
                             Fraction(str(request.get("resolution", 1))), estimates=[v for _k, v in flat])
        for (path, value), iv, s, n in zip(flat, ivs, sums, counts):
            raw = s / max(n, 1)
            cells.append(Cell(path, raw, value, iv.low, iv.high, adjusted=abs(float(value) - raw) > 1e-12))
        post = str(result.get("postprocessing") or result.get("note") or "noisy sum / noisy count")
        coverage = (f"every mean's interval covers the mean of the values clipped to [{lo}, {hi}] (on the "
                    f"resolution's grid), all at once, "
                    f"with probability at least {confidence:.0%} ({METHOD})")
        notes.append("A mean is a noisy sum over a noisy count; its interval accounts for the noise of both.")
    elif hw and all(_is_number(v) for _k, v in flat):
        a = float(hw["simultaneous"])
        for path, value in flat:
            y = float(value)
            shown = max(0.0, y) if clampable else y
            cells.append(Cell(path, value, shown if shown != y else value,
                              max(0.0, y - a) if clampable else y - a, y + a, adjusted=shown != y))
        if clampable:
            n = sum(c.adjusted for c in cells)
            post = (f"set {n} negative value(s) to 0, since the true values cannot be negative" if n else
                    "none was needed (no value was below 0; negative values would be set to 0)")
            coverage = (f"every cell's interval covers its exact value, all cells at once, with probability "
                        f"{confidence:.0%}; clamping at 0 keeps that coverage (the low end becomes max(0, value - a))")
        else:
            coverage = (f"every cell's interval covers its exact value, all cells at once, with probability "
                        f"{confidence:.0%}")
    else:
        cells = [Cell(path, value, value) for path, value in flat]
        if stat in ("median", "quantile"):
            notes.append("Chosen among the declared candidate values by the exponential mechanism; no ± interval.")
    name = labels.column if labels is not None else str
    grouped = ([str(c) for c in request.get("columns") or []] if stat in ("histogram", "crosstab") else []) + (
        [str(request["by"])] if request.get("by") else [])
    if grouped:
        notes.append(f"Respondents with no value of {' or '.join(name(c) for c in grouped)} (a blank, a missing code "
                     "such as 99 = refused, or a value that is not a declared key) are in no cell; how many there "
                     "are is not released, since an exact count would not be private.")
    if labels is not None:
        named = [f"{name(c)} = {c}" for c in dict.fromkeys(codes) if name(c) != c]
        if named:
            notes.append("Codes in the data: " + "; ".join(named) + ".")
    return ReleaseCells(stat, axis_names(entry, len(keys), labels), cells, confidence, _noise_text(entry, events),
                        _cost_text(entry), coverage, post, notes, texts)


def _margin(keys: tuple, cells: list[Cell]) -> Cell:
    shown = sum(float(c.shown) for c in cells)
    raw = sum(float(c.raw) for c in cells)
    low = None if any(c.low is None for c in cells) else sum(c.low for c in cells)
    high = None if any(c.high is None for c in cells) else sum(c.high for c in cells)
    return Cell(keys, raw, shown, low, high, adjusted=any(c.adjusted for c in cells), derived=True)


def grid_of(rc: ReleaseCells, keys: list) -> Grid | None:
    """The two-way grid of a cross-tab (or of a one-way table by groups); None otherwise."""
    if len(keys) != 2 or len(rc.cells) != len(keys[0]) * len(keys[1]):
        return None
    shown = rc.key_texts if len(rc.key_texts) == 2 else keys
    rows, cols = list(shown[0]), list(shown[1])
    grid = [rc.cells[i * len(cols):(i + 1) * len(cols)] for i in range(len(rows))]
    additive = rc.statistic in ("count", "histogram", "crosstab", "sum")
    row_m = [_margin((r, "Total"), grid[i]) for i, r in enumerate(rows)] if additive else []
    col_m = [_margin(("Total", c), [grid[i][j] for i in range(len(rows))]) for j, c in enumerate(cols)] \
        if additive else []
    total = _margin(("Total", "Total"), rc.cells) if additive else None
    return Grid(rc.axes[0], rc.axes[1], rows, cols, grid, row_m, col_m, total)
