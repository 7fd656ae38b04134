"""The categories of a release typed as the researcher sees them: value labels or codes.

A histogram, cross-tab or subgroups declare their categories (keys) in public. The app
shows a coded column by its value labels ("North, South"), so a key may be typed as a
label or as its code; :func:`resolve_keys` turns labels into codes and checks every key
of a numeric column before anything is asked or released (``ledger.preview`` and
``ledger.release`` call it first). It reads only the dataset's metadata (column types and
value labels), never its rows: which values occur in the data is not asked.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any, Mapping

from dpdesk.errors import DataError
from dpdesk.mechanisms.central.request import normalize
from dpdesk.project.study.labels import Labels

_NUMERIC = ("int", "uint", "float", "Int", "UInt", "Float")


def _is_numeric(dtype: str | None) -> bool:
    return bool(dtype) and str(dtype).startswith(_NUMERIC)


def _number(key: Any):
    try:
        f = Fraction(str(key).strip())
    except (ValueError, ZeroDivisionError):
        return None
    return int(f) if f.denominator == 1 else float(f)


def _fold(text: Any) -> str:
    return " ".join(str(text).split()).casefold()


def _resolve(column: str, keys: list, numeric: bool, labels: dict, shown: str) -> list:
    by_label: dict[str, Any] = {}
    for code, label in labels.items():
        by_label.setdefault(_fold(label), code)
    out, bad = [], []
    for k in keys:
        code = by_label.get(_fold(k))
        number = _number(k) if numeric else None
        if numeric and number is not None:
            out.append(number)  # a code typed as such
        elif code is not None and (numeric or str(k) not in {str(c) for c in labels}):
            out.append(_number(code) if numeric and _number(code) is not None else code)
        elif numeric:
            bad.append(str(k))
        else:
            out.append(k)
    if bad:
        some = ", ".join(f"{label} ({code})" for code, label in list(labels.items())[:8])
        which = ", ".join(repr(b) for b in bad[:5])
        hint = (f"Its value labels are {some}{' …' if len(labels) > 8 else ''}: type those labels or their codes."
                if labels else "That column holds numbers (codes). Type the codes of the groups you want to "
                "count (for example 1, 2, 3); the Data view shows what each code means.")
        raise DataError(f"{which} {'is' if len(bad) == 1 else 'are'} neither a value label nor a code of the column "
                        f"{shown}. {hint} Nothing was released and no budget was spent.")
    return out


def resolve_keys(project, request: Mapping[str, Any], dataset) -> dict:
    """``request`` (normalised) with every key of a labelled or numeric column as the column's code.

    ``dataset``: the dataset record (``project.dataset(...)``: its ``name`` and ``dtypes``).
    A key that is a value label (any case and spacing) becomes its code; a numeric column's
    key that is neither a label nor a number raises :class:`DataError` naming the column, its
    labels and how to fix it.
    """
    spec = normalize(request)
    wanted = [c for c, k in zip(spec["columns"], spec.get("keys") or []) if k is not None]
    if spec.get("by"):
        wanted.append(spec["by"])
    if not wanted:
        return spec
    labels = Labels.from_stored(project.column_labels(dataset.name))
    dtypes = getattr(dataset, "dtypes", None) or {}

    def fix(column, keys):
        return _resolve(column, keys, _is_numeric(dtypes.get(column)), labels.values.get(column) or {},
                        labels.choice(column))

    if spec.get("keys"):
        spec["keys"] = [None if k is None else fix(c, k) for c, k in zip(spec["columns"], spec["keys"])]
    if spec.get("by"):
        spec["by_keys"] = fix(spec["by"], spec["by_keys"])
    return normalize(spec)
