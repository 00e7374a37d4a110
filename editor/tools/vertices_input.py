"""What the drawing tools share: collecting snapped vertices with a live preview.

:class:`DrawLineTool` (open polylines) and :class:`DrawSpaceTool` (closed polygons)
differ only in ``closed``, in what a click on the first vertex means, and in what
:meth:`VertexInputTool.finish` builds from the vertices.
"""

from __future__ import annotations

from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QKeyEvent, QMouseEvent

from ..snapping import Snapper
from .base import Tool, ToolContext


class VertexInputTool(Tool):
    """Click vertices (snapped), double-click or Enter to finish, Backspace to drop the
    last one, Esc to cancel."""

    cursor = Qt.CursorShape.CrossCursor
    #: a closed outline (a space) rather than an open line
    closed = False

    def __init__(self, ctx: ToolContext) -> None:
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
        if self.closed and len(self.points) >= 3 and (p - self.points[0]).manhattanLength() < 1e-6:
            self.finish()  # a click on the first corner closes the outline
            return True
        if not self.points or (p - self.points[-1]).manhattanLength() > 1e-6:
            self.points.append(p)
        self.ctx.scene.preview.set(self.points, p, self.closed)
        return True

    def move(self, pos: QPointF, event: QMouseEvent) -> bool:
        p, hit = self.snap(pos, event, self._snapper())
        if self.closed and not self.points:
            self.ctx.scene.preview.set([], p, True, hit)
        else:
            self.ctx.scene.preview.set(self.points, p, self.closed, hit)
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
            self.ctx.scene.preview.set(self.points, None, self.closed)
            return True
        return False

    def cancel(self) -> None:
        self.points = []
        self.ctx.scene.preview.set([], None, self.closed)

    def take_vertices(self) -> list[tuple[float, float]]:
        """The clicked vertices without repeats (a double click adds one twice), and the
        input reset."""
        pts = [(p.x(), p.y()) for p in self.points]
        dedup = [pt for i, pt in enumerate(pts) if i == 0 or pt != pts[i - 1]]
        if self.closed and len(dedup) > 1 and dedup[0] == dedup[-1]:
            dedup.pop()
        self.cancel()
        return dedup

    def finish(self) -> None:
        """Build the feature from the vertices; each drawing tool defines what."""
        self.cancel()
