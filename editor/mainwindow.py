"""The main window: canvas, docks, menus, toolbar, files, autosave and recovery."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtCore import QByteArray, QEvent, QObject, QPointF, QSettings, Qt, QTimer
from PySide6.QtGui import QAction, QActionGroup, QCloseEvent, QKeyEvent, QKeySequence
from PySide6.QtWidgets import (
    QApplication,
    QComboBox,
    QDockWidget,
    QLabel,
    QMainWindow,
    QMenu,
    QMessageBox,
    QSpinBox,
    QToolBar,
    QUndoView,
    QWidget,
)

from referee.assets import AssetPack, load_packs
from referee.errors import BoardwrightError
from referee.export import EXPORTERS
from referee.model import Board

from . import clipboard
from .canvas import BoardScene, BoardView
from .commands import (
    AddFeaturesCommand,
    DeleteCommand,
    EditVerticesCommand,
    MoveCommand,
    PlacePieceCommand,
    PlaceTileCommand,
)
from .connect import Fix, fix_for
from .docks import InspectorDock, PaletteDock, ProblemsDock, RotationsDock, key_of_node
from .docks.design import DesignDock
from .document import Document
from .files import APP_NAME, FileActions
from .help import ShortcutsDialog, about_text, open_docs, shortcut_rows
from .hosting import HostingUI
from .images import PicturesUI
from .importing import ImportUI
from .playtest_setup import PlaytestActions
from .snapping import snap_tile_centre
from .tools import (
    DeleteTool,
    DrawLineTool,
    DrawSpaceTool,
    DrawTrackTool,
    EditVerticesTool,
    PlacePointTool,
    SelectTool,
    Tool,
    TurnTool,
    turn_selection,
)
from .tools.draw_track import DEFAULT_SPACES

AUTOSAVE_MS = 60_000


class MainWindow(FileActions, PlaytestActions, QMainWindow):
    """Boardwright's main window. ``ask`` may be replaced in tests (message boxes)."""

    def __init__(
        self,
        board: Board | None = None,
        path: str | Path | None = None,
        packs: dict[str, AssetPack] | None = None,
        parent: QWidget | None = None,
        settings: QSettings | None = None,
    ) -> None:
        super().__init__(parent)
        self.setObjectName("BoardwrightMainWindow")
        #: recent files, last folder and window layout (``--screenshot`` passes
        #: throwaway settings so it never touches the user's own)
        self.settings = settings if settings is not None else QSettings()
        self.doc = Document(board, path, self)
        self.scene = BoardScene(self.doc, self)
        self.view = BoardView(self.scene, self)
        self.setCentralWidget(self.view)
        self.playtest: Any = None
        self._asset_editor: Any = None
        self._build_docks(packs)
        self._build_actions()
        self._build_menus()
        self._build_toolbars()
        self.pictures = PicturesUI(self)
        self.hosting = HostingUI(self)
        self.importing = ImportUI(self)
        self._build_status()
        self._wire_document()
        app_instance().installEventFilter(self)
        self.autosave_timer = QTimer(self)
        self.autosave_timer.setInterval(AUTOSAVE_MS)
        self.autosave_timer.timeout.connect(self.autosave)
        self.autosave_timer.start()
        self.set_tool("select")
        self._restore_layout()
        self._update_title()
        self.on_compiled()

    # ================================================================== construction
    def _build_docks(self, packs: dict[str, AssetPack] | None) -> None:
        self.palette_dock = PaletteDock(self)
        try:
            self.packs = packs if packs is not None else load_packs()
        except BoardwrightError as exc:
            self.packs = {}
            msg = f"Asset packs not loaded: {exc}"
            QTimer.singleShot(0, lambda: self.status(msg))
        self.palette_dock.set_packs(self.packs)
        self.scene.extra_stores = [p.images for p in self.packs.values() if hasattr(p, "images")]
        self.palette_dock.place_requested.connect(self.place_tile_at_centre)
        self.addDockWidget(Qt.DockWidgetArea.LeftDockWidgetArea, self.palette_dock)
        self.inspector = InspectorDock(self.doc, self)
        self.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, self.inspector)
        self.problems = ProblemsDock(self)
        self.problems.activated.connect(self.goto_problem)
        self.problems.fix_requested.connect(self.fix_problem)
        self.problems.fixer = self._fix_label
        self.addDockWidget(Qt.DockWidgetArea.BottomDockWidgetArea, self.problems)
        self.history = QDockWidget("History", self)
        self.history.setObjectName("HistoryDock")
        self.undo_view = QUndoView(self.doc.undo)
        self.undo_view.setEmptyLabel("<opened>")
        self.history.setWidget(self.undo_view)
        self.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, self.history)
        self.tabifyDockWidget(self.inspector, self.history)
        self.rotations = RotationsDock(self.doc, self.scene, self.view, self)
        self.rotations.status_message.connect(self.status)
        self.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, self.rotations)
        self.tabifyDockWidget(self.history, self.rotations)
        self.design = DesignDock(self.doc, self, packs=self.packs)
        self.design.status_message.connect(self.status)
        self.design.open_board.connect(self.open_designed)
        self.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, self.design)
        self.tabifyDockWidget(self.rotations, self.design)
        self.inspector.raise_()
        self.resizeDocks([self.palette_dock, self.inspector], [230, 280], Qt.Orientation.Horizontal)
        self.resizeDocks([self.problems], [150], Qt.Orientation.Vertical)

    def make_action(
        self, text: str, slot: Any, shortcut: Any = None, tip: str = "", checkable: bool = False
    ) -> QAction:
        a = QAction(text, self)
        if shortcut is not None:
            if isinstance(shortcut, list):
                a.setShortcuts(shortcut)
            else:
                a.setShortcut(QKeySequence(shortcut))
        if tip:
            a.setStatusTip(tip)
            a.setToolTip(f"{text.replace('&', '')} — {tip}")
        a.setCheckable(checkable)
        a.triggered.connect(slot)
        return a

    def _build_actions(self) -> None:
        SK = QKeySequence.StandardKey
        self.a_new = self.make_action("&New", self.file_new, SK.New, "Start an empty board")
        self.a_open = self.make_action("&Open…", self.file_open, SK.Open, "Open a project")
        self.a_save = self.make_action("&Save", self.file_save, SK.Save, "Save the project")
        self.a_save_as = self.make_action(
            "Save &As…", self.file_save_as, SK.SaveAs, "Save the project under a new name"
        )
        self.a_import = self.make_action(
            "&Import JSON…", self.file_import_json, None, "Open a project's JSON export"
        )
        self.a_export = self.make_action(
            "&Export JSON…", self.file_export_json, "Ctrl+E", "Write the lossless JSON export"
        )
        self.a_export_svg = self.make_action(
            "Export S&VG…", lambda: self.file_export_picture("svg")
        )
        self.a_export_png = self.make_action(
            "Export &PNG…", lambda: self.file_export_picture("png"), "Ctrl+Shift+E"
        )
        self.a_recover = self.make_action(
            "Recover autosa&ves…",
            self.file_recover,
            None,
            "List the autosaves of unsaved work: restore, keep or discard them",
        )
        self.a_quit = self.make_action("&Quit", self.close, "Ctrl+Q")
        self.a_undo = self.doc.undo.createUndoAction(self, "&Undo")
        self.a_undo.setShortcuts(QKeySequence.keyBindings(SK.Undo))
        self.a_redo = self.doc.undo.createRedoAction(self, "&Redo")
        self.a_redo.setShortcuts(QKeySequence.keyBindings(SK.Redo))
        self.a_cut = self.make_action("Cu&t", self.edit_cut, SK.Cut)
        self.a_copy = self.make_action("&Copy", self.edit_copy, SK.Copy)
        self.a_paste = self.make_action("&Paste", self.edit_paste, SK.Paste)
        self.a_dup = self.make_action("D&uplicate", self.edit_duplicate, "Ctrl+D")
        self.a_delete = self.make_action("&Delete", self.edit_delete, SK.Delete)
        self.a_select_all = self.make_action("Select &All", self.edit_select_all, SK.SelectAll)
        self.a_turn_cw = self.make_action(
            "Turn &clockwise",
            lambda: self.turn_selected(1),
            "R",
            "Turn the selected tiles a quarter turn clockwise",
        )
        self.a_turn_ccw = self.make_action(
            "Turn a&nticlockwise",
            lambda: self.turn_selected(-1),
            "Shift+R",
            "Turn the selected tiles anticlockwise",
        )
        self.a_history = self.history.toggleViewAction()
        self.a_history.setText("&History")
        self.a_zoom_in = self.make_action(
            "Zoom &in", lambda: self.view.set_zoom(self.view.zoom * 1.25), SK.ZoomIn
        )
        self.a_zoom_out = self.make_action(
            "Zoom &out", lambda: self.view.set_zoom(self.view.zoom / 1.25), SK.ZoomOut
        )
        self.a_fit = self.make_action(
            "&Zoom to content", self.view.fit_content, "Ctrl+0", "Show everything on the board"
        )
        self.a_fit_page = self.make_action(
            "Fit &page", self.view.fit, "Ctrl+9", "Fit the board sheet to the window"
        )
        self.a_actual = self.make_action(
            "&Actual size", self.view.actual_size, "Ctrl+1", "1 mm on the board is 1 mm on screen"
        )
        self.a_help_keys = self.make_action(
            "&Keyboard shortcuts", self.show_shortcuts, "F1", "Every shortcut of the editor"
        )
        self.a_help_docs = self.make_action(
            "&Documentation", open_docs, None, "The editor's reference: tools, shortcuts, docks"
        )
        self.a_about = self.make_action("&About Boardwright", self.show_about)
        self.a_grid = self.make_action("Show &grid", self.toggle_grid, "Ctrl+'", checkable=True)
        self.a_grid.setChecked(True)
        self.a_snap = self.make_action(
            "&Snapping",
            self.toggle_snap,
            "Ctrl+Shift+'",
            "Snap to vertices, ports and the grid (hold Alt to suspend)",
            checkable=True,
        )
        self.a_snap.setChecked(True)
        self.a_graph = self.make_action(
            "Compiled &graph overlay",
            self.toggle_graph,
            "G",
            "Show the compiled graph, edges coloured by relation",
            checkable=True,
        )
        self.a_asset_editor = self.make_action(
            "&Asset editor…",
            self.open_asset_editor,
            None,
            "Edit tile assets, decks and pieces of a pack",
        )
        self.a_playtest = self.make_action(
            "&Playtest…", self.start_playtest, "F5", "Play the board against its rules referee"
        )
        self.a_stop_playtest = self.make_action("&Stop playtest", self.stop_playtest, "Shift+F5")
        self.a_stop_playtest.setEnabled(False)
        # tools
        self.tools: dict[str, Tool] = {}
        for tool in (
            SelectTool(self),
            TurnTool(self),
            DrawSpaceTool(self),
            DrawLineTool(self, "path"),
            DrawLineTool(self, "river"),
            DrawLineTool(self, "road"),
            DrawTrackTool(self),
            PlacePointTool(self, "point"),
            PlacePointTool(self, "junction"),
            PlacePointTool(self, "door"),
            PlacePointTool(self, "river_dot"),
            PlacePointTool(self, "bridge"),
            PlacePointTool(self, "port"),
            EditVerticesTool(self),
            DeleteTool(self),
        ):
            self.tools[tool.name] = tool
        self.tool_group = QActionGroup(self)
        self.tool_actions: dict[str, QAction] = {}
        for name, t in self.tools.items():
            a = self.make_action(
                t.label,
                lambda _c=False, n=name: self.set_tool(n),
                t.shortcut or None,
                tool_help(t),
                checkable=True,
            )
            self.tool_group.addAction(a)
            self.tool_actions[name] = a

    def _build_menus(self) -> None:
        mb = self.menuBar()
        m = mb.addMenu("&File")
        for a in (self.a_new, self.a_open):
            m.addAction(a)
        self.recent_menu = m.addMenu("Open &Recent")
        m.addSeparator()
        for a in (self.a_save, self.a_save_as):
            m.addAction(a)
        m.addSeparator()
        for a in (self.a_import, self.a_export, self.a_export_svg, self.a_export_png):
            m.addAction(a)
        self.export_menu = m.addMenu("Export &as")
        self.export_actions: dict[str, QAction] = {}
        for name, ex in EXPORTERS.items():
            if ex.picture:
                continue  # SVG and PNG have their own entries
            a = self.make_action(f"{name}…", lambda _c=False, n=name: self.file_export_format(n))
            a.setStatusTip(ex.description)
            a.setToolTip(ex.description)
            self.export_menu.addAction(a)
            self.export_actions[name] = a
        m.addSeparator()
        m.addAction(self.a_recover)
        m.addSeparator()
        m.addAction(self.a_quit)
        self._refresh_recent()
        m = mb.addMenu("&Edit")
        for item in (
            self.a_undo,
            self.a_redo,
            None,
            self.a_cut,
            self.a_copy,
            self.a_paste,
            self.a_dup,
            self.a_delete,
            self.a_select_all,
            None,
            self.a_turn_cw,
            self.a_turn_ccw,
            None,
            self.a_history,
        ):
            m.addSeparator() if item is None else m.addAction(item)
        m = mb.addMenu("&View")
        for item in (
            self.a_zoom_in,
            self.a_zoom_out,
            self.a_fit,
            self.a_fit_page,
            self.a_actual,
            None,
            self.a_grid,
            self.a_snap,
            self.a_graph,
            None,
        ):
            m.addSeparator() if item is None else m.addAction(item)
        self.dock_actions: dict[str, QAction] = {}
        for d in (self.palette_dock, self.inspector, self.problems, self.rotations, self.design):
            a = self._dock_action(d)
            self.dock_actions[d.objectName()] = a
            m.addAction(a)
        self.view_menu = m
        m = mb.addMenu("&Tools")
        for a in self.tool_actions.values():
            m.addAction(a)
        m = mb.addMenu("&Assets")
        m.addAction(self.a_asset_editor)
        m = mb.addMenu("&Playtest")
        m.addAction(self.a_playtest)
        m.addAction(self.a_stop_playtest)
        m = mb.addMenu("&Help")
        for h in (self.a_help_keys, self.a_help_docs, None, self.a_about):
            m.addSeparator() if h is None else m.addAction(h)
        self.help_menu = m

    def _dock_action(self, dock: QDockWidget) -> QAction:
        """A View menu entry for ``dock``: shows it, raises it when its tab is behind
        another, and hides it only when it is in front."""
        a = QAction(dock.windowTitle().split(" (")[0], self)
        a.setCheckable(True)
        a.setChecked(not dock.isHidden())
        a.setStatusTip(f"Show the {a.text()} panel (again, when it is in front, hides it)")
        dock.toggleViewAction().toggled.connect(a.setChecked)
        a.triggered.connect(lambda _on=False, d=dock, act=a: self.show_dock(d, act))
        return a

    def show_dock(self, dock: QDockWidget, action: QAction | None = None) -> None:
        if dock.isHidden():
            dock.show()
            dock.raise_()
        elif dock.visibleRegion().isEmpty():
            dock.raise_()  # its tab is behind another: bring it to the front
        else:
            dock.hide()
        if action is not None:
            action.setChecked(not dock.isHidden())

    def _build_toolbars(self) -> None:
        tb = QToolBar("File", self)
        tb.setObjectName("FileToolbar")
        tb.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)
        for a in (
            self.a_new,
            self.a_open,
            self.a_save,
            None,
            self.a_undo,
            self.a_redo,
            None,
            self.a_turn_ccw,
            self.a_turn_cw,
            None,
            self.a_fit,
            self.a_graph,
            None,
            self.a_playtest,
        ):
            tb.addSeparator() if a is None else tb.addAction(a)
        self.addToolBar(tb)
        tt = QToolBar("Tools", self)
        tt.setObjectName("ToolsToolbar")
        tt.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)
        for a in self.tool_actions.values():
            tt.addAction(a)
        tt.addSeparator()
        self.track_spaces = QSpinBox()
        self.track_spaces.setRange(2, 999)
        self.track_spaces.setValue(DEFAULT_SPACES)
        self.track_spaces.setPrefix("track spaces ")
        self.track_spaces.setToolTip("How many numbered spaces Draw track lays along its route")
        track = self.tools["track"]
        assert isinstance(track, DrawTrackTool)
        self.track_spaces.valueChanged.connect(track.set_count)
        tt.addWidget(self.track_spaces)
        self.addToolBarBreak()
        self.addToolBar(tt)

    def _build_status(self) -> None:
        sb = self.statusBar()
        self.coord_label = QLabel("x —  y —")
        self.zoom_label = QLabel("100%")
        self.compile_label = QLabel("")
        for w in (self.compile_label, self.coord_label, self.zoom_label):
            w.setMinimumWidth(90)
            sb.addPermanentWidget(w)
        self.view.cursor_moved.connect(
            lambda x, y: self.coord_label.setText(f"x {x:7.1f}  y {y:7.1f} mm")
        )
        self.view.zoom_changed.connect(lambda z: self.zoom_label.setText(f"zoom {z:.2f} px/mm"))
        self.view.tile_dropped.connect(self.drop_tile)
        self.view.nudged.connect(self.nudge)
        self.view.tile_lookup = self.find_tile
        self.view.piece_dropped.connect(self.drop_piece)

    def _wire_document(self) -> None:
        self.doc.modified_changed.connect(lambda _m: self._update_title())
        self.doc.path_changed.connect(self._update_title)
        self.doc.compiled_changed.connect(self.on_compiled)
        self.doc.changed.connect(self._on_doc_changed)
        self.scene.selectionChanged.connect(self._on_selection)
        self.inspector.reselect.connect(self.scene.select_keys)

    # ================================================================== keys
    def eventFilter(self, obj: QObject, event: QEvent) -> bool:
        """Letters typed into a drop-down list of this window (the Inspector's choices)
        search the list: they do not fire the one-letter tool shortcuts."""
        if (
            event.type() == QEvent.Type.ShortcutOverride
            and isinstance(obj, QComboBox)
            and isinstance(event, QKeyEvent)
            and event.text().isprintable()
            and event.text()
            and not event.modifiers()
            & (Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.AltModifier)
            and obj.window() is self
        ):
            event.accept()
            return True
        return super().eventFilter(obj, event)

    # ================================================================== helpers
    def status(self, message: str, ms: int = 6000) -> None:
        self.statusBar().showMessage(message, ms)

    def context_actions(self) -> list[QAction | None]:
        return [
            self.a_turn_cw,
            self.a_turn_ccw,
            None,
            self.a_cut,
            self.a_copy,
            self.a_dup,
            self.a_delete,
        ]

    def ask(
        self, kind: str, title: str, text: str, buttons: Any = None, default: Any = None
    ) -> Any:
        """Show a message box (``kind`` = question/critical/warning/information)."""
        fn = getattr(QMessageBox, kind)
        if buttons is None:
            return fn(self, title, text)
        return (
            fn(self, title, text, buttons, default)
            if default is not None
            else fn(self, title, text, buttons)
        )

    def _update_title(self) -> None:
        self.setWindowTitle(f"{self.doc.title}[*] — {APP_NAME}")
        self.setWindowModified(self.doc.modified)

    def set_tool(self, name: str) -> None:
        cur = self.view.tool
        if cur is not None:
            cur.deactivate()
        tool = self.tools[name]
        self.view.tool = tool
        tool.activate()
        self.tool_actions[name].setChecked(True)
        self.status(tool_help(tool))

    def _on_selection(self) -> None:
        try:
            keys = sorted(self.scene.selected_keys())
        except RuntimeError:
            return
        self.inspector.show_keys(keys)

    def _on_doc_changed(self, keys: object) -> None:
        self.inspector.show_keys(sorted(self.scene.selected_keys()))

    def on_compiled(self) -> None:
        c = self.doc.compiled
        probs = c.problems
        self.problems.set_problems(probs)
        n = c.counts()
        nodes = sum(n["nodes"].values())
        edges = sum(n["edges"].values())
        self.compile_label.setText(
            f"{nodes} nodes, {edges} edges, "
            f"{sum(1 for p in probs if p.severity == 'error')} errors · "
            f"compiled in {self.doc.last_compile_ms:.0f} ms "
            f"({self.doc.live.last_strategy})"
        )

    def goto_problem(self, problem: Any) -> None:
        if problem is None:
            return
        key = key_of_node(problem.node)
        if key is not None and key in self.scene.items_by_key:
            self.scene.select_keys({key})
        if problem.x is not None:
            self.view.centerOn(QPointF(problem.x, problem.y))
        elif key in self.scene.items_by_key:
            self.view.centerOn(self.scene.items_by_key[key])
        self.scene.markers.highlight = (problem.x, problem.y) if problem.x is not None else None

    def _fix(self, problem: Any) -> Fix | None:
        return fix_for(self.doc.board, problem, lambda: self.doc.new_id("port"))

    def _fix_label(self, problem: Any) -> str | None:
        fix = self._fix(problem)
        return fix.label if fix is not None else None

    def fix_problem(self, problem: Any) -> bool:
        """Apply the one-click fix of ``problem`` as one undo step; False if it has none."""
        fix = self._fix(problem)
        if fix is None:
            return False
        self.doc.undo.beginMacro(fix.label[:1].upper() + fix.label[1:])
        if fix.new_geometry is not None:
            self.doc.undo.push(EditVerticesCommand(self.doc, fix.path_id, fix.new_geometry))
        if fix.add:
            self.doc.undo.push(AddFeaturesCommand(self.doc, fix.add, fix.label))
        self.doc.undo.endMacro()
        self.status(f"Fixed: {fix.label}")
        return True

    # ================================================================== help
    def show_shortcuts(self) -> ShortcutsDialog:
        """Help ▸ Keyboard shortcuts (F1): the sheet, built from the window's actions."""
        acts = [a for m in self.menuBar().findChildren(QMenu) for a in m.actions()]
        dlg = ShortcutsDialog(shortcut_rows(acts), self)
        self.shortcuts_dialog = dlg
        dlg.show()
        return dlg

    def show_about(self) -> None:
        self.ask("information", f"About {APP_NAME}", about_text())

    # ================================================================== editing
    def nudge(self, dx: float, dy: float) -> bool:
        """Move the selection by (dx, dy) mm (the arrow keys); False if nothing is selected."""
        keys = {k for k in self.scene.selected_keys() if not k.startswith("c:")}
        if not keys or self.playtest is not None:
            return False
        self.doc.undo.push(MoveCommand(self.doc, keys, dx, dy))
        return True

    def find_tile(self, key: str) -> Any:
        return self.palette_dock.tile(key) or self.doc.board.tiles.get(key)

    def drop_tile(self, key: str, x: float, y: float) -> str | None:
        """Place the tile asset ``key`` with its centre near (x, y), snapped."""
        tile = self.find_tile(key)
        if tile is None:
            self.status(f"Unknown tile {key}")
            return None
        if self.view.snapping:
            x, y = snap_tile_centre(
                self.doc.board if key in self.doc.board.tiles else _with_tile(self.doc.board, tile),
                None,
                key,
                0,
                x,
                y,
                max(self.view.snap_radius(), 6.0),
            )
        pack = self.packs.get(key.split("/", 1)[0])
        cmd = PlaceTileCommand(self.doc, tile, x, y, images=getattr(pack, "images", None))
        self.doc.undo.push(cmd)
        self.scene.select_keys({f"p:{cmd.placement.id}"})
        return cmd.placement.id

    def drop_piece(self, key: str, x: float, y: float) -> str | None:
        """Stand a piece of type ``key`` on the place (point, space, river dot) nearest (x, y)."""
        data = self.palette_dock.piece_type(key) or self.doc.board.piece_types.get(key)
        if data is None:
            self.status(f"Unknown piece {key}")
            return None
        self.doc.recompile_now()
        c = self.doc.compiled
        near = [
            n
            for n in c.hit(x, y, max(10.0, self.view.snap_radius()))
            if c.graph.nodes[n].get("kind") in ("point", "space", "river_dot")
        ]
        if not near:
            self.status("Drop a piece on a point, a space or a river dot")
            return None
        cmd = PlacePieceCommand(self.doc, key, data, near[0])
        self.doc.undo.push(cmd)
        return cmd.piece.id

    def place_tile_at_centre(self, key: str) -> None:
        c = self.view.mapToScene(self.view.viewport().rect().center())
        self.drop_tile(key, c.x(), c.y())

    def turn_selected(self, delta: int) -> None:
        if not turn_selection(self.doc, self.scene.selected_keys(), delta):
            self.status("Select a tile that can turn (R turns clockwise, Shift+R anticlockwise)")

    def edit_copy(self) -> None:
        if clipboard.copy_to_clipboard(self.doc, self.scene.selected_keys()):
            self.status("Copied")

    def edit_cut(self) -> None:
        keys = self.scene.selected_keys()
        if clipboard.copy_to_clipboard(self.doc, keys):
            self.doc.undo.push(DeleteCommand(self.doc, keys))

    def edit_paste(self) -> None:
        keys = clipboard.paste_from_clipboard(self.doc)
        if keys:
            self.scene.select_keys(keys)
        else:
            self.status("Nothing to paste")

    def edit_duplicate(self) -> None:
        keys = clipboard.duplicate(self.doc, self.scene.selected_keys())
        if keys:
            self.scene.select_keys(keys)

    def edit_delete(self) -> None:
        keys = self.scene.selected_keys()
        if keys:
            self.doc.undo.push(DeleteCommand(self.doc, keys))

    def edit_select_all(self) -> None:
        self.scene.select_keys(set(self.scene.items_by_key))

    def toggle_grid(self, on: bool) -> None:
        self.view.show_grid = on
        self.view.viewport().update()

    def toggle_snap(self, on: bool) -> None:
        self.view.snapping = on

    def toggle_graph(self, on: bool) -> None:
        self.doc.recompile_now()
        self.scene.show_graph(on)

    # ================================================================== board
    def set_board(self, board: Board, path: Path | str | None) -> None:
        """Show ``board`` (from ``path``, or untitled) in this window, history cleared."""
        self.stop_playtest()
        self.doc.replace_board(board, path)
        self.inspector.show_keys([])
        r = self.scene.board_rect()
        self.view.setSceneRect(
            r.adjusted(-r.width() * 2, -r.height() * 2, r.width() * 2, r.height() * 2)
        )
        self.view.fit()
        self._update_title()

    def open_designed(self, board: Board) -> None:
        """A layout from the Design dock, as a new untitled board."""
        if self.maybe_save():
            self.set_board(board, None)
            self.status("Opened the designed layout; Save As to keep it as a project")

    # ================================================================== windows
    def open_asset_editor(self) -> None:
        from .asset_editor import AssetEditor

        keys = [k for k in self.scene.selected_keys() if k.startswith("p:")]
        tile_key = None
        if keys:
            p = self.doc.placement(keys[0][2:])
            tile_key = p.tile if p else None
        old = self._asset_editor
        if old is not None and old.isVisible() and not old.close():
            old.raise_()  # its unsaved tile stays open
            return
        self._asset_editor = AssetEditor(self.packs, tile_key, self)
        self._asset_editor.tile_saved.connect(self._tile_saved)
        self._asset_editor.show()

    def _tile_saved(self, key: str) -> None:
        self.palette_dock.set_packs(self.packs)
        self.status(f"Saved tile {key} into its pack; place it again to use the new version")

    def _restore_layout(self) -> None:
        geo = self.settings.value("window/geometry")
        state = self.settings.value("window/state")
        if isinstance(geo, QByteArray) and not geo.isEmpty():
            self.restoreGeometry(geo)
        else:
            self.resize(1400, 900)
        if isinstance(state, QByteArray) and not state.isEmpty():
            self.restoreState(state)

    def save_layout(self) -> None:
        self.settings.setValue("window/geometry", self.saveGeometry())
        self.settings.setValue("window/state", self.saveState())

    def closeEvent(self, event: QCloseEvent) -> None:
        editor = self._asset_editor
        if editor is not None and editor.isVisible() and not editor.close():
            event.ignore()  # its unsaved tile: the user cancelled
            return
        if not self.maybe_save():
            event.ignore()
            return
        self.stop_playtest()
        self.hosting.stop()
        self.rotations.shutdown()
        self.design.shutdown()
        self._clear_own_autosave()
        self.save_layout()
        event.accept()


def tool_help(tool: Tool) -> str:
    """One line saying how to use a tool (its class docstring's first line)."""
    doc = (type(tool).__doc__ or "").strip().splitlines()
    return f"{tool.label}: {doc[0]}" if doc else tool.label


def _with_tile(board: Board, tile: Any) -> Board:
    """A shallow view of ``board`` that also knows ``tile`` (for snapping a new tile)."""
    b = Board(meta=board.meta, tiles=dict(board.tiles), placements=board.placements)
    b.tiles[tile.key] = tile
    return b


def app_instance() -> QApplication:
    app = QApplication.instance()
    assert isinstance(app, QApplication)
    return app
