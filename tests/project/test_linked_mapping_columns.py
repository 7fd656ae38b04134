"""The columns a linked dataset offers for mapping: few-valued (counted in the engine), mapped ones first, and a
bounded number of combinations, so the counts table the mapping dialog reads stays small whatever the rows."""

from __future__ import annotations

import pandas as pd

from dpdesk.mechanisms import rr
from dpdesk.project import Project, linked
from dpdesk.project.linked.distinct import distinct_counts, mapping_columns
from tests.helpers import linked as data


def test_few_valued_columns_mapped_first_and_combinations_bounded(tmp_path):
    n = 400
    df = pd.DataFrame({"id": range(n), "a": [i % 7 for i in range(n)], "b": [f"v{i % 3}" for i in range(n)],
                       "c": [i % 11 for i in range(n)], "amount": [i * 1.5 for i in range(n)]})
    folder = data.write_parts(df, tmp_path / "reg", parts=2)
    with Project.create(tmp_path / "p.dpdesk") as p:
        ds = linked.link_dataset(p, str(folder))
        counts = distinct_counts(p, ds)
        assert counts["b"] == 3 and counts["a"] == 7 and counts["id"] > 300  # HyperLogLog: near, not exact
        chosen, left = mapping_columns(p, ds, max_values=50)
        assert chosen == ["b", "a", "c"] and left == ["id", "amount"]  # fewest values first
        # at most max_groups combinations: (3 + 1) * (7 + 1) = 32 fits 40; with c's 12 more it would not
        assert mapping_columns(p, ds, max_groups=40)[0] == ["b", "a"]
        p.add_item("q", rr.design("warner", p=0.7), column="c", codes={"yes": [1], "no": [2]}, dataset=ds.name)
        assert mapping_columns(p, ds, max_groups=40)[0][0] == "c"  # a mapped column is always offered, first
