"""The application shell: the QApplication, the main window, menus, undo commands, settings,
background workers, the garbage-collection guard, the welcome screen and the self-test.
"""
