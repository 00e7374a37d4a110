"""The live compile stays equal to a full compile whatever edits are made (README.md:
"recompiles incrementally"), and exports write files."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import shapely
from hypothesis import example, given, settings
from hypothesis import strategies as st

from editor.commands import (
    AddFeatureCommand,
    DeleteCommand,
    EditVerticesCommand,
    MoveCommand,
    SetPropertyCommand,
)
from editor.document import Document, new_board
from referee.compiler import compile_board
from referee.model import Feature

from .conftest import RINGGEISTER

# a 4 x 4 grid of 50 mm squares: neighbours share whole borders
GRID = [
    (f"s{r}{c}", shapely.box(50 * c, 50 * r, 50 * c + 50, 50 * r + 50))
    for r in range(4)
    for c in range(4)
]

edit = st.one_of(
    st.tuples(
        st.just("move"),
        st.integers(0, 15),
        st.sampled_from([-50, 0, 50, 25]),
        st.sampled_from([-50, 0, 50]),
    ),
    st.tuples(st.just("delete"), st.integers(0, 15), st.just(0), st.just(0)),
    st.tuples(st.just("add"), st.integers(0, 3), st.integers(0, 4), st.just(0)),
    st.tuples(st.just("vertex"), st.integers(0, 15), st.integers(-20, 20), st.just(0)),
    st.tuples(st.just("terrain"), st.integers(0, 15), st.just(0), st.just(0)),
    st.tuples(st.just("undo"), st.just(0), st.just(0), st.just(0)),
)


@settings(max_examples=25, deadline=None)
@given(st.lists(edit, min_size=1, max_size=8))
@example([("move", 9, 50, 50), ("move", 13, -50, -50)])  # three spaces on one border
def test_live_region_compile_equals_full_compile(
    qapp: Any, edits: list[tuple[str, int, int, int]]
) -> None:
    b = new_board()
    b.features = [Feature(i, "space", g, {"terrain": "open"}) for i, g in GRID]
    doc = Document(b)
    n_added = 0
    for kind, i, a, c in edits:
        ids = [f.id for f in b.features]
        if kind == "undo":
            if doc.undo.canUndo():
                doc.undo.undo()
        elif not ids:
            continue
        elif kind == "move":
            doc.undo.push(MoveCommand(doc, {f"f:{ids[i % len(ids)]}"}, a, c))
        elif kind == "delete":
            doc.undo.push(DeleteCommand(doc, {f"f:{ids[i % len(ids)]}"}))
        elif kind == "add":
            n_added += 1
            doc.undo.push(
                AddFeatureCommand(
                    doc,
                    Feature(
                        f"n{n_added}",
                        "space",
                        shapely.box(200 + 50 * a, 50 * i, 250 + 50 * a, 50 * i + 50),
                        {"terrain": "forest"},
                    ),
                )
            )
        elif kind == "vertex":
            f = b.features[i % len(ids)]
            cs = list(f.geometry.exterior.coords)[:-1]
            cs[0] = (cs[0][0] + a / 4, cs[0][1] + a / 5)
            g = shapely.Polygon(cs)
            if g.is_valid:
                doc.undo.push(EditVerticesCommand(doc, f.id, g))
        elif kind == "terrain":
            doc.undo.push(SetPropertyCommand(doc, [ids[i % len(ids)]], "terrain", "lake"))
        doc.recompile_now()
        full = compile_board(b.copy())
        assert doc.compiled.edge_set() == full.edge_set()
        assert sorted(map(str, doc.compiled.problems)) == sorted(map(str, full.problems))
        assert set(doc.compiled.graph.nodes) == set(full.graph.nodes)


def test_turns_on_the_default_board_stay_equal_to_full_compile(qapp: Any) -> None:
    from editor.commands import TurnCommand
    from referee.store import load_project

    if not RINGGEISTER.exists():
        return
    b = load_project(RINGGEISTER)
    doc = Document(b)
    turnable = [p.id for p in b.placements if b.tiles[p.tile].turnable][:4]
    for k, pid in enumerate(turnable):
        doc.undo.push(TurnCommand(doc, [pid], 1 if k % 2 else -1))
        assert doc.recompile_now() == "turn"
        assert doc.compiled.edge_set() == compile_board(b.copy()).edge_set()
    doc.undo.undo()
    doc.recompile_now()
    assert doc.compiled.edge_set() == compile_board(b.copy()).edge_set()


def test_feature_edits_on_a_river_map_stay_incremental_and_exact(qapp: Any) -> None:
    """On a map with rivers, river dots, bridges and roads every free-standing feature
    edit (a space's vertex, a river dot moved, a road deleted, a bridge added, a point
    drawn, undo) is applied incrementally and equals a full compile (issue 6)."""
    from referee.generators import voronoi_map

    b = voronoi_map(150, seed=2, rivers=2, river_steps=6, roads=2, road_steps=5)
    doc = Document(b)
    river = next(f for f in b.features if f.kind == "river")
    cs = list(river.geometry.coords)
    space = next(f for f in b.features if f.kind == "space" and cs[2] in f.geometry.exterior.coords)
    dot = next(f for f in b.features if f.kind == "river_dot")
    road = next(f for f in b.features if f.kind == "road")

    def nudged(f: Feature) -> Any:
        ring = list(f.geometry.exterior.coords)[:-1]
        k = ring.index(cs[2])
        c = f.geometry.centroid
        ring[k] = (ring[k][0] + (c.x - ring[k][0]) * 0.05, ring[k][1] + (c.y - ring[k][1]) * 0.05)
        return shapely.Polygon(ring)

    edits: list[tuple[Any, str]] = [
        (lambda: EditVerticesCommand(doc, space.id, nudged(space)), "regions"),
        (lambda: MoveCommand(doc, {f"f:{dot.id}"}, 2.0, 0.0), "regions"),
        (lambda: DeleteCommand(doc, {f"f:{road.id}"}), "regions"),
        (
            lambda: AddFeatureCommand(
                doc,
                Feature(
                    "bx",
                    "bridge",
                    shapely.Point((cs[1][0] + cs[2][0]) / 2, (cs[1][1] + cs[2][1]) / 2),
                    {},
                ),
            ),
            "regions",
        ),
        (lambda: SetPropertyCommand(doc, [space.id], "terrain", "lake"), "regions"),
        (lambda: SetPropertyCommand(doc, [space.id], "name", "Marsh"), "props"),
        (lambda: AddFeatureCommand(doc, Feature("px", "point", shapely.Point(3, 3), {})), "paths"),
    ]
    for make, strategy in edits:
        doc.undo.push(make())
        assert doc.recompile_now() == strategy
        full = compile_board(b)
        assert doc.compiled.edge_set() == full.edge_set()
        assert sorted(map(str, doc.compiled.problems)) == sorted(map(str, full.problems))
        assert dict(doc.compiled.graph.nodes(data=True)) == dict(full.graph.nodes(data=True))
    while doc.undo.canUndo():
        doc.undo.undo()
        assert doc.recompile_now() in ("regions", "paths", "props")
        full = compile_board(b)
        assert doc.compiled.edge_set() == full.edge_set()
        assert sorted(map(str, doc.compiled.problems)) == sorted(map(str, full.problems))


def test_export_png_and_svg(make_window: Any, tmp_path: Path) -> None:
    b = new_board()
    b.features.append(Feature("s", "space", shapely.box(10, 10, 100, 100), {"terrain": "forest"}))
    win = make_window(board=b, packs={})
    png = tmp_path / "b.png"
    win.export_picture(png, "png", px_per_mm=2.0)
    from PySide6.QtGui import QImage

    img = QImage(str(png))
    assert (img.width(), img.height()) == (1200, 1200)
    assert (
        QImage(str(png)).pixelColor(100, 100).green() > QImage(str(png)).pixelColor(100, 100).red()
    )
    svg = tmp_path / "b.svg"
    win.export_picture(svg, "svg")
    assert svg.read_text().lstrip().startswith(("<?xml", "<svg"))
