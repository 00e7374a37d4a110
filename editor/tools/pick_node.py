"""Pick a point on the canvas for a dock (the Rotations dock's From and To)."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtGui import QKeyEvent, QMouseEvent

from .base import Tool, ToolContext

#: what a pick may name: the places a path network stops at
PICKABLE = ("point", "junction", "door")


class PickNodeTool(Tool):
    """Click a point, junction or door to pick it (again to unpick); Esc ends picking."""

    name = "pick"
    label = "Pick a point"
    cursor = Qt.CursorShape.CrossCursor

    def __init__(
        self, ctx: ToolContext, on_pick: Callable[[str], None], on_end: Callable[[], None]
    ) -> None:
        super().__init__(ctx)
        self.on_pick = on_pick
        self.on_end = on_end

    def node_at(self, pos: QPointF) -> str | None:
        """The nearest point, junction or door within the snap radius of ``pos``."""
        self.doc.recompile_now()
        c = self.doc.compiled
        radius = max(6.0, self.ctx.view.snap_radius())
        for n in c.hit(pos.x(), pos.y(), radius):
            if c.graph.nodes[n].get("kind") in PICKABLE:
                return n
        return None

    def press(self, pos: QPointF, event: QMouseEvent) -> bool:
        if event.button() == Qt.MouseButton.RightButton:
            self.on_end()
            return True
        if event.button() != Qt.MouseButton.LeftButton:
            return False
        node = self.node_at(pos)
        if node is None:
            self.ctx.status("Click a point, junction or door (Esc ends picking)")
        else:
            self.on_pick(node)
        return True

    def key(self, event: QKeyEvent) -> bool:
        if event.key() == Qt.Key.Key_Escape:
            self.on_end()
            return True
        return False

    def context_menu(self, pos: QPointF, global_pos: QPoint) -> bool:
        return True  # right click ends picking (press), no menu
