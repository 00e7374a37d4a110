"""Ringgeister's frontend hooks: ``figures()`` and ``move_targets()``.

A frontend draws what ``figures()`` returns and offers, for a clicked figure, the
destinations ``move_targets()`` lists; the rules decide everything, so every listed
move must be legal, every legal move that puts a figure (or a counter) on a point
must be listed, and every figure must stand on a node of the compiled board.
"""

from __future__ import annotations

import random
from functools import lru_cache

import pytest

from referee.compiler import CompiledBoard, compile_board
from referee.games.ringgeister import RinggeisterGame
from referee.games.ringgeister.frontend import FIGURE_COLOURS
from referee.games.ringgeister.sample import sample_board
from referee.vocabulary import FigureView


@lru_cache(maxsize=2)
def compiled(seed: int) -> CompiledBoard:
    return compile_board(sample_board(4, 4, seed))


def check_hooks(g: RinggeisterGame) -> dict[str, dict[str, list]]:
    graph = g.compiled.graph
    figs = g.figures()
    state = g.to_json()["state"]["figures"]
    counters = {
        f"counter-{c['id']}": c["space"] for c in g.counters if c["space"] and not c["removed"]
    }
    for fid, f in figs.items():
        assert isinstance(f, FigureView) and f.id == fid
        assert f.node in graph, f"{fid} stands on {f.node}, not a node of the board"
        assert {**state, **counters}[fid] == f.node  # the state's own positions
    assert set(figs) == {k for k, v in state.items() if v is not None} | set(counters)
    targets = g.move_targets()
    listed = set()
    for fid, by_node in targets.items():
        for node, moves in by_node.items():
            assert node in graph and moves
            for m in moves:
                assert g.is_legal(m), f"{m} is listed but illegal"
                assert (m.figure or "", m.to) == (fid, node)
                listed.add(m)
    placing = {m for m in g.legal_moves if m.kind in ("step", "home", "counter")}
    assert placing == listed
    return targets


@pytest.mark.parametrize("seed", [1, 2])
def test_targets_are_exactly_the_legal_figure_moves(seed: int) -> None:
    """'A coloured figure moves to the next free point' (ruling 1/2): every step the
    referee allows is offered on the board and nothing else; set-up counters and
    defeated figures going home are offered on the space/point they go to."""
    g = RinggeisterGame.new(
        compiled(seed), players=2, seed=seed, options={"counter_placement": "random"}
    )
    rng = random.Random(seed)
    seen_steps = 0
    for _ in range(40):
        if g.outcome is not None:
            break
        targets = check_hooks(g)
        seen_steps += sum(len(v) for d in targets.values() for v in d.values())
        legal = list(g.legal_moves)
        g.push(rng.choice(legal))
    assert seen_steps > 0


def test_figures_carry_side_owner_and_colour() -> None:
    """Coloured figures belong to their colour's player; Gandalf and the black
    figures to nobody; black figures are drawn dark, Gandalf white."""
    g = RinggeisterGame.new(compiled(1), players=2, seed=1, options={"counter_placement": "random"})
    figs = g.figures()
    specs = {s.id: s for s in g.specs}
    for fid, f in figs.items():
        if f.kind == "counter":
            continue
        s = specs[fid]
        assert f.side == s.side and f.size == s.size
        assert f.owner == (s.colour if s.coloured else None)
    assert figs["gandalf"].colour == FIGURE_COLOURS["white"]
    blacks = [f for f in figs.values() if f.side == "black"]
    assert blacks and all(f.colour == FIGURE_COLOURS["black"] for f in blacks)


def test_counter_setup_moves_are_placements() -> None:
    """Set-up (ruling 7): placing a mission counter is offered on its space, keyed by
    the empty figure id (no figure moves)."""
    g = RinggeisterGame.new(compiled(1), players=2, seed=1)
    if g.phase != "counters":
        pytest.skip("this board's set-up places no counters by hand")
    targets = check_hooks(g)
    assert set(targets) == {""}
    assert set(targets[""]) == {m.to for m in g.legal_moves if m.kind == "counter"}


def test_placed_counters_are_drawn_where_they_lie(tmp_path) -> None:
    """Rulebook 1.4: 'each player places his mission counter on a counter space' —
    once placed it lies there for everyone to see: figures() lists it on its space in
    its player's colour, and ``render --state`` and the table draw it there."""
    from referee.render import figures_svg, render_game

    g = RinggeisterGame.new(compiled(1), players=2, seed=1)
    if g.phase != "counters":
        pytest.skip("this board's set-up places no counters by hand")
    assert not [f for f in g.figures().values() if f.kind == "counter"]
    first = next(m for m in g.legal_moves if m.kind == "counter")
    g.push(first)
    counters = [f for f in g.figures().values() if f.kind == "counter"]
    assert len(counters) == 1
    c = counters[0]
    assert c.node == first.to and c.owner == "yellow"
    assert c.colour == FIGURE_COLOURS["yellow"]
    for svg in (render_game(g), figures_svg(g)):
        assert f'data-figure="{c.id}"' in svg
        assert "mission counter" in svg  # its title, read out on hover
