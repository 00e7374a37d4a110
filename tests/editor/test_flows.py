"""User flows in the main window: place, turn, undo/redo, draw, save/reopen, autosave,
corrupt files, problems, inspector, copy/paste, close with unsaved changes."""

from __future__ import annotations

import math
import sqlite3
from pathlib import Path
from typing import Any

import pytest
import shapely
from PySide6.QtCore import QMimeData, QPointF, Qt
from PySide6.QtGui import QDragEnterEvent, QDropEvent, QKeySequence
from PySide6.QtWidgets import QComboBox, QMessageBox

from editor.document import new_board
from referee.compiler import compile_board
from referee.model import Feature, TileAsset
from referee.store import dumps_board, load_project, save_project

from .helpers import click, double_click, drag

B = QMessageBox.StandardButton


def _port_tile(key: str = "test/cross", size: float = 80.0) -> TileAsset:
    """A square tile: one point in the middle joined by paths to ports on all four sides."""
    r = size / 2
    feats = [Feature("c", "point", shapely.Point(0, 0), {"colour": "grey"})]
    for side, (x, y) in {"N": (0, -r), "E": (r, 0), "S": (0, r), "W": (-r, 0)}.items():
        feats.append(Feature(f"port{side}", "port", shapely.Point(x, y), {"side": side}))
        feats.append(
            Feature(f"path{side}", "path", shapely.LineString([(0, 0), (x, y)]), {"medium": "land"})
        )
    return TileAsset(key, "Cross", {"shape": "square", "size": size}, feats)


def _elbow_tile(key: str = "test/elbow") -> TileAsset:
    """A square tile with ports on all sides and a path from its centre to the north one."""
    feats = [
        Feature("c", "point", shapely.Point(0, 0), {"colour": "black"}),
        Feature("a", "path", shapely.LineString([(0, 0), (0, -40)]), {"medium": "land"}),
    ]
    for side, (x, y) in {"N": (0, -40), "E": (40, 0), "S": (0, 40), "W": (-40, 0)}.items():
        feats.append(Feature(f"port{side}", "port", shapely.Point(x, y), {"side": side}))
    return TileAsset(key, "Elbow", {"shape": "square", "size": 80.0}, feats)


class _Pack:
    def __init__(self, tiles: list[TileAsset]) -> None:
        self.id = "test"
        self.name = "Test pack"
        self.tiles = {t.key: t for t in tiles}
        self.piece_types: dict[str, Any] = {}
        self.decks: dict[str, Any] = {}


def drop_tile(win: Any, key: str, x: float, y: float) -> None:
    """Drop a tile dragged from the palette onto the canvas at scene point (x, y)."""
    md: QMimeData = win.palette_dock.list.mime_for(key)
    pos = QPointF(win.view.mapFromScene(QPointF(x, y)))
    enter = QDragEnterEvent(
        pos.toPoint(),
        Qt.DropAction.CopyAction,
        md,
        Qt.MouseButton.LeftButton,
        Qt.KeyboardModifier.NoModifier,
    )
    win.view.dragEnterEvent(enter)
    assert enter.isAccepted()
    drop = QDropEvent(
        pos, Qt.DropAction.CopyAction, md, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier
    )
    win.view.dropEvent(drop)


def test_place_from_palette_turn_undo_redo(make_window: Any) -> None:
    """Drag a tile from the palette, turn it with R (quarter turn), undo, redo: the compiled
    graph follows. Turning the elbow next to the cross links or unlinks their ports."""
    win = make_window(packs={"test": _Pack([_port_tile(), _elbow_tile()])})
    keys = [
        win.palette_dock.list.item(i).data(Qt.ItemDataRole.UserRole)
        for i in range(win.palette_dock.list.count())
    ]
    assert keys == ["test/cross", "test/elbow"]
    drop_tile(win, "test/cross", 166.0, 156.0)  # snaps to the tile's own 80 mm pitch
    drop_tile(win, "test/elbow", 203.0, 163.0)  # its west port snaps onto the cross's east port
    b = win.doc.board
    assert [(p.tile, p.x, p.y) for p in b.placements] == [
        ("test/cross", 160.0, 160.0),
        ("test/elbow", 240.0, 160.0),
    ]
    elbow = b.placements[1].id
    cross = b.placements[0].id
    win.doc.recompile_now()
    # elbow's path faces north: nothing joins the two tiles' centre points
    assert not win.doc.compiled.graph.has_edge(f"{cross}/c", f"{elbow}/c")
    assert QKeySequence("R") == win.a_turn_cw.shortcut()
    assert win.a_turn_ccw.shortcut() == QKeySequence("Shift+R")
    win.scene.select_keys({f"p:{elbow}"})
    for _ in range(3):  # N -> E -> S -> W
        win.a_turn_cw.trigger()
    assert b.placements[1].turns == 3
    assert win.doc.recompile_now() == "turn"  # incremental re-link
    assert win.doc.compiled.graph.has_edge(f"{cross}/c", f"{elbow}/c")
    assert win.scene.items_by_key[f"p:{elbow}"].rotation() == pytest.approx(270.0)
    full = compile_board(b.copy())
    assert win.doc.compiled.edge_set() == full.edge_set()
    win.a_undo.trigger()
    assert b.placements[1].turns == 2
    win.doc.recompile_now()
    assert not win.doc.compiled.graph.has_edge(f"{cross}/c", f"{elbow}/c")
    win.a_redo.trigger()
    win.doc.recompile_now()
    assert b.placements[1].turns == 3
    assert win.doc.compiled.graph.has_edge(f"{cross}/c", f"{elbow}/c")
    assert win.isWindowModified() and "*" in win.windowTitle()
    # undo everything: the two placements go, one step each
    while win.doc.undo.canUndo():
        win.a_undo.trigger()
    assert b.placements == []


def test_draw_spaces_sharing_a_border_makes_touch_edge(make_window: Any) -> None:
    """Draw a space, then a second one clicking the first one's corners: the shared border
    snaps exactly and the compiled graph gets a ``touch`` edge (README.md: two spaces whose
    polygons share a border segment)."""
    win = make_window(board=new_board(), packs={})
    win.set_tool("space")
    v = win.view
    for x, y in [(100, 100), (200, 100), (200, 200)]:
        click(v, x, y)
    double_click(v, 100, 201.5)  # 1.5 mm off: grid-snaps to (100, 200)
    a = win.doc.board.features[-1]
    assert a.kind == "space" and a.props["terrain"] == "open"
    assert shapely.equals(a.geometry, shapely.box(100, 100, 200, 200))
    # the second space reuses two corners of the first (clicked a little off)
    for x, y in [(201.0, 99.2), (300, 100), (300, 200)]:
        click(v, x, y)
    double_click(v, 199.3, 200.8)
    bsp = win.doc.board.features[-1]
    assert bsp.id != a.id and shapely.equals(bsp.geometry, shapely.box(200, 100, 300, 200))
    assert win.doc.recompile_now() == "regions"  # incremental region recompile
    g = win.doc.compiled.graph
    rels = [d["relation"] for _, other, d in g.edges(a.id, data=True) if other == bsp.id]
    assert rels == ["touch"]
    assert g.edges[a.id, bsp.id, f"touch:{min(a.id, bsp.id)}|{max(a.id, bsp.id)}"]["border"] == 100
    assert win.doc.compiled.edge_set() == compile_board(win.doc.board.copy()).edge_set()
    # a third space touching the first only at a corner: no touch edge
    for x, y in [(200, 200), (300, 200), (300, 300)]:
        click(v, x, y)
    double_click(v, 200, 300)
    c = win.doc.board.features[-1]
    win.doc.recompile_now()
    assert not win.doc.compiled.graph.has_edge(a.id, c.id)
    assert win.doc.compiled.graph.has_edge(bsp.id, c.id)
    # undo removes the third space and its edge
    win.a_undo.trigger()
    win.doc.recompile_now()
    assert c.id not in win.doc.compiled.graph
    assert win.doc.compiled.edge_set() == compile_board(win.doc.board.copy()).edge_set()


def test_drag_moves_selection_in_one_undo_step(make_window: Any) -> None:
    """Dragging a space moves it by whole grid steps; the drag is one undo step."""
    board = new_board()
    board.features.append(
        Feature("s1", "space", shapely.box(100, 100, 150, 150), {"terrain": "open"})
    )
    win = make_window(board=board, packs={})
    win.view.fit()
    drag(win.view, [(120, 120), (125, 121), (133, 128), (141, 139)])
    assert win.doc.undo.count() == 1
    assert shapely.equals(win.doc.board.features[0].geometry, shapely.box(120, 120, 170, 170))
    win.a_undo.trigger()
    assert shapely.equals(win.doc.board.features[0].geometry, shapely.box(100, 100, 150, 150))


def test_rubber_band_and_ctrl_click_select(make_window: Any) -> None:
    board = new_board()
    for i in range(3):
        board.features.append(
            Feature(f"p{i}", "point", shapely.Point(100 + 50 * i, 100), {"colour": "grey"})
        )
    win = make_window(board=board, packs={})
    win.view.fit()
    click(win.view, 100, 100)
    assert win.scene.selected_keys() == {"f:p0"}
    click(win.view, 200, 100, modifiers=Qt.KeyboardModifier.ControlModifier)
    assert win.scene.selected_keys() == {"f:p0", "f:p2"}
    drag(win.view, [(80, 60), (120, 90), (170, 130)])  # rubber band over p0 and p1
    assert win.scene.selected_keys() == {"f:p0", "f:p1"}


def test_save_reopen_compare_and_recent_files(make_window: Any, tmp_path: Path) -> None:
    board = new_board()
    board.features.append(Feature("s1", "space", shapely.box(0, 0, 50, 50), {"terrain": "forest"}))
    win = make_window(board=board, packs={})
    win.set_tool("point")
    click(win.view, 300, 300)
    assert win.isWindowModified()
    target = tmp_path / "mine.bwproj"
    assert win.save_to(target)
    assert not win.isWindowModified() and "mine.bwproj" in win.windowTitle()
    assert str(target.resolve()) in win._recent()
    other = make_window(packs={})
    assert other.open_path(target)
    assert dumps_board(other.doc.board) == dumps_board(win.doc.board)
    assert [f.kind for f in other.doc.board.features] == ["space", "point"]


def test_autosave_and_recovery(make_window: Any, tmp_path: Path, asked: Any, dialogs: Any) -> None:
    """Unsaved work is written to a side file; reopening after a crash offers it back."""
    target = tmp_path / "b.bwproj"
    save_project(new_board(), target)
    win = make_window(packs={})
    assert win.open_path(target)
    assert win.autosave() is None  # nothing to save yet
    win.set_tool("point")
    click(win.view, 250, 250)
    side = win.autosave()
    assert side == tmp_path / "b.bwproj.autosave.json" and side.is_file()
    wanted = dumps_board(win.doc.board)
    # "crash": the window goes away without saving; the side file stays
    win.doc.undo.setClean()
    dialogs.clicks = ["restore"]
    again = make_window(packs={})
    assert again.open_path(target)
    assert [d.windowTitle() for d in dialogs.seen] == ["Recover unsaved work?"]
    assert dumps_board(again.doc.board) == wanted
    assert again.doc.modified  # recovered work is unsaved
    assert again.save_to(target)
    assert not side.exists()  # saving clears the side file
    assert dumps_board(load_project(target)) == wanted


@pytest.mark.parametrize(
    "content",
    [
        b"garbage\x00\x01 not a project",
        b'{"format": "x"}',
        b"",
        b"SQLite format 3\x00" + b"\x00" * 100,
    ],
)
def test_corrupt_or_foreign_file_changes_nothing(
    make_window: Any, tmp_path: Path, asked: Any, content: bytes
) -> None:
    good = tmp_path / "good.bwproj"
    b = new_board()
    b.features.append(Feature("p", "point", shapely.Point(1, 2), {"colour": "grey"}))
    save_project(b, good)
    win = make_window(packs={})
    assert win.open_path(good)
    before = dumps_board(win.doc.board)
    bad = tmp_path / "bad.bwproj"
    bad.write_bytes(content)
    assert not win.open_path(bad)
    kind, _title, text = asked.calls[-1]
    assert kind == "critical" and "bad.bwproj" in text and "Nothing was changed" in text
    assert "Traceback" not in text
    assert dumps_board(win.doc.board) == before
    assert win.doc.path == good


def test_sqlite_of_another_program_is_refused(make_window: Any, tmp_path: Path, asked: Any) -> None:
    other = tmp_path / "other.bwproj"
    con = sqlite3.connect(other)
    con.execute("create table songs (title text)")
    con.commit()
    con.close()
    win = make_window(packs={})
    assert not win.open_path(other)
    assert "not a Boardwright project" in asked.calls[-1][2]


def test_close_with_unsaved_changes_asks(make_window: Any, asked: Any) -> None:
    win = make_window(board=new_board(), packs={})
    win.show()
    win.set_tool("point")
    click(win.view, 100, 100)
    asked.answer = B.Cancel
    assert not win.close()
    assert win.isVisible() and asked.calls[-1][0] == "question"
    asked.answer = B.Discard
    assert win.close()


def test_inspector_uses_combo_boxes_and_validates(make_window: Any) -> None:
    board = new_board()
    board.features.append(Feature("p1", "point", shapely.Point(100, 100), {"colour": "grey"}))
    win = make_window(board=board, packs={})
    win.scene.select_keys({"f:p1"})
    box = win.inspector.widgets["colour"]
    assert isinstance(box, QComboBox)
    assert [box.itemData(i) for i in range(box.count())] == ["grey", "black"]
    box.setCurrentIndex(box.findData("black"))
    assert board.features[0].props["colour"] == "black"
    win.doc.recompile_now()
    assert win.doc.live.last_strategy == "props"
    assert win.doc.compiled.graph.nodes["p1"]["colour"] == "black"
    wind = win.inspector.widgets["wind"]
    assert isinstance(wind, QComboBox)
    wind.setCurrentIndex(wind.findData("E"))
    wind.activated.emit(wind.currentIndex())
    assert board.features[0].props["wind"] == "E"
    win.inspector._set("colour", "purple")  # not allowed: message, no change
    assert "not allowed" in win.inspector.error.text()
    assert board.features[0].props["colour"] == "black"
    win.a_undo.trigger()
    win.a_undo.trigger()
    assert board.features[0].props == {"colour": "grey"}


def test_problem_click_selects_and_centres(make_window: Any) -> None:
    board = new_board()
    board.meta.update(width=2000, height=2000)
    board.features.append(Feature("lonely", "point", shapely.Point(1500, 1700), {"colour": "grey"}))
    win = make_window(board=board, packs={})
    win.view.set_zoom(3.0)
    probs = [p for p in win.doc.compiled.problems if p.node == "lonely"]
    assert probs and probs[0].code == "isolated_node"
    tree = win.problems.tree
    item = next(
        tree.topLevelItem(i)
        for i in range(tree.topLevelItemCount())
        if tree.topLevelItem(i).text(2).startswith("lonely")
    )
    tree.itemClicked.emit(item, 0)
    assert win.scene.selected_keys() == {"f:lonely"}
    c = win.view.mapToScene(win.view.viewport().rect().center())
    assert math.hypot(c.x() - 1500, c.y() - 1700) < 2.0


def test_copy_paste_and_duplicate(make_window: Any) -> None:
    board = new_board()
    board.features.append(Feature("s1", "space", shapely.box(0, 0, 10, 10), {"terrain": "lake"}))
    win = make_window(board=board, packs={})
    win.scene.select_keys({"f:s1"})
    win.a_copy.trigger()
    win.a_paste.trigger()
    assert len(board.features) == 2
    pasted = board.features[1]
    assert pasted.id != "s1" and pasted.props == {"terrain": "lake"}
    assert shapely.equals(pasted.geometry, shapely.box(10, 10, 20, 20))
    assert win.scene.selected_keys() == {f"f:{pasted.id}"}
    win.a_dup.trigger()
    assert len(board.features) == 3
    win.a_undo.trigger()
    win.a_undo.trigger()
    assert [f.id for f in board.features] == ["s1"]


def test_edit_vertices_drag_is_one_step_and_refuses_crossing(make_window: Any) -> None:
    board = new_board()
    board.features.append(Feature("s1", "space", shapely.box(100, 100, 200, 200), {}))
    win = make_window(board=board, packs={})
    win.view.fit()
    win.set_tool("vertices")
    click(win.view, 150, 150)  # pick the space
    drag(win.view, [(200, 200), (210, 205), (220, 220)])
    assert win.doc.undo.count() == 1
    assert (220.0, 220.0) in list(board.features[0].geometry.exterior.coords)
    tool = win.tools["vertices"]
    assert not tool.set_vertex("s1", 1, 50, 150)  # would cross itself (bow tie)
    assert win.doc.undo.count() == 1


def test_window_layout_is_remembered(make_window: Any) -> None:
    win = make_window(packs={})
    win.problems.hide()
    win.save_layout()
    again = make_window(packs={})
    assert not again.problems.isVisibleTo(again)


def test_drop_a_piece_on_a_point(make_window: Any) -> None:
    """Pieces and counters from the palette: dropped near a point they stand on it."""
    from editor.canvas import PIECE_MIME

    pack = _Pack([])
    pack.piece_types = {"test/hobbit": {"name": "Hobbit", "colour": "yellow"}}
    board = new_board()
    board.features.append(Feature("p1", "point", shapely.Point(100, 100), {"colour": "grey"}))
    win = make_window(board=board, packs={"test": pack})
    md = win.palette_dock.pieces.mime_for("test/hobbit")
    assert md.hasFormat(PIECE_MIME)
    pos = QPointF(win.view.mapFromScene(QPointF(104, 103)))
    win.view.dropEvent(
        QDropEvent(
            pos,
            Qt.DropAction.CopyAction,
            md,
            Qt.MouseButton.LeftButton,
            Qt.KeyboardModifier.NoModifier,
        )
    )
    assert [(p.piece, p.at) for p in board.pieces] == [("test/hobbit", "p1")]
    assert "test/hobbit" in board.piece_types
    item = win.scene.items_by_key[f"c:{board.pieces[0].id}"]
    assert (item.pos().x(), item.pos().y()) == (100.0, 100.0)
    win.scene.select_keys({item.key})
    win.a_delete.trigger()
    assert board.pieces == []
    win.a_undo.trigger()
    win.a_undo.trigger()
    assert board.pieces == [] and "test/hobbit" not in board.piece_types


def test_copying_then_quitting_does_not_crash(tmp_path: Path) -> None:
    """A copy leaves our QMimeData on Qt's clipboard; Python must exit cleanly after it
    (it used to segfault at interpreter exit)."""
    import subprocess
    import sys
    import textwrap

    script = textwrap.dedent("""
        import os
        os.environ["QT_QPA_PLATFORM"] = "offscreen"
        import shapely
        from PySide6.QtWidgets import QApplication
        from editor.clipboard import copy_to_clipboard
        from editor.document import Document
        from referee.model import Board, Feature
        app = QApplication([])
        doc = Document(Board(features=[Feature("s1", "space", shapely.box(0, 0, 9, 9), {})]))
        assert copy_to_clipboard(doc, {"f:s1"})
        print("copied")
    """)
    proc = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=120, cwd=tmp_path
    )
    assert proc.returncode == 0, (proc.returncode, proc.stderr[-1500:])
    assert "copied" in proc.stdout
