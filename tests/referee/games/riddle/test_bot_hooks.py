"""Riddle's bot hooks: the evaluation follows the rulebook's advice, and bots play by it."""

from __future__ import annotations

import random

from referee.bots import make_bot
from referee.games.riddle.evaluate import distances

from .conftest import hand, new_game, put, turn_of


def _two(grid):  # frodo (a Hobbit) and rider1 (a Black Rider), frodo to move
    g = new_game(grid, players=2, seed=3)
    names = {p.kind: p.name for p in g.seats}
    turn_of(g, names["hobbit"])
    put(g, names["rider"], "r0c3")
    return g, names["hobbit"]


def test_the_ring_outweighs_any_hand_and_counts_more_near_the_goal(grid) -> None:
    g, me = _two(grid)
    cards = [c for c in g.draw_pile if c != "the_ring"][:10]
    put(g, me, "r0c0")
    hand(g, me, *cards)
    full_hand = g.evaluate(me)
    hand(g, me, "the_ring")
    far = g.evaluate(me)
    put(g, me, "r3c3")
    near = g.evaluate(me)
    g._by[me].goal_wait = True
    put(g, me, "r4c4")
    waiting = g.evaluate(me)
    assert full_hand is not None and far is not None and near is not None
    assert waiting is not None
    assert full_hand < far < near < waiting <= 1.0


def test_a_city_counts_only_while_the_player_may_pick_up_there(grid) -> None:
    g, me = _two(grid)
    put(g, me, "r0c2")  # Rivendell
    fresh = g.evaluate(me)
    g._by[me].cities = ["r0c2", "r2c0"]  # then at one other: two others first
    used = g.evaluate(me)
    g._by[me].cities = ["r2c0", "r0c2"]  # picked up here just now: not worse than passing
    just = g.evaluate(me)
    assert fresh is not None and used is not None and fresh > used
    assert just == fresh


def test_greedy_carries_the_ring_towards_the_goal(grid) -> None:
    g, me = _two(grid)
    put(g, me, "r1c1")
    hand(g, me, "the_ring")
    dist = distances(grid, "cracks_of_doom")
    move = make_bot("greedy", seed=1).choose(g)
    g.push(move)
    assert dist[g._by[me].pos] < dist["r1c1"], str(move)


def test_the_evaluation_reads_only_the_players_view(grid) -> None:
    g, me = _two(grid)
    """The opponent holds The Ring here, not in the world dealt from frodo's view."""
    other = next(p for p in g.seats if p.name != me)
    hand(g, other.name, "the_ring", *[c for c in g.draw_pile if c != "the_ring"][:3])
    world = g.determinise(me, random.Random(2))
    assert "the_ring" not in world._by[other.name].hand
    assert g.evaluate(me) == world.evaluate(me)


def test_worlds_deal_the_ring_to_whom_the_player_last_saw_holding_it(grid) -> None:
    g, me = _two(grid)
    other = next(p for p in g.seats if p.name != me)
    hand(g, other.name, "the_ring", *[c for c in g.draw_pile if c != "the_ring"][:3])
    g._reveal(g._by[me], other.name, other.hand, "palantir")
    worlds = [g.determinise(me, random.Random(k)) for k in range(5)]
    assert all("the_ring" in w._by[other.name].hand for w in worlds)
    hand(g, other.name, *[c for c in g.draw_pile if c != "the_ring"][:4])
    g._reveal(g._by[me], other.name, other.hand, "palantir")  # seen again: gone
    worlds = [g.determinise(me, random.Random(k)) for k in range(5)]
    assert not all("the_ring" in w._by[other.name].hand for w in worlds)
