"""Pictures in the main window: File ▸ Import image…, image files dropped on the
canvas, the Background panel, calibration, and Tools ▸ Trace spaces….

Where a dropped or imported picture goes:

1. onto the ``art`` feature or the placed tile under the drop point, if there is
   one (the art's picture; the tile's face, on every placement of that tile);
2. else, if the board has no background yet, it becomes the **background**: its
   top-left corner on the board's corner, scaled to the board's width;
3. else a new **art** feature shows it, centred on the drop point, a third of the
   board's smaller side on its longer side.

Each import is one undo step (several files dropped at once: one step). A refused
file (corrupt, too large, an SVG with scripts, not an image) shows one line naming
the file, and nothing is stored.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import shapely
from PySide6.QtCore import QObject, QPointF, Qt
from PySide6.QtGui import QUndoCommand
from PySide6.QtWidgets import QFileDialog, QInputDialog

from referee.errors import BoardwrightError
from referee.images import ImageInfo, ImageStore
from referee.model import Background, Feature

from .commands import (
    AddFeatureCommand,
    AddImageCommand,
    SetBackgroundCommand,
    SetPropertyCommand,
    SetTileFaceCommand,
)
from .docks.background import BackgroundDock
from .items import FeatureItem, TileItem
from .tools import CalibrateTool
from .window_protocol import menu_named

if TYPE_CHECKING:
    from .window_protocol import EditorWindow

IMAGE_FILTER = "Images (*.png *.jpg *.jpeg *.webp *.svg);;All files (*)"


class PicturesUI(QObject):
    """Installs the picture actions, the Background panel and the calibrate tool in
    ``win`` (see module docs)."""

    def __init__(self, win: EditorWindow) -> None:
        super().__init__(win.window())
        self.win = win
        self.dock = BackgroundDock(win.doc, win.window())
        win.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, self.dock)
        win.tabifyDockWidget(win.rotations, self.dock)
        win.inspector.raise_()
        self.dock.import_requested.connect(self.import_image)
        self.dock.calibrate_requested.connect(lambda: win.set_tool("calibrate"))
        self.calibrate_tool = CalibrateTool(win)
        self.calibrate_tool.ask_distance = self.ask_distance
        win.tools["calibrate"] = self.calibrate_tool
        self.a_calibrate = win.make_action(
            "&Calibrate background",
            lambda: win.set_tool("calibrate"),
            None,
            "Click two points of the background picture and type their real distance",
            checkable=True,
        )
        win.tool_group.addAction(self.a_calibrate)
        win.tool_actions["calibrate"] = self.a_calibrate
        self.a_import = win.make_action(
            "Import &image…",
            self.import_image,
            "Ctrl+I",
            "Add a picture: the background, or art on the board",
        )
        self.a_trace = win.make_action(
            "T&race spaces…",
            self.trace_spaces,
            None,
            "Find the spaces of the background picture and propose them as polygons",
        )
        file_menu = menu_named(win, "File")
        file_menu.insertAction(win.a_import, self.a_import)
        tools = menu_named(win, "Tools")
        tools.addSeparator()
        tools.addAction(self.a_calibrate)
        tools.addAction(self.a_trace)
        menu_named(win, "View").addAction(self.dock.toggleViewAction())
        win.view.files_dropped.connect(self.import_files)
        self.trace_dialog: object = None

    # ------------------------------------------------------------------ dialogs
    def ask_distance(self, now_mm: float) -> float | None:
        """Ask the real distance between the two clicked points (None: cancelled)."""
        value, ok = QInputDialog.getDouble(
            self.win.window(),
            "Calibrate background",
            f"The two points are {now_mm:.2f} mm apart on the board now.\n"
            "Their real distance (mm):",
            round(now_mm, 2),
            0.001,
            1e7,
            3,
        )
        return float(value) if ok else None

    def choose_files(self) -> list[str]:
        start = str(self.win.settings.value("files/last_image_dir", "") or "")
        files, _ = QFileDialog.getOpenFileNames(
            self.win.window(), "Import image", start, IMAGE_FILTER
        )
        if files:
            self.win.settings.setValue("files/last_image_dir", str(Path(files[0]).parent))
        return list(files)

    def import_image(self) -> None:
        files = self.choose_files()
        if files:
            c = self.win.view.mapToScene(self.win.view.viewport().rect().center())
            self.import_files(files, c.x(), c.y())

    # ------------------------------------------------------------------ importing
    def read(self, paths: list[str]) -> list[tuple[ImageInfo, bytes]] | None:
        """Check and read image files (all or none); a refused one is reported."""
        scratch = ImageStore()
        out: list[tuple[ImageInfo, bytes]] = []
        for p in paths:
            try:
                info = scratch.add_file(p)
                out.append((info, scratch.data(info.id)))
            except BoardwrightError as exc:
                msg = str(exc) if Path(p).name in str(exc) else f"{p}: {exc}"
                self.win.ask("critical", "Cannot import image", msg)
                self.win.status(f"Not imported: {msg}")
                return None
        return out

    def import_files(self, paths: list[str], x: float, y: float) -> list[str]:
        """Import image files at board point (x, y); returns where each went."""
        loaded = self.read(list(paths))
        if not loaded:
            return []
        undo = self.win.doc.undo
        placed: list[str] = []
        if len(loaded) > 1:
            undo.beginMacro(f"Import {len(loaded)} images")
        try:
            for info, data in loaded:
                use, where = self._use_for(info, x, y)
                undo.push(AddImageCommand(self.win.doc, info, data, use, use.text()))
                placed.append(where)
        finally:
            if len(loaded) > 1:
                undo.endMacro()
        self.win.status(f"Imported {', '.join(i.name for i, _ in loaded)} as {', '.join(placed)}")
        if "background" in placed:
            self.dock.show()
            self.dock.raise_()
        return placed

    def _use_for(self, info: ImageInfo, x: float, y: float) -> tuple[QUndoCommand, str]:
        doc = self.win.doc
        meta = doc.board.meta
        for it in self.win.scene.items(QPointF(x, y)):  # topmost first
            f = doc.feature(it.key[2:]) if isinstance(it, FeatureItem) else None
            if f is not None and f.kind == "art":
                cmd = SetPropertyCommand(doc, [f.id], "image", info.id)
                cmd.setText(f"Show {info.name} on art {f.id}")
                return cmd, f"art {f.id}"
            if isinstance(it, TileItem) and it.tile.key in doc.board.tiles:
                tile = doc.board.tiles[it.tile.key]
                face = SetTileFaceCommand(
                    doc, tile.key, info.id, f"Show {info.name} on tile {tile.name}"
                )
                return face, f"the face of tile {tile.name}"
        width = float(meta.get("width") or 600)
        height = float(meta.get("height") or 600)
        if doc.board.background is None:
            bg = Background(
                info.id,
                x=float(meta.get("x0") or 0),
                y=float(meta.get("y0") or 0),
                scale=width / max(info.width, 1),
            )
            return SetBackgroundCommand(doc, bg, f"Import background {info.name}"), "background"
        side = min(width, height) / 3.0
        scale = side / max(info.width, info.height, 1)
        w, h = info.width * scale, info.height * scale
        fid = doc.new_id("art")
        box = shapely.box(x - w / 2, y - h / 2, x + w / 2, y + h / 2)
        cmd2 = AddFeatureCommand(doc, Feature(fid, "art", box, {"image": info.id}))
        cmd2.setText(f"Import {info.name} as art {fid}")
        return cmd2, f"art {fid}"

    # ------------------------------------------------------------------ tracing
    def trace_spaces(self) -> None:
        from .trace_ui import TraceDialog

        bg = self.win.doc.board.background
        if bg is None or bg.image not in self.win.doc.board.images:
            self.win.ask(
                "information",
                "Trace spaces",
                "Trace spaces works on the background picture: import one first "
                "(File ▸ Import image…).",
            )
            return
        dlg = TraceDialog(self.win)
        self.trace_dialog = dlg
        dlg.show()
