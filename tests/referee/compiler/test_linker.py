"""The integer linker re-links tile turns exactly as the reference path network links.

:class:`~referee.compiler.linker.TurnLinker` must give, at every turn configuration,
the rows :meth:`CompiledBoard.path_row` reads from a :class:`PathNetwork` linked
afresh at those turns, and report every row and port it changed. The boards are
random and meant to be awkward: paths from port to port through a tile (chains that
cross several tiles), loops, water and guarded paths, ports off the side's middle
(a turn connects other neighbours), free-standing frame paths between far sockets,
frame ports in inner sockets (three-way junctions) and ports facing nothing (dead
ends).
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
import shapely
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.compiler import CompiledBoard, compile_board
from referee.compiler import linker as linker_module
from referee.compiler.linker import (
    LinkerUnsupported,
    NetworkLinker,
    Row,
    TurnLinker,
    linker_for,
)
from referee.compiler.paths import PathNetwork
from referee.generators import tile_grid
from referee.model import Board, Feature, Placement, TileAsset
from referee.store import load_project

ROOT = Path(__file__).resolve().parents[3]
SIDE = 100.0
#: ports of a tile: side middles and a quarter off the middle, both ways (a quarter
#: turn maps the set onto itself)
PORTS = {
    "pN": (0.0, -50.0),
    "pE": (50.0, 0.0),
    "pS": (0.0, 50.0),
    "pW": (-50.0, 0.0),
    "pN+": (25.0, -50.0),
    "pE+": (50.0, 25.0),
    "pS+": (-25.0, 50.0),
    "pW+": (-50.0, -25.0),
    "pN-": (-25.0, -50.0),
    "pE-": (50.0, -25.0),
    "pS-": (25.0, 50.0),
    "pW-": (-50.0, 25.0),
}


def _path(fid: str, pts: list[tuple[float, float]], rnd: random.Random) -> Feature:
    props: dict[str, object] = {"medium": "water" if rnd.random() < 0.2 else "land"}
    if rnd.random() < 0.15:
        props["guard"] = "spider"
    return Feature(fid, "path", shapely.LineString(pts), props)


def awkward_tile(key: str, rnd: random.Random) -> TileAsset:
    """A square tile with ports on every side and a random tangle of paths."""
    feats = [Feature(p, "port", shapely.Point(*xy), {}) for p, xy in PORTS.items()]
    stops = {"c": (0.0, 0.0), "q": (-20.0, 20.0)}
    feats.append(Feature("c", rnd.choice(["point", "junction"]), shapely.Point(0, 0), {}))
    feats.append(Feature("q", "point", shapely.Point(-20, 20), {"colour": "black"}))
    # each port ends one path at most, so that where two tiles' ports meet the chain
    # runs on (through the next tile, and the next)
    ports = list(PORTS)
    rnd.shuffle(ports)
    n = 0
    while len(ports) >= 2 and n < 7:
        n += 1
        kind = rnd.random()
        if kind < 0.3:  # port to a stop
            a, b = PORTS[ports.pop()], stops[rnd.choice(list(stops))]
            pts = [a, ((a[0] + b[0]) / 2 + 7, (a[1] + b[1]) / 2 + 3), b]
        elif kind < 0.9:  # through the tile, port to port, bent away from the stops
            pa, pb = PORTS[ports.pop()], PORTS[ports.pop()]
            pts = [pa, (rnd.uniform(5, 35), rnd.uniform(-35, -5)), pb]
        else:  # a loop from a stop back to itself
            pts = [(0.0, 0.0), (30.0, 10.0), (10.0, 30.0), (0.0, 0.0)]
        feats.append(_path(f"path{n}", pts, rnd))
    return TileAsset(key, key, {"shape": "square", "size": SIDE}, feats, True)


def awkward_board(seed: int, rows: int = 3, cols: int = 3) -> Board:
    rnd = random.Random(seed)
    kinds = [awkward_tile(f"k/t{i}", rnd) for i in range(4)]
    board = Board(meta={"name": f"awkward-{seed}", "width": cols * SIDE, "height": rows * SIDE})
    for t in kinds:
        board.tiles[t.key] = t
    for r in range(rows):
        for c in range(cols):
            board.placements.append(
                Placement(
                    f"r{r}c{c}",
                    rnd.choice(kinds).key,
                    SIDE / 2 + c * SIDE,
                    SIDE / 2 + r * SIDE,
                    rnd.randrange(4),
                )
            )
    # the frame: points outside the grid joined to sockets on the edge and inside it
    edge = [(SIDE / 2, 0.0), (0.0, SIDE * 1.5), (cols * SIDE - 25, rows * SIDE)]
    inner = [(SIDE, SIDE / 2), (SIDE * 1.5, SIDE)]  # between two tiles: a third port
    frame: list[Feature] = [
        Feature("f0", "point", shapely.Point(-40, -40), {}),
        Feature("f1", "point", shapely.Point(cols * SIDE + 40, -40), {}),
    ]
    for k, xy in enumerate(edge + inner):
        frame.append(Feature(f"fp{k}", "port", shapely.Point(*xy), {}))
    for k, xy in enumerate(edge + inner):
        start = (-40.0, -40.0) if k % 2 == 0 else (cols * SIDE + 40, -40.0)
        if rnd.random() < 0.7:
            frame.append(_path(f"fpath{k}", [start, (start[0] + 1, xy[1]), xy], rnd))
    # a frame path from socket to socket: a chain may run across the whole board
    a, b = edge[0], edge[2]
    frame.append(_path("fthrough", [a, (a[0], -60.0), (b[0], -60.0), b], rnd))
    board.features = frame
    return board


def reference(cb: CompiledBoard, turns: dict[str, int]) -> tuple[dict[int, Row], dict[int, str]]:
    """Rows and port kinds of a network linked afresh at ``turns`` (no increments)."""
    net = PathNetwork(cb.board, cb.tol, turns=turns)
    rows = {i: r for i, nid in enumerate(cb.ids) if (r := cb.path_row(net, nid))}
    return rows, {cb.index[p]: k for p, k in net.port_nodes.items()}


def follow(
    linker: TurnLinker | NetworkLinker,
    cb: CompiledBoard,
    start: dict[str, int],
    steps: list[dict[str, int]],
) -> None:
    """Turn the linker through ``steps`` and compare it with the reference each time,
    through what it reports only (its changes applied to the rows before)."""
    rows, kinds = reference(cb, start)
    turns = dict(start)
    for step in steps:
        turns.update(step)
        changed_rows, changed_ports = linker.turn_to(turns)
        for i, row in changed_rows.items():
            if row:
                rows[i] = row
            else:
                rows.pop(i, None)
        for i, kind in changed_ports.items():
            if kind is None:
                kinds.pop(i, None)
            else:
                kinds[i] = kind
        want_rows, want_kinds = reference(cb, turns)
        assert rows == want_rows, f"rows after {step}"
        assert kinds == want_kinds, f"port kinds after {step}"
        if isinstance(linker, TurnLinker):
            assert linker.rows == want_rows
            assert linker.port_kinds() == want_kinds


def random_steps(cb: CompiledBoard, rnd: random.Random, n: int) -> list[dict[str, int]]:
    pids = [p.id for p in cb.board.placements if cb.board.tile_of(p).turnable]
    steps = []
    for _ in range(n):
        tiles = rnd.sample(pids, rnd.choice([1, 1, 2, min(4, len(pids))]))
        steps.append({t: rnd.randrange(4) for t in tiles})
    return steps


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 100_000), walk=st.integers(0, 100_000))
def test_awkward_boards_link_as_the_reference_at_every_turn(seed, walk):
    cb = compile_board(awkward_board(seed))
    laid = cb.laid_turns
    linker = TurnLinker(cb, laid)
    assert (linker.rows, linker.port_kinds()) == reference(cb, laid)
    follow(linker, cb, laid, random_steps(cb, random.Random(walk), 8))


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_generated_grids_link_as_the_reference(seed):
    cb = compile_board(tile_grid(4, 4, seed=seed))
    follow(
        TurnLinker(cb, cb.laid_turns), cb, cb.laid_turns, random_steps(cb, random.Random(seed), 15)
    )


def test_the_default_ringgeister_board_links_as_the_reference():
    cb = compile_board(load_project(ROOT / "projects" / "ringgeister"))
    follow(TurnLinker(cb, cb.laid_turns), cb, cb.laid_turns, random_steps(cb, random.Random(5), 25))


def test_a_linker_may_start_at_other_turns_than_the_board_carries():
    cb = compile_board(awkward_board(7))
    turns = {pid: (t + 1) % 4 for pid, t in cb.laid_turns.items()}
    linker = TurnLinker(cb, turns)
    assert (linker.rows, linker.port_kinds()) == reference(cb, turns)
    follow(linker, cb, turns, [dict(cb.laid_turns)])
    # the compiled board itself was never turned
    assert {p.id: p.turns for p in cb.board.placements} == cb.laid_turns


def loose_socket_board() -> Board:
    """Three ports in a row, 0.8 mm apart (tolerance 1 mm): the outer two are not
    within the tolerance of each other, so the reference's sockets overlap."""
    tile = TileAsset(
        "k/loose",
        "loose",
        {"shape": "square", "size": SIDE},
        [
            Feature("pE", "port", shapely.Point(50, 0), {}),
            Feature("pW", "port", shapely.Point(-50, 0), {}),
            Feature("c", "point", shapely.Point(0, 0), {}),
            Feature("a", "path", shapely.LineString([(0, 0), (50, 0)]), {}),
            Feature("b", "path", shapely.LineString([(0, 0), (-50, 0)]), {}),
        ],
        True,
    )
    board = Board(meta={"name": "loose"}, tiles={tile.key: tile})
    board.placements = [
        Placement("left", tile.key, 50.0, 50.0, 0),
        Placement("right", tile.key, 150.8, 50.0, 0),
    ]
    board.features = [
        Feature("mid", "port", shapely.Point(101.6, 50.0), {}),
        Feature("x", "point", shapely.Point(101.6, 120.0), {}),
        Feature("stub", "path", shapely.LineString([(101.6, 50.0), (101.6, 120.0)]), {}),
    ]
    return board


def test_a_board_whose_sockets_overlap_keeps_the_reference_network():
    cb = compile_board(loose_socket_board())
    with pytest.raises(LinkerUnsupported, match="socket wider than the tolerance"):
        TurnLinker(cb, cb.laid_turns)
    linker = linker_for(cb, cb.laid_turns)
    assert isinstance(linker, NetworkLinker)
    follow(linker, cb, cb.laid_turns, [{"left": 1}, {"right": 2}, {"left": 0, "right": 0}])


def test_the_returned_changes_name_only_what_the_turn_concerns():
    """One turn of one tile re-reads its neighbourhood, not the board."""
    cb = compile_board(load_project(ROOT / "projects" / "ringgeister"))
    linker = TurnLinker(cb, cb.laid_turns)
    pid = next(p.id for p in cb.board.placements if p.id == "r2c2")
    rows, ports = linker.turn_to({pid: (cb.laid_turns[pid] + 1) % 4})
    owners = {cb.features[cb.ids[i]][0] for i in rows}
    assert pid in owners
    assert len(rows) < len([r for r in linker.rows.values() if r]) / 3
    assert all(cb.features[cb.ids[i]][1].kind == "port" for i in ports)


def test_the_walk_cache_is_bounded_and_forgetting_it_changes_nothing(monkeypatch):
    monkeypatch.setattr(linker_module, "CHAINS_KEPT", 5)
    cb = compile_board(awkward_board(3))
    linker = TurnLinker(cb, cb.laid_turns)
    follow(linker, cb, cb.laid_turns, random_steps(cb, random.Random(3), 10))
    assert len(linker._chains) <= 5
