"""Set-up, turn flow, moving, Friendly Exchanges, picking up and the discard."""

from __future__ import annotations

import pytest

from referee.errors import IllegalMoveError, UsageError

from .conftest import hand, moves, new_game, put, turn_of


def test_setup_two_to_eight_players(grid):
    """Set up for 2 to 8 players; each is dealt two cards; the rest is the pick-up stack."""
    for n in range(2, 9):
        g = new_game(grid, players=n, seed=n)
        assert len(g.seats) == n
        assert all(len(p.hand) == 2 for p in g.seats)
        assert len(g.draw_pile) == 80 - 2 * n and not g.discard_pile
    for bad in (1, 9):
        with pytest.raises(UsageError):
            new_game(grid, players=bad)


def test_markers_placed_at_shire_when_first_turn_comes(grid):
    """Players place their markers at The Shire one at a time, when their first turns come."""
    g = new_game(grid, players=3, seed=4)
    on_turn = g.me
    assert on_turn.pos == "r0c0"
    assert all(p.pos is None for p in g.seats if p is not on_turn)
    assert g.order[0] == on_turn.name and g.to_move == on_turn.name


def test_same_seed_same_deal_and_starter(grid):
    a, b = new_game(grid, seed=9), new_game(grid, seed=9)
    assert a.to_json() == b.to_json()
    assert new_game(grid, seed=10).to_json() != a.to_json()


def test_no_exchange_before_rolling_and_moving(grid):
    """Q&A: "You have not started your turn until you roll the die, and you cannot have a
    Friendly Exchange until you move." """
    g = new_game(grid, players=2, seed=1)
    other = next(p for p in g.seats if p is not g.me)
    put(g, other.name, "r0c1")  # beside the Shire
    assert g.phase == "start" and moves(g) == {"roll"}
    g.push_text("roll")
    assert g.phase == "main" and not g.t.pending
    assert not any(m.startswith("exchange") or m.startswith("battle") for m in moves(g))


def test_must_move_at_least_one_space(grid):
    """A player must move at least one space per turn."""
    g = new_game(grid, players=2, seed=1)
    turn_of(g, g.me.name, roll=2)
    with pytest.raises(IllegalMoveError) as e:
        g.push_text("pass")
    assert e.value.code == "must_move"


def test_not_begin_and_end_on_same_space(grid):
    """No player may begin and end a turn on the same space."""
    g = new_game(grid, players=2, seed=1)
    name = g.me.name
    hand(g, name, "horse2", "horse3")
    put(g, name, "r0c0")
    turn_of(g, name, roll=1)
    g.push_text("move r0c0>r1c0")
    g.push_text("ride horse2 r1c0>r0c0")
    with pytest.raises(IllegalMoveError) as e:
        g.push_text("pass")
    assert e.value.code == "same_space"
    assert not any(m.startswith(("pass", "pickup")) for m in moves(g))
    g.push_text("ride horse3 r0c0>r0c1")
    g.push_text("pass")


def test_exchange_is_obligatory_and_in_movers_order(grid):
    """Stopping on or beside 2 players: an exchange with each, in the order the mover
    chooses; nothing else may be done until the exchanges are had."""
    g = new_game(grid, players=3, seed=2)
    a, b, c = (p.name for p in g.seats)
    hand(g, a, "boat.1")
    hand(g, b, "rope.1")
    hand(g, c, "cloak.1")
    put(g, a, "r3c0"), put(g, b, "r2c1"), put(g, c, "r3c2")
    turn_of(g, a, roll=1)
    g.push_text("move r3c0>r3c1")
    assert g.phase == "exchange" and set(g.t.pending) == {b, c}
    assert moves(g) == {f"exchange {b}", f"exchange {c}"}
    with pytest.raises(IllegalMoveError):
        g.push_text("pass")
    g.push_text(f"exchange {c}")
    # the card received from the first exchange is in his hand before the second
    assert g._by[a].hand == ["cloak.1"] and g._by[c].hand == ["boat.1"]
    g.push_text(f"exchange {b}")
    assert g._by[a].hand == ["rope.1"] and g._by[b].hand == ["cloak.1"]
    assert g.phase == "main"


def test_no_cards_no_exchange_and_no_battle(grid):
    """If a player has no cards, there is no exchange, and he cannot be in a battle."""
    g = new_game(grid, players=2, seed=2)
    a, b = (p.name for p in g.seats)
    hand(g, a, "evil_army1.1", "evil_army2.1")
    hand(g, b)
    put(g, a, "r3c0"), put(g, b, "r3c2")
    turn_of(g, a, roll=1)
    g.push_text("move r3c0>r3c1")
    assert not g.t.pending and g.phase == "main"
    assert len(g._by[a].hand) == 2
    assert not any(m.startswith(("exchange", "battle")) for m in moves(g))


def test_city_pickup_three_then_discard_one(grid):
    """Ending a turn on a city: pick up 3 cards, then discard 1 (the hand includes them)."""
    g = new_game(grid, players=2, seed=3)
    a = g.me.name
    hand(g, a, "boat.1")
    put(g, a, "r0c1")
    turn_of(g, a, roll=1)
    g.push_text("move r0c1>r0c2")
    g.push_text("pickup city")
    assert len(g._by[a].hand) == 4 and g.phase == "discard" and g.to_move == a
    g.push_text("discard boat.1")
    assert len(g._by[a].hand) == 3 and g.me.name != a
    assert g.discard_pile[-1] == "boat.1"


def test_not_back_to_a_city_before_two_others(grid):
    """He must pick up cards from at least 2 other Cities before returning to one used."""
    g = new_game(grid, players=2, seed=3)
    a = g.me.name
    p = g._by[a]
    p.cities = ["r0c2", "r2c0"]
    put(g, a, "r0c1")
    turn_of(g, a, roll=1)
    g.push_text("move r0c1>r0c2")
    with pytest.raises(IllegalMoveError) as e:
        g.push_text("pickup city")
    assert e.value.code == "city_used"
    p.cities = ["r0c2", "r2c0", "r1c1"][-2:]
    g.push_text("pickup city")


def test_not_pickup_off_city_and_shire_is_no_city(grid):
    """Q&A: The Shire, the Cracks of Doom and Barad-Dur are Open Country, no cities."""
    g = new_game(grid, players=2, seed=3)
    a = g.me.name
    put(g, a, "r3c4")
    turn_of(g, a, roll=1)
    g.push_text("move r3c4>r4c4")
    with pytest.raises(IllegalMoveError) as e:
        g.push_text("pickup city")
    assert e.value.code == "not_on_city"


def test_doom_cities_variation(grid):
    """Variation 8: the Cracks of Doom a Good City, Barad-Dur an Evil City."""
    g = new_game(grid, players=2, seed=3, doom_cities=True)
    a = g.me.name
    put(g, a, "r3c4")
    turn_of(g, a, roll=1)
    g.push_text("move r3c4>r4c4")
    g.push_text("pickup city")


def test_bill_ferny_alone_leaves_zero_cards(grid):
    """Q&A: a Black Rider holding only Bill Ferny uses him to pick up 1 card, then must
    discard 1 -- the one just picked up: zero cards left."""
    g = new_game(grid, players=2, seed=5)
    r = "rider1"
    hand(g, r, "bill_ferny")
    put(g, r, "r3c3")
    turn_of(g, r, roll=1)
    g.push_text("move r3c3>r3c2")
    g.push_text("pickup bill_ferny")
    assert "bill_ferny" in g.discard_pile and len(g._by[r].hand) == 1
    g.push_text(f"discard {g._by[r].hand[0]}")
    assert g._by[r].hand == []


def test_butterbur_only_for_hobbits(grid):
    g = new_game(grid, players=2, seed=5)
    hand(g, "rider1", "butterbur")
    put(g, "rider1", "r3c3")
    turn_of(g, "rider1", roll=1)
    g.push_text("move r3c3>r3c2")
    with pytest.raises(IllegalMoveError) as e:
        g.push_text("pickup butterbur")
    assert e.value.code == "wrong_kind"


def test_one_city_or_one_card_per_turn(grid):
    """Only 1 city or 1 character card per turn: the pick-up ends the turn."""
    g = new_game(grid, players=2, seed=5)
    hand(g, "frodo", "strider")
    put(g, "frodo", "r0c1")
    turn_of(g, "frodo", roll=1)
    g.push_text("move r0c1>r0c2")
    g.push_text("pickup city")
    assert g.phase == "discard" and not any(m.startswith("pickup") for m in moves(g))


def test_discard_down_to_ten(grid):
    """Over 10 cards: discard down to exactly 10 at the end of the turn."""
    g = new_game(grid, players=2, seed=6)
    cards = [
        "boat.1",
        "boat.2",
        "rope.1",
        "rope.2",
        "cloak.1",
        "cloak.2",
        "riddle.1",
        "riddle.2",
        "palantir.1",
        "elf_ring.1",
    ]
    hand(g, "frodo", *cards)
    put(g, "frodo", "r0c1")
    turn_of(g, "frodo", roll=1)
    g.push_text("move r0c1>r0c2")
    g.push_text("pickup city")
    assert len(g._by["frodo"].hand) == 13
    for _ in range(3):
        assert g.to_move == "frodo" and g.phase == "discard"
        g.push(next(iter(g.legal_moves)))
    assert len(g._by["frodo"].hand) == 10 and g.me.name != "frodo"


def test_reshuffle_discards_when_pickup_stack_is_gone(grid):
    """When all cards in the pick-up stack are gone, shuffle the discard stack into a
    new pick-up stack."""
    g = new_game(grid, players=2, seed=6)
    put(g, "frodo", "r0c1")
    turn_of(g, "frodo", roll=1)
    keep = g.draw_pile[:1]
    g.discard_pile.extend(g.draw_pile[1:])
    g.draw_pile[:] = keep
    g.push_text("move r0c1>r0c2")
    g.push_text("pickup city")
    assert len(g.all_cards()) == 80
    assert len(g._by["frodo"].hand) == 5
    assert not g.discard_pile and len(g.draw_pile) == 80 - 7


def test_once_through_deck_does_not_reshuffle(grid):
    """Variation 12: go through the deck once; the discards are out of the game."""
    g = new_game(grid, players=2, seed=6, once_through=True)
    put(g, "frodo", "r0c1")
    turn_of(g, "frodo", roll=1)
    g.discard_pile.extend(g.draw_pile[1:])
    del g.draw_pile[1:]
    g.push_text("move r0c1>r0c2")
    g.push_text("pickup city")
    assert len(g._by["frodo"].hand) == 3 and not g.draw_pile


def test_forest_without_cloak_stops_all_movement(grid):
    """Entering a Forest without a Cloak: stop; not even a Horse afterwards (Q&A)."""
    g = new_game(grid, players=2, seed=7)
    hand(g, "frodo", "horse3", "eagles.1")
    put(g, "frodo", "r1c1")
    turn_of(g, "frodo", roll=3)
    g.push_text("move r1c1>r1c2")
    assert g.t.stopped
    assert not any(m.startswith(("ride", "fly", "move")) for m in moves(g))
    with pytest.raises(IllegalMoveError) as e:
        g.push_text("fly eagles.1 r4c4")
    assert e.value.code == "stopped"


def test_cloak_goes_on_table_and_stays_in_forest(grid):
    """Cloak/Rope/Boat stay face-up on the table while the player ends his turns on such
    a space; otherwise they go to the discard stack."""
    g = new_game(grid, players=2, seed=7)
    hand(g, "frodo", "cloak.1", "boat.1")
    put(g, "frodo", "r1c1")
    turn_of(g, "frodo", roll=1)
    g.push_text("move r1c1>r1c2 +cloak")
    p = g._by["frodo"]
    assert p.table == ["cloak.1"] and "cloak.1" not in p.hand and not g.t.stopped
    g.push_text("pass")
    assert p.table == ["cloak.1"]
    turn_of(g, "frodo", roll=1)
    g.push_text("move r1c2>r0c2")
    g.push_text("pass")
    assert p.table == [] and g.discard_pile[-1] == "cloak.1"


def test_boat_needed_for_water(grid):
    g = new_game(grid, players=2, seed=7)
    hand(g, "frodo")
    put(g, "frodo", "r0c3")
    turn_of(g, "frodo", roll=1)
    assert "move r0c3>r0c4" not in moves(g)
    with pytest.raises(IllegalMoveError):
        g.push_text("move r0c3>r0c4")
    hand(g, "frodo", "boat.2")
    g.push_text("move r0c3>r0c4")
    g.push_text("pass")
    assert g._by["frodo"].table == ["boat.2"]


def test_eagles_only_for_hobbits_and_fly_anywhere(grid):
    g = new_game(grid, players=2, seed=7)
    hand(g, "rider1", "eagles.1", "dragon_birds.1")
    put(g, "rider1", "r2c0")
    turn_of(g, "rider1", roll=1)
    with pytest.raises(IllegalMoveError) as e:
        g.push_text("fly eagles.1 r4c3")
    assert e.value.code == "wrong_kind"
    g.push_text("fly dragon_birds.1 r4c3")
    assert g._by["rider1"].pos == "r4c3" and "dragon_birds.1" in g.discard_pile


def test_reroll_before_moving_only(grid):
    g = new_game(grid, players=2, seed=7)
    hand(g, "frodo", "gimli")
    put(g, "frodo", "r0c1")
    turn_of(g, "frodo", roll=1)
    g.push_text("move r0c1>r0c2")
    with pytest.raises(IllegalMoveError) as e:
        g.push_text("reroll gimli")
    assert e.value.code == "die_used"


def test_rejected_move_changes_nothing(grid):
    g = new_game(grid, players=3, seed=8)
    turn_of(g, g.me.name, roll=2)
    before = g.to_json()
    for text in (
        "pass",
        "move r4c4>r0c0",
        "battle sam",
        "discard boat.1",
        "ring",
        "riddle riddle.1 sam boat",
        "exchange sam",
        "take x",
    ):
        with pytest.raises(IllegalMoveError):
            g.push_text(text)
        assert g.to_json() == before
    for text in ("", "fly", "hello world", "move a b"):
        with pytest.raises(IllegalMoveError) as e:
            g.parse_move(text)
        assert e.value.code == "bad_move"


def test_table_cards_not_part_of_hand_for_limit(grid):
    """Once on the table, Cloak/Rope/Boat are never part of a player's hand."""
    g = new_game(grid, players=2, seed=7)
    hand(g, "frodo", "cloak.1")
    put(g, "frodo", "r1c1")
    turn_of(g, "frodo", roll=1)
    g.push_text("move r1c1>r1c2 +cloak")
    assert g._by["frodo"].hand == []
    assert g.view("frodo")["players"][g.seats.index(g._by["frodo"])]["table"] == ["cloak.1"]


def test_cloak_is_used_by_choice(grid):
    """Rulebook, Forests: "With a Cloak card, a player does not have to stop. He may use
    the Cloak to move in Forests as in Open Country." Using it is a choice: both moves are
    listed, the text says whether the Cloak is used (issue 15, item 2)."""
    g = new_game(grid, players=2, seed=7)
    hand(g, "frodo", "cloak.1")
    put(g, "frodo", "r1c1")
    turn_of(g, "frodo", roll=1)
    assert {"move r1c1>r1c2", "move r1c1>r1c2 +cloak"} <= moves(g)
    assert "move r1c1>r0c1 +cloak" not in moves(g)  # no forest: nothing to choose
    with pytest.raises(IllegalMoveError) as e:
        g.push_text("move r1c1>r0c1 +cloak")
    assert e.value.code == "card_not_needed"
    g.push_text("move r1c1>r1c2")  # without the Cloak: stops in the forest, keeps it
    p = g._by["frodo"]
    assert p.hand == ["cloak.1"] and p.table == [] and g.t.stopped


def test_cloak_needed_to_pass_through_a_forest_is_named(grid):
    """A path through a forest needs the Cloak; without ``+cloak`` it is refused with a
    hint, with it the Cloak goes to the table."""
    g = new_game(grid, players=2, seed=7)
    hand(g, "frodo", "cloak.1")
    put(g, "frodo", "r1c1")
    turn_of(g, "frodo", roll=2)
    assert "move r1c1>r1c2>r1c3" not in moves(g)
    with pytest.raises(IllegalMoveError) as e:
        g.push_text("move r1c1>r1c2>r1c3")
    assert e.value.code == "must_stop_in_forest" and "+cloak" in str(e.value)
    g.push_text("move r1c1>r1c2>r1c3 +cloak")
    assert g._by["frodo"].table == ["cloak.1"]


def test_no_return_to_the_starting_space_for_good(grid):
    """Rulebook, How to move: "No player may begin and end a turn on the same space,
    unless he is on The Cracks of Doom or Barad-Dur and wins the game on that turn." A
    move back to the start after which nothing could take the player elsewhere is refused
    (issue 15, item 1; rulings § Riddle movement)."""
    g = new_game(grid, players=2, seed=7)
    hand(g, "frodo", "horse2")
    put(g, "frodo", "r3c2")
    turn_of(g, "frodo", roll=1)
    g.push_text("move r3c2>r3c1")
    # the Horse back to r3c2 would leave no means of moving: neither listed nor accepted
    assert "ride horse2 r3c1>r3c2" not in moves(g)
    with pytest.raises(IllegalMoveError) as e:
        g.push_text("ride horse2 r3c1>r3c2")
    assert e.value.code == "same_space"
    assert g._by["frodo"].pos == "r3c1" and "horse2" in g._by["frodo"].hand
    # with a second Horse, going back is fine: the turn can still end elsewhere
    hand(g, "frodo", "horse2", "horse3")
    g.push_text("ride horse2 r3c1>r3c2")
    assert "pass" not in moves(g) and "pickup city" not in moves(g)
    with pytest.raises(IllegalMoveError) as e:
        g.push_text("pass")
    assert e.value.code == "same_space"
    assert any(m.startswith("ride horse3 r3c2>") for m in moves(g))


def test_rest_of_the_die_is_lost_after_stopping(grid):
    """ "A player may not stop and then move again using any unused counts of the die,
    Horse card, or other card that got him there. He must use an extra means of travel to
    move again." """
    g = new_game(grid, players=2, seed=7)
    hand(g, "frodo", "horse2", "horse3")
    put(g, "frodo", "r3c0")
    turn_of(g, "frodo", roll=6)
    g.push_text("move r3c0>r3c1")
    with pytest.raises(IllegalMoveError) as e:
        g.push_text("move r3c1>r3c2")
    assert e.value.code == "die_used"
    g.push_text("ride horse2 r3c1>r3c2")  # a Horse is an extra move
    g.push_text("ride horse3 r3c2>r4c2")  # as many as he has Horses
    assert g._by["frodo"].pos == "r4c2" and not g._by["frodo"].hand


def test_forest_stop_blocks_later_extra_moves(grid):
    """ "Even if he has a Horse, Eagles or Dragon Birds, he cannot leave that space during
    that turn without a Cloak." Flying into a forest stops the turn too."""
    g = new_game(grid, players=2, seed=7)
    hand(g, "frodo", "horse3", "eagles.1")
    put(g, "frodo", "r1c1")
    turn_of(g, "frodo", roll=3)
    g.push_text("move r1c1>r1c2")
    assert g.t.stopped
    assert not any(m.startswith(("ride", "fly", "move")) for m in moves(g))
    for text in ("ride horse3 r1c2>r1c3", "fly eagles.1 r4c4"):
        with pytest.raises(IllegalMoveError) as e:
            g.push_text(text)
        assert e.value.code == "stopped"
    g2 = new_game(grid, players=2, seed=7)
    hand(g2, "frodo", "horse3", "eagles.1")
    put(g2, "frodo", "r3c0")
    turn_of(g2, "frodo", roll=3)
    g2.push_text("fly eagles.1 r1c2")
    assert g2.t.stopped and "ride horse3 r1c2>r1c3" not in moves(g2)
