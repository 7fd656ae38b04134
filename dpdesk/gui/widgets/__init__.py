"""Widgets that views and dialogs share: the budget meter, plots, tables, release forms, the card writer.
"""
