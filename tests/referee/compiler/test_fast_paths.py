"""The compiler's fast paths (issue 30) give what the paths they replace gave: the stable
segment order, the ring segments without ring geometries, the river dots' spaces in one
query, the stacked matmul of the road pieces, the touch edges added in one step."""

from __future__ import annotations

import networkx as nx
import numpy as np
import shapely
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.compiler.bulk import add_edges, add_pair_edges
from referee.compiler.regions.adjacency import _ring_segments, _stable_order
from referee.compiler.regions.features import _dot_contacts
from referee.compiler.regions.spaces import RegionInput, _Spaces
from referee.generators import voronoi_map


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(0, 12), max_size=60))
def test_stable_order_is_the_stable_argsort(keys: list[int]) -> None:
    """Keys repeated once, twice (the quicksort path) or more (the merge sort)."""
    h = np.array(keys, dtype=np.uint64)
    assert _stable_order(h).tolist() == np.argsort(h, kind="stable").tolist()


def _rings_path(polys: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The ring segments as read before the fast path: a ring geometry per ring."""
    rings, ring_owner = shapely.get_rings(polys, return_index=True)
    coords, ring_idx = shapely.get_coordinates(rings, return_index=True)
    same = ring_idx[1:] == ring_idx[:-1]
    return np.hstack([coords[:-1][same], coords[1:][same]]), ring_owner[ring_idx[:-1][same]]


def test_ring_segments_with_and_without_holes() -> None:
    plain = [shapely.box(0, 0, 10, 10), shapely.box(10, 0, 20, 10), shapely.Polygon()]
    holed = plain + [shapely.box(0, 20, 30, 50).difference(shapely.box(5, 25, 10, 30))]
    multi = plain + [shapely.MultiPolygon([shapely.box(40, 0, 41, 1), shapely.box(43, 0, 44, 1)])]
    for polys in (plain, holed, multi, []):
        arr = np.array(polys, dtype=object)
        segs, owner = _ring_segments(arr)
        want_segs, want_owner = _rings_path(arr)
        assert segs.tolist() == want_segs.reshape(-1, 4).tolist()
        assert owner.tolist() == want_owner.tolist()
    assert len(_ring_segments(np.array(plain, dtype=object))[0]) == 8  # two boxes, 4 sides each


def test_dot_contacts_equal_a_query_per_dot() -> None:
    board = voronoi_map(200, seed=2, rivers=3, roads=0)
    inp = RegionInput(
        spaces=[(f.id, f.geometry, f.props) for f in board.features if f.kind == "space"]
    )
    sp = _Spaces.of(inp)
    dots = [f.geometry for f in board.features if f.kind == "river_dot"]
    # and some points inside spaces, on their outlines, and off the map
    dots += [shapely.Point(p) for p in [(5.0, 5.0), (-50.0, 3.0)]]
    dots += [sp.polys[i].representative_point() for i in range(0, 200, 17)]
    dots += [shapely.Point(sp.polys[7].exterior.coords[0])]
    got = _dot_contacts(sp, dots, 1.0)
    for g, (near, inside) in zip(dots, got):
        want = sorted(sp.tree.query(g, predicate="dwithin", distance=1.0).tolist())
        assert near == want
        assert inside == [
            i for i in want if sp.polys[i].contains(g) and sp.polys[i].exterior.distance(g) > 1.0
        ]
    assert any(len(near) == 3 for near, _ in got) and any(inside for _, inside in got)


def test_stacked_matmul_rounds_as_one_matmul_per_piece() -> None:
    """The road pieces' positions: NumPy's stacked matmul runs the per-matrix kernel."""
    rng = np.random.default_rng(7)
    ends = rng.uniform(-2000, 2000, (5000, 2, 2))
    d = rng.normal(size=(5000, 2))
    d /= np.hypot(d[:, 0], d[:, 1])[:, None]
    stacked = np.matmul(ends, d[:, :, None])[:, :, 0]
    one_by_one = np.array([ends[i] @ d[i] for i in range(len(d))])
    assert stacked.tolist() == one_by_one.tolist()


pairs = st.dictionaries(
    st.tuples(st.sampled_from("abcde"), st.sampled_from("abcdef")),
    st.fixed_dictionaries({"relation": st.just("touch"), "border": st.integers(0, 9)}),
    max_size=12,
)


@settings(max_examples=200, deadline=None)
@given(pairs, st.lists(st.tuples(st.sampled_from("abcd"), st.sampled_from("abcd")), max_size=4))
def test_add_pair_edges_equals_add_edges(
    touch: dict[tuple[str, str], dict[str, int]], before: list[tuple[str, str]]
) -> None:
    """Missing ends (``f`` is never a node), loops, edges already between the two ends."""
    ours, theirs = nx.MultiGraph(), nx.MultiGraph()
    for g in (ours, theirs):
        g.add_nodes_from("abcde")
        for u, v in before:
            g.add_edge(u, v, key=f"path:{u}{v}", relation="path")
    add_pair_edges(ours, touch, "touch")
    add_edges(theirs, [(u, v, f"touch:{u}|{v}", "touch", a) for (u, v), a in touch.items()])
    assert list(ours.nodes(data=True)) == list(theirs.nodes(data=True))
    for u in theirs._adj:
        assert list(ours._adj[u].items()) == list(theirs._adj[u].items())
        for v, keyed in ours._adj[u].items():
            assert ours._adj[v][u] is keyed
    for (u, v), a in touch.items():
        assert ours.edges[u, v, f"touch:{u}|{v}"] is not a  # a copy, as add_edges makes
