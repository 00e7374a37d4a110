"""Draw track: a run of N numbered spaces along a polyline, one undo step; the compiled
track chains them in order (the track games' ``next`` relation)."""

from __future__ import annotations

import itertools
import math
from typing import Any

from PySide6.QtCore import Qt

from editor.document import new_board

from .helpers import click, double_click, focus

#: the corners of Mount Doom's route (projects/mount-doom): three rows, right then left
ROUTE = [(40.0, 60.0), (560.0, 60.0), (560.0, 120.0), (40.0, 120.0), (40.0, 180.0), (560.0, 180.0)]


def _draw(win: Any, qtbot: Any, corners: list[tuple[float, float]], n: int) -> list[Any]:
    focus(win, qtbot)
    qtbot.keyClick(win.view, Qt.Key.Key_K)
    assert win.view.tool.name == "track"
    win.track_spaces.selectAll()
    qtbot.keyClicks(win.track_spaces, str(n))
    qtbot.keyClick(win.track_spaces, Qt.Key.Key_Enter)
    win.view.setFocus()
    for x, y in corners[:-1]:
        click(win.view, x, y)
    double_click(win.view, *corners[-1])
    return [f for f in win.doc.board.features if f.kind == "point"]


def test_a_serpentine_route_gets_42_numbered_spaces_at_equal_steps(
    make_window: Any, qtbot: Any
) -> None:
    win = make_window(board=new_board(), packs={})
    win.doc.board.meta["width"] = 660.0
    pts = _draw(win, qtbot, ROUTE, 42)
    assert len(pts) == 42
    assert [p.props["index"] for p in pts] == list(range(42))
    assert (pts[0].geometry.x, pts[0].geometry.y) == ROUTE[0]
    assert (pts[-1].geometry.x, pts[-1].geometry.y) == ROUTE[-1]
    (track,) = [f for f in win.doc.board.features if f.kind == "track"]
    assert track.props["points"] == [p.id for p in pts]
    along = [track.geometry.project(p.geometry) for p in pts]
    step = track.geometry.length / 41
    assert all(abs((b - a) - step) < 0.01 for a, b in itertools.pairwise(along))
    win.doc.recompile_now()
    c = win.doc.compiled
    assert "track_point_off_track" not in {p.code for p in c.problems}
    chain = [(u, v) for u, v, d in c.graph.edges(data=True) if d.get("relation") == "next"]
    assert len(chain) == 41
    assert all(math.isfinite(p.geometry.x) for p in pts)
    # one undo step takes the whole track away
    win.a_undo.trigger()
    assert win.doc.board.features == []


def test_a_track_needs_two_spaces_and_two_vertices(make_window: Any, qtbot: Any) -> None:
    win = make_window(board=new_board(), packs={})
    focus(win, qtbot)
    tool = win.tools["track"]
    assert tool.add_track([(0.0, 0.0), (100.0, 0.0)], 1) is None
    qtbot.keyClick(win.view, Qt.Key.Key_K)
    click(win.view, 50.0, 50.0)
    qtbot.keyClick(win.view, Qt.Key.Key_Return)
    assert win.doc.board.features == []
    assert "two" in win.statusBar().currentMessage()
