"""A compiled board as a Tiled JSON map (``.tmj``) that the Tiled map editor opens.

Layout of the map (following Tiled's *JSON Map Format* reference):

- an ``orthogonal`` map, ``renderorder`` ``right-down``, not ``infinite``, no
  tilesets and no tile layers; ``width``/``height`` count grid cells of
  ``grid_mm`` millimetres (``tilewidth``/``tileheight`` in pixels), so the grid
  covers the whole board;
- five object layers (``type`` ``objectgroup``): ``tiles`` (each placed tile's
  outline as a polygon), ``spaces`` (spaces and counter spaces as polygons),
  ``lines`` (paths, rivers, roads, tracks as polylines), ``points`` (points,
  junctions, doors, ports, river dots, bridges, labels as point objects) and
  ``edges`` (one polyline per compiled edge, from its first node to its second);
- every object carries our properties as Tiled custom properties
  ``{"name", "type", "value"}``: ``node`` (the stable node id), ``kind``, ``tile``
  (the placement), then the feature's own properties. A property named like one of
  Tiled's own attributes (:data:`RESERVED`: ``name``, ``points``, ``type``, …) is
  written with a trailing underscore (``name_``, ``points_``), as Python spells a
  keyword: TMX readers refuse a custom property that shadows an attribute (pytmx:
  "Reserved names and duplicate names are not allowed"). Booleans, integers, floats
  and strings keep their Tiled type; lists and mappings (``letters``,
  ``arrival``, ``bearings``) are written as JSON text in a ``string`` property;
  ``None`` values are left out;
- an edge object has ``from`` and ``to`` properties of type ``object`` whose value
  is the Tiled object id of its end nodes (Tiled shows them as links), plus
  ``relation`` and the edge's attributes.

Coordinates: Tiled measures pixels with y down, like us; one millimetre becomes
``px_per_mm`` pixels. A polygon or polyline object sits at its first vertex and
lists its points relative to it, as Tiled does. Numbers are written in full (not
rounded), so an import gets the same coordinates back (:mod:`referee.importers`); an
object one of whose vertices its offset from the first would not give back exactly
(a traced board's 16-digit coordinates) sits at the map's origin instead.
Polygon holes are dropped (Tiled has none); ``art`` features are not objects.

What a Tiled map has no place for — the tile assets in their own frame, the
placements' centres, the board's settings, piece types and decks, the ``art``
features — is the map property ``boardwright``: the JSON text of
:func:`referee.export.carry.board_block`. The map also says ``width_mm`` and
``height_mm``.

Notes
-----
Linear in the number of features and edges.
"""

from __future__ import annotations

import json
import math
from typing import Any

import shapely
from shapely.geometry.base import BaseGeometry

from ..compiler import CompiledBoard
from ..errors import BoardError
from ..safeio import dumps_json
from .carry import board_block

#: Tiled JSON format version written (objects carry ``type``, as in Tiled ≥ 1.10).
TILED_JSON_VERSION = "1.10"
TILED_VERSION = "1.10.2"

_POLYGON_KINDS = ("space", "counter_space")
_LINE_KINDS = ("path", "river", "road", "track")
_POINT_KINDS = ("point", "junction", "door", "port", "river_dot", "bridge", "label")
LAYERS = ("tiles", "spaces", "lines", "points", "edges")


#: Attribute names of Tiled's maps, layers and objects (TMX and TMJ), which a custom
#: property must not shadow; ours that would are written with a trailing underscore.
RESERVED = frozenset(
    {
        # objects
        "id", "name", "type", "class", "x", "y", "width", "height", "rotation", "gid",
        "visible", "template", "point", "ellipse", "polygon", "polyline", "text", "points",
        "closed", "image", "parent", "properties",
        # layers
        "opacity", "offsetx", "offsety", "parallaxx", "parallaxy", "tintcolor", "color",
        "draworder", "objects", "layers", "locked", "mode",
        # maps
        "version", "tiledversion", "orientation", "renderorder", "compressionlevel",
        "tilewidth", "tileheight", "hexsidelength", "staggeraxis", "staggerindex",
        "backgroundcolor", "nextlayerid", "nextobjectid", "infinite", "tilesets",
        "filename",
    }
)  # fmt: skip


def tiled_name(name: str) -> str:
    """The custom property name for our attribute ``name`` (see :data:`RESERVED`)."""
    return f"{name}_" if name in RESERVED else name


def tiled_property(name: str, value: Any) -> dict[str, Any] | None:
    """One Tiled custom property for ``value`` (``None`` for a missing value).

    ``name`` is our attribute's name; the property is named :func:`tiled_name` of it.
    """
    if value is None:
        return None
    name = tiled_name(name)
    if isinstance(value, bool):
        return {"name": name, "type": "bool", "value": value}
    if isinstance(value, int):
        return {"name": name, "type": "int", "value": value}
    if isinstance(value, float):
        if not math.isfinite(value):
            return {"name": name, "type": "string", "value": str(value)}
        return {"name": name, "type": "float", "value": value}
    if isinstance(value, str):
        return {"name": name, "type": "string", "value": value}
    return {"name": name, "type": "string", "value": json.dumps(value, sort_keys=True)}


def _props(pairs: dict[str, Any]) -> list[dict[str, Any]]:
    out = []
    for k, v in pairs.items():
        p = tiled_property(k, v)
        if p is not None:
            out.append(p)
    return out


class _Writer:
    def __init__(self, px_per_mm: float, ox: float, oy: float) -> None:
        self.s = px_per_mm
        self.ox, self.oy = ox, oy
        self.next_id = 1

    def xy(self, x: float, y: float) -> tuple[float, float]:
        return (x - self.ox) * self.s, (y - self.oy) * self.s

    def obj(
        self, name: str, cls: str, geom: BaseGeometry, props: list[dict[str, Any]]
    ) -> dict[str, Any] | None:
        o: dict[str, Any] = {
            "id": self.next_id,
            "name": name,
            "type": cls,
            "rotation": 0,
            "visible": True,
            "width": 0,
            "height": 0,
        }
        if geom.geom_type == "Point":
            o["x"], o["y"] = self.xy(geom.x, geom.y)
            o["point"] = True
        elif geom.geom_type == "Polygon":
            ring = list(geom.exterior.coords)[:-1]
            self._vertices(o, ring, "polygon")
        elif geom.geom_type == "LineString":
            self._vertices(o, list(geom.coords), "polyline")
        else:
            return None
        if props:
            o["properties"] = props
        self.next_id += 1
        return o

    def _vertices(self, o: dict[str, Any], coords: list[Any], key: str) -> None:
        pts = [self.xy(c[0], c[1]) for c in coords]
        x0, y0 = pts[0]
        if any(x0 + (x - x0) != x or y0 + (y - y0) != y for x, y in pts):
            # a vertex that its offset from the first would not give back exactly:
            # the object sits at the map's origin and lists its vertices as they are
            x0 = y0 = 0.0
        o["x"], o["y"] = x0, y0
        o[key] = [{"x": x - x0, "y": y - y0} for x, y in pts]


def to_tmj(
    compiled: CompiledBoard, *, px_per_mm: float = 1.0, grid_mm: float = 10.0
) -> dict[str, Any]:
    """The compiled board as a Tiled JSON map (a dict ready for ``json.dumps``).

    Parameters
    ----------
    compiled : CompiledBoard
    px_per_mm : float
        Pixels per millimetre in the map (Tiled works in pixels).
    grid_mm : float
        Size of Tiled's grid cell in millimetres (the map's ``tilewidth``).
    """
    board = compiled.board
    bounds = _board_bounds(compiled)
    ox, oy = bounds[0], bounds[1]
    w = _Writer(px_per_mm, ox, oy)
    layers: dict[str, list[dict[str, Any]]] = {name: [] for name in LAYERS}
    obj_of_node: dict[str, int] = {}

    for p in board.placements:
        tile = board.tile_of(p)
        outline = board.outline_of(p)
        o = w.obj(
            p.id,
            "tile",
            outline,
            _props(
                {
                    "placement": p.id,
                    "tile": p.tile,
                    "turns": p.turns,
                    "turnable": tile.turnable,
                    "turn_count": tile.turn_count,
                }
            ),
        )
        if o is not None:
            layers["tiles"].append(o)

    g = compiled.graph
    for nid, (owner, f) in compiled.features.items():
        if f.kind in _POLYGON_KINDS:
            layer = "spaces"
        elif f.kind in _LINE_KINDS:
            layer = "lines"
        elif f.kind in _POINT_KINDS:
            layer = "points"
        else:
            continue
        kind = g.nodes[nid]["kind"] if nid in g else f.kind
        attrs: dict[str, Any] = {"node": nid, "kind": kind, "tile": owner, "feature": f.id}
        if nid in g:  # compiled attributes (road, city_space, turned wind ...) win
            attrs.update(
                {
                    k: v
                    for k, v in g.nodes[nid].items()
                    if k not in ("x", "y", "kind", "tile", "feature")
                }
            )
        else:
            attrs.update(f.props)
        o = w.obj(nid, kind, f.geometry, _props(attrs))
        if o is None:
            continue
        layers[layer].append(o)
        if nid in g:
            obj_of_node[nid] = o["id"]

    for u, v, k, d in g.edges(keys=True, data=True):
        a, b = g.nodes[u], g.nodes[v]
        line = (
            shapely.LineString([(a["x"], a["y"]), (b["x"], b["y"])])
            if u != v
            else shapely.LineString([(a["x"], a["y"]), (a["x"] + 1e-3, a["y"])])
        )
        props = [
            {"name": "from", "type": "object", "value": obj_of_node.get(u, 0)},
            {"name": "to", "type": "object", "value": obj_of_node.get(v, 0)},
            {"name": "from_node", "type": "string", "value": u},
            {"name": "to_node", "type": "string", "value": v},
            {"name": "key", "type": "string", "value": k},
        ]
        props += _props({a2: b2 for a2, b2 in d.items() if a2 not in ("u", "v")})
        o = w.obj(f"{d['relation']} {u}–{v}", d["relation"], line, props)
        if o is not None:
            layers["edges"].append(o)

    grid_px = max(1, round(grid_mm * px_per_mm))
    width_px = (bounds[2] - bounds[0]) * px_per_mm
    height_px = (bounds[3] - bounds[1]) * px_per_mm
    layer_json = []
    for i, name in enumerate(LAYERS, start=1):
        layer_json.append(
            {
                "id": i,
                "name": name,
                "type": "objectgroup",
                "draworder": "topdown",
                "objects": layers[name],
                "opacity": 1,
                "visible": True,
                "x": 0,
                "y": 0,
            }
        )
    return {
        "type": "map",
        "version": TILED_JSON_VERSION,
        "tiledversion": TILED_VERSION,
        "orientation": "orthogonal",
        "renderorder": "right-down",
        "infinite": False,
        "width": max(1, math.ceil(width_px / grid_px)),
        "height": max(1, math.ceil(height_px / grid_px)),
        "tilewidth": grid_px,
        "tileheight": grid_px,
        "compressionlevel": -1,
        "nextlayerid": len(LAYERS) + 1,
        "nextobjectid": w.next_id,
        "layers": layer_json,
        "tilesets": [],
        "properties": _props(
            {
                "name": board.name,
                "rules": board.rules,
                "board_hash": compiled.hash,
                "px_per_mm": px_per_mm,
                "origin_x_mm": ox,
                "origin_y_mm": oy,
                "generator": "boardwright referee export --to tmj",
                "boardwright": dumps_json(
                    board_block(compiled, ("art",)), "tmj boardwright", error=BoardError
                ),
            }
        ),
    }


def _board_bounds(compiled: CompiledBoard) -> tuple[float, float, float, float]:
    """(minx, miny, maxx, maxy) in mm: the board's declared size or its features' extent."""
    meta = compiled.board.meta
    geoms = [f.geometry for _, f in compiled.features.values()]
    geoms += [compiled.board.outline_of(p) for p in compiled.board.placements]
    if geoms:
        minx, miny, maxx, maxy = shapely.GeometryCollection(geoms).bounds
    else:
        minx = miny = maxx = maxy = 0.0
    minx, miny = min(0.0, minx), min(0.0, miny)
    w, h = meta.get("width"), meta.get("height")
    if isinstance(w, (int, float)) and not isinstance(w, bool):
        maxx = max(maxx, float(w))
    if isinstance(h, (int, float)) and not isinstance(h, bool):
        maxy = max(maxy, float(h))
    if maxx <= minx:
        maxx = minx + 1.0
    if maxy <= miny:
        maxy = miny + 1.0
    return float(minx), float(miny), float(maxx), float(maxy)
