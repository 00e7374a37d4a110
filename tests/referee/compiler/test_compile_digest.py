"""The compiled graph of the shipped projects and of generated maps, node for node and
edge for edge, against digests taken from main before the compile was sped up (issue 30).

A digest covers everything a reader of the compiled board sees, in the order it sees
it: every node with its attributes (insertion order), every edge from each end's
adjacency (``u``, ``v``, key, attributes, in insertion order), and every problem
(its JSON: code, severity, message, node, place). The boards are the shipped projects, Voronoi region
maps of 2,000 and 10,000 spaces (rivers, dots, bridges, roads), a "messy" map with
overlapping squares, T-junction borders, a duplicated space, a stray dot and a road
off the map, and the rotation benchmark's tile grids.

The digests were computed by main at 997483b (the code before this change, run from a
``git archive`` of its ``referee`` on ``PYTHONPATH``); a change that alters any of them
changes the compiled result, which is not what a speed-up may do. To print them for
the code at hand: ``python tests/referee/compiler/test_compile_digest.py``.
"""

from __future__ import annotations

import hashlib
import json
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
import shapely

from referee.compiler import CompiledBoard, compile_board
from referee.generators import voronoi_map
from referee.model import Board, Feature
from referee.rotations.generate import grid_board
from referee.store import load_project

ROOT = Path(__file__).resolve().parents[3]


def canonical(cb: CompiledBoard) -> str:
    """Nodes, edges (from both ends, in adjacency order) and problems, one JSON line each."""
    out: list[str] = []
    for n, d in cb.graph.nodes(data=True):
        out.append(json.dumps(["node", n, d], default=str))
    for u, nbrs in cb.graph._adj.items():
        for v, keyed in nbrs.items():
            for k, d in keyed.items():
                out.append(json.dumps(["edge", u, v, k, d], default=str))
    for p in cb.problems:
        out.append(json.dumps(["problem", p.to_json()], default=str))
    return "\n".join(out)


def digest(cb: CompiledBoard) -> str:
    return hashlib.sha256(canonical(cb).encode("utf-8")).hexdigest()[:16]


def _with_bridges(b: Board) -> Board:
    """A bridge on the middle of the second border of every river."""
    for f in list(b.features):
        if f.kind == "river":
            c = list(f.geometry.coords)
            (x0, y0), (x1, y1) = c[1], c[2]
            b.features.append(
                Feature(f"br_{f.id}", "bridge", shapely.Point((x0 + x1) / 2, (y0 + y1) / 2), {})
            )
    return b


def big_map(n: int) -> Board:
    """bench/compile.py's map of ``n`` spaces, with bridges."""
    return _with_bridges(
        voronoi_map(
            n,
            seed=11,
            rivers=max(4, n // 250),
            river_steps=14,
            roads=max(3, n // 500),
            road_steps=12,
        )
    )


def messy_map() -> Board:
    """A map with every kind of region problem and the slow paths of the compiler."""
    b = _with_bridges(voronoi_map(300, seed=4, rivers=4, river_steps=8, roads=4, road_steps=8))
    spaces = [f for f in b.features if f.kind == "space"]
    # a vertex inserted on one side of a shared border only: a T-junction border
    for f in spaces[10:40:3]:
        cs = list(f.geometry.exterior.coords)
        (x0, y0), (x1, y1) = cs[0], cs[1]
        cs.insert(1, ((x0 + x1) / 2, (y0 + y1) / 2))
        f.geometry = shapely.Polygon(cs)
    # overlapping squares, one of them a city, and a duplicate of an existing space
    w = b.meta["width"]
    for i in range(6):
        x, y = w * (0.1 + 0.13 * i), w * (0.2 + 0.1 * i)
        props = {"terrain": "open", "city": True} if i == 2 else {"terrain": "lake"}
        b.features.append(Feature(f"sq{i}", "space", shapely.box(x, y, x + 17, y + 9), props))
    b.features.append(Feature("dup", "space", spaces[50].geometry, {"terrain": "forest"}))
    # a dot inside a space and off every river, a dot naming an unknown city
    c = spaces[60].geometry.representative_point()
    b.features.append(Feature("stray", "river_dot", c, {}))
    c = spaces[61].geometry.representative_point()
    b.features.append(Feature("lost", "river_dot", c, {"city": "nowhere"}))
    # a road that leaves the map, and one that skips a space
    b.features.append(
        Feature("offroad", "road", shapely.LineString([(w / 2, w / 2), (w + 40, w / 2)]), {})
    )
    a = spaces[5].geometry.representative_point()
    z = spaces[200].geometry.representative_point()
    b.features.append(Feature("jump", "road", shapely.LineString([a, z]), {}))
    return b


BOARDS: dict[str, Callable[[], Board]] = {
    **{
        p.stem: (lambda p=p: load_project(p))
        for p in sorted((ROOT / "projects").glob("*/*.bwproj"))
    },
    "voronoi-2000": lambda: big_map(2000),
    "voronoi-10000": lambda: big_map(10000),
    "messy-300": messy_map,
    "grid-7x7": lambda: grid_board(7, 7, 40, seed=5, asymmetric=True),
    "grid-10x10": lambda: grid_board(10, 10, 80, seed=5, asymmetric=True),
}

#: computed by main at 997483b (see the module docstring)
DIGESTS = {
    "lotr-coop": "815e53f06705fc5a",
    "mount-doom": "08b137ea60d84942",
    "painted-tiles": "dff6e6ba098b9152",
    "traced-map": "08a937a7f3db55a4",
    "riddle-sample": "7c564a480b9ee731",
    "ringgeister": "809f9d8b2b0d4665",
    "voronoi-2000": "177d26d20717005a",
    "voronoi-10000": "6bbab74d46eacab2",
    "messy-300": "b6ba3da84e401e19",
    "grid-7x7": "3520d29337e67b03",
    "grid-10x10": "e119cfb89e1afa76",
}


def test_every_board_has_a_digest() -> None:
    assert set(BOARDS) == set(DIGESTS)


@pytest.mark.parametrize("name", sorted(BOARDS))
def test_compiled_graph_is_the_one_main_compiled(name: str) -> None:
    assert digest(compile_board(BOARDS[name]())) == DIGESTS[name]


def test_the_messy_map_has_its_problems() -> None:
    """The messy map does take the slow paths (else its digest would prove little)."""
    cb = compile_board(messy_map())
    codes = {p.code for p in cb.problems}
    assert {"overlapping_spaces", "dot_off_river", "unknown_reference", "road_off_map"} <= codes
    assert "road_skips_space" in codes or "road_crosses_river" in codes


if __name__ == "__main__":
    for name, make in BOARDS.items():
        print(f'    "{name}": "{digest(compile_board(make()))}",', file=sys.stdout)
