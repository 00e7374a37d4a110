"""Show a picture on a tile asset of the board (its face), on every placement of it."""

from __future__ import annotations

import dataclasses

from PySide6.QtGui import QUndoCommand

from referee.model import TileAsset

from ..document import Document
from ..live import Change


class SetTileFaceCommand(QUndoCommand):
    """Make image ``face`` (an id in the board's image store; None: no face) the face
    of the board's tile asset ``key``.

    The board gets its own copy of the asset with the new face, so the asset pack the
    tile was placed from (and its palette entry) keeps its own face. Every placement
    of the asset shows the new face. Undo puts the previous asset back.
    """

    def __init__(self, doc: Document, key: str, face: str | None, text: str | None = None) -> None:
        old = doc.board.tiles.get(key)
        if old is None:
            raise KeyError(key)
        super().__init__(text or f"Set the face of tile {old.name}")
        self.doc = doc
        self.key = key
        self.old = old
        self.new = dataclasses.replace(old, face=face, _variants={}, cache={})

    def _put(self, tile: TileAsset) -> None:
        b = self.doc.board
        b.tiles[self.key] = tile
        keys = {f"p:{p.id}" for p in b.placements if p.tile == self.key}
        self.doc.notify(keys, Change(full=True))

    def redo(self) -> None:
        self._put(self.new)

    def undo(self) -> None:
        self._put(self.old)
