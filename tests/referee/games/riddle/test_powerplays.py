"""Power Plays: clairvoyance, Riddles, Gollum, Hobbit/Black Rider cards; at most 2 a turn."""

from __future__ import annotations

import pytest

from referee.errors import IllegalMoveError

from .conftest import hand, moves, new_game, put, turn_of


@pytest.fixture
def g4(grid):
    g = new_game(grid, players=4, seed=11)
    for name, pos in (("frodo", "r3c0"), ("rider1", "r3c2"), ("sam", "r0c3"), ("rider2", "r4c2")):
        put(g, name, pos)
    return g


def test_riddle_with_only_a_riddle_card_is_refused(g4):
    """Q&A / Power Plays: "If the only card in your hand is a Riddle card, do not use it.
    You must have 1 other card to lose in case you guess wrong." """
    hand(g4, "frodo", "riddle.1")
    hand(g4, "rider1", "boat.1")
    turn_of(g4, "frodo")
    with pytest.raises(IllegalMoveError) as e:
        g4.push_text("riddle riddle.1 rider1 boat")
    assert e.value.code == "riddle_alone"
    assert not any(m.startswith("riddle") for m in moves(g4))


def test_riddle_right_guess_keeps_card_and_may_go_on(g4):
    """Guess right: keep the card and try another, or end the Riddle."""
    hand(g4, "frodo", "riddle.1", "rope.1")
    hand(g4, "rider1", "boat.1", "boat.2")
    turn_of(g4, "frodo")
    g4.push_text("riddle riddle.1 rider1 boat")
    assert g4.phase == "riddle" and g4.t.pp == 1
    assert "riddle.1" in g4.discard_pile
    g4.push_text("guess boat")
    assert sorted(g4._by["frodo"].hand) == ["boat.1", "boat.2", "rope.1"]
    assert g4._by["rider1"].hand == [] and g4.phase == "main"


def test_riddle_wrong_guess_loses_a_card_not_counted_in_limit(g4):
    """Guess wrong: the other player draws a card from your hand at random to keep.
    Cards taken after an incorrect Riddle do not count against the 10 card limit."""
    hand(g4, "frodo", "riddle.1", "rope.1")
    ten = [
        "boat.1",
        "boat.2",
        "boat.3",
        "boat.4",
        "boat.5",
        "cloak.1",
        "cloak.2",
        "cloak.3",
        "cloak.4",
        "cloak.5",
    ]
    hand(g4, "rider1", *ten)
    turn_of(g4, "frodo")
    g4.push_text("riddle riddle.1 rider1 horse")
    assert g4._by["frodo"].hand == [] and "rope.1" in g4._by["rider1"].hand
    assert len(g4._by["rider1"].hand) == 11 and g4.phase == "main"
    # not over the limit: the state stays valid with rider1 at 11 after his turn
    assert g4._by["rider1"].riddle_extra == 1 and g4.invariants() == []


def test_same_riddle_card_not_twice(g4):
    """Q&A: to Riddle another player, use another Riddle card."""
    hand(g4, "frodo", "riddle.1", "rope.1", "rope.2")
    hand(g4, "sam", "boat.1")
    hand(g4, "rider1", "cloak.1", "cloak.2")
    turn_of(g4, "frodo")
    g4.push_text("riddle riddle.1 rider1 cloak")
    g4.push_text("stop")
    with pytest.raises(IllegalMoveError) as e:
        g4.push_text("riddle riddle.1 sam boat")
    assert e.value.code == "not_in_hand"


def test_two_power_plays_per_turn(g4):
    """Players may make up to 2 Power Plays per turn."""
    hand(g4, "frodo", "riddle.1", "riddle.2", "riddle.3", "rope.1")
    hand(g4, "rider1", "cloak.1", "cloak.2", "cloak.3")
    turn_of(g4, "frodo")
    g4.push_text("riddle riddle.1 rider1 cloak")
    g4.push_text("stop")
    g4.push_text("riddle riddle.2 rider1 cloak")
    g4.push_text("stop")
    with pytest.raises(IllegalMoveError) as e:
        g4.push_text("riddle riddle.3 rider1 cloak")
    assert e.value.code == "power_plays_used"


def test_elf_ring_needs_nearby_player_and_can_be_resisted(g4):
    """An Elf Ring sees the hand of a nearby player; he may resist by showing only The Ring
    or his own character card; the target decides."""
    hand(g4, "frodo", "elf_ring.1", "elf_ring.2")
    hand(g4, "rider1", "the_ring", "rider1", "boat.1")
    hand(g4, "sam", "boat.2")
    turn_of(g4, "frodo", roll=1)
    with pytest.raises(IllegalMoveError) as e:
        g4.push_text("look elf_ring.1 sam")
    assert e.value.code == "too_far"
    with pytest.raises(IllegalMoveError) as e:  # r3c2 is two spaces from r3c0
        g4.push_text("look elf_ring.1 rider1")
    assert e.value.code == "too_far"


def test_resisting_an_elf_ring(g4):
    hand(g4, "frodo", "elf_ring.1", "elf_ring.2")
    hand(g4, "rider1", "the_ring", "rider1", "boat.1")
    turn_of(g4, "frodo", roll=1)
    g4.push_text("move r3c0>r3c1")
    g4.push_text("exchange rider1")
    ring = next(c for c in g4._by["frodo"].hand if c.startswith("elf_ring"))
    # give the Black Rider back his cards, whatever the exchange moved
    hand(g4, "rider1", "the_ring", "rider1", "boat.1")
    g4.push_text(f"look {ring} rider1")
    assert g4.phase == "resist" and g4.to_move == "rider1"
    assert moves(g4) == {"resist the_ring", "resist rider1", "show"}
    g4.push_text("resist rider1")
    seen = g4.view("frodo")["seen"][-1]
    assert seen["of"] == "rider1" and seen["cards"] == ["rider1"] and g4.to_move == "frodo"
    assert "seen" not in g4.view("sam") or not g4.view("sam")["seen"]


def test_wizards_cannot_be_resisted(g4):
    """The Wizards cannot be resisted, even by another Wizard."""
    hand(g4, "frodo", "gandalf")
    hand(g4, "rider2", "the_ring", "sauron")
    turn_of(g4, "frodo")
    g4.push_text("look gandalf rider2")
    assert g4.phase == "main"
    assert g4.view("frodo")["seen"][-1]["cards"] == ["sauron", "the_ring"]
    assert "gandalf" in g4._by["frodo"].hand  # Gandalf is retained (ours)


def test_wizard_of_own_kind_only(g4):
    hand(g4, "frodo", "sauron")
    turn_of(g4, "frodo")
    with pytest.raises(IllegalMoveError) as e:
        g4.push_text("look sauron rider2")
    assert e.value.code == "wrong_kind"


def test_palantir_sees_players_on_cities(g4):
    hand(g4, "frodo", "palantir.1")
    put(g4, "rider2", "r2c0")  # evil city
    turn_of(g4, "frodo")
    with pytest.raises(IllegalMoveError) as e:
        g4.push_text("look palantir.1 sam")
    assert e.value.code == "not_on_city"
    g4.push_text("look palantir.1 rider2")
    assert g4.t.pp == 1


def test_gollum_takes_the_ring(g4):
    """Use Gollum to take The Ring from any one player; 1 Power Play either way."""
    hand(g4, "rider1", "gollum")
    hand(g4, "sam", "the_ring", "boat.1")
    turn_of(g4, "rider1")
    g4.push_text("gollum gollum sam")
    assert "the_ring" in g4._by["rider1"].hand and g4.t.pp == 1
    assert "gollum" in g4.discard_pile


def test_gollum_misses(g4):
    hand(g4, "rider1", "gollum")
    hand(g4, "sam", "boat.1")
    turn_of(g4, "rider1")
    ev = g4.push_text("gollum gollum sam")
    assert ev[-1]["got_ring"] is False and g4.t.pp == 1


def test_player_card_draws_at_random(g4):
    """Hobbit/Black Rider cards: draw 1 card at random from any player's hand."""
    hand(g4, "frodo", "rider3")
    hand(g4, "rider2", "boat.1")
    turn_of(g4, "frodo")
    g4.push_text("draw rider3 rider2")
    assert g4._by["frodo"].hand == ["boat.1"] and g4._by["rider2"].hand == []


def test_restricted_draws_variation(g4):
    """Variation 13: draw from a Hobbit only with a Hobbit card."""
    g = new_game(g4.compiled, players=4, seed=11, restrict_draws=True)
    hand(g, "frodo", "rider3")
    hand(g, "rider2", "boat.1")
    turn_of(g, "frodo")
    with pytest.raises(IllegalMoveError) as e:
        g.push_text("draw rider3 sam")
    assert e.value.code in ("restricted_draw", "empty_hand")
    hand(g, "sam", "boat.2")
    with pytest.raises(IllegalMoveError) as e:
        g.push_text("draw rider3 sam")
    assert e.value.code == "restricted_draw"
    g.push_text("draw rider3 rider2")


def test_give_a_player_his_card_then_take_one(g4):
    """Give him his card, see his hand, take the card of your choice."""
    hand(g4, "frodo", "rider2")
    hand(g4, "rider2", "the_ring", "boat.1")
    turn_of(g4, "frodo")
    g4.push_text("give rider2")
    assert g4.phase == "choose"
    assert g4.view("frodo")["choosing_from"] == ["boat.1", "rider2", "the_ring"]
    assert "take rider2" not in moves(g4)
    g4.push_text("take the_ring")
    assert g4._by["frodo"].hand == ["the_ring"]
    assert sorted(g4._by["rider2"].hand) == ["boat.1", "rider2"]


def test_own_card_given_can_be_taken_later(g4):
    """Q&A: once in your hand your own card can be taken like any other card."""
    hand(g4, "frodo", "rider2", "rider3")
    hand(g4, "rider2", "boat.1")
    turn_of(g4, "frodo")
    g4.push_text("give rider2")
    g4.push_text("take boat.1")
    g4.push_text("draw rider3 rider2")
    assert "rider2" in g4._by["frodo"].hand


def test_power_plays_before_moving(g4):
    """Power Plays may be made before and/or after moving."""
    hand(g4, "frodo", "rider3", "gandalf")
    hand(g4, "rider2", "boat.1", "boat.2")
    turn_of(g4, "frodo", roll=1)
    assert not g4.t.moved
    g4.push_text("look gandalf rider2")
    g4.push_text("move r3c0>r2c0")
    assert g4.phase == "main"
    g4.push_text("draw rider3 rider2")
    assert g4.t.pp == 2
