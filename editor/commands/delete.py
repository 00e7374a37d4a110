"""Delete placed tiles and free-standing features."""

from __future__ import annotations

from PySide6.QtGui import QUndoCommand

from referee.model import Feature, PieceOnBoard, Placement

from ..document import Document
from ..live import Change


class DeleteCommand(QUndoCommand):
    """Remove the objects ``keys`` (tiles, features, pieces); undo puts each back at its old index."""

    def __init__(self, doc: Document, keys: set[str]) -> None:
        n = len(keys)
        super().__init__(f"Delete {n} item{'s' if n != 1 else ''}")
        self.doc = doc
        self.keys = set(keys)
        self._placements: list[tuple[int, Placement]] = []
        self._features: list[tuple[int, Feature]] = []
        self._pieces: list[tuple[int, PieceOnBoard]] = []

    def _change(self) -> Change:
        ch = Change()
        for _, f in self._features:
            if f.kind == "space":
                ch.spaces.add(f.id)
            else:
                ch.full = True
        if self._placements:
            ch.full = True
        return ch

    def redo(self) -> None:
        b = self.doc.board
        self._placements = [(i, p) for i, p in enumerate(b.placements) if f"p:{p.id}" in self.keys]
        self._features = [(i, f) for i, f in enumerate(b.features) if f"f:{f.id}" in self.keys]
        self._pieces = [(i, c) for i, c in enumerate(b.pieces) if f"c:{c.id}" in self.keys]
        gone_c = {id(c) for _, c in self._pieces}
        b.pieces = [c for c in b.pieces if id(c) not in gone_c]
        gone_p = {id(p) for _, p in self._placements}
        gone_f = {id(f) for _, f in self._features}
        b.placements = [p for p in b.placements if id(p) not in gone_p]
        b.features = [f for f in b.features if id(f) not in gone_f]
        self.doc.notify(set(self.keys), self._change())

    def undo(self) -> None:
        b = self.doc.board
        for i, p in self._placements:
            b.placements.insert(i, p)
        for i, f in self._features:
            b.features.insert(i, f)
        for i, c in self._pieces:
            b.pieces.insert(i, c)
        self.doc.notify(set(self.keys), self._change())
