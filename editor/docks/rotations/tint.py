"""The canvas tint of a critical tile (stronger the more its turn decides) and the
legend that says what the tint means."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, QPoint, QRect, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QFont, QLinearGradient, QPainter, QPainterPath, QPen
from PySide6.QtWidgets import (
    QFrame,
    QGraphicsItem,
    QGraphicsView,
    QHBoxLayout,
    QLabel,
    QStyleOptionGraphicsItem,
    QVBoxLayout,
    QWidget,
)

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

    def outline_in_scene(self) -> QRectF:
        """The bounds of the tile's outline as the canvas shows it (turned, placed)."""
        return self.mapToScene(self.outline).boundingRect()

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
        a = tint_alpha(self.strength)
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


def tint_alpha(strength: float) -> int:
    """The tint's alpha for a criticality ``strength`` in [0, 1] (1 = the top tile)."""
    return int(35 + 105 * max(0.0, min(1.0, strength)))


class _Scale(QWidget):
    """The tint's colour scale, weakest (left) to strongest (right), over white."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setFixedHeight(12)
        self.setMinimumWidth(160)

    def paintEvent(self, _event: object) -> None:
        p = QPainter(self)
        r = self.rect().adjusted(0, 0, -1, -1)
        p.fillRect(r, QColor("#ffffff"))
        g = QLinearGradient(r.left(), 0, r.right(), 0)
        g.setColorAt(0.0, QColor(*TINT, tint_alpha(0.0)))
        g.setColorAt(1.0, QColor(*TINT, tint_alpha(1.0)))
        p.fillRect(r, QBrush(g))
        p.setPen(QColor(*TINT))
        p.drawRect(r)
        p.end()


class CriticalLegend(QFrame):
    """The key of the canvas tint: what the tint means and the scale from the least to
    the most critical tile of the last census, in the corner of the canvas that covers
    the fewest tinted tiles (top right when none is in the way).

    A child of the view's viewport (it stays put and legible at every zoom); shown with
    the tint and hidden with it. Lets clicks through to the canvas.
    """

    MARGIN = 10

    def __init__(self, viewport: QWidget, view: QGraphicsView) -> None:
        super().__init__(viewport)
        self.view = view
        #: the tinted tiles, in scene coordinates (the corner avoids them)
        self.avoid: list[QRectF] = []
        self.setObjectName("RotationsLegend")
        self.setAttribute(Qt.WidgetAttribute.WA_TransparentForMouseEvents, True)
        self.setStyleSheet(
            "#RotationsLegend { background: rgba(255, 255, 255, 225);"
            " border: 1px solid #c9a9a9; border-radius: 4px; }"
        )
        lay = QVBoxLayout(self)
        lay.setContentsMargins(8, 6, 8, 6)
        lay.setSpacing(3)
        self.title = QLabel()
        self.scale = _Scale()
        ends = QHBoxLayout()
        self.low = QLabel()
        self.high = QLabel()
        self.high.setAlignment(Qt.AlignmentFlag.AlignRight)
        ends.addWidget(self.low)
        ends.addStretch(1)
        ends.addWidget(self.high)
        self.note = QLabel()
        self.note.setWordWrap(True)
        self.note.setStyleSheet("color: #555;")
        for w in (self.title, self.scale):
            lay.addWidget(w)
        lay.addLayout(ends)
        lay.addWidget(self.note)
        self.setFixedWidth(250)
        viewport.installEventFilter(self)
        for bar in (view.horizontalScrollBar(), view.verticalScrollBar()):
            bar.valueChanged.connect(lambda _v: self._place() if self.isVisible() else None)
        self.hide()

    def show_for(
        self,
        shares: list[tuple[str, float, int | None, int | None]],
        avoid: list[QRectF] | None = None,
    ) -> None:
        """Show the key for the tinted tiles ``(placement, share, decided, contexts)``,
        most critical first, away from the scene rectangles ``avoid``."""
        self.avoid = list(avoid or [])
        top = shares[0]
        low = min(s for _, s, _, _ in shares)
        self.title.setText(f"<b>Critical tiles: {len(shares)}</b> (tinted red)")
        self.low.setText(f"{100 * low:.0f} %")
        self.high.setText(f"{100 * top[1]:.0f} % ({top[0]})")
        if top[2] is not None and top[3]:
            how = (
                f"{top[0]}'s turn decides it in {top[2]:,} of {top[3]:,} "
                "configurations of the other tiles."
            )
        else:
            how = f"{top[0]}'s turn decides it in {100 * top[1]:.1f} % of the sampled ones."
        self.note.setText(
            "Tint: the share of the other tiles' configurations in which the tile's turn "
            f"decides whether From reaches To. {how}"
        )
        self.adjustSize()
        self._place()
        self.show()
        self.raise_()

    def _place(self) -> None:
        vp = self.parentWidget()
        if vp is None:
            return
        m, w, h = self.MARGIN, self.width(), self.height()
        right, bottom = max(0, vp.width() - w - m), max(0, vp.height() - h - m)
        rects = [self.view.mapFromScene(r).boundingRect() for r in self.avoid]
        corners = [QPoint(right, m), QPoint(m, m), QPoint(right, bottom), QPoint(m, bottom)]

        def covered(c: QPoint) -> int:
            box = QRect(c.x(), c.y(), w, h)
            return sum(box.intersected(r).width() * box.intersected(r).height() for r in rects)

        self.move(min(corners, key=covered))  # the first of the least covered

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Resize:
            self._place()
        return False
