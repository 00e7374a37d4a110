"""``CompiledBoard.update_features``: after any edit of free-standing region features
the incrementally updated compile equals a fresh :func:`compile_board` (README.md:
"the editor recompiles incrementally"; issue 6: under 300 ms on a 10,000-space map)."""

from __future__ import annotations

import random
from typing import Any

import pytest
import shapely
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.compiler import CompiledBoard, compile_board
from referee.errors import UsageError
from referee.generators import voronoi_map
from referee.model import Board, Feature


# ---------------------------------------------------------------------- helpers
def snapshot(cb: CompiledBoard) -> tuple[Any, ...]:
    """Everything a user of the compiled board sees: edges, nodes, problems."""
    nodes = {n: dict(d) for n, d in cb.graph.nodes(data=True)}
    return cb.edge_set(), nodes, sorted(map(str, cb.problems))


def assert_same_as_fresh(cb: CompiledBoard) -> None:
    fresh = compile_board(cb.board, cb.tol)
    got, want = snapshot(cb), snapshot(fresh)
    assert got[0] == want[0], (sorted(got[0] - want[0])[:5], sorted(want[0] - got[0])[:5])
    assert got[1] == want[1], {
        n: (got[1].get(n), want[1].get(n))
        for n in set(got[1]) | set(want[1])
        if got[1].get(n) != want[1].get(n)
    }
    assert got[2] == want[2]


def feature(b: Board, fid: str) -> Feature:
    return next(f for f in b.features if f.id == fid)


def with_bridges(b: Board) -> Board:
    """Put a bridge on the middle of the second border of every river."""
    for f in list(b.features):
        if f.kind == "river":
            c = list(f.geometry.coords)
            (x0, y0), (x1, y1) = c[1], c[2]
            b.features.append(
                Feature(f"br_{f.id}", "bridge", shapely.Point((x0 + x1) / 2, (y0 + y1) / 2), {})
            )
    return b


def region_map(n: int = 150, seed: int = 1) -> Board:
    return with_bridges(voronoi_map(n, seed=seed, rivers=3, river_steps=6, roads=3, road_steps=6))


def replace_vertex(g: Any, old: tuple[float, float], new: tuple[float, float]) -> Any:
    """``g`` (a polygon) with every vertex equal to ``old`` moved to ``new``."""

    def ring(cs: list[tuple[float, float]]) -> list[tuple[float, float]]:
        return [new if c == old else c for c in cs]

    return shapely.Polygon(
        ring(list(g.exterior.coords)), [ring(list(h.coords)) for h in g.interiors]
    )


# ---------------------------------------------------------------------- edits
def move_shared_vertex(b: Board, rng: random.Random, bin_: list[tuple[int, Feature]]) -> set[str]:
    """Move a vertex in every space that has it (the map stays a clean coverage,
    or becomes one with overlaps — both must compile the same)."""
    spaces = [f for f in b.features if f.kind == "space"]
    s = rng.choice(spaces)
    v = rng.choice(list(s.geometry.exterior.coords)[:-1])
    holders = [f for f in spaces if v in f.geometry.exterior.coords]
    for _ in range(10):
        d = rng.choice([0.3, 1.5, 4.0, 12.0])
        new = (round(v[0] + rng.uniform(-d, d), 3), round(v[1] + rng.uniform(-d, d), 3))
        moved = [replace_vertex(f.geometry, v, new) for f in holders]
        if all(g.is_valid for g in moved):  # the editor only accepts valid polygons
            for f, g in zip(holders, moved):
                f.geometry = g
            return {f.id for f in holders}
    return set()


def delete_space(b: Board, rng: random.Random, bin_: list[tuple[int, Feature]]) -> set[str]:
    f = rng.choice([f for f in b.features if f.kind == "space"])
    bin_.append((b.features.index(f), f))
    b.features.remove(f)
    return {f.id}


def add_space(b: Board, rng: random.Random, bin_: list[tuple[int, Feature]]) -> set[str]:
    """A small square somewhere (often overlapping, or filling a hole left by a delete)."""
    w = b.meta["width"]
    x, y = rng.uniform(0, w), rng.uniform(0, w)
    fid = f"new{rng.randrange(10**6)}"
    b.features.append(
        Feature(
            fid,
            "space",
            shapely.box(x, y, x + rng.uniform(3, 25), y + 8),
            {"terrain": rng.choice(["open", "lake", "forest"])},
        )
    )
    return {fid}


def undo_delete(b: Board, rng: random.Random, bin_: list[tuple[int, Feature]]) -> set[str]:
    """Put a deleted space back at its old place in the feature list (the editor's undo)."""
    if not bin_:
        return set()
    i, f = bin_.pop()
    b.features.insert(min(i, len(b.features)), f)
    return {f.id}


def split_space(b: Board, rng: random.Random, bin_: list[tuple[int, Feature]]) -> set[str]:
    """Cut a space in two: the new vertices lie on its neighbours' edges (T-junctions)."""
    from shapely.ops import split

    f = rng.choice([f for f in b.features if f.kind == "space"])
    c = f.geometry.centroid
    line = shapely.LineString([(c.x - 100, c.y - 37), (c.x + 100, c.y + 37)])
    parts = [g for g in split(f.geometry, line).geoms if g.area > 1.0]
    if len(parts) != 2:
        return set()
    f.geometry = shapely.set_precision(parts[0], 1e-3)
    fid = f"{f.id}b"
    b.features.append(Feature(fid, "space", shapely.set_precision(parts[1], 1e-3), dict(f.props)))
    return {f.id, fid}


def space_props(b: Board, rng: random.Random, bin_: list[tuple[int, Feature]]) -> set[str]:
    spaces = [f for f in b.features if f.kind == "space"]
    f = rng.choice(spaces)
    what = rng.choice(["terrain", "city", "name"])
    if what == "terrain":
        f.props["terrain"] = rng.choice(["open", "lake", "ocean", "forest"])
    elif what == "city":
        f.props["city"] = rng.choice([None, "Town"])
        if f.props["city"] is None:
            del f.props["city"]
    else:
        f.props["name"] = f"n{rng.randrange(100)}"
    return {f.id}


def move_dot(b: Board, rng: random.Random, bin_: list[tuple[int, Feature]]) -> set[str]:
    dots = [f for f in b.features if f.kind == "river_dot"]
    if not dots:
        return set()
    f = rng.choice(dots)
    if rng.random() < 0.5:
        # onto another vertex of some space (often a triple point)
        s = rng.choice([g for g in b.features if g.kind == "space"])
        f.geometry = shapely.Point(rng.choice(list(s.geometry.exterior.coords)))
    else:
        f.geometry = shapely.Point(
            f.geometry.x + rng.uniform(-3, 3), f.geometry.y + rng.uniform(-3, 3)
        )
    if rng.random() < 0.2:
        s = rng.choice([g for g in b.features if g.kind == "space"])
        f.props["city"] = s.id
    return {f.id}


def delete_road(b: Board, rng: random.Random, bin_: list[tuple[int, Feature]]) -> set[str]:
    roads = [f for f in b.features if f.kind in ("road", "river")]
    if not roads:
        return set()
    f = rng.choice(roads)
    b.features.remove(f)
    return {f.id}


def add_bridge(b: Board, rng: random.Random, bin_: list[tuple[int, Feature]]) -> set[str]:
    """A bridge on a river vertex or segment middle, or somewhere off every river."""
    rivers = [f for f in b.features if f.kind == "river"]
    fid = f"bridge{rng.randrange(10**6)}"
    if rivers and rng.random() < 0.8:
        cs = list(rng.choice(rivers).geometry.coords)
        k = rng.randrange(len(cs) - 1)
        t = rng.choice([0.0, 0.5, 0.3])
        p = (cs[k][0] + t * (cs[k + 1][0] - cs[k][0]), cs[k][1] + t * (cs[k + 1][1] - cs[k][1]))
    else:
        p = (rng.uniform(0, b.meta["width"]), rng.uniform(0, b.meta["width"]))
    b.features.append(Feature(fid, "bridge", shapely.Point(p), {}))
    return {fid}


def add_road_or_river(b: Board, rng: random.Random, bin_: list[tuple[int, Feature]]) -> set[str]:
    """A new road through a few space centres, or a new river along a space's border."""
    spaces = [f for f in b.features if f.kind == "space"]
    if rng.random() < 0.5:
        pts = [rng.choice(spaces).geometry.point_on_surface() for _ in range(3)]
        fid = f"road{rng.randrange(10**6)}"
        b.features.append(Feature(fid, "road", shapely.LineString(pts), {}))
    else:
        cs = list(rng.choice(spaces).geometry.exterior.coords)[:4]
        fid = f"river{rng.randrange(10**6)}"
        b.features.append(Feature(fid, "river", shapely.LineString(cs), {}))
    return {fid}


EDITS = [
    move_shared_vertex,
    delete_space,
    add_space,
    space_props,
    move_dot,
    delete_road,
    add_bridge,
    add_road_or_river,
    undo_delete,
    split_space,
]


# ---------------------------------------------------------------------- property
@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@pytest.mark.slow
@given(
    seed=st.integers(0, 10**6),
    edits=st.lists(st.sampled_from(range(len(EDITS))), min_size=1, max_size=8),
)
def test_update_features_equals_a_fresh_compile(seed: int, edits: list[int]) -> None:
    """Random edit sequences on a generated map with rivers, dots, bridges and roads:
    after every edit the incremental compile equals a fresh one (edges with their
    attributes, node attributes, problems)."""
    rng = random.Random(seed)
    b = region_map(120, seed % 7)
    cb = compile_board(b)
    bin_: list[tuple[int, Feature]] = []
    for e in edits:
        changed = EDITS[e](b, rng, bin_)
        cb.update_features(changed)
        assert_same_as_fresh(cb)


# ---------------------------------------------------------------------- targeted
def test_vertex_move_touches_only_the_neighbourhood() -> None:
    """Moving one shared vertex re-derives a handful of spaces, not the map."""
    b = region_map(400, 2)
    cb = compile_board(b)
    rng = random.Random(5)
    changed = move_shared_vertex(b, rng, [])
    out = cb.update_features(changed)
    assert out["regions"] != "full"
    assert out["regions"]["spaces_near"] < 60
    assert_same_as_fresh(cb)


def test_deleting_a_city_space_reports_the_dot_naming_it() -> None:
    """A river dot naming a city space that is deleted names an unknown space."""
    b = region_map(120, 3)
    dot = next(f for f in b.features if f.kind == "river_dot")
    city = next(
        f for f in b.features if f.kind == "space" and f.geometry.distance(dot.geometry) < 0.5
    )
    city.props["city"] = "Town"
    dot.props["city"] = city.id
    cb = compile_board(b)
    assert cb.graph.nodes[dot.id]["city_space"] == city.id
    b.features.remove(city)
    cb.update_features({city.id})
    assert "city_space" not in cb.graph.nodes[dot.id]
    assert any(p.code == "unknown_reference" and p.node == dot.id for p in cb.problems)
    assert_same_as_fresh(cb)


def test_bridge_added_then_river_deleted() -> None:
    """A bridge on a river border flags it; deleting the river makes it a stray bridge."""
    b = voronoi_map(120, seed=4, rivers=1, river_steps=5, roads=0)
    river = next(f for f in b.features if f.kind == "river")
    cs = list(river.geometry.coords)
    mid = ((cs[1][0] + cs[2][0]) / 2, (cs[1][1] + cs[2][1]) / 2)
    cb = compile_board(b)
    b.features.append(Feature("b1", "bridge", shapely.Point(mid), {}))
    cb.update_features({"b1"})
    assert sum(1 for *_, d in cb.graph.edges(data=True) if d.get("bridge") == "b1") == 1
    assert_same_as_fresh(cb)
    b.features.remove(river)
    cb.update_features({river.id})
    assert not any(d.get("river") for *_, d in cb.graph.edges(data=True))
    assert any(p.code == "bridge_off_river" and p.node == "b1" for p in cb.problems)
    assert_same_as_fresh(cb)


def test_road_moves_over_an_unbridged_river() -> None:
    """Deleting the bridge under a road makes the crossing a problem; undoing it clears it."""
    b = voronoi_map(200, seed=6, roads=0)
    cb = compile_board(b)
    river_pair = next(
        (u, v)
        for u, v, d in cb.graph.edges(data=True)
        if d["relation"] == "touch" and d.get("river")
    )
    a, c = (feature(b, s) for s in river_pair)
    road = Feature(
        "rd",
        "road",
        shapely.LineString([a.geometry.point_on_surface(), c.geometry.point_on_surface()]),
        {},
    )
    b.features.append(road)
    cb.update_features({"rd"})
    assert_same_as_fresh(cb)
    assert cb.graph.nodes[a.id]["road"] and cb.graph.nodes[c.id]["road"]
    b.features.remove(road)
    cb.update_features({"rd"})
    assert not cb.graph.nodes[a.id]["road"]
    assert_same_as_fresh(cb)


def test_points_and_paths_rebuild_the_path_network() -> None:
    """Free points and paths next to a region map: edits keep the path relation exact."""
    b = region_map(80, 1)
    cb = compile_board(b)
    b.features += [
        Feature("p1", "point", shapely.Point(5, 5), {}),
        Feature("p2", "point", shapely.Point(25, 5), {"start": "white"}),
        Feature("w1", "path", shapely.LineString([(5, 5), (25, 5)]), {}),
    ]
    out = cb.update_features({"p1", "p2", "w1"})
    assert out["paths"]
    assert any(d["relation"] == "path" for *_, d in cb.graph.edges(data=True))
    assert_same_as_fresh(cb)
    feature(b, "p2").geometry = shapely.Point(25, 9)
    cb.update_features({"p2"})
    assert_same_as_fresh(cb)


def test_tile_features_are_refused() -> None:
    from referee.generators import tile_grid

    b = tile_grid(1, 2)
    cb = compile_board(b)
    tile_feature = next(n for n in cb.features if "/" in n)
    with pytest.raises(UsageError):
        cb.update_features({tile_feature})


def test_deleting_every_space_then_adding_one() -> None:
    """With no spaces left the region compile has nothing to work from: dots report it."""
    b = voronoi_map(20, seed=2, rivers=1, roads=1)
    cb = compile_board(b)
    spaces = [f for f in b.features if f.kind == "space"]
    b.features = [f for f in b.features if f.kind != "space"]
    cb.update_features({f.id for f in spaces})
    assert_same_as_fresh(cb)
    b.features.append(spaces[0])
    cb.update_features({spaces[0].id})
    assert_same_as_fresh(cb)
