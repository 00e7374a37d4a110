"""The reduction of a compiled board to the rotation problem: symmetry and connectivity."""

from __future__ import annotations

import random

import networkx as nx
import pytest

from referee.compiler import compile_board
from referee.errors import UnknownNodeError, UsageError
from referee.rotations import build_problem, census, turn_classes
from referee.rotations.generate import grid_board

START = {"start": "white"}
GOAL = {"goal": True}


def _oracle(compiled, problem, turns):
    """Connectivity from the compiler itself: turn the tiles, walk the path edges."""
    for pid, t in turns.items():
        compiled.turn(pid, t)
    g = nx.Graph()
    g.add_nodes_from(compiled.graph.nodes)
    for u, v, d in compiled.graph.edges(data=True):
        if d["relation"] != "path":
            continue
        if problem.spider == "closed" and d.get("guard") == "spider":
            continue
        g.add_edge(u, v)
    if problem.galleries:
        doors = [
            n
            for n, d in compiled.graph.nodes(data=True)
            if d["kind"] == "door" and d.get("symbol") == problem.galleries
        ]
        g.add_edges_from((doors[0], d) for d in doors[1:])
    reach: set[str] = set()
    for s in problem.sources:
        reach |= nx.node_connected_component(g, s)
    ok = all(t in reach for t in problem.to_nodes)
    return ok, sum(1 for n in reach if compiled.graph.nodes[n]["kind"] == "point")


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("galleries,spider", [(None, "open"), ("moon", "closed"), ("star", "open")])
def test_reduction_matches_the_compiler_on_random_configurations(seed, galleries, spider):
    """Every turn of every class gives what the compiler's own path graph gives."""
    board = grid_board(4, 4, 5, seed)
    compiled = compile_board(board)
    problem = build_problem(compiled, galleries=galleries, spider=spider)
    rng = random.Random(seed)
    for _ in range(12):
        choice = [rng.randrange(len(t.classes)) for t in problem.tiles]
        turns = {t.placement: rng.choice(t.classes[c].turns) for t, c in zip(problem.tiles, choice)}
        assert problem.evaluate(choice) == _oracle(compiled, problem, turns)


@pytest.mark.parametrize("seed", range(3))
def test_from_and_to_nodes_on_turning_tiles(seed):
    """--from / --to may name points on tiles that turn; they turn with their tile."""
    board = grid_board(4, 4, 6, seed)
    compiled = compile_board(board)
    turning = [p.id for p in board.placements if board.tile_of(p).turnable]
    problem = build_problem(
        compiled, sources=[f"{turning[0]}/pt0"], targets=[f"{turning[-1]}/pt0", "c33/pt0"]
    )
    rng = random.Random(seed)
    for _ in range(12):
        choice = [rng.randrange(len(t.classes)) for t in problem.tiles]
        turns = {t.placement: rng.choice(t.classes[c].turns) for t, c in zip(problem.tiles, choice)}
        assert problem.evaluate(choice) == _oracle(compiled, problem, turns)


def test_symmetry_compares_ports_and_feature_ids(tile_board):
    """A straight path looks the same after a half turn; an L never does; a crossing of
    four paths at one point always does; two separate straight paths swap their points
    on a quarter turn, which is a different configuration."""
    b = tile_board(
        {
            (0, 0): ([("NS", {})], True, 0),
            (0, 1): ([("NE", {})], True, 0),
            (0, 2): ([("NESW", {})], True, 0),
            (0, 3): ([("NS", {}), ("EW", {})], True, 0),
        }
    )
    assert turn_classes(b, "c00") == [[0, 2], [1, 3]]
    assert turn_classes(b, "c01") == [[0], [1], [2], [3]]
    assert turn_classes(b, "c02") == [[0, 1, 2, 3]]
    assert turn_classes(b, "c03") == [[0, 2], [1, 3]]


def test_distinct_configurations_count_each_class_once(tile_board):
    b = tile_board(
        {
            (0, 0): ([("E", START)], False, 0),
            (0, 1): ([("WE", {})], True, 0),
            (0, 2): ([("WS", {})], True, 0),
            (0, 3): ([("W", GOAL)], False, 0),
        }
    )
    res = census(compile_board(b))
    assert res.total == 2 * 4
    assert {t.placement: t.classes for t in res.tiles} == {
        "c01": [[0, 2], [1, 3]],
        "c02": [[0], [1], [2], [3]],
    }


def test_galleries_join_doors_of_the_card_symbol(tile_board):
    """Ruling 5: 'while the face-up card shows symbol X, a light figure that reaches a door
    of symbol X may continue from any other door of symbol X, as if a path joined them.'"""
    b = tile_board(
        {
            (0, 0): ([("E", {**START, "door": "moon"})], False, 0),
            (0, 1): ([("NE", {})], True, 0),
            (1, 1): ([("N", {**GOAL, "door": "moon"})], False, 0),
            (1, 0): ([("E", {"door": "star"})], False, 0),
        }
    )
    c = compile_board(b)
    assert census(c, galleries="moon").success == 4
    # without the moon gallery the goal needs the turnable tile to join W (start) and
    # S (goal): one turn of four; the lone star door leads nowhere
    assert census(c, galleries=None).success == 1
    assert census(c, galleries="star").success == 1


def test_spider_path_open_or_closed(tile_board):
    """Ruling 6: only some Hobbits may pass the spider's path; --spider closed counts it
    as impassable, open as a path."""
    b = tile_board(
        {
            (0, 0): ([("E", START)], False, 0),
            (0, 1): ([("WE", {})], True, 0),
            (0, 2): ([("W", {**GOAL, "guard": "spider"})], False, 0),
        }
    )
    c = compile_board(b)
    assert census(c, spider="open").success == 1
    assert census(c, spider="closed").success == 0


def test_waterways_count_for_light_figures(tile_board):
    """Ruling 2: a coloured figure leaves along any path, 'waterways included'."""
    b = tile_board(
        {
            (0, 0): ([("E", {**START, "medium": "water"})], False, 0),
            (0, 1): ([("W", GOAL)], False, 0),
        }
    )
    res = census(compile_board(b))
    assert (res.total, res.success) == (1, 1)


def test_bad_nodes_and_tiles_are_named(tile_board):
    b = tile_board({(0, 0): ([("E", {})], True, 0)})
    c = compile_board(b)
    with pytest.raises(UsageError, match="no white starting point"):
        build_problem(c)
    with pytest.raises(UnknownNodeError, match="nowhere"):
        build_problem(c, sources=["nowhere"], targets=["c00/pt0"])
    with pytest.raises(UnknownNodeError, match="c99"):
        build_problem(c, sources=["c00/pt0"], targets=["c00/pt0"], tiles=["c99"])
    with pytest.raises(UsageError, match="port"):
        build_problem(c, sources=["c00/pE"], targets=["c00/pt0"])


def test_generated_boards_of_11_or_more_rows_have_distinct_tile_ids():
    """c1 + 11 and c11 + 1 once both read c111: a 12 x 12 board had 9 placements
    sharing an id, so the census varied the wrong tiles."""
    big = grid_board(12, 11, 30, seed=2)
    ids = [p.id for p in big.placements]
    assert len(ids) == len(set(ids)) == 12 * 11
    assert len(big.tiles) == 12 * 11
    assert {"c0000", "c0110", "c1101", "c1110"} <= set(ids)
    # boards up to 10 x 10 keep their single-digit ids (c99 bottom right)
    small = grid_board(10, 10, 80, seed=5, asymmetric=True)
    assert {p.id for p in small.placements} == {f"c{i}{j}" for i in range(10) for j in range(10)}
