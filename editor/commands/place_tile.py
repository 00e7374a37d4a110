"""Place a tile asset on the board."""

from __future__ import annotations

from PySide6.QtGui import QUndoCommand

from referee.model import Placement, TileAsset

from ..document import Document
from ..live import Change


class PlaceTileCommand(QUndoCommand):
    """Put ``tile`` at (x, y); embeds the asset in the board if it is not there yet."""

    def __init__(
        self,
        doc: Document,
        tile: TileAsset,
        x: float,
        y: float,
        turns: int = 0,
        pid: str | None = None,
    ) -> None:
        super().__init__(f"Place tile {tile.name}")
        self.doc = doc
        self.tile = tile
        self.placement = Placement(pid or doc.new_id("t"), tile.key, float(x), float(y), turns)
        self._embedded = False

    def redo(self) -> None:
        b = self.doc.board
        if self.tile.key not in b.tiles:
            b.tiles[self.tile.key] = self.tile
            self._embedded = True
        b.placements.append(self.placement)
        self.doc.notify({f"p:{self.placement.id}"}, Change(full=True))

    def undo(self) -> None:
        b = self.doc.board
        b.placements.remove(self.placement)
        if self._embedded:
            b.tiles.pop(self.tile.key, None)
            self._embedded = False
        self.doc.notify({f"p:{self.placement.id}"}, Change(full=True))
