"""packaging/bundle_filter.keep on macOS paths: Qt frameworks dpdesk never loads are left out, the
ones it loads are kept (the Linux/Windows names are checked in tests/test_packaging.py)."""

import importlib.util
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
spec = importlib.util.spec_from_file_location("bundle_filter", ROOT / "packaging" / "bundle_filter.py")
bundle_filter = importlib.util.module_from_spec(spec)
spec.loader.exec_module(bundle_filter)


@pytest.mark.parametrize("dest, kept", [
    ("PySide6/Qt/lib/QtCore.framework/Versions/A/QtCore", True),
    ("PySide6/Qt/lib/QtGui.framework/Versions/A/QtGui", True),
    ("PySide6/Qt/lib/QtWidgets.framework/Versions/A/QtWidgets", True),
    ("PySide6/Qt/lib/QtSvg.framework/Versions/A/Resources/Info.plist", True),
    ("PySide6/Qt/lib/QtDBus.framework/Versions/A/QtDBus", True),
    ("PySide6/Qt/lib/QtOpenGL.framework/Versions/A/QtOpenGL", True),
    ("PySide6/Qt/lib/QtPrintSupport.framework/Versions/A/QtPrintSupport", True),
    ("PySide6/Qt/lib/QtQuick.framework/Versions/A/QtQuick", False),
    ("PySide6/Qt/lib/QtQml.framework/Versions/A/Resources/Info.plist", False),
    ("PySide6/Qt/lib/QtQmlModels.framework/Versions/A/QtQmlModels", False),
    ("PySide6/Qt/lib/QtNetwork.framework/Versions/A/QtNetwork", True),  # single instance: kept
    ("PySide6/Qt/lib/QtSql.framework/Versions/A/QtSql", False),
    ("PySide6/Qt/lib/QtPdf.framework/Versions/A/QtPdf", False),
    ("PySide6/Qt/lib/QtVirtualKeyboard.framework/Versions/A/QtVirtualKeyboard", False),
    ("PySide6/Qt/lib/QtOpenGLWidgets.framework/Versions/A/QtOpenGLWidgets", False),
    ("QtQuick", False),
    ("QtCore", True),
])
def test_qt_frameworks(dest, kept):
    assert bundle_filter.keep(dest) is kept
