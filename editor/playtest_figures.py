"""The Playtest's figures on the canvas: each drawn with its symbol from the one palette.

:func:`referee.palette.figure_symbol` says how a figure looks (its rules module's
declared shape, the figure's colour and label, its size), the same as ``referee
render`` draws it; several figures on one node stand round it
(:func:`referee.palette.stack_offset`). Figures never shrink below a few pixels, so a
large map seen whole still shows them. :class:`FiguresItem` also rings the picked
figure's legal destinations, or, with a card picked in the hand, the spaces, figures and
players' figures the card may be played on (blue, :mod:`editor.playtest_targets`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QFont, QPainter, QPainterPath, QPen, QPolygonF
from PySide6.QtWidgets import QGraphicsItem, QStyleOptionGraphicsItem, QWidget

from referee import palette
from referee.vocabulary import Symbol

if TYPE_CHECKING:
    from .playtest_protocol import FigureSource


@dataclass(frozen=True)
class FigureShape:
    """One figure as the canvas draws it.

    Attributes
    ----------
    id : str
        The figure id.
    symbol : Symbol
        Its resolved symbol (:func:`referee.palette.figure_symbol`).
    x, y, r : float
        Centre and radius in mm (the radius grown to the on-screen minimum).
    path : QPainterPath
        The outline: a circle, or the symbol's polygon scaled to ``r``.
    """

    id: str
    symbol: Symbol
    x: float
    y: float
    r: float
    path: QPainterPath


def figure_path(sym: Symbol, x: float, y: float, r: float) -> QPainterPath:
    """The outline of a figure's symbol centred on ``(x, y)`` with radius ``r``."""
    path = QPainterPath()
    corners = palette.symbol_outline(sym, 0.0, 0.0) if sym.shape != "circle" else []
    if not corners:
        path.addEllipse(QPointF(x, y), r, r)
        return path
    k = r / sym.size if sym.size > 0 else 1.0
    path.addPolygon(QPolygonF([QPointF(x + cx * k, y + cy * k) for cx, cy in corners]))
    path.closeSubpath()
    return path


class FiguresItem(QGraphicsItem):
    """Figures at their nodes, the picked figure and its legal destinations."""

    RING = 8.0  # destination ring radius, mm

    def __init__(self, ctl: FigureSource) -> None:
        super().__init__()
        self.ctl = ctl
        self.setZValue(80.0)
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)

    def boundingRect(self) -> QRectF:
        rect: QRectF = self.ctl.window.scene.board_rect()
        return rect.adjusted(-50, -50, 50, 50)

    def figure_shapes(self) -> list[FigureShape]:
        """Every figure on the board as it is drawn now (ids in the game's order)."""
        ctl = self.ctl
        out = []
        for fid, view in ctl.views.items():
            sym = ctl.figure_symbol(fid)
            x, y = ctl.figure_xy(fid)
            r = ctl.figure_radius(view)
            out.append(FigureShape(fid, sym, x, y, r, figure_path(sym, x, y, r)))
        return out

    def _ring(
        self, painter: QPainter, x: float, y: float, n: int, dashed: bool, card: bool = False
    ) -> None:
        rr = self.ctl.ring_radius()
        pen = QPen(QColor("#0050d0" if card else "#00c853" if not dashed else "#2979ff"), 1.6)
        if dashed:
            pen.setStyle(Qt.PenStyle.DashLine)
        painter.setPen(pen)
        painter.setBrush(
            QBrush(
                QColor(0, 80, 208, 60)
                if card
                else QColor(0, 200, 83, 70)
                if not dashed
                else QColor(41, 121, 255, 50)
            )
        )
        painter.drawEllipse(QPointF(x, y), rr, rr)
        if n > 1:  # several moves go there: a choice on click
            r = rr * 0.33
            bx, by = x + rr * 0.72, y - rr * 0.72
            font = QFont()
            font.setBold(True)
            font.setPointSizeF(r * 1.1)
            painter.setFont(font)
            painter.setPen(QPen(QColor("#ffffff"), 0.5))
            painter.setBrush(QColor("#00a844" if not dashed else "#2962ff"))
            painter.drawEllipse(QPointF(bx, by), r, r)
            painter.setPen(QColor("#ffffff"))
            painter.drawText(
                QRectF(bx - r, by - r, 2 * r, 2 * r),
                Qt.AlignmentFlag.AlignCenter,
                str(n) if n < 10 else "+",
            )

    def paint(
        self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None
    ) -> None:
        ctl = self.ctl
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        plays = ctl.card_plays
        aimed: set[str] = set()
        if plays is not None:  # a card picked: where it may be played
            for node, moves in sorted(plays.spaces.items()):
                x, y = ctl.xy(node)
                self._ring(painter, x, y, len(moves), False, card=True)
            aimed = set(plays.figures) | set(plays.players)
        elif ctl.picked is not None:
            for node in sorted(ctl.destinations):
                x, y = ctl.xy(node)
                self._ring(painter, x, y, len(ctl.moves_to(ctl.picked, node)), False)
        else:
            for node, moves in sorted(ctl.placements.items()):
                x, y = ctl.xy(node)
                self._ring(painter, x, y, len(moves), True)
        movable = set(ctl.targets) if ctl.picked is None and plays is None else set()
        for shape in self.figure_shapes():
            sym, x, y, r = shape.symbol, shape.x, shape.y, shape.r
            fill = QColor(sym.colour) if QColor.isValidColorName(sym.colour) else QColor("#9e9e9e")
            if shape.id in aimed:  # the picked card may be played on it: a blue halo
                painter.setPen(QPen(QColor("#0050d0"), r * 0.18))
                painter.setBrush(QColor(0, 80, 208, 80))
                painter.drawEllipse(QPointF(x, y), r * 1.45, r * 1.45)
            elif shape.id in movable:  # who may move now: a soft green halo
                painter.setPen(Qt.PenStyle.NoPen)
                painter.setBrush(QColor(0, 200, 83, 90))
                painter.drawEllipse(QPointF(x, y), r * 1.3, r * 1.3)
            picked = shape.id == ctl.picked
            outline = QColor("#ff1744") if picked else QColor(sym.stroke or "#111111")
            painter.setPen(QPen(outline, r * (0.3 if picked else 0.16)))
            painter.setBrush(fill)
            painter.drawPath(shape.path)
            font = QFont()
            font.setBold(True)
            n = len(sym.label)
            font.setPointSizeF(r * (1.05 if n <= 1 else 0.8 if n == 2 else 0.62))
            painter.setFont(font)
            painter.setPen(QColor(palette.ink(fill.name())))
            painter.drawText(
                QRectF(x - r, y - r, 2 * r, 2 * r), Qt.AlignmentFlag.AlignCenter, sym.label
            )


__all__ = ["FigureShape", "FiguresItem", "figure_path"]
