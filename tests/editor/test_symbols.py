"""The editor draws and edits what the rules modules declare: a fifth game's property
appears in the inspector and its symbol on the canvas, with no code in the editor."""

from __future__ import annotations

from typing import Any

import pytest
import shapely
from PySide6.QtWidgets import QCheckBox

from editor import style
from editor.document import new_board
from referee import palette
from referee.model import Feature


def _fills(f: Feature) -> list[str]:
    return [d.brush.color().name() for d in style.drawables(f) if d.path is not None]


def test_a_fifth_games_property_is_edited_in_the_inspector(make_window: Any) -> None:
    pytest.importorskip("boardwright_race")
    board = new_board()
    board.features.append(Feature("p1", "point", shapely.Point(100, 100), {}))
    win = make_window(board=board, packs={})
    win.scene.select_keys({"f:p1"})
    box = win.inspector.widgets["again"]  # declared by the race's RulesModule.props
    assert isinstance(box, QCheckBox)
    box.setChecked(True)
    assert board.features[0].props["again"] is True


def test_a_fifth_games_symbol_is_drawn_on_the_canvas() -> None:
    race = pytest.importorskip("boardwright_race")
    sym = race.RULES.symbols["point.again"]
    plain = Feature("p", "point", shapely.Point(10, 20), {})
    again = Feature("p", "point", shapely.Point(10, 20), {"again": True})
    assert sym.colour not in _fills(plain)
    assert sym.colour in _fills(again)
    (diamond,) = [d for d in style.drawables(again) if d.brush.color().name() == sym.colour]
    r = diamond.path.boundingRect()
    assert (r.center().x(), r.center().y(), r.width()) == pytest.approx((10, 20, 2 * sym.size))
    assert sym.label in [d.text for d in style.drawables(again)]


def test_the_built_in_symbols_come_from_the_shared_palette() -> None:
    black = Feature("b", "point", shapely.Point(0, 0), {"colour": "black"})
    colour = dict(palette.feature_symbols("point", {"colour": "black"}))[
        "point.colour=black"
    ].colour
    assert colour in _fills(black)
    forest = Feature("s", "space", shapely.box(0, 0, 10, 10), {"terrain": "forest", "city": "evil"})
    fills = _fills(forest)
    assert (
        fills[0]
        == dict(palette.feature_symbols("space", {"terrain": "forest"}))[
            "space.terrain=forest"
        ].colour
    )
    assert (
        dict(palette.feature_symbols("space", {"city": "evil"}))["space.city=evil"].colour in fills
    )
