"""Every shipped project's exports, read by the third-party readers users reach for.

GraphML by networkx, igraph and rustworkx; the TMJ by pytiled-parser, and the TMX that
Tiled writes from it (``tiled --export-map``, a real process, where Tiled is installed;
``.ci/run`` installs it) by pytmx, plus a TMX written here in Tiled's layout so pytmx
always gets one; GeoJSON by ``geojson`` with RFC 7946 winding checked. A reader that
refuses an export fails the test.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import geojson
import igraph
import networkx as nx
import pytest
import pytiled_parser
import pytmx
import rustworkx
import shapely
from shapely.geometry import shape

from referee.compiler import CompiledBoard, compile_board
from referee.export import GeoPlacement, to_geojson, to_graphml
from referee.export.tmj import to_tmj
from referee.store import load_project

from ...conftest import SHIPPED_PROJECTS, shipped_project


@pytest.fixture(scope="module", params=SHIPPED_PROJECTS)
def compiled(request: pytest.FixtureRequest) -> CompiledBoard:
    return compile_board(load_project(shipped_project(request.param)))


@pytest.fixture
def graphml_file(compiled: CompiledBoard, tmp_path: Path) -> Path:
    path = tmp_path / "board.graphml"
    path.write_text(to_graphml(compiled), encoding="utf-8")
    return path


# ---------------------------------------------------------------- GraphML


def test_igraph_reads_the_graphml(compiled: CompiledBoard, graphml_file: Path) -> None:
    g = igraph.Graph.Read_GraphML(str(graphml_file))
    assert (g.vcount(), g.ecount()) == (
        compiled.graph.number_of_nodes(),
        compiled.graph.number_of_edges(),
    )
    assert set(g.vs["id"]) == set(compiled.graph.nodes)
    assert sorted(g.es["relation"]) == sorted(
        d["relation"] for *_, d in compiled.graph.edges(data=True)
    )


def test_rustworkx_reads_the_graphml_with_xml_booleans(
    compiled: CompiledBoard, graphml_file: Path
) -> None:
    (g,) = rustworkx.read_graphml(str(graphml_file))
    assert (g.num_nodes(), g.num_edges()) == (
        compiled.graph.number_of_nodes(),
        compiled.graph.number_of_edges(),
    )
    read = {d["id"]: d for d in g.nodes()}
    assert set(read) == set(compiled.graph.nodes)
    flags = [(n, k, v) for n, d in compiled.graph.nodes(data=True) for k, v in d.items()]
    flags = [(n, k, v) for n, k, v in flags if isinstance(v, bool)]
    assert flags  # every shipped board has flags (goal, road, stage_goal, final, …)
    for n, k, v in flags:
        assert read[n][k] is v, (n, k)


def test_networkx_reads_the_graphml(compiled: CompiledBoard, graphml_file: Path) -> None:
    g = nx.read_graphml(graphml_file, force_multigraph=True)
    assert set(g.nodes) == set(compiled.graph.nodes)
    assert g.number_of_edges() == compiled.graph.number_of_edges()


def test_graphml_keys_are_unique_per_domain(compiled: CompiledBoard) -> None:
    """The rule igraph enforces: one key per attribute name and domain, with a GraphML type."""
    ns = {"g": "http://graphml.graphdrawing.org/xmlns"}
    keys = ET.fromstring(to_graphml(compiled)).findall("g:key", ns)
    pairs = [(k.get("for"), k.get("attr.name")) for k in keys]
    assert len(pairs) == len(set(pairs))
    assert all(k.get("attr.type") in {"boolean", "long", "double", "string"} for k in keys)


# ---------------------------------------------------------------- Tiled


def _write_tmj(compiled: CompiledBoard, folder: Path) -> Path:
    path = folder / "board.tmj"
    path.write_text(json.dumps(to_tmj(compiled)), encoding="utf-8")
    return path


def test_pytiled_parser_reads_the_tmj(compiled: CompiledBoard, tmp_path: Path) -> None:
    m = pytiled_parser.parse_map(_write_tmj(compiled, tmp_path))
    layers = {layer.name: layer for layer in m.layers}
    assert isinstance(layers["edges"], pytiled_parser.ObjectLayer)
    assert len(layers["edges"].tiled_objects) == compiled.graph.number_of_edges()
    nodes = {
        o.properties["node"]
        for name in ("spaces", "lines", "points")
        for o in layers[name].tiled_objects
    }
    assert nodes >= set(compiled.graph.nodes) - _nodes_without_geometry(compiled)


def _nodes_without_geometry(compiled: CompiledBoard) -> set[str]:
    return {n for n in compiled.graph.nodes if n not in compiled.features}


@pytest.mark.skipif(
    shutil.which("tiled") is None, reason="Tiled is not installed (.ci/run installs it)"
)
def test_pytmx_reads_the_tmx_tiled_writes(compiled: CompiledBoard, tmp_path: Path) -> None:
    tmj = _write_tmj(compiled, tmp_path)
    tmx = tmp_path / "board.tmx"
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "XDG_RUNTIME_DIR": str(tmp_path)}
    subprocess.run(
        ["tiled", "--export-map", "tmx", str(tmj), str(tmx)],
        check=True,
        env=env,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        timeout=120,
    )
    _check_pytmx(pytmx.TiledMap(str(tmx)), compiled)


def test_pytmx_reads_a_tmx_in_tileds_layout(compiled: CompiledBoard, tmp_path: Path) -> None:
    tmx = tmp_path / "board.tmx"
    tmx.write_text(_tmx_like_tiled(to_tmj(compiled)), encoding="utf-8")
    _check_pytmx(pytmx.TiledMap(str(tmx)), compiled)


def _check_pytmx(m: Any, compiled: CompiledBoard) -> None:
    edges = m.get_layer_by_name("edges")
    assert len(list(edges)) == compiled.graph.number_of_edges()
    named = [o for o in m.objects if "name_" in o.properties]
    assert named or not any("name" in f.props for _, f in compiled.features.values())
    for o in named:  # our `name` property, renamed so it does not shadow Tiled's own
        node = o.properties["node"]
        d = (
            compiled.graph.nodes[node]
            if node in compiled.graph
            else compiled.features[node][1].props
        )
        assert o.properties["name_"] == d["name"]


def _tmx_like_tiled(tmj: dict[str, Any]) -> str:
    """The TMX Tiled writes for a TMJ of object layers (Tiled 1.8's TMX writer)."""
    m = ET.Element("map", {k: str(tmj[k]) for k in ("version", "tiledversion", "orientation")})
    for k in ("renderorder", "width", "height", "tilewidth", "tileheight"):
        m.set(k, str(tmj[k]))
    m.set("infinite", "0")
    m.set("nextlayerid", str(tmj["nextlayerid"]))
    m.set("nextobjectid", str(tmj["nextobjectid"]))
    _tmx_properties(m, tmj.get("properties", []))
    for layer in tmj["layers"]:
        og = ET.SubElement(m, "objectgroup", {"id": str(layer["id"]), "name": layer["name"]})
        for o in layer["objects"]:
            attrs = {"id": str(o["id"]), "name": o["name"], "type": o["type"]}
            attrs |= {"x": _num(o["x"]), "y": _num(o["y"])}
            el = ET.SubElement(og, "object", attrs)
            _tmx_properties(el, o.get("properties", []))
            for key in ("polygon", "polyline"):
                if key in o:
                    pts = " ".join(f"{_num(p['x'])},{_num(p['y'])}" for p in o[key])
                    ET.SubElement(el, key, {"points": pts})
            if o.get("point"):
                ET.SubElement(el, "point")
    return ET.tostring(m, encoding="unicode", xml_declaration=True)


def _tmx_properties(parent: ET.Element, props: list[dict[str, Any]]) -> None:
    if not props:
        return
    el = ET.SubElement(parent, "properties")
    for p in props:
        attrs = {"name": p["name"]}
        if p["type"] != "string":
            attrs["type"] = p["type"]
        v = p["value"]
        attrs["value"] = ("true" if v else "false") if isinstance(v, bool) else str(v)
        ET.SubElement(el, "property", attrs)


def _num(v: float) -> str:
    return f"{v:g}" if float(v).is_integer() else repr(float(v))


# ---------------------------------------------------------------- GeoJSON


def _check_geojson(fc: dict[str, Any]) -> None:
    obj = geojson.loads(json.dumps(fc))
    assert obj.is_valid, obj.errors()
    for f in fc["features"]:
        geom = shape(f["geometry"])
        polys = list(geom.geoms) if geom.geom_type == "MultiPolygon" else [geom]
        for p in polys:
            if p.geom_type != "Polygon":
                continue
            assert shapely.is_ccw(p.exterior), f["id"]  # RFC 7946 §3.1.6
            assert not any(shapely.is_ccw(r) for r in p.interiors), f["id"]


def test_geojson_reads_back_valid_with_rfc7946_winding(compiled: CompiledBoard) -> None:
    fc = to_geojson(compiled)
    _check_geojson(fc)
    assert fc["boardwright"] == {"coordinates": "board-mm", "units": "mm", "y": "down"}
    assert {f["id"] for f in fc["features"]} == set(compiled.features)


def test_geojson_placed_on_the_earth(compiled: CompiledBoard) -> None:
    """Placed with north up, the winding is redone (y flips) and every point is a lon/lat
    where it should be: 1 m per mm at 52° N, the board's origin at 7.6° E."""
    geo = GeoPlacement(7.6, 52.0, metres_per_mm=1.0)
    fc = to_geojson(compiled, geo=geo)
    _check_geojson(fc)
    assert fc["boardwright"]["coordinates"] == "wgs84"
    for f in fc["features"]:
        if f["geometry"]["type"] == "Point":
            lon, lat = f["geometry"]["coordinates"]
            x, y = compiled.features[f["id"]][1].geometry.coords[0]
            assert lat == pytest.approx(52.0 - y / 111_195.08, abs=1e-7)  # one degree: 111.195 km
            assert lon == pytest.approx(7.6 + x / (111_195.08 * 0.615661), abs=1e-7)


def test_graphml_refuses_what_xml_cannot_carry_naming_the_node() -> None:
    from shapely.geometry import Point

    from referee.errors import BoardError
    from referee.model import Board, Feature

    board = Board(meta={}, features=[Feature("a", "point", Point(0, 0), {"name": "bell\x07"})])
    with pytest.raises(BoardError, match=r"graphml node 'a'.*U\+0007"):
        to_graphml(compile_board(board))


def test_cli_geojson_with_a_geographic_origin(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from referee.cli import main

    out = tmp_path / "riddle.geojson"
    project = str(shipped_project("riddle-sample"))
    argv = ["export", project, "--to", "geojson", "-o", str(out)]
    # a western longitude starts with "-": give it with "=" so it is not read as an option
    assert main([*argv, "--geo-origin=-3.19,55.95", "--geo-metres-per-mm", "10"]) == 0
    fc = json.loads(out.read_text())
    _check_geojson(fc)
    assert fc["boardwright"] == {
        "coordinates": "wgs84",
        "origin": [-3.19, 55.95],
        "metres_per_mm": 10.0,
    }
    # a 900 mm wide map at 10 m per mm spans 9 km: about 0.145 degrees of longitude there
    xs = [
        c[0]
        for f in fc["features"]
        if f["geometry"]["type"] == "Point"
        for c in [f["geometry"]["coordinates"]]
    ]
    assert min(xs) >= -3.19 and max(xs) < -3.19 + 0.15
    capsys.readouterr()
    assert main([*argv, "--geo-origin", "55.95"]) == 2
    err = capsys.readouterr().err
    assert "--geo-origin '55.95' is not LON,LAT" in err and len(err.strip().splitlines()) == 1
