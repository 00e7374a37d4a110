"""Region-map relations (README.md): touch (river/bridge), road, dot, dot_river, city-dots,
and the problems a map maker needs to see."""

from __future__ import annotations

import shapely

from referee.compiler import compile_board
from referee.model import Board, Feature


def _x0(r: int, c: int) -> float:
    return c * 10.0 + (5.0 if r % 2 else 0.0)


def board(rows: int = 2, cols: int = 4, *, midpoints: bool = True, terrain=None, extra=()) -> Board:
    """Brick rows of 10 mm spaces ``r<row>c<col>``; every inner corner is a triple point."""
    b = Board(meta={"name": "t", "rules": "riddle"})
    for r in range(rows):
        for c in range(cols):
            x0, y0 = _x0(r, c), r * 10.0
            ring = (
                [
                    (x0, y0),
                    (x0 + 5, y0),
                    (x0 + 10, y0),
                    (x0 + 10, y0 + 10),
                    (x0 + 5, y0 + 10),
                    (x0, y0 + 10),
                ]
                if midpoints
                else [(x0, y0), (x0 + 10, y0), (x0 + 10, y0 + 10), (x0, y0 + 10)]
            )
            t = (terrain or {}).get(f"r{r}c{c}", "open")
            b.features.append(Feature(f"r{r}c{c}", "space", shapely.Polygon(ring), {"terrain": t}))
    b.features.extend(extra)
    return b


def rel(cb, relation: str) -> dict[frozenset, dict]:
    return {
        frozenset((u, v)): d for u, v, d in cb.graph.edges(data=True) if d["relation"] == relation
    }


def codes(cb) -> set[str]:
    return {p.code for p in cb.problems}


def river(pts, rid="river1") -> Feature:
    return Feature(rid, "river", shapely.LineString(pts), {})


def dot(did, xy, **props) -> Feature:
    return Feature(did, "river_dot", shapely.Point(xy), props)


def test_touch_by_shared_border_not_by_corner():
    """Two spaces touch when their polygons share a border segment (not just a corner)."""
    b = Board(meta={})
    for i, (x, y) in enumerate([(0, 0), (10, 0), (10, 10)]):
        b.features.append(
            Feature(f"s{i}", "space", shapely.box(x, y, x + 10, y + 10), {"terrain": "open"})
        )
    t = rel(compile_board(b), "touch")
    assert set(t) == {frozenset(("s0", "s1")), frozenset(("s1", "s2"))}  # s0-s2 only a corner


def test_touch_across_t_junctions():
    """Borders whose vertices do not match (one space's edge runs past the other's
    corner) still touch."""
    cb = compile_board(board(midpoints=False))
    t = rel(cb, "touch")
    assert frozenset(("r0c1", "r1c0")) in t and frozenset(("r0c1", "r1c1")) in t
    assert frozenset(("r0c0", "r1c1")) not in t
    assert not cb.errors()


def test_river_and_bridge_flags():
    """``touch`` is marked ``river`` when a river covers the shared border and ``bridge``
    when a bridge lies on it; a bridge elsewhere is a problem."""
    extra = [
        river([(10, 10), (30, 10)]),
        Feature("b1", "bridge", shapely.Point(17.5, 10), {}),
        Feature("b2", "bridge", shapely.Point(5, 5), {}),
    ]
    cb = compile_board(board(extra=extra))
    t = rel(cb, "touch")
    assert t[frozenset(("r0c1", "r1c0"))]["river"] == "river1"
    assert t[frozenset(("r0c1", "r1c1"))]["bridge"] == "b1"
    assert "bridge" not in t[frozenset(("r0c1", "r1c0"))]
    assert "river" not in t[frozenset(("r0c0", "r1c0"))]  # (5,10)-(10,10) is no river
    assert "river" not in t[frozenset(("r0c0", "r0c1"))]
    probs = [p for p in cb.problems if p.code == "bridge_off_river"]
    assert [p.node for p in probs] == ["b2"]


def test_dots_link_their_three_spaces_and_follow_the_river():
    """``dot`` links a river dot to each space touching it (three); ``dot_river`` joins
    consecutive dots along one river."""
    extra = [river([(10, 10), (30, 10)])] + [dot(f"d{x}", (x, 10)) for x in (30, 10, 20, 15, 25)]
    cb = compile_board(board(extra=extra))
    d = rel(cb, "dot")
    assert {next(iter(k - {"d20"})) for k in d if "d20" in k} == {"r0c1", "r0c2", "r1c1"}
    chain = {tuple(sorted(k)) for k in rel(cb, "dot_river")}
    assert chain == {("d10", "d15"), ("d15", "d20"), ("d20", "d25"), ("d25", "d30")}
    assert not cb.errors()


def test_dot_links_to_the_ocean_it_touches():
    """A dot where the river meets the sea links to the ocean space too."""
    extra = [river([(10, 10), (30, 10)])] + [dot(f"d{x}", (x, 10)) for x in (10, 20, 30)]
    cb = compile_board(board(terrain={"r0c3": "ocean"}, extra=extra))
    d = rel(cb, "dot")
    assert frozenset(("d30", "r0c3")) in d
    assert not cb.errors()


def test_dot_problems():
    """A river dot not where three spaces meet, or not on a river, is reported."""
    extra = [
        river([(10, 10), (30, 10)]),
        dot("mid", (12.5, 10)),
        dot("inside", (5, 5)),
        dot("dry", (40, 10)),
        dot("ok", (20, 10)),
    ]
    cb = compile_board(board(cols=5, extra=extra))
    by = {(p.code, p.node) for p in cb.problems}
    assert ("dot_not_triple", "mid") in by and ("dot_not_triple", "inside") in by
    assert ("dot_off_river", "dry") in by
    assert not any(n == "ok" for _, n in by)


def test_dot_on_triple_point_with_two_water_spaces_is_not_a_river_dot():
    """A dot needs at least two land spaces (a river runs between land)."""
    extra = [river([(10, 10), (20, 10)]), dot("wet", (15, 10))]
    cb = compile_board(board(terrain={"r1c0": "lake", "r1c1": "lake"}, extra=extra))
    assert ("dot_not_triple", "wet") in {(p.code, p.node) for p in cb.problems}


def test_city_dots():
    """A city at the end of a river with a dot in it: the dot names the city, or lies
    inside a city space; a dot naming a city it is not in is reported."""
    b = board(
        extra=[
            river([(5, 5), (10, 10), (30, 10)]),
            dot("c1", (5, 5)),
            dot("d10", (10, 10)),
            dot("c2", (30, 15), city="r1c2"),
            dot("bad", (20, 10), city="r0c0"),
            dot("ghost", (30, 10), city="nope"),
        ]
    )
    b.features[0].props["city"] = "good"  # r0c0
    b.features[6].props["city"] = "evil"  # r1c2
    cb = compile_board(b)
    assert cb.graph.nodes["c1"]["city_space"] == "r0c0"
    assert cb.graph.nodes["c2"]["city_space"] == "r1c2"
    assert rel(cb, "dot")[frozenset(("c1", "r0c0"))]["city_dot"] is True
    assert frozenset(("c1", "d10")) in rel(cb, "dot_river")
    by = {(p.code, p.node) for p in cb.problems}
    assert ("dot_not_in_city", "bad") in by
    assert ("unknown_reference", "ghost") in by


def test_roads_follow_the_spaces():
    """``road`` joins consecutive spaces along a road line; every space on it is a road
    space."""
    road = Feature("rd", "road", shapely.LineString([(5, 5), (15, 5), (20, 15), (35, 15)]), {})
    cb = compile_board(board(extra=[road]))
    assert set(rel(cb, "road")) == {
        frozenset(("r0c0", "r0c1")),
        frozenset(("r0c1", "r1c1")),
        frozenset(("r1c1", "r1c2")),
    }
    assert cb.graph.nodes["r0c1"]["road"] and not cb.graph.nodes["r0c2"]["road"]
    assert not cb.errors()


def test_road_problems():
    """A road that leaves the spaces, that jumps between spaces that do not touch, or that
    crosses a river where there is no bridge is reported."""
    b = Board(meta={})
    for i, (x, y) in enumerate([(0, 0), (10, 10), (10, 0)]):
        b.features.append(
            Feature(f"s{i}", "space", shapely.box(x, y, x + 10, y + 10), {"terrain": "open"})
        )
    b.features.append(Feature("diag", "road", shapely.LineString([(5, 5), (15, 15)]), {}))
    b.features.append(Feature("off", "road", shapely.LineString([(15, 5), (35, 5)]), {}))
    b.features.append(Feature("wet", "road", shapely.LineString([(5, 5), (15, 5)]), {}))
    b.features.append(river([(10, 0), (10, 10)]))
    by = {(p.code, p.node, p.severity) for p in compile_board(b).problems}
    assert ("road_skips_space", "diag", "error") in by
    assert ("road_off_map", "off", "error") in by
    assert ("road_crosses_river", "wet", "warning") in by


def test_overlapping_spaces():
    b = Board(meta={})
    b.features.append(Feature("a", "space", shapely.box(0, 0, 10, 10), {}))
    b.features.append(Feature("b", "space", shapely.box(5, 0, 15, 10), {}))
    assert "overlapping_spaces" in codes(compile_board(b))


def test_road_into_a_city_and_back_out_keeps_its_order():
    """A road that runs into a space and back out over the same border (a spur to a
    city) still links its spaces in the order it walks them."""
    road = Feature("rd", "road", shapely.LineString([(5, 5), (15, 5), (7, 5), (10, 15)]), {})
    cb = compile_board(board(extra=[road]))
    orders = sorted(
        (d["order"], frozenset((u, v)))
        for u, v, d in cb.graph.edges(data=True)
        if d["relation"] == "road"
    )
    assert [o for _, o in orders] == [
        frozenset(("r0c0", "r0c1")),
        frozenset(("r0c0", "r0c1")),
        frozenset(("r0c0", "r1c0")),
    ]
    assert not cb.problems
