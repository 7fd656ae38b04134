"""Which columns of a linked source can hold an item's answers: few distinct values, counted in the engine.

Mapping an item (its answer column and codes) needs each candidate column's values and their
counts. For an imported dataset the whole table is at hand; a linked one is read as a counts
table (:mod:`.counts`: one row per combination of the chosen columns' values), so the columns
offered must be few-valued, and their combinations bounded. :func:`mapping_columns` asks the
engine, in one pass, for every column's approximate number of distinct values (HyperLogLog:
``approx_count_distinct`` in DuckDB and in Spark SQL), keeps the columns with at most
``max_values`` of them (answer codes and groups, not identifiers or amounts), the columns
already mapped first, and stops adding columns before the product of their numbers of values
could pass ``max_groups``, so the counts table built from them stays bounded whatever the rows.
"""

from __future__ import annotations

from dpdesk.project.linked.counts import MAX_GROUPS, mapped_columns

__all__ = ["distinct_counts", "mapping_columns", "MAX_VALUES"]

MAX_VALUES = 50


def distinct_counts(project, dataset, cancel=None) -> dict[str, int]:
    """Each column's approximate number of distinct values (blanks not counted), in one pass of the engine."""
    from dpdesk.project.linked.engines import open_engine
    from dpdesk.project.linked.store import check_unchanged, link_of, schema_of

    names = schema_of(dataset).names
    if not names:
        return {}
    check_unchanged(project, dataset)
    source = open_engine(link_of(dataset))
    try:
        q = source.dialect.quote
        (row,) = source.run_sql(f"SELECT {', '.join(f'approx_count_distinct({q(c)})' for c in names)} "
                                "FROM {source}", {}, cancel)
    finally:
        source.close()
    return {c: int(n or 0) for c, n in zip(names, row)}


def mapping_columns(project, dataset, cancel=None, max_values: int = MAX_VALUES,
                    max_groups: int = MAX_GROUPS) -> tuple[list[str], list[str]]:
    """(columns to offer for mapping, columns left out): mapped ones first, then by fewest values."""
    counts = distinct_counts(project, dataset, cancel)
    mapped = [c for c in mapped_columns(project, dataset) if c in counts]
    rest = sorted((c for c in counts if c not in mapped and counts[c] <= max_values), key=lambda c: (counts[c], c))
    chosen, product = [], 1
    for c in mapped + rest:
        size = max(1, counts[c]) + 1  # and a blank
        if chosen and product * size > max_groups and c not in mapped:
            continue
        chosen.append(c)
        product *= size
    left = [c for c in counts if c not in chosen]
    return chosen, left
