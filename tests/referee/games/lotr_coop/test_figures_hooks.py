"""The cooperative game's frontend hooks: ``figures()`` and ``move_targets()``.

Hobbits and Sauron stand on the Corruption line, the journey marker on the Master
board, the Activity and event markers on the Scenario board's lines. The moves a
frontend offers on the board are those that move one of them a known distance
(``play CARD [LINE]``, ``line L``, ``heal``, ``volunteer P``); playing one on a copy
must put the figure where ``move_targets`` said.
"""

from __future__ import annotations

import random
from functools import lru_cache
from pathlib import Path

import pytest

from referee.compiler import CompiledBoard, compile_board
from referee.games.lotr_coop.game import LotrCoop
from referee.store import load_project

ROOT = Path(__file__).resolve().parents[4]
PROJECT = ROOT / "projects" / "lotr-coop"
MOVING = ("play", "line", "heal", "volunteer")


@lru_cache(maxsize=1)
def compiled() -> CompiledBoard:
    return compile_board(load_project(PROJECT))


def landing(g: LotrCoop, m, events: list[dict]) -> tuple[str, str] | None:
    """Where the figure a move moves ended, read from the referee's own events
    (before a new Scenario resets the markers)."""
    lay, w = g.lay, (m.verb, *m.args)
    out = None
    for ev in events:
        if ev.get("type") in ("scenario", "journey"):
            break
        if (
            ev.get("type") == "marker"
            and w[0] in ("play", "line")
            and (out is None or out[0] == f"marker-{ev['line']}")
        ):
            out = (f"marker-{ev['line']}", ev["to"])
        if ev.get("type") == "corruption" and w[0] in ("heal", "volunteer") and out is None:
            out = (ev["player"], lay.corruption[ev["to"]])
    return out


def check_hooks(g: LotrCoop) -> int:
    graph = g.compiled.graph
    figs = g.figures()
    for f in figs.values():
        assert f.node in graph, f"{f.id} stands on {f.node}, not a node of the board"
    for p, name in enumerate(g.players):
        assert (name in figs) == g.alive[p]
    assert figs["sauron"].node == g.lay.corruption[g.sauron]
    targets = g.move_targets()
    listed = {}
    for fid, by_node in targets.items():
        for node, moves in by_node.items():
            assert node in graph and moves
            for m in moves:
                assert g.is_legal(m), f"{m} is listed but illegal"
                listed[m] = (fid, node)
    for m in g.legal_moves:
        ref = g.copy()
        got = landing(g, m, ref.push(m))
        if m.verb in MOVING and got is not None:
            assert listed.get(m) == got, str(m)
        else:
            assert m not in listed, f"{m} is listed but moves nothing"
    return len(listed)


@pytest.mark.parametrize("seed", [2, 7])
def test_targets_are_the_figure_moves_and_land_there(seed: int) -> None:
    """'Play a card: move the marker of its Activity line one space per symbol'; a
    joker names its line; 2b: 'move your Hobbit one step toward the light'. Each
    offered at the space the marker or Hobbit lands on, capped at the line's end."""
    g = LotrCoop.new(compiled(), players=3, seed=seed)
    rng = random.Random(seed)
    total = 0
    for _ in range(80):
        if g.outcome is not None:
            break
        total += check_hooks(g)
        g.push(rng.choice(list(g.legal_moves)))
    assert total > 0
