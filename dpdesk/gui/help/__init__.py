"""The user guide inside the app: the shipped pages (guide), which page each view opens (pages),
the help window (window) and the "?" button of each view's title (button)."""
