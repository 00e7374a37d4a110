"""The board canvas: a QGraphicsScene in millimetres and the view that shows it.

The view zooms with the wheel around the cursor, pans with the middle button or
with Space held, fits the board to the window, and draws the board sheet and its
grid in :meth:`BoardView.drawBackground`. Mouse events go to the active tool
(:mod:`editor.tools`) first.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Protocol

from PySide6.QtCore import QMimeData, QPoint, QPointF, QRect, QRectF, Qt, Signal
from PySide6.QtGui import (
    QColor,
    QContextMenuEvent,
    QDragEnterEvent,
    QDragLeaveEvent,
    QDragMoveEvent,
    QDropEvent,
    QKeyEvent,
    QMouseEvent,
    QPainter,
    QPainterPath,
    QPen,
    QTransform,
    QWheelEvent,
)
from PySide6.QtWidgets import QGraphicsItem, QGraphicsScene, QGraphicsView, QWidget

from referee.model import Board, TileAsset

from .document import Document
from .items import (
    FeatureItem,
    GraphOverlay,
    PieceItem,
    PreviewItem,
    ProblemMarkers,
    SlotsItem,
    TileItem,
    tile_art,
)
from .picture_items import BackgroundItem
from .pictures import PictureCache
from .snapping import grid_mm, lattice_slots, tile_lattice

if TYPE_CHECKING:
    from referee.images import ImageStore


class ActiveTool(Protocol):
    """What the view asks of the tool it hands its events to (:class:`editor.tools.base.Tool`
    is one): each handler returns True when it consumed the event. Declared here, below
    the tools, so the canvas never imports them."""

    name: str

    def activate(self) -> None: ...

    def deactivate(self) -> None: ...

    def press(self, pos: QPointF, event: QMouseEvent) -> bool: ...

    def move(self, pos: QPointF, event: QMouseEvent) -> bool: ...

    def release(self, pos: QPointF, event: QMouseEvent) -> bool: ...

    def double_click(self, pos: QPointF, event: QMouseEvent) -> bool: ...

    def key(self, event: QKeyEvent) -> bool: ...

    def context_menu(self, pos: QPointF, global_pos: QPoint) -> bool: ...


TILE_MIME = "application/x-boardwright-tile"
PIECE_MIME = "application/x-boardwright-piece"


class BoardScene(QGraphicsScene):
    """Mirror of a document's board: one item per placement and free-standing feature."""

    def __init__(self, doc: Document, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.doc = doc
        self.items_by_key: dict[str, QGraphicsItem] = {}
        self.overlay = GraphOverlay()
        self.overlay.setVisible(False)
        self.addItem(self.overlay)
        self.markers = ProblemMarkers()
        self.addItem(self.markers)
        self.preview = PreviewItem()
        self.addItem(self.preview)
        self.slots = SlotsItem()
        self.addItem(self.slots)
        #: image stores besides the board's (the asset packs'), for tile faces
        self.extra_stores: list[ImageStore] = []
        self.pictures = PictureCache(lambda: [self.doc.board.images, *self.extra_stores])
        self.background_item = BackgroundItem()
        self.addItem(self.background_item)
        doc.changed.connect(self.sync)
        doc.compiled_changed.connect(self.on_compiled)
        self.sync(None)
        self.on_compiled()

    def show_slots(
        self, tile: TileAsset | None, turns: int, rect: QRectF, pid: str | None = None
    ) -> None:
        """Show the slots ``tile`` (at ``turns``) can land in inside ``rect``; None hides them."""
        if tile is None:
            self.slots.set_slots(QPainterPath(), [])
            return
        board = self.doc.board
        if tile.key not in board.tiles:
            board = Board(
                meta=board.meta, tiles={**board.tiles, tile.key: tile}, placements=board.placements
            )
        r = rect.adjusted(-rect.width() * 0.1, -rect.height() * 0.1, 0, 0)
        slots = lattice_slots(
            tile_lattice(board, tile, pid), (r.left(), r.top(), r.right(), r.bottom())
        )
        _, outline, _ = tile_art(tile)
        turned = QTransform().rotate(360.0 * turns / tile.turn_count).map(outline)
        self.slots.set_slots(turned, slots)

    def board_rect(self) -> QRectF:
        m = self.doc.board.meta
        w = float(m.get("width") or 600)
        h = float(m.get("height") or 600)
        return QRectF(float(m.get("x0") or 0), float(m.get("y0") or 0), w, h)

    def sync_background(self) -> None:
        """Show the board's background as it is now."""
        bg = self.doc.board.background
        size = (0, 0)
        if bg is not None and bg.image in self.doc.board.images:
            info = self.doc.board.images.info(bg.image)
            size = (info.width, info.height)
        self.background_item.sync(bg, size)

    def sync(self, keys: set[str] | None) -> None:
        """Create, update or remove the items of ``keys`` (all when None)."""
        b = self.doc.board
        if keys is None or "bg" in keys:
            self.sync_background()
        if keys is None:
            for old in self.items_by_key.values():
                self.removeItem(old)
            self.items_by_key.clear()
            keys = (
                {f"p:{p.id}" for p in b.placements}
                | {f"f:{f.id}" for f in b.features}
                | {f"c:{c.id}" for c in b.pieces}
            )
        selected = {k for k, it in self.items_by_key.items() if it.isSelected()}
        placements = (
            {p.id: p for p in b.placements} if any(k.startswith("p:") for k in keys) else {}
        )
        features = {f.id: f for f in b.features} if any(k.startswith("f:") for k in keys) else {}
        for key in keys:
            kind, _, ident = key.partition(":")
            item = self.items_by_key.get(key)
            if kind == "c":
                self._sync_piece(key, ident, selected)
                continue
            if kind == "p":
                placement = placements.get(ident)
                if placement is None:
                    self._remove(key)
                    continue
                tile = b.tiles.get(placement.tile)
                if tile is None:
                    continue
                if isinstance(item, TileItem):
                    item.sync(placement, tile)
                else:
                    item = TileItem(placement, tile)
                    self.addItem(item)
                    self.items_by_key[key] = item
            elif kind == "f":
                feature = features.get(ident)
                if feature is None:
                    self._remove(key)
                    continue
                if isinstance(item, FeatureItem):
                    item.sync(feature)
                else:
                    item = FeatureItem(feature)
                    self.addItem(item)
                    self.items_by_key[key] = item
            else:
                continue
            if key in selected:
                item.setSelected(True)
        self.update()

    def _remove(self, key: str) -> None:
        """Take the item of ``key`` (if any) off the scene."""
        item = self.items_by_key.pop(key, None)
        if item is not None:
            self.removeItem(item)

    def _piece_xy(self, at: str | None) -> tuple[float, float] | None:
        g = self.doc.compiled.graph
        if at is None or at not in g:
            return None
        return g.nodes[at]["x"], g.nodes[at]["y"]

    def _sync_piece(self, key: str, ident: str, selected: set[str]) -> None:
        piece = self.doc.piece(ident)
        item = self.items_by_key.get(key)
        if piece is None:
            if item is not None:
                self.removeItem(item)
                del self.items_by_key[key]
            return
        data = self.doc.board.piece_types.get(piece.piece, {})
        if isinstance(item, PieceItem):
            item.sync(piece, data, self._piece_xy(piece.at))
        else:
            item = PieceItem(piece, data, self._piece_xy(piece.at))
            self.addItem(item)
            self.items_by_key[key] = item
        if key in selected:
            item.setSelected(True)

    def on_compiled(self) -> None:
        for _key, item in self.items_by_key.items():
            if isinstance(item, PieceItem):
                item.sync(item.piece, item.type_data, self._piece_xy(item.piece.at))
        c = self.doc.compiled
        self.markers.set_problems(c.problems)
        if self.overlay.isVisible():
            self.overlay.rebuild(c)

    def show_graph(self, on: bool) -> None:
        self.overlay.setVisible(on)
        if on:
            self.overlay.rebuild(self.doc.compiled)

    def selected_keys(self) -> set[str]:
        return {
            it.key
            for it in self.selectedItems()
            if isinstance(it, (TileItem, FeatureItem, PieceItem))
        }

    def select_keys(self, keys: set[str]) -> None:
        self.blockSignals(True)
        self.clearSelection()
        for k in keys:
            it = self.items_by_key.get(k)
            if it is not None:
                it.setSelected(True)
        self.blockSignals(False)
        self.selectionChanged.emit()

    def key_at(self, pos: QPointF, tolerance: float = 0.0) -> str | None:
        """The key of the topmost board item under ``pos``."""
        rect = QRectF(pos.x() - tolerance, pos.y() - tolerance, 2 * tolerance, 2 * tolerance)
        found = self.items(pos) if tolerance <= 0 else self.items(rect)
        for it in found:
            if isinstance(it, (TileItem, FeatureItem, PieceItem)):
                return it.key
        return None


class BoardView(QGraphicsView):
    """The canvas widget: zoom, pan, grid, drops from the palette, tool dispatch."""

    cursor_moved = Signal(float, float)
    zoom_changed = Signal(float)
    tile_dropped = Signal(str, float, float)
    #: an arrow key asked to move the selection by (dx, dy) mm
    nudged = Signal(float, float)
    piece_dropped = Signal(str, float, float)
    #: local files dropped from the desktop: (paths, x mm, y mm)
    files_dropped = Signal(list, float, float)

    MIN_SCALE, MAX_SCALE = 0.02, 60.0

    def __init__(self, scene: BoardScene, parent: QWidget | None = None) -> None:
        super().__init__(scene, parent)
        self.board_scene = scene
        #: the tile asset a palette key names (set by the window; for the slots shown
        #: while a tile is dragged in)
        self.tile_lookup: Callable[[str], TileAsset | None] = lambda _k: None
        self.setRenderHints(QPainter.RenderHint.Antialiasing | QPainter.RenderHint.TextAntialiasing)
        self.setTransformationAnchor(QGraphicsView.ViewportAnchor.NoAnchor)
        self.setResizeAnchor(QGraphicsView.ViewportAnchor.AnchorViewCenter)
        self.setViewportUpdateMode(QGraphicsView.ViewportUpdateMode.SmartViewportUpdate)
        self.setDragMode(QGraphicsView.DragMode.RubberBandDrag)
        self.setMouseTracking(True)
        self.setAcceptDrops(True)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.show_grid = True
        self.snapping = True
        self.tool: ActiveTool | None = None
        self._pan_from: QPointF | None = None
        self._space = False
        r = scene.board_rect()
        self.setSceneRect(
            r.adjusted(-r.width() * 2, -r.height() * 2, r.width() * 2, r.height() * 2)
        )

    # ------------------------------------------------------------------ zoom
    @property
    def zoom(self) -> float:
        return self.transform().m11()

    def set_zoom(self, scale: float, anchor: QPointF | None = None) -> None:
        """Zoom to ``scale`` pixels per mm, keeping scene point under ``anchor`` (viewport px)."""
        scale = max(self.MIN_SCALE, min(self.MAX_SCALE, scale))
        if anchor is None:
            anchor = QPointF(self.viewport().width() / 2, self.viewport().height() / 2)
        before = self.mapToScene(anchor.toPoint())
        f = scale / self.zoom
        self.scale(f, f)
        after = self.mapToScene(anchor.toPoint())
        d = after - before
        self.translate(d.x(), d.y())
        self.zoom_changed.emit(self.zoom)

    def wheelEvent(self, event: QWheelEvent) -> None:
        steps = event.angleDelta().y() / 120.0
        if steps:
            self.set_zoom(self.zoom * (1.2**steps), event.position())
        event.accept()

    def fit(self) -> None:
        """Fit the board sheet (and everything on it) into the window."""
        r = self.board_scene.board_rect()
        items = self.board_scene.itemsBoundingRect()
        if self.board_scene.items_by_key:
            r = r.united(items)
        self.fitInView(r.adjusted(-10, -10, 10, 10), Qt.AspectRatioMode.KeepAspectRatio)
        self.zoom_changed.emit(self.zoom)

    def fit_content(self) -> None:
        """Zoom to what is on the board (its tiles and features); an empty board: the sheet."""
        items = [it for it in self.board_scene.items_by_key.values() if it.isVisible()]
        if not items:
            self.fit()
            return
        r = items[0].sceneBoundingRect()
        for it in items[1:]:
            r = r.united(it.sceneBoundingRect())
        m = max(r.width(), r.height()) * 0.05 + 5
        self.fitInView(r.adjusted(-m, -m, m, m), Qt.AspectRatioMode.KeepAspectRatio)
        self.zoom_changed.emit(self.zoom)

    def actual_size(self) -> None:
        """1 mm on the board is 1 mm on the screen (the screen's logical dots per inch)."""
        self.set_zoom(self.logicalDpiX() / 25.4)

    def snap_radius(self) -> float:
        """Snapping radius in mm: 8 screen pixels."""
        return 8.0 / max(self.zoom, 1e-6)

    # ------------------------------------------------------------------ background
    def drawBackground(self, painter: QPainter, rect: QRectF | QRect) -> None:
        rect = QRectF(rect)
        painter.fillRect(rect, QColor("#8a8f96"))
        sheet = self.board_scene.board_rect()
        painter.fillRect(sheet.translated(1.5, 1.5), QColor(0, 0, 0, 60))
        painter.fillRect(sheet, QColor("#f4efe1"))
        if not self.show_grid:
            return
        step = grid_mm(self.board_scene.doc.board)
        while step * self.zoom < 7:
            step *= 5
        area = rect.intersected(sheet)
        if area.isEmpty():
            return
        minor = QPen(QColor(120, 110, 90, 50), 0)
        major = QPen(QColor(120, 110, 90, 110), 0)
        x = (int(area.left() // step) + 1) * step
        k = 0
        while x < area.right():
            painter.setPen(major if round(x / step) % 10 == 0 else minor)
            painter.drawLine(QPointF(x, area.top()), QPointF(x, area.bottom()))
            x += step
            k += 1
        y = (int(area.top() // step) + 1) * step
        while y < area.bottom():
            painter.setPen(major if round(y / step) % 10 == 0 else minor)
            painter.drawLine(QPointF(area.left(), y), QPointF(area.right(), y))
            y += step
        painter.setPen(QPen(QColor("#6b5a3a"), 0))
        painter.drawRect(sheet)

    # ------------------------------------------------------------------ mouse
    def _start_pan(self, event: QMouseEvent) -> None:
        self._pan_from = event.position()
        self.viewport().setCursor(Qt.CursorShape.ClosedHandCursor)

    def pan_by(self, dx_px: float, dy_px: float) -> None:
        """Pan by a screen-pixel offset (content follows the mouse).

        Notes
        -----
        Panning moves the scroll bars, so Qt scrolls the pixels already drawn and
        repaints only the strip that comes into view.
        """
        h, v = self.horizontalScrollBar(), self.verticalScrollBar()
        h.setValue(h.value() - round(dx_px))
        v.setValue(v.value() - round(dy_px))

    def mousePressEvent(self, event: QMouseEvent) -> None:
        if event.button() == Qt.MouseButton.MiddleButton or (
            self._space and event.button() == Qt.MouseButton.LeftButton
        ):
            self._start_pan(event)
            event.accept()
            return
        if self.tool is not None and self.tool.press(
            self.mapToScene(event.position().toPoint()), event
        ):
            event.accept()
            return
        super().mousePressEvent(event)

    def mouseMoveEvent(self, event: QMouseEvent) -> None:
        pos = self.mapToScene(event.position().toPoint())
        self.cursor_moved.emit(pos.x(), pos.y())
        if self._pan_from is not None:
            d = event.position() - self._pan_from
            self._pan_from = event.position()
            self.pan_by(d.x(), d.y())
            event.accept()
            return
        if self.tool is not None and self.tool.move(pos, event):
            event.accept()
            return
        super().mouseMoveEvent(event)

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:
        if self._pan_from is not None and event.button() in (
            Qt.MouseButton.MiddleButton,
            Qt.MouseButton.LeftButton,
        ):
            self._pan_from = None
            self.viewport().unsetCursor()
            event.accept()
            return
        if self.tool is not None and self.tool.release(
            self.mapToScene(event.position().toPoint()), event
        ):
            event.accept()
            return
        super().mouseReleaseEvent(event)

    def mouseDoubleClickEvent(self, event: QMouseEvent) -> None:
        if self.tool is not None and self.tool.double_click(
            self.mapToScene(event.position().toPoint()), event
        ):
            event.accept()
            return
        super().mouseDoubleClickEvent(event)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if event.key() == Qt.Key.Key_Space and not event.isAutoRepeat():
            self._space = True
            self.viewport().setCursor(Qt.CursorShape.OpenHandCursor)
            event.accept()
            return
        if self.tool is not None and self.tool.key(event):
            event.accept()
            return
        arrows = {
            Qt.Key.Key_Left: (-1, 0),
            Qt.Key.Key_Right: (1, 0),
            Qt.Key.Key_Up: (0, -1),
            Qt.Key.Key_Down: (0, 1),
        }
        if event.key() in arrows and self.board_scene.selected_keys():
            step = 10.0 if event.modifiers() & Qt.KeyboardModifier.ShiftModifier else 1.0
            dx, dy = arrows[Qt.Key(event.key())]
            self.nudged.emit(dx * step, dy * step)
            event.accept()
            return
        if event.key() == Qt.Key.Key_Escape and self.board_scene.selected_keys():
            self.board_scene.select_keys(set())
            event.accept()
            return
        super().keyPressEvent(event)

    def keyReleaseEvent(self, event: QKeyEvent) -> None:
        if event.key() == Qt.Key.Key_Space and not event.isAutoRepeat():
            self._space = False
            self._pan_from = None
            self.viewport().unsetCursor()
            event.accept()
            return
        super().keyReleaseEvent(event)

    def contextMenuEvent(self, event: QContextMenuEvent) -> None:
        if self.tool is not None and self.tool.context_menu(
            self.mapToScene(event.pos()), event.globalPos()
        ):
            return
        super().contextMenuEvent(event)

    # ------------------------------------------------------------------ drops
    @staticmethod
    def _accepts(md: QMimeData) -> bool:
        return md.hasFormat(TILE_MIME) or md.hasFormat(PIECE_MIME) or bool(local_files(md))

    def dragEnterEvent(self, event: QDragEnterEvent) -> None:
        if self._accepts(event.mimeData()):
            event.acceptProposedAction()
        else:
            super().dragEnterEvent(event)

    def dragMoveEvent(self, event: QDragMoveEvent) -> None:
        md = event.mimeData()
        if self._accepts(md):
            event.acceptProposedAction()
            if md.hasFormat(TILE_MIME) and self.snapping:
                key = bytes(md.data(TILE_MIME).data()).decode("utf-8")
                self.board_scene.show_slots(self.tile_lookup(key), 0, self.visible_rect())
        else:
            super().dragMoveEvent(event)

    def dragLeaveEvent(self, event: QDragLeaveEvent) -> None:
        self.board_scene.show_slots(None, 0, QRectF())
        super().dragLeaveEvent(event)

    def visible_rect(self) -> QRectF:
        """The scene rectangle shown in the viewport."""
        return self.mapToScene(self.viewport().rect()).boundingRect()

    def dropEvent(self, event: QDropEvent) -> None:
        md = event.mimeData()
        self.board_scene.show_slots(None, 0, QRectF())
        if md.hasFormat(TILE_MIME):
            key = bytes(md.data(TILE_MIME).data()).decode("utf-8")
            pos = self.mapToScene(event.position().toPoint())
            self.tile_dropped.emit(key, pos.x(), pos.y())
            event.acceptProposedAction()
        elif md.hasFormat(PIECE_MIME):
            key = bytes(md.data(PIECE_MIME).data()).decode("utf-8")
            pos = self.mapToScene(event.position().toPoint())
            self.piece_dropped.emit(key, pos.x(), pos.y())
            event.acceptProposedAction()
        elif local_files(md):
            pos = self.mapToScene(event.position().toPoint())
            self.files_dropped.emit(local_files(md), pos.x(), pos.y())
            event.acceptProposedAction()
        else:
            super().dropEvent(event)


def local_files(md: QMimeData) -> list[str]:
    """The local file paths among dropped URLs (desktop drags), in order."""
    if not md.hasUrls():
        return []
    return [u.toLocalFile() for u in md.urls() if u.isLocalFile()]
