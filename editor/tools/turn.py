"""Turn tiles: click a tile to turn it clockwise, Shift+click anticlockwise.

The same turn is on R / Shift+R and in the context menu for the selection.
"""

from __future__ import annotations

from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QMouseEvent

from ..commands import TurnCommand
from ..document import Document
from .base import Tool


def turn_selection(doc: Document, keys: set[str], delta: int) -> bool:
    """Turn the selected tiles by ``delta`` steps; False if none of them can turn."""
    pids = sorted(k[2:] for k in keys if k.startswith("p:"))
    cmd = TurnCommand(doc, pids, delta)
    if not cmd.pids:
        return False
    doc.undo.push(cmd)
    return True


class TurnTool(Tool):
    """Click a tile to turn it clockwise, Shift+click anticlockwise (R / Shift+R turn the selection)."""

    name = "turn"
    label = "Turn tile"
    shortcut = "T"
    cursor = Qt.CursorShape.PointingHandCursor

    def press(self, pos: QPointF, event: QMouseEvent) -> bool:
        if event.button() != Qt.MouseButton.LeftButton:
            return False
        key = self.ctx.scene.key_at(pos)
        if key is None or not key.startswith("p:"):
            self.ctx.status("Click a tile to turn it (Shift+click turns it anticlockwise)")
            return True
        delta = -1 if event.modifiers() & Qt.KeyboardModifier.ShiftModifier else 1
        if not turn_selection(self.doc, {key}, delta):
            self.ctx.status(f"Tile {key[2:]} never turns")
        return True
