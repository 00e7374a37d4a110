"""Riddle of the Ring rules from the rulebook's sentences, each set up as a position
(issue 27): nothing is arranged by reaching into the game object."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema
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


# ------------------------------------------------ the rulebook's names in positions
def test_positions_take_space_names_and_card_titles(grid):
    """A position may name spaces as the board does and cards as the List of Cards
    prints them; it sets up the same game as the one written with ids, and
    ``position()`` writes the ids back."""
    by_name = position(
        roll=2,
        places={"frodo": "Bree", "rider1": "minas morgul", "sam": "The Cracks of Doom"},
        hands={"frodo": ["Boat", "The Ring", "Boat"], "rider1": ["boat.1", "Mouth of Sauron"]},
        cities={"frodo": ["Rivendell"]},
        discard=["elf_ring"],
    )
    by_id = position(
        roll=2,
        places={"frodo": "r1c1", "rider1": "r2c0", "sam": "r4c4"},
        hands={"frodo": ["boat.2", "the_ring", "boat.3"], "rider1": ["boat.1", "mouth_of_sauron"]},
        cities={"frodo": ["r0c2"]},
        discard=["elf_ring.1"],
    )
    a, b = RiddleGame.from_position(grid, by_name), RiddleGame.from_position(grid, by_id)
    assert a.position() == b.position()
    assert a._by["frodo"].hand == ["boat.2", "the_ring", "boat.3"]
    assert a.position()["places"]["sam"] == "r4c4"


@pytest.mark.parametrize(
    "edit, message",
    [
        (
            {"places": {"frodo": "The Shyre"}},
            "position.places.frodo: 'The Shyre' is no space of this board "
            "(did you mean 'The Shire'?)",
        ),
        (
            {"hands": {"frodo": ["boat.1", "Boot"]}},
            "position.hands.frodo[1]: 'Boot' is no card of the deck (did you mean 'Boat'?)",
        ),
        (
            {"hands": {"frodo": ["The Ring"], "sam": ["The Ring"]}},
            "position.hands.sam[0]: 'The Ring' names a The Ring card, but all 1 are placed "
            "already (position.hands.frodo[0])",
        ),
        (
            {"hands": {"frodo": ["Good Army"]}},
            "position.hands.frodo[0]: 'Good Army' is the title of 3 different cards: write one "
            "of good_army1 (1 battle points), good_army2 (2 battle points), good_army3",
        ),
        (
            {"to_move": "frodoo"},
            "position.to_move: 'frodoo' is no player of this game (did you mean 'frodo'?)",
        ),
        (
            {"hidden": {"r3c3": {"pipin": ["boat.1"]}}},
            "position.hidden.r3c3.pipin: 'pipin' is no player of this game",
        ),
        (
            {"cities": {"frodo": ["Rivendell", "Bree", "Minas Morgul"]}},
            "position.cities.frodo: the last two cities picked up at, not 3",
        ),
        (
            {"draw_rest": False},
            "position.draw: 80 card(s) of the deck are nowhere",
        ),
    ],
)
def test_refusals_name_the_field_as_written_and_the_nearest_value(grid, edit, message):
    with pytest.raises(StateError) as e:
        RiddleGame.from_position(grid, {**position(roll=1, places={"frodo": "r3c0"}), **edit})
    assert e.value.code == "bad_state" and message in str(e.value)


def test_board_names_list_the_spaces_and_the_rulebooks_role_names(grid):
    found = {n.name: n.id for n in RiddleGame.board_names(grid)}
    assert found["The Shire"] == "r0c0" and found["Rivendell"] == "r0c2"
    assert found["The Cracks of Doom"] == "r4c4" and found["Barad-Dur"] == "r4c0"
    assert found["Cracks of Doom"] == "r4c4"  # the board's own name as well
    assert "r1c2" not in found.values()  # a space without a name is written by id


# ------------------------------------------------ fixed dice, in the order they are rolled
def test_fixed_dice_go_to_the_rolls_in_play_order_limbo_included(grid):
    """docs/reference/positions.md: one die per roll, whoever rolls. Frodo in Limbo
    rolls a 6 and escapes ("roll the die when your turn comes around"), places his
    marker within 6 of Exit Limbo and rolls again for his regular turn ("After placing
    your marker, roll the die and take a regular turn"); the third die is Gimli's
    reroll."""
    g = game_from_position(
        RiddleGame,
        grid,
        {
            **position(places={"rider1": "r4c0", "sam": "r4c4"}, hands={"frodo": ["gimli"]}),
            "phase": "start",
            "limbo": ["frodo"],
            "dice": [6, 2, 5],
        },
    )
    assert g.phase == "limbo"
    g.push_text("roll")
    assert g.phase == "place"
    g.push_text("place r2c1")
    g.push_text("roll")
    assert g.t.roll == 2 and g._by["frodo"].pos == "r2c1"
    g.push_text("reroll gimli")
    assert g.t.roll == 5 and g.rng.fixed == []


# ------------------------------------------------ Questions & Answers as positions
def test_qa_no_exchange_on_being_placed_at_the_shire_beside_bree(grid):
    """Q&A: "My first turn has come and I have just placed my marker on The Shire.
    Another player's marker is on an adjacent space (Bree). Do I have a Friendly
    Exchange with him? A. No. ... If, after rolling the die and moving, you stop on, or
    beside, the space occupied by another player, then you must immediately have an
    exchange with him." """
    g = game_from_position(
        RiddleGame,
        grid,
        {
            **position(places={"sam": "Bree", "rider1": "Barad-Dur"}, hands={"sam": ["boat.1"]}),
            "phase": "start",
            "hands": {"frodo": ["rope.1"], "sam": ["boat.1"]},
            "dice": [1],
        },
    )
    assert g._by["frodo"].pos == "r0c0" and moves(g) == {"roll"}
    g.push_text("roll")
    assert g.phase == "main" and not any(m.startswith("exchange") for m in moves(g))
    g.push_text("move r0c0>r0c1")
    assert moves(g) == {"exchange sam"}


def test_qa_bill_ferny_as_the_only_card_leaves_none(grid):
    """Q&A: "As a Black Rider, I have only 1 card in my hand, Bill Ferny. If I use him
    to pick up a card, how many cards will I have left in my hand? A. Zero. ... You must
    now discard 1 card from your hand, which is the one you just picked up." """
    g = game_from_position(
        RiddleGame,
        grid,
        {
            **position(
                places={"rider1": "r3c0", "frodo": "r0c4", "sam": "r4c4"},
                hands={"rider1": ["Bill Ferny"]},
                draw=["horse2"],
            ),
            "to_move": "rider1",
            "roll": 1,
        },
    )
    g.push_text("move r3c0>r3c1")
    g.push_text("pickup bill_ferny")
    assert g._by["rider1"].hand == ["horse2"] and g.phase == "discard"
    assert moves(g) == {"discard horse2"}
    g.push_text("discard horse2")
    assert g._by["rider1"].hand == [] and g.to_move != "rider1"


def test_qa_another_power_play_before_the_battle_and_a_new_exchange_after_moving(grid):
    """Q&A: "I have just landed beside another player and had a Friendly Exchange. I
    want to battle him during that same turn. May I have another power play before the
    battle? A. Yes. For example, you may use an Elf Ring to see how many battle points
    he has in his hand. If you move again, you must have another Friendly Exchange,
    after landing on or beside that player, before the battle." """
    pos = position(
        roll=1,
        places={"frodo": "r3c0", "rider1": "r3c2", "sam": "r0c4"},
        hands={
            "frodo": ["Elf Ring", "horse2", "good_army1", "Good_Army2"],
            "rider1": ["evil_army1"],
        },
        dice=[],
    )
    g = game_from_position(RiddleGame, grid, pos)
    g.push_text("move r3c0>r3c1")
    g.push_text("exchange rider1")
    assert_legal(g, "battle rider1")
    assert_legal(g, "look elf_ring.1 rider1")
    g2 = game_from_position(RiddleGame, grid, pos)
    g2.push_text("move r3c0>r3c1")
    g2.push_text("exchange rider1")
    g2.push_text("ride horse2 r3c1>r4c1>r4c2")  # again beside rider1 on r3c2
    assert g2.phase == "exchange" and g2.t.pending == ["rider1"]
    assert_illegal(g2, "battle rider1", code="wrong_phase")


def test_the_shipped_qa_position_in_the_rulebooks_terms_plays_as_the_rulebook_says():
    """docs/positions/riddle-qa-first-turn.json, the Q&A's first turn on the sample
    board (Ashstead, beside The Shire, stands for the rulebook's Bree): placed on The
    Shire, Frodo has no exchange with Sam; after rolling and moving onto Sam's space he
    must have one, before anything else."""
    root = Path(__file__).resolve().parents[4]
    pos = json.loads((root / "docs" / "positions" / "riddle-qa-first-turn.json").read_text())
    jsonschema.validate(pos, RiddleGame.position_schema())
    g = game_from_position(RiddleGame, root / "projects" / "riddle-sample", pos)
    assert g._by["frodo"].pos == "s200" and g._by["sam"].pos == "s075"
    assert sorted(g._by["sam"].hand) == ["boat.1", "the_ring"]
    assert moves(g) == {"roll"}
    g.push_text("roll")
    assert g.t.roll == 1 and not any(m.startswith("exchange") for m in moves(g))
    g.push_text("move s200>s075")
    assert moves(g) == {"exchange sam"}
    assert_illegal(g, "pass", code="wrong_phase")
    # the position's draws fix the exchange: Sam draws the Rope, Frodo The Ring
    g2 = g.copy()
    g2.push_text("exchange sam")
    assert sorted(g2._by["frodo"].hand) == ["elf_ring.1", "the_ring"]
    assert sorted(g2._by["sam"].hand) == ["boat.1", "rope.1"]
    # written back with ids, the position sets up the same game
    again = RiddleGame.from_position(g.compiled, g.position())
    assert again.position() == g.position()


# ------------------------------------------------ blind draws, fixed by the position
def test_fixed_draws_choose_the_cards_of_a_friendly_exchange(grid):
    """Friendly Exchanges: "In a Friendly Exchange each player draws one card at random
    from the other's hand." The position's ``draws`` fix both: first the card Sam draws
    from Frodo's hand (an id: that very card), then the card Frodo draws from Sam's (a
    title: any copy of it in that hand)."""
    pos = position(
        roll=1,
        places={"frodo": "r3c0", "rider1": "r3c2", "sam": "r2c1"},
        hands={"frodo": ["good_army1.1", "good_army2.1"], "rider1": [], "sam": ["rope.1", "Boat"]},
        draws=["good_army2.1", "Boat"],
    )
    jsonschema.validate(pos, RiddleGame.position_schema())
    g = game_from_position(RiddleGame, grid, pos)
    assert g.position()["draws"] == ["good_army2.1", "boat"]  # the title read as its kind
    saved = g.to_json()  # kept with the state, like fixed dice, and out of every view
    assert RiddleGame.from_json(saved, g.compiled).rng.draws == ["good_army2.1", "boat"]
    assert "draws" not in g.view("frodo") and "draws" not in g.view(None)
    g.push_text("move r3c0>r3c1")
    g.push_text("exchange sam")
    assert sorted(g._by["frodo"].hand) == ["boat.1", "good_army1.1"]
    assert sorted(g._by["sam"].hand) == ["good_army2.1", "rope.1"]
    assert "draws" not in g.position()  # both consumed: the generator draws again


def test_fixed_draws_choose_the_card_a_riddle_guesses(grid):
    """Riddles: "Use a Riddle card to draw 1 card at random from another player's hand
    and try to guess its title. [...] If you guess right, you keep the card and may try
    to guess another card in that player's hand [...] If you guess wrong, the other
    player draws a card from your hand at random to keep and the Riddle ends." Fixed:
    a Boat drawn and guessed right, then a Rope drawn and guessed wrong, and rider1
    draws Frodo's Cloak."""
    g = game_from_position(
        RiddleGame,
        grid,
        position(
            roll=1,
            places={"frodo": "r3c0", "rider1": "r0c4", "sam": "r4c4"},
            hands={
                "frodo": ["riddle.1", "cloak.1", "good_army1.1"],
                "rider1": ["boat.1", "rope.1", "evil_army1.1"],
            },
            draws=["Boat", "rope.1", "Cloak"],
        ),
    )
    g.push_text("riddle riddle.1 rider1 boat")
    assert "boat.1" in g._by["frodo"].hand and g.phase == "riddle"
    g.push_text("guess evil_army")  # wrong: the draw was the Rope
    assert sorted(g._by["frodo"].hand) == ["boat.1", "good_army1.1"]
    assert sorted(g._by["rider1"].hand) == ["cloak.1", "evil_army1.1", "rope.1"]


def test_a_fixed_draw_not_in_the_hand_drawn_from_is_refused_naming_draws_0(grid):
    """A fixed draw must be a card of the hand the blind draw takes from: at a
    Friendly Exchange already due, the position is refused on loading; later, the move
    that draws is refused (and changes nothing); a card of no deck is refused with the
    nearest title."""
    due = position(
        phase="exchange",
        turn_state={
            "roll": 1,
            "die_used": True,
            "moved": True,
            "start": "r3c0",
            "pending": ["sam"],
        },
        places={"frodo": "r3c1", "rider1": "r0c4", "sam": "r2c1"},
        hands={"frodo": ["good_army1.1"], "sam": ["boat.1"]},
        draws=["Boat"],  # Sam's card, but the first draw is from Frodo's hand
    )
    with pytest.raises(StateError, match=r"^position\.draws\[0\]: 'boat' is not in frodo's hand"):
        RiddleGame.from_position(grid, due)
    later = {**due, "draws": ["good_army1.1", "rope.1"]}
    g = RiddleGame.from_position(grid, later)
    before = g.position()
    with pytest.raises(IllegalMoveError, match=r"^draws\[0\]: .*'rope.1' is not in sam's hand"):
        g.push_text("exchange sam")
    assert g.position() == before
    with pytest.raises(StateError, match=r"position\.draws\[1\]: 'Boot' is no card .*'Boat'"):
        RiddleGame.from_position(grid, {**later, "draws": ["good_army1.1", "Boot"]})


def test_games_without_blind_draws_refuse_fixed_draws(grid):
    """Only a game that draws blind takes ``draws``; the schema says which it makes."""
    assert "Friendly Exchange" in RiddleGame.position_schema()["properties"]["draws"]["description"]
    from referee.games.mount_doom import MountDoom

    schema = MountDoom.position_schema()["properties"]["draws"]
    assert schema["maxItems"] == 0 and "no blind draws" in schema["description"]


# ------------------------------------------------ one vocabulary for titles
def test_a_guess_names_a_title_as_card_ids_spell_it(grid):
    """Riddles: "try to guess its title. Titles are in large print at the top of each
    card." A title is one move word spelt as the card ids are (``mouth_of_sauron``),
    case ignored; a card's id names its title; the hyphenated spelling is refused with
    the nearest title (rulings § Riddle card game)."""
    pos = position(
        roll=1,
        places={"frodo": "r3c0", "rider1": "r0c4", "sam": "r4c4"},
        hands={"frodo": ["riddle.1", "cloak.1"], "rider1": ["the_ring", "good_army2.1"]},
        draws=["The Ring", "good_army2"],
    )
    g = game_from_position(RiddleGame, grid, pos)
    assert "riddle riddle.1 rider1 the_ring" in moves(g)
    with pytest.raises(IllegalMoveError, match=r"'the-ring'.*did you mean 'the_ring'") as e:
        g.push_text("riddle riddle.1 rider1 the-ring")
    assert e.value.code == "unknown_title"
    events = g.push_text("riddle riddle.1 rider1 The_Ring")
    assert events[-1]["guess"] == "the_ring" and events[-1]["right"] is True
    events = g.push_text("guess good_army3")  # an id: its title, Good Army
    assert events[-1]["guess"] == "good_army" and events[-1]["right"] is True
    assert sorted(g._by["frodo"].hand) == ["cloak.1", "good_army2.1", "the_ring"]
