"""Delete: click an item to delete it."""

from __future__ import annotations

from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QMouseEvent

from ..commands import DeleteCommand
from .base import Tool


class DeleteTool(Tool):
    """Click an item to delete it (Ctrl+Z brings it back)."""

    name = "delete"
    label = "Delete"
    shortcut = "X"
    cursor = Qt.CursorShape.ForbiddenCursor

    def press(self, pos: QPointF, event: QMouseEvent) -> bool:
        if event.button() != Qt.MouseButton.LeftButton:
            return False
        key = self.ctx.scene.key_at(pos)
        if key is not None:
            self.doc.undo.push(DeleteCommand(self.doc, {key}))
        return True
