"""The asset palette: packs and their tiles with thumbnails, a filter, drag onto the board."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QMimeData, QRectF, QSize, Qt, Signal
from PySide6.QtGui import QColor, QDrag, QIcon, QPainter, QPixmap
from PySide6.QtWidgets import (
    QComboBox,
    QDockWidget,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QVBoxLayout,
    QWidget,
)

from referee.assets import AssetPack
from referee.errors import BoardwrightError
from referee.images import ImageStore
from referee.model import TileAsset

from .. import style
from ..canvas import PIECE_MIME, TILE_MIME
from ..items import tile_art
from ..pictures import to_qimage

THUMB = 72
KEY_ROLE = Qt.ItemDataRole.UserRole


def tile_thumbnail(
    tile: TileAsset, size: int = THUMB, turns: int = 0, images: ImageStore | None = None
) -> QPixmap:
    """A picture of ``tile`` (turned by ``turns``) fitting a ``size`` px square.

    With ``images`` (the store holding the tile's face), the face is drawn fitted to
    the outline, from a reduced decode of ``size`` pixels (cached by the store).
    """
    pm = QPixmap(size, size)
    pm.fill(QColor(0, 0, 0, 0))
    art, outline, bounds = tile_art(tile)
    p = QPainter(pm)
    p.setRenderHint(QPainter.RenderHint.Antialiasing, True)
    ext = max(bounds.width(), bounds.height(), 1.0)
    s = (size - 4) / ext
    p.translate(size / 2, size / 2)
    p.scale(s, s)
    p.rotate(360.0 * turns / tile.turn_count)
    p.setPen(style.pen(style.TILE_EDGE, 1.0, cosmetic=True))
    p.setBrush(QColor(style.TILE_FILL if tile.turnable else style.TILE_FIXED_FILL))
    p.drawPath(outline)
    if tile.face and images is not None and tile.face in images:
        try:
            face = QPixmap.fromImage(to_qimage(images.thumbnail(tile.face, size)))
        except BoardwrightError:
            face = None
        if face is not None:
            p.save()
            p.setClipPath(outline)
            p.drawPixmap(outline.boundingRect(), face, QRectF(face.rect()))
            p.restore()
    style.paint_drawables(p, art, lod=0.0)
    p.end()
    return pm


class _KeyDragList(QListWidget):
    """A list whose items drag their asset key as ``mime`` data (tiles, pieces)."""

    mime = ""
    with_pixmap = False

    def mime_for(self, key: str) -> QMimeData:
        md = QMimeData()
        md.setData(self.mime, key.encode("utf-8"))
        md.setText(key)
        return md

    def startDrag(self, supportedActions: Qt.DropAction) -> None:
        if self.currentRow() < 0:
            return
        item = self.currentItem()
        drag = QDrag(self)
        drag.setMimeData(self.mime_for(item.data(KEY_ROLE)))
        if self.with_pixmap:
            drag.setPixmap(item.icon().pixmap(THUMB, THUMB))
        drag.exec(Qt.DropAction.CopyAction)


class TileList(_KeyDragList):
    """Icon list whose drags carry a tile key (:data:`editor.canvas.TILE_MIME`)."""

    mime = TILE_MIME
    with_pixmap = True

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setViewMode(QListWidget.ViewMode.IconMode)
        self.setIconSize(QSize(THUMB, THUMB))
        self.setGridSize(QSize(THUMB + 24, THUMB + 30))
        self.setResizeMode(QListWidget.ResizeMode.Adjust)
        self.setMovement(QListWidget.Movement.Static)
        self.setWordWrap(True)
        self.setDragEnabled(True)
        self.setSpacing(2)


class PieceList(_KeyDragList):
    """Piece types; drags carry a piece key (:data:`editor.canvas.PIECE_MIME`)."""

    mime = PIECE_MIME

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setDragEnabled(True)


class PaletteDock(QDockWidget):
    """Asset packs and their tiles; double-click places a tile at the view centre."""

    place_requested = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__("Assets", parent)
        self.setObjectName("PaletteDock")
        self.packs: dict[str, AssetPack] = {}
        w = QWidget()
        lay = QVBoxLayout(w)
        lay.setContentsMargins(4, 4, 4, 4)
        self.pack_box = QComboBox()
        self.filter = QLineEdit()
        self.filter.setPlaceholderText("Filter tiles…")
        self.filter.setClearButtonEnabled(True)
        self.list = TileList()
        self.pieces = PieceList()
        self.pieces.setMaximumHeight(110)
        lay.addWidget(self.pack_box)
        lay.addWidget(self.filter)
        lay.addWidget(self.list, 1)
        lay.addWidget(QLabel("Pieces and counters"))
        lay.addWidget(self.pieces)
        self.setWidget(w)
        self.pack_box.currentIndexChanged.connect(self.refresh)
        self.filter.textChanged.connect(self.apply_filter)
        self.list.itemDoubleClicked.connect(lambda it: self.place_requested.emit(it.data(KEY_ROLE)))

    def set_packs(self, packs: dict[str, AssetPack]) -> None:
        self.packs = packs
        self.pack_box.blockSignals(True)
        self.pack_box.clear()
        self.pack_box.addItem("All packs", None)
        for pid, pack in packs.items():
            self.pack_box.addItem(f"{pack.name} ({len(pack.tiles)})", pid)
        self.pack_box.blockSignals(False)
        self.refresh()

    def tile(self, key: str) -> TileAsset | None:
        pid = key.split("/", 1)[0]
        pack = self.packs.get(pid)
        return pack.tiles.get(key) if pack else None

    def piece_type(self, key: str) -> dict[str, Any] | None:
        pack = self.packs.get(key.split("/", 1)[0])
        return pack.piece_types.get(key) if pack else None

    def refresh(self) -> None:
        pid = self.pack_box.currentData()
        self.list.clear()
        self.pieces.clear()
        for pack in self.packs.values():
            if pid is not None and pack.id != pid:
                continue
            for key, tile in sorted(pack.tiles.items()):
                it = QListWidgetItem(
                    QIcon(tile_thumbnail(tile, images=getattr(pack, "images", None))), tile.name
                )
                it.setData(KEY_ROLE, key)
                it.setToolTip(
                    f"{tile.name}\n{key}\n{tile.shape}, "
                    f"{'turns' if tile.turnable else 'fixed'}, {len(tile.features)} features"
                )
                self.list.addItem(it)
            for key, piece in sorted(pack.piece_types.items()):
                it = QListWidgetItem(f"{piece.get('name', key)}  ({key})")
                it.setData(KEY_ROLE, key)
                self.pieces.addItem(it)
        self.apply_filter(self.filter.text())

    def apply_filter(self, text: str) -> None:
        t = text.strip().lower()
        for i in range(self.list.count()):
            it = self.list.item(i)
            it.setHidden(
                bool(t) and t not in it.text().lower() and t not in it.data(KEY_ROLE).lower()
            )
        for i in range(self.pieces.count()):
            it = self.pieces.item(i)
            it.setHidden(bool(t) and t not in it.text().lower())
