"""Pieces drag from node to node: snapped to points, spaces and river dots, one undo
step per drag (issue "Your own art": left over from the editor issue)."""

from __future__ import annotations

from typing import Any

import shapely

from editor.document import new_board
from referee.model import Feature, PieceOnBoard

from .helpers import drag


def _board() -> Any:
    b = new_board()
    b.piece_types["test/hobbit"] = {"name": "Hobbit", "colour": "yellow"}
    b.features += [
        Feature("p1", "point", shapely.Point(100, 100), {"colour": "grey"}),
        Feature("p2", "point", shapely.Point(200, 100), {"colour": "grey"}),
        Feature("p3", "point", shapely.Point(300, 100), {"colour": "black"}),
        Feature("s1", "space", shapely.box(100, 300, 200, 400), {"terrain": "open"}),
        Feature("s2", "space", shapely.box(200, 300, 300, 400), {"terrain": "open"}),
        Feature("s3", "space", shapely.box(100, 400, 300, 500), {"terrain": "open"}),
        Feature("r1", "river", shapely.LineString([(200, 300), (200, 400), (100, 400)]), {}),
        Feature("d1", "river_dot", shapely.Point(200, 400), {}),
    ]
    b.pieces.append(PieceOnBoard("hobbit-1", "test/hobbit", "p1"))
    return b


def test_dragging_a_piece_over_several_points_is_one_undo_step(make_window: Any) -> None:
    board = _board()
    win = make_window(board=board, packs={})
    steps = win.doc.undo.count()
    drag(win.view, [(100, 100), (150, 102), (198, 101), (250, 100), (302, 99)])
    assert board.pieces[0].at == "p3"
    item = win.scene.items_by_key["c:hobbit-1"]
    assert (item.pos().x(), item.pos().y()) == (300.0, 100.0)
    assert win.doc.undo.count() == steps + 1
    assert win.doc.modified
    win.a_undo.trigger()
    assert board.pieces[0].at == "p1"
    win.a_redo.trigger()
    assert board.pieces[0].at == "p3"


def test_a_piece_snaps_to_a_space_and_to_a_river_dot(make_window: Any) -> None:
    board = _board()
    win = make_window(board=board, packs={})
    drag(win.view, [(100, 100), (140, 250), (150, 350)])
    assert board.pieces[0].at == "s1"
    item = win.scene.items_by_key["c:hobbit-1"]
    x, y = item.pos().x(), item.pos().y()
    drag(win.view, [(x, y), (190, 390), (198, 398)])  # near the dot, inside s1 still
    assert board.pieces[0].at == "d1"
    assert (item.pos().x(), item.pos().y()) == (200.0, 400.0)


def test_a_piece_dropped_where_nothing_is_stays_on_its_node(make_window: Any) -> None:
    board = _board()
    win = make_window(board=board, packs={})
    steps = win.doc.undo.count()
    drag(win.view, [(100, 100), (100, 200), (60, 220)])
    assert board.pieces[0].at == "p1"
    assert win.doc.undo.count() == steps
