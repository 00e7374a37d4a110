"""Draw a path, river or road polyline: click vertices (snapped to points, ports and
vertices), double-click or Enter to finish, Backspace to remove a vertex, Esc to cancel."""

from __future__ import annotations

import shapely
from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QKeyEvent, QMouseEvent

from referee.model import Feature

from ..commands import AddFeatureCommand
from ..snapping import Snapper
from .base import Tool

LINE_DEFAULTS = {"path": {"medium": "land"}, "river": {}, "road": {}, "track": {}}


class DrawLineTool(Tool):
    """Click vertices (they snap to points, ports and vertices), double-click or Enter to finish."""

    cursor = Qt.CursorShape.CrossCursor

    def __init__(self, ctx, kind: str = "path") -> None:  # type: ignore[no-untyped-def]
        super().__init__(ctx)
        self.kind = kind
        self.name = kind
        self.label = f"Draw {kind}"
        self.shortcut = {"path": "P", "river": "I", "road": "O", "track": ""}.get(kind, "")
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
        if not self.points or (p - self.points[-1]).manhattanLength() > 1e-6:
            self.points.append(p)
        self.ctx.scene.preview.set(self.points, p, False)
        return True

    def move(self, pos: QPointF, event: QMouseEvent) -> bool:
        p, hit = self.snap(pos, event, self._snapper())
        self.ctx.scene.preview.set(self.points, p, False, hit)
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
            self.ctx.scene.preview.set(self.points, None, False)
            return True
        return False

    def cancel(self) -> None:
        self.points = []
        self.ctx.scene.preview.set([], None, False)

    def add_line(self, coords: list[tuple[float, float]]) -> str | None:
        line = shapely.LineString(coords)
        if line.length <= 0:
            self.ctx.status(f"A {self.kind} needs two different ends")
            return None
        fid = self.doc.new_id({"path": "a", "river": "r", "road": "d", "track": "k"}[self.kind])
        self.doc.undo.push(AddFeatureCommand(self.doc, Feature(fid, self.kind, line,
                                                               dict(LINE_DEFAULTS[self.kind]))))
        self.snapper = None
        return fid

    def finish(self) -> None:
        pts = [(p.x(), p.y()) for p in self.points]
        dedup = [pt for i, pt in enumerate(pts) if i == 0 or pt != pts[i - 1]]
        self.cancel()
        if len(dedup) < 2:
            self.ctx.status(f"A {self.kind} needs at least two vertices")
            return
        self.add_line(dedup)
