"""A warning bar over the results when an ECWM item's non-adherence test rejects at 5% (in the whole
sample, or with "Subgroups by" in a subgroup).

The extended crosswise model's test (Heck, Hoffmann & Moshagen 2018) says whether the two
versions of question B give the same prevalence. When they do not, some respondents may not
follow the instructions and the prevalence, which assumes they all do, is doubtful: the bar
says so above the document, where it cannot be scrolled past. The sentences come from the
project layer (:mod:`dpdesk.project.analysis.adherence`), computed with the results in the
worker; the document below has both versions and the test for every ECWM item.
"""

from __future__ import annotations

import html

from PySide6.QtWidgets import QFrame, QLabel, QVBoxLayout

from dpdesk.gui.widgets.common import name


class AdherenceWarningBar(QFrame):
    """Hidden until :meth:`set_results` gets a result whose non-adherence test rejects."""

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.setObjectName("adherenceWarning")
        self.setStyleSheet("#adherenceWarning { background: #fde8e4; border: 1px solid #d0705c; border-radius: 4px; }"
                           " QLabel { background: transparent; }")
        self.text = QLabel()
        self.text.setWordWrap(True)
        self.text.setObjectName("adherenceWarningText")
        name(self.text, "Non-adherence warning", "The two versions of an extended crosswise item disagree")
        box = QVBoxLayout(self)
        box.setContentsMargins(10, 6, 10, 6)
        box.addWidget(self.text)
        self.hide()

    def set_results(self, results) -> None:
        """Show the warning of every ECWM item in ``results`` whose test rejects; hide the bar otherwise."""
        from dpdesk.project.analysis.adherence import adherence, subgroup_adherence  # cached by the worker

        lines = []
        for r in results or []:
            a = adherence(r)
            if a is not None and a.rejects:
                lines.append(f"⚠ <b>{html.escape(a.item)}</b>: {html.escape(a.sentence())}")
            for group, sub in subgroup_adherence(r):  # "Subgroups by": each subgroup's own test
                if sub.rejects:
                    lines.append(f"⚠ <b>{html.escape(sub.item)}</b>, {html.escape(str(r.by_label))} = "
                                 f"{html.escape(group)}: {html.escape(sub.sentence())}")
        self.text.setText("<br>".join(lines))
        self.setVisible(bool(lines))
