"""Habits of a desktop app: Help menu and F1, arrow nudge, Esc, Ctrl+0 / Ctrl+1, shortcuts
on Quit and Export, tooltips on the Inspector's fields, a saved board's name."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import shapely
from PySide6.QtCore import Qt
from PySide6.QtGui import QKeySequence

from editor.document import new_board
from referee.model import Feature

from .helpers import focus
from .test_flows import _Pack, _port_tile, drop_tile


def _board_with_a_point() -> Any:
    b = new_board()
    b.features.append(Feature("p1", "point", shapely.Point(100, 100), {"colour": "grey"}))
    return b


def test_f1_shows_the_shortcuts_sheet_from_the_help_menu(make_window: Any, qtbot: Any) -> None:
    win = make_window(packs={})
    titles = [a.text().replace("&", "") for a in win.help_menu.actions() if a.text()]
    assert titles == ["Keyboard shortcuts", "Documentation", "About Boardwright"]
    focus(win, qtbot)
    qtbot.keyClick(win.view, Qt.Key.Key_F1)
    dlg = win.shortcuts_dialog
    assert dlg.isVisible()
    rows = {what: keys for keys, what in dlg.rows()}
    assert rows["Quit"] == QKeySequence("Ctrl+Q").toString(QKeySequence.SequenceFormat.NativeText)
    assert "Export JSON" in rows and "Zoom to content" in rows and "Place port" in rows
    assert any("Nudge" in what for what in rows)
    dlg.close()


def test_about_says_what_it_is(make_window: Any, asked: Any) -> None:
    win = make_window(packs={})
    win.a_about.trigger()
    (_kind, title, text) = asked.calls[-1]
    assert title == "About Boardwright" and "referee" in text


def test_quit_and_export_have_shortcuts(make_window: Any) -> None:
    win = make_window(packs={})
    assert win.a_quit.shortcut() == QKeySequence("Ctrl+Q")
    assert win.a_export.shortcut() == QKeySequence("Ctrl+E")
    assert win.a_export_png.shortcut() == QKeySequence("Ctrl+Shift+E")


def test_arrows_nudge_the_selection_and_shift_nudges_further(make_window: Any, qtbot: Any) -> None:
    win = make_window(board=_board_with_a_point(), packs={})
    focus(win, qtbot)
    win.scene.select_keys({"f:p1"})
    qtbot.keyClick(win.view, Qt.Key.Key_Right)
    qtbot.keyClick(win.view, Qt.Key.Key_Down, Qt.KeyboardModifier.ShiftModifier)
    g = win.doc.feature("p1").geometry
    assert (g.x, g.y) == (101.0, 110.0)
    win.a_undo.trigger()
    win.a_undo.trigger()
    g = win.doc.feature("p1").geometry
    assert (g.x, g.y) == (100.0, 100.0)


def test_esc_clears_the_selection(make_window: Any, qtbot: Any) -> None:
    win = make_window(board=_board_with_a_point(), packs={})
    focus(win, qtbot)
    win.scene.select_keys({"f:p1"})
    qtbot.keyClick(win.view, Qt.Key.Key_Escape)
    assert win.scene.selected_keys() == set()


def test_ctrl_0_zooms_to_the_content_and_ctrl_1_is_actual_size(
    make_window: Any, qtbot: Any
) -> None:
    win = make_window(packs={"test": _Pack([_port_tile()])})
    drop_tile(win, "test/cross", 160.0, 160.0)
    focus(win, qtbot)
    qtbot.keyClick(win.view, Qt.Key.Key_0, Qt.KeyboardModifier.ControlModifier)
    shown = win.view.visible_rect()
    # the 80 mm tile fills the view, not the 600 mm page
    assert min(shown.width(), shown.height()) < 200
    assert shown.contains(160.0, 160.0)
    qtbot.keyClick(win.view, Qt.Key.Key_1, Qt.KeyboardModifier.ControlModifier)
    assert win.view.zoom == pytest.approx(win.view.logicalDpiX() / 25.4)


def _tips(win: Any) -> dict[str, str]:
    return {k: w.toolTip() for k, w in win.inspector.widgets.items()}


def test_every_inspector_field_has_a_tooltip(make_window: Any) -> None:
    win = make_window(packs={"test": _Pack([_port_tile()])})
    board_tips = _tips(win)
    assert set(board_tips) >= {"name", "rules", "width", "height"}
    assert all(board_tips.values())
    drop_tile(win, "test/cross", 160.0, 160.0)
    tile_tips = _tips(win)
    assert set(tile_tips) == {"x", "y", "turns"} and all(tile_tips.values())
    win.doc.board.features.append(Feature("q1", "port", shapely.Point(0, 0), {"side": "N"}))
    win.doc.replace_board(win.doc.board, None)
    win.scene.select_keys({"f:q1"})
    tips = _tips(win)
    assert tips and all(tips.values())
    assert "facing" in tips["side"] and "N, E, S, W" in tips["side"]


def test_a_board_saved_the_first_time_takes_its_files_name(
    make_window: Any, tmp_path: Path
) -> None:
    win = make_window(packs={})
    assert win.doc.board.name == "untitled"
    assert win.save_to(tmp_path / "my-board.bwproj")
    win.inspector.show_keys([])
    assert win.inspector.widgets["name"].text() == "my-board"
    assert not win.doc.modified
