"""GeoJSON and graphs not made by Boardwright: what each feature, node and edge becomes."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import networkx as nx
import pytest

from referee.cli import main
from referee.compiler import compile_board
from referee.export import write_export
from referee.importers import ImportRefused, ImportSettings, import_board
from referee.store import load_project

from ...conftest import shipped_project


def _write(tmp_path: Path, name: str, data: Any) -> Path:
    p = tmp_path / name
    p.write_text(json.dumps(data), encoding="utf-8")
    return p


def test_rfc7946_longitude_latitude_is_laid_north_up_from_its_north_west_corner(
    tmp_path: Path,
) -> None:
    """Two squares side by side at 52° N, 1 km apart: the board's origin is the data's
    north-west corner, north up, and the longer side becomes 1000 mm."""
    dlat = 1000 / 111_195.08  # one km of latitude, in degrees
    dlon = dlat / math.cos(math.radians(52.0))

    def square(x0: float) -> dict[str, Any]:
        ring = [
            [7 + x0, 52],
            [7 + x0 + dlon / 2, 52],
            [7 + x0 + dlon / 2, 52 - dlat / 2],
            [7 + x0, 52 - dlat / 2],
            [7 + x0, 52],
        ]
        return {
            "type": "Feature",
            "geometry": {"type": "Polygon", "coordinates": [ring]},
            "properties": {"name": f"s{x0:.3f}", "terrain": "forest"},
        }

    fc = {"type": "FeatureCollection", "features": [square(0.0), square(dlon / 2)]}
    board = import_board("geojson", _write(tmp_path, "a.geojson", fc)).board
    a, b = board.features
    assert (a.kind, a.props) == ("space", {"name": "s0.000", "terrain": "forest"})
    ax0, ay0, ax1, ay1 = a.geometry.bounds
    assert (round(ax0, 6), round(ay0, 6), round(ax1, 3), round(ay1, 3)) == (0.0, 0.0, 500.0, 500.0)
    assert round(b.geometry.bounds[2], 3) == 1000.0
    compiled = compile_board(board)
    assert compiled.counts()["edges"] == {"touch": 1}  # the squares share a border
    scaled = import_board(
        "geojson", _write(tmp_path, "a.geojson", fc), ImportSettings(metres_per_mm=10.0)
    )
    assert round(scaled.board.features[1].geometry.bounds[2], 3) == 100.0


def test_kinds_multi_parts_and_plain_units(tmp_path: Path) -> None:
    fc = {
        "type": "FeatureCollection",
        "features": [
            {
                "type": "Feature",
                "id": "r",
                "geometry": {"type": "LineString", "coordinates": [[1000, 2000], [1010, 2000]]},
                "properties": {"kind": "river"},
            },
            {
                "type": "Feature",
                "id": "isl",
                "geometry": {
                    "type": "MultiPolygon",
                    "coordinates": [
                        [[[1000, 2000], [1001, 2000], [1001, 2001], [1000, 2000]]],
                        [[[1005, 2000], [1006, 2000], [1006, 2001], [1005, 2000]]],
                    ],
                },
                "properties": {},
            },
            {"type": "Feature", "geometry": None, "properties": {}},
        ],
    }
    result = import_board(
        "geojson", _write(tmp_path, "p.geojson", fc), ImportSettings(mm_per_unit=2.0)
    )
    kinds = {f.id: f.kind for f in result.board.features}
    assert kinds == {"r": "river", "isl.1": "space", "isl.2": "space"}
    assert result.board.features[0].geometry.coords[0] == (0.0, 2.0)  # y up, top-left at 0
    assert sorted(result.lost) == [
        "1 coordinates that are not longitude/latitude: read as plain units, y up",
        "1 features without geometry: left out",
        "1 multi-part features: one feature per part (id.1, id.2 …)",
    ]


def test_a_geojson_laid_on_the_earth_comes_back_exactly(tmp_path: Path) -> None:
    from referee.export import GeoPlacement

    c = compile_board(load_project(shipped_project("riddle-sample")))
    out = tmp_path / "r.geojson"
    write_export(c, "geojson", out, geo=GeoPlacement(-3.19, 55.95, 2.0))
    back = compile_board(import_board("geojson", out).board)
    assert back.hash == c.hash


def test_a_graph_without_positions_is_laid_out_reproducibly(tmp_path: Path) -> None:
    g = nx.path_graph(5)
    nx.set_node_attributes(g, {0: "junction"}, "kind")
    nx.set_edge_attributes(g, "water", "medium")
    data = nx.node_link_data(g, edges="edges")
    path = _write(tmp_path, "g.json", data)
    a = import_board("node-link", path).board
    b = import_board("node-link", path).board
    assert [f.geometry.coords[0] for f in a.features] == [f.geometry.coords[0] for f in b.features]
    nodes = [f for f in a.features if f.kind != "path"]
    assert [f.id for f in nodes] == ["0", "1", "2", "3", "4"] and nodes[0].kind == "junction"
    assert all(0 <= x <= 600 and 0 <= y <= 600 for f in nodes for x, y in f.geometry.coords)
    compiled = compile_board(a)
    assert compiled.counts()["edges"] == {"path": 4}
    assert all(d["medium"] == "water" for _, _, d in compiled.graph.edges(data=True))


def test_graphml_from_another_tool_with_positions(tmp_path: Path) -> None:
    g = nx.Graph()
    g.add_node("a/1", x=0.0, y=0.0, colour="black")
    g.add_node("b", x=30.0, y=40.0)
    g.add_edge("a/1", "b", weight=2.5)
    path = tmp_path / "g.graphml"
    nx.write_graphml(g, path)
    result = import_board("graphml", path, ImportSettings(mm_per_unit=2.0))
    feats = {f.id: f for f in result.board.features}
    assert feats["a_1"].props == {"colour": "black"}
    assert feats["b"].geometry.coords[0] == (60.0, 80.0)
    (edge,) = [f for f in feats.values() if f.kind == "path"]
    assert edge.props == {"weight": 2.5} and edge.geometry.length == 100.0
    assert result.lost == ["1 ids with '/' (kept for tile features): '/' became '_'"]
    g.nodes["b"]["colour"] = "purple"  # not a colour Ringgeister's vocabulary knows
    nx.write_graphml(g, path)
    with pytest.raises(ImportRefused, match=r"node 'b'.*colour='purple'"):
        import_board("graphml", path)


def test_a_graph_changed_after_export_is_refused_unless_graph_only(tmp_path: Path) -> None:
    c = compile_board(load_project(shipped_project("mount-doom")))
    out = tmp_path / "g.json"
    write_export(c, "node-link", out)
    data = json.loads(out.read_text())
    data["nodes"][0]["name"] = "renamed in another tool"
    out.write_text(json.dumps(data))
    with pytest.raises(ImportRefused, match=r"1 nodes and 0 edges.*--graph-only"):
        import_board("node-link", out)
    result = import_board("node-link", out, ImportSettings(graph_only=True))
    first = result.board.features[0]
    assert first.props["name"] == "renamed in another tool"
    assert any("next relations: paths" in line for line in result.lost)


def test_cli_json_report(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    src = tmp_path / "b.tmj"
    write_export(compile_board(load_project(shipped_project("ringgeister"))), "tmj", src)
    out = tmp_path / "b.bwproj"
    assert main(["import", "tmj", str(src), "-o", str(out), "--json"]) == 0
    cap = capsys.readouterr()
    report = json.loads(cap.out)
    assert report["board_hash"] == compile_board(load_project(out)).hash
    assert report["lost"] == [] and report["placements"] == 23 and report["errors"] == 0
    assert cap.err.startswith(f"wrote {out}: ")


def test_cli_json_error_lists_every_problem(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    fc = {"type": "FeatureCollection", "boardwright": {"coordinates": "board-mm"}, "features": [
        {"type": "Feature", "geometry": {"type": "Polygon", "coordinates": [[[0, 0], [1, 1], [1, 0], [0, 1], [0, 0]]]}, "properties": {}},
        {"type": "Feature", "geometry": {"type": "Point", "coordinates": [0, 0]}, "properties": {"kind": "space"}},
    ]}  # fmt: skip
    src = _write(tmp_path, "bad.geojson", fc)
    assert main(["import", "geojson", str(src), "-o", str(tmp_path / "o.json"), "--json"]) == 1
    cap = capsys.readouterr()
    problems = json.loads(cap.out)["error"]["details"]["problems"]
    assert len(problems) == 2 and len(cap.err.strip().splitlines()) == 2
    assert "features[1]" in problems[1] and "a space needs a Polygon, not a Point" in problems[1]


def test_an_open_dataset_montreals_electoral_districts(tmp_path: Path) -> None:
    """A real GeoJSON not made by us: Montreal's 2013 electoral districts, shipped in
    plotly's package data (read where it is installed, not copied). Every district
    becomes spaces (a multi-part one, one space per part) with its name, and the
    districts that share a border touch."""
    import gzip
    import importlib.resources

    src = importlib.resources.files("plotly") / "package_data" / "datasets" / "election.geojson.gz"
    path = Path(str(src))
    data = json.loads(gzip.decompress(path.read_bytes()))
    parts = sum(
        len(f["geometry"]["coordinates"]) if f["geometry"]["type"] == "MultiPolygon" else 1
        for f in data["features"]
    )
    result = import_board("geojson", path)
    board = result.board
    assert len(board.features) == parts and {f.kind for f in board.features} == {"space"}
    names = {f.props["district"] for f in board.features}
    assert names == {f["properties"]["district"] for f in data["features"]}
    compiled = compile_board(board)
    assert not compiled.errors()
    touch = compiled.counts()["edges"]["touch"]
    assert touch >= len(data["features"])  # a city map: neighbours share borders
    # Ahuntsic (13) and Sault-au-Récollet (11) are neighbours in the north of the island
    assert any(
        {u.split(".")[0], v.split(".")[0]} == {"11", "13"}
        for u, v, d in compiled.graph.edges(data=True)
        if d["relation"] == "touch"
    )
