"""What a project returns (items, datasets, analyses) and the JSON of every JSON column.

Records are frozen dataclasses; ``record["name"]`` works as well as ``record.name``.

An item is a question asked with a randomized-response design. The design is stored
whole (``Design.to_dict()``: its matrices, parameters, name, epsilon and plain-language
description), never as a bare parameter vector, so a file stays readable even if a
design's parameter names change. :attr:`Item.design` rebuilds the
:class:`dpdesk.mechanisms.rr.Design` when it is first asked for.
"""

from __future__ import annotations

import dataclasses
import datetime as _dt
import json
from fractions import Fraction
from pathlib import PurePath
from typing import Any

from dpdesk.errors import ProjectError


def _plain(value: Any) -> Any:
    """``json.dumps`` default: numpy scalars and arrays, fractions, dates, dataclasses."""
    if hasattr(value, "to_dict"):
        return value.to_dict()
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return dataclasses.asdict(value)
    if hasattr(value, "tolist"):  # numpy arrays and scalars
        return value.tolist()
    if isinstance(value, Fraction):
        return str(value)
    if isinstance(value, (_dt.date, _dt.datetime)):
        return value.isoformat()
    if isinstance(value, (set, frozenset, tuple)):
        return list(value)
    if isinstance(value, PurePath):
        return str(value)
    raise TypeError(f"cannot store a {type(value).__name__} in a project file")


def dumps(value: Any, what: str) -> str:
    """JSON text for a JSON column; ``what`` names the value in error messages.

    NaN and infinities are written as Python's ``json`` writes them (``NaN``,
    ``Infinity``) so that results read back exactly; numpy values become plain numbers.
    """
    try:
        return json.dumps(value, default=_plain, ensure_ascii=False)
    except (TypeError, ValueError) as exc:
        raise ProjectError(f"Cannot store {what} in the project: {exc}. Use numbers, text, lists and dicts.") from exc


def loads(text: str | None) -> Any:
    return None if text is None else json.loads(text)


def encode_codes(codes: Any, what: str = "the code mapping") -> str | None:
    """Code mapping to JSON. A dict keeps its key types: ``{"pairs": [[key, value], ...]}``."""
    if codes is None:
        return None
    if hasattr(codes, "to_dict"):
        codes = codes.to_dict()
    if isinstance(codes, dict):
        return dumps({"pairs": [[k, v] for k, v in codes.items()]}, what)
    return dumps({"value": codes}, what)


def decode_codes(text: str | None) -> Any:
    data = loads(text)
    if data is None:
        return None
    if "pairs" in data:
        return {(tuple(k) if isinstance(k, list) else k): v for k, v in data["pairs"]}
    return data["value"]


def plain_dict(value: Any, what: str) -> dict[str, Any]:
    """A dict from a dict, an object with ``to_dict()`` or a dataclass (e.g. reading.Source)."""
    if value is None:
        return {}
    if hasattr(value, "to_dict"):
        value = value.to_dict()
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        value = dataclasses.asdict(value)
    if not isinstance(value, dict):
        raise ProjectError(f"{what} must be a dict, not a {type(value).__name__}.")
    return dict(value)


def item_randomizer(item) -> dict | None:
    """The randomizer kept with an item's design (``{"kind": "coins", ...}``; ``None`` when not known)."""
    record = getattr(item, "design_record", None) or {}
    found = record.get("randomizer") if isinstance(record, dict) else None
    return found if isinstance(found, dict) else None


def design_record(design: Any) -> dict[str, Any]:
    """The stored form of a design: ``design.to_dict()`` (or a dict already). The parameters of a
    physical randomizer (``rr.randomizers.dice_sum(...)``) give their design, with the device kept
    beside it (``"randomizer"``) for the card and the methods text."""
    if isinstance(design, dict) and callable(getattr(design, "build", None)):  # rr.randomizers.DesignParams
        record = design.build().to_dict()
        if getattr(design, "randomizer", None):
            record["randomizer"] = dict(design.randomizer)
    elif isinstance(design, dict):
        record = design
    elif hasattr(design, "to_dict"):
        record = design.to_dict()
    else:
        raise ProjectError(
            f"An item's design must be a dpdesk design (dpdesk.mechanisms.rr.design(...)), "
            f"not a {type(design).__name__}."
        )
    if not isinstance(record, dict) or not record.get("name"):
        raise ProjectError("An item's design must have a name (make it with dpdesk.mechanisms.rr.design).")
    return json.loads(dumps(record, "the design"))


def rebuild_design(record: dict[str, Any]) -> Any:
    """The :class:`dpdesk.mechanisms.rr.Design` stored as ``record``."""
    from dpdesk.mechanisms.rr import Design

    return Design.from_dict(record)


def check_name(name: Any, what: str) -> str:
    if not isinstance(name, str) or not name.strip():
        raise ProjectError(f"A {what} needs a name (non-empty text), got {name!r}.")
    return name


#: What an item's mapping in a dataset holds (the ``item_mappings`` table's columns).
MAPPING_FIELDS = ("column", "codes", "group_column", "group_codes", "missing_codes")


def mapping_from_row(row: Any) -> dict[str, Any]:
    """An ``item_mappings`` row as ``{column, codes, group_column, group_codes, missing_codes}``."""
    return {"column": row["column_name"], "codes": decode_codes(row["codes"]), "group_column": row["group_column"],
            "group_codes": decode_codes(row["group_codes"]), "missing_codes": loads(row["missing_codes"])}


class _Record:
    """Attribute access, and dict-style access for callers that prefer it."""

    def __getitem__(self, key: str) -> Any:
        try:
            return getattr(self, key)
        except AttributeError:
            raise KeyError(key) from None

    def to_dict(self) -> dict[str, Any]:
        return {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}


@dataclasses.dataclass(frozen=True)
class Item(_Record):
    """A survey item: a question, its randomized-response design and where its answers are."""

    id: int
    name: str
    question: str
    design_record: dict[str, Any]
    column: str | None
    codes: Any
    group_column: str | None
    group_codes: Any
    created_at: str
    modified_at: str
    instructions: str = ""
    missing_codes: Any = None
    #: the dataset whose mapping ``column``, ``codes``, ... are (None: the project has no data)
    dataset: str | None = None
    #: the item's mapping in each dataset it is mapped in: ``{dataset name: {column, codes, ...}}``
    mappings: dict[str, dict[str, Any]] = dataclasses.field(default_factory=dict)

    @property
    def mapped(self) -> bool:
        """True when the item has a column and codes (in :attr:`dataset`)."""
        return bool(self.column and self.codes)

    def in_dataset(self, dataset: str | None) -> "Item":
        """This item as mapped in ``dataset`` (column and codes None where it is not mapped)."""
        m = self.mappings.get(dataset) or dict.fromkeys(MAPPING_FIELDS)
        return dataclasses.replace(self, dataset=dataset, **{k: m.get(k) for k in MAPPING_FIELDS})

    @property
    def design_name(self) -> str:
        return self.design_record["name"]

    @property
    def description(self) -> str:
        return self.design_record.get("description") or ""

    @property
    def design(self) -> Any:
        """The design, rebuilt with ``dpdesk.mechanisms.rr.Design.from_dict``."""
        cached = self.__dict__.get("_design")
        if cached is None:
            cached = rebuild_design(self.design_record)
            object.__setattr__(self, "_design", cached)
        return cached

    @classmethod
    def from_row(cls, row: Any) -> "Item":
        return cls(
            id=row["id"],
            name=row["name"],
            question=row["question"],
            design_record=loads(row["design"]),
            column=row["column_name"],
            codes=decode_codes(row["codes"]),
            group_column=row["group_column"],
            group_codes=decode_codes(row["group_codes"]),
            created_at=row["created_at"],
            modified_at=row["modified_at"],
            instructions=row["instructions"] if "instructions" in row.keys() else "",
        )


@dataclasses.dataclass(frozen=True)
class Dataset(_Record):
    """An imported dataset (its rows are read with ``Project.dataset_frame(name)``)."""

    id: int
    name: str
    table: str
    n_rows: int
    columns: list[str]
    dtypes: dict[str, str]
    source: dict[str, Any]
    options: Any
    report: Any
    imported_at: str
    app_version: str

    @property
    def source_name(self) -> str | None:
        return self.source.get("name")

    @property
    def sha256(self) -> str | None:
        return self.source.get("sha256")

    @property
    def size(self) -> int | None:
        return self.source.get("size")


@dataclasses.dataclass(frozen=True)
class Analysis(_Record):
    """A saved analysis of an item: the options it was run with and its results."""

    id: int
    item: str | None
    options: Any
    results: Any
    created_at: str
    app_version: str
