"""Turning tiles: identities and incremental re-linking (hypothesis)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from shapely.geometry import LineString, Point, Polygon

from referee.compiler import compile_board
from referee.compiler.paths import PathNetwork
from referee.generators import tile_grid
from referee.geometry import turn_and_move, turn_bearing

coord = st.floats(-500, 500, allow_nan=False, allow_infinity=False)


@given(st.lists(st.tuples(coord, coord), min_size=2, max_size=8))
def test_four_quarter_turns_are_the_identity(pts):
    line = LineString(pts)
    g = line
    for _ in range(4):
        g = turn_and_move(g, 1, 4)
    assert list(g.coords) == list(line.coords)  # exact: quarter turns use integer matrices


@given(st.lists(st.tuples(coord, coord), min_size=2, max_size=8), st.integers(0, 12))
def test_k_single_turns_equal_one_turn_by_k(pts, k):
    line = LineString(pts)
    g = line
    for _ in range(k):
        g = turn_and_move(g, 1, 4)
    assert list(g.coords) == list(turn_and_move(line, k, 4).coords)


@given(st.sampled_from("NESW"), st.integers(0, 3))
def test_wind_letters_turn_with_the_tile(letter, k):
    once = letter
    for _ in range(k):
        once = turn_bearing(once, 1, 4)
    assert once == turn_bearing(letter, k, 4)
    assert turn_bearing(turn_bearing(letter, k, 4), 4 - k, 4) == letter


def test_quarter_turn_maps_north_to_east_on_screen():
    """The board model (README.md): a quarter turn clockwise maps (x, y) to (−y, x); N→E→S→W."""
    assert turn_and_move(Point(0, -10), 1, 4).coords[0] == (10, 0)
    assert turn_bearing("N", 1, 4) == "E" and turn_bearing("W", 1, 4) == "N"


def test_hexagon_sixth_turns_return_home():
    p = Polygon([(0, 0), (10, 0), (10, 10)])
    g = p
    for _ in range(6):
        g = turn_and_move(g, 1, 6)
    assert g.equals_exact(p, 1e-9)


def snapshot(cb):
    return (
        cb.edge_set(),
        {n: tuple(sorted(d.items())) for n, d in cb.graph.nodes(data=True)},
        sorted(str(p) for p in cb.problems),
    )


@settings(max_examples=40, deadline=None)
@pytest.mark.slow
@given(
    seed=st.integers(0, 10_000),
    turns=st.lists(st.tuples(st.integers(0, 8), st.integers(0, 3)), min_size=1, max_size=12),
)
def test_incremental_relink_equals_a_full_recompile(seed, turns):
    board = tile_grid(3, 3, seed=seed)
    cb = compile_board(board)
    for idx, t in turns:
        cb.turn(f"t{idx}", t)
        fresh = compile_board(cb.board.copy())
        assert snapshot(cb) == snapshot(fresh)


def test_node_ids_and_counts_stay_stable_through_four_turns():
    board = tile_grid(3, 4, seed=7)
    cb = compile_board(board)
    stable = {n for n, d in cb.graph.nodes(data=True) if d["kind"] in ("point", "junction")}
    for p in board.placements:
        for _t in range(4):
            cb.turn(p.id, (p.turns + 1) % 4)
            assert stable <= set(cb.graph.nodes)
    assert stable == {n for n, d in cb.graph.nodes(data=True) if d["kind"] in ("point", "junction")}


def path_rows(cb):
    """The path view by node id and path key (edge numbers depend on the turns seen)."""
    pv = cb.path_view()
    return {
        cb.ids[i]: [
            (pv.keys[e], cb.ids[o], b_out, b_in, pv.water[e], pv.guard[e])
            for e, o, b_out, b_in in row
        ]
        for i, row in enumerate(pv.inc)
    }


@settings(max_examples=30, deadline=None)
@pytest.mark.slow
@given(
    seed=st.integers(0, 10_000),
    turns=st.lists(st.tuples(st.integers(0, 8), st.integers(0, 3)), min_size=1, max_size=10),
)
def test_path_view_relinked_by_turns_equals_a_fresh_one(seed, turns):
    """Rows a turn rebuilds (and those it keeps) equal a fresh compile's, in key order."""
    board = tile_grid(3, 3, seed=seed)
    cb = compile_board(board)
    before = cb.path_view()
    kept = [list(row) for row in before.inc]
    for idx, t in turns:
        cb.turn(f"t{idx}", t)
        assert path_rows(cb) == path_rows(compile_board(cb.board.copy()))
    # views of earlier turns stay as they were (game views keep them per configuration)
    assert [list(row) for row in before.inc] == kept


def chains(net):
    return {k: (c.u, c.v, c.bear_u, c.bear_v, c.medium, c.guard) for k, c in net.chains.items()}


@settings(max_examples=30, deadline=None)
@pytest.mark.slow
@given(
    seed=st.integers(0, 10_000),
    storms=st.lists(
        st.dictionaries(st.integers(0, 8), st.integers(0, 3), min_size=1, max_size=9),
        min_size=1,
        max_size=6,
    ),
)
def test_a_network_with_turns_of_its_own_relinks_storms_like_a_full_link(seed, storms):
    """A network that keeps turns of its own (a game's, see the Ringgeister view) and turns
    several tiles at once links like a network built at those turns, and the end nodes
    it reports cover every node whose chains changed; the board is not turned."""
    board = tile_grid(3, 3, seed=seed)
    cb = compile_board(board)
    laid = {p.id: p.turns for p in board.placements}
    net = cb.paths.copy(laid)
    turns = dict(laid)
    for storm in storms:
        change = {f"t{i}": t for i, t in storm.items()}
        before = {n: set(net.ends_at(n)) for n in net._by_end}
        ends: set[str] = set()
        net.turn_many(change, ends)
        turns.update(change)
        fresh = PathNetwork(board, cb.tol, turns)
        assert chains(net) == chains(fresh)
        assert net.port_nodes == fresh.port_nodes
        for n in set(before) | set(net._by_end):
            if before.get(n, set()) != set(net.ends_at(n)):
                assert n in ends, n
    assert {p.id: p.turns for p in board.placements} == laid
