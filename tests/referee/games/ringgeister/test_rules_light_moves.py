"""Ringgeister rules, rulings 2–4: how light figures and Gandalf move and where they stop.

Positions are set up explicitly with :func:`boards.position`; the referee is asked
through its public interface (``legal_moves``, ``push``, ``check``), and rejected moves
must leave the state exactly as it was (:func:`rule_helpers.reject`).
"""

from __future__ import annotations

import pytest

from .boards import B, moves_of, position
from .rule_helpers import line, reject


# ---------------------------------------------------------------------- ruling 2: light moves
def test_stops_at_next_free_point():
    """Ruling 2: a coloured figure 'stops at the first point not occupied by a figure'."""
    g = position(line("a", "b", "c", "d"), {"hobbit-yellow": "a", "man-yellow": "d"})
    assert moves_of(g, "hobbit-yellow") == {"b"}
    assert moves_of(g, "man-yellow") == {"c"}
    err = reject(g, "hobbit-yellow c", "not_next_free_point")
    assert err.details["point"] == "b"


def test_jumps_over_light_figures():
    """Ruling 2: 'It jumps over points occupied by light figures.'"""
    g = position(
        line("a", "b", "c", "d"), {"hobbit-yellow": "a", "man-yellow": "b", "gandalf": "c"}
    )
    assert moves_of(g, "hobbit-yellow") == {"d"}
    ev = g.push_text("hobbit-yellow d")
    assert ev[0]["type"] == "moved" and ev[0]["route"] == ["a", "b", "c", "d"]


def test_black_figure_blocks_light_figures():
    """Ruling 2: 'It cannot pass or enter a point occupied by a black figure.'"""
    g = position(
        line("a", "b", "c"),
        {"hobbit-yellow": "a", "orc": "b"},
        players=("yellow", "orange"),
        cards=(("orange", "forward", "moon"),),
    )
    assert moves_of(g, "hobbit-yellow") == set()
    err = reject(g, "hobbit-yellow c", "blocked_by_black_figure")
    assert err.details["point"] == "b" and err.details["black_figure"] == "orc"
    reject(g, "hobbit-yellow b", "point_occupied")


@pytest.mark.parametrize("black,jumps", [("orc", True), ("gollum", True), ("spirit", False)])
def test_ringbearer_jumps_orcs_and_gollum_not_spirits(black, jumps):
    """Ruling 2: '... except the current Ringbearer, who jumps Gollum and Orcs, never a Spirit.'"""
    g = position(
        line("a", "b", "c"),
        {"hobbit-yellow": "a", black: "b"},
        cards=(("yellow", "forward", "moon"),),
    )
    assert (moves_of(g, "hobbit-yellow") == {"c"}) is jumps
    if not jumps:
        err = reject(g, "hobbit-yellow c", "blocked_by_black_figure")
        assert "Spirit" in err.message


def test_only_the_ringbearer_jumps_black_figures():
    """Rulebook 6.1: the Ringbearer Hobbit 'is the only light figure able to jump over a black
    figure' — his Man and a Hobbit who is not the Ringbearer are stopped by an Orc."""
    b = line("a", "b", "c").pt("x", 0, 50).pt("y", 20, 50).pt("z", 40, 50).path("x", "y", "z")
    g = position(
        b,
        {"hobbit-yellow": "a", "orc-1": "b", "man-yellow": "x", "orc-2": "y"},
        cards=(("yellow", "forward", "moon"),),
    )
    assert moves_of(g, "hobbit-yellow") == {"c"}
    assert moves_of(g, "man-yellow") == set()


# ---------------------------------------------------------------------- ruling 3: Gandalf
def test_gandalf_passes_grey_points_and_stops_at_first_free_black_point():
    """Ruling 3: Gandalf 'may stop at any free point on the way and must stop at the first
    free black point'; he passes points held by light figures."""
    b = line("a", "g1", "h", "g2", "k", "g3", black=("k",))
    g = position(b, {"gandalf": "a", "man-yellow": "h"})
    assert moves_of(g, "gandalf") == {"g1", "g2", "k"}
    err = reject(g, "gandalf g3", "must_stop_at_black_point")
    assert err.details["point"] == "k"


def test_gandalf_passes_a_black_point_held_by_a_light_figure():
    """Ruling 3: he must stop at the first *free* black point; one held by a light figure
    is passed like any occupied point."""
    b = line("a", "g1", "k", "g3", black=("k",))
    g = position(b, {"gandalf": "a", "hobbit-yellow": "k"})
    assert moves_of(g, "gandalf") == {"g1", "g3"}


def test_gandalf_cannot_pass_black_figures():
    """Ruling 3: 'He cannot pass black figures.'"""
    g = position(line("a", "g1", "g2", "g3"), {"gandalf": "a", "orc": "g2"})
    assert moves_of(g, "gandalf") == {"g1"}
    reject(g, "gandalf g3", "blocked_by_black_figure")


# ---------------------------------------------------------------------- ruling 4
def test_nobody_stops_on_junction_door_or_dead_end():
    """Ruling 4: 'Nobody stops on a junction, a door, or between points.'"""
    b = (
        B()
        .pt("a", 0, 0)
        .junction("j", 20, 0)
        .pt("n", 20, -20)
        .pt("s", 20, 20)
        .door("d", 40, 0, "moon")
        .pt("e", 60, 0)
        .port("x", 20, 40)
        .path("a", "j", "d", "e")
        .path("n", "j", "s", "x")
    )
    g = position(b, {"hobbit-yellow": "a"})
    assert moves_of(g, "hobbit-yellow") == {"n", "s", "e"}
    reject(g, "hobbit-yellow j", "not_a_point")
    reject(g, "hobbit-yellow d", "not_a_point")
    reject(g, "hobbit-yellow x", "not_a_point")
    reject(g, "hobbit-yellow nowhere", "no_such_destination")


def _ring(*black: str) -> B:
    """Five points round a ring and nothing else: a, b, c on top, d, e below."""
    b = B().pt("a", 0, 0).pt("b", 30, 0).pt("c", 60, 0).pt("d", 45, 30).pt("e", 15, 30)
    for n in black:
        b.features[[f.id for f in b.features].index(n)].props["colour"] = "black"
    return b.path("a", "b", "c", "d", "e", "a")


def test_gandalf_round_a_ring_may_stop_anywhere_by_the_fewest_hops():
    """Ruling 3: Gandalf 'may stop at any free point on the way' — round a ring of grey
    points that is every other point, each reached the shorter way round (the route the
    move reports), and his search ends although the ring leads back over his own point."""
    g = position(_ring(), {"gandalf": "a"})
    assert moves_of(g, "gandalf") == {"b", "c", "d", "e"}
    ev = g.copy().push_text("gandalf c")
    assert ev[0]["route"] == ["a", "b", "c"]
    ev = g.copy().push_text("gandalf d")
    assert ev[0]["route"] == ["a", "e", "d"]


def test_a_figure_ringed_by_light_figures_has_nowhere_to_stop():
    """Ruling 2: a light figure jumps points held by light figures and stops at the first
    free one — round a ring whose every other point is held by a light figure it comes
    back over its own point and finds none."""
    g = position(
        _ring(),
        {
            "hobbit-yellow": "a",
            "man-yellow": "b",
            "gandalf": "c",
            "hobbit-orange": "d",
            "man-orange": "e",
        },
        players=("yellow", "orange"),
    )
    assert moves_of(g, "hobbit-yellow") == set()


def test_gandalf_round_a_ring_goes_the_long_way_past_a_black_point():
    """Ruling 3: he 'must stop at the first free black point' — with b black, c is two
    hops away past b but reached only the long way round, past e and d; b itself is
    reached either way and is where he stops."""
    g = position(_ring("b"), {"gandalf": "a"})
    assert moves_of(g, "gandalf") == {"b", "c", "d", "e"}
    ev = g.copy().push_text("gandalf c")
    assert ev[0]["route"] == ["a", "e", "d", "c"]
    ev = g.copy().push_text("gandalf b")
    assert ev[0]["route"] == ["a", "b"]
