"""Drag the board's background picture on the canvas; one drag is one undo step."""

from __future__ import annotations

import dataclasses

from PySide6.QtGui import QUndoCommand

from ..document import Document
from ..live import Change
from .merge_ids import BACKGROUND_MOVE_ID


class MoveBackgroundCommand(QUndoCommand):
    """Put the background picture's top-left corner at board point (``x``, ``y``) mm.

    Consecutive moves with the same ``drag`` token (one mouse drag with the select
    tool) merge into one undo step, from where the drag started to where it ended.
    Scale, turn, opacity and the rest stay as they are.
    """

    def __init__(self, doc: Document, x: float, y: float, drag: int | None = None) -> None:
        bg = doc.board.background
        if bg is None:
            raise ValueError("the board has no background picture to move")
        super().__init__("Move background")
        self.doc = doc
        self.before = (bg.x, bg.y)
        self.after = (float(x), float(y))
        self.drag = drag

    def id(self) -> int:
        return BACKGROUND_MOVE_ID if self.drag is not None else -1

    def mergeWith(self, other: QUndoCommand) -> bool:
        if not isinstance(other, MoveBackgroundCommand) or other.drag != self.drag:
            return False
        self.after = other.after
        return True

    def _put(self, xy: tuple[float, float]) -> None:
        bg = self.doc.board.background
        if bg is not None:
            self.doc.board.background = dataclasses.replace(bg, x=xy[0], y=xy[1])
        self.doc.notify({"bg"}, Change())

    def redo(self) -> None:
        self._put(self.after)

    def undo(self) -> None:
        self._put(self.before)
