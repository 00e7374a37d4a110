"""Draw a space polygon: click vertices (snapped to existing vertices and the grid);
double-click, Enter, or a click on the first vertex closes it; Backspace removes the
last vertex; Esc cancels."""

from __future__ import annotations

from typing import ClassVar

import shapely

from referee.model import Feature

from ..commands import AddFeatureCommand
from .vertices_input import VertexInputTool


class DrawSpaceTool(VertexInputTool):
    """Click corners (they snap to existing corners), double-click or Enter to close, Esc to cancel."""

    name = "space"
    label = "Draw space"
    shortcut = "S"
    kind = "space"
    closed = True
    defaults: ClassVar[dict[str, object]] = {"terrain": "open"}

    def add_polygon(self, coords: list[tuple[float, float]]) -> str | None:
        """Add a space with these vertices; returns its id, or None (status says why)."""
        poly = shapely.Polygon(coords)
        if not poly.is_valid or poly.area <= 0:
            self.ctx.status("That outline crosses itself or has no area: not added")
            return None
        fid = self.doc.new_id("s")
        self.doc.undo.push(
            AddFeatureCommand(self.doc, Feature(fid, self.kind, poly, dict(self.defaults)))
        )
        self.snapper = None
        return fid

    def finish(self) -> None:
        dedup = self.take_vertices()
        if len(dedup) < 3:
            self.ctx.status("A space needs at least three corners")
            return
        self.add_polygon(dedup)
