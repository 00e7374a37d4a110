"""The Rotations dock (issue 7 item 5): the editor shows the same rotation analysis as
``referee turns`` for the open board — figures, critical tiles ranked and tinted,
witnesses loaded as one undoable edit, legal turns of the selected tile — and the
analysis runs off the GUI thread and can be stopped."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtGui import QImage
from PySide6.QtWidgets import QApplication

from editor.commands import MoveCommand, TurnCommand
from editor.docks.rotations.formatting import fmt_classes, fmt_int
from referee.compiler import compile_board
from referee.rotations import census, legal_turns
from referee.rotations.generate import grid_board
from referee.store import load_project

from .conftest import RINGGEISTER
from .helpers import click

HANG_MS = 120_000  # a bound on a hung run, never a wait: tests wait on signals


def run_dock(qtbot: Any, dock: Any) -> Any:
    """Press Run and wait for the dock's `run_finished` signal; the GUI thread stays free
    meanwhile (the timeout only bounds a hang, it is not waited out)."""
    with qtbot.waitSignal(dock.run_finished, timeout=HANG_MS):
        qtbot.mouseClick(dock.run_btn, Qt.MouseButton.LeftButton)
        assert dock.running and not dock.run_btn.isEnabled() and dock.stop_btn.isEnabled()
    assert not dock.running
    assert dock.run_btn.isEnabled() and not dock.stop_btn.isEnabled()
    return dock.result


def turns_of(board: Any) -> dict[str, int]:
    return {p.id: p.turns for p in board.placements}


def check_same_as_census(dock: Any, expected: Any) -> None:
    """The dock's figures, table and tint equal what census() says for the same board."""
    res = dock.result
    assert res is not None and not res.partial and not dock.stale
    assert (res.total, res.success) == (expected.total, expected.success)
    text = dock.figures_text()
    assert f"{fmt_int(expected.success)}</b> of {fmt_int(expected.total)}" in text
    assert f"{100 * expected.success / expected.total:.2f} %" in text
    # tiles ranked by criticality, with their share and their symmetry, as census ranks them
    assert dock.tile_rows() == [t.placement for t in expected.tiles]
    for r, t in enumerate(expected.tiles):
        assert dock.table.item(r, 1).text() == f"{100 * t.decided_fraction:.2f} %"
        assert dock.table.item(r, 2).text() == fmt_classes(t.classes)
    # the critical tiles (and only they) are tinted, the most critical strongest
    assert set(dock.tints) == {t.placement for t in expected.critical_tiles()}
    if dock.tints:
        top = expected.critical_tiles()[0].placement
        assert dock.tints[top].strength == max(i.strength for i in dock.tints.values()) == 1.0
        for pid, item in dock.tints.items():
            p = dock.doc.placement(pid)
            assert (item.pos().x(), item.pos().y()) == (p.x, p.y)


def test_default_board_figures_equal_census(make_window: Any, qtbot: Any) -> None:
    win = make_window(load_project(RINGGEISTER), packs={})
    dock = win.rotations
    assert win.dock_actions["RotationsDock"] in win.view_menu.actions()
    dock.raise_()
    seen: list[int] = []
    dock.progress.valueChanged.connect(lambda v: seen.append(v))
    run_dock(qtbot, dock)
    expected = census(compile_board(load_project(RINGGEISTER)))
    check_same_as_census(dock, expected)
    assert seen, "the progress bar moved while the census ran"
    assert "done in" in dock.progress.text()
    assert dock.load_unreachable.isEnabled() and dock.load_fewest.isEnabled()
    text = dock.figures_text()
    assert f"{expected.unreachable.reachable_points} points reachable" in text
    assert f"fewest reachable points: {expected.fewest.reachable_points}" in text


def test_generated_board_with_options_equals_census(make_window: Any, qtbot: Any) -> None:
    """Spider closed and the moon gallery, on a small generated board: same answer as the
    API with the same options (a different answer from the defaults)."""
    board = grid_board(4, 4, 6, seed=1)
    win = make_window(board.copy(), packs={})
    dock = win.rotations
    dock.spider.setCurrentText("closed")
    dock.galleries.setCurrentText("moon")
    run_dock(qtbot, dock)
    expected = census(compile_board(board), spider="closed", galleries="moon")
    check_same_as_census(dock, expected)
    assert "spider closed; galleries moon" in dock.figures_text()


def test_explicit_tiles_and_endpoints(make_window: Any, qtbot: Any) -> None:
    """--tiles / --from / --to typed into the dock mean the same as for the CLI."""
    board = grid_board(4, 4, 6, seed=2)
    win = make_window(board.copy(), packs={})
    dock = win.rotations
    turnable = sorted(p.id for p in board.placements if board.tiles[p.tile].turnable)
    win.scene.select_keys({f"p:{pid}" for pid in turnable[:3]})
    qtbot.mouseClick(dock.use_selection, Qt.MouseButton.LeftButton)
    assert dock.tiles_edit.text() == ", ".join(turnable[:3])
    dock.from_edit.setText("c00/white0")
    dock.to_edit.setText("c33/pt0")
    run_dock(qtbot, dock)
    expected = census(
        compile_board(board), tiles=turnable[:3], sources=["c00/white0"], targets=["c33/pt0"]
    )
    check_same_as_census(dock, expected)
    assert len(dock.tile_rows()) == 3


def test_bad_option_is_reported_and_dock_stays_usable(make_window: Any, qtbot: Any) -> None:
    win = make_window(grid_board(3, 3, 3, seed=0), packs={})
    dock = win.rotations
    dock.to_edit.setText("nowhere")
    run_dock(qtbot, dock)
    assert dock.result is None
    assert dock.banner.isVisible() and "nowhere" in dock.banner.text()
    assert dock.run_btn.isEnabled()
    dock.to_edit.setText("")
    run_dock(qtbot, dock)
    assert dock.result is not None and not dock.banner.isVisible()


def test_clicking_a_row_selects_and_centres_the_tile(make_window: Any, qtbot: Any) -> None:
    win = make_window(load_project(RINGGEISTER), packs={})
    dock = win.rotations
    dock.raise_()
    run_dock(qtbot, dock)
    row = 2
    pid = dock.tile_rows()[row]
    rect = dock.table.visualItemRect(dock.table.item(row, 0))
    qtbot.mouseClick(dock.table.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    assert win.scene.selected_keys() == {f"p:{pid}"}
    p = win.doc.placement(pid)
    centre = win.view.mapToScene(win.view.viewport().rect().center())
    assert abs(centre.x() - p.x) < 2 and abs(centre.y() - p.y) < 2
    # the inspector follows the canvas selection; the dock lists that tile's legal turns
    lt = legal_turns(win.doc.compiled, pid)
    assert dock.legal is not None and dock.legal.placement == pid
    lines = dock.legal_lines()
    assert sum(1 for x in lines if x.startswith("turn ")) == lt.turn_count
    for v in lt.verdicts:
        assert any(
            x.startswith(f"turn {v.turns}: {'legal' if v.legal else 'rejected'}") for x in lines
        )
        for reason in v.reasons:
            assert f"• {reason}" in lines


def test_legal_turns_of_r1c0_and_double_click_turns_it(make_window: Any, qtbot: Any) -> None:
    """README: ``referee turns projects/ringgeister --legal r1c0`` -> legal turns: 2."""
    win = make_window(load_project(RINGGEISTER), packs={})
    dock = win.rotations
    dock.raise_()
    win.scene.select_keys({"p:r1c0"})
    assert dock.legal is not None and dock.legal.legal == [2]
    assert "Legal turns of r1c0: 2" in dock.legal_title.text()
    before = win.doc.placement("r1c0").turns
    target = next(
        i
        for i in range(dock.legal_list.count())
        if dock.legal_list.item(i).text().startswith("turn 0:")
    )
    item = dock.legal_list.item(target)
    rect = dock.legal_list.visualItemRect(item)
    # a real double click: press + release, then the double-click event
    qtbot.mouseClick(dock.legal_list.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    qtbot.mouseDClick(dock.legal_list.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    assert win.doc.placement("r1c0").turns == 0
    win.doc.undo.undo()
    assert win.doc.placement("r1c0").turns == before


@pytest.mark.parametrize("which", ["unreachable", "fewest"])
def test_loading_a_witness_is_one_undoable_edit(make_window: Any, qtbot: Any, which: str) -> None:
    win = make_window(load_project(RINGGEISTER), packs={})
    dock = win.rotations
    run_dock(qtbot, dock)
    witness = getattr(dock.result, which)
    before = turns_of(win.doc.board)
    steps = win.doc.undo.count()
    button = dock.load_unreachable if which == "unreachable" else dock.load_fewest
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
    after = turns_of(win.doc.board)
    assert after != before
    for pid, t in witness.turns.items():
        assert after[pid] == t
    assert {k for k in after if after[k] != before[k]} <= set(witness.turns)
    assert win.doc.undo.count() == steps + 1
    # the canvas shows the new turns, and the board really is that configuration
    for pid, t in witness.turns.items():
        item = win.scene.items_by_key[f"p:{pid}"]
        assert item.rotation() == pytest.approx(90.0 * t)
    win.doc.recompile_now()
    here = census(win.doc.compiled, tiles=[])
    assert here.success == (1 if witness.success else 0)
    assert here.fewest.reachable_points == witness.reachable_points
    # the figures do not depend on the analysed tiles' own turns: still fresh, still tinted
    assert not dock.stale and dock.tints
    win.doc.undo.undo()
    assert turns_of(win.doc.board) == before
    for pid, t in before.items():
        tile = win.doc.board.tiles[win.doc.placement(pid).tile]
        assert win.scene.items_by_key[f"p:{pid}"].rotation() == pytest.approx(
            360.0 * t / tile.turn_count
        )


def test_stop_mid_run_gives_a_partial_answer_and_the_dock_stays_usable(
    make_window: Any, qtbot: Any
) -> None:
    # a census of about a minute: a 7x7 board's now ends in a fifth of a second, before
    # the click on Stop lands
    board = grid_board(12, 12, 120, 5, asymmetric=True)
    win = make_window(board, packs={})
    dock = win.rotations
    # the first progress tick reaches the bar (in the GUI thread)
    with qtbot.waitSignal(
        dock.progress.valueChanged,
        timeout=HANG_MS,
        check_params_cb=lambda _value: dock.progress.maximum() > 1,
    ):
        qtbot.mouseClick(dock.run_btn, Qt.MouseButton.LeftButton)
    # the GUI thread is free while the census runs: it handles the click on Stop
    with qtbot.waitSignal(dock.run_finished, timeout=HANG_MS):
        qtbot.mouseClick(dock.stop_btn, Qt.MouseButton.LeftButton)
        assert dock.progress.text() == "stopping…"
    assert not dock.running
    res = dock.result
    assert res is not None and res.partial and res.missing
    assert dock.banner.isVisible() and "Partial answer" in dock.banner.text()
    assert "stopped" in dock.progress.text()
    assert dock.run_btn.isEnabled() and not dock.stop_btn.isEnabled()
    # usable: a sampled run now completes
    dock.method.setCurrentText("sample")
    dock.samples.setValue(100)
    run_dock(qtbot, dock)
    assert not dock.result.partial and dock.result.method == "sample"
    assert not dock.banner.isVisible()
    assert "100 samples" in dock.figures_text()


def test_results_go_stale_after_an_edit_and_tint_is_cleared(make_window: Any, qtbot: Any) -> None:
    board = grid_board(4, 4, 6, seed=1)
    win = make_window(board, packs={})
    dock = win.rotations
    run_dock(qtbot, dock)
    assert dock.tints and not dock.stale
    tinted = next(iter(dock.tints.values()))
    # turning an analysed tile does not change the figures: they stay, the tint turns along
    pid = dock.tile_rows()[0]
    win.doc.undo.push(TurnCommand(win.doc, [pid], 1))
    assert not dock.stale
    p = win.doc.placement(pid)
    if pid in dock.tints:
        assert dock.tints[pid].rotation() == pytest.approx(90.0 * p.turns)
    # moving a tile is an edit the figures depend on
    win.doc.undo.push(MoveCommand(win.doc, {"p:c00"}, 5.0, 0.0))
    assert dock.stale
    assert "Stale" in dock.banner.text() and dock.banner.isVisible()
    assert not dock.tints and tinted.scene() is None
    # undoing is an edit too; only Run makes the figures fresh again
    win.doc.undo.undo()
    assert dock.stale
    run_dock(qtbot, dock)
    assert not dock.stale and dock.tints and not dock.banner.isVisible()


def test_closing_the_dock_clears_the_tint(make_window: Any, qtbot: Any) -> None:
    win = make_window(grid_board(4, 4, 6, seed=1), packs={})
    dock = win.rotations
    run_dock(qtbot, dock)
    items = list(dock.tints.values())
    assert items and all(i.scene() is win.scene for i in items)
    dock.close()
    assert not dock.tints and all(i.scene() is None for i in items)
    win.dock_actions["RotationsDock"].trigger()  # View ▸ Rotations shows it, tinted again
    assert dock.isVisible()
    assert set(dock.tints) == {t.placement for t in dock.result.critical_tiles()}


def test_closing_the_window_while_running_stops_the_worker(make_window: Any, qtbot: Any) -> None:
    win = make_window(grid_board(7, 7, 40, seed=3), packs={})
    dock = win.rotations
    dock.run()
    thread = dock.census_thread
    win.close()
    assert thread.isFinished()


def test_main_window_with_rotations_renders_to_png(
    make_window: Any, qtbot: Any, tmp_path: Path
) -> None:
    """Render the window with the dock showing results (look at the PNG to judge it)."""
    win = make_window(load_project(RINGGEISTER), packs={})
    win.resize(1400, 900)
    dock = win.rotations
    dock.raise_()
    run_dock(qtbot, dock)
    win.scene.select_keys({f"p:{dock.tile_rows()[0]}"})
    win.view.fit()
    out = Path(os.environ.get("BOARDWRIGHT_SHOT_DIR", tmp_path)) / "rotations-dock.png"
    assert win.grab().save(str(out))
    img = QImage(str(out))
    assert img.width() >= 1400
    # the most critical tile is tinted red on the canvas
    pid = dock.tile_rows()[0]
    p = win.doc.placement(pid)
    at = win.view.mapFromScene(QPointF(p.x - 15, p.y - 15))
    at = win.view.viewport().mapTo(win, at)
    c = img.pixelColor(at.x(), at.y())
    assert c.red() > c.green() + 40


# ---------------------------------------------------------------------- a designer's dock
def test_view_rotations_raises_its_tab_when_behind_another(make_window: Any) -> None:
    """On main, choosing View ▸ Rotations while its tab was behind another removed it."""
    win = make_window(grid_board(3, 3, 3, seed=0), packs={})
    dock, act = win.rotations, win.dock_actions["RotationsDock"]
    win.inspector.raise_()
    QApplication.processEvents()
    assert not dock.isHidden() and dock.visibleRegion().isEmpty()  # its tab is behind
    act.trigger()
    QApplication.processEvents()
    assert not dock.isHidden() and not dock.visibleRegion().isEmpty()
    assert act.isChecked()
    act.trigger()  # in front: the entry hides it
    assert dock.isHidden() and not act.isChecked()


def test_from_and_to_are_picked_on_the_canvas_and_shown_by_name(
    make_window: Any, qtbot: Any
) -> None:
    board = grid_board(4, 4, 6, seed=2)
    win = make_window(board.copy(), packs={})
    dock = win.rotations
    dock.raise_()
    c = compile_board(board)
    names = {n: d.get("name") for n, d in c.graph.nodes(data=True)}
    start, goal = "c00/white0", "c33/pt0"
    qtbot.mouseClick(dock.from_pick, Qt.MouseButton.LeftButton)
    assert win.view.tool.name == "pick"
    x, y = c.graph.nodes[start]["x"], c.graph.nodes[start]["y"]
    win.view.centerOn(x, y)
    click(win.view, x + 1, y)
    qtbot.mouseClick(dock.to_pick, Qt.MouseButton.LeftButton)  # switches picking to To
    assert not dock.from_pick.isChecked()
    x, y = c.graph.nodes[goal]["x"], c.graph.nodes[goal]["y"]
    win.view.centerOn(x, y)
    click(win.view, x, y + 1)
    qtbot.keyClick(win.view, Qt.Key.Key_Escape)
    assert win.view.tool is win.tools["select"] and not dock.to_pick.isChecked()
    assert dock.from_edit.text() == (names[start] or start)
    assert dock.to_edit.text() == (names[goal] or goal)
    run_dock(qtbot, dock)
    expected = census(compile_board(board), sources=[start], targets=[goal])
    assert (dock.result.total, dock.result.success) == (expected.total, expected.success)


def test_a_board_with_errors_is_refused_naming_them(make_window: Any, qtbot: Any) -> None:
    import shapely

    from referee.model import Feature

    board = grid_board(3, 3, 3, seed=0)
    board.features.append(Feature("lost", "path", shapely.LineString([(-50, -50), (-20, -50)])))
    win = make_window(board, packs={})
    dock = win.rotations
    qtbot.mouseClick(dock.run_btn, Qt.MouseButton.LeftButton)
    assert not dock.running and dock.result is None
    text = dock.banner.text()
    assert dock.banner.isVisible() and "fix" in text and "path_end_open at lost" in text


def test_no_start_says_how_to_pick_one_without_command_line_words(
    make_window: Any, qtbot: Any
) -> None:
    board = grid_board(3, 3, 3, seed=0)
    for n, d in compile_board(board).graph.nodes(data=True):
        if d.get("start") == "white":
            pid, fid = n.split("/")
            tile = board.tiles[board.placement(pid).tile]
            tile.feature(fid).props.pop("start", None)
            tile.invalidate()
    win = make_window(board, packs={})
    dock = win.rotations
    qtbot.mouseClick(dock.run_btn, Qt.MouseButton.LeftButton)
    text = dock.banner.text()
    assert "Pick beside From" in text and "--" not in text
    for w in (dock.from_edit, dock.to_edit, dock.tiles_edit, dock.spider, dock.galleries):
        assert "--" not in w.toolTip()


def test_live_runs_again_after_an_edit(make_window: Any, qtbot: Any) -> None:
    board = grid_board(4, 4, 6, seed=1)
    win = make_window(board.copy(), packs={})
    dock = win.rotations
    dock.raise_()
    with qtbot.waitSignal(dock.run_finished, timeout=HANG_MS):
        qtbot.mouseClick(
            dock.live, Qt.MouseButton.LeftButton, pos=QPoint(6, dock.live.height() // 2)
        )
    first = dock.result
    assert first is not None and not dock.stale
    # an edit: one tile moves away (and its links with it); the dock runs again by itself
    pid = next(p.id for p in board.placements if board.tiles[p.tile].turnable)
    with qtbot.waitSignal(dock.run_finished, timeout=HANG_MS):
        win.doc.undo.push(MoveCommand(win.doc, {f"p:{pid}"}, 0.0, 1000.0))
    assert dock.result is not first and not dock.stale
    expected = census(compile_board(win.doc.board.copy()))
    assert (dock.result.total, dock.result.success) == (expected.total, expected.success)


def test_report_saves_the_answer_as_markdown(
    make_window: Any, qtbot: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from PySide6.QtGui import QDesktopServices
    from PySide6.QtWidgets import QFileDialog

    opened: list[str] = []
    monkeypatch.setattr(
        QDesktopServices, "openUrl", staticmethod(lambda u: opened.append(u.toLocalFile()) or True)
    )
    target = tmp_path / "board.rotations.md"
    monkeypatch.setattr(QFileDialog, "getSaveFileName", staticmethod(lambda *a: (str(target), "")))
    win = make_window(grid_board(4, 4, 6, seed=1), packs={})
    dock = win.rotations
    assert not dock.report_btn.isEnabled()  # no answer yet
    run_dock(qtbot, dock)
    qtbot.mouseClick(dock.report_btn, Qt.MouseButton.LeftButton)
    text = target.read_text(encoding="utf-8")
    res = dock.result
    assert f"{fmt_int(res.success)} of {fmt_int(res.total)}" in text
    for pid in dock.tile_rows():
        assert f"| {pid} |" in text
    assert f'"configurations": {res.total}' in text and opened == [str(target)]
