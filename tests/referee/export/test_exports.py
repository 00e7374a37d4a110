"""Exports read back by independent readers: networkx for node-link and GraphML,
jsonschema for our compiled-board JSON, field checks for TTS, PNG signature/size."""

from __future__ import annotations

import json
import struct
import subprocess
import sys
from pathlib import Path

import jsonschema
import networkx as nx
import pytest

from referee.cli import main
from referee.compiler import compile_board
from referee.export import (
    compiled_schema,
    from_graphml,
    to_geojson,
    to_graphml,
    to_node_link,
    write_export,
)
from referee.export.tts import to_tts
from referee.render.png import svg_to_png
from referee.store import load_project

ROOT = Path(__file__).resolve().parents[3]
BOARDS = [
    ROOT / "tests/fixtures/boards/road-row.json",
    ROOT / "tests/fixtures/boards/little-map.json",
    ROOT / "projects/ringgeister",
    ROOT / "projects/mount-doom",
    ROOT / "projects/riddle-sample",
    ROOT / "projects/lotr-coop",
]


@pytest.fixture(params=BOARDS, ids=lambda p: p.stem)
def compiled(request):
    return compile_board(load_project(request.param))


def _same(a: dict, b: dict) -> bool:
    """Attribute dicts equal (the match function handed to networkx's isomorphism test)."""
    return a == b


def test_node_link_round_trips_to_an_isomorphic_graph_with_the_same_attributes(compiled):
    """Acceptance: node-link export → json text → networkx gives back the same graph:
    isomorphic with equal node and edge attributes, and the very same node ids."""
    text = json.dumps(to_node_link(compiled))
    back = nx.node_link_graph(json.loads(text), edges="edges", multigraph=True)
    g = compiled.graph
    assert nx.is_isomorphic(g, back, node_match=_same, edge_match=_same)
    assert dict(back.nodes(data=True)) == dict(g.nodes(data=True))
    assert sorted((u, v, k) for u, v, k in back.edges(keys=True)) == sorted(
        (u, v, k) for u, v, k in g.edges(keys=True)
    )
    for u, v, k, d in g.edges(keys=True, data=True):
        assert back.edges[u, v, k] == d


def test_graphml_round_trips_with_networkx(compiled):
    back = from_graphml(to_graphml(compiled))
    g = compiled.graph
    assert nx.is_isomorphic(g, back, node_match=_same, edge_match=_same)
    for n, d in g.nodes(data=True):
        assert back.nodes[n] == d
    for u, v, k, d in g.edges(keys=True, data=True):
        assert back.edges[u, v, k] == d


def test_compiled_json_validates_against_its_schema(compiled):
    schema = compiled_schema()
    jsonschema.Draft202012Validator.check_schema(schema)
    data = json.loads(json.dumps(to_node_link(compiled)))
    jsonschema.Draft202012Validator(schema).validate(data)
    assert (
        data["graph"]["version"] == schema["properties"]["graph"]["properties"]["version"]["const"]
    )


def test_schema_rejects_broken_compiled_json():
    c = compile_board(load_project(ROOT / "tests/fixtures/boards/road-row.json"))
    v = jsonschema.Draft202012Validator(compiled_schema())
    good = to_node_link(c)
    for breaker in (
        lambda d: d["graph"].update(version=2),
        lambda d: d["nodes"][0].pop("kind"),
        lambda d: d["edges"][0].update(relation="teleport"),
        lambda d: d["edges"][0].pop("bearing_u"),
        lambda d: d["nodes"][0].update(colour="purple"),
    ):
        bad = json.loads(json.dumps(good))
        breaker(bad)
        assert not v.is_valid(bad)


def test_geojson_has_every_feature_in_world_coordinates():
    c = compile_board(load_project(ROOT / "tests/fixtures/boards/road-row.json"))
    fc = to_geojson(c)
    ids = {f["id"] for f in fc["features"]}
    assert ids == set(c.features)
    goal = next(f for f in fc["features"] if f["id"] == "t3/g")
    assert goal["geometry"] == {"type": "Point", "coordinates": [200.0, 120.0]}
    assert goal["properties"]["goal"] is True and goal["properties"]["tile"] == "t3"


def test_tts_saved_object_has_what_tts_needs(compiled):
    data = json.loads(json.dumps(to_tts(compiled, "file:///tmp/board.png")))
    (obj,) = data["ObjectStates"]
    assert obj["Name"] == "Custom_Board"
    assert set(obj["Transform"]) == {
        "posX",
        "posY",
        "posZ",
        "rotX",
        "rotY",
        "rotZ",
        "scaleX",
        "scaleY",
        "scaleZ",
    }
    assert obj["CustomImage"]["ImageURL"] == "file:///tmp/board.png"
    assert {"ImageSecondaryURL", "ImageScalar", "WidthScale"} <= set(obj["CustomImage"])
    assert len(obj["GUID"]) == 6 and int(obj["GUID"], 16) >= 0
    snaps = obj["AttachedSnapPoints"]
    g = compiled.graph
    assert len(snaps) == g.number_of_nodes()
    by_id = {}
    for s in snaps:
        assert set(s) == {"Position", "Rotation", "Tags"}
        assert set(s["Position"]) == {"x", "y", "z"}
        node = [t[5:] for t in s["Tags"] if t.startswith("node:")]
        kind = [t[5:] for t in s["Tags"] if t.startswith("kind:")]
        assert len(node) == 1 and kind == [g.nodes[node[0]]["kind"]]
        by_id[node[0]] = s
    assert set(by_id) == set(g.nodes)
    # geometry: distances between snap points are board distances / 25.4 (TTS inches)
    a, b = sorted(g.nodes)[:2]
    da = (
        (g.nodes[a]["x"] - g.nodes[b]["x"]) ** 2 + (g.nodes[a]["y"] - g.nodes[b]["y"]) ** 2
    ) ** 0.5
    pa, pb = by_id[a]["Position"], by_id[b]["Position"]
    dt = ((pa["x"] - pb["x"]) ** 2 + (pa["z"] - pb["z"]) ** 2) ** 0.5
    assert dt == pytest.approx(da / 25.4, abs=1e-3)
    # north on the board (smaller y) is +z in TTS
    n_first = min(g.nodes, key=lambda n: g.nodes[n]["y"])
    s_last = max(g.nodes, key=lambda n: g.nodes[n]["y"])
    if g.nodes[n_first]["y"] < g.nodes[s_last]["y"]:
        assert by_id[n_first]["Position"]["z"] > by_id[s_last]["Position"]["z"]


def _png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    assert data[12:16] == b"IHDR"
    return struct.unpack(">II", data[16:24])


def test_svg_to_png_rasterises_at_the_asked_width():
    svg = (
        '<svg xmlns="http://www.w3.org/2000/svg" width="200" height="100" '
        'viewBox="0 0 200 100"><rect x="0" y="0" width="100" height="100" fill="red"/></svg>'
    )
    assert _png_size(svg_to_png(svg, 400)) == (400, 200)


def test_tts_export_with_image_url_writes_one_file(tmp_path, capsys):
    out = tmp_path / "board.json"
    assert (
        main(
            [
                "export",
                str(ROOT / "tests/fixtures/boards/road-row.json"),
                "--to",
                "tts",
                "--image-url",
                "https://example.invalid/b.png",
                "-o",
                str(out),
                "--json",
            ]
        )
        == 0
    )
    assert json.loads(capsys.readouterr().out)["files"] == [str(out)]
    assert (
        json.loads(out.read_text())["ObjectStates"][0]["CustomImage"]["ImageURL"]
        == "https://example.invalid/b.png"
    )


@pytest.mark.parametrize("fmt", ["node-link", "graphml", "geojson"])
def test_cli_export_graph_formats_read_back(tmp_path, fmt):
    out = tmp_path / f"board.{fmt}"
    assert (
        main(
            [
                "export",
                str(ROOT / "tests/fixtures/boards/little-map.json"),
                "--to",
                fmt,
                "-o",
                str(out),
            ]
        )
        == 0
    )
    c = compile_board(load_project(ROOT / "tests/fixtures/boards/little-map.json"))
    if fmt == "node-link":
        back = nx.node_link_graph(json.loads(out.read_text()), edges="edges", multigraph=True)
    elif fmt == "graphml":
        back = from_graphml(out.read_text())
    else:
        back = nx.Graph()
        back.add_nodes_from(
            f["id"]
            for f in json.loads(out.read_text())["features"]
            if f["properties"]["kind"] == "space"
        )
    assert set(back.nodes) == set(c.graph.nodes)


def test_export_errors_are_one_line(tmp_path):
    """Run as a user does (a process), so a traceback would show."""
    r = subprocess.run(
        [
            sys.executable,
            "-m",
            "referee",
            "export",
            str(ROOT / "tests/fixtures/boards/road-row.json"),
            "--to",
            "tmj",
            "-o",
            str(tmp_path / "no/such/dir/x.tmj"),
        ],
        capture_output=True,
        text=True,
    )
    assert r.returncode == 2 and "does not exist" in r.stderr and "Traceback" not in r.stderr
    assert (
        main(
            ["export", str(tmp_path / "missing.json"), "--to", "tmj", "-o", str(tmp_path / "x.tmj")]
        )
        == 1
    )


def test_svg_and_png_exports_use_render(tmp_path):
    c = compile_board(load_project(ROOT / "tests/fixtures/boards/road-row.json"))
    svg_file, png_file = tmp_path / "b.svg", tmp_path / "b.png"
    write_export(c, "svg", svg_file)
    assert "<svg" in svg_file.read_text()[:500]
    write_export(c, "png", png_file, png_width=320)
    assert _png_size(png_file.read_bytes())[0] == 320
    files = write_export(c, "tts", tmp_path / "t.json", png_width=256)
    assert [f.name for f in files] == ["t.png", "t.json"]
    url = json.loads((tmp_path / "t.json").read_text())["ObjectStates"][0]["CustomImage"][
        "ImageURL"
    ]
    assert url.startswith("file://") and url.endswith("/t.png")
