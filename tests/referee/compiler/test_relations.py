"""Each compiled relation on small hand-made boards (README.md: Projects and boards)."""

from __future__ import annotations

import shapely
from shapely.geometry import LineString, Point, box

from referee.compiler import compile_board
from referee.model import Board, Feature, Placement, TileAsset


def edges(cb, relation):
    return {
        tuple(sorted((u, v))): d
        for u, v, d in cb.graph.edges(data=True)
        if d["relation"] == relation
    }


def codes(cb):
    return sorted(p.code for p in cb.problems)


def region_map(**extra) -> Board:
    """Four spaces:   A | B | D      A, B open; D forest; C a wide open space below.
                      ---C----
    A river runs down the A|B border and along A|C; a dot sits at the A/B/C triple point."""
    feats = [
        Feature("A", "space", box(0, 0, 10, 10), {"terrain": "open"}),
        Feature("B", "space", box(10, 0, 20, 10), {"terrain": "open"}),
        Feature("D", "space", box(20, 0, 30, 10), {"terrain": "forest"}),
        Feature(
            "C",
            "space",
            shapely.Polygon([(0, 10), (10, 10), (20, 10), (30, 10), (30, 20), (0, 20)]),
            {"terrain": "open"},
        ),
        Feature("r", "river", LineString([(10, 0), (10, 10), (0, 10)]), {}),
        Feature("dot", "river_dot", Point(10, 10), {}),
    ]
    for f in extra.get("add", []):
        feats.append(f)
    return Board(meta={"name": "regions"}, features=feats)


def test_touch_shares_a_border_not_a_corner():
    cb = compile_board(region_map())
    t = edges(cb, "touch")
    assert set(t) == {("A", "B"), ("B", "D"), ("A", "C"), ("B", "C"), ("C", "D")}
    assert t[("A", "B")]["border"] == 10


def test_river_flags_the_borders_it_covers():
    t = edges(compile_board(region_map()), "touch")
    assert t[("A", "B")]["river"] == "r"
    assert t[("A", "C")]["river"] == "r"
    assert "river" not in t[("B", "C")]
    assert "river" not in t[("B", "D")]


def test_bridge_marks_the_river_border_it_sits_on():
    cb = compile_board(region_map(add=[Feature("br", "bridge", Point(10, 5), {})]))
    t = edges(cb, "touch")
    assert t[("A", "B")]["bridge"] == "br"
    assert "bridge" not in t[("A", "C")]
    assert "bridge_off_river" not in codes(cb)


def test_bridge_off_river_is_a_problem():
    cb = compile_board(region_map(add=[Feature("br", "bridge", Point(20, 5), {})]))
    assert "bridge_off_river" in codes(cb)


def test_river_dot_at_triple_point_links_its_three_spaces():
    cb = compile_board(region_map())
    dots = set(edges(cb, "dot"))
    assert dots == {("A", "dot"), ("B", "dot"), ("C", "dot")}
    assert "dot_not_triple" not in codes(cb)


def test_river_dot_not_on_triple_point_is_a_problem():
    b = region_map()
    b.features[-1] = Feature("dot", "river_dot", Point(10, 5), {})
    assert "dot_not_triple" in codes(compile_board(b))


def test_dot_river_joins_consecutive_dots_along_a_river():
    b = region_map(add=[Feature("E", "space", box(0, 20, 30, 30), {"terrain": "open"})])
    # extend the map so a second dot exists down the river's course
    b.features[4] = Feature("r", "river", LineString([(10, 0), (10, 10), (20, 10), (20, 20)]), {})
    b.features.append(Feature("dot2", "river_dot", Point(20, 10), {}))
    cb = compile_board(b)
    assert ("dot", "dot2") in edges(cb, "dot_river")


def test_road_through_a_forest_links_consecutive_spaces():
    b = region_map(add=[Feature("rd", "road", LineString([(5, 5), (15, 5), (25, 5)]), {})])
    cb = compile_board(b)
    r = edges(cb, "road")
    assert set(r) == {("A", "B"), ("B", "D")}
    assert cb.graph.nodes["D"]["road"] is True and cb.graph.nodes["C"]["road"] is False
    assert "road_off_map" not in codes(cb)


def test_road_leaving_the_spaces_is_a_problem():
    b = region_map(add=[Feature("rd", "road", LineString([(25, 5), (45, 5)]), {})])
    assert "road_off_map" in codes(compile_board(b))


def test_road_skipping_a_space_through_a_corner_is_a_problem():
    # from A straight to D's corner region: A and D do not touch
    b = Board(
        meta={},
        features=[
            Feature("A", "space", box(0, 0, 10, 10), {}),
            Feature("B", "space", box(10, 10, 20, 20), {}),
            Feature("rd", "road", LineString([(5, 5), (15, 15)]), {}),
        ],
    )
    assert "road_skips_space" in codes(compile_board(b))


def test_overlapping_spaces_are_a_problem():
    b = Board(
        meta={},
        features=[
            Feature("A", "space", box(0, 0, 10, 10), {}),
            Feature("B", "space", box(5, 0, 15, 10), {}),
        ],
    )
    probs = compile_board(b).problems
    assert [p.code for p in probs if p.severity == "error"] == ["overlapping_spaces"]


def test_border_with_unmatched_vertices_still_touches():
    """A T-junction: B's side is split by C's corner, A's is one segment."""
    b = Board(
        meta={},
        features=[
            Feature("A", "space", box(0, 0, 10, 20), {}),
            Feature("B", "space", box(10, 0, 20, 10), {}),
            Feature("C", "space", box(10, 10, 20, 20), {}),
        ],
    )
    t = edges(compile_board(b), "touch")
    assert set(t) == {("A", "B"), ("A", "C"), ("B", "C")}


def test_track_points_chain_in_order_as_directed_next_edges():
    feats = [Feature(f"p{i}", "point", Point(10 * i, 0), {}) for i in (2, 0, 1)]
    feats.append(Feature("trk", "track", LineString([(0, 0), (20, 0)]), {}))
    cb = compile_board(Board(meta={}, features=feats))
    nxt = [
        (d["tail"], d["head"]) for _, _, d in cb.graph.edges(data=True) if d["relation"] == "next"
    ]
    assert sorted(nxt) == [("p0", "p1"), ("p1", "p2")]
    assert cb.adjacency("next")[cb.index["p1"]] == [cb.index["p2"]]


# ---------------------------------------------------------------------- paths and tiles
def corner_tile(key="t/corner") -> TileAsset:
    """A square tile: a point in the middle with paths to its east and north ports."""
    return TileAsset(
        key,
        "corner",
        {"shape": "square", "size": 80},
        [
            Feature("c", "point", Point(0, 0), {"colour": "grey", "wind": "N"}),
            Feature("pn", "port", Point(0, -40)),
            Feature("pe", "port", Point(40, 0)),
            Feature("ps", "port", Point(0, 40)),
            Feature("pw", "port", Point(-40, 0)),
            Feature("a", "path", LineString([(0, 0), (40, 0)]), {"medium": "land"}),
            Feature("b", "path", LineString([(0, 0), (0, -40)]), {"medium": "water"}),
        ],
    )


def two_tiles(turns_b: int) -> Board:
    t = corner_tile()
    return Board(
        meta={},
        tiles={t.key: t},
        placements=[Placement("A", t.key, 0, 0), Placement("B", t.key, 80, 0, turns_b)],
    )


def path_pairs(cb):
    return {
        tuple(sorted((u, v))) for u, v, d in cb.graph.edges(data=True) if d["relation"] == "path"
    }


def test_connection_appears_and_disappears_as_a_tile_turns():
    """B's paths point E and N at turn 0; a quarter turn brings one to its W side."""
    cb = compile_board(two_tiles(0))
    assert ("A/c", "B/c") not in path_pairs(cb)
    cb.turn("B", 3)  # E->N, N->W: B's west port now has a path facing A's east port
    assert ("A/c", "B/c") in path_pairs(cb)
    cb.turn("B", 0)
    assert ("A/c", "B/c") not in path_pairs(cb)


def test_path_across_tiles_carries_medium_and_bearings():
    cb = compile_board(two_tiles(3))
    (d,) = [d for u, v, d in cb.graph.edges(data=True) if {u, v} == {"A/c", "B/c"}]
    assert d["medium"] == "water"  # A's land segment continues into B's water segment
    assert d["bearings"] == {"A/c": 90.0, "B/c": 270.0}  # east from A, west from B


def test_stable_ids_and_turned_directions():
    cb = compile_board(two_tiles(1))
    assert cb.graph.nodes["B/c"]["wind"] == "E"  # N turned a quarter clockwise
    assert cb.graph.nodes["B/c"]["x"] == 80


def test_dead_end_is_a_node_and_a_warning():
    cb = compile_board(two_tiles(0))
    dead = cb.nodes_of_kind("dead_end")
    assert "A/pn" in dead
    assert any(
        p.code == "dead_end" and p.node == "A/pn" and p.severity == "warning" for p in cb.problems
    )


def test_port_facing_a_port_without_path_is_reported():
    cb = compile_board(two_tiles(2))  # B's paths point W and S: W meets A's east path
    assert ("A/c", "B/c") in path_pairs(cb)
    cb.turn("B", 1)  # B's paths point S and E; its west side is port "ps" (S turned once)
    assert any(p.code == "port_without_path" and p.node == "B/ps" for p in cb.problems)
    assert "A/pe" in cb.nodes_of_kind("dead_end")


def test_path_end_reaching_nothing_is_an_error():
    b = Board(
        meta={},
        features=[
            Feature("p", "point", Point(0, 0), {}),
            Feature("l", "path", LineString([(0, 0), (30, 0)]), {}),
        ],
    )
    probs = compile_board(b).problems
    assert [(p.code, p.x, p.y) for p in probs if p.severity == "error"] == [
        ("path_end_open", 30.0, 0.0)
    ]


def test_points_on_a_path_split_it():
    b = Board(
        meta={},
        features=[Feature(n, "point", Point(x, 0), {}) for n, x in (("a", 0), ("b", 10), ("c", 20))]
        + [Feature("l", "path", LineString([(0, 0), (20, 0)]), {})],
    )
    assert path_pairs(compile_board(b)) == {("a", "b"), ("b", "c")}


def test_isolated_node_is_reported():
    b = Board(meta={}, features=[Feature("lonely", "point", Point(0, 0), {})])
    assert [p.code for p in compile_board(b).problems] == ["isolated_node"]


def test_path_view_matches_the_graph():
    cb = compile_board(two_tiles(3))
    view = cb.path_view()
    i = cb.index["A/c"]
    others = sorted(cb.ids[o] for _, o, _, _ in view.inc[i])
    assert others == sorted(
        v if u == "A/c" else u
        for u, v, d in cb.graph.edges("A/c", data=True)
        if d["relation"] == "path"
    )


def test_hit_testing_finds_the_nearest_node():
    cb = compile_board(two_tiles(0))
    assert cb.hit(79, 1)[0] == "B/c"


def test_a_path_closing_on_itself_keeps_its_closing_segment():
    """A loop from a junction around two points and back: three segments, all linked."""
    b = Board(
        meta={},
        features=[
            Feature("j", "junction", Point(0, 0), {}),
            Feature("a", "point", Point(20, 0), {}),
            Feature("b", "point", Point(20, 20), {}),
            Feature("loop", "path", LineString([(0, 0), (20, 0), (20, 20), (0, 0)]), {}),
        ],
    )
    cb = compile_board(b)
    assert path_pairs(cb) == {("a", "j"), ("a", "b"), ("b", "j")}
    assert [p for p in cb.problems if p.severity == "error"] == []


def test_a_loop_edge_can_be_left_by_either_end():
    b = Board(
        meta={},
        features=[
            Feature("j", "point", Point(0, 0), {}),
            Feature("loop", "path", LineString([(0, 0), (20, 0), (20, 20), (0, 0)]), {}),
        ],
    )
    cb = compile_board(b)
    inc = cb.path_view().inc[cb.index["j"]]
    assert sorted(round(b) for _, _, b, _ in inc) == [90, 135]  # east, or south-east back round


def test_a_space_inside_another_or_a_duplicate_is_an_overlap():
    inside = Board(
        meta={},
        features=[
            Feature("A", "space", box(0, 0, 30, 30), {}),
            Feature("B", "space", box(10, 10, 20, 20), {}),
        ],
    )
    twins = Board(
        meta={},
        features=[
            Feature("A", "space", box(0, 0, 10, 10), {}),
            Feature("B", "space", box(0, 0, 10, 10), {}),
        ],
    )
    triple = Board(
        meta={},
        features=[
            Feature("A", "space", box(0, 0, 10, 10), {}),
            Feature("A2", "space", box(0, 0, 10, 10), {}),
            Feature("B", "space", box(10, 0, 20, 10), {}),
        ],
    )
    for b in (inside, twins, triple):
        assert "overlapping_spaces" in codes(compile_board(b))


def test_a_hole_filled_by_a_space_is_not_an_overlap():
    ring = shapely.Polygon(
        [(0, 0), (30, 0), (30, 30), (0, 30)], [[(10, 10), (20, 10), (20, 20), (10, 20)]]
    )
    b = Board(
        meta={},
        features=[Feature("A", "space", ring, {}), Feature("B", "space", box(10, 10, 20, 20), {})],
    )
    cb = compile_board(b)
    assert "overlapping_spaces" not in codes(cb)
    assert edges(cb, "touch")[("A", "B")]["border"] == 40


def test_derived_data_is_built_once_and_dropped_when_relations_are_edited():
    cb = compile_board(two_tiles(0))
    calls = []
    build = lambda: calls.append(1) or len(calls)  # noqa: E731
    assert cb.derived("test.x", build) == 1 and cb.derived("test.x", build) == 1
    cb.turn("B", 1)  # path-only turn: kept
    assert cb.derived("test.x", build) == 1
    cb.board.features.append(Feature("lone", "point", Point(500, 500), {}))
    cb.update_features({"lone"})  # an edit: dropped and rebuilt
    assert cb.derived("test.x", build) == 2
    cb.forget("test.x")
    assert cb.derived("test.x", build) == 3
