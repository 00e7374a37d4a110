"""Riddle of the Ring rules from the rulebook's sentences, each set up as a position
(issue 27): nothing is arranged by reaching into the game object."""

from __future__ import annotations

from typing import Any

import pytest

from referee.errors import IllegalMoveError, StateError
from referee.games.riddle import RiddleGame
from referee.pytest_plugin import assert_illegal, assert_legal, game_from_position


def position(**fields: Any) -> dict[str, Any]:
    """Frodo to play against rider1 and sam on the test grid; unlisted cards are drawn."""
    return {
        "players": ["frodo", "rider1", "sam"],
        "to_move": "frodo",
        "draw_rest": True,
        "phase": "main",
        **fields,
    }


def moves(g: RiddleGame) -> set[str]:
    return {str(m) for m in g.legal_moves}


# ------------------------------------------------ "If a player has no cards, there is no exchange."
def test_no_exchange_with_a_player_who_holds_no_cards(grid):
    """Friendly Exchanges: "Each player draws 1 card from the other player's hand so that
    they swap 1 card in an exchange. If a player has no cards, there is no exchange."
    Frodo stops beside rider1, who holds nothing: no exchange is due or logged, he may
    pass at once, and cannot battle him ("If a player has no cards for a Friendly
    Exchange, he cannot be in a battle")."""
    g = game_from_position(
        RiddleGame,
        grid,
        position(
            roll=1,
            places={"frodo": "r3c0", "rider1": "r3c2", "sam": "r0c4"},
            hands={"frodo": ["good_army1.1", "good_army2.1"], "rider1": [], "sam": ["boat.1"]},
        ),
    )
    events = g.push_text("move r3c0>r3c1")
    assert g.phase == "main" and g.t.pending == []
    assert [e["type"] for e in events] == ["move"]
    assert not any(m.startswith("exchange") for m in moves(g))
    assert_legal(g, "pass")
    assert_illegal(g, "exchange rider1", code="wrong_phase")
    assert_illegal(g, "battle rider1")


def test_no_exchange_for_a_mover_who_holds_no_cards(grid):
    """The same sentence from the other side: Frodo holds no cards and stops beside
    rider1 and sam, who hold some: no exchange with either."""
    g = game_from_position(
        RiddleGame,
        grid,
        position(
            roll=1,
            places={"frodo": "r3c0", "rider1": "r3c2", "sam": "r2c1"},
            hands={"frodo": [], "rider1": ["evil_army1.1"], "sam": ["boat.1"]},
        ),
    )
    g.push_text("move r3c0>r3c1")
    assert g.phase == "main" and g.t.pending == []
    assert_legal(g, "pass")


def test_exchange_only_with_the_players_who_hold_cards(grid):
    """Stopping beside two players, one empty-handed: the exchange is had with the
    other only ("he must have a Friendly Exchange with each of them" who can have one)."""
    g = game_from_position(
        RiddleGame,
        grid,
        position(
            roll=1,
            places={"frodo": "r3c0", "rider1": "r3c2", "sam": "r2c1"},
            hands={"frodo": ["good_army1.1"], "rider1": [], "sam": ["boat.1"]},
        ),
    )
    g.push_text("move r3c0>r3c1")
    assert g.phase == "exchange" and g.t.pending == ["sam"]
    assert moves(g) == {"exchange sam"}
    g.push_text("exchange sam")
    assert g._by["frodo"].hand == ["boat.1"] and g._by["sam"].hand == ["good_army1.1"]
    assert_legal(g, "pass")


def test_a_boat_used_as_the_last_card_leaves_nothing_to_exchange(grid):
    """The hand counts when the mover stops: Frodo's only card, a Boat, goes to the table
    to enter the lake, so beside rider1 he holds no cards and there is no exchange."""
    g = game_from_position(
        RiddleGame,
        grid,
        position(
            roll=1,
            places={"frodo": "r0c3", "rider1": "r1c4", "sam": "r4c0"},
            hands={"frodo": ["boat.1"], "rider1": ["evil_army1.1"]},
        ),
    )
    g.push_text("move r0c3>r0c4")
    assert g._by["frodo"].hand == [] and g._by["frodo"].table == ["boat.1"]
    assert g.phase == "main" and g.t.pending == []


def test_a_position_owing_an_exchange_with_an_empty_hand_is_refused(grid):
    """A position cannot say an exchange is due with a player who holds no cards."""
    with pytest.raises(StateError, match="rider1 holds no cards"):
        RiddleGame.from_position(
            grid,
            position(
                phase="exchange",
                turn_state={
                    "roll": 1,
                    "die_used": True,
                    "moved": True,
                    "start": "r3c0",
                    "pending": ["rider1"],
                },
                places={"frodo": "r3c1", "rider1": "r3c2", "sam": "r0c4"},
                hands={"frodo": ["good_army1.1"], "rider1": []},
            ),
        )


# ------------------------------------------------ "If another player catches a player with over 10 cards"
def test_nobody_is_over_ten_cards_after_his_turn_so_there_is_no_catch(grid):
    """Hold Up to 10 Cards: "If he has over 10 cards, he must discard any cards he
    chooses so that he will be left with exactly 10 cards at the end of his turn. If
    another player catches a player with over 10 cards after his turn has ended, that
    player goes immediately to Limbo." The referee makes the discard before the turn
    ends, so the catch cannot happen and is no move (rulings § Riddle card game)."""
    eleven = ["boat.1", "boat.2", "rope.1", "rope.2", "cloak.1", "cloak.2", "horse3",
              "horse2", "riddle.1", "riddle.2", "elf_ring.1"]  # fmt: skip
    g = game_from_position(
        RiddleGame,
        grid,
        position(
            roll=1,
            places={"frodo": "r3c0", "rider1": "r0c4", "sam": "r4c4"},
            hands={"frodo": eleven},
        ),
    )
    g.push_text("move r3c0>r3c1")
    g.push_text("pass")
    assert g.phase == "discard" and g.to_move == "frodo" and g.t.must_discard == 1
    g.push_text("discard boat.1")
    assert g.to_move == "rider1" and len(g._by["frodo"].hand) == 10
    with pytest.raises(IllegalMoveError) as e:
        g.parse_move("catch frodo")
    assert e.value.code == "bad_move"
    # a position cannot say a player holds over 10 cards after his turn ...
    with pytest.raises(StateError, match="sam holds 11 cards after his turn"):
        RiddleGame.from_position(
            grid, position(roll=1, places={"frodo": "r3c0"}, hands={"sam": eleven})
        )
    # ... unless the card over the limit came from a wrong Riddle ("Cards taken after
    # an incorrect Riddle do not count against the 10 card limit")
    g = RiddleGame.from_position(
        grid,
        position(roll=1, places={"frodo": "r3c0"}, hands={"sam": eleven}, riddle_extra={"sam": 1}),
    )
    assert not any(str(m).startswith("catch") for m in g.legal_moves)
