"""Move a piece from the node it stands on to another; a drag merges into one step."""

from __future__ import annotations

from PySide6.QtGui import QUndoCommand

from ..document import Document
from ..live import Change
from .merge_ids import PIECE_MOVE_ID


class MovePieceCommand(QUndoCommand):
    """Stand piece ``piece_id`` on node ``to`` (a point, a space or a river dot).

    Consecutive moves of the same piece with the same ``drag`` token (one mouse
    drag over several nodes) merge into one undo step that goes from the node the
    drag started on to the node it ended on.
    """

    def __init__(
        self, doc: Document, piece_id: str, to: str | None, drag: int | None = None
    ) -> None:
        piece = doc.piece(piece_id)
        if piece is None:
            raise KeyError(piece_id)
        super().__init__(f"Move piece {piece_id}")
        self.doc = doc
        self.piece_id = piece_id
        self.before = piece.at
        self.after = to
        self.drag = drag

    def id(self) -> int:
        return PIECE_MOVE_ID if self.drag is not None else -1

    def mergeWith(self, other: QUndoCommand) -> bool:
        if (
            not isinstance(other, MovePieceCommand)
            or other.drag != self.drag
            or other.piece_id != self.piece_id
        ):
            return False
        self.after = other.after
        return True

    def _set(self, at: str | None) -> None:
        piece = self.doc.piece(self.piece_id)
        if piece is not None:
            piece.at = at
        self.doc.notify({f"c:{self.piece_id}"}, Change())

    def redo(self) -> None:
        self._set(self.after)

    def undo(self) -> None:
        self._set(self.before)
