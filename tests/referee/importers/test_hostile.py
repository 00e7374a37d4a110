"""Bad and hostile input for every import format: one line per problem, exit 1, nothing
written, no traceback, never a read outside the files the user named."""

from __future__ import annotations

import base64
import json
import os
import time
import zlib
from pathlib import Path
from typing import Any

import pytest

from referee.cli import main

SQUARE = [{"x": 0, "y": 0}, {"x": 10, "y": 0}, {"x": 10, "y": 10}, {"x": 0, "y": 10}]
BOWTIE = [{"x": 0, "y": 0}, {"x": 10, "y": 10}, {"x": 10, "y": 0}, {"x": 0, "y": 10}]


def tmj(objects: list[dict[str, Any]] | None = None, **extra: Any) -> dict[str, Any]:
    base = {"rotation": 0, "visible": True, "width": 0, "height": 0, "name": ""}
    m = {
        "type": "map", "version": "1.10", "tiledversion": "1.10.2", "orientation": "orthogonal",
        "renderorder": "right-down", "infinite": False, "width": 4, "height": 4,
        "tilewidth": 16, "tileheight": 16, "nextlayerid": 2, "nextobjectid": 9,
        "tilesets": [],
        "layers": [{
            "id": 1, "name": "o", "type": "objectgroup", "draworder": "topdown", "opacity": 1,
            "visible": True, "x": 0, "y": 0,
            "objects": [{**base, "id": i + 1, **o} for i, o in enumerate(objects or [])],
        }],
    }  # fmt: skip
    m.update(extra)
    return m


def tmx(body: str = "", **attrs: str) -> str:
    a = {
        "version": "1.10",
        "orientation": "orthogonal",
        "width": "4",
        "height": "4",
        "tilewidth": "16",
        "tileheight": "16",
        "infinite": "0",
        "nextlayerid": "2",
        "nextobjectid": "9",
        "renderorder": "right-down",
        "tiledversion": "1.10",
    }
    a.update(attrs)
    head = " ".join(f'{k}="{v}"' for k, v in a.items())
    return f'<?xml version="1.0"?>\n<map {head}>{body}</map>'


def geo(features: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "type": "FeatureCollection",
        "boardwright": {"coordinates": "board-mm"},
        "features": features,
    }


def gfeat(geometry: dict[str, Any], **props: Any) -> dict[str, Any]:
    return {"type": "Feature", "geometry": geometry, "properties": props}


def node_link(
    nodes: list[dict[str, Any]], edges: list[dict[str, Any]] | None = None
) -> dict[str, Any]:
    return {
        "directed": False,
        "multigraph": False,
        "graph": {},
        "nodes": nodes,
        "edges": edges or [],
    }


def graphml(body: str) -> str:
    return (
        '<?xml version="1.0"?>\n<graphml xmlns="http://graphml.graphdrawing.org/xmlns">'
        '<key id="x" for="node" attr.name="x" attr.type="double"/>'
        '<key id="y" for="node" attr.name="y" attr.type="double"/>'
        f'<graph edgedefault="undirected">{body}</graph></graphml>'
    )


def run(fmt: str, path: Path, capsys: pytest.CaptureFixture[str], *flags: str) -> list[str]:
    """``referee import``: exit 1, nothing written; the stderr lines."""
    out = path.parent / "out.bwproj"
    before = set(path.parent.iterdir())
    t0 = time.perf_counter()
    code = main(["import", fmt, str(path), "-o", str(out), *flags])
    took = time.perf_counter() - t0
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 1, err
    assert took < 10, took  # refused at once (a FIFO never blocks)
    assert not out.exists() and set(path.parent.iterdir()) == before  # nothing written
    assert err and all(line.startswith("referee import: ") for line in err), err
    assert not any("Traceback" in line or "internal error" in line for line in err)
    return err


def write(tmp_path: Path, name: str, data: Any) -> Path:
    p = tmp_path / name
    p.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    return p


DEEP_JSON = "[" * 500 + "]" * 500
DEEP_XML = "<g>" * 500 + "</g>" * 500


@pytest.mark.parametrize(
    ("fmt", "name", "content", "needle"),
    [
        ("tmj", "deep.tmj", DEEP_JSON, "nested deeper"),
        ("geojson", "deep.geojson", DEEP_JSON, "nested deeper"),
        ("node-link", "deep.json", DEEP_JSON, "nested deeper"),
        ("tmx", "deep.tmx", tmx(DEEP_XML), "nested deeper"),
        ("graphml", "deep.graphml", graphml(DEEP_XML), "nested deeper"),
        (
            "tmj",
            "nan.tmj",
            json.dumps(tmj([{"x": 1, "y": 2, "point": True}])).replace('"x": 1', '"x": NaN'),
            "NaN",
        ),
        (
            "geojson",
            "nan.geojson",
            '{"type": "FeatureCollection", "features": [{"type": "Feature", "properties": {}, "geometry": {"type": "Point", "coordinates": [NaN, 1]}}]}',
            "NaN",
        ),
        ("node-link", "nan.json", '{"nodes": [{"id": "a", "x": NaN, "y": 0}], "edges": []}', "NaN"),
        (
            "tmx",
            "nan.tmx",
            tmx(
                '<objectgroup id="1" name="o"><object id="1" x="nan" y="0"><point/></object></objectgroup>'
            ),
            "NaN",
        ),
        (
            "graphml",
            "nan.graphml",
            graphml('<node id="a"><data key="x">NaN</data><data key="y">0</data></node>'),
            "not finite",
        ),
        ("tmj", "huge.tmj", tmj([{"x": 1e300, "y": 0, "point": True}]), "beyond"),
        (
            "geojson",
            "huge.geojson",
            geo([gfeat({"type": "Point", "coordinates": [1e300, 0]})]),
            "beyond",
        ),
        ("node-link", "huge.json", node_link([{"id": "a", "x": 1e300, "y": 0}]), "beyond"),
        (
            "tmx",
            "huge.tmx",
            tmx(
                '<objectgroup id="1" name="o"><object id="1" x="1e300" y="0"><point/></object></objectgroup>'
            ),
            "beyond",
        ),
        (
            "graphml",
            "huge.graphml",
            graphml('<node id="a"><data key="x">1e300</data><data key="y">0</data></node>'),
            "beyond",
        ),
        ("tmj", "bowtie.tmj", tmj([{"x": 0, "y": 0, "polygon": BOWTIE}]), "Self-intersection"),
        (
            "tmx",
            "bowtie.tmx",
            tmx(
                '<objectgroup id="1" name="o"><object id="1" x="0" y="0"><polygon points="0,0 10,10 10,0 0,10"/></object></objectgroup>'
            ),
            "Self-intersection",
        ),
        (
            "geojson",
            "bowtie.geojson",
            geo(
                [
                    gfeat(
                        {
                            "type": "Polygon",
                            "coordinates": [[[0, 0], [10, 10], [10, 0], [0, 10], [0, 0]]],
                        }
                    )
                ]
            ),
            "Self-intersection",
        ),
        (
            "tmx",
            "bomb.tmx",
            '<?xml version="1.0"?><!DOCTYPE m [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;">]><map>&b;</map>',
            "refused",
        ),
        (
            "graphml",
            "bomb.graphml",
            '<?xml version="1.0"?><!DOCTYPE g [<!ENTITY a "aaaaaaaaaa">]><graphml>&a;</graphml>',
            "refused",
        ),
        ("tmj", "iso.tmj", tmj(orientation="isometric"), "isometric maps are not supported"),
        ("tmj", "inf.tmj", tmj(infinite=True), "infinite maps are not supported"),
        ("tmj", "notmap.tmj", {"hello": 1}, "not a Tiled JSON map"),
        ("geojson", "notgeo.geojson", [1, 2], "not GeoJSON"),
        ("node-link", "notgraph.json", {"nodes": 3}, "not node-link"),
        ("graphml", "broken.graphml", "<graphml><graph>", "malformed XML"),
    ],
    ids=lambda v: v if isinstance(v, str) and len(v) < 20 else "",
)
def test_bad_input_is_one_line_and_exit_1(
    fmt: str,
    name: str,
    content: Any,
    needle: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    err = run(fmt, write(tmp_path, name, content), capsys)
    assert any(needle in line for line in err), err
    assert any(name in line for line in err), err  # the line names the file


@pytest.mark.parametrize("fmt", ["tmj", "geojson", "node-link"])
def test_a_hundred_thousand_objects_are_refused_before_parsing(
    fmt: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    n = 100_001
    if fmt == "tmj":
        data: Any = tmj([{"x": i % 100, "y": i // 100, "point": True} for i in range(n)])
    elif fmt == "geojson":
        data = geo([gfeat({"type": "Point", "coordinates": [i, 0]}) for i in range(n)])
    else:
        data = node_link([{"id": i, "x": i, "y": 0} for i in range(n)])
    (line,) = run(fmt, write(tmp_path, f"big.{fmt}", data), capsys)
    assert "100001" in line and "more than" in line


def test_graphml_with_a_hundred_thousand_nodes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    body = "".join(f'<node id="n{i}"/>' for i in range(100_001))
    (line,) = run("graphml", write(tmp_path, "big.graphml", graphml(body)), capsys)
    assert "more than a board holds" in line


@pytest.mark.parametrize("fmt", ["tmj", "tmx", "geojson", "node-link", "graphml"])
def test_a_fifo_is_refused_at_once(
    fmt: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    (line,) = run(fmt, fifo, capsys)
    assert "not a regular file" in line


def test_a_tileset_outside_the_maps_folder_is_not_read(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    secret = tmp_path / "secret.tsx"
    secret.write_text('<tileset name="s" tilewidth="1" tileheight="1" tilecount="0" columns="0"/>')
    home = tmp_path / "maps"
    home.mkdir()
    (home / "link.tsx").symlink_to(secret)  # a link out of the folder
    for ref in ("../secret.tsx", "link.tsx", str(secret)):
        m = tmj(tilesets=[{"firstgid": 1, "source": ref}])
        (line,) = run("tmj", write(home, "map.tmj", m), capsys)
        assert "leads out of" in line and "--root" in line
    # --root widens the folder: then the tileset is read
    m = tmj(tilesets=[{"firstgid": 1, "source": "../secret.tsx"}])
    path = write(home, "map.tmj", m)
    out = home / "ok.bwproj"
    assert main(["import", "tmj", str(path), "-o", str(out), "--root", str(tmp_path)]) == 0
    assert out.exists()


def test_an_image_layer_leading_out_is_left_out_not_read(tmp_path: Path) -> None:
    from referee.importers import import_board

    m = tmj()
    m["layers"].append(
        {
            "id": 2,
            "name": "bg",
            "type": "imagelayer",
            "image": "/etc/passwd",
            "opacity": 1,
            "visible": True,
            "x": 0,
            "y": 0,
        }
    )
    result = import_board("tmj", write(tmp_path, "map.tmj", m))
    assert result.board.background is None
    assert any("leads out of" in line for line in result.lost)


def test_missing_tilesets_templates_and_zstd_layers_one_line_each(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    layer = {
        "id": 2,
        "name": "z",
        "type": "tilelayer",
        "width": 4,
        "height": 4,
        "encoding": "base64",
        "compression": "zstd",
        "data": "AAAA",
        "opacity": 1,
        "visible": True,
        "x": 0,
        "y": 0,
    }
    m = tmj(
        [{"x": 0, "y": 0, "template": "gone.tx"}], tilesets=[{"firstgid": 1, "source": "gone.tsx"}]
    )
    m["layers"].append(layer)
    err = run("tmj", write(tmp_path, "map.tmj", m), capsys)
    assert len(err) == 3, err
    assert any("tileset 'gone.tsx'" in e and "missing" in e for e in err)
    assert any("template 'gone.tx'" in e and "missing" in e for e in err)
    assert any("layer 'z'" in e and "zstd" in e for e in err)


def test_a_zlib_bomb_in_a_tile_layer_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bomb = base64.b64encode(zlib.compress(b"\0" * 50_000_000)).decode()
    layer = {
        "id": 2,
        "name": "b",
        "type": "tilelayer",
        "width": 4,
        "height": 4,
        "encoding": "base64",
        "compression": "zlib",
        "data": bomb,
        "opacity": 1,
        "visible": True,
        "x": 0,
        "y": 0,
    }
    m = tmj()
    m["layers"].append(layer)
    (line,) = run("tmj", write(tmp_path, "map.tmj", m), capsys)
    assert "unpacks to more or less than its 16 cells" in line


def test_existing_output_is_not_replaced_without_force(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    src = write(tmp_path, "a.geojson", geo([gfeat({"type": "Point", "coordinates": [1, 2]})]))
    out = tmp_path / "out.json"
    out.write_text("mine")
    assert main(["import", "geojson", str(src), "-o", str(out)]) == 2
    assert out.read_text() == "mine"
    assert "--force" in capsys.readouterr().err
    assert main(["import", "geojson", str(src), "-o", str(out), "--force"]) == 0
    assert json.loads(out.read_text())["format"] == "boardwright-project"
