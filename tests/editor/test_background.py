"""The Background panel and calibration by two clicks (issue "Your own art")."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from PIL import Image
from PySide6.QtCore import Qt

from editor.document import new_board
from referee.images import ImageStore
from referee.model import Background

from .helpers import click, drag


def _window(make_window: Any, tmp_path: Path, **bg: Any) -> Any:
    board = new_board()
    f = tmp_path / "scan.png"
    Image.new("RGB", (200, 100), "#8d6e63").save(f)
    info = board.images.add_file(f)
    board.background = Background(info.id, **bg)
    return make_window(board=board, packs={})


def test_the_panel_shows_the_background_and_edits_it_with_undo(
    make_window: Any, tmp_path: Path
) -> None:
    win = _window(make_window, tmp_path, scale=2.0)
    dock = win.pictures.dock
    assert "scan.png" in dock.info.text() and "400.0 × 200.0 mm" in dock.info.text()
    steps = win.doc.undo.count()
    dock.visible.setChecked(False)
    assert not win.doc.board.background.visible
    assert not win.scene.background_item.isVisible()
    dock.x_box.setValue(25.0)
    assert win.doc.board.background.x == 25.0
    assert win.scene.background_item.pos().x() == 25.0
    assert win.doc.undo.count() == steps + 2
    win.a_undo.trigger()
    assert win.doc.board.background.x == 0.0 and dock.x_box.value() == 0.0
    win.a_undo.trigger()
    assert win.doc.board.background.visible and dock.visible.isChecked()


def test_dragging_the_opacity_slider_is_one_undo_step(make_window: Any, tmp_path: Path) -> None:
    win = _window(make_window, tmp_path)
    dock = win.pictures.dock
    steps = win.doc.undo.count()
    dock.opacity.sliderPressed.emit()
    for v in (90, 70, 50, 40):
        dock.opacity.setValue(v)
    dock.opacity.sliderReleased.emit()
    assert win.doc.board.background.opacity == pytest.approx(0.4)
    assert win.scene.background_item.opacity() == pytest.approx(0.4)
    assert win.doc.undo.count() == steps + 1
    dock.opacity.setValue(20)  # a new drag: a new step
    assert win.doc.undo.count() == steps + 2
    win.a_undo.trigger()
    win.a_undo.trigger()
    assert win.doc.board.background.opacity == 1.0


def test_a_locked_background_cannot_be_moved_or_calibrated(
    make_window: Any, tmp_path: Path
) -> None:
    win = _window(make_window, tmp_path)
    dock = win.pictures.dock
    dock.locked.setChecked(True)
    assert win.doc.board.background.locked
    assert not dock.x_box.isEnabled() and not dock.calibrate_button.isEnabled()
    assert dock.opacity.isEnabled()
    win.set_tool("calibrate")
    click(win.view, 10, 10)
    click(win.view, 110, 10)
    assert win.doc.board.background.scale == 1.0
    assert "locked" in win.statusBar().currentMessage()


def test_calibrate_by_clicking_two_points_and_typing_their_distance(
    make_window: Any, tmp_path: Path
) -> None:
    win = _window(make_window, tmp_path, x=10.0, y=20.0, scale=1.0)
    asked: list[float] = []

    def answer(now: float) -> float:
        asked.append(now)
        return 250.0

    win.pictures.calibrate_tool.ask_distance = answer
    old = win.doc.board.background
    # where the clicks land on the board (to the screen pixel), and the picture there
    q1, q2 = (win.view.mapToScene(win.view.mapFromScene(x, 40)).toTuple() for x in (30, 130))
    p1, p2 = old.to_image(*q1), old.to_image(*q2)
    steps = win.doc.undo.count()
    win.pictures.dock.calibrate_button.click()  # picks the tool
    assert win.view.tool is win.pictures.calibrate_tool
    click(win.view, 30, 40)
    click(win.view, 130, 40)
    assert asked == [pytest.approx(100.0, abs=2.0)]
    bg = win.doc.board.background
    assert bg.scale == pytest.approx(250.0 / asked[0])
    # the first point stays under the first click; the second is now 250 mm away
    assert bg.to_board(*p1) == pytest.approx(q1)
    b1, b2 = bg.to_board(*p1), bg.to_board(*p2)
    assert ((b2[0] - b1[0]) ** 2 + (b2[1] - b1[1]) ** 2) ** 0.5 == pytest.approx(250.0)
    assert win.doc.undo.count() == steps + 1
    assert win.doc.undo.text(win.doc.undo.count() - 1) == "Calibrate background"
    win.a_undo.trigger()
    assert win.doc.board.background.scale == 1.0 and win.doc.board.background.x == 10.0


def test_cancelling_the_distance_changes_nothing(make_window: Any, tmp_path: Path) -> None:
    win = _window(make_window, tmp_path)
    win.pictures.calibrate_tool.ask_distance = lambda now: None
    steps = win.doc.undo.count()
    win.set_tool("calibrate")
    click(win.view, 10, 10)
    click(win.view, 60, 10)
    assert win.doc.undo.count() == steps and win.doc.board.background.scale == 1.0


def test_remove_background_is_undoable_and_keeps_the_image(
    make_window: Any, tmp_path: Path
) -> None:
    win = _window(make_window, tmp_path)
    image = win.doc.board.background.image
    win.pictures.dock.remove_button.click()
    assert win.doc.board.background is None and image in win.doc.board.images
    assert not win.pictures.dock.remove_button.isEnabled()
    win.a_undo.trigger()
    assert win.doc.board.background is not None
    assert isinstance(win.doc.board.images, ImageStore)


def test_drawing_tools_work_over_the_background(make_window: Any, tmp_path: Path) -> None:
    from .helpers import double_click

    win = _window(make_window, tmp_path, scale=2.0)
    win.set_tool("space")
    for x, y in ((50, 50), (150, 50), (150, 150)):
        click(win.view, x, y)
    double_click(win.view, 50, 150)
    spaces = [f for f in win.doc.board.features if f.kind == "space"]
    assert len(spaces) == 1 and spaces[0].geometry.area == pytest.approx(100 * 100, rel=0.05)
    assert win.doc.board.background.x == 0.0  # the picture never takes the clicks
    win.set_tool("select")
    click(win.view, 300, 180)  # on the picture, off every feature: selects nothing
    assert win.scene.selected_keys() == set()


def _on_screen(win: Any, x: float, y: float) -> tuple[float, float]:
    """Where a press at board point (x, y) lands on the board (to the screen pixel)."""
    p = win.view.mapToScene(win.view.mapFromScene(x, y))
    return p.x(), p.y()


def test_the_select_tool_drags_the_background_in_one_undo_step(
    make_window: Any, tmp_path: Path
) -> None:
    win = _window(make_window, tmp_path, x=10.0, y=20.0, scale=2.0)  # 400 × 200 mm
    win.set_tool("select")
    steps = win.doc.undo.count()
    (ax, ay), (bx, by) = _on_screen(win, 100, 100), _on_screen(win, 160, 140)
    drag(win.view, [(100, 100), (120, 110), (140, 125), (160, 140)])
    bg = win.doc.board.background
    assert (bg.x, bg.y) == pytest.approx((10.0 + bx - ax, 20.0 + by - ay))
    assert (bg.x, bg.y) == pytest.approx((70.0, 60.0), abs=2.0)
    assert (bg.scale, bg.rotation, bg.image) == (2.0, 0.0, win.doc.board.background.image)
    assert win.scene.background_item.pos().toTuple() == pytest.approx((bg.x, bg.y))
    assert win.pictures.dock.x_box.value() == pytest.approx(bg.x, abs=0.01)
    assert win.doc.undo.count() == steps + 1  # the whole drag is one step
    assert win.doc.undo.text(steps) == "Move background"
    assert win.scene.selected_keys() == set()
    win.a_undo.trigger()
    assert (win.doc.board.background.x, win.doc.board.background.y) == (10.0, 20.0)
    assert win.scene.background_item.pos().toTuple() == (10.0, 20.0)
    win.a_redo.trigger()
    assert win.doc.board.background.x == pytest.approx(bg.x)
    drag(win.view, [(150, 150), (170, 150)])  # a second drag is a second step
    assert win.doc.undo.count() == steps + 2


def test_a_locked_background_is_not_dragged_and_ctrl_drags_a_box_over_it(
    make_window: Any, tmp_path: Path
) -> None:
    win = _window(make_window, tmp_path, scale=2.0)
    win.set_tool("select")
    steps = win.doc.undo.count()
    drag(win.view, [(50, 50), (90, 90)], modifiers=Qt.KeyboardModifier.ControlModifier)
    assert (win.doc.board.background.x, win.doc.board.background.y) == (0.0, 0.0)
    win.pictures.dock.locked.setChecked(True)
    steps = win.doc.undo.count()
    drag(win.view, [(50, 50), (70, 60), (90, 90)])
    assert (win.doc.board.background.x, win.doc.board.background.y) == (0.0, 0.0)
    assert win.doc.undo.count() == steps


def test_dragging_a_shape_over_the_background_moves_the_shape(
    make_window: Any, tmp_path: Path
) -> None:
    from .helpers import double_click

    win = _window(make_window, tmp_path, scale=2.0)
    win.set_tool("space")
    for x, y in ((50, 50), (150, 50), (150, 150)):
        click(win.view, x, y)
    double_click(win.view, 50, 150)
    win.set_tool("select")
    drag(win.view, [(100, 100), (120, 100), (140, 100)])
    space = next(f for f in win.doc.board.features if f.kind == "space")
    assert space.geometry.bounds[0] == pytest.approx(90.0, abs=2.0)
    assert (win.doc.board.background.x, win.doc.board.background.y) == (0.0, 0.0)
