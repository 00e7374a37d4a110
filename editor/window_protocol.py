"""What the feature UIs (hosting, pictures, importing, tracing, playtest) use of the
main window, as a :class:`typing.Protocol`.

The feature UIs take an :class:`EditorWindow`, never :class:`editor.mainwindow.MainWindow`:
the main window builds them, so they sit below it and never import it (issue 26,
"Layers you can see"). The main window satisfies the protocol structurally; a member
is listed here only because a feature UI uses it. :func:`menu_named` is the one helper
they share.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Protocol

from PySide6.QtCore import QSettings, Qt
from PySide6.QtGui import QAction, QActionGroup
from PySide6.QtWidgets import QDockWidget, QMenu, QMenuBar, QWidget

from referee.model import Board

from .canvas import BoardScene, BoardView
from .docks import InspectorDock, RotationsDock
from .document import Document
from .tools.base import Tool


class EditorWindow(Protocol):
    """The main window as a feature UI sees it: the document, its scene and view, the
    docks it tabs beside, the shared actions and the status line."""

    doc: Document
    scene: BoardScene
    view: BoardView
    settings: QSettings
    inspector: InspectorDock
    rotations: RotationsDock
    tools: dict[str, Tool]
    tool_group: QActionGroup
    tool_actions: dict[str, QAction]
    a_import: QAction
    a_export: QAction
    a_undo: QAction
    a_redo: QAction
    a_cut: QAction
    a_paste: QAction
    a_dup: QAction
    a_delete: QAction
    a_turn_cw: QAction
    a_turn_ccw: QAction

    def window(self) -> QWidget:
        """The window itself as a widget: the parent of what a feature UI makes."""
        ...

    def make_action(
        self, text: str, slot: Any, shortcut: Any = None, tip: str = "", checkable: bool = False
    ) -> QAction: ...

    def status(self, message: str, ms: int = 6000) -> None: ...

    def context_actions(self) -> list[QAction | None]: ...

    def ask(
        self, kind: str, title: str, text: str, buttons: Any = None, default: Any = None
    ) -> Any: ...

    def set_tool(self, name: str) -> None: ...

    def set_board(self, board: Board, path: Path | str | None) -> None: ...

    def maybe_save(self) -> bool: ...

    def stop_playtest(self) -> None: ...

    def menuBar(self) -> QMenuBar: ...

    def addAction(self, action: QAction, /) -> None: ...

    def removeAction(self, action: QAction, /) -> None: ...

    def addDockWidget(self, area: Qt.DockWidgetArea, dockwidget: QDockWidget, /) -> None: ...

    def tabifyDockWidget(self, first: QDockWidget, second: QDockWidget, /) -> None: ...

    def removeDockWidget(self, dockwidget: QDockWidget, /) -> None: ...


def menu_named(win: EditorWindow, title: str) -> QMenu:
    """The main window's menu whose title (without ``&``) is ``title``."""
    for a in win.menuBar().actions():
        m = a.menu()
        if isinstance(m, QMenu) and a.text().replace("&", "") == title:
            return m
    raise KeyError(title)
