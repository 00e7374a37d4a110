"""Place a point-like feature: point, junction, door, river dot, bridge, label."""

from __future__ import annotations

import shapely
from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QMouseEvent

from referee.model import Feature

from ..commands import AddFeatureCommand
from ..connect import port_feature, tile_ports, tolerance
from ..snapping import Snapper
from .base import Tool, ToolContext

POINT_DEFAULTS: dict[str, dict[str, object]] = {
    "point": {"colour": "grey"},
    "junction": {},
    "door": {"symbol": "moon"},
    "river_dot": {},
    "bridge": {},
    "port": {},
    "label": {"text": "label", "size": 6},
}
PREFIX = {
    "point": "pt",
    "junction": "j",
    "door": "door",
    "river_dot": "dot",
    "bridge": "br",
    "port": "port",
    "label": "lbl",
}
SHORTCUTS = {
    "point": "N",
    "junction": "J",
    "door": "D",
    "river_dot": "Y",
    "bridge": "B",
    "port": "Q",
}


class PlacePointTool(Tool):
    """Click to place it (snaps to vertices and the grid; hold Alt to place freely)."""

    cursor = Qt.CursorShape.CrossCursor

    def __init__(self, ctx: ToolContext, kind: str = "point") -> None:
        super().__init__(ctx)
        self.kind = kind
        self.name = kind
        self.label = f"Place {kind.replace('_', ' ')}"
        self.shortcut = SHORTCUTS.get(kind, "")
        self.snapper: Snapper | None = None

    def activate(self) -> None:
        super().activate()
        self.snapper = None

    def _snapper(self) -> Snapper:
        if self.snapper is None:
            self.snapper = Snapper(self.doc.board)
        return self.snapper

    def move(self, pos: QPointF, event: QMouseEvent) -> bool:
        p, hit = self.snap(pos, event, self._snapper())
        self.ctx.scene.preview.set([], p, False, hit)
        return True

    def press(self, pos: QPointF, event: QMouseEvent) -> bool:
        if event.button() != Qt.MouseButton.LeftButton:
            return False
        p, _ = self.snap(pos, event, self._snapper())
        self.place(p.x(), p.y())
        return True

    def place(self, x: float, y: float) -> str:
        fid = self.doc.new_id(PREFIX.get(self.kind, "f"))
        feat = Feature(fid, self.kind, shapely.Point(x, y), dict(POINT_DEFAULTS.get(self.kind, {})))
        if self.kind == "port":
            # a port on a tile's port faces that tile (a frame piece's port)
            b = self.doc.board
            tol = tolerance(b)
            hit = next((q for q in tile_ports(b) if abs(q[1] - x) + abs(q[2] - y) <= tol), None)
            if hit is not None:
                feat = port_feature(b, fid, hit[1], hit[2], hit[3])
        self.doc.undo.push(AddFeatureCommand(self.doc, feat))
        self.snapper = None
        return fid
