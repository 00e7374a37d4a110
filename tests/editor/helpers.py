"""Helpers to drive the canvas like a user: clicks and drags at scene coordinates (mm)."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtGui import QMouseEvent
from PySide6.QtWidgets import QApplication


def at(view: Any, x: float, y: float) -> QPoint:
    return view.mapFromScene(QPointF(x, y))


def send_mouse(
    view: Any,
    kind: Any,
    x: float,
    y: float,
    button: Qt.MouseButton = Qt.MouseButton.LeftButton,
    buttons: Qt.MouseButton | None = None,
    modifiers: Qt.KeyboardModifier = Qt.KeyboardModifier.NoModifier,
) -> None:
    """Send one real QMouseEvent to the view's viewport at scene point (x, y)."""
    p = QPointF(at(view, x, y))
    g = QPointF(view.viewport().mapToGlobal(p.toPoint()))
    if buttons is None:
        buttons = Qt.MouseButton.NoButton if kind == QMouseEvent.Type.MouseButtonRelease else button
    ev = QMouseEvent(kind, p, g, button, buttons, modifiers)
    QApplication.sendEvent(view.viewport(), ev)


def click(view: Any, x: float, y: float, **kw: Any) -> None:
    send_mouse(view, QMouseEvent.Type.MouseButtonPress, x, y, **kw)
    send_mouse(view, QMouseEvent.Type.MouseButtonRelease, x, y, **kw)


def double_click(view: Any, x: float, y: float) -> None:
    click(view, x, y)
    send_mouse(view, QMouseEvent.Type.MouseButtonPress, x, y)
    send_mouse(view, QMouseEvent.Type.MouseButtonDblClick, x, y)
    send_mouse(view, QMouseEvent.Type.MouseButtonRelease, x, y)


def drag(view: Any, path: list[tuple[float, float]], **kw: Any) -> None:
    """Press at the first point, move through the others, release at the last."""
    send_mouse(view, QMouseEvent.Type.MouseButtonPress, *path[0], **kw)
    for x, y in path[1:]:
        send_mouse(
            view,
            QMouseEvent.Type.MouseMove,
            x,
            y,
            button=Qt.MouseButton.NoButton,
            buttons=Qt.MouseButton.LeftButton,
        )
    send_mouse(view, QMouseEvent.Type.MouseButtonRelease, *path[-1], **kw)


def focus(win: Any, qtbot: Any) -> None:
    """Make ``win`` the active window with the canvas focused (so its shortcuts fire)."""
    win.activateWindow()
    win.view.setFocus()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is win, timeout=2000)
