"""Move placed tiles and free-standing features; a drag merges into one step."""

from __future__ import annotations

from PySide6.QtGui import QUndoCommand
from shapely import affinity

from ..document import Document
from ..live import Change
from .merge_ids import MOVE_ID


class MoveCommand(QUndoCommand):
    """Translate the objects ``keys`` by (dx, dy) millimetres.

    Consecutive moves with the same ``drag`` token (one mouse drag) merge into a
    single undo step via :meth:`mergeWith`.
    """

    def __init__(
        self, doc: Document, keys: set[str], dx: float, dy: float, drag: int | None = None
    ) -> None:
        n = len(keys)
        super().__init__(f"Move {n} item{'s' if n != 1 else ''}")
        self.doc = doc
        self.keys = frozenset(keys)
        self.dx, self.dy = float(dx), float(dy)
        self.drag = drag

    def id(self) -> int:
        return MOVE_ID if self.drag is not None else -1

    def mergeWith(self, other: QUndoCommand) -> bool:
        if not isinstance(other, MoveCommand) or other.drag != self.drag or other.keys != self.keys:
            return False
        self.dx += other.dx
        self.dy += other.dy
        return True

    def _apply(self, dx: float, dy: float) -> None:
        change = Change()
        for key in self.keys:
            kind, _, ident = key.partition(":")
            if kind == "p":
                p = self.doc.placement(ident)
                if p is not None:
                    p.x += dx
                    p.y += dy
                    change.full = True
            else:
                f = self.doc.feature(ident)
                if f is not None:
                    f.geometry = affinity.translate(f.geometry, dx, dy)
                    if f.kind == "space":
                        change.spaces.add(f.id)
                    else:
                        change.full = True
        self.doc.notify(set(self.keys), change)

    def redo(self) -> None:
        self._apply(self.dx, self.dy)

    def undo(self) -> None:
        self._apply(-self.dx, -self.dy)
