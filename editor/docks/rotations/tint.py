"""The canvas tint of a critical tile: stronger the more its turn decides."""

from __future__ import annotations

from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QFont, QPainter, QPainterPath, QPen
from PySide6.QtWidgets import QGraphicsItem, QStyleOptionGraphicsItem, QWidget

from ... import style

TINT = (229, 57, 53)  # the critical-tile tint (red), alpha by criticality


class CriticalTint(QGraphicsItem):
    """A tile's outline tinted by how critical its turn is, with the share written on it.

    Sits over the tile (z 30: over tiles and their features, under pieces and the
    graph overlay), lets every click through, and redraws the tile's selection outline
    on top of the tint while ``tile_item`` is selected.
    """

    def __init__(
        self,
        outline: QPainterPath,
        strength: float,
        label: str,
        tile_item: QGraphicsItem | None = None,
    ) -> None:
        super().__init__()
        self.outline = outline
        b = outline.boundingRect()
        self._half = min(b.width(), b.height()) / 2.0
        # any turn (hexagons turn by 60°) stays inside the circle around the outline
        r = max(abs(b.left()), abs(b.right()), abs(b.top()), abs(b.bottom())) * 1.42 + 2.0
        self._bounds = QRectF(-r, -r, 2 * r, 2 * r)
        self.strength = strength
        self.label = label
        self.tile_item = tile_item
        self.setZValue(30.0)
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
        self.setToolTip(label)

    def boundingRect(self) -> QRectF:
        return self._bounds

    def _tile_selected(self) -> bool:
        try:
            return self.tile_item is not None and self.tile_item.isSelected()
        except RuntimeError:  # the tile item was deleted with its tile
            return False

    def paint(
        self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None
    ) -> None:
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        r, g, b = TINT
        a = int(35 + 105 * max(0.0, min(1.0, self.strength)))
        painter.setBrush(QBrush(QColor(r, g, b, a)))
        pen = QPen(QColor(r, g, b, min(255, a + 60)), 1.5)
        pen.setCosmetic(True)
        painter.setPen(pen)
        painter.drawPath(self.outline)
        if self._tile_selected():
            sel = QPen(QColor(style.SELECT), 2.5, Qt.PenStyle.DashLine)
            sel.setCosmetic(True)
            painter.setPen(sel)
            painter.setBrush(Qt.BrushStyle.NoBrush)
            painter.drawPath(self.outline)
        # the share, upright whatever the tile's turn, tucked into the upper-left of the
        # tile (its centre and axes usually hold points and paths)
        painter.rotate(-self.rotation())
        f = QFont()
        f.setPointSizeF(6.5)
        f.setBold(True)
        painter.setFont(f)
        c = -0.56 * self._half
        box = QRectF(c - 12.5, c - 4.5, 25, 9)
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(QColor(255, 255, 255, 205))
        painter.drawRoundedRect(box, 2.0, 2.0)
        painter.setPen(QColor(150, 20, 20))
        painter.drawText(box, Qt.AlignmentFlag.AlignCenter, self.label)
