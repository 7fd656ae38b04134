"""The tasks in the main window's left column, in order. Views find each other's row here."""

TASKS = ("Design", "Data", "Results", "Tabulate", "Export", "Share")
