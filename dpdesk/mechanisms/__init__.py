"""Pure mathematics over arrays and counts: no Qt, no pandas, no files.

``dpdesk.mechanisms.rr`` is the randomized-response engine.
"""
