"""Change the geometry of a free-standing feature (dragging its vertices)."""

from __future__ import annotations

from PySide6.QtGui import QUndoCommand
from shapely.geometry.base import BaseGeometry

from ..document import Document
from ..live import Change
from .merge_ids import VERTEX_ID


class EditVerticesCommand(QUndoCommand):
    """Replace the geometry of feature ``fid``; one vertex drag merges into one step."""

    def __init__(self, doc: Document, fid: str, new: BaseGeometry, drag: int | None = None) -> None:
        super().__init__(f"Edit vertices of {fid}")
        self.doc = doc
        self.fid = fid
        f = doc.feature(fid)
        assert f is not None, fid
        self.old = f.geometry
        self.new = new
        self.drag = drag

    def id(self) -> int:
        return VERTEX_ID if self.drag is not None else -1

    def mergeWith(self, other: QUndoCommand) -> bool:
        if (
            not isinstance(other, EditVerticesCommand)
            or other.drag != self.drag
            or other.fid != self.fid
        ):
            return False
        self.new = other.new
        return True

    def _set(self, geom: BaseGeometry) -> None:
        f = self.doc.feature(self.fid)
        assert f is not None
        f.geometry = geom
        ch = Change(spaces={f.id}) if f.kind == "space" else Change(full=True)
        self.doc.notify({f"f:{self.fid}"}, ch)

    def redo(self) -> None:
        self._set(self.new)

    def undo(self) -> None:
        self._set(self.old)
