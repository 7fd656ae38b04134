"""Strict JSON for every ``--json``: no ``Infinity`` or ``NaN``, which strict parsers (JavaScript, jq,
many R and Go readers) reject.

A number that is not finite becomes ``null`` and its object gains ``"notes": {key: "infinite"}``
(or ``"-infinite"``, ``"not a number"``): the local ε of a design that can reveal a
respondent's true answer is infinite, and says so in words. numpy numbers become plain ones;
anything else JSON does not know is written as text.
"""

from __future__ import annotations

import json
import math
from typing import Any


def _word(x: float) -> str:
    return "not a number" if math.isnan(x) else "infinite" if x > 0 else "-infinite"


def strict(value: Any) -> Any:
    """``value`` with every non-finite number replaced by None (and noted beside it in its object)."""
    if hasattr(value, "item") and callable(value.item) and getattr(value, "shape", None) == ():
        value = value.item()  # numpy scalars
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, dict):
        out, notes = {}, {}
        for k, v in value.items():
            if hasattr(v, "item") and callable(v.item) and getattr(v, "shape", None) == ():
                v = v.item()
            if isinstance(v, float) and not math.isfinite(v):
                notes[str(k)] = _word(v)
            out[k] = strict(v)
        if notes:
            out["notes"] = {**(out.get("notes") or {}), **notes} if isinstance(out.get("notes"), dict) else notes
        return out
    if isinstance(value, (list, tuple)):
        return [strict(v) for v in value]
    if hasattr(value, "tolist"):
        return strict(value.tolist())
    return value


def dumps(value: Any, **kwargs) -> str:
    """``json.dumps`` of :func:`strict` ``(value)`` with ``allow_nan=False`` (indent 2 by default)."""
    kwargs.setdefault("indent", 2)
    kwargs.setdefault("default", str)
    return json.dumps(strict(value), allow_nan=False, **kwargs)


def print_json(value: Any, **kwargs) -> None:
    """Print :func:`dumps` ``(value)``: every command's ``--json`` goes through here."""
    print(dumps(value, **kwargs))
