"""What the frozen bundle leaves out: Python modules dpdesk never imports and Qt files it never loads.

Read by ``dpdesk.spec`` and by ``tests/test_packaging.py``. Never exclude ``unittest``, ``pydoc``
or ``doctest``: matplotlib (through pyparsing) and ``scipy.stats`` import them at run time, and
leaving them out only fails in the frozen app (PITFALLS.md).
"""

from __future__ import annotations

#: Python modules (and their sub-modules) PyInstaller must not collect.
EXCLUDES = [
    "tkinter", "_tkinter", "turtle", "idlelib", "lib2to3", "pydoc_data",
    "PyQt5", "PyQt6", "PySide2", "IPython", "ipykernel", "jupyter_client", "notebook",
    "pytest", "_pytest", "pytestqt", "hypothesis", "importlinter", "grimp", "sphinx", "setuptools", "pip",
    "PySide6.QtQml", "PySide6.QtQuick", "PySide6.QtQuickWidgets", "PySide6.QtOpenGL",
    "PySide6.QtOpenGLWidgets", "PySide6.QtSql", "PySide6.QtTest", "PySide6.QtXml", "PySide6.QtDesigner",
    "PySide6.QtHelp", "PySide6.QtUiTools", "PySide6.QtConcurrent", "PySide6.QtDBus",
    "matplotlib.backends.backend_tkagg", "matplotlib.backends.backend_tkcairo",
    "matplotlib.backends.backend_gtk3agg", "matplotlib.backends.backend_gtk4agg",
    "matplotlib.backends.backend_wxagg", "matplotlib.backends.backend_webagg", "matplotlib.backends.backend_nbagg",
    "matplotlib.tests", "numpy.tests", "pandas.tests", "scipy.conftest",
    # lxml's hook collects every sub-module; python-docx uses lxml.etree only (and pandas' read_html,
    # which dpdesk never calls, lxml.html): 4 MB.
    "lxml.html", "lxml.objectify", "lxml.isoschematron", "lxml.sax", "lxml.builder", "lxml.cssselect",
    "lxml.doctestcompare", "lxml.usedoctest",
    # Pillow's AVIF codec (libavif, 5 MB): matplotlib never reads or writes AVIF; Pillow's AVIF
    # plugin says "not supported" without it.
    "PIL._avif",
    # Test-only (the XLSForm round trip of tests/): never imported by dpdesk.
    "pyxform", "lark",
    # Spark for linked datasets is an optional extra (pip install "dpdesk[spark]": pyspark, py4j and a
    # JVM), never in the installers; DuckDB, the embedded engine, is kept (MUST_KEEP).
    "pyspark", "py4j",
]

#: Modules the frozen app imports at run time; excluding any of them breaks it only when frozen.
#: (PySide6.QtNetwork: the single-instance hand-over, dpdesk.gui.shell.single_instance.)
#: (lxml.etree, docx, segno: the Word report and the ledger's receipt QR codes.)
#: (duckdb: linked datasets, dpdesk.project.linked.duckdb_source, imported when a linked dataset is read.)
MUST_KEEP = ["unittest", "pydoc", "doctest", "email", "xml", "sqlite3", "multiprocessing", "concurrent",
             "PySide6.QtNetwork", "lxml.etree", "lxml._elementpath", "docx", "segno", "duckdb"]

#: matplotlib backends the app draws with (``matplotlib.backends.backend_NAME``): found by name at run
#: time, so PyInstaller cannot see them. qtagg: the views; agg: PNG; svg: the HTML report and Save plot;
#: pdf: Save plot.
MPL_BACKENDS = ["qtagg", "agg", "svg", "pdf"]

_QT_PLUGINS_DROPPED = (
    "qmltooling", "sqldrivers", "generic", "tls", "networkinformation", "egldeviceintegrations",
    "wayland-graphics-integration-server", "wayland-decoration-client", "wayland-shell-integration",
    "wayland-graphics-integration-client", "position", "multimedia", "designer", "webview", "canbus",
    "sensors", "texttospeech", "virtualkeyboard", "renderers", "scenegraph",
)
_QT_PLATFORMS_DROPPED = ("libqvkkhrdisplay", "libqminimal", "libqvnc", "libqeglfs", "libqlinuxfb", "libqminimalegl", "libqwayland",
                         "qminimal", "qdirect2d")
_QT_IMAGEFORMATS_DROPPED = ("libqpdf", "libqtiff", "libqwebp", "libqtga", "libqwbmp", "libqgif", "qpdf", "qtiff",
                            "qwebp", "qtga", "qwbmp", "qgif")
_QT_LIBS_DROPPED = ("Qt6Quick", "Qt6Qml", "Qt6Pdf", "Qt6VirtualKeyboard", "Qt6Designer", "Qt6LabsStyleKit",
                    "Qt6ShaderTools", "Qt6Wayland", "Qt6WlShell", "Qt6EglFS", "Qt6EglFs", "Qt6Sql",
                    "Qt6Test", "Qt6Concurrent", "Qt6Help", "Qt6UiTools", "Qt6SvgWidgets", "Qt6OpenGLWidgets")
#: macOS: the same Qt libraries are frameworks named without the 6 (QtQuick.framework/Versions/A/QtQuick).
_QT_FRAMEWORKS_DROPPED = tuple("Qt" + lib[len("Qt6"):] for lib in _QT_LIBS_DROPPED)
#: System libraries that only Qt's GTK 3 theme plugin (left out above) pulls in.
_GTK_STACK = ("libgtk-3", "libgdk-3", "libatk-1.0", "libatk-bridge", "libatspi", "libcairo", "libpango",
              "libgdk_pixbuf", "libfribidi", "libthai", "libdatrie", "libgraphite2", "libpixman", "libepoxy",
              "libharfbuzz", "libXcomposite", "libXcursor", "libXdamage", "libXi.", "libXinerama", "libXrandr",
              "libwayland-", "libcloudproviders", "libtracker", "libcolord", "liblcms2.so")


def keep(dest: str) -> bool:
    """Whether the bundle keeps the file that PyInstaller would put at ``dest`` (relative, / or \\)."""
    path = dest.replace("\\", "/")
    parts = path.split("/")
    name = parts[-1]
    if "translations" in parts and "Qt" in parts:
        return False  # Qt's own UI translations (14 MB); dpdesk's interface is English
    if "tests" in parts[:-1] and parts[0] in ("numpy", "scipy", "pandas", "matplotlib"):
        return False
    if parts[:3] == ["matplotlib", "mpl-data", "sample_data"]:
        return False  # matplotlib's example data sets; dpdesk never loads them
    if "plugins" in parts:
        folder = parts[parts.index("plugins") + 1] if len(parts) > parts.index("plugins") + 1 else ""
        if folder in _QT_PLUGINS_DROPPED:
            return False
        if folder == "platforms" and name.startswith(_QT_PLATFORMS_DROPPED):
            return False
        if folder == "imageformats" and name.startswith(_QT_IMAGEFORMATS_DROPPED):
            return False
        if folder == "platformthemes" and "gtk3" in name:
            return False  # links GTK 3, which dpdesk does not depend on; Qt falls back without it
    if any(lib in name for lib in _QT_LIBS_DROPPED):
        return False  # also the links PyInstaller puts beside the program
    frameworks = [p[: -len(".framework")] for p in parts if p.endswith(".framework")]
    if frameworks and frameworks[0].startswith(_QT_FRAMEWORKS_DROPPED):
        return False  # macOS: the whole framework (binary, Resources/Info.plist, links)
    if len(parts) == 1 and name.startswith(_QT_FRAMEWORKS_DROPPED) and "." not in name:
        return False  # macOS: the framework binary's link beside the program
    if len(parts) == 1 and name.startswith(_GTK_STACK):
        return False
    return True
