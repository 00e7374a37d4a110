"""The asset editor: a tile's features in its own frame, its turns side by side, and a
pack's pieces and decks as tables.

A tile is edited with the same canvas, tools and undo commands as a board: its
features become the free-standing features of a scratch board whose origin is the
tile centre. *Save tile* writes them back with
:meth:`referee.assets.AssetPack.save_tile`; pieces and decks are saved with
:meth:`~referee.assets.AssetPack.save_manifest`.
"""

from __future__ import annotations

import copy
import json
from typing import Any

from PySide6.QtCore import QSize, Qt, QTimer, Signal
from PySide6.QtGui import QAction, QBrush, QCloseEvent, QColor, QKeySequence
from PySide6.QtWidgets import (
    QComboBox,
    QGraphicsPathItem,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QMainWindow,
    QMessageBox,
    QPushButton,
    QSplitter,
    QTableWidget,
    QTableWidgetItem,
    QTabWidget,
    QToolBar,
    QVBoxLayout,
    QWidget,
)

from referee.assets import AssetPack
from referee.errors import BoardwrightError
from referee.model import Board, Feature, TileAsset

from . import style, tile_faces
from .canvas import BoardScene, BoardView
from .commands import AddImageCommand, SetMetaCommand
from .docks.inspector import InspectorDock
from .docks.palette import tile_thumbnail
from .document import Document
from .picture_items import FaceItem
from .tools import DeleteTool, DrawLineTool, EditVerticesTool, PlacePointTool, SelectTool, Tool

KEY_ROLE = Qt.ItemDataRole.UserRole


def tile_board(tile: TileAsset) -> Board:
    """A scratch board holding ``tile``'s features, centred on the origin."""
    x0, y0, x1, y1 = tile.outline.bounds
    m = 10.0
    return Board(
        meta={
            "name": tile.name,
            "x0": x0 - m,
            "y0": y0 - m,
            "width": x1 - x0 + 2 * m,
            "height": y1 - y0 + 2 * m,
            "settings": {"grid_mm": 5},
            "face": tile.face,
        },
        features=[copy.deepcopy(f) for f in tile.features],
    )


def tile_from_board(tile: TileAsset, board: Board) -> TileAsset:
    """A new tile asset: ``tile`` with the features of ``board``."""
    return TileAsset(
        tile.key,
        tile.name,
        dict(tile.outline_spec),
        [Feature(f.id, f.kind, f.geometry, dict(f.props)) for f in board.features],
        tile.turnable,
        dict(tile.props),
        face=board.meta.get("face", tile.face),
    )


class AssetEditor(QMainWindow):
    """Edit tile assets, and the pieces and decks of a pack."""

    tile_saved = Signal(str)

    def __init__(
        self,
        packs: dict[str, AssetPack],
        tile_key: str | None = None,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle("Asset editor — Boardwright")
        self.resize(1200, 760)
        self.packs = packs
        self.tile: TileAsset | None = None
        self.doc = Document(Board(meta={"name": "tile"}), None, self)
        self.scene = BoardScene(self.doc, self)
        self.view = BoardView(self.scene, self)
        self.outline_item = QGraphicsPathItem()
        self.outline_item.setZValue(-10)
        self.outline_item.setBrush(QBrush(QColor(style.TILE_FILL)))
        self.outline_item.setPen(style.pen(style.TILE_EDGE, 1.0, cosmetic=True))
        self.scene.addItem(self.outline_item)
        self.face_item = FaceItem()
        self.scene.addItem(self.face_item)
        self.scene.extra_stores = [p.images for p in packs.values()]
        self.view.files_dropped.connect(self.drop_face)
        self.scene.markers.setVisible(False)  # a lone tile's ports always face nothing
        self.doc.changed.connect(lambda _k: self.update_previews())

        tabs = QTabWidget()
        self.setCentralWidget(tabs)
        # ---- tiles tab
        tiles_tab = QWidget()
        split = QSplitter()
        left = QWidget()
        ll = QVBoxLayout(left)
        self.pack_box = QComboBox()
        for pid, pack in packs.items():
            self.pack_box.addItem(pack.name, pid)
        self.tile_list = QListWidget()
        ll.addWidget(self.pack_box)
        ll.addWidget(self.tile_list, 1)
        self.save_button = QPushButton("Save tile into pack")
        self.save_button.clicked.connect(self.save_tile)
        ll.addWidget(self.save_button)
        centre = QWidget()
        cl = QVBoxLayout(centre)
        cl.setContentsMargins(0, 0, 0, 0)
        tb = QToolBar()
        tb.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)
        self.tools: dict[str, Tool] = {}
        for t in (
            SelectTool(self),
            DrawLineTool(self, "path"),
            PlacePointTool(self, "point"),
            PlacePointTool(self, "junction"),
            PlacePointTool(self, "door"),
            PlacePointTool(self, "port"),
            EditVerticesTool(self),
            DeleteTool(self),
        ):
            self.tools[t.name] = t
            a = tb.addAction(t.label)
            a.triggered.connect(lambda _c=False, n=t.name: self.set_tool(n))
        tb.addSeparator()
        undo = self.doc.undo.createUndoAction(self, "Undo")
        undo.setShortcuts(QKeySequence.keyBindings(QKeySequence.StandardKey.Undo))
        redo = self.doc.undo.createRedoAction(self, "Redo")
        redo.setShortcuts(QKeySequence.keyBindings(QKeySequence.StandardKey.Redo))
        tb.addAction(undo)
        tb.addAction(redo)
        cl.addWidget(tb)
        cl.addWidget(self.view, 1)
        self.status_label = QLabel()
        cl.addWidget(self.status_label)
        prev = QWidget()
        pl = QHBoxLayout(prev)
        self.previews = []
        for k in range(4):
            box = QVBoxLayout()
            lab = QLabel()
            lab.setFixedSize(QSize(130, 130))
            lab.setAlignment(Qt.AlignmentFlag.AlignCenter)
            cap = QLabel(f"turn {k}")
            cap.setAlignment(Qt.AlignmentFlag.AlignCenter)
            box.addWidget(lab)
            box.addWidget(cap)
            pl.addLayout(box)
            self.previews.append((lab, cap))
        cl.addWidget(prev)
        self.inspector = InspectorDock(self.doc, self)
        self.inspector.setFeatures(self.inspector.DockWidgetFeature.NoDockWidgetFeatures)
        self.scene.selectionChanged.connect(
            lambda: self.inspector.show_keys(sorted(self.scene.selected_keys()))
        )
        split.addWidget(left)
        split.addWidget(centre)
        split.addWidget(self.inspector)
        split.setSizes([220, 700, 280])
        tl = QVBoxLayout(tiles_tab)
        tl.addWidget(split)
        tabs.addTab(tiles_tab, "Tiles")
        # ---- pieces and decks
        self.pieces_table = self._json_table()
        self.decks_table = self._json_table()
        for table, label in ((self.pieces_table, "Pieces"), (self.decks_table, "Decks")):
            w = QWidget()
            lay = QVBoxLayout(w)
            lay.addWidget(table)
            row = QHBoxLayout()
            add = QPushButton(f"Add {label[:-1].lower()}")
            add.clicked.connect(lambda _c=False, t=table: self._add_row(t))
            rem = QPushButton("Remove selected")
            rem.clicked.connect(
                lambda _c=False, t=table: (
                    t.removeRow(max(t.currentRow(), 0)) if t.rowCount() else None
                )
            )
            save = QPushButton("Save pack")
            save.clicked.connect(self.save_manifest)
            for b in (add, rem, save):
                row.addWidget(b)
            row.addStretch(1)
            lay.addLayout(row)
            tabs.addTab(w, label)
        self.pack_box.currentIndexChanged.connect(self.load_pack_lists)
        self.tile_list.currentItemChanged.connect(
            lambda it, _p: self.open_tile(it.data(KEY_ROLE)) if it else None
        )
        self.set_tool("select")
        if tile_key and tile_key.split("/", 1)[0] in packs:
            self.pack_box.setCurrentIndex(self.pack_box.findData(tile_key.split("/", 1)[0]))
        self.load_pack_lists()
        if tile_key:
            self.select_tile(tile_key)

    # ------------------------------------------------------------------ ToolContext
    def status(self, message: str) -> None:
        self.status_label.setText(message)

    def context_actions(self) -> list[QAction | None]:
        return []

    def set_tool(self, name: str) -> None:
        if self.view.tool is not None:
            self.view.tool.deactivate()
        self.view.tool = self.tools[name]
        self.view.tool.activate()

    # ------------------------------------------------------------------ tiles
    @property
    def pack(self) -> AssetPack | None:
        return self.packs.get(self.pack_box.currentData())

    def load_pack_lists(self) -> None:
        pack = self.pack
        self.tile_list.clear()
        self.pieces_table.setRowCount(0)
        self.decks_table.setRowCount(0)
        if pack is None:
            return
        for key, tile in sorted(pack.tiles.items()):
            it = QListWidgetItem(tile.name)
            it.setData(KEY_ROLE, key)
            self.tile_list.addItem(it)
        for table, items in ((self.pieces_table, pack.piece_types), (self.decks_table, pack.decks)):
            for key, data in items.items():
                self._add_row(table, key.split("/", 1)[1], data)
        tile_faces.show_card_faces(self.decks_table, pack)

    def select_tile(self, key: str) -> None:
        for i in range(self.tile_list.count()):
            if self.tile_list.item(i).data(KEY_ROLE) == key:
                self.tile_list.setCurrentRow(i)
                return

    def open_tile(self, key: str) -> None:
        pack = self.pack
        if pack is None or key not in pack.tiles:
            return
        if self.doc.modified and self.tile is not None:
            ans = QMessageBox.question(
                self, "Asset editor", f"Discard the unsaved changes to {self.tile.name}?"
            )
            if ans != QMessageBox.StandardButton.Yes:
                return
        self.tile = pack.tiles[key]
        self.doc.replace_board(tile_board(self.tile), None)
        self.outline_item.setPath(style.geom_path(self.tile.outline))
        self.face_item.set_face(self.outline_item.path(), self.tile.face)
        r = self.scene.board_rect()
        self.view.setSceneRect(r.adjusted(-r.width(), -r.height(), r.width(), r.height()))
        self.view.fit()
        QTimer.singleShot(0, self.view.fit)  # again once the window has its size
        self.setWindowTitle(f"Asset editor — {self.tile.name} ({key})")
        self.inspector.empty_text = (
            f"<b>{self.tile.name}</b><br>{key}<br>{self.tile.shape}, "
            f"{'turns' if self.tile.turnable else 'never turns'}, "
            f"{len(self.tile.features)} features.<br><br>Select a "
            "feature to edit its properties."
        )
        self.inspector.show_keys([])
        self.update_previews()

    def closeEvent(self, event: QCloseEvent) -> None:
        """Unsaved edits to the tile ask first: Save tile, Discard, or Cancel (stay open)."""
        if self.doc.modified and self.tile is not None:
            B = QMessageBox.StandardButton
            ans = QMessageBox.question(
                self,
                "Asset editor",
                f"{self.tile.name} has unsaved changes. Save the tile into its pack?",
                B.Save | B.Discard | B.Cancel,
                B.Save,
            )
            if ans == B.Cancel or (ans == B.Save and not self.save_tile()):
                event.ignore()
                return
        event.accept()

    def current_tile(self) -> TileAsset | None:
        return tile_from_board(self.tile, self.doc.board) if self.tile else None

    def update_previews(self) -> None:
        t = self.current_tile()
        faces = tile_faces.store_for(t, self.doc.board.images, self.pack)
        if t is not None:
            self.face_item.set_face(self.outline_item.path(), t.face)
        for k, (lab, cap) in enumerate(self.previews):
            if t is None or k >= t.turn_count:
                lab.clear()
                continue
            lab.setPixmap(tile_thumbnail(t, 126, k, images=faces))
            cap.setText(f"turn {k}" + ("" if t.turnable else " (fixed tile)"))

    def drop_face(self, paths: list[str], x: float = 0.0, y: float = 0.0) -> str | None:
        """Make the (last) dropped image file the face of the tile being edited (one
        undo step); returns its image id."""
        if self.tile is None or not paths:
            return None
        try:
            info, data = tile_faces.read_image(paths[-1])
        except BoardwrightError as exc:
            QMessageBox.critical(self, "Cannot use this image", str(exc))
            return None
        use = SetMetaCommand(self.doc, "face", info.id)
        self.doc.undo.push(AddImageCommand(self.doc, info, data, use, f"Face {info.name}"))
        self.status(f"{info.name} is the face of {self.tile.name}: Save tile keeps it")
        return info.id

    def save_tile(self) -> bool:
        pack, t = self.pack, self.current_tile()
        if pack is None or t is None:
            return False
        try:
            tile_faces.keep_face(pack, t, self.doc.board.images)
            pack.save_tile(t)
        except (OSError, BoardwrightError) as exc:
            QMessageBox.critical(self, "Cannot save tile", str(exc))
            return False
        self.tile = t
        self.doc.mark_saved()
        self.status(f"Saved {t.key} into {pack.path}")
        self.tile_saved.emit(t.key)
        return True

    # ------------------------------------------------------------------ pieces and decks
    @staticmethod
    def _json_table() -> QTableWidget:
        t = QTableWidget(0, 2)
        t.setHorizontalHeaderLabels(["id", "data (JSON)"])
        t.horizontalHeader().setStretchLastSection(True)
        t.setColumnWidth(0, 180)
        return t

    @staticmethod
    def _add_row(
        table: QTableWidget, ident: str = "new", data: dict[str, Any] | None = None
    ) -> None:
        r = table.rowCount()
        table.insertRow(r)
        table.setItem(r, 0, QTableWidgetItem(ident))
        table.setItem(r, 1, QTableWidgetItem(json.dumps(data or {}, ensure_ascii=False)))

    def _read_table(self, table: QTableWidget, what: str) -> dict[str, dict[str, Any]] | None:
        pack = self.pack
        assert pack is not None
        out: dict[str, dict[str, Any]] = {}
        for r in range(table.rowCount()):
            cell_id, cell_data = table.item(r, 0), table.item(r, 1)
            ident = (cell_id.text() if cell_id else "").strip()
            raw = cell_data.text() if cell_data else "{}"
            if not ident or "/" in ident:
                QMessageBox.warning(
                    self,
                    "Cannot save",
                    f"{what} row {r + 1}: the id must be non-empty and without '/'",
                )
                return None
            try:
                data = json.loads(raw)
            except json.JSONDecodeError as exc:
                QMessageBox.warning(
                    self,
                    "Cannot save",
                    f"{what} {ident}: bad JSON ({exc.msg} at column {exc.colno})",
                )
                return None
            if not isinstance(data, dict):
                QMessageBox.warning(
                    self, "Cannot save", f"{what} {ident}: data must be a JSON object"
                )
                return None
            data.pop("id", None)
            out[f"{pack.id}/{ident}"] = data
        return out

    def save_manifest(self) -> bool:
        pack = self.pack
        if pack is None:
            return False
        pieces = self._read_table(self.pieces_table, "piece")
        decks = self._read_table(self.decks_table, "deck")
        if pieces is None or decks is None:
            return False
        pack.piece_types, pack.decks = pieces, decks
        try:
            pack.save_manifest()
        except OSError as exc:
            QMessageBox.critical(self, "Cannot save pack", str(exc))
            return False
        self.status(f"Saved {pack.path / 'pack.json'}")
        return True
