"""The study: its items, their designs in words, the labels of its columns and its datasets.

- ``items``          what a project returns (items, datasets, analyses) and its JSON columns
- ``labels``         column, value and item labels: every output speaks in them
- ``active``         the active dataset that analyses, releases and extracts use
- ``survey_design``  a dataset's complex-sample design (weights, strata, PSUs, population)
- ``design_text``    a randomized-response design in plain words, for tables

It imports only the mechanisms and ``dpdesk.errors``; the rest of the project builds on it.
"""
