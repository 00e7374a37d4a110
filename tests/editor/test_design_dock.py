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


OPEN = "kit/open-oct"


def _kit(tmp_path: Any) -> Any:
    """A pack with one octagon whose four ports meet in the middle: where it replaces
    a tile it can only add connections."""
    import json

    import shapely

    from referee.assets import PACK_FORMAT, PACK_VERSION, load_pack
    from referee.model import Feature, TileAsset

    r = 60.0
    feats = [Feature("pt", "point", shapely.Point(0.0, 0.0), {"colour": "grey"})]
    for side, (dx, dy) in {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}.items():
        end = (dx * r, dy * r)
        feats.append(Feature(f"port_{side}", "port", shapely.Point(*end), {"side": side}))
        feats.append(Feature(f"path_{side}", "path", shapely.LineString([(0, 0), end]), {}))
    d = tmp_path / "kit"
    d.mkdir()
    manifest = {"format": PACK_FORMAT, "version": PACK_VERSION, "id": "kit", "name": "Kit"}
    (d / "pack.json").write_text(json.dumps(manifest))
    pack = load_pack(d)
    pack.save_tile(TileAsset(OPEN, "open-oct", {"shape": "octagon", "size": 120.0}, feats, False))
    return load_pack(d)


def test_a_pack_tile_comes_in_and_apply_embeds_it(
    make_window: Any, qtbot: Any, tmp_path: Any
) -> None:
    from referee.rotations.generate import grid_board

    win = make_window(grid_board(4, 4, 8, 2, asymmetric=True), packs={"kit": _kit(tmp_path)})
    dock = win.design
    assert [dock.pack_box.itemData(i) for i in range(dock.pack_box.count())] == [None, "kit"]
    assert not dock.counts_edit.isEnabled()
    dock.pack_box.setCurrentIndex(dock.pack_box.findData("kit"))
    assert dock.counts_edit.isEnabled()
    dock.counts_edit.setText("open-oct=2")
    dock.seed.setValue(3)
    search(qtbot, dock, 120)
    assert dock.result is not None and dock.result.space.pack is not None
    row = next(i for i, c in enumerate(dock.found) if any(t == OPEN for t, _ in c.layout))
    best = dock.found[row]
    assert sum(t == OPEN for t, _ in best.layout) <= 2  # the count holds
    start = layout_of(win.doc.board)
    assert OPEN not in win.doc.board.tiles
    dock.list.setCurrentRow(row)
    dock.apply_btn.click()
    assert OPEN in win.doc.board.tiles
    assert [(p.tile, p.turns) for p in win.doc.board.placements] == list(best.layout)
    assert census(compile_board(win.doc.board), fewest=False).success == best.measures.success
    win.doc.undo.undo()
    assert layout_of(win.doc.board) == start and OPEN not in win.doc.board.tiles
    assert not win.doc.modified
    dock.open_btn.click()
    assert OPEN in win.doc.board.tiles and win.doc.path is None
    assert [(p.tile, p.turns) for p in win.doc.board.placements] == list(best.layout)


def test_a_stored_search_resumes_where_it_stopped(
    make_window: Any, qtbot: Any, tmp_path: Any
) -> None:
    win = make_window(load_project(RINGGEISTER), packs={})
    dock = win.design
    assert not dock.resume_btn.isEnabled()  # no database: nothing to resume
    db = tmp_path / "design.sqlite"
    dock.db_edit.setText(str(db))
    assert dock.resume_btn.isEnabled()
    dock.seed.setValue(4)
    search(qtbot, dock, 20)
    first = dock.result
    assert first is not None and first.steps == 20 and first.measured > 0
    dock.seed.setValue(0)
    dock.objective_edit.setText("criticality")
    dock.budget.setValue(10)
    with qtbot.waitSignal(dock.run_finished, timeout=HANG_MS):
        dock.resume_btn.click()
        assert "Resuming seed 4 from step 20" in dock.status.text()
    res = dock.result
    assert dock.seed.value() == 4 and dock.objective_edit.text() == "connected=1"
    assert res is not None and res.steps == 30
    # the first 20 steps come from the store; only the new ones are measured
    assert res.cached >= first.measured and res.measured <= 10
    assert "from the store" in dock.status.text()
    # the same chain again measures nothing
    dock.budget.setValue(30)
    search(qtbot, dock, 30)
    assert dock.result is not None and dock.result.measured == 0


def test_resume_without_a_stored_search_says_so(
    make_window: Any, qtbot: Any, tmp_path: Any
) -> None:
    win = make_window(load_project(RINGGEISTER), packs={})
    dock = win.design
    dock.db_edit.setText(str(tmp_path / "empty.sqlite"))
    dock.resume_btn.click()
    assert not dock.running
    assert "No search of this board is stored in" in dock.status.text()


def test_a_symmetry_the_tiles_cannot_meet_is_one_line(make_window: Any, qtbot: Any) -> None:
    win = make_window(load_project(RINGGEISTER), packs={})
    dock = win.design
    dock.symmetry_box.setCurrentText("mirror-diag")
    search(qtbot, dock, 5)
    text = dock.status.text()
    assert "\n" not in text and "has no mirror image among the tiles of its outline" in text
    assert dock.result is None


def test_a_symmetry_no_layout_meets_names_the_closest(make_window: Any, qtbot: Any) -> None:
    win = make_window(load_project(RINGGEISTER), packs={})
    dock = win.design
    dock.symmetry_box.setCurrentText("rot180")
    search(qtbot, dock, 10)
    res = dock.result
    assert res is not None and not res.feasible
    text = dock.status.text()
    assert f"the closest misses by {res.best[0].violation}" in text
    assert dock.list.count() >= 1
    assert all(
        "misses the constraints by" in dock.list.item(i).text() for i in range(dock.list.count())
    )
