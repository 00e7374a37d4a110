"""Connecting a start or goal outside the tiles to the board: free paths ending on a tile's
port, the Place-port tool, and the Problems list's one-click join."""

from __future__ import annotations

from typing import Any

import shapely
from PySide6.QtCore import QPoint, Qt
from PySide6.QtTest import QTest

from referee.model import Feature

from .helpers import click, double_click, focus
from .test_flows import _Pack, _port_tile, drop_tile


def _codes(win: Any) -> list[str]:
    win.doc.recompile_now()
    return [p.code for p in win.doc.compiled.problems]


def _one_tile(make_window: Any) -> Any:
    win = make_window(packs={"test": _Pack([_port_tile()])})
    drop_tile(win, "test/cross", 200.0, 200.0)
    return win


def test_a_path_drawn_to_a_tile_port_links_start_to_the_tile(make_window: Any) -> None:
    win = _one_tile(make_window)
    (p,) = win.doc.board.placements
    win.set_tool("point")
    click(win.view, 100.0, 200.0)  # the start, outside the tile
    win.set_tool("path")
    click(win.view, 100.0, 200.0)
    double_click(win.view, p.x - 41.0, p.y)  # near the west port: snaps onto it
    assert "path_end_open" not in _codes(win)
    start = next(f.id for f in win.doc.board.features if f.kind == "point")
    assert _connected(win.doc.compiled.graph, start, f"{p.id}/c")
    # one undo step takes the path and its port away together
    win.doc.undo.undo()
    assert [f.kind for f in win.doc.board.features] == ["point"]


def _connected(g: Any, a: str, b: str) -> bool:
    import networkx as nx

    return b in nx.node_connected_component(g.to_undirected(), a)


def test_place_port_tool_puts_a_port_on_the_tile_port_facing_it(
    make_window: Any, qtbot: Any
) -> None:
    win = _one_tile(make_window)
    (p,) = win.doc.board.placements
    focus(win, qtbot)
    QTest.keyClick(win.view, Qt.Key.Key_Q)
    assert win.view.tool.name == "port"
    click(win.view, p.x + 41.0, p.y)
    (port,) = [f for f in win.doc.board.features if f.kind == "port"]
    assert (port.geometry.x, port.geometry.y) == (p.x + 40.0, p.y)
    assert port.props["side"] == "W"  # it faces the tile's east port


def test_problems_offer_a_one_click_join_to_the_nearest_port(make_window: Any) -> None:
    win = _one_tile(make_window)
    (p,) = win.doc.board.placements
    b = win.doc.board
    b.features.append(Feature("s", "point", shapely.Point(p.x, p.y - 120), {}))
    b.features.append(
        Feature("a1", "path", shapely.LineString([(p.x, p.y - 120), (p.x + 3, p.y - 52)]), {})
    )
    win.doc.replace_board(b, None)
    win.doc.recompile_now()
    win.on_compiled()
    row, text = win.problems.fix_cell("path_end_open")
    assert text == f"⚒ join this path end to port {p.id}/portN"
    item = win.problems.tree.topLevelItem(row)
    rect = win.problems.tree.visualItemRect(item)
    x = win.problems.tree.header().sectionViewportPosition(win.problems.FIX_COLUMN) + 5
    QTest.mouseClick(
        win.problems.tree.viewport(), Qt.MouseButton.LeftButton, pos=QPoint(x, rect.center().y())
    )
    assert "path_end_open" not in _codes(win)
    assert _connected(win.doc.compiled.graph, "s", f"{p.id}/c")
    win.doc.undo.undo()
    assert "path_end_open" in _codes(win)
