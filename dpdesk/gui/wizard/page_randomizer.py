"""Wizard page 3: the randomizer (coins, a die, cards, birth months or exact probabilities).

The unrelated question has two choices: the randomizer that chooses question A or B, and where the
harmless question B comes from (a birthday month, a second die roll or card, or the researcher's own
question); switching either keeps the other as the researcher set it. A switch that changes the local
epsilon is shown, old and new, and waits to be kept or undone (``epsilon_change``).
"""

from __future__ import annotations

import html
from fractions import Fraction

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QLineEdit,
    QPushButton,
    QFormLayout,
    QGroupBox,
    QSpinBox,
    QVBoxLayout,
    QWidget,
    QWizardPage,
)

from dpdesk.errors import DpdeskError, app_words

from dpdesk.gui.wizard import meaning
from dpdesk.gui.wizard.catalog import (
    B_SOURCE_NAMES,
    BIRTHDAY,
    VERSIONS_NOTE,
    CARDS,
    COIN_PRESETS,
    COINS,
    DEVICE_NAMES,
    DICE,
    DIE,
    EXACT,
)
from dpdesk.gui.wizard.epsilon_change import EpsilonChange, changed, eps_text
from dpdesk.gui.widgets.common import name, note, problem_label, show_problem
from dpdesk.gui.widgets.number_entry import EntryProblem
from dpdesk.gui.widgets.wheel import guard
from dpdesk.gui.wizard.param_editors import CountEditor, ExactEditor, MonthsEditor
from dpdesk.gui.wizard.share_warning import share_warning

#: The parameter that is the harmless question B's "yes" share, per design.
INNOCUOUS = {"crosswise": "p", "ecwm": "p", "triangular": "p", "unrelated": "q"}


class RandomizerPage(QWizardPage):
    def __init__(self, draft, parent=None) -> None:
        super().__init__(parent)
        self.draft = draft
        self.setTitle("The randomizer")
        self.setSubTitle("Choose what respondents use to randomize privately. The probabilities follow from it.")
        self.device = name(QComboBox(), "Randomizer", "What respondents use to randomize their answer")
        self.b_source = name(QComboBox(), "Harmless question B",
                             "Where the harmless question B comes from: a birthday month, a second roll of the "
                             "die, a second card, or your own question whose share of 'yes' you know")
        self.coin_preset = name(QComboBox(), "Coin rule", "Which coin outcomes mean which instruction")
        for label, *_ in COIN_PRESETS:
            self.coin_preset.addItem(label)
        self.sides = name(QSpinBox(), "Die sides", f"How many faces the die has, 2 to {MAX_SIDES} (for more, use "
                                                   f"exact probabilities, for example from a random-number app)")
        self.sides.setRange(2, MAX_SIDES)
        self.sides.setValue(6)
        self.deck = name(QSpinBox(), "Deck size", "How many cards are in each deck")
        self.deck.setRange(2, 100)
        self.deck.setValue(12)
        self.dice = name(QSpinBox(), "Number of dice", "How many dice the respondent rolls and adds up")
        self.dice.setRange(2, 10)
        self.dice.setValue(2)
        for spin in (self.sides, self.deck, self.dice):
            spin.setMaximumWidth(90)
            spin.setKeyboardTracking(False)  # "36" is read as 36 when typed, not first as 3
        self.dice_yes = name(QLineEdit("2, 3, 4"), "Totals that mean 'yes'",
                             "The totals on which the respondent just says 'yes', such as 2, 3, 4 or 2-4")
        self.dice_no = name(QLineEdit("11, 12"), "Totals that mean 'no'",
                            "The totals on which the respondent just says 'no', such as 11, 12")
        top = QFormLayout()
        top.setVerticalSpacing(10)
        top.addRow("&Randomizer:", self.device)
        top.addRow("&Harmless question B:", self.b_source)
        top.addRow("&Coin rule:", self.coin_preset)
        top.addRow("N&umber of dice:", self.dice)
        top.addRow("Die &sides:", self.sides)
        top.addRow("Cards in the &deck:", self.deck)
        top.addRow("Totals that mean '&yes':", self.dice_yes)
        top.addRow("Totals that mean 'n&o':", self.dice_no)
        self.params_box = QGroupBox("Probabilities")
        self.params_form = QFormLayout(self.params_box)
        self.params_form.setVerticalSpacing(10)
        self.versions_note = note(VERSIONS_NOTE, object_name="versionsNote")  # the extended crosswise model
        self.versions_note.setAccessibleName("About the two versions of question B")
        self.summary = note(object_name="randomizerSummary")
        self.summary.setAccessibleName("Resulting probabilities")
        self.share_warning = note(object_name="shareWarning")  # crosswise/ECWM: question B's share near 1/2
        self.share_warning.setAccessibleName("Question B's share is close to one half")
        self.share_warning.setStyleSheet("color: #8a5a00;")
        self.share_warning.hide()
        self.problem = problem_label()
        self.use_nearest = name(QPushButton("Use the nearest achievable design"), "Use the nearest achievable design",
                                "Switch to the nearest design this kind of die can produce")
        self.use_nearest.setVisible(False)
        self.no_privacy = name(QCheckBox("I understand that this design protects no one, and want to go on"),
                               "Go on without privacy", "Tick to use a design in which every answer reveals the truth")
        self.no_privacy.setVisible(False)
        self.no_privacy.toggled.connect(self.completeChanged)
        self.epsilon_change = EpsilonChange()
        self.epsilon_change.keep.connect(self._keep_change)
        self.epsilon_change.back.connect(self._undo_change)
        self.use_nearest.clicked.connect(self.apply_nearest)
        self._nearest = None
        layout = QVBoxLayout(self)
        layout.addLayout(top)
        layout.addWidget(self.params_box)
        layout.addWidget(self.versions_note)
        layout.addWidget(self.summary)
        layout.addWidget(self.share_warning)
        layout.addWidget(self.epsilon_change)
        layout.addWidget(self.problem)
        layout.addWidget(self.use_nearest, 0, Qt.AlignmentFlag.AlignLeft)
        layout.addWidget(self.no_privacy)
        layout.addStretch(1)
        self.editors: dict = {}
        self._top = top
        self._ok = False
        self._question_b2 = ""  # the extended crosswise model: version 2's question B, the complement of B's
        self._months: list[int] | None = None  # the birth months the researcher ticked (kept across switches)
        self._last: dict | None = None  # the state the researcher last accepted (Go back returns to it)
        self._switching = False
        order = (self.device, self.b_source, self.coin_preset, self.dice, self.sides, self.deck, self.dice_yes,
                 self.dice_no)
        for first, second in zip(order, order[1:]):
            QWidget.setTabOrder(first, second)
        self.device.currentIndexChanged.connect(self._on_switch)
        self.b_source.currentIndexChanged.connect(self._on_switch)
        self.coin_preset.currentIndexChanged.connect(self._recompute)
        self.sides.valueChanged.connect(self._on_total)
        self.deck.valueChanged.connect(self._on_total)
        self.dice.valueChanged.connect(self._recompute)
        self.dice_yes.editingFinished.connect(self._recompute)
        self.dice_no.editingFinished.connect(self._recompute)

    # ------------------------------------------------------------------ setup
    def initializePage(self) -> None:
        choice = self.draft.choice
        self.device.blockSignals(True)
        self.device.clear()
        for device in choice.devices:
            self.device.addItem(DEVICE_NAMES[device], device)
        wanted = self.draft.device if self.draft.device in choice.devices else choice.devices[0]
        if self.draft.values and EXACT in choice.devices and self.draft.device not in choice.devices:
            wanted = EXACT
        self.device.setCurrentIndex(choice.devices.index(wanted))
        self.device.blockSignals(False)
        self._fill_b_sources()
        self.versions_note.setVisible(self.draft.design_key == "ecwm")
        self._months = list((self.draft.randomizer or {}).get("birthday_months") or []) or None
        self.epsilon_change.hide()
        self._last = None
        dice = self.draft.randomizer or {}
        if dice.get("kind") == "dice_sum":  # an item made with dice opens with its dice
            for spin, value in ((self.dice, dice["dice"]), (self.sides, dice["sides"])):
                spin.blockSignals(True)
                spin.setValue(int(value))
                spin.blockSignals(False)
            self.dice_yes.setText(", ".join(map(str, dice["yes"])))
            self.dice_no.setText(", ".join(map(str, dice["no"])))
        elif wanted in (COINS, DIE, CARDS) and dice.get("kind") in ("coins", "die", "cards"):
            self._restore(dice)  # an item made with coins, a die or cards opens with them
        self._on_device()
        self._accept()

    def _fill_b_sources(self) -> None:
        """The unrelated question's sources of question B; the one the item (or the draft) had."""
        choice, record = self.draft.choice, self.draft.randomizer or {}
        self.b_source.blockSignals(True)
        self.b_source.clear()
        for source in choice.b_sources:
            self.b_source.addItem(B_SOURCE_NAMES[source], source)
        if choice.b_sources:
            wanted = self.draft.b_source if self.draft.b_source in choice.b_sources else \
                BIRTHDAY if record.get("birthday_months") or not record else \
                record.get("kind") if record.get("kind") in choice.b_sources else EXACT
            self.b_source.setCurrentIndex(choice.b_sources.index(wanted))
            self.draft.b_source = wanted
        self.b_source.blockSignals(False)

    def _restore(self, record: dict) -> None:
        """Put the kept coins (their preset), die (its sides) or deck (its size) back on the page."""
        if record["kind"] == "coins":
            index = next(i for i, (_l, n, t, y, o) in enumerate(COIN_PRESETS)
                         if (n, list(t), list(y), list(o)) == (record["tosses"], record["truth"], record["yes"],
                                                                record["no"]))
            widget, value = self.coin_preset, index
        elif record["kind"] == "die":
            widget, value = self.sides, int(record["sides"])
        else:
            widget, value = self.deck, sum(int(record.get(k) or 0) for k in ("truth", "yes", "no", "a", "b"))
        widget.blockSignals(True)
        (widget.setCurrentIndex if widget is self.coin_preset else widget.setValue)(value)
        widget.blockSignals(False)

    def current_device(self) -> str:
        return self.device.currentData() or EXACT

    def current_b_source(self) -> str | None:
        """Where question B comes from, for designs where that is a choice of its own (else None)."""
        return self.b_source.currentData() if self.draft.choice.b_sources else None

    # ------------------------------------------------------------------ switches and the epsilon they change
    def _state(self) -> dict:
        return {"device": self.current_device(), "b_source": self.current_b_source(),
                "values": dict(self.draft.values), "months": list(self._months or []) or None,
                "sides": self.sides.value(), "deck": self.deck.value(), "eps": self._epsilon()}

    def _epsilon(self) -> float | None:
        try:
            return self.draft.design().epsilon if self._ok else None
        except DpdeskError:
            return None

    def _accept(self) -> None:
        """The page as it is now is what the researcher chose (Go back returns here)."""
        self._last = self._state()

    def _on_switch(self, *_args) -> None:
        """The randomizer or the source of question B was switched: rebuild, and show a changed epsilon."""
        before = self._last
        self.draft.b_source = self.current_b_source() or ""
        self._switching = True
        try:
            self._on_device()
        finally:
            self._switching = False
        after = self._epsilon()
        if before is not None and changed(before["eps"], after):
            what = self.device.currentText() if before["device"] != self.current_device() else \
                f"Question B from {self.b_source.currentText()[0].lower()}{self.b_source.currentText()[1:]}"
            undo = (DEVICE_NAMES[before["device"]] if before["device"] != self.current_device() else
                    B_SOURCE_NAMES[before["b_source"]])
            moved = [f"{p.label}: {meaning.pct(float(before['values'][p.name]))} → "
                     f"{meaning.pct(float(self.draft.values[p.name]))}" for p in self.draft.choice.params
                     if p.name in before["values"] and p.name in self.draft.values
                     and before["values"][p.name] != self.draft.values[p.name] and p.kind != "epsilon"]
            self.epsilon_change.ask(what, before["eps"], after, undo[0].lower() + undo[1:], "; ".join(moved))
        else:
            self.epsilon_change.hide()
            self._accept()
        self.completeChanged.emit()

    def _keep_change(self) -> None:
        self.epsilon_change.hide()
        self._accept()
        self.completeChanged.emit()

    def _undo_change(self) -> None:
        """Back to the randomizer, question B and probabilities the researcher had before the switch."""
        last = self._last
        self.epsilon_change.hide()
        if last is None:
            return
        for combo, value in ((self.device, last["device"]), (self.b_source, last["b_source"])):
            if value is not None:
                combo.blockSignals(True)
                combo.setCurrentIndex(max(0, combo.findData(value)))
                combo.blockSignals(False)
        for spin, value in ((self.sides, last["sides"]), (self.deck, last["deck"])):
            spin.blockSignals(True)
            spin.setValue(value)
            spin.blockSignals(False)
        self.draft.b_source = last["b_source"] or ""
        self.draft.values = dict(last["values"])
        self._months = last["months"]
        self._on_device()
        self.completeChanged.emit()

    def _initial(self, param):
        value = self.draft.values.get(param.name)
        return param.default if value is None else value

    def _on_device(self, *_args) -> None:
        device = self.current_device()
        self.draft.device = device
        source = self.current_b_source()
        for widget, show in ((self.b_source, source is not None), (self.coin_preset, device == COINS),
                             (self.sides, device in (DIE, DICE) or source == DIE),
                             (self.deck, device == CARDS or source == CARDS), (self.dice, device == DICE),
                             (self.dice_yes, device == DICE), (self.dice_no, device == DICE)):
            self._top.setRowVisible(widget, show)
        while self.params_form.rowCount():
            self.params_form.removeRow(0)
        self.editors = {}
        previous: QWidget = {COINS: self.coin_preset, DIE: self.sides, DICE: self.dice_no,
                             CARDS: self.deck}.get(device, self.device)
        innocuous = INNOCUOUS.get(self.draft.design_key)
        for param in self.draft.choice.params:
            chosen = source if source is not None and param.name == innocuous else device
            kind = chosen if chosen in param.devices else EXACT
            if device in (COINS, DICE):
                continue
            if kind == DIE:
                editor = CountEditor(param, self._initial(param), self.sides.value(), "faces")
            elif kind == CARDS:
                editor = CountEditor(param, self._initial(param), self.deck.value(), "cards")
            elif kind == BIRTHDAY:
                editor = MonthsEditor(param, self._initial(param), self._months)
            else:
                editor = ExactEditor(param, self._initial(param))
            editor.changed.connect(self._recompute)
            self.params_form.addRow(param.label + ":", editor)
            self.editors[param.name] = editor
            QWidget.setTabOrder(previous, editor.focus_widget())
            previous = editor.focus_widget()
        if self.draft.design_key == "forced" and device in (DIE, CARDS):
            self._complete_forced_counts()
        self.params_box.setVisible(bool(self.editors))
        guard(self)  # the new boxes: a wheel over one that is not focused scrolls instead
        self._recompute()
        if self._nearest is not None:
            self.apply_nearest()  # the default must be a die design that exists

    def _complete_forced_counts(self) -> None:
        """Make the faces or cards add up: 'yes' and 'no' rounded down, the rest answer truthfully."""
        total = self.sides.value() if self.current_device() == DIE else self.deck.value()
        yes, no = self.editors["p_yes"].spin, self.editors["p_no"].spin
        if self.editors["p_truth"].spin.value() + yes.value() + no.value() == total:
            return
        for spin, param in ((yes, "p_yes"), (no, "p_no")):
            spin.blockSignals(True)
            spin.setValue(int(float(self._initial(self.editors[param].param)) * total))
            spin.blockSignals(False)
        self.editors["p_truth"].spin.setValue(total - yes.value() - no.value())

    def _on_total(self, *_args) -> None:
        device = self.current_device()
        for editor in self.editors.values():
            if isinstance(editor, CountEditor):
                editor.set_total(self.sides.value() if editor.unit == "faces" else self.deck.value())
        if self.draft.design_key == "forced" and device in (DIE, CARDS):
            self._complete_forced_counts()
        self._recompute()

    # ------------------------------------------------------------------ values
    def _values_and_words(self) -> tuple[dict, str, str, str]:
        """(parameters, what the respondent does with the randomizer, question B, researcher notes)."""
        from dpdesk.mechanisms import rr

        device = self.current_device()
        key = self.draft.design_key
        self._nearest = None
        self._question_b2 = ""
        self.draft.randomizer = None
        if device == DICE:
            p = rr.randomizers.dice_sum(self.dice.value(), self.sides.value(), yes=_totals(self.dice_yes, "'yes'"),
                                        no=_totals(self.dice_no, "'no'"))
            self.draft.randomizer = p.randomizer
            return dict(p.exact), p.respondent, "", p.description
        if device == COINS:
            _label, tosses, truth, yes, no = COIN_PRESETS[self.coin_preset.currentIndex()]
            p = rr.randomizers.coins(tosses, truth=truth, yes=yes, no=no)
            self.draft.randomizer = p.randomizer  # kept with the item: the card in other languages names it
            return dict(p.exact), _label + ".", "", ""
        values = {k: e.value() for k, e in self.editors.items()}
        if key == "forced" and device in (DIE, CARDS):
            counts = [self.editors[k].spin.value() for k in ("p_truth", "p_yes", "p_no")]
            if device == DIE:
                faces, start = [], 1
                for c in counts:
                    faces.append(list(range(start, start + c)))
                    start += c
                p = rr.randomizers.die(*faces, sides=self.sides.value()) if sum(counts) == self.sides.value() \
                    else rr.randomizers.die(*counts, sides=self.sides.value())
            else:
                p = rr.randomizers.cards(*counts) if sum(counts) == self.deck.value() else None
                if p is None:
                    raise _Problem(f"The cards add up to {sum(counts)}, but the deck has {self.deck.value()} "
                                   f"cards. Make them add up.")
            self.draft.randomizer = p.randomizer
            return dict(p.exact), p.respondent, "", p.description
        if key == "forced_multi" and device == DIE:
            truth = self.editors["p_truth"].spin.value()
            try:
                p = rr.randomizers.forced_multi_die(truth, self.draft.categories, self.sides.value())
            except DpdeskError:
                if len(self.draft.categories) >= 2 and 1 <= truth < self.sides.value():
                    self._nearest = rr.randomizers.nearest_forced_multi_die(
                        Fraction(truth, self.sides.value()), len(self.draft.categories), self.sides.value())
                raise
            self.draft.randomizer = p.randomizer  # kept with the item: the card in other languages names it
            return {"p_truth": p.exact["p_truth"]}, p.respondent, "", p.description
        innocuous = INNOCUOUS.get(key)
        b_editor = self.editors.get(innocuous)
        others = [e for k, e in self.editors.items() if k != innocuous]
        again = isinstance(b_editor, CountEditor) and any(  # the same die or deck already chose A or B
            isinstance(e, CountEditor) and e.unit == b_editor.unit for e in others)
        question_b = "" if b_editor is None or not hasattr(b_editor, "question_b") else \
            b_editor.question_b(again) if isinstance(b_editor, CountEditor) else b_editor.question_b()
        notes = " ".join(e.words() for e in self.editors.values() if isinstance(e, MonthsEditor))
        chooser = self.editors.get("p_sensitive") if key == "unrelated" else None
        if isinstance(chooser, CountEditor):  # the die or deck that chooses question A or B, outcome by outcome
            from dpdesk.mechanisms.rr.wording import randomizer_sentence

            self.draft.randomizer = _which_question(chooser)
            words = randomizer_sentence(self.draft.randomizer)
        elif device == DIE:
            words = f"Roll a fair {self.sides.value()}-sided die privately. " + "; ".join(
                e.words() for e in others if isinstance(e, CountEditor)) + "." if others else ""
        elif device == CARDS:
            words = f"Draw one card privately from a shuffled deck of {self.deck.value()} and put it back. " + \
                "; ".join(e.words() for e in others if isinstance(e, CountEditor)) + "." if others else ""
        else:
            exact = [e for e in others if isinstance(e, ExactEditor) and e.param.kind != "epsilon"] or \
                ([] if innocuous else [e for e in others if isinstance(e, ExactEditor)])
            words = "Any private randomizer with these probabilities (for example a random-number app)." \
                if exact or (device == EXACT and not innocuous) else ""
            if words:
                self.draft.randomizer = {"kind": "exact"}
        self._question_b2 = _version_2(b_editor, again) if key == "ecwm" else ""
        if isinstance(b_editor, MonthsEditor):  # question B asks for a birthday: written in every language
            self._months = b_editor.months()
            self.draft.randomizer = {**(self.draft.randomizer or {"kind": "birthday"}),
                                     "birthday_months": b_editor.months()}
        return values, words, question_b, notes

    def _recompute(self, *_args) -> None:
        try:
            values, words, question_b, notes = self._values_and_words()
            self.draft.values = values
            self.draft.device_text = words
            if not self.draft.question_b_edited:
                self.draft.question_b = question_b
            if not self.draft.question_b2_edited:
                self.draft.question_b2 = self._question_b2
            self.draft.notes = notes
            design = self.draft.design()
        except EntryProblem:
            self._ok = False
            self.summary.setText("")
            show_problem(self.problem, "A number above cannot be used: see the message beside its box.")
            design = None
        except (DpdeskError, _Problem) as exc:
            self._ok = False
            self.summary.setText("")
            show_problem(self.problem, app_words(exc))
            design = None
        else:
            self._ok = True
            show_problem(self.problem, "")
            self.summary.setText(self._summary(values, words, design, question_b, notes))
            if not self.epsilon_change.pending and not self._switching:
                self._accept()  # the researcher's own edit: what Go back returns to from now on
        warning = share_warning(self.draft.design_key, values.get(INNOCUOUS.get(self.draft.design_key, ""))) \
            if design is not None else ""
        show_problem(self.share_warning, warning)
        unsafe = design is not None and design.protects_no_one
        if unsafe:
            from dpdesk.gui.wizard.meaning import NO_PRIVACY

            show_problem(self.problem, NO_PRIVACY)
        elif self.no_privacy.isChecked():
            self.no_privacy.setChecked(False)
        self.no_privacy.setVisible(unsafe)
        self.use_nearest.setVisible(self._nearest is not None)
        if self._nearest is not None:
            self.use_nearest.setText(f"Use a {self._nearest.sides}-sided die, {self._nearest.truth} faces for the "
                                     f"true answer")
        self.completeChanged.emit()

    def apply_nearest(self) -> None:
        """Switch to the nearest achievable die design the problem message offers."""
        near = self._nearest
        if near is None:
            return
        editor = self.editors["p_truth"]
        self.sides.blockSignals(True)
        self.sides.setValue(near.sides)
        self.sides.blockSignals(False)
        editor.spin.blockSignals(True)
        editor.set_total(near.sides)
        editor.spin.setValue(near.truth)
        editor.spin.blockSignals(False)
        editor._update()

    def _summary(self, values: dict, words: str, design, question_b: str = "", notes: str = "") -> str:
        labels = {p.name: p for p in self.draft.choice.params}
        parts = []
        for key, value in values.items():
            exact = getattr(value, "exact", value)
            frac = f" ({exact.numerator}/{exact.denominator})" if isinstance(exact, Fraction) and exact.denominator > 1 \
                and exact.denominator <= 1000 else ""
            shown = f"{float(value):g}" if labels[key].kind == "epsilon" else meaning.pct(float(value)) + frac
            parts.append(f"{labels[key].label}: <b>{shown}</b>")
        if design is not None and not any(labels[k].kind == "epsilon" for k in values):
            parts.append(f"Local epsilon: <b>{eps_text(design.epsilon)}</b>")
        out = "<br>".join(parts)
        if words:
            out += f"<p>{html.escape(words)}</p>"
        if question_b and self.draft.design_key == "ecwm":
            out += (f"<p>Question B, version 1: <i>{html.escape(question_b)}</i><br>Question B, version 2: "
                    f"<i>{html.escape(self._question_b2 or 'you write it on the last step')}</i></p>")
        elif question_b:
            out += f"<p>Question B on the card: <i>{html.escape(question_b)}</i></p>"
        if notes:
            out += f"<p><b>Note for you</b> (for your methods text, not printed on the card): {html.escape(notes)}</p>"
        return out

    def isComplete(self) -> bool:
        """Complete when the randomizer is consistent, and a design that protects no one was confirmed."""
        return self._ok and (not self.no_privacy.isVisibleTo(self) or self.no_privacy.isChecked())

    def validatePage(self) -> bool:
        return self.isComplete()


def _version_2(editor, again: bool = False) -> str:
    """The extended crosswise model's version 2 of question B: the complement of version 1's (the other
    birth months, the other faces, an unmarked card); ``""`` for the researcher's own question."""
    from dpdesk.mechanisms import rr

    if isinstance(editor, MonthsEditor):
        rest = [m for m in range(1, 13) if m not in editor.months()]
        return rr.randomizers.birth_month(rest).question if rest else ""
    if isinstance(editor, CountEditor):
        k, total = editor.spin.value(), editor.total
        if editor.unit == "faces":
            from dpdesk.mechanisms.rr.randomizers import faces_text

            rest = list(range(k + 1, total + 1))
            roll = "Roll the die a second time" if again else f"Roll a fair {total}-sided die privately"
            return f"{roll}. Did it show {faces_text(rest)}?" if rest else ""
        return (f"Draw one card privately from a shuffled deck of {total} in which {k} card"
                f"{'s are' if k != 1 else ' is'} marked, and put it back. Is your card an unmarked one?")
    return ""


def _which_question(editor: CountEditor) -> dict:
    """The die or deck that chooses the question of the unrelated-question design: the first
    faces (or the marked cards) mean question A, the sensitive one; the rest question B."""
    k = editor.spin.value()
    if editor.unit == "faces":
        return {"kind": "die", "sides": editor.total, "a": list(range(1, k + 1)),
                "b": list(range(k + 1, editor.total + 1))}
    return {"kind": "cards", "a": k, "b": editor.total - k}


#: The most faces a die may have (a d100 exists; more is a random-number app: use exact probabilities).
MAX_SIDES = 100


def _totals(box: QLineEdit, what: str) -> list[int]:
    """The dice totals typed in ``box``: "2, 3, 4", "2-4" or "2 to 4" (blank: none)."""
    out: list[int] = []
    for part in box.text().replace(";", ",").split(","):
        part = part.strip().replace(" to ", "-")
        if not part:
            continue
        try:
            low, _, high = part.partition("-")
            out.extend(range(int(low), int(high or low) + 1))
        except ValueError:
            raise _Problem(f"The totals that mean {what} ('{box.text().strip()}') must be whole numbers separated "
                           f"by commas, such as 2, 3, 4, or a range such as 2-4.") from None
    return out


class _Problem(Exception):
    """An inconsistent randomizer (shown on the page, not raised further)."""
