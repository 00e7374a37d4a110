"""Pictures on the canvas: the board background, and the painting of faces and art.

:class:`BackgroundItem` shows :attr:`referee.model.Board.background` under
everything: placed at the picture's top-left corner, turned by its rotation,
scaled by its mm per pixel, with its opacity. :func:`paint_picture` draws an image
stretched over a rectangle and clipped to a shape (tile faces, ``art`` features),
as ``referee render`` does. Both ask the scene's
:class:`~editor.pictures.PictureCache` for a pixmap as large as the picture is on
screen, never larger.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QColor, QPainter, QPainterPath, QPen
from PySide6.QtWidgets import QGraphicsItem, QStyleOptionGraphicsItem, QWidget

from referee.model import Background

if TYPE_CHECKING:
    from .pictures import PictureCache

#: the background's z value: under the tiles (1) and every feature kind
BACKGROUND_Z = -100.0


def picture_cache(item: QGraphicsItem) -> PictureCache | None:
    """The picture cache of the scene ``item`` is in (None outside a board scene)."""
    scene = item.scene()
    cache = getattr(scene, "pictures", None) if scene is not None else None
    return cache


def paint_picture(
    painter: QPainter,
    cache: PictureCache | None,
    image_id: str,
    rect: QRectF,
    clip: QPainterPath | None = None,
    opacity: float = 1.0,
) -> bool:
    """Draw image ``image_id`` stretched over ``rect`` (item units), clipped to ``clip``.

    Returns False (and draws a hatched placeholder) when the image is missing or
    cannot be decoded.
    """
    if cache is None or rect.isEmpty():
        return False
    t = painter.worldTransform()
    sx = (t.m11() ** 2 + t.m12() ** 2) ** 0.5
    sy = (t.m21() ** 2 + t.m22() ** 2) ** 0.5
    on_screen = max(rect.width() * sx, rect.height() * sy)
    pm = cache.pixmap(image_id, on_screen)
    painter.save()
    if clip is not None:
        painter.setClipPath(clip, Qt.ClipOperation.IntersectClip)
    if pm is None:
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(QColor(200, 60, 60, 60))
        painter.drawRect(rect)
        painter.setBrush(Qt.BrushStyle.BDiagPattern)
        painter.drawRect(rect)
        painter.restore()
        return False
    painter.setOpacity(painter.opacity() * opacity)
    painter.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform, True)
    painter.drawPixmap(rect, pm, QRectF(pm.rect()))
    painter.restore()
    return True


class BackgroundItem(QGraphicsItem):
    """The board's background picture (not selectable: edit it in the Background panel)."""

    def __init__(self) -> None:
        super().__init__()
        self.setZValue(BACKGROUND_Z)
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
        self.background: Background | None = None
        self._size = (0, 0)
        self.setVisible(False)

    def sync(self, background: Background | None, size_px: tuple[int, int]) -> None:
        """Show ``background`` (an image of ``size_px`` pixels), or nothing for None."""
        self.prepareGeometryChange()
        self.background = background
        self._size = size_px
        if background is None:
            self.setVisible(False)
            return
        self.setPos(background.x, background.y)
        self.setRotation(background.rotation)
        self.setScale(background.scale)
        self.setOpacity(background.opacity)
        self.setVisible(background.visible)
        self.update()

    def boundingRect(self) -> QRectF:
        return QRectF(0, 0, float(self._size[0]), float(self._size[1]))

    def paint(
        self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None
    ) -> None:
        if self.background is None:
            return
        r = self.boundingRect()
        if not paint_picture(painter, picture_cache(self), self.background.image, r):
            painter.setPen(QPen(QColor("#b03030"), 0))
            painter.drawText(r, Qt.AlignmentFlag.AlignCenter, "background image missing")


class FaceItem(QGraphicsItem):
    """A tile's face picture over its outline (the asset editor's canvas)."""

    def __init__(self) -> None:
        super().__init__()
        self.setZValue(-9.0)
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
        self.outline = QPainterPath()
        self.image: str | None = None

    def set_face(self, outline: QPainterPath, image: str | None) -> None:
        self.prepareGeometryChange()
        self.outline, self.image = outline, image
        self.update()

    def boundingRect(self) -> QRectF:
        return self.outline.boundingRect()

    def paint(
        self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None
    ) -> None:
        if self.image:
            paint_picture(
                painter, picture_cache(self), self.image, self.outline.boundingRect(), self.outline
            )
