"""Draw a space polygon: click vertices (snapped to existing vertices and the grid);
double-click, Enter, or a click on the first vertex closes it; Backspace removes the
last vertex; Esc cancels."""

from __future__ import annotations

import shapely
from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QKeyEvent, QMouseEvent

from referee.model import Feature

from ..commands import AddFeatureCommand
from ..snapping import Snapper
from .base import Tool


class DrawSpaceTool(Tool):
    """Click corners (they snap to existing corners), double-click or Enter to close, Esc to cancel."""

    name = "space"
    label = "Draw space"
    shortcut = "S"
    cursor = Qt.CursorShape.CrossCursor
    kind = "space"
    defaults: dict = {"terrain": "open"}

    def __init__(self, ctx) -> None:  # type: ignore[no-untyped-def]
        super().__init__(ctx)
        self.points: list[QPointF] = []
        self.snapper: Snapper | None = None

    def activate(self) -> None:
        super().activate()
        self.points = []
        self.snapper = None

    def _snapper(self) -> Snapper:
        if self.snapper is None:
            self.snapper = Snapper(self.doc.board)
        return self.snapper

    def press(self, pos: QPointF, event: QMouseEvent) -> bool:
        if event.button() != Qt.MouseButton.LeftButton:
            return False
        p, _ = self.snap(pos, event, self._snapper())
        if len(self.points) >= 3 and (p - self.points[0]).manhattanLength() < 1e-6:
            self.finish()
            return True
        if not self.points or (p - self.points[-1]).manhattanLength() > 1e-6:
            self.points.append(p)
        self.ctx.scene.preview.set(self.points, p, True)
        return True

    def move(self, pos: QPointF, event: QMouseEvent) -> bool:
        p, hit = self.snap(pos, event, self._snapper())
        self.ctx.scene.preview.set(self.points, p if self.points else None, True, hit)
        if not self.points:
            self.ctx.scene.preview.set([], p, True, hit)
        return True

    def double_click(self, pos: QPointF, event: QMouseEvent) -> bool:
        self.finish()
        return True

    def key(self, event: QKeyEvent) -> bool:
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
            self.finish()
            return True
        if event.key() == Qt.Key.Key_Escape:
            self.cancel()
            return True
        if event.key() == Qt.Key.Key_Backspace and self.points:
            self.points.pop()
            self.ctx.scene.preview.set(self.points, None, True)
            return True
        return False

    def cancel(self) -> None:
        self.points = []
        self.ctx.scene.preview.set([], None, True)

    def add_polygon(self, coords: list[tuple[float, float]]) -> str | None:
        """Add a space with these vertices; returns its id, or None (status says why)."""
        poly = shapely.Polygon(coords)
        if not poly.is_valid or poly.area <= 0:
            self.ctx.status("That outline crosses itself or has no area: not added")
            return None
        if not poly.exterior.is_ccw:
            pass  # orientation does not matter to the compiler
        fid = self.doc.new_id("s")
        self.doc.undo.push(AddFeatureCommand(self.doc, Feature(fid, self.kind, poly,
                                                               dict(self.defaults))))
        self.snapper = None
        return fid

    def finish(self) -> None:
        pts = [(p.x(), p.y()) for p in self.points]
        # a double click adds the same vertex twice
        dedup = [pt for i, pt in enumerate(pts) if i == 0 or pt != pts[i - 1]]
        if len(dedup) > 1 and dedup[0] == dedup[-1]:
            dedup.pop()
        self.cancel()
        if len(dedup) < 3:
            self.ctx.status("A space needs at least three corners")
            return
        self.add_polygon(dedup)
