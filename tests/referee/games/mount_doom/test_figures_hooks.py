"""Adventure to Mount Doom's frontend hooks: ``figures()`` and ``move_targets()``.

Companions stand on the route's track points (or the rally space), the One Ring on
the resolve track, Nazgûl at Minas Morgul, Uruk-hai at Isengard. The moves a
frontend offers on the board are the decisions that move a companion (``advance C N``
with N > 0, ``use CARD C N`` for cards that move one); playing one must put the
companion exactly where ``move_targets`` said (checked by playing it on a copy).
"""

from __future__ import annotations

import random
from functools import lru_cache
from pathlib import Path

import pytest

from referee.compiler import CompiledBoard, compile_board
from referee.games.mount_doom.game import MountDoom
from referee.games.mount_doom.layout import COMPANIONS
from referee.games.mount_doom.state import RALLY
from referee.store import load_project

ROOT = Path(__file__).resolve().parents[4]
PROJECT = ROOT / "projects" / "mount-doom"


@lru_cache(maxsize=1)
def compiled() -> CompiledBoard:
    return compile_board(load_project(PROJECT))


def first_figure_move(events: list[dict]) -> tuple[str, str] | None:
    for ev in events:
        if ev.get("type") == "move":
            return ev["who"], ev["to"]
        if ev.get("type") == "rally":
            return ev["who"], "rally"
    return None


def check_hooks(g: MountDoom) -> int:
    graph, lay = g.compiled.graph, g.lay
    figs = g.figures()
    for f in figs.values():
        assert f.node in graph, f"{f.id} stands on {f.node}, not a node of the board"
    for c in COMPANIONS:
        assert figs[c].node == (lay.rally if g.pos[c] == RALLY else lay.route[g.pos[c]])
    assert figs["one-ring"].node == lay.resolve[g.ring]
    assert sum(1 for f in figs if f.startswith("nazgul-")) == g.nazgul - 1
    assert sum(1 for f in figs if f.startswith("uruk-hai-")) == g.uruk + (1 if g.leader else 0)
    targets = g.move_targets()
    listed = {}
    for fid, by_node in targets.items():
        assert fid in COMPANIONS
        for node, moves in by_node.items():
            assert node in graph and moves
            for m in moves:
                assert g.is_legal(m), f"{m} is listed but illegal"
                listed[m] = (fid, node)
    # oracle: play every legal decision on a copy; the ones the player chooses that
    # move a companion must be listed, at the node he ends on
    for m in g.legal_moves:
        chooses = m.verb == "advance" or (
            m.verb == "use" and len(m.args) == 3 and m.args[1] in COMPANIONS
        )
        ref = g.copy()
        moved = first_figure_move(ref.push(m))
        if chooses and moved is not None:
            who, to = moved
            assert listed.get(m) == (who, lay.rally if to == "rally" else to), str(m)
        else:
            assert m not in listed, f"{m} is listed but moves no companion"
    return len(listed)


@pytest.mark.parametrize("seed", [1, 5, 9])
def test_targets_are_the_companion_moves_and_land_there(seed: int) -> None:
    """'An empty position shows a companion: he may move 0, 1 or 2 spaces' and cards
    that move a companion: each offered on the space he lands on (the Ring-bearer stops
    on the stage goal; past Minas Morgul a companion goes to the rally space)."""
    g = MountDoom.new(compiled(), players=2, seed=seed)
    rng = random.Random(seed)
    total = 0
    for _ in range(120):
        if g.outcome is not None:
            break
        total += check_hooks(g)
        g.push(rng.choice(list(g.legal_moves)))
    assert total > 0
