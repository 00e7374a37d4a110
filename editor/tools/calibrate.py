"""Calibrate the background's scale: click two points on the picture, type their distance."""

from __future__ import annotations

import copy
from collections.abc import Callable

from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QKeyEvent, QMouseEvent

from referee.errors import BoardwrightError

from ..commands import SetBackgroundCommand
from .base import Tool


class CalibrateTool(Tool):
    """Click two points of the background whose real distance you know, then type it (Esc cancels)."""

    name = "calibrate"
    label = "Calibrate background"
    cursor = Qt.CursorShape.CrossCursor

    #: the first point clicked, until the second
    first: QPointF | None = None
    #: asks the real distance (mm) given the current one; None means cancelled
    ask_distance: Callable[[float], float | None] | None = None

    def activate(self) -> None:
        super().activate()
        self.first = None

    def deactivate(self) -> None:
        super().deactivate()
        self.first = None

    def press(self, pos: QPointF, event: QMouseEvent) -> bool:
        if event.button() != Qt.MouseButton.LeftButton:
            return False
        bg = self.doc.board.background
        if bg is None:
            self.ctx.status("Import a background picture first (File ▸ Import image…)")
            return True
        if bg.locked:
            self.ctx.status("The background is locked: unlock it in the Background panel")
            return True
        if self.first is None:
            self.first = QPointF(pos)
            self.ctx.scene.preview.set([self.first], pos, False)
            self.ctx.status("Now click the second point")
            return True
        a, b = (self.first.x(), self.first.y()), (pos.x(), pos.y())
        self.first = None
        self.ctx.scene.preview.set([], None, False)
        self.calibrate(a, b)
        return True

    def calibrate(self, a: tuple[float, float], b: tuple[float, float]) -> bool:
        """Ask for the real distance between board points ``a`` and ``b`` and rescale the
        background so they are that far apart (one undo step); False if cancelled."""
        bg = self.doc.board.background
        if bg is None:
            return False
        now = ((a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2) ** 0.5
        distance = self.ask_distance(now) if self.ask_distance is not None else None
        if distance is None:
            self.ctx.status("Calibration cancelled")
            return False
        new = copy.copy(bg)
        try:
            new.calibrate(a, b, float(distance))
        except BoardwrightError as exc:
            self.ctx.status(f"Cannot calibrate: {exc}")
            return False
        self.doc.undo.push(SetBackgroundCommand(self.doc, new, "Calibrate background"))
        self.ctx.status(
            f"Background calibrated: {new.scale:.4g} mm per pixel ({now:.1f} mm became {distance:g} mm)"
        )
        return True

    def move(self, pos: QPointF, event: QMouseEvent) -> bool:
        if self.first is not None:
            self.ctx.scene.preview.set([self.first], pos, False)
            return True
        return False

    def key(self, event: QKeyEvent) -> bool:
        if event.key() == Qt.Key.Key_Escape and self.first is not None:
            self.first = None
            self.ctx.scene.preview.set([], None, False)
            self.ctx.status("Calibration cancelled")
            return True
        return False
