"""The survey-design wizard (QWizard): five pages over one :class:`Draft`."""

from __future__ import annotations

from fractions import Fraction

from PySide6.QtWidgets import QWizard

from dpdesk.errors import DesignError

from dpdesk.gui.help.window import HelpKey
from dpdesk.gui.dialogs.discard import AskBeforeDiscard, EnterStaysInNumberFields
from dpdesk.gui.wizard.catalog import BY_KEY, CARDS, COIN_PRESETS, COINS, DICE, DIE, EXACT
from dpdesk.gui.wizard.draft import Draft
from dpdesk.gui.wizard.page_design import DesignPage
from dpdesk.gui.wizard.page_instructions import InstructionsPage
from dpdesk.gui.wizard.page_meaning import MeaningPage
from dpdesk.gui.wizard.page_question import QuestionPage
from dpdesk.gui.wizard.page_randomizer import RandomizerPage
from dpdesk.gui.wizard.settle import SettleGuard


def draft_from_item(item, project=None) -> Draft:
    """A draft to edit an existing project item (its design's parameters as exact numbers). With
    ``project``, a question B the card does not ask (an item made on the command line with
    ``--question-b``/``--question-b2``) comes from the item's stored respondent text."""
    record = item.design_record
    key = record["name"]
    choice = BY_KEY.get(key)
    if choice is None:
        from dpdesk.gui.widgets.common import design_words

        raise DesignError(
            f"The item {item.name!r} uses the design \"{design_words(key)}\", which the wizard cannot edit yet. "
            f"Remove the item and make a new one with New item…, or keep it as it is."
        )
    params = dict(record.get("params") or {})
    categories = [str(c) for c in params.get("categories") or []]
    values = {p.name: Fraction(str(params[p.name])) for p in choice.params if p.name in params}
    question_b = next((line[3:].strip() for line in (item.instructions or "").splitlines()
                       if line.startswith("B: ") and not line.startswith("B: [")), "")
    from dpdesk.project.languages.versions import questions_b

    question_b2 = questions_b(item.instructions)[1] if key == "ecwm" else ""
    question_b2 = "" if question_b2.startswith("[") else question_b2
    if project is not None:
        from dpdesk.project.fielding.store import item_text

        question_b = question_b or item_text(project, item.name, "question_b")
        question_b2 = question_b2 or (item_text(project, item.name, "question_b2") if key == "ecwm" else "")
    randomizer = record.get("randomizer") if isinstance(record.get("randomizer"), dict) else None
    device = _device_of(randomizer) if randomizer else EXACT
    device = device if device in choice.devices else EXACT
    return Draft(name=item.name, question=item.question or "", answers=choice.answers, categories=categories,
                 design_key=key, device=device, randomizer=randomizer, values=values,
                 instructions=item.instructions or "", instructions_edited=bool(item.instructions), editing=item.name, question_b=question_b,
                 question_b_edited=bool(question_b), question_b2=question_b2, question_b2_edited=bool(question_b2))


def _device_of(record: dict) -> str:
    """The randomizer page's device for a kept randomizer (coins only as one of the offered presets)."""
    kind = record.get("kind")
    if kind == "coins":
        same = [(n, list(t), list(y), list(o)) for _l, n, t, y, o in COIN_PRESETS]
        wanted = (record.get("tosses"), record.get("truth"), record.get("yes"), record.get("no"))
        return COINS if wanted in same else EXACT
    return {"dice_sum": DICE, "die": DIE, "cards": CARDS}.get(kind, EXACT)


class DesignWizard(AskBeforeDiscard, EnterStaysInNumberFields, QWizard):
    """Design one survey item. After ``accept()``, :meth:`result` gives what to store."""

    def __init__(self, draft: Draft | None = None, settings=None, parent=None) -> None:
        super().__init__(parent)
        HelpKey(self, "Wizard")  # F1: the guide's page on this dialog
        self.draft = draft or Draft()
        self.settings = settings
        self.setWindowTitle("Edit survey item" if self.draft.editing else "New survey item")
        self.setWizardStyle(QWizard.WizardStyle.ClassicStyle)
        self.setOption(QWizard.WizardOption.NoBackButtonOnStartPage, True)
        self.setOption(QWizard.WizardOption.HaveHelpButton, False)
        self.setAccessibleName("Survey design wizard")
        self.setAccessibleDescription("Five steps: question, design, randomizer, meaning, instructions")
        self.question_page = QuestionPage(self.draft)
        self.design_page = DesignPage(self.draft)
        self.randomizer_page = RandomizerPage(self.draft)
        self.meaning_page = MeaningPage(self.draft)
        self.instructions_page = InstructionsPage(self.draft)
        if settings is not None:
            self.meaning_page.runs = int(settings.value("preview_runs", self.meaning_page.runs))
        for page in (self.question_page, self.design_page, self.randomizer_page, self.meaning_page,
                     self.instructions_page):
            self.addPage(page)
        self.setButtonText(QWizard.WizardButton.FinishButton, "Save item" if self.draft.editing else "Add to project")
        self.resize(820, 680)
        self.settle = SettleGuard(self)  # a click while a page is built never acts on that page
        self.watch_edits()  # Escape / Cancel with changes asks first

    def item_result(self) -> dict:
        """``{"name", "question", "design", "instructions"}`` for the project."""
        d = self.draft
        design = d.design()
        if d.randomizer:  # the dice (added up) are kept with the design, so the item reopens with them
            design = {**design.to_dict(), "randomizer": dict(d.randomizer)}
        return {"name": d.name, "question": d.question, "design": design, "instructions": d.instructions}

    def showEvent(self, event) -> None:  # noqa: N802 - Qt API
        super().showEvent(event)
        from dpdesk.gui.widgets.screen_fit import fit_on_screen

        fit_on_screen(self)  # 820 x 680 does not fit every laptop: never partly off screen

    def done(self, code: int) -> None:
        self.meaning_page.timer.stop()
        for runner in (self.design_page.runner, self.meaning_page.runner, self.meaning_page.loader,
                       self.instructions_page.runner):
            runner.shutdown()
        super().done(code)
