"""Add many free-standing features at once (the spaces a trace proposed)."""

from __future__ import annotations

from PySide6.QtGui import QUndoCommand

from referee.model import Feature

from ..document import Document
from ..live import Change


class AddFeaturesCommand(QUndoCommand):
    """Append ``features`` to the board's free-standing features, as one undo step."""

    def __init__(self, doc: Document, features: list[Feature], text: str) -> None:
        super().__init__(text)
        self.doc = doc
        self.features = list(features)

    def _keys(self) -> set[str]:
        return {f"f:{f.id}" for f in self.features}

    def _change(self) -> Change:
        if all(f.kind == "space" for f in self.features):
            return Change(spaces={f.id for f in self.features})
        return Change(full=True)

    def redo(self) -> None:
        self.doc.board.features.extend(self.features)
        self.doc.notify(self._keys(), self._change())

    def undo(self) -> None:
        ids = {id(f) for f in self.features}
        self.doc.board.features[:] = [f for f in self.doc.board.features if id(f) not in ids]
        self.doc.notify(self._keys(), self._change())
