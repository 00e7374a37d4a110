"""The cooperative Lord of the Rings game, the event tiles (the tile phase).

One test per rule, quoted in its docstring. Helpers: :mod:`rule_helpers`; the
``compiled`` board: ``conftest.py``.
"""

from __future__ import annotations

import pytest

from referee.errors import IllegalMoveError

from .rule_helpers import (
    BLANK,
    Loaded,
    new,
    no_yellow,
    play,
    types,
)


# ---------------------------------------------------------------------- event tiles
def test_evil_tile_ringbearer_then_next_tile(compiled) -> None:  # type: ignore[no-untyped-def]
    """ "The Ring-bearer's Hobbit must move one step towards the darkness on the Corruption
    line. Then reveal the next Event tile.\""""
    g = new(compiled)
    g.tiles.append("ringbearer-dark")
    play(g, "reveal")
    assert g.corruption[0] == 1 and g.phase == "reveal"


def test_volunteer_or_sauron(compiled) -> None:  # type: ignore[no-untyped-def]
    """ "One player must volunteer to advance their Hobbit by two steps into the darkness ...
    or else Sauron moves one step towards the Hobbits.\""""
    g = new(compiled)
    g.tiles += ["volunteer", "volunteer"]
    play(g, "reveal")
    assert g.phase == "volunteer"
    play(g, "volunteer pippin")
    assert g.corruption == [0, 0, 2]
    play(g, "reveal")
    s = g.sauron
    play(g, "refuse")
    assert g.sauron == s - 1


def test_sundial_next_event(compiled) -> None:  # type: ignore[no-untyped-def]
    """ "The next Event on the Scenario board now occurs. Progress the Event marker to the next
    Event box down and perform the stated action." (Moria box 2, from the Example of Play:
    "Each Hobbit must discard one Hiding card or roll the die" — an EACH PLAYER prompt,
    active player first.)"""
    g = new(compiled)
    no_yellow(g)
    g.event_pos = 1
    g.tiles.append("sundial")
    play(g, "reveal")
    assert g.event_pos == 2 and g.phase == "each_pay" and g.to_move == "frodo"
    g.hands[1] = ["w-hiding", "w-fighting"]
    play(g, "decline frodo")
    g.rng = Loaded(BLANK)  # Frodo's die: nothing happens
    assert g.to_move == "sam"
    with pytest.raises(IllegalMoveError):
        play(g, "pay sam w-fighting")
    play(g, "pay sam w-hiding")
    assert g.hands[1] == ["w-fighting"] and g.to_move == "pippin"


def test_group_discards_three_or_event(compiled) -> None:  # type: ignore[no-untyped-def]
    """ "If you join together with the other players to discard 3 cards of any type between
    you, then nothing happens. If not, the next Event occurs.\""""
    g = new(compiled)
    g.tiles += ["discard-three", "discard-three"]
    play(g, "reveal")
    a, b = g.hands[0][0], g.hands[1][0]
    play(g, f"give frodo {a}")
    play(g, f"give sam {b}")
    play(g, f"give frodo {g.hands[0][0]}")
    assert g.event_pos == 0 and g.phase == "reveal"
    play(g, "reveal")
    play(g, "refuse")
    assert g.event_pos == 1


def test_card_life_shield(compiled) -> None:  # type: ignore[no-untyped-def]
    """ "If you join together ... to discard 1 card, 1 Life token and 1 shield between you,
    nothing happens. Otherwise, the next Event occurs.\""""
    g = new(compiled)
    g.life[1]["sun"] = 1
    g.shields[2] = [{"v": 1}]
    g.tiles.append("card-life-shield")
    play(g, "reveal")
    moves = {str(m) for m in g.legal_moves}
    assert {"give sam life:sun", "give pippin shield:1", "refuse"} <= moves
    play(g, "give sam life:sun")
    play(g, "give pippin shield:1")
    play(g, f"give frodo {g.hands[0][0]}")
    assert g.life[1]["sun"] == 0 and g.shields[2] == [] and g.event_pos == 0
    assert g.phase == "reveal"


def test_activity_tile_advances_and_ends_reveals(compiled) -> None:  # type: ignore[no-untyped-def]
    """ "advance the corresponding Activity marker by one space ... and carry out the Activity
    space you landed on ... After revealing an Activity tile, no further Event tile is
    revealed.\""""
    g = new(compiled)
    g.tiles.append("fighting")
    ev = play(g, "reveal")
    assert g.markers["fighting"] == 1 and g.phase == "play"
    assert g.lay.scenarios["moria"].lines["fighting"].spaces[1] == "shield"
    assert g.shields[0] == [{"v": 1}] and "shield" in types(ev)


def test_activity_tile_without_line(compiled) -> None:  # type: ignore[no-untyped-def]
    """ "If there is no such Activity line on the game board (Moria for example does not have a
    Friendship Activity line) ... advance the marker on another Activity line of your
    choice by one space.\""""
    g = new(compiled)
    g.tiles.append("friendship")
    play(g, "reveal")
    assert g.phase == "line"
    assert {str(m) for m in g.legal_moves} >= {"line fighting", "line hiding", "line travelling"}
    play(g, "line hiding")
    assert g.markers["hiding"] == 1 and "book" in g.hands[0]
