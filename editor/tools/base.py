"""The tool protocol and what a tool may reach (document, scene, view, status line)."""

from __future__ import annotations

import itertools
from typing import Protocol

from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtGui import QAction, QKeyEvent, QMouseEvent
from PySide6.QtWidgets import QMenu

from ..canvas import BoardScene, BoardView
from ..document import Document
from ..snapping import Snapper

_drags = itertools.count(1)


def next_drag() -> int:
    """A fresh token identifying one mouse drag (its commands merge into one undo step)."""
    return next(_drags)


class ToolContext(Protocol):
    doc: Document
    scene: BoardScene
    view: BoardView

    def status(self, message: str) -> None: ...

    def context_actions(self) -> list[QAction | None]: ...


class Tool:
    """Base tool: every handler returns True when it consumed the event."""

    name = "tool"
    label = "Tool"
    shortcut = ""
    cursor = Qt.CursorShape.ArrowCursor
    rubber_band = False

    def __init__(self, ctx: ToolContext) -> None:
        self.ctx = ctx

    @property
    def doc(self) -> Document:
        return self.ctx.doc

    def activate(self) -> None:
        v = self.ctx.view
        v.setDragMode(v.DragMode.RubberBandDrag if self.rubber_band else v.DragMode.NoDrag)
        v.viewport().setCursor(self.cursor)

    def deactivate(self) -> None:
        self.ctx.scene.preview.set([], None, False)
        self.ctx.scene.preview.set_handles([])

    def snap(
        self, pos: QPointF, event: QMouseEvent | None = None, snapper: Snapper | None = None
    ) -> tuple[QPointF, bool]:
        """Snap ``pos`` (Alt held, or snapping off: no snapping)."""
        if (
            snapper is None
            or not self.ctx.view.snapping
            or (event is not None and event.modifiers() & Qt.KeyboardModifier.AltModifier)
        ):
            return pos, False
        x, y, hit = snapper.snap(pos.x(), pos.y(), self.ctx.view.snap_radius())
        return QPointF(x, y), hit

    def press(self, pos: QPointF, event: QMouseEvent) -> bool:
        return False

    def move(self, pos: QPointF, event: QMouseEvent) -> bool:
        return False

    def release(self, pos: QPointF, event: QMouseEvent) -> bool:
        return False

    def double_click(self, pos: QPointF, event: QMouseEvent) -> bool:
        return False

    def key(self, event: QKeyEvent) -> bool:
        return False

    def context_menu(self, pos: QPointF, global_pos: QPoint) -> bool:
        """Right click: select what is under the cursor and offer the edit actions."""
        key = self.ctx.scene.key_at(pos)
        if key is None:
            return False
        if key not in self.ctx.scene.selected_keys():
            self.ctx.scene.select_keys({key})
        menu = QMenu(self.ctx.view)
        for a in self.ctx.context_actions():
            if a is None:
                menu.addSeparator()
            else:
                menu.addAction(a)
        menu.exec(global_pos)
        return True
