"""``CompiledBoard.point_graph()``: points and the steps between them, junctions resolved.

Checked against an independent reading of the compiled networkx graph: two points
are neighbours when a chain of ``path`` edges joins them whose inner nodes are no
points (junctions, doors, dead ends, ports).
"""

from __future__ import annotations

import networkx as nx
import pytest

from referee.compiler import CompiledBoard, PointGraph, compile_board
from referee.store import load_project

from ...conftest import shipped_project


def independent_neighbours(c: CompiledBoard) -> dict[str, set[str]]:
    paths = nx.Graph()
    paths.add_nodes_from(c.graph.nodes)
    paths.add_edges_from((u, v) for u, v, d in c.graph.edges(data=True) if d["relation"] == "path")
    points = {n for n, d in c.graph.nodes(data=True) if d["kind"] == "point"}
    out: dict[str, set[str]] = {}
    for p in points:
        inner = paths.subgraph((set(paths) - points) | {p})
        reach = nx.node_connected_component(inner, p)
        out[p] = {q for n in reach for q in paths[n] if q in points and q != p}
    return out


def as_ids(g: PointGraph) -> dict[str, set[str]]:
    return {g.ids[p]: {g.ids[q] for q in qs} for p, qs in g.neighbours.items()}


@pytest.fixture
def ringgeister() -> CompiledBoard:
    return compile_board(load_project(shipped_project("ringgeister")))


def test_points_join_through_junctions_doors_and_ports(ringgeister: CompiledBoard) -> None:
    g = ringgeister.point_graph()
    assert len(g.points) == 144
    assert as_ids(g) == independent_neighbours(ringgeister)
    through = [
        (p, q)
        for p, qs in as_ids(g).items()
        for q in qs
        if not ringgeister.graph.has_edge(p, q)  # no direct path: a junction or port between
    ]
    assert through, "the sample board joins some points only through junctions or ports"
    exported = g.to_networkx()
    assert set(exported) == {g.ids[p] for p in g.points}
    assert {frozenset(e) for e in exported.edges} == {
        frozenset((p, q)) for p, qs in as_ids(g).items() for q in qs
    }


def test_a_turned_tile_gives_the_new_steps(ringgeister: CompiledBoard) -> None:
    before = as_ids(ringgeister.point_graph())
    assert ringgeister.point_graph() is ringgeister.point_graph()  # kept while nothing turns
    turnable = [p.id for p in ringgeister.board.placements if ringgeister.board.tile_of(p).turnable]
    ringgeister.turn(turnable[0], ringgeister.board.placement(turnable[0]).turns + 1)
    after = as_ids(ringgeister.point_graph())
    assert after == independent_neighbours(ringgeister)
    assert after != before


def test_steps_from_counts_steps_breadth_first(ringgeister: CompiledBoard) -> None:
    g = ringgeister.point_graph()
    src = g.points[0]
    near = g.steps_from(src, 2)
    assert near[src] == 0
    assert {q for q, k in near.items() if k == 1} == set(g.neighbours[src])
    assert all(k <= 2 for k in near.values())
    lengths = nx.single_source_shortest_path_length(g.to_networkx(), g.ids[src], cutoff=2)
    assert {g.ids[q]: k for q, k in near.items()} == lengths
