"""Turn placed tiles a quarter turn (a sixth for hexagons)."""

from __future__ import annotations

from PySide6.QtGui import QUndoCommand

from ..document import Document
from ..live import Change


class TurnCommand(QUndoCommand):
    """Turn the placements ``pids`` by ``delta`` steps (+1 clockwise, −1 anticlockwise).

    Tiles whose asset is not turnable are left alone (and named in the text).
    """

    def __init__(self, doc: Document, pids: list[str], delta: int = 1) -> None:
        self.doc = doc
        self.delta = delta
        self.pids = []
        for pid in pids:
            p = doc.placement(pid)
            if (
                p is not None
                and doc.board.tiles.get(p.tile) is not None
                and doc.board.tiles[p.tile].turnable
            ):
                self.pids.append(pid)
        way = "clockwise" if delta > 0 else "anticlockwise"
        super().__init__(f"Turn {', '.join(self.pids) or 'nothing'} {way}")

    def _apply(self, delta: int) -> None:
        for pid in self.pids:
            p = self.doc.placement(pid)
            assert p is not None
            tile = self.doc.board.tiles[p.tile]
            p.turns = (p.turns + delta) % tile.turn_count
        self.doc.notify({f"p:{pid}" for pid in self.pids}, Change(turns=set(self.pids)))

    def redo(self) -> None:
        self._apply(self.delta)

    def undo(self) -> None:
        self._apply(-self.delta)
