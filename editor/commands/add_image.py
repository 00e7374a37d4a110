"""Add a picture to the board's image store, and put it to use, as one undo step."""

from __future__ import annotations

from PySide6.QtGui import QUndoCommand

from referee.images import ImageInfo

from ..document import Document
from ..live import Change


class AddImageCommand(QUndoCommand):
    """Store image ``info`` (with its bytes) in the board, then apply ``use`` — the
    command that puts it to use (set the background, add an ``art`` feature, show it
    on an existing one).

    Undo undoes ``use``, then forgets the image if this command added it.
    """

    def __init__(
        self, doc: Document, info: ImageInfo, data: bytes, use: QUndoCommand, text: str
    ) -> None:
        super().__init__(text)
        self.doc = doc
        self.info = info
        self.data = data
        self.use = use
        self._added = False

    def redo(self) -> None:
        store = self.doc.board.images
        self._added = self.info.id not in store
        if self._added:
            store.register(self.info, self.data)
        self.use.redo()

    def undo(self) -> None:
        self.use.undo()
        if self._added and self.info.id in self.doc.board.images:
            self.doc.board.images.remove(self.info.id)
            self.doc.notify({"bg"}, Change())
