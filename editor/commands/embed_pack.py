"""Embed an asset pack's tiles, pieces and decks in the board (one undo step).

A game's rules read their cards, dice and figures from the pack the project embeds
(Mount Doom's encounter decks, its dice): choosing a game's rules in the Inspector
embeds that game's pack when one is installed.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtGui import QUndoCommand

from referee.assets import AssetPack

from ..document import Document
from ..live import Change


class EmbedPackCommand(QUndoCommand):
    """Copy ``pack``'s assets into the board; undo restores the board's own."""

    def __init__(self, doc: Document, pack: AssetPack) -> None:
        super().__init__(f"Embed the {pack.id} pack")
        self.doc, self.pack = doc, pack
        b = doc.board
        self.tiles = dict(b.tiles)
        self.piece_types: dict[str, dict[str, Any]] = dict(b.piece_types)
        self.decks: dict[str, dict[str, Any]] = dict(b.decks)

    def redo(self) -> None:
        self.pack.embed_into(self.doc.board)
        self.doc.notify({"meta"}, Change(full=True))

    def undo(self) -> None:
        b = self.doc.board
        b.tiles.clear()
        b.tiles.update(self.tiles)
        b.piece_types.clear()
        b.piece_types.update(self.piece_types)
        b.decks.clear()
        b.decks.update(self.decks)
        self.doc.notify({"meta"}, Change(full=True))


def pack_needed(doc: Document, pack: AssetPack) -> bool:
    """Whether the board lacks some of ``pack``'s pieces or decks."""
    b = doc.board
    return bool(set(pack.piece_types) - set(b.piece_types) or set(pack.decks) - set(b.decks))
