"""The quick search for destinations finds what the search with routes finds."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from referee.compiler import compile_board
from referee.games.ringgeister import RinggeisterGame
from referee.games.ringgeister.search import can_move, destinations, route, search
from referee.store import load_project

PROJECT = Path(__file__).resolve().parents[4] / "projects" / "ringgeister"


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_destinations_and_routes_match_the_full_search(seed):
    """In random play on the default board (tiles turning, Gandalf crossing most of it),
    every figure's destinations equal the full search's (and it can move exactly when
    it has one), and the route to each
    destination, searched only as far as it, equals the full search's route."""
    compiled = compile_board(load_project(PROJECT))
    g = RinggeisterGame.new(compiled, players=4, seed=seed, options={"counter_placement": "random"})
    rnd = random.Random(seed)
    checked = 0
    for _ in range(300):
        moves = list(g.legal_moves)
        if not moves:
            break
        for f in g._movable():
            g._dest_cache.clear()
            assert can_move(g, f) == bool(destinations(g, f))
            quick = set(destinations(g, f))
            g._dest_cache.clear()
            full = search(g, f)
            assert quick == set(full[0])
            for d in list(quick)[:5]:
                g._dest_cache.clear()
                partial = route(g, f, d)
                g._dest_cache.clear()
                search(g, f)
                assert partial == route(g, f, d)
            g._dest_cache.clear()
            checked += 1
        g.push(rnd.choice(moves))
        if g.outcome is not None:
            break
    assert checked > 100
