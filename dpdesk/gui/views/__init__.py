"""The task views of the main window (one module each)."""
