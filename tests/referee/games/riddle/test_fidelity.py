"""Rulebook fidelity (issue 15, items 1-5): each rule written from the rulebook's
sentence, set up as a position (``docs/game-kit.md``) and checked with the kit's
pytest helpers. The rulings are rulings § Riddle movement."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from referee.compiler import compile_board
from referee.games.riddle import RiddleGame
from referee.pytest_plugin import assert_illegal, assert_legal, game_from_position
from referee.store import load_project

SAMPLE = Path(__file__).resolve().parents[4] / "projects" / "riddle-sample"


@pytest.fixture(scope="module")
def sample():
    return compile_board(load_project(SAMPLE))


def position(**fields: Any) -> dict[str, Any]:
    """A two-player position, Frodo to play; unlisted cards form the draw pile."""
    return {"players": ["frodo", "rider1"], "to_move": "frodo", "draw_rest": True, **fields}


def test_a_turn_may_not_end_where_it_began(sample):
    """Rulebook, How to move your marker: "No player may begin and end a turn on the same
    space, unless he is on The Cracks of Doom or Barad-Dur and wins the game on that
    turn." The issue's game: roll, ``move s200>s075``, then a Horse back to s200 would
    leave only ``pass``: the Horse move back is refused, not the turn ended on s200."""
    g = game_from_position(
        RiddleGame,
        sample,
        position(
            phase="main",
            roll=1,
            places={"frodo": "s200", "rider1": "s048"},
            hands={"frodo": ["horse2"]},
        ),
    )
    g.push_text("move s200>s075")
    assert "ride horse2 s075>s200" not in {str(m) for m in g.legal_moves}
    assert_illegal(g, "ride horse2 s075>s200", code="same_space")
    assert_legal(g, "ride horse2 s075>s171")
    assert_legal(g, "pass")  # ending on s075 is fine


def test_the_cloak_is_used_by_choice(grid):
    """Key to the Board, Forests: "With a Cloak card, a player does not have to stop. He
    may use the Cloak to move in Forests as in Open Country." A choice: both moves are
    listed, and the move's text says whether the Cloak is used."""
    g = game_from_position(
        RiddleGame,
        grid,
        position(
            phase="main",
            roll=2,
            places={"frodo": "r1c1", "rider1": "r4c4"},
            hands={"frodo": ["cloak.1"]},
        ),
    )
    assert_legal(g, "move r1c1>r1c2")  # stops in the forest, keeps the Cloak
    assert_legal(g, "move r1c1>r1c2 +cloak")  # goes on as in open country
    assert_legal(g, "move r1c1>r1c2>r1c3 +cloak")
    assert_illegal(g, "move r1c1>r0c1 +cloak", code="card_not_needed")
    g.push_text("move r1c1>r1c2")
    assert g.t.stopped and g._by["frodo"].hand == ["cloak.1"]


def test_the_defender_answers_with_one_card_or_one_city(grid):
    """Rulebook, How to Have a Battle: "The defender may then present a card, or a city,
    to match (equal) the battle points just used against him by the attacker." Set up
    after the move and the Friendly Exchange, the attacker presents 3 points: 1 + 2
    points in two cards are no answer."""
    g = game_from_position(
        RiddleGame,
        grid,
        {
            "players": ["frodo", "rider1"],
            "to_move": "rider1",
            "draw_rest": True,
            "phase": "main",
            "turn_state": {
                "roll": 1,
                "die_used": True,
                "moved": True,
                "start": "r3c0",
                "exchanged": ["frodo"],
            },
            "places": {"rider1": "r3c1", "frodo": "r3c2"},
            "hands": {"rider1": ["evil_army3"], "frodo": ["good_army1.1", "good_army2.1"]},
        },
    )
    g.push_text("battle frodo")
    g.push_text("commit evil_army3")
    assert {str(m) for m in g.legal_moves} == {"surrender"}
    assert_illegal(g, "match good_army2.1", code="must_match")
    assert_illegal(g, "match good_army1.1", code="must_match")


def test_road_steps_pair_only_along_the_same_road(sample):
    """Key to the Board: "Move 1 or 2 spaces per die count along spaces connected by the
    same road." s075-s171 is on one road, s171-s019 on another: two counts, not one."""
    g = game_from_position(
        RiddleGame,
        sample,
        position(phase="main", roll=1, places={"frodo": "s075", "rider1": "s048"}),
    )
    assert_illegal(g, "move s075>s171>s019", code="too_far")
    g2 = game_from_position(
        RiddleGame,
        sample,
        position(phase="main", roll=2, places={"frodo": "s075", "rider1": "s048"}),
    )
    assert_legal(g2, "move s075>s171>s019")


def test_every_power_play_needs_a_card(grid):
    """Rulebook, Power Plays: "All Power Plays require a player to use at least 1 card
    from his hand." A battle cannot be started without a battle card, nor opened with a
    city or settled before a card was presented."""
    pos: dict[str, Any] = {
        "players": ["frodo", "rider1"],
        "to_move": "rider1",
        "draw_rest": True,
        "phase": "main",
        "turn_state": {
            "roll": 1,
            "die_used": True,
            "moved": True,
            "start": "r3c1",
            "exchanged": ["frodo"],
        },
        "places": {"rider1": "r2c0", "frodo": "r1c0"},  # on the Evil city r2c0
        "hands": {"rider1": ["boat.1"], "frodo": ["good_army1.1"]},
    }
    g = game_from_position(RiddleGame, grid, pos)
    assert_illegal(g, "battle frodo", code="no_battle_card")
    pos["hands"] = {"rider1": ["evil_army1.1"], "frodo": ["good_army1.1"]}
    g = game_from_position(RiddleGame, grid, pos)
    g.push_text("battle frodo")
    assert_illegal(g, "settle", code="card_first")
    assert_illegal(g, "commit city:r2c0", code="card_first")
    assert_legal(g, "commit evil_army1.1")
