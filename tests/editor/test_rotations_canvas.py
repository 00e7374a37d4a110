"""Rotations results on the canvas (issue 33): after a census run from the dock's Run
button, the critical tiles are tinted by how many configurations their turn decides,
with a legend in the canvas' corner; an edit of the board or closing the dock clears
both. Driven through the dock's own widgets, the canvas and the keyboard."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QImage
from PySide6.QtWidgets import QApplication

from referee.compiler import compile_board
from referee.rotations import census
from referee.rotations.generate import grid_board

from .helpers import click, focus
from .test_rotations_dock import run_dock


def test_the_census_tints_the_canvas_with_a_legend_until_an_edit(
    make_window: Any, qtbot: Any, tmp_path: Path
) -> None:
    board = grid_board(4, 4, 8, seed=3)
    expected = census(compile_board(grid_board(4, 4, 8, seed=3)))
    crit = expected.critical_tiles()
    assert len({t.decided_fraction for t in crit}) >= 4, "tiles of several criticalities"
    win = make_window(board, packs={})
    win.resize(1400, 900)
    dock = win.rotations
    dock.raise_()
    legend = dock.legend
    assert not legend.isVisible()  # no result yet, no key
    run_dock(qtbot, dock)
    QApplication.processEvents()
    # every critical tile tinted, strength by its share of the top one's
    top = crit[0]
    assert set(dock.tints) == {t.placement for t in crit}
    for t in crit:
        item = dock.tints[t.placement]
        assert item.strength == (t.decided_fraction or 0) / (top.decided_fraction or 1)
        assert f"({t.decided:,} of {t.contexts:,})" in item.toolTip()
    # the legend: in the canvas' top-right corner, with the scale of this census
    vp = win.view.viewport()
    assert legend.isVisible() and legend.parentWidget() is vp
    g = legend.geometry()
    assert vp.rect().contains(g)
    assert (
        min(g.left(), vp.width() - g.right()) < 20 and min(g.top(), vp.height() - g.bottom()) < 20
    )
    # in a corner clear of the tinted tiles (this board leaves one free)
    tinted = [
        win.view.mapFromScene(i.outline_in_scene()).boundingRect() for i in dock.tints.values()
    ]
    assert not any(g.intersects(r) for r in tinted)
    assert legend.title.text().startswith(f"<b>Critical tiles: {len(crit)}</b>")
    assert legend.high.text() == f"{100 * top.decided_fraction:.0f} % ({top.placement})"
    low = min(t.decided_fraction or 0 for t in crit)
    assert legend.low.text() == f"{100 * low:.0f} %"
    assert f"in {top.decided:,} of {top.contexts:,} configurations" in legend.note.text()
    shots = Path(os.environ.get("BOARDWRIGHT_SHOT_DIR", tmp_path))
    assert win.grab().save(str(shots / "rotations-canvas-legend.png"))
    img = QImage(str(shots / "rotations-canvas-legend.png"))
    at = vp.mapTo(win, QPoint(g.center().x(), g.top() + 4))
    assert img.pixelColor(at).lightness() > 200  # the legend's white card, over the canvas
    # an edit: click a tile on the canvas, nudge it with an arrow key
    focus(win, qtbot)
    win.view.setFocus()
    p = win.doc.placement(top.placement)
    x0 = p.x
    click(win.view, p.x, p.y)
    assert f"p:{p.id}" in win.scene.selected_keys()
    qtbot.keyClick(win.view, Qt.Key.Key_Right)
    assert win.doc.placement(p.id).x > x0  # nudged right
    assert dock.stale and not dock.tints and not legend.isVisible()
    # the nudge overlaps a neighbour (an error: Run would refuse): Ctrl+Z takes it back
    qtbot.keyClick(win.view, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert win.doc.placement(p.id).x == x0 and dock.stale
    # Run again: tinted and keyed again; closing the dock from the View menu clears both
    run_dock(qtbot, dock)
    assert dock.tints and legend.isVisible()
    act = win.dock_actions["RotationsDock"]
    act.trigger()  # in front: the entry hides it
    assert dock.isHidden()
    assert not dock.tints and not legend.isVisible()
    assert not [i for i in win.scene.items() if type(i).__name__ == "CriticalTint"]
