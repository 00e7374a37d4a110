"""Ringgeister rules, ruling 11: storms and Spirits turn tiles.

Positions are set up explicitly with :func:`boards.position`; the referee is asked
through its public interface (``legal_moves``, ``push``, ``check``), and rejected moves
must leave the state exactly as it was (:func:`rule_helpers.reject`).
"""

from __future__ import annotations

import pytest
import shapely

from referee.model import Feature

from .boards import B, events_of, position
from .rule_helpers import wake


# ---------------------------------------------------------------------- ruling 11: turning
def two_black_tile() -> list[Feature]:
    return [
        Feature(
            "pA",
            "point",
            shapely.Point(-10, 0),
            {"colour": "black", "start": "black", "heading": "E", "wind": "E"},
        ),
        Feature("pB", "point", shapely.Point(10, 0), {"colour": "black"}),
        Feature("p", "path", shapely.LineString([(-10, 0), (10, 0)]), {"medium": "land"}),
    ]


def test_storm_turns_only_empty_turnable_tiles():
    """Ruling 11: 'a storm turns every turnable tile with nobody standing anywhere on it a
    quarter turn clockwise ... Tiles with a single black point never turn.'"""
    one = [Feature("p", "point", shapely.Point(0, 0), {"colour": "black", "start": "black"})]
    b = (
        B()
        .tile("T1", "test/two", 300, 0, two_black_tile(), size=40)
        .tile("T2", "test/two", 400, 0, two_black_tile(), size=40)
        .tile("T3", "test/one", 500, 0, one, size=40)
        .pt("a", 0, 0)
        .pt("mg", 20, 0, magic=True)
        .path("a", "mg")
    )
    g = position(
        b,
        {"hobbit-yellow": "a", "orc": "T1/pA"},
        cards=(("yellow", "forward", "moon"), ("yellow", "forward", "storm")),
    )
    ev = g.push_text("hobbit-yellow mg")
    storm = events_of(ev, "storm")[0]
    assert storm["tiles"] == ["T2"] and storm["skipped"] == ["T1"]
    assert [e["tile"] for e in events_of(ev, "tile_turned")] == ["T2"]
    assert g.to_json()["state"]["tile_turns"] == {"T1": 0, "T2": 1, "T3": 0}
    assert g.compiled.graph.nodes["T2/pA"]["wind"] == "S"  # E turned a quarter: S
    assert g.compiled.graph.nodes["T1/pA"]["wind"] == "E"


def spirit_board() -> B:
    tile = [
        Feature("W", "port", shapely.Point(-50, 0), {}),
        Feature(
            "pA",
            "point",
            shapely.Point(-20, 0),
            {"colour": "black", "start": "black", "heading": "E", "wind": "E"},
        ),
        Feature("pB", "point", shapely.Point(20, 0), {"colour": "black", "wind": "N"}),
        Feature("p", "path", shapely.LineString([(-50, 0), (20, 0)]), {"medium": "land"}),
    ]
    b = (
        B()
        .pt("S", 0, 0, "black", start="black", heading="E")
        .port("fp", 250, 0)
        .path("S", "fp")
        .tile("tile", "test/sq", 300, 0, tile)
    )
    return wake(b, 0, 0)


def test_spirit_on_black_start_turns_occupied_tile():
    """Ruling 11: 'A Spirit that ends its move on a black starting point turns that tile a
    quarter turn clockwise, figures and all.'"""
    g = position(spirit_board(), {"spirit": "S", "hobbit-yellow": "tile/pB", "man-yellow": "M"})
    ev = g.push_text("man-yellow T")
    assert events_of(ev, "black_moved")[0]["to"] == "tile/pA"
    assert [e["tile"] for e in events_of(ev, "tile_turned")] == ["tile"]
    state = g.to_json()["state"]
    assert state["tile_turns"]["tile"] == 1
    assert state["figures"]["hobbit-yellow"] == "tile/pB"  # figures turn with the tile
    assert g.compiled.graph.nodes["tile/pB"]["wind"] == "E"  # N turned a quarter
    assert g.compiled.xy("tile/pB") == pytest.approx((300, 20))  # (20, 0) turned: (0, 20)


def test_orc_on_black_start_does_not_turn_tile():
    """Rulebook 4.4: 'Orcs and Gollum cannot change the landscape.'"""
    g = position(spirit_board(), {"orc": "S", "man-yellow": "M"})
    ev = g.push_text("man-yellow T")
    assert events_of(ev, "black_moved")[0]["to"] == "tile/pA"
    assert events_of(ev, "tile_turned") == [] and g.to_json()["state"]["tile_turns"]["tile"] == 0
