"""The Design dock: ``referee design`` on the open board in the background; the
best candidates appear with thumbnails as they are found; one is laid on the board
as one undo step, or opened as a new board."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt

from referee.compiler import compile_board
from referee.rotations import census
from referee.store import load_project

from .conftest import RINGGEISTER

HANG_MS = 120_000  # bounds a hung run; the test waits on the signal


def layout_of(board: Any) -> list[tuple[str, str, int]]:
    return [(p.id, p.tile, p.turns) for p in board.placements]


def search(qtbot: Any, dock: Any, steps: int) -> None:
    dock.budget.setValue(steps)
    with qtbot.waitSignal(dock.run_finished, timeout=HANG_MS):
        qtbot.mouseClick(dock.run_btn, Qt.MouseButton.LeftButton)
        assert dock.running and dock.stop_btn.isEnabled() and not dock.run_btn.isEnabled()
    assert not dock.running and dock.run_btn.isEnabled()


def test_search_apply_undo_and_open(make_window: Any, qtbot: Any) -> None:
    win = make_window(load_project(RINGGEISTER), packs={})
    dock = win.design
    assert win.dock_actions["DesignDock"] in win.view_menu.actions()
    start = layout_of(win.doc.board)
    search(qtbot, dock, 40)
    assert dock.result is not None and not dock.result.interrupted
    assert dock.list.count() >= 1 and not dock.list.item(0).icon().isNull()
    best = dock.found[0]
    assert best.score > dock.result.base.score  # the start board's 63.43 % is beaten
    assert best.score == dock.result.best[0].score
    assert layout_of(win.doc.board) == start  # the search changed nothing by itself
    dock.list.setCurrentRow(0)
    dock.apply_btn.click()
    laid = win.doc.board
    assert [(p.tile, p.turns) for p in laid.placements] == list(best.layout)
    again = census(compile_board(laid), fewest=False)
    assert again.success == best.measures.success
    win.doc.undo.undo()
    assert layout_of(win.doc.board) == start
    win.doc.undo.redo()
    assert [(p.tile, p.turns) for p in win.doc.board.placements] == list(best.layout)
    win.doc.undo.undo()
    assert not win.doc.modified  # undone to the opened board: no question
    dock.open_btn.click()
    opened = win.doc.board
    assert [(p.tile, p.turns) for p in opened.placements] == list(best.layout)
    assert win.doc.path is None and win.doc.undo.count() == 0


def test_stop_ends_the_run_with_what_it_found(make_window: Any, qtbot: Any) -> None:
    win = make_window(load_project(RINGGEISTER), packs={})
    dock = win.design
    dock.budget.setValue(100000)
    with qtbot.waitSignal(dock.run_finished, timeout=HANG_MS):
        dock.run_btn.click()
        qtbot.waitUntil(lambda: dock.list.count() >= 1, timeout=HANG_MS)
        dock.stop_btn.click()
    assert dock.result is not None and dock.result.interrupted
    assert "stopped" in dock.status.text()


def test_bad_objective_is_one_line(make_window: Any, qtbot: Any) -> None:
    win = make_window(load_project(RINGGEISTER), packs={})
    dock = win.design
    dock.objective_edit.setText("beauty")
    search(qtbot, dock, 5)
    assert "unknown term 'beauty'" in dock.status.text() and dock.result is None
