"""Draw a path, river or road polyline: click vertices (snapped to points, ports and
vertices), double-click or Enter to finish, Backspace to remove a vertex, Esc to cancel."""

from __future__ import annotations

import shapely

from referee.model import Feature

from ..commands import AddFeatureCommand, AddFeaturesCommand
from ..connect import ports_for_ends
from .base import ToolContext
from .vertices_input import VertexInputTool

LINE_DEFAULTS = {"path": {"medium": "land"}, "river": {}, "road": {}, "track": {}}


class DrawLineTool(VertexInputTool):
    """Click vertices (they snap to points, ports and vertices), double-click or Enter to finish."""

    def __init__(self, ctx: ToolContext, kind: str = "path") -> None:
        super().__init__(ctx)
        self.kind = kind
        self.name = kind
        self.label = f"Draw {kind}"
        self.shortcut = {"path": "P", "river": "I", "road": "O", "track": ""}.get(kind, "")

    def add_line(self, coords: list[tuple[float, float]]) -> str | None:
        line = shapely.LineString(coords)
        if line.length <= 0:
            self.ctx.status(f"A {self.kind} needs two different ends")
            return None
        fid = self.doc.new_id({"path": "a", "river": "r", "road": "d", "track": "k"}[self.kind])
        feat = Feature(fid, self.kind, line, dict(LINE_DEFAULTS[self.kind]))
        # a path end on a tile's port gets a free port there, so it links to the tile
        ports = (
            ports_for_ends(self.doc.board, coords, lambda: self.doc.new_id("port"))
            if self.kind == "path"
            else []
        )
        if ports:
            self.doc.undo.push(
                AddFeaturesCommand(
                    self.doc,
                    [feat, *ports],
                    f"Add path {fid} joined to {len(ports)} tile port"
                    + ("s" if len(ports) > 1 else ""),
                )
            )
            self.ctx.status(f"Path {fid} joined to the tile port it ends on")
        else:
            self.doc.undo.push(AddFeatureCommand(self.doc, feat))
        self.snapper = None
        return fid

    def finish(self) -> None:
        dedup = self.take_vertices()
        if len(dedup) < 2:
            self.ctx.status(f"A {self.kind} needs at least two vertices")
            return
        self.add_line(dedup)
