"""The rules modules' editor-drawn pictures on the canvas: the track games' numbered
spaces, stage goals, event symbols, resolve-track ends and track names.

:func:`referee.render.primitives.feature_primitives` runs the same picture code
``referee render`` (and so the browser table) draws with and returns its elements as
:class:`~referee.render.svg.Primitive` data; this module turns each into a
:class:`~editor.drawable.Drawable` (a Qt path with pen and brush, or a text on its
baseline). Coordinates stay in board millimetres, so labels scale with the zoom.

Only the SVG the pictures write is understood: ``circle``, ``ellipse``, ``rect`` (with
``rx`` and a dash array), ``line``, ``polygon``, ``path`` (``M L H V C Q Z``, absolute
or relative) and ``text`` (``text-anchor``, ``font-weight``, ``rotate(a x y)``).
"""

from __future__ import annotations

import re

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QPainterPath, QPen

from referee.render.svg import Primitive

from .drawable import NO_BRUSH, NO_PEN, Drawable

_NUM = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")
_CMD = re.compile(r"[MLHVCQZmlhvcqz]|[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")
_ROTATE = re.compile(r"rotate\(\s*([-+\d.eE]+)(?:[\s,]+([-+\d.eE]+)[\s,]+([-+\d.eE]+))?\s*\)")


def _f(attrs: dict[str, str], key: str, default: float = 0.0) -> float:
    try:
        return float(attrs.get(key, default))
    except ValueError:
        return default


def _colour(value: str | None) -> QColor | None:
    if value is None or value == "none":
        return None
    c = QColor(value)
    return c if c.isValid() else None


def _pen(a: dict[str, str]) -> QPen:
    c = _colour(a.get("stroke"))
    if c is None:
        return NO_PEN
    width = _f(a, "stroke-width", 1.0)
    pen = QPen(c, width, Qt.PenStyle.SolidLine, Qt.PenCapStyle.RoundCap, Qt.PenJoinStyle.RoundJoin)
    dash = [float(v) for v in _NUM.findall(a.get("stroke-dasharray", ""))]
    if dash and width > 0:
        pen.setDashPattern([max(v / width, 0.01) for v in dash] * (2 if len(dash) % 2 else 1))
    return pen


def _brush(a: dict[str, str]) -> QBrush:
    c = _colour(a.get("fill", "#000"))  # SVG fills black when no fill is named
    return NO_BRUSH if c is None else QBrush(c)


def path_from_d(d: str) -> QPainterPath:
    """A QPainterPath of SVG path data (the commands the pictures write)."""
    path = QPainterPath()
    toks = _CMD.findall(d)
    i, cmd = 0, "M"
    x = y = sx = sy = 0.0

    def nums(n: int) -> list[float]:
        nonlocal i
        out = [float(t) for t in toks[i : i + n]]
        i += n
        return out

    while i < len(toks):
        if toks[i].isalpha():
            cmd = toks[i]
            i += 1
            if cmd in "Zz":
                path.closeSubpath()
                x, y = sx, sy
                continue
        rel = cmd.islower()
        ox, oy = (x, y) if rel else (0.0, 0.0)
        c = cmd.upper()
        if c == "M":
            px, py = nums(2)
            x, y = ox + px, oy + py
            path.moveTo(x, y)
            sx, sy = x, y
            cmd = "l" if rel else "L"  # further pairs are lines
        elif c == "L":
            px, py = nums(2)
            x, y = ox + px, oy + py
            path.lineTo(x, y)
        elif c == "H":
            (px,) = nums(1)
            x = ox + px
            path.lineTo(x, y)
        elif c == "V":
            (py,) = nums(1)
            y = oy + py
            path.lineTo(x, y)
        elif c == "C":
            v = nums(6)
            path.cubicTo(ox + v[0], oy + v[1], ox + v[2], oy + v[3], ox + v[4], oy + v[5])
            x, y = ox + v[4], oy + v[5]
        elif c == "Q":
            v = nums(4)
            path.quadTo(ox + v[0], oy + v[1], ox + v[2], oy + v[3])
            x, y = ox + v[2], oy + v[3]
        else:  # not written by the pictures: stop rather than draw nonsense
            break
    return path


def _points(text: str) -> list[QPointF]:
    v = [float(t) for t in _NUM.findall(text)]
    return [QPointF(v[k], v[k + 1]) for k in range(0, len(v) - 1, 2)]


def drawable(p: Primitive) -> Drawable | None:
    """The Drawable of one primitive (None: a tag the pictures do not write)."""
    a = p.attrs
    path = QPainterPath()
    path.setFillRule(Qt.FillRule.WindingFill)
    if p.tag == "circle":
        r = _f(a, "r")
        path.addEllipse(QPointF(_f(a, "cx"), _f(a, "cy")), r, r)
    elif p.tag == "ellipse":
        path.addEllipse(QPointF(_f(a, "cx"), _f(a, "cy")), _f(a, "rx"), _f(a, "ry"))
    elif p.tag == "rect":
        box = QRectF(_f(a, "x"), _f(a, "y"), _f(a, "width"), _f(a, "height"))
        rx = _f(a, "rx")
        if rx > 0:
            path.addRoundedRect(box, rx, _f(a, "ry", rx))
        else:
            path.addRect(box)
    elif p.tag == "line":
        path.moveTo(_f(a, "x1"), _f(a, "y1"))
        path.lineTo(_f(a, "x2"), _f(a, "y2"))
        return Drawable(path, _pen(a), NO_BRUSH, title=p.title)
    elif p.tag in ("polygon", "polyline"):
        pts = _points(a.get("points", ""))
        if not pts:
            return None
        path.moveTo(pts[0])
        for q in pts[1:]:
            path.lineTo(q)
        if p.tag == "polygon":
            path.closeSubpath()
    elif p.tag == "path":
        path = path_from_d(a.get("d", ""))
    elif p.tag == "text":
        angle, at = 0.0, QPointF(_f(a, "x"), _f(a, "y"))
        m = _ROTATE.search(a.get("transform", ""))
        if m:
            angle = float(m.group(1))
        colour = _colour(a.get("fill", "#000")) or QColor("#000")
        return Drawable(
            None,
            QPen(colour),
            NO_BRUSH,
            p.text,
            at,
            _f(a, "font-size", 4.0),
            anchor=a.get("text-anchor", "start"),
            angle=angle,
            bold=a.get("font-weight") == "bold",
            title=p.title,
        )
    else:
        return None
    return Drawable(path, _pen(a), _brush(a), title=p.title)


def drawables(prims: list[Primitive]) -> list[Drawable]:
    """The Drawables of ``prims``, bottom first by render's layers (ties in order)."""
    from referee.render.svg import LAYERS

    rank = {k: i for i, k in enumerate(LAYERS)}
    ordered = sorted(prims, key=lambda q: rank.get(q.layer, len(LAYERS)))
    return [d for d in (drawable(q) for q in ordered) if d is not None]


__all__ = ["drawable", "drawables", "path_from_d"]
