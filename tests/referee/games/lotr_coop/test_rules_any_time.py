"""The cooperative Lord of the Rings game, at any time: Gandalf, yellow Features, the Ring.

One test per rule, quoted in its docstring. Helpers: :mod:`rule_helpers`; the
``compiled`` board: ``conftest.py``.
"""

from __future__ import annotations

import pytest

from referee.errors import IllegalMoveError, StateError
from referee.games.lotr_coop.game import LotrCoop, Move

from .rule_helpers import (
    BLANK,
    THREE,
    Loaded,
    at_play,
    new,
    play,
    types,
)


# ---------------------------------------------------------------------- any time
def test_gandalf_card_for_five_shields(compiled) -> None:  # type: ignore[no-untyped-def]
    """ "Call a Gandalf card: any one player discards 5 shields. The active player then decides
    which of the Gandalf cards to use ... Each Gandalf card can only be used once.\""""
    g = new(compiled)
    g.shields[1] = [{"v": 1}] * 4
    with pytest.raises(IllegalMoveError) as exc:
        play(g, "gandalf sam magic 1+1+1+1")
    assert exc.value.code == "not_enough_shields"
    g.shields[1] = [{"v": 1}] * 6
    s = g.sauron
    g.sauron = s - 3
    play(g, "gandalf sam magic 1+1+1+1+1")
    assert g.shields[1] == [{"v": 1}] and g.sauron == s - 1 and "magic" not in g.gandalf_cards
    g.shields[1] = [{"v": 1}] * 5
    assert Move("gandalf", "sam", "magic", "1+1+1+1+1") not in g.legal_moves


def _gandalf_position(compiled, **fields):  # type: ignore[no-untyped-def]
    """Moria, Frodo to reveal a tile, Sam holding a 5 shield, and ``fields``."""
    position = {
        "players": ["frodo", "sam"],
        "corruption": {"frodo": "corruption00", "sam": "corruption00"},
        "sauron": "corruption12",
        "location": "moria",
        "scenario": "moria",
        "shields": {"sam": [{"value": 5}]},
        **fields,
    }
    return LotrCoop.from_position(compiled, position)


def test_called_gandalf_card_is_discarded(compiled) -> None:  # type: ignore[no-untyped-def]
    """ "Each Gandalf card can only be used once, and must then be discarded." A position with
    a used Gandalf card on the discard pile is a position of the game; a card called goes on
    top of the discard pile, not into the box, and cannot be called again."""
    g = _gandalf_position(compiled, discard=["guidance", "w-star"])
    assert "guidance" not in g.gandalf_cards and "guidance" not in g.box
    assert Move("gandalf", "sam", "guidance", "5") not in g.legal_moves
    s = g.sauron
    play(g, "gandalf sam magic 5")
    assert g.sauron == s + 2  # Magic: Sauron two spaces back
    assert g.discard[-1] == "magic" and "magic" not in g.box and "magic" not in g.gandalf_cards
    assert g.position()["discard"][:2] == ["magic", "guidance"]  # top first
    assert LotrCoop.from_position(compiled, g.position()).to_json() == g.to_json()


def test_used_gandalf_cards_boxed_at_the_reshuffle(compiled) -> None:  # type: ignore[no-untyped-def]
    """ "When the Hobbit deck has been played through, remove the used Feature cards and
    Gandalf cards from the discard pile, and place them into the game box. Reshuffle the
    remaining Hobbit cards to form a new Hobbit draw deck." Every Hobbit card is on the
    discard pile with a used Gandalf card (Guidance); Persistence (the active player draws
    4) is called: it is discarded, the deck runs out, and both Gandalf cards go to the box."""
    hobbit = list(LotrCoop.new(compiled, players=2, seed=1).lay.hobbit_deck)
    g = _gandalf_position(compiled, discard=["guidance", *hobbit])
    assert g.deck == [] and g.gandalf_cards == ["healing", "magic", "persistence", "protection"]
    ev = play(g, "gandalf sam persistence 5")
    assert "deck_reshuffled" in types(ev)
    assert sorted(g.box) == ["guidance", "persistence"] and g.discard == []
    assert sorted(g.deck + g.hands[0]) == sorted(hobbit) and len(g.hands[0]) == 4
    assert g.invariants() == []


def test_gandalf_card_both_to_call_and_used_refused(compiled) -> None:  # type: ignore[no-untyped-def]
    """A Gandalf card listed as still to call and lying on the discard pile is refused,
    naming the field."""
    with pytest.raises(StateError) as exc:
        _gandalf_position(
            compiled,
            discard=["magic"],
            gandalf_cards=["healing", "guidance", "magic", "persistence", "protection"],
        )
    assert "gandalf_cards" in str(exc.value) and "magic" in str(exc.value)


def test_yellow_feature_any_time_not_counted(compiled) -> None:  # type: ignore[no-untyped-def]
    """ "Play Yellow Feature cards: they may be played by any player. Yellow cards do not count
    towards the limit of two playable cards during a turn.\""""
    g = new(compiled)
    at_play(g)
    g.hands[0] = ["w-hiding", "g-hiding"]
    g.hands[2] = ["miruvor"]
    g.corruption[1] = 2
    play(g, "play w-hiding")
    play(g, "yellow pippin miruvor sam")
    assert g.corruption[1] == 1 and g.played["cards"] == 1
    play(g, "play g-hiding")
    assert g.played["white"] and g.played["grey"]


def test_put_on_the_ring(compiled) -> None:  # type: ignore[no-untyped-def]
    """ "Once during each Scenario the Ring-bearer may put on the Ring ... The Ring-bearer rolls
    the die and must bear any negative consequences ... advances the marker on any one
    Activity line ... if the die showed three circles, advance one space ... Spaces moved
    over or landed on in this way are not carried out.\""""
    g = new(compiled)
    assert not any(m.verb == "ring" for m in g.legal_moves)  # no tile revealed yet
    at_play(g)
    g.rng = Loaded(THREE)
    play(g, "ring hiding")
    assert g.corruption[0] == 3 and g.markers["hiding"] == 1 and "book" not in g.hands[0]
    assert g.ring_on == 0
    with pytest.raises(IllegalMoveError) as exc:
        play(g, "ring fighting")
    assert exc.value.code == "ring_used"


def test_ring_blank_advances_four(compiled) -> None:  # type: ignore[no-untyped-def]
    """The formula: 4 minus the circles shown (blank: 4 spaces, none carried out)."""
    g = new(compiled)
    at_play(g)
    g.rng = Loaded(BLANK)
    play(g, "ring travelling")
    assert g.markers["travelling"] == 4 and g.shields[0] == [] and g.life[0]["heart"] == 0
