"""Ringgeister rules, ruling 8: the wind, and which black figure it wakes.

Positions are set up explicitly with :func:`boards.position`; the referee is asked
through its public interface (``legal_moves``, ``push``, ``check``), and rejected moves
must leave the state exactly as it was (:func:`rule_helpers.reject`).
"""

from __future__ import annotations

import shapely

from referee.model import Feature

from .boards import B, events_of, position


# ---------------------------------------------------------------------- ruling 8: wind
def wind_board(corridor: float = 15.0) -> B:
    b = B(corridor).pt("M", 0, 20).pt("T", 0, 0, wind="E").path("M", "T")
    b.pt("near", 100, 14, "black", start="black", heading="N")
    b.pt("off", 60, 16, "black", start="black", heading="N")
    b.pt("far", 200, 0, "black", start="black", heading="N")
    b.pt("behind", -50, 0, "black", start="black", heading="N")
    b.pt("on_ray", 50, 0)  # a light figure between does not shield
    return b


def test_wind_wakes_nearest_black_figure_in_corridor():
    """Ruling 8: 'The black figure whose point's centre lies within 15 mm of the ray ... and
    nearest along it plays, whatever lies between.'"""
    g = position(
        wind_board(),
        {
            "man-yellow": "M",
            "hobbit-yellow": "on_ray",
            "orc-1": "near",
            "orc-2": "off",
            "orc-3": "far",
            "gollum": "behind",
        },
    )
    ev = g.push_text("man-yellow T")
    wind = events_of(ev, "wind")[0]
    assert wind["figure"] == "orc-1" and wind["towards"] == "E"


def test_wind_corridor_is_a_board_setting():
    """Ruling 8: the corridor width is 'a board setting' (here 10 mm: 14 mm off the ray misses)."""
    g = position(
        wind_board(10.0),
        {"man-yellow": "M", "orc-1": "near", "orc-2": "off", "orc-3": "far", "gollum": "behind"},
    )
    assert events_of(g.push_text("man-yellow T"), "wind")[0]["figure"] == "orc-3"


def test_wind_wakes_gollum_when_nobody_is_in_the_wind():
    """Ruling 8: 'If none, Gollum plays.' (figures behind the point or beside the ray do not.)"""
    g = position(wind_board(), {"man-yellow": "M", "orc": "off", "gollum": "behind"})
    wind = events_of(g.push_text("man-yellow T"), "wind")[0]
    assert wind["figure"] == "gollum" and "Gollum plays" in wind["text"]


def test_wind_turns_with_its_tile():
    """Rulebook 4.1, ruling 8: the wind arrow turns with its tile (a quarter turn: N becomes E)."""
    tile = [
        Feature("T", "point", shapely.Point(0, 0), {"colour": "grey", "wind": "N"}),
        Feature("M", "point", shapely.Point(-20, 0), {"colour": "grey"}),
        Feature("p", "path", shapely.LineString([(-20, 0), (0, 0)]), {"medium": "land"}),
    ]
    b = B().tile("t", "test/wind", 0, 0, tile, turnable=False)
    b.placements[0].turns = 1
    b.pt("east", 100, 0, "black", start="black").pt("north", 0, -100, "black", start="black")
    g = position(b, {"man-yellow": "t/M", "orc-1": "east", "orc-2": "north"})
    assert events_of(g.push_text("man-yellow t/T"), "wind")[0]["figure"] == "orc-1"


def test_wind_ray_starts_at_its_point():
    """Ruling 8: 'cast a ray from the point in the arrow's direction' — a black figure behind
    the point is not in the wind even within 15 mm of the point; with nobody in the wind,
    'Gollum plays' wherever he stands."""
    b = (
        B()
        .pt("M", 0, 20)
        .pt("T", 0, 0, wind="E")
        .path("M", "T")
        .pt("behind", -10, 0, "black", start="black", heading="N")
        .pt("gp", 0, 300, "black", start="black", heading="N")
    )
    g = position(b, {"man-yellow": "M", "orc": "behind", "gollum": "gp"})
    wind = events_of(g.push_text("man-yellow T"), "wind")[0]
    assert wind["figure"] == "gollum" and wind["distance"] is None
