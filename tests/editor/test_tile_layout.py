"""Tiles lay themselves out: the pitch is the tile's own size, ports snap only to facing
ports, overlapping tiles are a problem, and the slots show while a tile is dragged."""

from __future__ import annotations

from typing import Any

import shapely
from PySide6.QtCore import Qt
from PySide6.QtGui import QMouseEvent

from referee.model import Feature, TileAsset

from .helpers import send_mouse
from .test_flows import _Pack, _port_tile, drop_tile


def _hex_tile() -> TileAsset:
    return TileAsset("test/hex", "Hex", {"shape": "hexagon", "size": 60.0}, [])


def _north_only_tile() -> TileAsset:
    """A tile with a single port, on its north side."""
    feats = [Feature("portN", "port", shapely.Point(0, -40), {"side": "N"})]
    return TileAsset("test/north", "North", {"shape": "square", "size": 80.0}, feats)


def test_80_mm_tiles_dropped_side_by_side_land_80_mm_apart(make_window: Any) -> None:
    win = make_window(packs={"test": _Pack([_port_tile()])})
    for x in (166.0, 246.0, 330.0):  # 166 and 246 both landed on x = 200 at pitch 100
        drop_tile(win, "test/cross", x, 158.0)
    assert [(p.x, p.y) for p in win.doc.board.placements] == [
        (160.0, 160.0),
        (240.0, 160.0),
        (320.0, 160.0),
    ]
    win.doc.recompile_now()
    assert "tile_overlap" not in {p.code for p in win.doc.compiled.problems}


def test_hexagons_snap_to_offset_rows(make_window: Any) -> None:
    win = make_window(packs={"test": _Pack([_hex_tile()])})
    t = _hex_tile()
    x0, y0, x1, y1 = t.outline.bounds
    w, h = x1 - x0, y1 - y0
    assert h > w  # pointy top: rows 3/4 of the height apart, every other one half a tile over
    drop_tile(win, "test/hex", 0.0, 0.0)
    drop_tile(win, "test/hex", w / 2 + 3, 0.75 * h - 4)
    drop_tile(win, "test/hex", w - 4, 2.0)
    a, b, c = win.doc.board.placements
    assert (round(b.x - a.x, 6), round(b.y - a.y, 6)) == (round(w / 2, 6), round(0.75 * h, 6))
    assert (round(c.x - a.x, 6), round(c.y - a.y, 6)) == (round(w, 6), 0.0)
    win.doc.recompile_now()
    assert "tile_overlap" not in {p.code for p in win.doc.compiled.problems}


def test_ports_at_right_angles_do_not_snap_together(make_window: Any) -> None:
    """The north port of one tile next to the east port of another: no diagonal landing."""
    win = make_window(packs={"test": _Pack([_port_tile(), _north_only_tile()])})
    drop_tile(win, "test/cross", 160.0, 160.0)
    # the north-only tile's port would sit 3 mm from the cross's east port (200, 160)
    # with its centre at (203, 203): a diagonal, right-angled pairing
    drop_tile(win, "test/north", 203.0, 203.0)
    assert (win.doc.board.placements[1].x, win.doc.board.placements[1].y) == (240.0, 240.0)


def test_dropping_a_tile_onto_another_with_alt_is_a_problem(make_window: Any) -> None:
    win = make_window(packs={"test": _Pack([_port_tile()])})
    drop_tile(win, "test/cross", 160.0, 160.0)
    win.a_snap.trigger()  # snapping off: the drop lands where it is let go
    drop_tile(win, "test/cross", 190.0, 160.0)
    win.doc.recompile_now()
    win.on_compiled()
    assert win.problems.fix_cell("tile_overlap") is not None


def test_slots_show_while_a_tile_is_dragged_and_go_on_release(make_window: Any) -> None:
    win = make_window(packs={"test": _Pack([_port_tile()])})
    drop_tile(win, "test/cross", 160.0, 160.0)
    win.set_tool("select")
    assert not win.scene.slots.isVisible()
    send_mouse(win.view, QMouseEvent.Type.MouseButtonPress, 160.0, 160.0)
    send_mouse(
        win.view,
        QMouseEvent.Type.MouseMove,
        230.0,
        165.0,
        button=Qt.MouseButton.NoButton,
        buttons=Qt.MouseButton.LeftButton,
    )
    assert win.scene.slots.isVisible()
    r = win.scene.slots.boundingRect()
    assert r.width() > 3 * 80 and r.height() > 3 * 80  # many slots, each a tile outline
    send_mouse(win.view, QMouseEvent.Type.MouseButtonRelease, 230.0, 165.0)
    assert not win.scene.slots.isVisible()
    assert (win.doc.board.placements[0].x, win.doc.board.placements[0].y) == (240.0, 160.0)
