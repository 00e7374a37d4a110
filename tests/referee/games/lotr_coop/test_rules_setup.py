"""The cooperative Lord of the Rings game, set-up: characters by player count, Rivendell, scenarios.

One test per rule, quoted in its docstring. Helpers: :mod:`rule_helpers`; the
``compiled`` board: ``conftest.py``.
"""

from __future__ import annotations

import pytest

from referee.errors import UsageError

from .rule_helpers import (
    new,
)


# ---------------------------------------------------------------------- set-up
@pytest.mark.parametrize(
    "players,names",
    [
        (2, ["frodo", "sam"]),
        (3, ["frodo", "sam", "pippin"]),
        (4, ["frodo", "sam", "pippin", "merry"]),
        (5, ["frodo", "sam", "pippin", "merry", "fatty"]),
    ],
)
def test_characters_by_player_count(compiled, players: int, names: list[str]) -> None:  # type: ignore[no-untyped-def]
    """ "2 - player game: Frodo and Sam. 3 - player game: Frodo, Sam, Pippin ... 5 - player
    game: Frodo, Sam, Pippin, Merry, Fatty. Frodo always begins the game.\""""
    g = new(compiled, players)
    assert g.players == names and g.to_move == "frodo" and g.ringbearer == 0
    assert g.scenario == "moria" and g.phase == "reveal"


def test_bad_player_count(compiled) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(UsageError):
        new(compiled, 1)
    with pytest.raises(UsageError):
        new(compiled, 3, sauron=99)


def test_rivendell_two_players(compiled) -> None:  # type: ignore[no-untyped-def]
    """ "Elrond: Shuffle the 12 Rivendell Feature cards and deal them to the players. With two
    players, discard four cards face down from the game." (Bag End, ours: 6 Hobbit cards.)"""
    g = new(compiled, 2)
    feats = [[c for c in h if g.lay.cards[c]["kind"] == "feature"] for h in g.hands]
    assert [len(f) for f in feats] == [4, 4]
    assert sum(1 for c in g.box if g.lay.cards.get(c, {}).get("kind") == "feature") == 4
    assert [len(h) - len(f) for h, f in zip(g.hands, feats)] == [6, 6]


def test_rivendell_five_players(compiled) -> None:  # type: ignore[no-untyped-def]
    """ "With five players the Ring-bearer and the player to their left both receive one card
    more than the others.\""""
    g = new(compiled, 5)
    feats = [sum(1 for c in h if g.lay.cards[c]["kind"] == "feature") for h in g.hands]
    assert feats == [3, 3, 2, 2, 2]


def test_scenario_setup(compiled) -> None:  # type: ignore[no-untyped-def]
    """ "place one marker on the first space above the Event boxes and on the first spaces of
    each Activity line ... Shuffle all the Event tiles"; Moria has no Friendship line."""
    g = new(compiled)
    assert g.markers == {"fighting": 0, "hiding": 0, "travelling": 0}
    assert g.event_pos == 0 and len(g.tiles) == len(g.lay.tile_deck)
