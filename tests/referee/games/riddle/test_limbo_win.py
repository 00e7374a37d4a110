"""LIMBO, and How to Win (with Variations 5, 6 and 7)."""

from __future__ import annotations

import pytest

from referee.errors import IllegalMoveError
from referee.games.riddle import flow

from .conftest import hand, moves, new_game, put, turn_of


def to_limbo(g, name):
    p = g._by[name]
    p.status, p.pos, p.away = "limbo", None, 0


def limbo_turn(g, name):
    g.cur = g.seats.index(g._by[name])
    flow.begin_turn(g, [])


def roll_until(g, want_six: bool):
    """Push ``roll`` on a copy until the die shows (or does not show) a 6; return it."""
    for _ in range(50):
        c = g.copy()
        c.push_text("roll")
        if (c.phase == "place") == want_six:
            return c
        g.rng.state += 1
    raise AssertionError("no such roll")


def test_limbo_turn_picks_up_one_card_without_discard(grid):
    """While in LIMBO, roll the die; pick up 1 card each turn you end in LIMBO, but do not
    discard after picking up; no exchanges, no Power Plays, no cards but a Wizard."""
    g = new_game(grid, players=2, seed=31)
    to_limbo(g, "frodo")
    hand(g, "frodo", "riddle.1", "rider1")
    limbo_turn(g, "frodo")
    assert g.phase == "limbo" and moves(g) == {"roll"}
    g = roll_until(g, want_six=False)
    assert moves(g) == {"pass"}
    g.push_text("pass")
    fr = g._by["frodo"]
    assert len(fr.hand) == 3 and fr.status == "limbo" and fr.away == 1
    assert g.me.name != "frodo"


def test_six_escapes_and_placement_within_six_of_exit(grid):
    """Escape by rolling a 6; place the marker on any space within 6 spaces of Exit LIMBO,
    then roll and take a regular turn; no Friendly Exchange on placing."""
    g = new_game(grid, players=2, seed=32)
    to_limbo(g, "frodo")
    put(g, "rider1", "r2c1")
    limbo_turn(g, "frodo")
    g = roll_until(g, want_six=True)
    assert g.phase == "place"
    targets = {m.split()[1] for m in moves(g)}
    assert "r2c1" in targets and "r2c2" not in targets  # Exit Limbo is not part of the board
    assert "r0c4" not in targets  # the lake: water
    g.push_text("place r2c1")
    assert g.phase == "start" and not g.t.pending
    g.push_text("roll")
    assert g.phase == "main" and g._by["frodo"].status == "board"


def test_must_leave_at_fourth_turn(grid):
    """You must leave LIMBO at the beginning of your fourth turn in LIMBO."""
    g = new_game(grid, players=2, seed=33)
    to_limbo(g, "frodo")
    g._by["frodo"].away = 3
    limbo_turn(g, "frodo")
    assert g.phase == "place"


def test_short_limbo_variation(grid):
    """Variation 9: stays of 2 turns with 6 or more players."""
    g = new_game(grid, players=6, seed=33, short_limbo=True)
    to_limbo(g, "frodo")
    g._by["frodo"].away = 2
    limbo_turn(g, "frodo")
    assert g.phase == "place"


def test_wizard_escape_after_rolling(grid):
    """Escape from LIMBO by playing a Wizard after you roll the die; Gimli/Ugluk may not
    reroll there."""
    g = new_game(grid, players=2, seed=34)
    to_limbo(g, "frodo")
    hand(g, "frodo", "galadriel", "gimli")
    limbo_turn(g, "frodo")
    with pytest.raises(IllegalMoveError):
        g.push_text("escape galadriel")  # roll first
    g = roll_until(g, want_six=False)
    assert moves(g) == {"escape galadriel", "pass"}
    g.push_text("escape galadriel")
    assert g.phase == "place" and "galadriel" in g.discard_pile


def test_no_activities_with_players_in_limbo(grid):
    """Players cannot have Friendly Exchanges and Power Plays with those in LIMBO."""
    g = new_game(grid, players=2, seed=35)
    to_limbo(g, "rider1")
    hand(g, "frodo", "gandalf", "rider1")
    put(g, "frodo", "r0c1")
    turn_of(g, "frodo")
    with pytest.raises(IllegalMoveError) as e:
        g.push_text("look gandalf rider1")
    assert e.value.code == "out_of_reach"


def win_setup(grid, name="frodo", **opts):
    g = new_game(grid, players=2, seed=36, **opts)
    hand(g, name, "the_ring")
    put(g, name, "r3c4" if name == "frodo" else "r3c0")
    turn_of(g, name, roll=1)
    return g


def test_hobbit_may_not_win_the_turn_he_arrives(grid):
    """He must first end one of his turns on the Cracks of Doom; he may not win on that
    turn. He wins by showing The Ring during his next turn while on the Cracks."""
    g = win_setup(grid)
    g.push_text("move r3c4>r4c4")
    with pytest.raises(IllegalMoveError) as e:
        g.push_text("ring")
    assert e.value.code == "must_wait"
    g.push_text("pass")
    assert g._by["frodo"].goal_wait
    turn_of(g, "frodo", roll=1)
    assert "ring" in moves(g)
    ev = g.push_text("ring")
    assert g.outcome.to_json() == {"result": "won", "winners": ["frodo"], "how": "the_ring"}
    assert ev[-1]["type"] == "game_over" and not list(g.legal_moves)


def test_leave_and_come_back_in_the_next_turn(grid):
    """Q&A: leave the Cracks at the beginning of the next turn, take The Ring, and return
    using a horse to win."""
    g = win_setup(grid)
    hand(g, "frodo", "horse2")
    g.push_text("move r3c4>r4c4")
    g.push_text("pass")
    turn_of(g, "frodo", roll=1)
    g.push_text("move r4c4>r4c3")
    hand(g, "frodo", "horse2", "the_ring")
    g.push_text("ride horse2 r4c3>r4c4")
    g.push_text("ring")
    assert list(g.outcome.winners) == ["frodo"]


def test_black_rider_wins_at_barad_dur_not_cracks(grid):
    g = win_setup(grid, name="rider1")
    g.push_text("move r3c0>r4c0")
    g.push_text("pass")
    turn_of(g, "rider1", roll=1)
    g.push_text("ring")
    assert list(g.outcome.winners) == ["rider1"]
    g2 = new_game(grid, players=2, seed=36, no_wait=True)
    hand(g2, "rider1", "the_ring")
    put(g2, "rider1", "r4c4")
    turn_of(g2, "rider1")
    with pytest.raises(IllegalMoveError) as e:
        g2.push_text("ring")
    assert e.value.code == "not_on_goal"


def test_without_the_ring_no_win(grid):
    g = win_setup(grid)
    hand(g, "frodo")
    with pytest.raises(IllegalMoveError) as e:
        g.push_text("ring")
    assert e.value.code == "no_ring"


def test_wait_only_once_variation(grid):
    """Variation 5: once a player ended a turn on his goal, he may win on any later turn."""
    g = win_setup(grid, wait_once=True)
    g.push_text("move r3c4>r4c4")
    g.push_text("pass")
    turn_of(g, "frodo", roll=1)
    g.push_text("move r4c4>r3c4")
    g.push_text("pass")
    assert not g._by["frodo"].goal_wait
    turn_of(g, "frodo", roll=1)
    g.push_text("move r3c4>r4c4")
    g.push_text("ring")
    assert list(g.outcome.winners) == ["frodo"]


def test_win_without_waiting_variation(grid):
    """Variation 6: show The Ring any time on the Cracks or Barad-Dur."""
    g = win_setup(grid, no_wait=True)
    g.push_text("move r3c4>r4c4")
    g.push_text("ring")
    assert list(g.outcome.winners) == ["frodo"]


def test_elf_rings_win_variation(grid):
    """Variation 7: The Ring and all three Elf Rings in hand win from any space."""
    g = win_setup(grid, elf_ring_win=True)
    hand(g, "frodo", "the_ring", "elf_ring.1", "elf_ring.2")
    with pytest.raises(IllegalMoveError):
        g.push_text("ring")
    hand(g, "frodo", "the_ring", "elf_ring.1", "elf_ring.2", "elf_ring.3")
    g.push_text("ring")
    assert list(g.outcome.winners) == ["frodo"]


def test_partners_team_wins_together(grid):
    """Variation 1: when one Hobbit or Black Rider wins, his team-mates win with him;
    partners may not Riddle or Battle each other."""
    g = new_game(grid, players=4, seed=37, partners=True, no_wait=True)
    hand(g, "sam", "riddle.1", "boat.1")
    hand(g, "frodo", "rope.1")
    put(g, "frodo", "r0c1")
    put(g, "sam", "r4c3")
    turn_of(g, "sam", roll=1)
    with pytest.raises(IllegalMoveError) as e:
        g.push_text("riddle riddle.1 frodo rope")
    assert e.value.code == "partner"
    hand(g, "sam", "the_ring")
    g.push_text("move r4c3>r4c4")
    g.push_text("ring")
    assert list(g.outcome.winners) == ["frodo", "sam"]


def test_partners_uneven_majority_picks_up_two(grid):
    """Variation 1: with uneven teams the majority side picks up only 2 cards at a city."""
    g = new_game(grid, players=5, seed=38, partners=True, partners_extra_card=True)
    hobbits = [p for p in g.seats if p.kind == "hobbit"]
    assert len(hobbits) == 3 and all(len(p.hand) == 3 for p in hobbits)
    hand(g, "frodo")
    put(g, "frodo", "r0c1")
    turn_of(g, "frodo", roll=1)
    g.push_text("move r0c1>r0c2")
    g.push_text("pickup city")
    assert len(g._by["frodo"].hand) == 2


def test_limbo_out_variation(grid):
    """Variation 10: with 6+ players those sent to LIMBO drop out until 5 remain; their
    cards go face-up to the discard stack; The Ring goes to the player who sent him."""
    from .test_battles import arrive

    g = new_game(grid, players=6, seed=39, limbo_out=True)
    put(g, "frodo", "r3c3")
    arrive(g, "rider1", "frodo", ["evil_army1.1"], ["the_ring", "boat.3"], "r3c1", "r3c2")
    g.push_text("battle frodo")
    g.push_text("commit evil_army1.1")
    g.push_text("surrender")
    g.push_text("take boat.3")
    fr = g._by["frodo"]
    assert fr.out and fr.hand == [] and "the_ring" in g._by["rider1"].hand
    assert len(g.all_cards()) == 80
    assert g.view(None)["players"][g.seats.index(fr)]["status"] == "out"


@pytest.mark.parametrize("mode", ["a", "c"])
def test_partner_exchange_variations(grid, mode):
    """Variation 2: (a) each partner selects a card from his own hand to give; (c) each
    takes the other's hand and selects the card of his choice from it."""
    g = new_game(grid, players=4, seed=40, partners=True, partner_exchange=mode)
    hand(g, "frodo", "boat.1", "rope.1")
    hand(g, "sam", "cloak.1", "the_ring")
    put(g, "sam", "r0c2")
    put(g, "frodo", "r0c0")
    put(g, "rider1", "r4c0")
    put(g, "rider2", "r4c1")
    turn_of(g, "frodo", roll=1)
    g.push_text("move r0c0>r0c1")
    g.push_text("exchange sam")
    assert g.phase == "pexchange" and g.to_move == "frodo"
    if mode == "a":
        assert moves(g) == {"offer boat.1", "offer rope.1"}
        g.push_text("offer rope.1")
        assert g.to_move == "sam"
        g.push_text("offer cloak.1")
    else:
        assert g.view("frodo")["choosing_from"] == ["cloak.1", "the_ring"]
        g.push_text("pick the_ring")
        assert g.to_move == "sam" and g.view("sam")["choosing_from"] == ["boat.1", "rope.1"]
        g.push_text("pick rope.1")
    fr, sa = sorted(g._by["frodo"].hand), sorted(g._by["sam"].hand)
    assert fr == (["boat.1", "cloak.1"] if mode == "a" else ["boat.1", "the_ring"])
    assert "rope.1" in sa and g.phase == "main"


def test_enhanced_two_player_game(grid):
    """Variation 14: one player is the Hobbits, the other the Black Riders; after the first
    turn each may use his original character or bring in another at The Shire with 2 cards;
    one character per turn; no Riddles or Battles against one's own kind."""
    g = new_game(grid, players=2, seed=42, enhanced_two=True)
    assert len(g.seats) == 8
    active = [p.name for p in g.seats if p.status != "reserve"]
    assert sorted(active) == ["frodo", "rider1"]
    first = g.to_move
    assert first in ("hobbits", "riders") and g.phase == "start"
    # play the first side's turn: roll, move, pass
    g.push_text("roll")
    g.push(next(m for m in g.legal_moves if m.verb == "move"))
    while g.phase != "start" and g.phase != "character":
        g.push(next(m for m in g.legal_moves if m.verb in ("exchange", "pass", "discard")))
    second = g.to_move
    assert second != first and g.phase == "start"  # the other side's first turn: no choice
    g.push_text("roll")
    g.push(next(m for m in g.legal_moves if m.verb == "move"))
    while g.phase not in ("character", "start"):
        g.push(next(m for m in g.legal_moves if m.verb in ("exchange", "pass", "discard")))
    assert g.phase == "character" and g.to_move == first
    mine = "frodo" if first == "hobbits" else "rider1"
    new = "sam" if first == "hobbits" else "rider2"
    assert {str(m) for m in g.legal_moves} >= {f"use {mine}", f"bring {new}"}
    with pytest.raises(IllegalMoveError):
        g.push_text("use rider1" if first == "hobbits" else "use frodo")
    g.push_text(f"bring {new}")
    assert g.me.name == new and len(g._by[new].hand) == 2 and g._by[new].pos == "r0c0"
    v = g.view(first)
    assert v["hand"] == sorted(g._by[new].hand)
    assert all("hand" not in d for d in g.view(second)["players"])
    assert len(g.all_cards()) == 80


def test_enhanced_two_no_riddle_own_kind(grid):
    g = new_game(grid, players=2, seed=43, enhanced_two=True, markers="frodo,rider1")
    g._by["sam"].status = "board"
    put(g, "sam", "r4c4")
    hand(g, "sam", "boat.1")
    hand(g, "frodo", "riddle.1", "rope.1")
    turn_of(g, "frodo")
    with pytest.raises(IllegalMoveError) as e:
        g.push_text("riddle riddle.1 sam boat")
    assert e.value.code == "partner"


def test_partner_clairvoyance_with_elf_rings(grid):
    """Variation 4: a player uses an Elf Ring on his partner; if the partner also has an
    Elf Ring or Palantir and shows it, both see each other's hands; he retains his."""
    g = new_game(grid, players=4, seed=44, partners=True, partner_clairvoyance=True)
    hand(g, "frodo", "elf_ring.1", "boat.1")
    hand(g, "sam", "palantir.1", "rope.1")
    put(g, "frodo", "r0c0")
    put(g, "sam", "r0c1")
    turn_of(g, "frodo")
    g.push_text("look elf_ring.1 sam")
    assert g.phase == "resist" and g.to_move == "sam"
    assert "share palantir.1" in moves(g)
    g.push_text("share palantir.1")
    assert g.view("frodo")["seen"][-1]["cards"] == ["palantir.1", "rope.1"]
    assert g.view("sam")["seen"][-1]["cards"] == ["boat.1"]
    assert "palantir.1" in g._by["sam"].hand and "elf_ring.1" in g.discard_pile
