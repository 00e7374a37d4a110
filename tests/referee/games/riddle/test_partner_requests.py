"""Variation 2b: asking a partner for a card by its title (``partner_exchange=b``).

Supplementary Rules, B.2 "Friendly Exchanges with Partners", b: "Each partner may make
a specific request for a title of a card which he would like to receive from his
partner. If the partner does not have it, or chooses not to give it, the basic rule or
option "a" given above should be followed."
"""

from __future__ import annotations

import json
import random

import pytest

from referee.errors import IllegalMoveError
from referee.games.riddle import RiddleGame
from referee.games.riddle.moves import Move

from .conftest import hand, moves, new_game, put, turn_of
from .test_selfplay import _invariants, play


def _exchange(grid, frodo=("boat.1", "rope.1"), sam=("cloak.1", "the_ring"), **opts):
    """Frodo moves beside his partner Sam and starts their Friendly Exchange."""
    opts = {"partners": True, "partner_exchange": "b", **opts}
    g = new_game(grid, players=4, seed=40, **opts)
    hand(g, "frodo", *frodo)
    hand(g, "sam", *sam)
    put(g, "sam", "r0c2")
    put(g, "frodo", "r0c0")
    put(g, "rider1", "r4c0")
    put(g, "rider2", "r4c1")
    turn_of(g, "frodo", roll=1)
    g.push_text("move r0c0>r0c1")
    return g, g.push_text("exchange sam")


def _rejected(g, text: str, code: str) -> None:
    before = g.to_json()
    with pytest.raises(IllegalMoveError) as e:
        g.push_text(text)
    assert e.value.code == code, e.value
    assert g.to_json() == before, f"rejected {text!r} changed the state"


def test_request_granted(grid):
    """ "Each partner may make a specific request for a title of a card which he would like
    to receive from his partner": Frodo asks for The Ring and Sam gives it; Sam asks for
    nothing, so Frodo selects the card he gives as in option a."""
    g, ev = _exchange(grid)
    assert ev[0]["mode"] == "b" and g.phase == "pexchange" and g.to_move == "frodo"
    ms = moves(g)
    assert "noask" in ms and "ask the_ring" in ms and "ask boat" in ms
    assert not any(m.startswith(("offer", "grant", "decline")) for m in ms)
    g.push_text("ask the_ring")
    assert g.to_move == "sam" and "ask rope" in moves(g)
    g.push_text("noask")
    # the player on turn gives first: no request was made of him, so option a
    assert g.to_move == "frodo" and moves(g) == {"offer boat.1", "offer rope.1"}
    g.push_text("offer rope.1")
    assert g.to_move == "sam" and moves(g) == {"grant the_ring", "decline"}
    ev = g.push_text("grant the_ring")
    assert sorted(g._by["frodo"].hand) == ["boat.1", "the_ring"]
    assert sorted(g._by["sam"].hand) == ["cloak.1", "rope.1"]
    assert g.phase == "main" and g.sub is None and "sam" in g.t.exchanged
    assert ev[-1]["type"] == "exchange" and ev[-1]["player"] == "frodo"
    assert (ev[-1]["gave"], ev[-1]["got"]) == ("rope.1", "the_ring")
    assert len(g.all_cards()) == 80


def test_request_for_a_card_the_partner_lacks_falls_back_to_a(grid):
    """ "If the partner does not have it ... option "a" given above should be followed":
    Sam holds no Boat, so he can only decline, then selects the card he gives."""
    g, _ = _exchange(grid)
    g.push_text("ask boat")
    g.push_text("noask")
    g.push_text("offer boat.1")
    assert g.to_move == "sam" and moves(g) == {"decline"}
    _rejected(g, "grant boat.2", "not_in_hand")
    _rejected(g, "offer cloak.1", "wrong_phase")  # answer the request first
    ev = g.push_text("decline")
    # the decline is the same whether he lacks the title or keeps it (see below)
    assert [{k: v for k, v in e.items() if k != "text"} for e in ev] == [
        {"type": "request_answer", "player": "sam", "with": "frodo", "answer": "declined"}
    ]
    assert g.to_move == "sam" and moves(g) == {"offer cloak.1", "offer the_ring"}
    g.push_text("offer cloak.1")
    assert sorted(g._by["frodo"].hand) == ["cloak.1", "rope.1"]
    assert sorted(g._by["sam"].hand) == ["boat.1", "the_ring"]
    assert g.phase == "main"


def test_partner_chooses_to_decline(grid):
    """ "... or chooses not to give it": Sam holds The Ring but declines and gives a card of
    his choice instead; Frodo learns only that the request was declined. Both ask here,
    and each request is answered by the partner it was made of."""
    g, _ = _exchange(grid)
    g.push_text("ask the_ring")
    _rejected(g, "ask not-a-card", "unknown_title")
    _rejected(g, "grant the_ring", "wrong_phase")  # Sam must ask (or not) first
    g.push_text("ask rope")
    assert g.to_move == "frodo" and moves(g) == {"grant rope.1", "decline"}
    _rejected(g, "grant boat.1", "not_requested")
    g.push_text("grant rope.1")
    assert g.to_move == "sam" and moves(g) == {"grant the_ring", "decline"}
    ev = g.push_text("decline")
    assert [{k: v for k, v in e.items() if k != "text"} for e in ev] == [
        {"type": "request_answer", "player": "sam", "with": "frodo", "answer": "declined"}
    ]
    _rejected(g, "grant the_ring", "wrong_phase")  # no second answer after declining
    ev = g.push_text("offer cloak.1")
    assert sorted(g._by["frodo"].hand) == ["boat.1", "cloak.1"]
    assert sorted(g._by["sam"].hand) == ["rope.1", "the_ring"]
    mine = RiddleGame.events_for(ev, "frodo")[-1]
    assert (mine["player"], mine["gave"], mine["got"]) == ("frodo", "rope.1", "cloak.1")


def test_request_needs_the_partners_option(grid):
    """Variation 2 is "Friendly Exchanges with Partners": without Variation 1 (or with a
    player of the other team) the exchange is the basic one and nobody may ask."""
    g, ev = _exchange(grid, partners=False)
    assert g.phase == "main" and ev[-1]["type"] == "exchange" and "mode" not in ev[-1]
    assert not any(m.startswith(("ask", "noask")) for m in moves(g))
    _rejected(g, "ask the_ring", "wrong_phase")
    _rejected(g, "noask", "wrong_phase")

    g = new_game(grid, players=4, seed=41, partners=True, partner_exchange="b")
    hand(g, "frodo", "boat.1")
    hand(g, "rider1", "rope.1")
    put(g, "frodo", "r3c0")
    put(g, "rider1", "r2c1")
    put(g, "sam", "r0c4")
    put(g, "rider2", "r4c4")
    turn_of(g, "frodo", roll=1)
    g.push_text("move r3c0>r3c1")
    g.push_text("exchange rider1")
    assert g.phase == "main" and g._by["frodo"].hand == ["rope.1"]
    _rejected(g, "ask boat", "wrong_phase")


def test_option_value_is_checked(grid):
    from referee.errors import UsageError

    with pytest.raises(UsageError):
        new_game(grid, players=4, partners=True, partner_exchange="d")
    assert (
        new_game(grid, players=4, partners=True, partner_exchange="b").opts["partner_exchange"]
        == "b"
    )


def test_views_and_events_hide_the_other_hands(grid):
    """Hidden information: the titles asked and the cards granted are the two partners'
    business; nobody sees the other hands, and (option a) neither partner sees the card
    he is to receive until the cards change hands."""
    g, _ = _exchange(grid)
    ev = g.push_text("ask the_ring")
    assert RiddleGame.events_for(ev, "sam")[0]["title"] == "the_ring"
    assert "the_ring" not in json.dumps(RiddleGame.events_for(ev, "rider1"))
    assert "the_ring" not in json.dumps(RiddleGame.events_for(ev, None))
    g.push_text("noask")
    g.push_text("offer boat.1")
    vs, vf, vr = g.view("sam"), g.view("frodo"), g.view("rider1")
    assert vs["requests"] == {"asked": {"frodo": "the_ring", "sam": None}, "answers": {}}
    assert vf["requests"] == vs["requests"]
    for v, me in ((vs, "sam"), (vf, "frodo"), (vr, "rider1")):
        for d in v["players"]:
            assert ("hand" in d) == (d["name"] == me)
    # Frodo's chosen card is not shown to Sam before the exchange, nor Sam's hand to Frodo
    assert "boat.1" not in json.dumps(vs)
    # (the title Frodo asked for is spelt as the card's id: only the card itself is hidden)
    assert "the_ring" not in vf["cards"] and "cloak.1" not in json.dumps(vf)
    # the other team sees neither the request nor any partner's card
    dumped = json.dumps(vr) + json.dumps(g.view(None))
    assert "requests" not in vr and "the_ring" not in dumped
    assert not any(c in dumped for c in ("boat.1", "rope.1", "cloak.1", "the_ring"))
    ev = g.push_text("grant the_ring")
    assert RiddleGame.events_for(ev, "frodo")[0]["card"] == "the_ring"
    theirs = json.dumps(RiddleGame.events_for(ev, "rider1"))
    assert "the_ring" not in theirs and "boat.1" not in theirs and '"granted"' in theirs


def test_moves_are_small_hashable_and_parse_back():
    for text in ("ask the_ring", "noask", "grant boat.2", "decline"):
        m = Move.parse(text)
        assert str(m) == text and Move.parse(str(m)) == m and hash(m) == hash(Move.parse(text))
    with pytest.raises(IllegalMoveError) as e:
        Move.parse("ask")
    assert e.value.code == "bad_move"


def test_random_games_with_requests_keep_invariants(grid):
    """Self-play with ``partners=true partner_exchange=b``: every generated move is legal and
    parses back, rejected moves change nothing, views show only one's own hand, all 80
    cards stay in play — and 2b exchanges really happen."""
    played: list[str] = []
    for seed in range(3):
        g = new_game(grid, players=4, seed=seed, turn_limit=12, partners=True, partner_exchange="b")
        played += [t.split()[0] for t in play(g, random.Random(seed), every=_invariants)]
        assert g.outcome is not None
    assert played.count("ask") and played.count("decline") and played.count("offer"), (
        "no Variation 2b exchange in the random games"
    )
