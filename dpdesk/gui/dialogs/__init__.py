"""Dialogs: import, item mapping, privacy budget, preferences, and errors in plain words.
"""
