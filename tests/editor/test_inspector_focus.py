"""The Inspector keeps the designer's place: committing one field (Tab or a click into
the next) rebuilds the form from the model, and the field the designer moved to keeps
its focus and what was typed into it; a Problems refresh does not disturb a field
being typed in."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QLabel, QLineEdit
from shapely.geometry import Point

from editor.document import new_board
from referee.model import Feature

from .helpers import focus


def _window(make_window: Any, qtbot: Any) -> Any:
    board = new_board()
    board.meta["rules"] = "mount-doom"
    board.features.append(Feature("p1", "point", Point(100.0, 100.0), {"index": 3}))
    win = make_window(board=board, packs={})
    focus(win, qtbot)
    win.scene.select_keys(["f:p1"])
    assert win.inspector.keys == ["f:p1"]
    return win


def _focused_key(win: Any) -> str | None:
    fw = QApplication.focusWidget()
    for key, w in win.inspector.widgets.items():
        if fw is w or (fw is not None and w.isAncestorOf(fw)):
            return key
    return None


def test_tab_to_the_next_field_keeps_the_focus_there(make_window: Any, qtbot: Any) -> None:
    win = _window(make_window, qtbot)
    name = win.inspector.widgets["name"]
    assert isinstance(name, QLineEdit)
    name.setFocus()
    qtbot.keyClicks(name, "Rohan")
    qtbot.keyClick(name, Qt.Key.Key_Tab)  # commits the name, moves on to Event
    assert win.doc.feature("p1").props["name"] == "Rohan"
    assert _focused_key(win) == "event"
    qtbot.keyClicks(QApplication.focusWidget(), "dark_heart")
    qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_Return)
    assert win.doc.feature("p1").props == {"index": 3, "name": "Rohan", "event": "dark_heart"}


def test_a_click_into_another_field_keeps_it_and_its_typing(make_window: Any, qtbot: Any) -> None:
    win = _window(make_window, qtbot)
    name, index = win.inspector.widgets["name"], win.inspector.widgets["index"]
    name.setFocus()
    qtbot.keyClicks(name, "Gondor")
    qtbot.mouseClick(index, Qt.MouseButton.LeftButton)  # focus moves: the name commits
    assert win.doc.feature("p1").props["name"] == "Gondor"
    assert _focused_key(win) == "index"
    field = win.inspector.widgets["index"]
    field.selectAll()
    qtbot.keyClicks(field, "28")
    qtbot.keyClick(field, Qt.Key.Key_Return)
    assert win.doc.feature("p1").props["index"] == 28


def test_a_problems_refresh_leaves_a_field_being_typed_in(make_window: Any, qtbot: Any) -> None:
    win = _window(make_window, qtbot)
    name = win.inspector.widgets["name"]
    name.setFocus()
    qtbot.keyClicks(name, "Minas")
    # an edit elsewhere (another feature moves) and the recompile it brings
    win.doc.board.features.append(Feature("p2", "point", Point(200.0, 100.0), {"index": 4}))
    win.doc.changed.emit({"f:p2"})
    win.doc.recompile_now()
    qtbot.wait(50)
    assert _focused_key(win) == "name"
    field = win.inspector.widgets["name"]
    assert field.text() == "Minas"
    qtbot.keyClicks(field, " Morgul")
    qtbot.keyClick(field, Qt.Key.Key_Return)
    assert win.doc.feature("p1").props["name"] == "Minas Morgul"


def test_the_board_form_counts_follow_each_compile_in_place(make_window: Any, qtbot: Any) -> None:
    """On main the board form's node counts were those of the last rebuild (an empty
    'Nodes:' line after a track was drawn); now they follow each compile, and the board's
    Name field being typed in keeps its focus and text."""
    win = make_window(board=new_board(), packs={})
    focus(win, qtbot)
    name = win.inspector.widgets["name"]
    name.setFocus()
    qtbot.keyClicks(name, "Mount")
    typed = name.text()
    win.tools["track"].add_track([(40.0, 60.0), (200.0, 60.0)], 5)
    win.doc.recompile_now()
    shown = {
        lab.text()
        for lab in win.inspector.scroll_area.widget().findChildren(QLabel)
        if lab.isVisible()
    }
    assert {"Nodes: point 5", "Edges: next 4"} <= shown
    assert _focused_key(win) == "name" and win.inspector.widgets["name"].text() == typed
