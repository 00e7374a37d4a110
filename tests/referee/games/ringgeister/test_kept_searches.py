"""Searches a game keeps between moves never go stale.

A push keeps the searches made once its state is final (can the turn's other figure
move?) for the next ``legal_moves``, and tile turns re-link the shared board view; after
every move of random games on the default board the legal moves, and what each of them
does, equal those of the same state read afresh from its JSON.
"""

from __future__ import annotations

import random
from pathlib import Path

from referee.compiler import compile_board
from referee.games.ringgeister import RinggeisterGame
from referee.store import load_project

PROJECT = Path(__file__).resolve().parents[4] / "projects" / "ringgeister"


def test_legal_moves_after_each_push_equal_a_fresh_read():
    compiled = compile_board(load_project(PROJECT))
    turned = 0
    for seed in range(1, 5):
        g = RinggeisterGame.new(
            compiled, players=4, seed=seed, options={"counter_placement": "random"}
        )
        rnd = random.Random(seed)
        for _ in range(400):
            twin = RinggeisterGame.from_json(g.to_json(), compiled)
            moves = [str(m) for m in g.legal_moves]
            assert moves == [str(m) for m in twin.legal_moves]
            if not moves or g.outcome is not None:
                break
            m = rnd.choice(moves)
            before = dict(g.tile_turns)
            assert g.push(g.parse_move(m)) == twin.push(twin.parse_move(m))
            turned += g.tile_turns != before
    assert turned >= 2  # the games went through tile turns
