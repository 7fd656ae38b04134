"""The tasks in the main window's left column, in order. Views find each other's row here."""

TASKS = ("Design", "Data", "Results", "Regression", "Tabulate", "Export", "Share")
