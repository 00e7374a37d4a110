"""Battles: forces by side, rounds up to 5 points, cities, tie, surrender, consequences."""

from __future__ import annotations

import pytest

from referee.errors import IllegalMoveError

from .conftest import hand, moves, new_game, put, turn_of


def arrive(g, attacker, defender, att_cards, def_cards, frm, to, roll=1):
    """``attacker`` moves ``frm``->``to`` beside ``defender`` and has the exchange;
    then the hands are set to exactly the given cards."""
    hand(g, attacker, "boat.1")
    hand(g, defender, "boat.2")
    put(g, attacker, frm)
    turn_of(g, attacker, roll=roll)
    g.push_text(f"move {frm}>{to}")
    g.push_text(f"exchange {defender}")
    hand(g, attacker, *att_cards)
    hand(g, defender, *def_cards)


@pytest.fixture
def g(grid):
    g = new_game(grid, players=3, seed=21)
    put(g, "frodo", "r3c3")
    put(g, "sam", "r0c3")
    put(g, "rider1", "r3c1")
    return g


def test_no_battle_before_moving_and_exchange(g):
    """No player may start a battle at the very beginning of his turn, before moving;
    attack only after landing on or beside him and having a Friendly Exchange."""
    hand(g, "rider1", "evil_army1.1")
    put(g, "frodo", "r3c2")
    turn_of(g, "rider1")
    with pytest.raises(IllegalMoveError) as e:
        g.push_text("battle frodo")
    assert e.value.code == "no_exchange"


def test_attacker_wins_takes_a_card_and_sends_loser_to_limbo(g):
    """Attacker wins: sees the loser's hand, takes 1 card of his choice, loser to LIMBO."""
    arrive(
        g,
        "rider1",
        "frodo",
        ["evil_army3", "evil_army1.1"],
        ["good_army1.1", "the_ring", "boat.3"],
        "r3c1",
        "r3c2",
    )
    g.push_text("battle frodo")
    assert g.phase == "battle_att" and g.to_move == "rider1"
    g.push_text("commit evil_army3")
    assert g.to_move == "frodo"
    # one card or one city per round (rulings § Riddle movement): 1 + 2 points may not answer 3
    assert moves(g) == {"surrender"}
    g.push_text("surrender")
    assert g.phase == "choose" and g.to_move == "rider1"
    assert g.view("rider1")["choosing_from"] == ["boat.3", "good_army1.1", "the_ring"]
    g.push_text("take the_ring")
    fr = g._by["frodo"]
    assert fr.status == "limbo" and fr.pos is None and sorted(fr.hand) == ["boat.3", "good_army1.1"]
    assert "evil_army3" in g.discard_pile and "the_ring" in g._by["rider1"].hand


def test_defender_matches_exactly_and_tie_at_five(g):
    """Rounds go on until the attacker has presented 5 points; if the defender matches all
    the attacker's points the battle is a tie: no consequences but the discards."""
    arrive(
        g,
        "rider1",
        "frodo",
        ["evil_army3", "evil_army2.1", "dragon_birds.1"],
        ["good_army3", "good_army2.1", "good_army1.1"],
        "r3c1",
        "r3c2",
    )
    g.push_text("battle frodo")
    g.push_text("commit evil_army3")
    with pytest.raises(IllegalMoveError) as e:
        g.push_text("match city:r9c9")
    assert e.value.code == "no_city"
    g.push_text("match good_army3")
    assert g.phase == "battle_att"
    # no player may claim more than 5 Battle Points: Dragon Birds (3) would make 6
    with pytest.raises(IllegalMoveError) as e:
        g.push_text("commit dragon_birds.1")
    assert e.value.code == "too_many_points"
    g.push_text("commit evil_army2.1")
    g.push_text("match good_army2.1")
    assert g.phase == "main"  # 5 points matched: tie
    assert g._by["frodo"].status == "board"
    assert {"evil_army3", "evil_army2.1", "good_army3", "good_army2.1"} <= set(g.discard_pile)


def test_attacker_settles_for_tie(g):
    """The attacker may settle for a tie by not presenting cards for another round."""
    arrive(g, "rider1", "frodo", ["evil_army1.1", "evil_army1.2"], ["good_army1.1"], "r3c1", "r3c2")
    g.push_text("battle frodo")
    g.push_text("commit evil_army1.1")
    g.push_text("match good_army1.1")
    g.push_text("settle")
    assert g.phase == "main" and g._by["frodo"].status == "board"
    with pytest.raises(IllegalMoveError) as e:
        g.push_text("battle frodo")
    assert e.value.code == "battled"  # not the same player twice in a turn


def test_forces_opposite_to_the_defender(g):
    """All players attack a Hobbit with Evil and Neutral forces; Hobbits defend with Good
    and Neutral forces."""
    arrive(
        g,
        "rider1",
        "frodo",
        ["good_army3", "neutral_army2.1", "evil_army1.1"],
        ["evil_army3", "neutral_army2.2"],
        "r3c1",
        "r3c2",
    )
    g.push_text("battle frodo")
    assert {m for m in moves(g) if m.startswith("commit")} == {
        "commit neutral_army2.1",
        "commit evil_army1.1",
    }
    g.push_text("commit neutral_army2.1")
    assert moves(g) == {"match neutral_army2.2", "surrender"}


def test_hobbit_attacks_hobbit_with_evil_forces_not_own_card(grid):
    """Hobbits may attack Hobbits with the correct forces (Evil); a player may not use his
    own character card to attack one of his own kind."""
    g = new_game(grid, players=3, seed=21, markers="frodo,sam,rider1")
    put(g, "sam", "r3c3")
    arrive(g, "frodo", "sam", ["frodo", "evil_army2.1"], ["good_army1.1"], "r3c1", "r3c2")
    g.push_text("battle sam")
    cm = {m for m in moves(g) if m.startswith("commit")}
    assert cm == {"commit evil_army2.1"}
    with pytest.raises(IllegalMoveError) as e:
        g.push_text("commit frodo")
    assert e.value.code in ("wrong_side", "own_card")


def test_cities_count_one_point_for_either_player(g):
    """Good & Evil cities count 1 point if either player is on or beside one; either player
    may use it as a force of its kind. Neutral cities are not used."""
    put(g, "frodo", "r1c0")  # beside the Evil city r2c0 and beside Bree (neutral)
    arrive(g, "rider1", "frodo", ["evil_army1.1"], ["good_army1.1", "good_army1.2"], "r3c0", "r2c0")
    g.push_text("battle frodo")
    g.push_text("commit evil_army1.1")  # a battle opens with a card (rulings § Riddle movement)
    g.push_text("match good_army1.1")
    cm = {m for m in moves(g) if m.startswith("commit")}
    assert cm == {"commit city:r2c0"}
    g.push_text("commit city:r2c0")
    assert moves(g) == {"match good_army1.2", "surrender"}  # Evil city: no Hobbit force
    g.push_text("match good_army1.2")
    with pytest.raises(IllegalMoveError) as e:
        g.push_text("commit city:r2c0")
    assert e.value.code == "city_used"


def test_retain_cards_return_to_hand(g):
    """Cards used in battle are discarded except Retain ones (The Ring, a player's own
    character card), which go back to the hands of the players who used them."""
    arrive(
        g, "rider1", "frodo", ["rider1", "evil_army1.1"], ["the_ring", "good_army3"], "r3c1", "r3c2"
    )
    g.push_text("battle frodo")
    g.push_text("commit rider1")  # a Black Rider's own card against a Hobbit: allowed
    assert "match the_ring" not in moves(g)  # 1 point cannot answer 2
    g.push_text("surrender")
    assert "rider1" in g._by["rider1"].hand
    assert "the_ring" in g.view("rider1")["choosing_from"]
    g.push_text("take the_ring")
    assert "the_ring" in g._by["rider1"].hand
    # and the defender's Retain card returns to him: a battle answered with The Ring
    g2 = new_game(g.compiled, players=3, seed=21)
    put(g2, "frodo", "r3c3")
    put(g2, "sam", "r0c3")
    arrive(g2, "rider1", "frodo", ["evil_army1.1"], ["the_ring"], "r3c1", "r3c2")
    g2.push_text("battle frodo")
    g2.push_text("commit evil_army1.1")
    g2.push_text("match the_ring")
    g2.push_text("settle")
    assert "the_ring" in g2._by["frodo"].hand and "evil_army1.1" in g2.discard_pile


def test_defender_cannot_exceed_and_only_attacker_wins(g):
    """The defender may not present more points than the attacker and win a battle."""
    arrive(g, "rider1", "frodo", ["evil_army1.1"], ["good_army3"], "r3c1", "r3c2")
    g.push_text("battle frodo")
    g.push_text("commit evil_army1.1")
    with pytest.raises(IllegalMoveError) as e:
        g.push_text("match good_army3")
    assert e.value.code == "too_many_points"
    g.push_text("surrender")
    assert g.phase == "choose"


def test_attack_two_players_per_turn(g):
    """A player may attack 2 different players per turn (2 Power Plays)."""
    put(g, "sam", "r3c1")
    put(g, "frodo", "r4c2")
    hand(g, "rider1", "boat.1")
    hand(g, "frodo", "boat.2")
    hand(g, "sam", "boat.3")
    put(g, "rider1", "r3c3")
    turn_of(g, "rider1", roll=1)
    g.push_text("move r3c3>r3c2")
    assert set(g.t.pending) == {"frodo", "sam"}
    g.push_text("exchange sam")
    g.push_text("exchange frodo")
    hand(g, "rider1", "evil_army1.1", "evil_army1.2")
    hand(g, "frodo", "boat.2")
    hand(g, "sam", "boat.3")
    g.push_text("battle sam")
    g.push_text("commit evil_army1.1")
    g.push_text("surrender")
    g.push_text("take boat.3")
    assert g._by["sam"].status == "limbo"
    g.push_text("battle frodo")
    g.push_text("commit evil_army1.2")
    g.push_text("surrender")
    g.push_text("take boat.2")
    assert g._by["frodo"].status == "limbo" and g.t.pp == 2


def test_moving_again_needs_a_new_exchange(g):
    """If he moves again to another space beside the other player, he must have another
    Friendly Exchange before attacking."""
    arrive(g, "rider1", "frodo", ["evil_army1.1", "horse2"], ["good_army1.1"], "r3c1", "r3c2")
    g.push_text("ride horse2 r3c2>r4c2>r4c3")
    assert g.phase == "exchange"
    with pytest.raises(IllegalMoveError):
        g.push_text("battle frodo")


def test_power_play_between_exchange_and_battle(g):
    """Q&A: after landing beside a player and the Friendly Exchange, another Power Play
    (an Elf Ring) may come before the battle; the battle is the second Power Play."""
    arrive(
        g,
        "rider1",
        "frodo",
        ["elf_ring.1", "elf_ring.2", "evil_army1.1"],
        ["good_army1.1", "boat.3"],
        "r3c1",
        "r3c2",
    )
    g.push_text("look elf_ring.1 frodo")
    assert g.view("rider1")["seen"][-1]["cards"] == ["boat.3", "good_army1.1"]
    g.push_text("battle frodo")
    assert g.t.pp == 2 and g.phase == "battle_att"
    g.push_text("commit evil_army1.1")
    g.push_text("match good_army1.1")
    g.push_text("settle")
    with pytest.raises(IllegalMoveError) as e:
        g.push_text("look elf_ring.2 frodo")
    assert e.value.code == "power_plays_used"


def test_defender_answers_a_round_with_one_card_or_one_city(g):
    """Rulebook, How to Have a Battle: "The defender may then present a card, or a city,
    to match (equal) the battle points just used against him by the attacker." One card
    or one city per round, never two (issue 15, item 3)."""
    arrive(
        g,
        "rider1",
        "frodo",
        ["evil_army3", "evil_army1.1"],
        ["good_army1.1", "good_army2.1", "good_army3"],
        "r3c1",
        "r3c2",
    )
    g.push_text("battle frodo")
    g.push_text("commit evil_army3")
    assert moves(g) == {"match good_army3", "surrender"}
    with pytest.raises(IllegalMoveError) as e:
        g.push_text("match good_army1.1")
    assert e.value.code == "must_match"
    assert g._by["frodo"].hand.count("good_army1.1") == 1  # nothing changed
    g.push_text("match good_army3")
    assert g.phase == "battle_att"  # matched in one answer: the attacker's next round


def test_every_battle_needs_a_card_from_the_attackers_hand(g):
    """Rulebook, Power Plays: "All Power Plays require a player to use at least 1 card
    from his hand." A battle cannot be started without a battle card, nor settled or
    opened with a city alone (issue 15, item 5)."""
    arrive(g, "rider1", "frodo", ["boat.3"], ["good_army1.1"], "r3c1", "r3c2")
    assert "battle frodo" not in moves(g)
    with pytest.raises(IllegalMoveError) as e:
        g.push_text("battle frodo")
    assert e.value.code == "no_battle_card"
    hand(g, "rider1", "evil_army1.1")
    g.push_text("battle frodo")
    assert "settle" not in moves(g)
    with pytest.raises(IllegalMoveError) as e:
        g.push_text("settle")
    assert e.value.code == "card_first"
    assert all(not m.startswith("commit city:") for m in moves(g))
    g.push_text("commit evil_army1.1")
    assert g.phase == "battle_def"
