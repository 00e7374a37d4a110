"""The Recommended Game: G, C and S spaces, and captivity."""

from __future__ import annotations

import pytest

from referee.errors import IllegalMoveError
from referee.games.riddle import flow

from .conftest import hand, moves, new_game, put, turn_of
from .test_battles import arrive


@pytest.fixture
def rg(grid):
    g = new_game(grid, players=3, seed=41, recommended=True)
    put(g, "frodo", "r3c3")
    put(g, "sam", "r0c0")
    put(g, "rider1", "r3c1")
    return g


def test_recommended_switches_on_all_four(rg):
    assert all(
        rg.opts[k] for k in ("gollum_spots", "clairvoyance_spots", "secret_spots", "captivity")
    )


def test_gollum_only_from_g_space(rg):
    """To use the Gollum card, a player must have his marker stopped on a G space."""
    hand(rg, "rider1", "gollum")
    hand(rg, "sam", "the_ring")
    turn_of(rg, "rider1")
    with pytest.raises(IllegalMoveError) as e:
        rg.push_text("gollum gollum sam")
    assert e.value.code == "not_on_g_space"
    put(rg, "rider1", "r1c3")
    rg.push_text("gollum gollum sam")
    assert "the_ring" in rg._by["rider1"].hand


def test_c_space_sees_hands_within_six_unresisted(rg):
    """A player stopped on a C space may see the hands of players within 6 spaces of it;
    the other player may not resist (unless Variation 11)."""
    hand(rg, "sam", "the_ring", "sam")
    hand(rg, "rider1", "boat.1")
    put(rg, "rider1", "r3c0")
    turn_of(rg, "rider1", roll=1)
    rg.push_text("move r3c0>r3c1")
    if rg.phase == "exchange":
        rg.push_text("exchange frodo")
    rg.push_text("clair sam")
    assert rg.phase == "main"
    assert rg.view("rider1")["seen"][-1]["cards"] == ["sam", "the_ring"]
    assert rg.t.pp == 1


def test_resist_c_variation(grid):
    """Variation 11: resist C spaces like an Elf Ring."""
    g = new_game(grid, players=3, seed=41, recommended=True, resist_c=True)
    put(g, "frodo", "r0c4")
    put(g, "sam", "r0c0")
    hand(g, "sam", "the_ring", "boat.1")
    put(g, "rider1", "r3c1")
    turn_of(g, "rider1")
    g.push_text("clair sam")
    assert g.phase == "resist" and g.to_move == "sam"


def test_secret_spot_hide_retrieve_find(rg):
    """Hide 1 to 4 cards on an S space; retrieve them when stopped there again (not in the
    same turn after hiding); another player finds 1 card per turn there."""
    hand(rg, "frodo", "boat.1", "boat.2", "boat.3", "boat.4", "boat.5", "rope.1")
    turn_of(rg, "frodo", roll=1)
    rg.push_text("move r3c3>r3c4")
    with pytest.raises(IllegalMoveError):
        rg.push_text("hide boat.1")  # not on the S space
    turn_of(rg, "frodo", roll=1)
    put(rg, "frodo", "r3c4")
    rg.t.start = "r3c4"
    rg.push_text("move r3c4>r3c3")
    for c in ("boat.1", "boat.2", "boat.3", "boat.4"):
        rg.push_text(f"hide {c}")
    with pytest.raises(IllegalMoveError) as e:
        rg.push_text("hide boat.5")
    assert e.value.code == "hid_four"
    with pytest.raises(IllegalMoveError) as e:
        rg.push_text("retrieve boat.1")
    assert e.value.code == "hid_this_turn"
    assert len(rg.all_cards()) == 80
    v = rg.view("frodo")
    assert v["hidden"] == {"r3c3": ["boat.1", "boat.2", "boat.3", "boat.4"]}
    assert "hidden" not in rg.view("rider1") or rg.view("rider1")["hidden"] == {}
    assert rg.view("rider1")["players"][rg.seats.index(rg._by["frodo"])]["hidden_counts"] == {
        "r3c3": 4
    }
    # hidden cards are out of play: not part of the hand
    assert sorted(rg._by["frodo"].hand) == ["boat.5", "rope.1"]
    # another player finds one card a turn
    hand(rg, "rider1", "rope.2")
    put(rg, "rider1", "r3c2")
    turn_of(rg, "rider1", roll=1)
    rg.push_text("move r3c2>r3c3")
    if rg.phase == "exchange":
        rg.push_text("exchange frodo")
    rg.push_text("find frodo")
    assert sum(c.startswith("boat") for c in rg._by["rider1"].hand) >= 1
    with pytest.raises(IllegalMoveError) as e:
        rg.push_text("find frodo")
    assert e.value.code == "once_per_turn"


def test_wizard_sees_hidden_cards(rg):
    """A Wizard of his own kind sees cards hidden at any S space; 1 Power Play; retained."""
    rg.hidden = {"r3c3": {"frodo": ["the_ring"]}}
    hand(rg, "frodo")
    for lst in [rg.draw_pile] + [p.hand for p in rg.seats]:
        if "the_ring" in lst:
            lst.remove("the_ring")
    hand(rg, "rider1", "balrog")
    turn_of(rg, "rider1")
    rg.push_text("peek balrog r3c3")
    assert rg.t.pp == 1 and "balrog" in rg._by["rider1"].hand
    assert rg.view("rider1")["seen"][-1]["cards"] == ["frodo:the_ring"]


def capture(rg):
    arrive(rg, "rider1", "frodo", ["evil_army1.1"], ["boat.3", "cloak.3"], "r3c1", "r3c2")
    rg.push_text("battle frodo")
    rg.push_text("commit evil_army1.1")
    rg.push_text("surrender")
    assert "capture" in moves(rg)
    rg.push_text("capture")


def test_captivity_captive_goes_with_captor(rg):
    """The winner may take the loser captive; the captive's marker goes wherever the captor
    moves; no exchanges or Power Plays with him."""
    capture(rg)
    fr = rg._by["frodo"]
    assert fr.status == "captive" and fr.captor == "rider1" and fr.pos == "r3c2"
    hand(rg, "rider1", "horse3", "gandalf")
    rg.push_text("ride horse3 r3c2>r4c2>r4c3")
    assert fr.pos == "r4c3" and rg.phase == "main"  # no exchange with the captive
    with pytest.raises(IllegalMoveError) as e:
        rg.push_text("look gandalf frodo")
    assert e.value.code == "wrong_kind"  # Gandalf is a Hobbit's Wizard ...
    hand(rg, "rider1", "sauron")
    with pytest.raises(IllegalMoveError) as e:
        rg.push_text("look sauron frodo")
    assert e.value.code == "out_of_reach"  # ... and a captive is beyond reach anyway


def test_riddling_the_captive_once_a_turn(rg):
    """The captor may Riddle the captive without a Riddle card once per turn; not a Power
    Play."""
    capture(rg)
    pp = rg.t.pp
    hand(rg, "frodo", "boat.3", "boat.4")
    rg.push_text("interrogate frodo boat")
    assert rg.t.pp == pp
    if rg.phase == "riddle":
        rg.push_text("stop")
    with pytest.raises(IllegalMoveError) as e:
        rg.push_text("interrogate frodo boat")
    assert e.value.code in ("once_per_turn", "empty_hand")


def test_release_and_leave_within_six_of_captor(rg):
    """A captor may release a captive; he goes free when his turn comes, placing his marker
    within 6 spaces of the captor's."""
    capture(rg)
    rg.push_text("release frodo")
    rg.cur = rg.seats.index(rg._by["frodo"])
    flow.begin_turn(rg, [])
    assert rg.phase == "place"
    rg.push_text("place r4c2")
    assert rg._by["frodo"].status == "board"


def test_captor_defeated_prisoners_follow(rg):
    """If a captor is sent to LIMBO, his prisoners go with him and go free at their next
    turns."""
    capture(rg)
    g = rg
    sam = g._by["sam"]
    put(g, "sam", "r3c4")
    hand(g, "rider1", "boat.1")
    turn_of(g, "sam", roll=1)
    g.push_text("move r3c4>r3c3")
    g.push_text("exchange rider1")
    hand(g, "sam", "good_army1.1")
    hand(g, "rider1", "boat.1")
    g.push_text("battle rider1")
    g.push_text("commit good_army1.1")
    g.push_text("surrender")
    g.push_text("take boat.1")
    fr = g._by["frodo"]
    assert g._by["rider1"].status == "limbo" and fr.status == "limbo" and fr.free_next
    assert sam.status == "board"
