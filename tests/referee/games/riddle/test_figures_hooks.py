"""Riddle of the Ring's frontend hooks: ``figures()`` and ``move_targets()``.

The markers stand on spaces and river dots of the compiled board; the destinations a
frontend offers for the player's marker are exactly the legal ``move``/``ride``/
``fly``/``hop``/``place`` moves, grouped by the node they end on, and playing one
puts the marker on that node.
"""

from __future__ import annotations

import random
from functools import lru_cache
from pathlib import Path

import pytest

from referee.compiler import CompiledBoard, compile_board
from referee.games.riddle.game import RiddleGame
from referee.store import load_project

ROOT = Path(__file__).resolve().parents[4]
SAMPLE = ROOT / "projects" / "riddle-sample"
MOVING = ("move", "ride", "fly", "hop", "place")


@lru_cache(maxsize=1)
def compiled() -> CompiledBoard:
    return compile_board(load_project(SAMPLE))


def check_hooks(g: RiddleGame, rng: random.Random, simulate: int = 4) -> int:
    graph = g.compiled.graph
    figs = g.figures()
    for p in g.seats:
        on_board = p.pos is not None and p.status in ("board", "captive") and not p.out
        assert (p.name in figs) == on_board
        if on_board:
            assert figs[p.name].node == p.pos and figs[p.name].owner == p.name
    for f in figs.values():
        assert f.node in graph, f"{f.id} stands on {f.node}, not a node of the board"
    targets = g.move_targets()
    listed = {}
    for fid, by_node in targets.items():
        assert fid == g.me.name  # only the deciding player's marker
        for node, moves in by_node.items():
            assert node in graph and moves
            for m in moves:
                assert g.is_legal(m), f"{m} is listed but illegal"
                listed[m] = node
    assert set(listed) == {m for m in g.legal_moves if m.verb in MOVING}
    for m in rng.sample(sorted(listed, key=str), min(simulate, len(listed))):
        ref = g.copy()
        ref.push(m)
        assert ref.player(g.me.name).pos == listed[m], f"{m} did not end on {listed[m]}"
    return len(listed)


@pytest.mark.parametrize("seed", [3, 11])
def test_targets_are_the_legal_marker_moves_and_land_there(seed: int) -> None:
    """'Move your marker the number of spaces shown on the die' (Basic Game): after a
    roll every legal path is offered at the node it ends on (several paths or a flight
    to one node are all kept), and nothing is offered before the roll."""
    g = RiddleGame.new(compiled(), players=2, seed=seed)
    rng = random.Random(seed)
    assert g.move_targets() == {}  # roll first
    total = 0
    for _ in range(30):
        if g.outcome is not None:
            break
        total += check_hooks(g, rng)
        legal = list(g.legal_moves)
        moving = [m for m in legal if m.verb in MOVING]
        g.push(rng.choice(moving) if moving and rng.random() < 0.8 else rng.choice(legal))
    assert total > 50


def test_several_moves_to_one_node_are_all_returned() -> None:
    """A card flight and a walk may reach the same space: the frontend must be able to
    offer both, so ``move_targets`` keeps every legal move for a node."""
    for seed in range(1, 40):
        g = RiddleGame.new(compiled(), players=2, seed=seed)
        g.push_text("roll")
        multi = [ms for d in g.move_targets().values() for ms in d.values() if len(ms) > 1]
        if multi:
            for ms in multi:
                assert len(set(ms)) == len(ms) and all(g.is_legal(m) for m in ms)
                assert len({g.move_destination(m) for m in ms}) == 1
            return
    pytest.skip("no seed gave two moves to one node")
