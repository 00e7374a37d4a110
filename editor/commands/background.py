"""Change the board's background picture (place, scale, turn, opacity, lock, show)."""

from __future__ import annotations

import copy

from PySide6.QtGui import QUndoCommand

from referee.model import Background

from ..document import Document
from ..live import Change

#: merge id: edits of one drag (a spin box held down, a slider dragged) are one step
BACKGROUND_ID = 1004


class SetBackgroundCommand(QUndoCommand):
    """Replace the board's background with ``background`` (None removes it).

    Commands with the same ``drag`` token merge into one undo step (the Background
    panel gives every slider drag and spin-box edit session its own token).
    """

    def __init__(
        self,
        doc: Document,
        background: Background | None,
        text: str = "Change background",
        drag: int | None = None,
        parent: QUndoCommand | None = None,
    ) -> None:
        super().__init__(text, parent)
        self.doc = doc
        self.old = copy.copy(doc.board.background)
        self.new = copy.copy(background)
        self.drag = drag

    def id(self) -> int:
        return BACKGROUND_ID if self.drag is not None else -1

    def mergeWith(self, other: QUndoCommand) -> bool:
        if not isinstance(other, SetBackgroundCommand) or other.drag != self.drag:
            return False
        self.new = copy.copy(other.new)
        return True

    def _set(self, bg: Background | None) -> None:
        self.doc.board.background = copy.copy(bg)
        self.doc.notify({"bg"}, Change())

    def redo(self) -> None:
        self._set(self.new)

    def undo(self) -> None:
        self._set(self.old)
