"""Edit vertices: click a drawn feature to show its vertices; drag one (snapped) to move
it, double-click an edge to insert a vertex, right-click a vertex to delete it."""

from __future__ import annotations

import math

import shapely
from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtGui import QMouseEvent
from PySide6.QtWidgets import QMenu
from shapely.geometry.base import BaseGeometry

from ..commands import EditVerticesCommand
from ..snapping import Snapper
from .base import Tool, ToolContext, next_drag


def _coords(geom: BaseGeometry) -> tuple[list[tuple[float, float]], bool]:
    if geom.geom_type == "Polygon":
        return [tuple(c) for c in list(geom.exterior.coords)[:-1]], True
    if geom.geom_type == "LineString":
        return [tuple(c) for c in geom.coords], False
    return [], False


def _build(coords: list[tuple[float, float]], closed: bool) -> BaseGeometry:
    return shapely.Polygon(coords) if closed else shapely.LineString(coords)


class EditVerticesTool(Tool):
    """Click a shape, drag its vertices; double-click an edge adds one, right-click deletes one."""

    name = "vertices"
    label = "Edit vertices"
    shortcut = "E"
    cursor = Qt.CursorShape.ArrowCursor

    def __init__(self, ctx: ToolContext) -> None:
        super().__init__(ctx)
        self.fid: str | None = None
        self._vertex: int | None = None
        self._drag: int | None = None
        self._snapper: Snapper | None = None
        ctx.doc.changed.connect(self._refresh)

    def activate(self) -> None:
        super().activate()
        self._refresh(None)

    def _refresh(self, keys: object = None) -> None:
        f = self.doc.feature(self.fid) if self.fid else None
        if f is None:
            self.fid = None
            self.ctx.scene.preview.set_handles([])
            return
        cs, _ = _coords(f.geometry)
        self.ctx.scene.preview.set_handles([QPointF(x, y) for x, y in cs])

    def _vertex_at(self, pos: QPointF) -> int | None:
        f = self.doc.feature(self.fid) if self.fid else None
        if f is None:
            return None
        cs, _ = _coords(f.geometry)
        r = max(self.ctx.view.snap_radius(), 1.5)
        best, bd = None, r
        for i, (x, y) in enumerate(cs):
            d = math.hypot(x - pos.x(), y - pos.y())
            if d <= bd:
                best, bd = i, d
        return best

    def press(self, pos: QPointF, event: QMouseEvent) -> bool:
        if event.button() != Qt.MouseButton.LeftButton:
            return False
        v = self._vertex_at(pos)
        if v is not None:
            self._vertex = v
            self._drag = next_drag()
            self._snapper = Snapper(self.doc.board, exclude={self.fid} if self.fid else set())
            return True
        key = self.ctx.scene.key_at(pos)
        if key and key.startswith("f:"):
            f = self.doc.feature(key[2:])
            if f is not None and _coords(f.geometry)[0]:
                self.fid = f.id
                self.ctx.scene.select_keys({key})
                self._refresh()
                return True
        self.fid = None
        self._refresh()
        return True

    def move(self, pos: QPointF, event: QMouseEvent) -> bool:
        if self._vertex is None or self.fid is None:
            return False
        p, _ = self.snap(pos, event, self._snapper)
        self.set_vertex(self.fid, self._vertex, p.x(), p.y(), self._drag)
        return True

    def set_vertex(self, fid: str, i: int, x: float, y: float, drag: int | None = None) -> bool:
        """Move vertex ``i`` of feature ``fid`` to (x, y); False if the shape would be invalid."""
        f = self.doc.feature(fid)
        if f is None:
            return False
        cs, closed = _coords(f.geometry)
        cs[i] = (x, y)
        g = _build(cs, closed)
        if not g.is_valid:
            self.ctx.status("That would make the outline cross itself")
            return False
        self.doc.undo.push(EditVerticesCommand(self.doc, fid, g, drag))
        return True

    def release(self, pos: QPointF, event: QMouseEvent) -> bool:
        if self._vertex is None:
            return False
        self._vertex = None
        self._drag = None
        return True

    def double_click(self, pos: QPointF, event: QMouseEvent) -> bool:
        f = self.doc.feature(self.fid) if self.fid else None
        if f is None:
            return False
        cs, closed = _coords(f.geometry)
        ring = cs + ([cs[0]] if closed else [])
        best, bd = None, max(self.ctx.view.snap_radius(), 2.0)
        pt = shapely.Point(pos.x(), pos.y())
        for i in range(len(ring) - 1):
            d = shapely.LineString([ring[i], ring[i + 1]]).distance(pt)
            if d <= bd:
                best, bd = i, d
        if best is None:
            return True
        cs.insert(best + 1, (pos.x(), pos.y()))
        self.doc.undo.push(EditVerticesCommand(self.doc, f.id, _build(cs, closed)))
        return True

    def delete_vertex(self, fid: str, i: int) -> bool:
        f = self.doc.feature(fid)
        if f is None:
            return False
        cs, closed = _coords(f.geometry)
        if len(cs) <= (3 if closed else 2):
            self.ctx.status("Too few vertices left to delete one")
            return False
        del cs[i]
        g = _build(cs, closed)
        if not g.is_valid:
            self.ctx.status("Deleting that vertex would make the outline cross itself")
            return False
        self.doc.undo.push(EditVerticesCommand(self.doc, fid, g))
        return True

    def context_menu(self, pos: QPointF, global_pos: QPoint) -> bool:
        v = self._vertex_at(pos)
        if v is None or self.fid is None:
            return super().context_menu(pos, global_pos)
        menu = QMenu(self.ctx.view)
        act = menu.addAction("Delete vertex")
        fid = self.fid
        act.triggered.connect(lambda: self.delete_vertex(fid, v))
        menu.exec(global_pos)
        return True
