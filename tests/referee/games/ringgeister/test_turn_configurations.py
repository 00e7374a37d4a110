"""Copies with different tile turns share one compiled board and its view.

The view keeps the arrays of recently seen turn configurations and the compiled board
is turned lazily (see ``RinggeisterGame._claim``). Whatever order copies are used in,
each must behave exactly like a fresh game read from its JSON on a board of its own.
"""

from __future__ import annotations

import random

import pytest

from referee.compiler import CompiledBoard, compile_board
from referee.games.ringgeister import RinggeisterGame
from referee.games.ringgeister import view as view_module
from referee.games.ringgeister.sample import sample_board


def copies_with_different_turns(c: CompiledBoard, want: int = 5) -> list[RinggeisterGame]:
    """Copies of random games taken whenever storms or Spirits have turned tiles."""
    out: list[RinggeisterGame] = []
    for seed in range(20):
        g = RinggeisterGame.new(c, players=4, seed=seed, options={"counter_placement": "random"})
        rnd = random.Random(seed)
        out.append(g.copy())
        for _ in range(3000):
            moves = list(g.legal_moves)
            if not moves or g.outcome is not None or len(out) >= want:
                break
            g.push(rnd.choice(moves))
            if g.tile_turns != out[-1].tile_turns:
                out.append(g.copy())
        if len(out) >= want:
            break
    out = list({tuple(sorted(x.tile_turns.items())): x for x in out}.values())
    assert len({tuple(sorted(x.tile_turns.items())) for x in out}) == len(out) >= 3
    return out


def fresh(g: RinggeisterGame) -> RinggeisterGame:
    """The same state on a compiled board of its own."""
    return RinggeisterGame.from_json(g.to_json(), compile_board(sample_board(4, 4, 1)))


def by_key(g: RinggeisterGame, name: str) -> list[list[tuple[object, ...]]]:
    """The rows of one incidence array with edge numbers replaced by path keys.

    (Edge numbers depend on the turns a compiled board has seen; keys do not.)
    """
    v = g.v
    keys = v.compiled.path_view().keys
    if name in ("open_inc", "safe_inc"):  # (edge, (other end, edge))
        return [[(keys[e], k[0]) for e, k in row] for row in getattr(v, name)]
    return [[(keys[t[0]], *t[1:]) for t in row] for row in getattr(v, name)]


@pytest.mark.parametrize("kept", [256, 1])
def test_alternating_copies_play_like_fresh_games(kept, monkeypatch):
    """Legal moves and the results of moves match fresh games, however copies alternate.

    With one configuration kept, every switch re-links the shared board (the slow
    path); with many, switches come from the cache.
    """
    monkeypatch.setattr(view_module, "CONFIGS_KEPT", kept)
    c = compile_board(sample_board(4, 4, 1))
    games = copies_with_different_turns(c)
    rnd = random.Random(7)
    for _ in range(3):
        order = games[:] + games[::-1]
        rnd.shuffle(order)
        for g in order:
            if g.outcome is not None:
                continue
            twin = fresh(g)
            moves = [str(m) for m in g.legal_moves]
            assert moves == [str(m) for m in twin.legal_moves]
            for name in ("kind", "x", "y", "wind", "heading"):
                assert getattr(g.v, name) == getattr(twin.v, name), name
            for name in ("inc", "land_inc", "open_inc", "safe_inc"):
                assert by_key(g, name) == by_key(twin, name), name
            if not moves:
                continue
            m = rnd.choice(moves)
            assert g.push(g.parse_move(m)) == twin.push(twin.parse_move(m))
            assert g.to_json() == twin.to_json()
    assert len(c.derived("ringgeister.view", lambda: None).configs) <= kept  # type: ignore[union-attr]


def test_the_compiled_board_of_a_copy_carries_its_turns():
    """Reading ``game.compiled`` gives the board at that game's turns, as a fresh compile."""
    c = compile_board(sample_board(4, 4, 1))
    games = copies_with_different_turns(c, want=3)
    for g in games[::-1] + games:
        list(g.legal_moves)
    for g in [games[0], games[-1], games[1]]:
        board = sample_board(4, 4, 1)
        for p in board.placements:
            p.turns = g.tile_turns[p.id]
        assert g.compiled.edge_set() == compile_board(board).edge_set()
