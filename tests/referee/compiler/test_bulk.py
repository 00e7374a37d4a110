"""The bulk graph loaders give the graph networkx's own methods give; ``round_all`` gives
``round``'s floats; the collector pause."""

from __future__ import annotations

import gc

import networkx as nx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.compiler import compile_board
from referee.compiler.bulk import add_edges, add_nodes, collector_paused, round_all
from referee.generators import voronoi_map

names = st.sampled_from(["a", "b", "c", "d", "e"])
attrs = st.dictionaries(st.sampled_from(["kind", "x", "relation", "border"]), st.integers(0, 3))
ops = st.lists(
    st.one_of(
        st.tuples(st.just("node"), names, attrs),
        st.tuples(st.just("edge"), st.tuples(names, names, st.sampled_from(["k1", "k2"])), attrs),
    ),
    max_size=25,
)


def _same(g: nx.MultiGraph, h: nx.MultiGraph) -> None:
    assert list(g.nodes(data=True)) == list(h.nodes(data=True))
    assert sorted(g.edges(keys=True, data=True)) == sorted(h.edges(keys=True, data=True))
    assert nx.utils.graphs_equal(g, h)
    for u, nbrs in g._adj.items():
        for v, keyed in nbrs.items():
            assert g._adj[v][u] is keyed  # one key dict shared by both ends


@settings(max_examples=200, deadline=None)
@given(ops)
def test_bulk_loaders_equal_networkx(seq) -> None:
    """Any mix of new and repeated nodes and edges (loops, missing ends, repeated keys)."""
    ours, theirs = nx.MultiGraph(), nx.MultiGraph()
    for kind, what, data in seq:
        if kind == "node":
            add_nodes(ours, [(what, dict(data))])
            theirs.add_nodes_from([(what, dict(data))])
        else:
            u, v, key = what
            add_edges(ours, [(u, v, key, "touch", data)])
            theirs.add_edges_from([(u, v, key, data)])
    _same(ours, theirs)


def test_edge_attributes_are_copied_not_shared() -> None:
    g = nx.MultiGraph()
    data = {"relation": "touch", "border": 2.0}
    add_edges(g, [("a", "b", "touch:a|b", "touch", data)])
    data["border"] = 9.0
    assert g.edges["a", "b", "touch:a|b"]["border"] == 2.0


def test_a_compiled_region_map_equals_one_built_by_networkx(monkeypatch) -> None:
    """compile_board with the bulk loaders and with networkx's methods: the same graph."""
    board = voronoi_map(400, seed=3, rivers=3, roads=3)
    ours = compile_board(board)
    import referee.compiler.compiled as compiled

    monkeypatch.setattr(compiled, "add_nodes", lambda g, nodes: g.add_nodes_from(nodes))
    monkeypatch.setattr(
        compiled,
        "add_edges",
        lambda g, edges: g.add_edges_from((e[0], e[1], e[2], e[4]) for e in edges),
    )
    monkeypatch.setattr(compiled, "round_all", lambda xs, nd: [round(float(x), nd) for x in xs])
    theirs = compile_board(board)
    _same(ours.graph, theirs.graph)
    assert [p.code for p in ours.problems] == [p.code for p in theirs.problems]


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.one_of(
            st.floats(allow_nan=True, allow_infinity=True),
            st.floats(-1e4, 1e4),
            # exact halves at the 6th decimal (k / 128 and friends) and their neighbours
            st.integers(-(10**6), 10**6).map(lambda k: k / 128),
            st.integers(0, 10**9).map(lambda k: (k + 0.5) / 10**6),
        ),
        max_size=40,
    ),
    st.integers(0, 9),
)
def test_round_all_is_round_bit_for_bit(xs: list[float], nd: int) -> None:
    got = round_all(xs, nd)
    want = [round(x, nd) for x in xs]
    assert [repr(g) for g in got] == [repr(w) for w in want]


@pytest.mark.parametrize("enabled", [True, False])
def test_collector_paused_restores_the_collector_as_it_was(enabled: bool) -> None:
    was = gc.isenabled()
    try:
        (gc.enable if enabled else gc.disable)()
        with pytest.raises(RuntimeError), collector_paused():
            assert not gc.isenabled()
            raise RuntimeError("a compile that fails")
        assert gc.isenabled() is enabled
    finally:
        (gc.enable if was else gc.disable)()
