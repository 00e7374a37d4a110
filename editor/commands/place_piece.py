"""Put a piece (figure, counter) on a node of the board."""

from __future__ import annotations

import copy
from typing import Any

from PySide6.QtGui import QUndoCommand

from referee.model import PieceOnBoard

from ..document import Document
from ..live import Change


class PlacePieceCommand(QUndoCommand):
    """Add a piece of type ``key`` standing on node ``at``; embeds the piece type if new."""

    def __init__(self, doc: Document, key: str, data: dict[str, Any], at: str | None) -> None:
        super().__init__(f"Place piece {data.get('name', key)}")
        self.doc = doc
        self.key = key
        self.data = copy.deepcopy(data)
        used = {p.id for p in doc.board.pieces}
        base = key.split("/", 1)[-1]
        n = 1
        while f"{base}-{n}" in used:
            n += 1
        self.piece = PieceOnBoard(f"{base}-{n}", key, at)
        self._embedded = False

    def redo(self) -> None:
        b = self.doc.board
        if self.key not in b.piece_types:
            b.piece_types[self.key] = self.data
            self._embedded = True
        b.pieces.append(self.piece)
        self.doc.notify({f"c:{self.piece.id}"}, Change())

    def undo(self) -> None:
        b = self.doc.board
        b.pieces.remove(self.piece)
        if self._embedded:
            b.piece_types.pop(self.key, None)
            self._embedded = False
        self.doc.notify({f"c:{self.piece.id}"}, Change())
