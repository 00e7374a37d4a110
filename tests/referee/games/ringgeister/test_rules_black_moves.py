"""Ringgeister rules, ruling 9: how a woken black figure moves.

Positions are set up explicitly with :func:`boards.position`; the referee is asked
through its public interface (``legal_moves``, ``push``, ``check``), and rejected moves
must leave the state exactly as it was (:func:`rule_helpers.reject`).
"""

from __future__ import annotations

import pytest

from .boards import B, events_of, position
from .rule_helpers import wake

# ---------------------------------------------------------------------- ruling 9: black moves


def fork_board(forced: bool) -> B:
    b = (
        B()
        .pt("S", 0, 0, "black", start="black", heading="E")
        .junction("J", 100, 0, forced_right=forced)
        .pt("N1", 100, -100, "black")
        .pt("E1", 200, 0, "black")
        .pt("S1", 100, 100, "black")
        .path("S", "J")
        .path("J", "N1")
        .path("J", "E1")
        .path("J", "S1")
    )
    return wake(b, 0, 0)


@pytest.mark.parametrize("forced,end", [(False, "E1"), (True, "S1")])
def test_straight_on_versus_three_arrow_fork(forced, end):
    """Ruling 9: 'at every junction goes straight on ..., except at forks with three arrows,
    where it takes the rightmost land exit.'"""
    g = position(fork_board(forced), {"orc": "S", "man-yellow": "M"})
    ev = g.push_text("man-yellow T")
    assert events_of(ev, "black_moved")[0]["route"] == ["S", "J", end]
    assert g.to_json()["state"]["figures"]["orc"] == end


@pytest.mark.parametrize("hand,end", [("forward", "E1"), ("backward", "W1")])
def test_black_figure_follows_the_hand(hand, end):
    """Ruling 9: it 'leaves its black point along that point's heading (forward) or against it
    (backward), as the face-up card's hand says'."""
    b = (
        B()
        .pt("W1", -100, 0, "black")
        .pt("S", 0, 0, "black", start="black", heading="E")
        .pt("E1", 100, 0, "black")
        .path("W1", "S", "E1")
    )
    g = position(wake(b, 0, 0), {"orc": "S", "man-yellow": "M"}, cards=(("yellow", hand, "moon"),))
    assert events_of(g.push_text("man-yellow T"), "black_moved")[0]["to"] == end


def test_black_figure_passes_grey_points_and_black_figures():
    """Ruling 9: it 'passes grey points and black figures' and 'stops at the first black point
    not occupied by a black figure'."""
    b = (
        B()
        .pt("S", 0, 0, "black", start="black", heading="E")
        .pt("g", 50, 0)
        .pt("k", 100, 0, "black")
        .pt("k2", 150, 0, "black")
        .path("S", "g", "k", "k2")
    )
    g = position(wake(b, 0, 0), {"orc-1": "S", "orc-2": "k", "man-yellow": "M"})
    assert events_of(g.push_text("man-yellow T"), "black_moved")[0]["route"] == [
        "S",
        "g",
        "k",
        "k2",
    ]


def test_black_figure_avoids_water_and_galleries():
    """Ruling 9: 'It follows land paths only'; ruling 5: 'Black figures never use galleries.'"""
    b = (
        B()
        .pt("S", 0, 0, "black", start="black", heading="E")
        .junction("J", 100, 0)
        .pt("wet", 200, 0, "black")
        .pt("dry", 100, 100, "black")
        .path("S", "J")
        .path("J", "wet", medium="water")
        .path("J", "dry")
        .door("d", 100, 50, "moon")
        .door("d2", 300, 300, "moon")
        .pt("far", 320, 300, "black")
        .path("d2", "far")
    )
    g = position(
        wake(b, 0, 0), {"orc": "S", "man-yellow": "M"}, cards=(("yellow", "forward", "moon"),)
    )
    assert events_of(g.push_text("man-yellow T"), "black_moved")[0]["route"] == [
        "S",
        "J",
        "d",
        "dry",
    ]


def test_dead_end_turn_about():
    """Ruling 9: 'At a dead end it turns about.' (then, at the three-arrow fork, turns right)."""
    b = (
        B()
        .pt("S", 0, 0, "black", start="black", heading="E")
        .junction("J", 100, 0, forced_right=True)
        .port("X", 200, 0)
        .pt("B", 100, -100, "black")
        .path("S", "J", "X")
        .path("J", "B")
    )
    g = position(wake(b, 0, 0), {"orc": "S", "man-yellow": "M"})
    ev = g.push_text("man-yellow T")
    assert events_of(ev, "black_moved")[0]["route"] == ["S", "J", "X", "J", "B"]
    assert g.to_json()["state"]["figures"]["orc"] == "B"


def test_black_figure_whose_route_repeats_stays():
    """Ruling 9: 'If its route repeats without finding one, it stays where it started.'"""
    b = (
        B()
        .pt("S", 0, 0, "black", start="black", heading="E")
        .junction("j", 100, 0)
        .pt("g1", 200, 0)
        .pt("g2", 200, 100)
        .pt("g3", 0, 100)
        .path("S", "j")
        .path("j", "g1", "g2", "g3")
        .path("g3", "j")
    )
    g = position(wake(b, 0, 0), {"orc": "S", "man-yellow": "M"})
    ev = g.push_text("man-yellow T")
    assert events_of(ev, "wind")[0]["figure"] == "orc"
    assert events_of(ev, "black_stays")[0]["at"] == "S"
    assert g.to_json()["state"]["figures"]["orc"] == "S"
