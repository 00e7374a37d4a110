"""Rename a free-standing feature, with every reference to it on the board.

The track games find their tracks by id (``route``, ``resolve``…), so a track drawn
with the Draw track tool is renamed in the Inspector. References follow: the
``points`` of tracks and every other list-of-ids property, and pieces standing on
the feature.
"""

from __future__ import annotations

from PySide6.QtGui import QUndoCommand

from referee.errors import BoardError
from referee.model import prop_table

from ..document import Document
from ..live import Change


class RenameFeatureCommand(QUndoCommand):
    """Rename feature ``old`` to ``new``.

    Raises
    ------
    BoardError
        ``new`` is empty, has a ``/`` or is the id of another feature (nothing changes).
    """

    def __init__(self, doc: Document, old: str, new: str) -> None:
        super().__init__(f"Rename {old} to {new}")
        if not new or "/" in new or new != new.strip():
            raise BoardError(
                f"id {new!r} must be a non-empty name without '/' or outer spaces",
                code="bad_id",
                location=old,
            )
        taken = {f.id for f in doc.board.features} | {p.id for p in doc.board.placements}
        if new != old and new in taken:
            raise BoardError(
                f"id {new!r} is taken by another feature or tile", code="bad_id", location=old
            )
        self.doc, self.old, self.new = doc, old, new

    def _refs(self) -> list[tuple[str, str]]:
        """``(feature id, property)`` of the list-of-ids properties on the board."""
        table = prop_table()
        out = []
        for f in self.doc.board.features:
            specs = table.get(f.kind, {})
            for key, value in f.props.items():
                if isinstance(value, list) and (
                    key == "points" or specs.get(key, {}).get("type") == "ids"
                ):
                    out.append((f.id, key))
        return out

    def _swap(self, a: str, b: str) -> None:
        board = self.doc.board
        keys = {f"f:{a}", f"f:{b}"}
        for f in board.features:
            if f.id == a:
                f.id = b
        for fid, key in self._refs():
            ref = self.doc.feature(fid)
            if ref is not None and a in ref.props[key]:
                ref.props[key] = [b if i == a else i for i in ref.props[key]]
                keys.add(f"f:{fid}")
        for pc in board.pieces:
            if pc.at == a:
                pc.at = b
                keys.add(f"c:{pc.id}")
        self.doc.notify(keys, Change(full=True))

    def redo(self) -> None:
        self._swap(self.old, self.new)

    def undo(self) -> None:
        self._swap(self.new, self.old)
