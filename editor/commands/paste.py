"""Paste or duplicate: add copies of placements and features under fresh ids."""

from __future__ import annotations

import copy

from PySide6.QtGui import QUndoCommand
from shapely import affinity

from referee.model import Feature, Placement, TileAsset

from ..document import Document
from ..live import Change


class PasteCommand(QUndoCommand):
    """Add copies of ``placements`` and ``features``, moved by (dx, dy), with new ids.

    ``tiles`` carries the tile assets the copied placements use, so a paste into
    another board embeds them. :attr:`new_keys` names what was added (to select it).
    """

    def __init__(
        self,
        doc: Document,
        placements: list[Placement],
        features: list[Feature],
        tiles: dict[str, TileAsset],
        dx: float = 10.0,
        dy: float = 10.0,
        text: str = "Paste",
    ) -> None:
        super().__init__(text)
        self.doc = doc
        self.tiles = {k: t for k, t in tiles.items() if k not in doc.board.tiles}
        self.placements = []
        used: set[str] = set()
        for p in placements:
            pid = self._fresh(doc, "t", used)
            self.placements.append(Placement(pid, p.tile, p.x + dx, p.y + dy, p.turns))
        self.features = []
        for f in features:
            fid = self._fresh(doc, f.kind[:1] if f.kind != "space" else "s", used)
            self.features.append(
                Feature(fid, f.kind, affinity.translate(f.geometry, dx, dy), copy.deepcopy(f.props))
            )
        self.new_keys = {f"p:{p.id}" for p in self.placements} | {
            f"f:{f.id}" for f in self.features
        }

    @staticmethod
    def _fresh(doc: Document, prefix: str, used: set[str]) -> str:
        while True:
            cand = doc.new_id(prefix)
            if cand not in used:
                used.add(cand)
                return cand

    def _change(self) -> Change:
        if self.placements or any(f.kind != "space" for f in self.features):
            return Change(full=True)
        return Change(spaces={f.id for f in self.features})

    def redo(self) -> None:
        b = self.doc.board
        b.tiles.update(self.tiles)
        b.placements.extend(self.placements)
        b.features.extend(self.features)
        self.doc.notify(set(self.new_keys), self._change())

    def undo(self) -> None:
        b = self.doc.board
        ids = {id(x) for x in self.placements}
        b.placements = [p for p in b.placements if id(p) not in ids]
        ids = {id(x) for x in self.features}
        b.features = [f for f in b.features if id(f) not in ids]
        for k in self.tiles:
            b.tiles.pop(k, None)
        self.doc.notify(set(self.new_keys), self._change())
