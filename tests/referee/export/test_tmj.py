"""A reader for Tiled JSON maps that checks what Tiled's *JSON Map Format* reference
requires (written from the docs, independently of ``referee.export.tmj``).

``read_tmj(text)`` parses the map and raises ``TiledFormatError`` naming the first
field that Tiled's reader would reject or misread; it returns the objects by id.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest

from referee.compiler import compile_board
from referee.export.tmj import tiled_name, to_tmj
from referee.store import load_project

ORIENTATIONS = {"orthogonal", "isometric", "staggered", "hexagonal", "oblique"}
RENDER_ORDERS = {"right-down", "right-up", "left-down", "left-up"}
LAYER_TYPES = {"tilelayer", "objectgroup", "imagelayer", "group"}
PROPERTY_TYPES = {"string", "int", "float", "bool", "color", "file", "object", "class"}


class TiledFormatError(ValueError):
    pass


def _need(d: dict[str, Any], key: str, types: Any, where: str) -> Any:
    if key not in d:
        raise TiledFormatError(f"{where}: missing required field {key!r}")
    v = d[key]
    if types is int and (isinstance(v, bool) or not isinstance(v, int)):
        raise TiledFormatError(f"{where}: {key} must be an int, not {v!r}")
    if types is not int and not isinstance(v, types):
        raise TiledFormatError(f"{where}: {key} has type {type(v).__name__}")
    if types == (int, float) and isinstance(v, bool):
        raise TiledFormatError(f"{where}: {key} must be a number")
    return v


def _properties(props: Any, where: str, refs: list[tuple[str, int]]) -> dict[str, Any]:
    if not isinstance(props, list):
        raise TiledFormatError(f"{where}: properties must be an array of {{name, type, value}}")
    out: dict[str, Any] = {}
    for i, p in enumerate(props):
        w = f"{where} property[{i}]"
        if not isinstance(p, dict):
            raise TiledFormatError(f"{w}: must be an object")
        name = _need(p, "name", str, w)
        t = p.get("type", "string")
        if t not in PROPERTY_TYPES:
            raise TiledFormatError(f"{w}: unknown property type {t!r}")
        v = p.get("value")
        ok = {
            "string": isinstance(v, str),
            "file": isinstance(v, str),
            "color": isinstance(v, str),
            "bool": isinstance(v, bool),
            "int": isinstance(v, int) and not isinstance(v, bool),
            "float": isinstance(v, (int, float)) and not isinstance(v, bool),
            "object": isinstance(v, int) and not isinstance(v, bool),
            "class": isinstance(v, dict),
        }[t]
        if not ok:
            raise TiledFormatError(f"{w}: value {v!r} is not a {t}")
        if name in out:
            raise TiledFormatError(f"{w}: duplicate property {name!r}")
        if t == "object":
            refs.append((w, v))
        out[name] = v
    return out


def read_tmj(text: str) -> dict[str, Any]:
    """Parse and check a TMJ map; return ``{"map", "objects": {id: obj}, "layers": {...}}``."""
    m = json.loads(text)
    if not isinstance(m, dict):
        raise TiledFormatError("map: not a JSON object")
    if m.get("type") != "map":
        raise TiledFormatError("map: type must be 'map'")
    for key in ("width", "height", "tilewidth", "tileheight", "nextlayerid", "nextobjectid"):
        _need(m, key, int, "map")
    if m["tilewidth"] <= 0 or m["tileheight"] <= 0 or m["width"] <= 0 or m["height"] <= 0:
        raise TiledFormatError("map: sizes must be positive")
    if _need(m, "orientation", str, "map") not in ORIENTATIONS:
        raise TiledFormatError(f"map: unknown orientation {m['orientation']!r}")
    if (
        m.get("orientation") == "orthogonal"
        and m.get("renderorder", "right-down") not in RENDER_ORDERS
    ):
        raise TiledFormatError("map: bad renderorder")
    _need(m, "infinite", bool, "map")
    _need(m, "version", (str, int, float), "map")
    _need(m, "tilesets", list, "map")
    layers = _need(m, "layers", list, "map")
    refs: list[tuple[str, int]] = []
    if "properties" in m:
        _properties(m["properties"], "map", refs)
    objects: dict[int, dict[str, Any]] = {}
    by_layer: dict[str, list[dict[str, Any]]] = {}
    layer_ids = set()
    for i, layer in enumerate(layers):
        w = f"layer[{i}]"
        lid = _need(layer, "id", int, w)
        if lid in layer_ids or lid >= m["nextlayerid"]:
            raise TiledFormatError(f"{w}: layer id {lid} is repeated or not below nextlayerid")
        layer_ids.add(lid)
        _need(layer, "name", str, w)
        if _need(layer, "type", str, w) not in LAYER_TYPES:
            raise TiledFormatError(f"{w}: unknown layer type {layer['type']!r}")
        _need(layer, "visible", bool, w)
        _need(layer, "opacity", (int, float), w)
        _need(layer, "x", int, w)
        _need(layer, "y", int, w)
        if layer["type"] != "objectgroup":
            continue
        if layer.get("draworder", "topdown") not in ("topdown", "index"):
            raise TiledFormatError(f"{w}: bad draworder")
        objs = _need(layer, "objects", list, w)
        by_layer[layer["name"]] = objs
        for j, o in enumerate(objs):
            wo = f"{w} object[{j}]"
            oid = _need(o, "id", int, wo)
            if oid in objects or oid <= 0 or oid >= m["nextobjectid"]:
                raise TiledFormatError(
                    f"{wo}: object id {oid} repeated or not in 1..nextobjectid-1"
                )
            for key in ("x", "y", "width", "height", "rotation"):
                _need(o, key, (int, float), wo)
            _need(o, "name", str, wo)
            _need(o, "visible", bool, wo)
            if not isinstance(o.get("type", o.get("class", "")), str):
                raise TiledFormatError(f"{wo}: type/class must be a string")
            shapes = [
                k for k in ("point", "ellipse", "polygon", "polyline", "text", "gid") if k in o
            ]
            if len(shapes) > 1:
                raise TiledFormatError(f"{wo}: more than one shape ({shapes})")
            for k, least in (("polygon", 3), ("polyline", 2)):
                if k in o:
                    pts = o[k]
                    if (
                        not isinstance(pts, list)
                        or len(pts) < least
                        or not all(
                            isinstance(p, dict)
                            and set(p) == {"x", "y"}
                            and all(isinstance(p[c], (int, float)) for c in "xy")
                            for p in pts
                        )
                    ):
                        raise TiledFormatError(
                            f"{wo}: {k} must list at least {least} {{x, y}} points"
                        )
            if "point" in o and o["point"] is not True:
                raise TiledFormatError(f"{wo}: point must be true")
            o["_props"] = _properties(o.get("properties", []), wo, refs)
            objects[oid] = o
    for where, ref in refs:
        if ref != 0 and ref not in objects:
            raise TiledFormatError(f"{where}: object property refers to missing object {ref}")
    return {"map": m, "objects": objects, "layers": by_layer}


# ---------------------------------------------------------------------- tests
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


def test_tmj_passes_tiled_reader_and_carries_every_node_and_edge(compiled):
    """Acceptance: the TMJ export opens in Tiled's format reader; every compiled node is an
    object with its properties, every compiled edge an object whose `from`/`to` object
    references point at its two end nodes."""
    doc = read_tmj(json.dumps(to_tmj(compiled)))
    objs = doc["objects"]
    mp = {p["name"]: p["value"] for p in doc["map"]["properties"]}
    origin = (mp["origin_x_mm"], mp["origin_y_mm"])
    by_node = {
        o["_props"]["node"]: o
        for o in objs.values()
        if "node" in o["_props"] and o["type"] != "tile"
    }
    g = compiled.graph
    for n, d in g.nodes(data=True):
        o = by_node[n]
        assert o["_props"]["kind"] == d["kind"]
        for k, v in d.items():
            if k in ("x", "y", "tile", "feature", "kind") or v is None:
                continue
            got = o["_props"][tiled_name(k)]  # `name` is written `name_`, …
            assert got == (
                v if isinstance(v, (bool, int, float, str)) else json.dumps(v, sort_keys=True)
            ), (n, k)
        if "point" in o:  # a point object sits exactly on the node (1 px per mm)
            assert math.isclose(o["x"], d["x"] - origin[0], abs_tol=1e-3), n
            assert math.isclose(o["y"], d["y"] - origin[1], abs_tol=1e-3), n
    edges = doc["layers"]["edges"]
    assert len(edges) == g.number_of_edges()
    seen = set()
    for e in edges:
        p = e["_props"]
        u = objs[p["from"]]["_props"]["node"]
        v = objs[p["to"]]["_props"]["node"]
        assert g.has_edge(u, v, p["key"])
        assert g.edges[u, v, p["key"]]["relation"] == p["relation"] == e["type"]
        seen.add(p["key"])
    assert len(seen) == g.number_of_edges()


def test_tmj_geometry_in_pixels_matches_world_coordinates():
    """Polygon vertices are relative to the object position, scaled by px_per_mm."""
    c = compile_board(load_project(ROOT / "tests/fixtures/boards/little-map.json"))
    doc = read_tmj(json.dumps(to_tmj(c, px_per_mm=2.0)))
    shire = next(o for o in doc["layers"]["spaces"] if o["_props"]["node"] == "shire")
    pts = {(shire["x"] + p["x"], shire["y"] + p["y"]) for p in shire["polygon"]}
    assert pts == {(0, 0), (100, 0), (100, 100), (0, 100)}  # the 50 mm square at 2 px/mm
    road = next(o for o in doc["layers"]["lines"] if o["_props"]["node"] == "east_road")
    assert [(road["x"] + p["x"], road["y"] + p["y"]) for p in road["polyline"]] == [
        (50, 50),
        (150, 50),
        (250, 50),
    ]
    assert doc["map"]["width"] * doc["map"]["tilewidth"] >= 300


def test_reader_rejects_what_tiled_would_reject():
    """The checker is not a rubber stamp: broken maps fail with the field named."""
    c = compile_board(load_project(ROOT / "tests/fixtures/boards/road-row.json"))
    good = to_tmj(c)
    cases = [
        ("orientation", lambda m: m.update(orientation="diagonal")),
        ("nextobjectid", lambda m: m.update(nextobjectid=1)),
        (
            "object property refers to missing",
            lambda m: m["layers"][4]["objects"][0]["properties"][0].update(value=99999),
        ),
        ("tilewidth", lambda m: m.pop("tilewidth")),
        ("not a bool", lambda m: m["layers"][0]["objects"][0]["properties"][3].update(value="no")),
    ]
    for needle, breaker in cases:
        bad = json.loads(json.dumps(good))
        breaker(bad)
        with pytest.raises(TiledFormatError, match=needle):
            read_tmj(json.dumps(bad))


def test_cli_export_tmj(tmp_path):
    out = tmp_path / "board.tmj"
    from referee.cli import main

    assert (
        main(
            [
                "export",
                str(ROOT / "tests/fixtures/boards/road-row.json"),
                "--to",
                "tmj",
                "-o",
                str(out),
            ]
        )
        == 0
    )
    doc = read_tmj(out.read_text())
    assert [layer["name"] for layer in doc["map"]["layers"]] == [
        "tiles",
        "spaces",
        "lines",
        "points",
        "edges",
    ]
