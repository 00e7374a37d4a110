"""How features look: colours per kind and terrain, and shapely → Qt path conversion.

Node kinds and game properties (black points, wind arrows, doors, cities, terrain
fills...) are drawn from the rules modules' symbols through the Qt-free
:mod:`referee.palette` (:func:`symbol_drawables`), as ``referee render`` draws them:
a new game's symbols need no code here. The rules modules' editor-drawn pictures (the
track games' spaces, stage goals, event symbols, resolve-track ends and names) come
from the very elements ``render`` writes (:func:`referee.render.primitives.feature_primitives`,
painted by :mod:`editor.primitives`) and stand in for the plain symbols they cover.

Everything is in millimetres (scene units). Feature art for a tile is turned into a
list of *drawables* once per tile asset and cached, so painting a placed tile is a
handful of ``drawPath`` calls under the item's transform.
"""

from __future__ import annotations

import math
from typing import Any

import shapely
from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import (
    QBrush,
    QColor,
    QFont,
    QFontMetricsF,
    QPainter,
    QPainterPath,
    QPen,
    QPolygonF,
)
from shapely.geometry.base import BaseGeometry

from referee import palette
from referee.model import Feature
from referee.render import FONTS
from referee.render import TERRAIN as render_terrain
from referee.render.primitives import feature_primitives

from .drawable import NO_BRUSH as NO_BRUSH
from .drawable import NO_PEN as NO_PEN
from .drawable import Drawable as Drawable
from .primitives import drawables as picture_drawables

#: the families of a picture's text, as render names them (``Georgia, DejaVu Serif, …``)
FONT_FAMILIES = [f.strip() for f in FONTS.split(",") if f.strip() != "serif"]

#: a space no ``area`` symbol fills (the rules modules' terrains do, referee.palette)
SPACE_FILL = "#e9e0b8"
#: art by terrain name (the ``terrain`` of an art feature: pictures, not rules) ->
#: (fill, stroke): the one table ``referee render`` draws tile art with, so a tile
#: (the Mountain of Fire's volcano and lava) looks the same in both
TERRAIN = render_terrain
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


def drawables(f: Feature) -> list[Drawable]:
    """The primitives that draw one feature."""
    k, g, pr = f.kind, f.geometry, f.props
    out: list[Drawable] = []
    if k == "space":
        fill = QColor(_area_fill(f) or SPACE_FILL)
        out.append(Drawable(geom_path(g), pen("#5b5140", 1.0, cosmetic=True), QBrush(fill)))
        if pr.get("name"):
            c = g.representative_point()
            out.append(
                Drawable(
                    None, pen("#333333", 0), NO_BRUSH, str(pr["name"]), QPointF(c.x, c.y + 5), 3.5
                )
            )
    elif k == "art":
        art, stroke = TERRAIN.get(str(pr.get("terrain") or ""), ("#cbbf95", "#7d6f48"))
        art_fill = pr.get("fill") or art
        brush = QBrush(QColor(art_fill)) if g.geom_type.endswith("Polygon") else NO_BRUSH
        out.append(Drawable(geom_path(g), pen(pr.get("stroke") or stroke, 0.6), brush))
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
    elif k in ("junction", "door"):
        pass  # drawn by their symbols (referee.palette), below
    elif k == "river_dot":
        pass  # drawn by its symbols (referee.palette), below
    elif k == "bridge":
        p = QPainterPath()
        p.addRect(QRectF(g.x - 3.5, g.y - 1.5, 7, 3))
        out.append(Drawable(p, pen("#3e2723", 0.4), QBrush(QColor("#8d6e63"))))
    elif k == "point":
        pass  # drawn by its symbols (referee.palette), below
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
    prims = feature_primitives(f.id, f)
    if prims:  # render's pictures and the symbols it draws beside them, as render has them
        out.extend(picture_drawables(prims))
    else:
        out.extend(symbol_drawables(f))
    return out


def _area_fill(f: Feature) -> str | None:
    """The colour of the last ``area`` symbol that matches ``f`` (a space's terrain)."""
    fills = [s.colour for _, s in palette.feature_symbols(f.kind, f.props) if s.shape == "area"]
    return fills[-1] if fills else None


def symbol_drawables(f: Feature) -> list[Drawable]:
    """The primitives of the symbols that draw ``f`` (:func:`referee.palette.feature_symbols`,
    the rules modules' ``symbols``), bottom first; ``area`` symbols fill the feature
    itself (see :func:`drawables`)."""
    out: list[Drawable] = []
    x, y = palette.symbol_anchor(f.geometry)
    at = QPointF(x, y)
    for key, sym in palette.feature_symbols(f.kind, f.props):
        edge = pen(sym.stroke, 0.5) if sym.stroke else NO_PEN
        fill = QBrush(QColor(sym.colour))
        shape = sym.shape
        if shape == "area":
            continue
        if shape == "circle":
            p = QPainterPath()
            p.addEllipse(at, sym.size, sym.size)
            out.append(Drawable(p, edge, fill))
        elif shape == "ring":
            p = QPainterPath()
            p.addEllipse(at, sym.size, sym.size)
            out.append(Drawable(p, pen(sym.colour, 1.0), NO_BRUSH))
        elif shape in ("arrow", "tick"):
            bearing = palette.symbol_bearing(key, f.props)
            pts = palette.symbol_outline(sym, x, y, bearing)
            if not pts:
                continue
            if shape == "tick":
                p = QPainterPath(QPointF(*pts[0]))
                p.lineTo(QPointF(*pts[1]))
                out.append(Drawable(p, pen(sym.colour, 0.9), NO_BRUSH))
            else:
                shaft = QPainterPath(at)
                shaft.lineTo(QPointF((pts[0][0] + pts[2][0]) / 2, (pts[0][1] + pts[2][1]) / 2))
                out.append(Drawable(shaft, pen(sym.colour, 0.6), NO_BRUSH))
                out.append(Drawable(_polygon(pts), NO_PEN, fill))
        elif shape != "text":
            out.append(Drawable(_polygon(palette.symbol_outline(sym, x, y)), edge, fill))
        if sym.label:
            colour = sym.colour if shape == "text" else (sym.stroke or "#111111")
            size = sym.size if shape == "text" else sym.size * 1.2
            out.append(Drawable(None, pen(colour, 0), NO_BRUSH, sym.label, at, size))
    return out


def _polygon(pts: list[tuple[float, float]]) -> QPainterPath:
    p = QPainterPath()
    p.addPolygon(QPolygonF([QPointF(px, py) for px, py in pts]))
    p.closeSubpath()
    return p


#: the em of the font a picture's text is laid out in before it is scaled to its size
_EM = 100


def _picture_font(bold: bool) -> QFont:
    font = QFont(FONT_FAMILIES)
    font.setPixelSize(_EM)
    font.setBold(bold)
    return font


def text_extent(d: Drawable) -> QRectF:
    """Where a baseline text (``anchor`` set) lies, in scene mm (unturned)."""
    assert d.at is not None and d.text is not None
    k = d.size / _EM
    w = QFontMetricsF(_picture_font(d.bold)).horizontalAdvance(d.text) * k
    x0 = d.at.x() - {"middle": w / 2, "end": w}.get(d.anchor or "start", 0.0)
    return QRectF(x0, d.at.y() - 0.8 * d.size, w, d.size)


def _paint_baseline_text(painter: QPainter, d: Drawable) -> None:
    assert d.at is not None and d.text is not None
    box = text_extent(d)
    painter.save()
    painter.translate(d.at)
    if d.angle:
        painter.rotate(d.angle)
    k = d.size / _EM
    painter.scale(k, k)
    painter.setFont(_picture_font(d.bold))
    painter.setPen(d.pen)
    painter.drawText(QPointF((box.left() - d.at.x()) / k, 0.0), d.text)
    painter.restore()


def drawables_bounds(items: list[Drawable]) -> QRectF:
    """The scene rectangle the drawables cover (texts by their laid-out extent)."""
    out = QRectF()
    for d in items:
        if d.path is not None:
            w = d.pen.widthF() if d.pen.style() != Qt.PenStyle.NoPen else 0.0
            out = out.united(d.path.boundingRect().adjusted(-w, -w, w, w))
        elif d.text and d.at is not None and d.anchor is not None:
            box = text_extent(d)
            if d.angle:
                from PySide6.QtGui import QTransform

                t = QTransform().translate(d.at.x(), d.at.y()).rotate(d.angle)
                t = t.translate(-d.at.x(), -d.at.y())
                box = t.mapRect(box)
            out = out.united(box)
    return out


def paint_drawables(painter: QPainter, items: list[Drawable], lod: float = 1.0) -> None:
    """Paint primitives; texts are skipped when they would be unreadably small."""
    for d in items:
        if d.path is not None:
            painter.setPen(d.pen)
            painter.setBrush(d.brush)
            painter.drawPath(d.path)
        elif d.text and d.at is not None and d.anchor is not None:
            if d.size * lod >= 3:
                _paint_baseline_text(painter, d)
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
