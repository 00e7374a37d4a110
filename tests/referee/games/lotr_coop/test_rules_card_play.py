"""The cooperative Lord of the Rings game, playing cards and carrying out the spaces.

One test per rule, quoted in its docstring. Helpers: :mod:`rule_helpers`; the
``compiled`` board: ``conftest.py``.
"""

from __future__ import annotations

import pytest

from referee.errors import IllegalMoveError
from referee.games.lotr_coop.game import Move

from .rule_helpers import (
    ONE,
    Loaded,
    at_play,
    new,
    no_yellow,
    play,
    types,
)


# ---------------------------------------------------------------------- card play
def test_one_white_and_one_grey(compiled) -> None:  # type: ignore[no-untyped-def]
    """ "Play one or two cards (one white and one grey) from your hand to advance the markers
    on the Activity lines.\""""
    g = new(compiled)
    at_play(g)
    g.hands[0] = ["w-travelling", "w-hiding", "g-fighting"]
    play(g, "play w-travelling")
    assert g.markers["travelling"] == 1
    with pytest.raises(IllegalMoveError) as exc:
        play(g, "play w-hiding")
    assert exc.value.code == "colour_already_played"
    play(g, "play g-fighting")
    play(g, "end")
    assert g.to_move == "sam" and g.phase == "reveal"


def test_each_space_moved_over_is_carried_out(compiled) -> None:  # type: ignore[no-untyped-def]
    """ "If a card played permits a marker to be advanced by more than one space, every space
    moved over or landed on must be carried out." (Rulebook example: Gimli's two Fighting
    symbols.)"""
    g = new(compiled)
    at_play(g)
    g.hands[0] = ["gimli"]
    g.markers["fighting"] = 2  # next spaces: life:ring, shield
    play(g, "play gimli")
    assert g.markers["fighting"] == 4 and g.life[0]["ring"] == 1 and len(g.shields[0]) == 1


def test_die_space_rolled_last(compiled) -> None:  # type: ignore[no-untyped-def]
    """ "If this includes an instruction to roll the die, this is done last, but before
    playing the next card.\""""
    g = new(compiled)
    no_yellow(g)
    at_play(g)
    g.hands[0] = ["g-star2"]
    g.markers["fighting"] = 4  # next: die, shield_random
    g.rng = Loaded(ONE)
    ev = play(g, "play g-star2 fighting")
    t = types(ev)
    assert t.index("shield") < t.index("die") and g.corruption[0] == 1


def test_joker_stars_on_one_line(compiled) -> None:  # type: ignore[no-untyped-def]
    """ "When you play a Joker card with more than one star symbol, you must apply all stars to
    the same Activity line.\""""
    g = new(compiled)
    at_play(g)
    g.hands[0] = ["g-star2"]
    plays = {str(m) for m in g.legal_moves if m.verb == "play"}
    assert plays == {"play g-star2 fighting", "play g-star2 hiding", "play g-star2 travelling"}
    play(g, "play g-star2 travelling")
    assert g.markers == {"fighting": 0, "hiding": 0, "travelling": 2}


def test_symbol_not_on_board_no_effect(compiled) -> None:  # type: ignore[no-untyped-def]
    """ "Cards with a symbol not shown on the Scenario board have no effect in that particular
    Scenario.\""""
    g = new(compiled)
    at_play(g)
    g.hands[0] = ["w-friendship"]
    before = dict(g.markers)
    ev = play(g, "play w-friendship")
    assert g.markers == before and "no_effect" in types(ev)


def test_draw_two_or_step_back(compiled) -> None:  # type: ignore[no-untyped-def]
    """ "Draw two Hobbit cards into your hand or move your Hobbit back one step towards the
    light on the Corruption line.\""""
    g = new(compiled)
    at_play(g)
    n = len(g.hands[0])
    play(g, "draw")
    assert len(g.hands[0]) == n + 2 and g.to_move == "sam"
    at_play(g)
    g.corruption[1] = 3
    play(g, "heal")
    assert g.corruption[1] == 2 and g.to_move == "pippin"


def test_pippin_draws_three(compiled) -> None:  # type: ignore[no-untyped-def]
    """Pippin's character skill (ours): 2b draws three Hobbit cards."""
    g = new(compiled)
    g.active = 2
    at_play(g)
    n = len(g.hands[2])
    play(g, "draw")
    assert len(g.hands[2]) == n + 3


def test_frodo_white_card_as_joker(compiled) -> None:  # type: ignore[no-untyped-def]
    """Example of play: "Frodo takes advantage of his special skill on his Character card to
    use any white Hobbit card as a star card, and discards a white Friendship card" (for a
    Hiding card)."""
    g = new(compiled)
    at_play(g)
    g.hands[0] = ["w-friendship"]
    assert Move("play", "w-friendship", "fighting") in g.legal_moves
    g.hands[1] = ["w-friendship"]
    assert g._matches(0, "w-friendship", "hiding") and not g._matches(1, "w-friendship", "hiding")
