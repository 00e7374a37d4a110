"""The 80-card deck as data (List of Cards and Markers)."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from referee.assets import default_assets_dir, load_pack
from referee.errors import AssetError
from referee.games.riddle.cards import deck_for, parse_deck


@pytest.fixture(scope="module")
def pack():
    return load_pack(default_assets_dir() / "riddle")


def test_deck_has_80_cards_as_listed(pack):
    """List of Cards: 5 Boats, 5 Ropes, 5 Cloaks, 5 Horses, 2 Eagles, 2 Dragon Birds,
    7 Good / 7 Evil / 4 Neutral Armies, ..., The Ring, 5 Riddles, 3 Elf Rings, 3 Palantirs."""
    deck = parse_deck(pack.decks["riddle/cards"], "pack")
    assert len(deck.instances) == 80 == len(set(deck.instances))
    by_title = Counter(deck.type_of[c].name for c in deck.instances)
    assert by_title["Boat"] == by_title["Rope"] == by_title["Cloak"] == by_title["Horse"] == 5
    assert by_title["Eagles"] == by_title["Dragon Birds"] == 2
    assert (by_title["Good Army"], by_title["Evil Army"], by_title["Neutral Army"]) == (7, 7, 4)
    assert by_title["The Ring"] == 1 and by_title["Riddle"] == 5
    assert by_title["Elf Ring"] == 3 and by_title["Palantir"] == 3
    for name in (
        "Frodo",
        "Sam",
        "Merry",
        "Pippin",
        "Black Rider 1",
        "Black Rider 4",
        "Gandalf",
        "Galadriel",
        "Sauron",
        "Balrog",
        "Treebeard",
        "Strider",
        "Boromir",
        "Legalos",
        "Gimli",
        "Butterbur",
        "Saruman",
        "Mouth of Sauron",
        "Wormtongue",
        "Grishnakh",
        "Ugluk",
        "Bill Ferny",
        "Gollum",
        "Tom Bombadil",
    ):
        assert by_title[name] == 1, name


def test_sides_and_retain(pack):
    """Hobbits Good, Black Riders Evil; The Ring and a player's own card are Retain."""
    deck = parse_deck(pack.decks["riddle/cards"], "pack")
    t = deck.types
    assert t["frodo"].side == "good" and t["rider2"].side == "evil"
    assert t["gandalf"].side == "good" and t["balrog"].side == "evil"
    assert t["gollum"].side == "neutral"
    assert t["the_ring"].battle_after == "retain" and t["frodo"].battle_after == "retain"
    assert t["good_army1"].battle_after == "discard"


def test_unprinted_values_are_marked_ours(pack):
    """Values the rulebook does not print (army points, horse counts) say so."""
    data = pack.decks["riddle/cards"]["cards"]
    horse = [c for c in data if c["name"] == "Horse"]
    assert all("n" in c["ours"] for c in horse)
    assert all("points" in c["ours"] for c in data if c["kind"] == "army")
    # printed: Bill Ferny picks up 1 card (Q&A) -- not ours
    bf = next(c for c in data if c["id"] == "bill_ferny")
    assert not bf["uses"][0].get("ours")


def test_eight_markers(pack):
    """8 individual player markers: 4 Hobbits, 4 Black Riders, with their colours."""
    kinds = Counter(v["kind"] for v in pack.piece_types.values())
    assert kinds == {"hobbit": 4, "rider": 4}
    assert pack.piece_types["riddle/frodo"]["colour"] == "blue"


def test_board_can_embed_its_own_deck(pack):
    from referee.model import Board

    data = json.loads(json.dumps(pack.decks["riddle/cards"]))
    data["cards"] = [c for c in data["cards"] if c["id"] != "palantir"]
    b = Board(decks={"riddle/cards": data})
    assert len(deck_for(b).instances) == 77


def test_bad_deck_is_rejected_with_place():
    with pytest.raises(AssetError, match="side"):
        parse_deck({"cards": [{"id": "x", "kind": "army", "side": "grey"}]}, "here")
