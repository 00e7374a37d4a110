"""Add a free-standing feature (a drawn space, path, river, road, point …)."""

from __future__ import annotations

from PySide6.QtGui import QUndoCommand

from referee.model import Feature

from ..document import Document
from ..live import Change


class AddFeatureCommand(QUndoCommand):
    """Append ``feature`` to the board's free-standing features."""

    def __init__(self, doc: Document, feature: Feature) -> None:
        super().__init__(f"Add {feature.kind.replace('_', ' ')} {feature.id}")
        self.doc = doc
        self.feature = feature

    def _change(self) -> Change:
        if self.feature.kind == "space":
            return Change(spaces={self.feature.id})
        return Change(full=True)

    def redo(self) -> None:
        self.doc.board.features.append(self.feature)
        self.doc.notify({f"f:{self.feature.id}"}, self._change())

    def undo(self) -> None:
        self.doc.board.features.remove(self.feature)
        self.doc.notify({f"f:{self.feature.id}"}, self._change())
