"""The Playtest draws each figure with its symbol from the one palette, the same
shape and colour ``referee render`` draws it with, at the same place."""

from __future__ import annotations

import random
import xml.etree.ElementTree as ET
from typing import Any

from referee import palette
from referee.render import BoardRenderer

from .conftest import RINGGEISTER

SVG = "{http://www.w3.org/2000/svg}"


def test_playtest_figures_match_the_rendered_state(make_window: Any) -> None:
    win = make_window()
    assert win.open_path(RINGGEISTER, offer_recovery=False)
    ctl = win.begin_playtest("ringgeister", seed=7, players=3)
    assert ctl is not None
    game = ctl.game
    rnd = random.Random(7)
    for _ in range(40):  # a mid-game state: figures spread over the board
        if game.outcome is not None:
            break
        game.push(rnd.choice(list(game.legal_moves)))
    ctl.refresh()
    shapes = {s.id: s for s in ctl.overlay.figure_shapes()}
    views = game.figures()
    assert set(shapes) == set(views) and len(views) > 10
    renderer = BoardRenderer(game.compiled.board, game=game)
    root = ET.fromstring(renderer.render())
    drawn = {e.get("data-figure"): e for e in root.iter() if e.get("data-figure")}
    table = palette.rules_symbols("ringgeister")
    nodes = [v.node for v in views.values()]
    for fid, shape in shapes.items():
        sym = palette.figure_symbol(views[fid], table)
        assert shape.symbol == sym
        e = drawn[fid]
        assert e.get("fill") == sym.colour == views[fid].colour
        assert e.tag == SVG + ("circle" if sym.shape == "circle" else "polygon")
        # the canvas outline has the symbol's corners (a circle: none)
        corners = shape.path.toFillPolygon().count() - 1
        if sym.shape == "circle":
            assert corners > 8
        else:
            assert corners == len(e.get("points", "").split()), fid
        if nodes.count(views[fid].node) == 1:  # alone on its point: both draw it there
            assert (shape.x, shape.y) == renderer.figures_at[fid] == ctl.xy(views[fid].node)
    assert {s.symbol.shape for s in shapes.values()} >= {"circle", "triangle", "square"}
