"""Tiled maps not made by Boardwright: what each object, tile and layer becomes."""

from __future__ import annotations

import gzip
import json
import math
import re
from pathlib import Path
from typing import Any
from xml.etree import ElementTree as ET

import pytest
from PIL import Image

from referee.compiler import compile_board
from referee.importers import ImportRefused, ImportSettings, import_board

#: Tiled's examples as Debian installs them (all of them, where ``tiled`` is installed)
EXAMPLES = Path("/usr/share/doc/tiled/examples")
#: a few of them kept in the repository (tests/data/tiled-examples/LICENSE.md), so maps
#: made by Tiled's authors are imported on every machine
VENDORED = Path(__file__).resolve().parents[2] / "data" / "tiled-examples"


def _map(layers: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
    m = {
        "type": "map",
        "version": "1.10",
        "tiledversion": "1.10.2",
        "orientation": "orthogonal",
        "renderorder": "right-down",
        "infinite": False,
        "width": 10,
        "height": 10,
        "tilewidth": 20,
        "tileheight": 20,
        "nextlayerid": len(layers) + 1,
        "nextobjectid": 100,
        "layers": layers,
        "tilesets": [],
    }
    m.update(extra)
    return m


def _objects(objs: list[dict[str, Any]], name: str = "objects", **extra: Any) -> dict[str, Any]:
    base = {"rotation": 0, "visible": True, "width": 0, "height": 0, "name": ""}
    return {
        "id": 1,
        "name": name,
        "type": "objectgroup",
        "draworder": "topdown",
        "objects": [{**base, **o} for o in objs],
        "opacity": 1,
        "visible": True,
        "x": 0,
        "y": 0,
        **extra,
    }


def _write(tmp_path: Path, data: dict[str, Any], name: str = "map.tmj") -> Path:
    p = tmp_path / name
    p.write_text(json.dumps(data), encoding="utf-8")
    return p


def test_object_kinds_follow_class_property_and_shape(tmp_path: Path) -> None:
    """Polygons are spaces, polylines paths (rivers or roads by their class or a
    ``kind`` property), points points (junctions, doors, river dots, bridges by class)."""
    square = [{"x": 0, "y": 0}, {"x": 40, "y": 0}, {"x": 40, "y": 40}, {"x": 0, "y": 40}]
    line = [{"x": 0, "y": 0}, {"x": 40, "y": 0}]
    objs = [
        {"id": 1, "x": 0, "y": 0, "polygon": square, "name": "Shire"},
        {"id": 2, "x": 0, "y": 50, "polyline": line, "type": "river"},
        {
            "id": 3,
            "x": 0,
            "y": 60,
            "polyline": line,
            "properties": [{"name": "kind", "type": "string", "value": "road"}],
        },
        {"id": 4, "x": 0, "y": 70, "polyline": line},
        {"id": 5, "x": 5, "y": 5, "point": True},
        {"id": 6, "x": 6, "y": 6, "point": True, "type": "junction"},
        {"id": 7, "x": 7, "y": 7, "point": True, "class": "door"},
        {"id": 8, "x": 8, "y": 8, "point": True, "type": "river_dot"},
        {"id": 9, "x": 9, "y": 9, "point": True, "type": "bridge"},
        {"id": 10, "x": 100, "y": 100, "width": 20, "height": 10, "type": "space"},
        {"id": 11, "x": 3, "y": 3, "point": True, "type": "chest"},
    ]
    board = import_board("tmj", _write(tmp_path, _map([_objects(objs)]))).board
    kinds = {f.id: f.kind for f in board.features}
    assert kinds == {
        "o1": "space", "o2": "river", "o3": "road", "o4": "path", "o5": "point",
        "o6": "junction", "o7": "door", "o8": "river_dot", "o9": "bridge", "o10": "space",
        "o11": "point",
    }  # fmt: skip
    by_id = {f.id: f for f in board.features}
    assert by_id["o1"].props == {"name": "Shire"}
    assert by_id["o11"].props == {"class": "chest"}  # a class that is no kind is kept
    assert by_id["o10"].geometry.bounds == (100.0, 100.0, 120.0, 110.0)
    compile_board(board)


def test_custom_properties_go_through_the_vocabulary(tmp_path: Path) -> None:
    """Riddle's letters arrive as comma-separated text and become a list; a value the
    vocabulary refuses is one line naming the object."""
    square = [{"x": 0, "y": 0}, {"x": 40, "y": 0}, {"x": 40, "y": 40}, {"x": 0, "y": 40}]
    props = [
        {"name": "terrain", "type": "string", "value": "forest"},
        {"name": "letters", "type": "string", "value": "G, C"},
    ]
    path = _write(
        tmp_path,
        _map([_objects([{"id": 1, "x": 0, "y": 0, "polygon": square, "properties": props}])]),
    )
    (space,) = import_board("tmj", path).board.features
    assert space.props == {"terrain": "forest", "letters": ["G", "C"]}
    props[0]["value"] = "lava"
    path = _write(
        tmp_path,
        _map([_objects([{"id": 1, "x": 0, "y": 0, "polygon": square, "properties": props}])]),
    )
    with pytest.raises(ImportRefused) as e:
        import_board("tmj", path)
    (line,) = e.value.problems
    assert "layer 'objects' object 1" in line and "terrain='lava'" in line


def test_units_come_from_the_flag_or_the_map_property(tmp_path: Path) -> None:
    objs = [{"id": 1, "x": 40, "y": 20, "point": True}]
    plain = _write(tmp_path, _map([_objects(objs)]))
    assert import_board("tmj", plain).board.features[0].geometry.coords[0] == (40.0, 20.0)
    prop = [{"name": "px_per_mm", "type": "float", "value": 4.0}]
    scaled = _write(tmp_path, _map([_objects(objs)], properties=prop), "scaled.tmj")
    assert import_board("tmj", scaled).board.features[0].geometry.coords[0] == (10.0, 5.0)
    flag = import_board("tmj", scaled, ImportSettings(px_per_mm=2.0))
    assert flag.board.features[0].geometry.coords[0] == (20.0, 10.0)


def test_rotated_rectangle_and_ellipse(tmp_path: Path) -> None:
    """A rectangle turned 90° clockwise about its top-left corner; an ellipse as a
    32-sided polygon, said once in the losses."""
    objs = [
        {"id": 1, "x": 100, "y": 100, "width": 40, "height": 20, "rotation": 90},
        {"id": 2, "x": 0, "y": 0, "width": 20, "height": 20, "ellipse": True},
    ]
    result = import_board("tmj", _write(tmp_path, _map([_objects(objs)])))
    rect, ell = result.board.features
    x0, y0, x1, y1 = rect.geometry.bounds
    assert (round(x0, 9), round(y0, 9), round(x1, 9), round(y1, 9)) == (80.0, 100.0, 100.0, 140.0)
    assert len(ell.geometry.exterior.coords) == 33
    assert math.isclose(ell.geometry.area, math.pi * 100, rel_tol=0.01)
    assert result.lost == ["1 ellipses: drawn as 32-sided polygons"]


def _tileset_png(path: Path) -> None:
    im = Image.new("RGB", (40, 20), "red")
    im.paste(Image.new("RGB", (20, 20), "blue"), (20, 0))
    im.save(path)


def test_tile_layer_cells_become_placements_turned_by_their_flags(tmp_path: Path) -> None:
    """Each cell a placement of its tile's asset (the picture cut from the sheet), at
    the cell's centre; diagonal+horizontal flags are a quarter turn clockwise."""
    _tileset_png(tmp_path / "sheet.png")
    ts = {
        "firstgid": 1, "name": "ground", "tilewidth": 20, "tileheight": 20, "tilecount": 2,
        "columns": 2, "image": "sheet.png", "imagewidth": 40, "imageheight": 20,
        "margin": 0, "spacing": 0,
    }  # fmt: skip
    d_h = 0x20000000 | 0x80000000
    layer = {
        "id": 1, "name": "ground", "type": "tilelayer", "width": 2, "height": 1,
        "data": [1, 2 | d_h], "opacity": 1, "visible": True, "x": 0, "y": 0,
    }  # fmt: skip
    m = _map([layer], width=2, height=1, tilesets=[ts])
    board = import_board("tmj", _write(tmp_path, m)).board
    a, b = board.placements
    assert (a.tile, a.x, a.y, a.turns) == ("ground/0", 10.0, 10.0, 0)
    assert (b.tile, b.x, b.y, b.turns) == ("ground/1", 30.0, 10.0, 1)
    face = board.tiles["ground/1"].face
    assert face is not None
    assert board.images.open(face).getpixel((5, 5))[:3] == (0, 0, 255)


def test_a_hexagonal_map_places_tiles_where_tiled_draws_them(tmp_path: Path) -> None:
    """staggeraxis y, odd rows shifted by half a tile (Tiled's hexagonal renderer)."""
    ts = {
        "firstgid": 1,
        "name": "hex",
        "tilewidth": 14,
        "tileheight": 12,
        "tilecount": 1,
        "columns": 1,
        "margin": 0,
        "spacing": 0,
        "tiles": [],
    }
    layer = {
        "id": 1,
        "name": "g",
        "type": "tilelayer",
        "width": 2,
        "height": 2,
        "data": [1, 1, 1, 1],
        "opacity": 1,
        "visible": True,
        "x": 0,
        "y": 0,
    }
    m = _map(
        [layer],
        orientation="hexagonal",
        width=2,
        height=2,
        tilewidth=14,
        tileheight=12,
        hexsidelength=6,
        staggeraxis="y",
        staggerindex="odd",
        tilesets=[ts],
    )
    board = import_board("tmj", _write(tmp_path, m)).board
    assert [(p.x, p.y) for p in board.placements] == [
        (7.0, 6.0),
        (21.0, 6.0),
        (14.0, 15.0),
        (28.0, 15.0),
    ]
    outline = board.tiles["hex/0"].outline
    assert len(outline.exterior.coords) == 7 and outline.bounds == (-7.0, -6.0, 7.0, 6.0)


def test_tile_collision_objects_with_a_kind_are_the_tiles_features(tmp_path: Path) -> None:
    ts = {
        "firstgid": 1, "name": "t", "tilewidth": 20, "tileheight": 20, "tilecount": 1, "columns": 1,
        "margin": 0, "spacing": 0,
        "tiles": [{"id": 0, "objectgroup": {"type": "objectgroup", "name": "", "opacity": 1, "visible": True, "x": 0, "y": 0, "draworder": "index", "objects": [
            {"id": 1, "name": "", "type": "point", "x": 10, "y": 2, "point": True, "rotation": 0, "visible": True, "width": 0, "height": 0},
            {"id": 2, "name": "", "type": "", "x": 0, "y": 0, "width": 5, "height": 5, "rotation": 0, "visible": True},
        ]}}],
    }  # fmt: skip
    layer = {
        "id": 1,
        "name": "g",
        "type": "tilelayer",
        "width": 1,
        "height": 1,
        "data": [1],
        "opacity": 1,
        "visible": True,
        "x": 0,
        "y": 0,
    }
    result = import_board("tmj", _write(tmp_path, _map([layer], width=1, height=1, tilesets=[ts])))
    (f,) = result.board.tiles["t/0"].features
    assert (f.kind, f.geometry.coords[0]) == ("point", (0.0, -8.0))
    assert result.lost == ["1 collision shapes of tileset tiles without a kind: left out"]
    nodes = set(compile_board(result.board).graph.nodes)
    assert nodes == {f"{result.board.placements[0].id}/o1"}


def test_an_image_layer_is_the_background(tmp_path: Path) -> None:
    Image.new("RGB", (30, 10), "green").save(tmp_path / "bg.png")
    layer = {
        "id": 1,
        "name": "bg",
        "type": "imagelayer",
        "image": "bg.png",
        "offsetx": 8,
        "offsety": 4,
        "opacity": 0.5,
        "visible": True,
        "x": 0,
        "y": 0,
    }
    board = import_board(
        "tmj",
        _write(
            tmp_path,
            _map([layer], properties=[{"name": "px_per_mm", "type": "float", "value": 2.0}]),
        ),
    ).board
    bg = board.background
    assert bg is not None and (bg.x, bg.y, bg.scale, bg.opacity) == (4.0, 2.0, 0.5, 0.5)
    assert board.images.info(bg.image).width == 30


# ---------------------------------------------------------------- Tiled's own examples
def _example_maps() -> list[Path]:
    found = []
    for folder in (VENDORED, EXAMPLES):
        if folder.is_dir():
            found += sorted(p for p in folder.rglob("*") if p.name.endswith((".tmx", ".tmx.gz")))
    return found


def test_vendored_examples_are_there() -> None:
    """The kept examples cover an orthogonal map with an external tileset and two
    hexagonal maps, so the test below never runs on nothing."""
    names = {p.name for p in _example_maps() if p.parent == VENDORED}
    assert {"desert.tmx", "hexagonal-mini.tmx", "test_hexagonal_tile_60x60x30.tmx"} <= names


def _example_id(path: Path) -> str:
    for folder in (VENDORED, EXAMPLES):
        if folder in path.parents:
            return f"{folder.name}/{path.relative_to(folder)}"
    return str(path)


def _xml(path: Path) -> ET.Element:
    data = path.read_bytes()
    return ET.fromstring(gzip.decompress(data) if path.suffix == ".gz" else data)


@pytest.mark.parametrize("path", _example_maps(), ids=_example_id)
def test_tileds_example_maps(path: Path) -> None:
    """Every orthogonal or hexagonal example imports, every object becomes a feature or
    (a tile object) a placement, and the board compiles; the others are refused with
    one line per problem naming the file."""
    root = _xml(path)
    if root.get("orientation") not in ("orthogonal", "hexagonal"):
        with pytest.raises(ImportRefused) as e:
            import_board("tmx", path)
        assert all(line.startswith(str(path)) for line in e.value.problems)
        assert any(
            f"{root.get('orientation')} maps are not supported" in line for line in e.value.problems
        )
        return
    board = import_board("tmx", path).board
    objects = list(root.iter("object"))
    tile_objects = [o for o in objects if o.get("gid") or o.get("template")]
    cells = 0
    for layer in root.iter("layer"):
        data = layer.find("data")
        assert data is not None
        cells += _cells(data, int(layer.get("width", "0")) * int(layer.get("height", "0")))
    assert len(board.features) == len(objects) - len(tile_objects)
    assert len(board.placements) == cells + len(tile_objects)
    compiled = compile_board(board)
    assert set(compiled.graph.nodes) >= {
        f.id for f in board.features if f.kind in ("point", "space")
    }


def _cells(data: ET.Element, n: int) -> int:
    """How many cells of a <data> element hold a tile (decoded independently)."""
    import base64
    import struct
    import zlib

    text = (data.text or "").strip()
    if data.get("encoding") == "csv":
        gids = [int(v) for v in re.split(r"[,\s]+", text) if v]
    else:
        raw = base64.b64decode(text)
        if data.get("compression") == "zlib":
            raw = zlib.decompress(raw)
        elif data.get("compression") == "gzip":
            raw = gzip.decompress(raw)
        gids = list(struct.unpack(f"<{n}I", raw))
    return sum(1 for g in gids if g & 0x0FFFFFFF)
