"""Sharing row-level data: column roles, disclosure checks, remedies, pseudonyms, extracts.

Owns the checks before microdata leave the project and the shareable extract with its
report. May use ``dpdesk.mechanisms.disclosure``, ``reading.identifiers`` and the neutralising
writer of ``export.safe_text``; no other export module, and never the ledger.
"""
