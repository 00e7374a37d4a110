"""Ringgeister rules, ruling 10: encounters between black and light figures.

Positions are set up explicitly with :func:`boards.position`; the referee is asked
through its public interface (``legal_moves``, ``push``, ``check``), and rejected moves
must leave the state exactly as it was (:func:`rule_helpers.reject`).
"""

from __future__ import annotations

import itertools

import pytest

from .boards import B, events_of, position
from .rule_helpers import reject, wake


# ---------------------------------------------------------------------- ruling 10: encounters
def encounter_board(colour: str) -> B:
    b = (
        B()
        .pt("S", 0, 0, "black", start="black", heading="E")
        .pt("P", 100, 0, colour)
        .pt("B2", 200, 0, "black")
        .path("S", "P", "B2")
        .pt("ws", -300, 300, start="white")
    )
    return wake(b, 0, 0)


SIZES = {"gollum": 0, "orc": 1, "spirit": 2, "hobbit-yellow": 0, "man-yellow": 1, "gandalf": 2}


@pytest.mark.parametrize(
    "black,light,colour",
    list(
        itertools.product(
            ["gollum", "orc", "spirit"],
            ["hobbit-yellow", "man-yellow", "gandalf"],
            ["grey", "black"],
        )
    ),
)
def test_every_encounter_outcome(black, light, colour):
    """Ruling 10: 'Bigger black figure wins. Equal size: on a black point black wins, on a grey
    point light wins. Smaller black figure is repelled ... A defeated light figure returns to a
    free white starting point ...; on a black point the black figure takes its place and stops.'"""
    g = position(
        encounter_board(colour),
        {black: "S", light: "P", "man-orange": "M"},
        players=("yellow", "orange"),
        player=1,
        cards=(("orange", "forward", "moon"),),
    )
    ev = g.push_text("man-orange T")
    enc = events_of(ev, "encounter")[0]
    b, li = SIZES[black], SIZES[light]
    black_wins = b > li or (b == li and colour == "black")
    assert enc["winner"] == ("black" if black_wins else "light")
    figs = g.to_json()["state"]["figures"]
    if black_wins:
        assert figs[light] is None
        chooser = "orange" if light == "gandalf" else "yellow"  # Gandalf: player whose turn it is
        assert g.to_json()["state"]["pending"] == [{"figure": light, "chooser": chooser}]
        assert g.to_move == chooser
        assert figs[black] == ("P" if colour == "black" else "B2")
        assert [str(m) for m in g.legal_moves] == [f"home {light} ws"]
        reject(g, "man-orange M", "choice_pending")
        g.push_text(f"home {light} ws")
        assert g.to_json()["state"]["figures"][light] == "ws" and g.invariants() == []
    else:
        assert figs[light] == "P"
        # repelled: turns about, passes its own start S (ruling 13), turns about at the
        # dead end behind it, is repelled again: the route repeats, so it stays on S
        assert figs[black] == "S"
        assert events_of(ev, "black_moved") == []
        assert events_of(ev, "black_stays")[0]["at"] == "S"


def test_repelled_figure_turns_about_and_meets_another():
    """Ruling 10: 'Smaller black figure is repelled: it turns about and goes on until it reaches
    a black point occupied by nobody, still meeting figures on the way.'"""
    b = (
        B()
        .pt("S", 0, 0, "black", start="black", heading="E")
        .junction("J", 100, 0, forced_right=True)
        .pt("L1", 200, 0)
        .pt("B3", 300, 0, "black")
        .pt("L2", 100, -100)
        .pt("B", 100, -200, "black")
        .pt("ws", -300, 300, start="white")
        .path("S", "J", "L1", "B3")
        .path("J", "L2", "B")
    )
    g = position(
        wake(b, 0, 0),
        {"orc": "S", "gandalf": "L1", "hobbit-yellow": "L2", "man-orange": "M"},
        players=("yellow", "orange"),
        player=1,
        cards=(("orange", "forward", "moon"),),
    )
    ev = g.push_text("man-orange T")
    encs = events_of(ev, "encounter")
    assert [(e["light_figure"], e["winner"]) for e in encs] == [
        ("gandalf", "light"),
        ("hobbit-yellow", "black"),
    ]
    assert g.to_json()["state"]["figures"]["orc"] == "B"
    assert g.to_json()["state"]["pending"] == [{"figure": "hobbit-yellow", "chooser": "yellow"}]


def test_ringbearer_caught_by_spirit_loses_the_game():
    """Ruling 10: 'A Spirit that defeats the current Ringbearer ends the game: everybody loses.'"""
    g = position(
        encounter_board("grey"),
        {"spirit": "S", "hobbit-yellow": "P", "man-orange": "M"},
        players=("yellow", "orange"),
        player=1,
        cards=(("yellow", "forward", "moon"),),
    )
    ev = g.push_text("man-orange T")
    assert ev[-1]["type"] == "game_lost"
    assert g.outcome is not None and g.outcome.result == "lost"
    assert g.outcome.reason == "ringbearer_caught"
    assert list(g.legal_moves) == []
    reject(g, "man-orange M", "game_over")


def test_orc_defeating_the_ringbearer_does_not_end_the_game():
    """Ruling 10: only a *Spirit* catching the Ringbearer ends the game; an Orc sends him home."""
    g = position(
        encounter_board("grey"),
        {"orc": "S", "hobbit-yellow": "P", "man-orange": "M"},
        players=("yellow", "orange"),
        player=1,
        cards=(("yellow", "forward", "moon"),),
    )
    g.push_text("man-orange T")
    assert g.outcome is None and g.to_json()["state"]["pending"][0]["figure"] == "hobbit-yellow"
