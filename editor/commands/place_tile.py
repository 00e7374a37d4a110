"""Place a tile asset on the board."""

from __future__ import annotations

import contextlib

from PySide6.QtGui import QUndoCommand

from referee.errors import BoardwrightError
from referee.images import ImageInfo, ImageStore
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
        images: ImageStore | None = None,
    ) -> None:
        super().__init__(f"Place tile {tile.name}")
        self.doc = doc
        self.tile = tile
        self.placement = Placement(pid or doc.new_id("t"), tile.key, float(x), float(y), turns)
        self._embedded = False
        #: the tile's face picture, copied into the board with the asset (from its pack)
        self.face: tuple[ImageInfo, bytes] | None = None
        if tile.face and images is not None and tile.face in images:
            if tile.face not in doc.board.images:
                with contextlib.suppress(BoardwrightError):  # missing bytes: check reports it
                    self.face = (images.info(tile.face), images.data(tile.face))
        self._face_added = False

    def redo(self) -> None:
        b = self.doc.board
        if self.tile.key not in b.tiles:
            b.tiles[self.tile.key] = self.tile
            self._embedded = True
        if self.face is not None and self.face[0].id not in b.images:
            b.images.register(*self.face)
            self._face_added = True
        b.placements.append(self.placement)
        self.doc.notify({f"p:{self.placement.id}"}, Change(full=True))

    def undo(self) -> None:
        b = self.doc.board
        b.placements.remove(self.placement)
        if self._embedded:
            b.tiles.pop(self.tile.key, None)
            self._embedded = False
        if self._face_added and self.face is not None:
            b.images.remove(self.face[0].id)
            self._face_added = False
        self.doc.notify({f"p:{self.placement.id}"}, Change(full=True))
