"""An item's answers in a dataset: which column, which codes mean which response, and the counts.

- ``counting``       ``map_item``: a column of recorded answers to the count of each response
- ``code_matching``  how recorded values match an item's codes, and the rows that match none
- ``answer_labels``  codes matched to the respondent's words; mappings that contradict the file
- ``unary``          multi-select items with one tick column per option

The public names of ``counting`` are available here: ``from dpdesk.project.mapping import map_item``.
"""

from __future__ import annotations

from dpdesk.project.mapping.counting import (
    ItemMapping,
    MappingReport,
    Problem,
    counts_by,
    map_counts,
    map_item,
    value_labels_for,
)

__all__ = ["ItemMapping", "MappingReport", "Problem", "counts_by", "map_counts", "map_item", "value_labels_for"]
