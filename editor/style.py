"""How features look: colours per kind and terrain, and shapely → Qt path conversion.

Everything is in millimetres (scene units). Feature art for a tile is turned into a
list of *drawables* once per tile asset and cached, so painting a placed tile is a
handful of ``drawPath`` calls under the item's transform.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import shapely
from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QFont, QPainter, QPainterPath, QPen, QPolygonF
from shapely.geometry.base import BaseGeometry

from referee import palette
from referee.geometry import bearing_degrees, unit_vector
from referee.model import Feature

TERRAIN_FILL = {
    "open": "#e9e0b8",
    "forest": "#86ad6c",
    "mountain": "#b3a594",
    "ocean": "#86b6dc",
    "lake": "#a6cff0",
    None: "#e9e0b8",
}
TILE_FILL = "#d9cba3"
TILE_FIXED_FILL = "#c9b98f"
TILE_EDGE = "#6b5a3a"
PATH_LAND = "#7a5a2e"
PATH_WATER = "#2f6fc0"
RIVER = "#2f78d0"
ROAD = "#b8862e"
SELECT = "#ff8a00"
# the compiled-graph overlay: one palette with `referee render --graph`
RELATION_COLOURS = palette.RELATION_COLOURS
GRAPH_NODE = palette.NODE
#: Drawing order per kind (higher is on top).
Z_OF_KIND = {
    "art": -2.0,
    "space": -1.0,
    "counter_space": 0.5,
    "river": 2.0,
    "road": 2.5,
    "path": 3.0,
    "track": 3.0,
    "port": 3.5,
    "bridge": 4.0,
    "river_dot": 4.5,
    "junction": 5.0,
    "door": 5.0,
    "point": 6.0,
    "label": 7.0,
}
POINT_R = 4.0


@dataclass
class Drawable:
    """One primitive: a path with pen and brush, or a text."""

    path: QPainterPath | None
    pen: QPen
    brush: QBrush
    text: str | None = None
    at: QPointF | None = None
    size: float = 4.0


def geom_path(g: BaseGeometry) -> QPainterPath:
    """A QPainterPath of a shapely geometry (points become 0.5 mm dots)."""
    path = QPainterPath()
    path.setFillRule(Qt.FillRule.OddEvenFill)
    _add(path, g)
    return path


def _add(path: QPainterPath, g: BaseGeometry) -> None:
    t = g.geom_type
    if t == "Polygon":
        for ring in [g.exterior, *g.interiors]:
            xy = shapely.get_coordinates(ring).tolist()
            path.addPolygon(QPolygonF([QPointF(x, y) for x, y in xy]))
            path.closeSubpath()
    elif t in ("LineString", "LinearRing"):
        cs = list(g.coords)
        if cs:
            path.moveTo(*cs[0])
            for x, y in cs[1:]:
                path.lineTo(x, y)
    elif t == "Point":
        path.addEllipse(QPointF(g.x, g.y), 0.5, 0.5)
    elif hasattr(g, "geoms"):
        for part in g.geoms:
            _add(path, part)


def pen(
    colour: str, width: float, style: Qt.PenStyle = Qt.PenStyle.SolidLine, cosmetic: bool = False
) -> QPen:
    p = QPen(QColor(colour), width, style, Qt.PenCapStyle.RoundCap, Qt.PenJoinStyle.RoundJoin)
    p.setCosmetic(cosmetic)
    return p


NO_PEN = QPen(Qt.PenStyle.NoPen)
NO_BRUSH = QBrush(Qt.BrushStyle.NoBrush)


def _arrow(x: float, y: float, bearing: float, length: float, head: float) -> QPainterPath:
    ux, uy = unit_vector(bearing)
    px, py = -uy, ux
    tip = QPointF(x + ux * length, y + uy * length)
    path = QPainterPath()
    path.moveTo(
        x + ux * (length - head) + px * head * 0.6, y + uy * (length - head) + py * head * 0.6
    )
    path.lineTo(tip)
    path.lineTo(
        x + ux * (length - head) - px * head * 0.6, y + uy * (length - head) - py * head * 0.6
    )
    path.closeSubpath()
    return path


def drawables(f: Feature) -> list[Drawable]:
    """The primitives that draw one feature."""
    k, g, pr = f.kind, f.geometry, f.props
    out: list[Drawable] = []
    if k == "space":
        fill = QColor(TERRAIN_FILL.get(pr.get("terrain"), TERRAIN_FILL[None]))
        out.append(Drawable(geom_path(g), pen("#5b5140", 1.0, cosmetic=True), QBrush(fill)))
        if pr.get("city"):
            c = g.representative_point()
            col = {"good": "#2e7d32", "evil": "#8e1b1b"}.get(pr["city"], "#555555")
            sq = QPainterPath()
            sq.addRect(QRectF(c.x - 2.5, c.y - 2.5, 5, 5))
            out.append(Drawable(sq, pen("#222222", 0.4), QBrush(QColor(col))))
        if pr.get("name"):
            c = g.representative_point()
            out.append(
                Drawable(
                    None, pen("#333333", 0), NO_BRUSH, str(pr["name"]), QPointF(c.x, c.y + 5), 3.5
                )
            )
    elif k == "art":
        art_fill = pr.get("fill") or TERRAIN_FILL.get(pr.get("terrain"))
        brush = (
            QBrush(QColor(art_fill)) if art_fill and g.geom_type.endswith("Polygon") else NO_BRUSH
        )
        out.append(Drawable(geom_path(g), pen(pr.get("stroke") or "#7d6e50", 0.6), brush))
    elif k == "counter_space":
        out.append(
            Drawable(
                geom_path(g),
                pen("#4b4b4b", 0.8, Qt.PenStyle.DashLine),
                QBrush(QColor(255, 255, 255, 90)),
            )
        )
    elif k == "path":
        water = pr.get("medium") == "water"
        out.append(Drawable(geom_path(g), pen("#f5efe0", 3.2), NO_BRUSH))
        out.append(
            Drawable(
                geom_path(g),
                pen(
                    PATH_WATER if water else PATH_LAND,
                    2.0,
                    Qt.PenStyle.DashLine if water else Qt.PenStyle.SolidLine,
                ),
                NO_BRUSH,
            )
        )
        if pr.get("guard"):
            mid = g.interpolate(0.5, normalized=True)
            web = QPainterPath()
            web.addEllipse(QPointF(mid.x, mid.y), 3.0, 3.0)
            out.append(Drawable(web, pen("#111111", 0.6), QBrush(QColor("#c62828"))))
    elif k == "river":
        out.append(Drawable(geom_path(g), pen(RIVER, 2.6), NO_BRUSH))
    elif k == "road":
        out.append(Drawable(geom_path(g), pen(ROAD, 1.6, Qt.PenStyle.DashLine), NO_BRUSH))
    elif k == "track":
        out.append(Drawable(geom_path(g), pen("#6d4c41", 2.0), NO_BRUSH))
    elif k == "port":
        p = QPainterPath()
        p.addEllipse(QPointF(g.x, g.y), 1.2, 1.2)
        out.append(Drawable(p, pen("#8d7a55", 0.4), NO_BRUSH))
    elif k == "junction":
        p = QPainterPath()
        p.addEllipse(QPointF(g.x, g.y), 1.6, 1.6)
        out.append(Drawable(p, NO_PEN, QBrush(QColor("#3b2a14"))))
        if pr.get("forced_right"):
            out.append(Drawable(_arrow(g.x, g.y, 90.0, 5.0, 2.0), NO_PEN, QBrush(QColor("#111"))))
    elif k == "door":
        p = QPainterPath()
        p.addRoundedRect(QRectF(g.x - 3, g.y - 3, 6, 6), 1, 1)
        out.append(Drawable(p, pen("#222222", 0.5), QBrush(QColor("#6d5d8c"))))
        sym = {"moon": "☾", "star": "★"}.get(str(pr.get("symbol")), "?")
        out.append(Drawable(None, pen("#ffffff", 0), NO_BRUSH, sym, QPointF(g.x, g.y), 4.0))
    elif k == "river_dot":
        p = QPainterPath()
        p.addEllipse(QPointF(g.x, g.y), 2.4, 2.4)
        out.append(Drawable(p, pen("#5a0000", 0.4), QBrush(QColor("#d32f2f"))))
    elif k == "bridge":
        p = QPainterPath()
        p.addRect(QRectF(g.x - 3.5, g.y - 1.5, 7, 3))
        out.append(Drawable(p, pen("#3e2723", 0.4), QBrush(QColor("#8d6e63"))))
    elif k == "point":
        black = pr.get("colour") == "black"
        if pr.get("wind") is not None:
            out.append(
                Drawable(
                    _arrow(g.x, g.y, bearing_degrees(pr["wind"]), 8.5, 3.0),
                    NO_PEN,
                    QBrush(QColor("#1e88e5")),
                )
            )
        p = QPainterPath()
        p.addEllipse(QPointF(g.x, g.y), POINT_R, POINT_R)
        ring = pen(
            "#f5f5f5" if pr.get("start") == "white" else "#222222", 1.2 if pr.get("start") else 0.5
        )
        out.append(Drawable(p, ring, QBrush(QColor("#262626" if black else "#bdbdbd"))))
        if pr.get("magic"):
            m = QPainterPath()
            m.addEllipse(QPointF(g.x, g.y), POINT_R + 1.3, POINT_R + 1.3)
            out.append(Drawable(m, pen("#7e57c2", 1.0, Qt.PenStyle.DotLine), NO_BRUSH))
        if pr.get("heading") is not None:
            ux, uy = unit_vector(bearing_degrees(pr["heading"]))
            h = QPainterPath()
            h.moveTo(g.x, g.y)
            h.lineTo(g.x + ux * (POINT_R - 0.5), g.y + uy * (POINT_R - 0.5))
            out.append(Drawable(h, pen("#ffffff", 0.9), NO_BRUSH))
        if pr.get("goal"):
            out.append(Drawable(None, pen("#b71c1c", 0), NO_BRUSH, "◎", QPointF(g.x, g.y), 5.0))
    elif k == "label":
        out.append(
            Drawable(
                None,
                pen("#333333", 0),
                NO_BRUSH,
                str(pr.get("text", "")),
                QPointF(g.x, g.y),
                float(pr.get("size") or 5.0),
            )
        )
    else:  # unknown: a thin outline
        out.append(Drawable(geom_path(g), pen("#555555", 0.5), NO_BRUSH))
    return out


def paint_drawables(painter: QPainter, items: list[Drawable], lod: float = 1.0) -> None:
    """Paint primitives; texts are skipped when they would be unreadably small."""
    for d in items:
        if d.path is not None:
            painter.setPen(d.pen)
            painter.setBrush(d.brush)
            painter.drawPath(d.path)
        elif d.text and d.at is not None and d.size * lod >= 5:
            font = QFont()
            font.setPointSizeF(max(d.size, 0.5))
            painter.setFont(font)
            painter.setPen(d.pen)
            half = max(40.0, 0.6 * d.size * len(d.text))
            r = QRectF(d.at.x() - half, d.at.y() - d.size, 2 * half, 2 * d.size)
            painter.drawText(r, Qt.AlignmentFlag.AlignCenter, d.text)


def feature_bounds(f: Feature) -> QRectF:
    x0, y0, x1, y1 = f.geometry.bounds
    m = 10.0 if f.kind == "point" else 4.0
    return QRectF(x0 - m, y0 - m, (x1 - x0) + 2 * m, (y1 - y0) + 2 * m)


def hexagon(x: float, y: float, r: float) -> QPolygonF:
    return QPolygonF(
        [
            QPointF(
                x + r * math.cos(math.radians(60 * i + 30)),
                y + r * math.sin(math.radians(60 * i + 30)),
            )
            for i in range(6)
        ]
    )


def any_to_str(v: Any) -> str:
    return "" if v is None else str(v)
