"""An item's stored mapping applied to a table: the counts its estimate is made from."""

from __future__ import annotations

from dpdesk.errors import DataError, in_app
from dpdesk.project.mapping.counting import MappingReport, map_item
from dpdesk.project.mapping.unary import is_unary_codes, unary_counts


def item_counts(item, table, *, exclude: bool = True) -> MappingReport:
    """Count an item's responses in ``table`` by its column and codes (those of ``item.dataset``)."""
    from dpdesk.mechanisms.rr import Design

    d = Design.from_dict(item.design_record)
    if d.model == "unary" and is_unary_codes(item.codes):
        return unary_counts(table, item.codes, d.categories, exclude=exclude)
    if not item.column or not item.codes:
        head = f"Item {item.name!r} is not mapped in this dataset: map it to a column of the data first "
        raise in_app(DataError(head + "(Data > Map items…, or dpdesk item PROJECT NAME --dataset DS --column ... "
                               "--codes ...)."), head + "(Data > Map items…).")
    return map_item(table, item.column, item.codes, responses=responses(d, item.codes),
                    group_column=item.group_column, group_codes=item.group_codes, exclude=exclude, design=d,
                    missing_codes=getattr(item, "missing_codes", None))


def responses(d, codes: dict) -> tuple:
    """The design's responses, in its order, when the codes name them all (else the codes' own order)."""
    wanted = tuple(d.responses)
    return wanted if set(wanted) <= set(codes) else tuple(codes)
