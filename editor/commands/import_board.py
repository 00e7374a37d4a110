"""Add an imported board to the document's board, as one undo step."""

from __future__ import annotations

import copy

from PySide6.QtGui import QUndoCommand

from referee.model import Board, Feature, Placement, TileAsset, prop_table

from ..document import Document
from ..live import Change


class ImportBoardCommand(QUndoCommand):
    """Add ``board``'s tiles, placements, features, pictures, piece types and decks (and
    its background, if the document has none) to the document's board.

    Ids that the document already uses are renamed (``s3`` → ``s3~2``), and the
    references to them (a track's ``points``, a counter space's ``arrival``) with
    them; a tile asset whose key is taken by a different tile gets a new key.
    Pieces standing on the imported board are not added (they belong to a game).
    """

    def __init__(self, doc: Document, board: Board, text: str) -> None:
        super().__init__(text)
        self.doc = doc
        target = doc.board
        used = {p.id for p in target.placements} | {f.id for f in target.features}

        def fresh(wanted: str) -> str:
            cand, n = wanted, 2
            while cand in used:
                cand, n = f"{wanted}~{n}", n + 1
            used.add(cand)
            return cand

        self.tiles: dict[str, TileAsset] = {}
        rekey: dict[str, str] = {}
        for key, tile in board.tiles.items():
            have = target.tiles.get(key)
            if have is not None and have.to_json() == tile.to_json():
                continue
            new, n = key, 2
            while new in target.tiles or new in self.tiles:
                new, n = f"{key}~{n}", n + 1
            t = copy.deepcopy(tile)
            t.key = new
            self.tiles[new] = t
            rekey[key] = new
        self.placements = [
            Placement(fresh(p.id), rekey.get(p.tile, p.tile), p.x, p.y, p.turns)
            for p in board.placements
        ]
        renamed = {f.id: fresh(f.id) for f in board.features}
        ids_props = {
            k for row in prop_table().values() for k, v in row.items() if v["type"] == "ids"
        }
        self.features = []
        for f in board.features:
            props = copy.deepcopy(f.props)
            for k in ids_props & props.keys():
                if isinstance(props[k], list):
                    props[k] = [renamed.get(i, i) for i in props[k]]
            self.features.append(Feature(renamed[f.id], f.kind, f.geometry, props))
        self.images = [
            (i, board.images.data(i.id) if board.images.has_data(i.id) else None)
            for i in board.images
            if i.id not in target.images
        ]
        self.piece_types = {
            k: v for k, v in board.piece_types.items() if k not in target.piece_types
        }
        self.decks = {k: v for k, v in board.decks.items() if k not in target.decks}
        self.background = board.background if target.background is None else None
        self.keys = {f"p:{p.id}" for p in self.placements} | {f"f:{f.id}" for f in self.features}

    def redo(self) -> None:
        b = self.doc.board
        for info, data in self.images:
            b.images.register(info, data)
        b.tiles.update(self.tiles)
        b.placements.extend(self.placements)
        b.features.extend(self.features)
        b.piece_types.update(self.piece_types)
        b.decks.update(self.decks)
        if self.background is not None:
            b.background = self.background
        self.doc.notify(set(self.keys), Change(full=True))

    def undo(self) -> None:
        b = self.doc.board
        ids = {id(x) for x in self.placements}
        b.placements = [p for p in b.placements if id(p) not in ids]
        ids = {id(x) for x in self.features}
        b.features = [f for f in b.features if id(f) not in ids]
        for k in self.tiles:
            b.tiles.pop(k, None)
        for k in self.piece_types:
            b.piece_types.pop(k, None)
        for k in self.decks:
            b.decks.pop(k, None)
        if self.background is not None and b.background is self.background:
            b.background = None
        for info, _ in self.images:
            if info.id in b.images:
                b.images.remove(info.id)
        self.doc.notify(set(self.keys), Change(full=True))
