"""The one primitive the canvas paints (:class:`Drawable`) and the empty pen and brush;
how features become drawables is :mod:`editor.style`'s and :mod:`editor.primitives`'."""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QBrush, QPainterPath, QPen

NO_PEN = QPen(Qt.PenStyle.NoPen)
NO_BRUSH = QBrush(Qt.BrushStyle.NoBrush)


@dataclass
class Drawable:
    """One primitive: a path with pen and brush, or a text.

    A text is centred on ``at`` unless ``anchor`` is set: then ``at`` is its baseline
    point (SVG's ``text-anchor``: ``start``, ``middle`` or ``end``), ``size`` its em
    in mm, turned by ``angle`` degrees about ``at`` (a picture's text, as render writes it).
    """

    path: QPainterPath | None
    pen: QPen
    brush: QBrush
    text: str | None = None
    at: QPointF | None = None
    size: float = 4.0
    anchor: str | None = None
    angle: float = 0.0
    bold: bool = False
    #: what the element stands for (a picture's ``<title>``), for tooltips and tests
    title: str = ""


__all__ = ["NO_BRUSH", "NO_PEN", "Drawable"]
