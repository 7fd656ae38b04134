"""Undoable changes to the project's survey items (QUndoStack commands).

Each command changes the project file at once (one transaction per change, nothing to
"save"); undo makes the opposite change. :func:`push` applies a command first, so a
change the project refuses raises (for the caller to show) and is never recorded.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtGui import QUndoCommand

from dpdesk.project import languages


class ItemCommand(QUndoCommand):
    """Base: ``apply`` and ``revert`` change the project; ``redo``/``undo`` call them."""

    def __init__(self, text: str, project) -> None:
        super().__init__(text)
        self.project = project
        self._applied = False

    def apply(self) -> None:
        raise NotImplementedError

    def revert(self) -> None:
        raise NotImplementedError

    def redo(self) -> None:
        if self._applied:  # applied by push() already
            self._applied = False
            return
        self.apply()

    def undo(self) -> None:
        self.revert()


class AddItem(ItemCommand):
    def __init__(self, project, name: str, design: Any, question: str = "", instructions: str = "") -> None:
        super().__init__(f"Add item '{name}'", project)
        self.name, self.design, self.question, self.instructions = name, design, question, instructions

    def apply(self) -> None:
        self.project.add_item(self.name, self.design, question=self.question, instructions=self.instructions)

    def revert(self) -> None:
        self.project.remove_item(self.name)


class EditItem(ItemCommand):
    """Change an item's name, question and design (its data mapping stays)."""

    def __init__(self, project, old_name: str, name: str, design: Any, question: str,
                 instructions: str | None = None) -> None:
        super().__init__(f"Edit item '{name}'", project)
        old = project.item(old_name)
        self.before = {"name": old.name, "design": old.design_record, "question": old.question,
                       "instructions": old.instructions}
        self.after = {"name": name, "design": design, "question": question,
                      "instructions": old.instructions if instructions is None else instructions}

    def _set(self, current: str, target: dict) -> None:
        self.project.update_item(current, new_name=target["name"], design=target["design"],
                                 question=target["question"], instructions=target["instructions"])

    def apply(self) -> None:
        self._set(self.before["name"], self.after)

    def revert(self) -> None:
        self._set(self.after["name"], self.before)


class RemoveItem(ItemCommand):
    def __init__(self, project, name: str) -> None:
        super().__init__(f"Remove item '{name}'", project)
        item = project.item(name)
        self.saved = {"name": item.name, "design": item.design_record, "question": item.question,
                      "instructions": item.instructions, "latest": project.latest_mapping(name),
                      "mappings": dict(item.mappings), "texts": languages.saved_texts(project, name)}

    def apply(self) -> None:
        self.project.remove_item(self.saved["name"])

    def revert(self) -> None:
        s = self.saved
        with self.project.transaction():
            self.project.add_item(s["name"], s["design"], question=s["question"], instructions=s["instructions"])
            if s["latest"] is not None and not self.project.datasets():
                self.project.update_item(s["name"], **{k: s["latest"][k] for k in MAPPING_KEYS})
            known = {d.name for d in self.project.datasets()}
            for dataset, m in s["mappings"].items():  # every dataset's mapping comes back
                if dataset in known:
                    self.project.set_mapping(s["name"], dataset, **m)
            languages.restore_texts(self.project, s["name"], s["texts"])  # its text in every language


MAPPING_KEYS = ("column", "codes", "group_column", "group_codes")


class EditMappings(ItemCommand):
    """Change which columns and codes hold the items' answers (``{item: {column, codes, ...}}``)."""

    def __init__(self, project, mappings: dict, dataset: str | None = None) -> None:
        super().__init__(f"Map {len(mappings)} item(s) to the data", project)
        self.dataset = dataset  # the dataset mapped (default: the active one when the command is made)
        if dataset is None and project.datasets():
            self.dataset = next(d.name for d in project.datasets() if d.id == project.active_dataset_id())
        self.after = {name: {k: m.get(k) for k in MAPPING_KEYS} for name, m in mappings.items()}
        self.before = {}
        for name in mappings:
            item = project.item(name, self.dataset)
            self.before[name] = {k: getattr(item, k) for k in MAPPING_KEYS}

    def _set(self, mappings: dict) -> None:
        with self.project.transaction():  # in the dataset mapped, even after another became active
            for name, m in mappings.items():
                self.project.update_item(name, dataset=self.dataset, **m)

    def apply(self) -> None:
        self._set(self.after)

    def revert(self) -> None:
        self._set(self.before)


class SetColumnLabel(ItemCommand):
    """Give a data column a label readers recognise (its question); undo puts the old one back."""

    def __init__(self, project, dataset: str, column: str, label: str) -> None:
        super().__init__(f"Label column {column}", project)
        self.dataset, self.column, self.label = dataset, column, label
        old = project.column_labels(dataset).get(column) or {}
        self.before, self.before_source = old.get("label", ""), old.get("source", "file")

    def apply(self) -> None:
        self.project.set_column_label(self.dataset, self.column, self.label)

    def revert(self) -> None:
        self.project.set_column_label(self.dataset, self.column, self.before, source=self.before_source)


class SetValueLabels(ItemCommand):
    """Name a column's codes (``{1: "Female", 2: "Male"}``); undo puts the old names back."""

    def __init__(self, project, dataset: str, column: str, values: dict) -> None:
        super().__init__(f"Value labels of {column}", project)
        self.dataset, self.column, self.values = dataset, column, dict(values)
        old = project.column_labels(dataset).get(column) or {}
        self.before, self.before_source = old.get("value_labels", {}), old.get("value_source", "file")

    def apply(self) -> None:
        self.project.set_column_label(self.dataset, self.column, value_labels=self.values)

    def revert(self) -> None:
        self.project.set_column_label(self.dataset, self.column, value_labels=self.before,
                                      source=self.before_source)


class SetItemLabel(ItemCommand):
    """Give an item a short label for tables and plots ("" goes back to its question)."""

    def __init__(self, project, item: str, label: str) -> None:
        super().__init__(f"Label item {item}", project)
        self.item, self.label = item, label
        self.before = project.item_labels().get(item, "")

    def apply(self) -> None:
        self.project.set_item_label(self.item, self.label)

    def revert(self) -> None:
        self.project.set_item_label(self.item, self.before)


def push(stack, command: ItemCommand) -> None:
    """Apply ``command`` and record it on ``stack`` (nothing is recorded if applying raises)."""
    command.apply()
    command._applied = True
    stack.push(command)
