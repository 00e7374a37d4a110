"""Canvas navigation a Tiled user expects: wheel zoom around the cursor, middle-drag and
Space-drag pan, fit, keyboard turn (R), status bar coordinates."""

from __future__ import annotations

from typing import Any

import shapely
from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtGui import QMouseEvent, QWheelEvent
from PySide6.QtWidgets import QApplication

from editor.document import new_board
from referee.model import Feature, Placement, TileAsset

from .helpers import send_mouse


def _wheel(view: Any, pos: QPoint, steps: int) -> None:
    ev = QWheelEvent(
        QPointF(pos),
        QPointF(view.viewport().mapToGlobal(pos)),
        QPoint(0, 0),
        QPoint(0, 120 * steps),
        Qt.MouseButton.NoButton,
        Qt.KeyboardModifier.NoModifier,
        Qt.ScrollPhase.NoScrollPhase,
        False,
    )
    QApplication.sendEvent(view.viewport(), ev)


def _pan_drag(view: Any, pixels: list[tuple[int, int]], button: Qt.MouseButton) -> None:
    """A drag at fixed viewport pixels (panning moves the scene under the mouse)."""

    def send(kind: Any, p: tuple[int, int], b: Qt.MouseButton, bs: Qt.MouseButton) -> None:
        pos = QPointF(*p)
        QApplication.sendEvent(
            view.viewport(),
            QMouseEvent(
                kind,
                pos,
                QPointF(view.viewport().mapToGlobal(pos.toPoint())),
                b,
                bs,
                Qt.KeyboardModifier.NoModifier,
            ),
        )

    send(QMouseEvent.Type.MouseButtonPress, pixels[0], button, button)
    for p in pixels[1:]:
        send(QMouseEvent.Type.MouseMove, p, Qt.MouseButton.NoButton, button)
    send(QMouseEvent.Type.MouseButtonRelease, pixels[-1], button, Qt.MouseButton.NoButton)


def test_wheel_zooms_around_the_cursor(make_window: Any) -> None:
    win = make_window(board=new_board(), packs={})
    v = win.view
    pos = QPoint(200, 150)
    under = v.mapToScene(pos)
    z = v.zoom
    _wheel(v, pos, 2)
    assert abs(v.zoom - z * 1.44) < 1e-6
    after = v.mapToScene(pos)
    assert (
        abs(after.x() - under.x()) < 1.0 / v.zoom + 1e-6
        and abs(after.y() - under.y()) < 1.0 / v.zoom + 1e-6
    )
    assert "px/mm" in win.zoom_label.text()


def test_middle_and_space_drag_pan(make_window: Any, qtbot: Any) -> None:
    win = make_window(board=new_board(), packs={})
    v = win.view
    v.set_zoom(4.0)
    before = v.mapToScene(v.viewport().rect().center())
    _pan_drag(v, [(300, 200), (340, 200), (380, 240)], Qt.MouseButton.MiddleButton)
    after = v.mapToScene(v.viewport().rect().center())
    # the content follows the mouse (80 px, 40 px at 4 px/mm): the view centre moves back
    assert abs((before.x() - after.x()) - 20) < 0.5 and abs((before.y() - after.y()) - 10) < 0.5
    assert win.doc.undo.count() == 0  # panning is not an edit
    qtbot.keyPress(v, Qt.Key.Key_Space)
    _pan_drag(v, [(300, 200), (270, 190), (240, 180)], Qt.MouseButton.LeftButton)
    qtbot.keyRelease(v, Qt.Key.Key_Space)
    again = v.mapToScene(v.viewport().rect().center())
    assert abs((again.x() - after.x()) - 15) < 1 and abs((again.y() - after.y()) - 5) < 1
    assert win.doc.undo.count() == 0 and win.scene.selected_keys() == set()


def test_r_key_turns_the_selected_tile(make_window: Any, qtbot: Any) -> None:
    tile = TileAsset(
        "t/sq",
        "Square",
        {"shape": "square", "size": 80},
        [Feature("c", "point", shapely.Point(0, -20), {"colour": "grey", "wind": "N"})],
    )
    b = new_board()
    b.tiles[tile.key] = tile
    b.placements.append(Placement("t1", tile.key, 200, 200, 0))
    win = make_window(board=b, packs={})
    win.activateWindow()
    win.view.setFocus()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is win, timeout=2000)
    win.scene.select_keys({"p:t1"})
    qtbot.keyClick(win.view, Qt.Key.Key_R)
    assert b.placements[0].turns == 1
    qtbot.keyClick(win.view, Qt.Key.Key_R, Qt.KeyboardModifier.ShiftModifier)
    qtbot.keyClick(win.view, Qt.Key.Key_R, Qt.KeyboardModifier.ShiftModifier)
    assert b.placements[0].turns == 3
    win.doc.recompile_now()
    # the wind arrow turned with the tile: N -> W after three quarter turns clockwise
    assert win.doc.compiled.graph.nodes["t1/c"]["wind"] == "W"


def test_status_bar_shows_cursor_millimetres(make_window: Any) -> None:
    win = make_window(board=new_board(), packs={})
    send_mouse(
        win.view,
        QMouseEvent.Type.MouseMove,
        123.0,
        45.0,
        button=Qt.MouseButton.NoButton,
        buttons=Qt.MouseButton.NoButton,
    )
    text = win.coord_label.text()
    assert "mm" in text
    x = float(text.split()[1])
    assert abs(x - 123.0) < 2.0
