"""The analysis of a study: from a project's data to the numbers a reader sees.

- ``estimates``         every item's prevalence, subgroups and comparisons, from the active dataset
- ``survey``            the same under a complex-sample design (weights, strata, PSUs)
- ``direct_questions``  the comparison group asked directly, beside the randomized answers
- ``subgroup_choice``   which column splits the results, and its groups in words
- ``result_tables``     the rows of the results tables, in the number style
- ``review``            what a reviewer needs to check the numbers (mappings, options, fingerprints)

It may import the study, the people, mapping, reading, the ledger's budget, the export model, sharing's
disclosure checks and the mechanisms; nothing below it imports it.
"""
