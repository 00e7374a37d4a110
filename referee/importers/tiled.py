"""Tiled maps (TMJ and TMX) as boards, read with pytiled-parser.

What becomes what (Tiled's terms on the left):

- **object layers** → features. The kind is the object's ``kind`` property, else its
  class (``type`` before Tiled 1.9) when that names a feature kind (``space``,
  ``river``, ``road``, ``bridge``, ``river_dot``, ``junction``, ``door`` …), else
  the layer's ``kind`` property or class, else the shape's: polygons, rectangles
  and ellipses → ``space``, polylines → ``path``, points → ``point``, text →
  ``label``. A class that is not a kind is kept as the property ``class``; the
  object's name as ``name``. Custom properties become feature properties through
  the vocabulary (:mod:`.props`); objects of a point kind drawn as a shape stand at
  its centre; ellipses become 32-sided polygons; rotated objects are turned.
- **tile layers and tilesets** → tile assets (one per tileset tile used, its
  outline the tile's rectangle — or, on hexagonal maps, the map's hexagon — its
  face the tile's picture, its features the tile's collision objects that name a
  kind) and placements, the flip flags read as quarter turns (diagonal +
  horizontal = 90° clockwise, horizontal + vertical = 180°, diagonal + vertical =
  270°). **Tile objects** are placements too, turned by their rotation.
- **image layers** → the background (the first), then ``art`` features showing
  the picture.
- **group layers** → their layers, offsets added up.

Units: one millimetre is ``px_per_mm`` pixels — the ``--px-per-mm`` given, else the
map's property ``px_per_mm`` (Boardwright's export writes it), else 1. Orthogonal and
hexagonal maps are read; isometric and staggered maps, infinite maps, zstd layers,
templates or tilesets that are missing or lead out of the map's folder are refused,
one line each. A Boardwright export (:mod:`referee.export.tmj`) carries the rest of
the board in the map property ``boardwright`` (:mod:`referee.export.carry`): its
tile assets, placements and settings are taken from there, its features from the
objects (so edits made in Tiled come back), and the objects Boardwright writes for
others — compiled edges, tile outlines, tile faces — are left out.

The parser only ever sees bytes checked first: the map and every file it refers to
are read through :mod:`.sources`, checked and copied into a private folder that
pytiled-parser reads (:mod:`.tiled_files`; FIFOs, links out, gzip bombs and DTDs
never reach it).

Notes
-----
Linear in the objects and cells; the coordinates of all objects are recovered in
one vectorized pass (:func:`.exact.recover`).
"""

from __future__ import annotations

import io
import math
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pytiled_parser
import shapely
from PIL import Image
from pytiled_parser import tiled_object as to
from shapely.geometry.base import BaseGeometry

from ..errors import BoardwrightError
from ..export.tmj import RESERVED
from ..images.store import image_id
from ..model import FEATURE_KINDS, Background, Board, Placement, TileAsset
from ..safeio import loads_json
from ..vocabulary import plugins
from .build import Builder, block_order, check_shape, read_block, unreferenced_images
from .exact import recover
from .result import ImportRefused, ImportResult, Losses, Problems
from .settings import ImportSettings, Progress
from .tiled_files import TiledFiles

#: Tiled's flip flags in a global tile id (the rest is the id)
FLIP_H, FLIP_V, FLIP_D, ROTATE_120 = 0x80000000, 0x40000000, 0x20000000, 0x10000000
GID_MASK = 0x0FFFFFFF
#: (diagonal, horizontal, vertical) flags -> clockwise quarter turns (the unmirrored ones)
QUARTER_TURNS = {(0, 0, 0): 0, (1, 1, 0): 1, (0, 1, 1): 2, (1, 0, 1): 3}
ELLIPSE_SIDES = 32
_SHAPE_KIND = {"polygon": "space", "polyline": "path", "point": "point", "text": "label"}
#: attributes the compiler derives, which Boardwright's export writes on objects
_DERIVED = {"space": ("road",), "river_dot": ("city_space",)}


def read_tiled(
    path: Path, settings: ImportSettings, progress: Progress | None = None
) -> ImportResult:
    """Read a TMJ or TMX map (see the module's notes)."""
    return _Reader(path, settings, progress).run()


# ---------------------------------------------------------------------- the map as a board
@dataclass
class _Pending:
    """An object converted but for its coordinates (recovered for all at once)."""

    kind: str
    shape: str  # point, polygon, polyline
    start: int  # first vertex in the vertex arrays
    count: int
    props: dict[str, Any]
    where: str
    fid: Any
    centre: bool = False  # a point kind drawn as a shape: stands at its centre


class _Reader:
    def __init__(self, path: Path, settings: ImportSettings, progress: Progress | None) -> None:
        self.path = Path(path)
        self.settings = settings
        self.progress = progress
        self.problems = Problems(str(path))
        self.losses = Losses()
        self.files = TiledFiles(self.path, settings, self.problems, self.losses)

    def run(self) -> ImportResult:
        with tempfile.TemporaryDirectory(prefix="boardwright-import-") as tmp:
            board = self._convert(self.files.parse(Path(tmp)))
        kind = "tmx" if self.files.xml else "tmj"
        return ImportResult(board, kind, str(self.path), self.losses.lines())

    # -- converting
    def _convert(self, m: Any) -> Board:
        props = {k: _plain(v) for k, v in (m.properties or {}).items()}
        s = self.settings.px_per_mm
        if s is None:
            s = props.get("px_per_mm", 1.0)
            if not isinstance(s, (int, float)) or isinstance(s, bool) or not (1e-6 <= s <= 1e6):
                self.problems.add(
                    "map property px_per_mm", f"{s!r} is not a number from 1e-6 to 1e6"
                )
                s = 1.0
        self.s = float(s)
        ox, oy = props.get("origin_x_mm", 0.0), props.get("origin_y_mm", 0.0)
        self.ox = float(ox) if isinstance(ox, (int, float)) and math.isfinite(ox) else 0.0
        self.oy = float(oy) if isinstance(oy, (int, float)) and math.isfinite(oy) else 0.0
        self.map = m
        self.base: Board | None = None
        block = props.get("boardwright")
        order: list[str] = []
        if isinstance(block, str):
            try:
                raw = loads_json(block, "map property boardwright", error=ImportRefused)
                self.base = read_block(raw, self.problems)
                order = block_order(raw)
            except ImportRefused as exc:
                self.problems.add("map property boardwright", exc.message)
        taken = set()
        if self.base is not None:
            taken = {p.id for p in self.base.placements} | {f.id for f in self.base.features}
        self.builder = Builder(self.problems, self.losses, taken)
        self.builder.order = order
        #: the placements the carried block brings (their objects are Boardwright's own)
        self.carried = {p.id for p in self.base.placements} if self.base is not None else set()
        if self.base is not None:
            self._carried_pictures(m, self.base)
        self.board = self.base if self.base is not None else Board()
        self.assets: dict[int, str | None] = {}
        self.hexagonal = m.orientation == "hexagonal"
        self.xs: list[float] = []  # stored x (relative to x0), y likewise
        self.ys: list[float] = []
        self.x0: list[float] = []
        self.y0: list[float] = []
        self.exact: list[bool] = []
        self.pending: list[_Pending] = []
        self.done = 0
        self.total = max(1, sum(1 for _ in self._walk(m.layers, 0.0, 0.0)))
        for layer, dx, dy in self._walk(m.layers, 0.0, 0.0):
            self._layer(layer, dx, dy)
        self._finish_objects()
        meta: dict[str, Any] = {}
        if self.base is None:
            meta = {
                "name": props.get("name")
                if isinstance(props.get("name"), str)
                else self.path.stem.split(".")[0],
                "width": m.map_size.width * m.tile_size.width / self.s,
                "height": m.map_size.height * m.tile_size.height / self.s,
            }
            if isinstance(props.get("rules"), str):
                meta["rules"] = props["rules"]
        if self.settings.rules is not None:
            meta["rules"] = self.settings.rules
        rules = meta.get("rules", self.board.meta.get("rules"))
        if isinstance(rules, str) and rules not in plugins():
            self.problems.add("", f"unknown rules {rules!r} (installed: {', '.join(plugins())})")
        board = self.builder.board(self.board, meta)
        unreferenced_images(board, self.losses)
        return board

    def _carried_pictures(self, m: Any, base: Board) -> None:
        """The pictures of a Boardwright export's tile faces: its tileset's images whose
        bytes are the ones the carried tile assets name (the same bytes, the same id)."""
        wanted = {iid for _, iid in base.image_uses()}
        for ts in m.tilesets.values():
            for tile in (ts.tiles or {}).values():
                if tile.image is None:
                    continue
                blob = self.files.image_bytes(tile.image)
                if blob is not None and image_id(blob) in wanted:
                    try:
                        base.images.add(blob, Path(str(tile.image)).name)
                    except BoardwrightError:
                        self.losses.add(
                            "face", "tile pictures that could not be read: tiles without faces"
                        )

    def _walk(self, layers: Any, dx: float, dy: float) -> Iterator[tuple[Any, float, float]]:
        for layer in layers or []:
            ox = dx + float(layer.offset.x) if layer.offset else dx
            oy = dy + float(layer.offset.y) if layer.offset else dy
            if isinstance(layer, pytiled_parser.LayerGroup):
                yield from self._walk(layer.layers, ox, oy)
            else:
                yield layer, ox, oy

    def _layer(self, layer: Any, dx: float, dy: float) -> None:
        pf = layer.parallax_factor
        if pf is not None and (pf.x != 1 or pf.y != 1):
            self.losses.add("parallax", "layers' parallax factors: boards do not scroll")
        if isinstance(layer, pytiled_parser.ObjectLayer):
            kind = _layer_kind(layer)
            for o in layer.tiled_objects:
                self._object(o, f"layer {layer.name!r} object {o.id}", kind, dx, dy)
        elif isinstance(layer, pytiled_parser.TileLayer):
            self._tile_layer(layer, dx, dy)
        elif isinstance(layer, pytiled_parser.ImageLayer):
            self._image_layer(layer, dx, dy)
        self.done += 1
        if self.progress is not None:
            self.progress(self.done, self.total)

    # -- objects
    def _object(self, o: Any, where: str, layer_kind: str | None, dx: float, dy: float) -> None:
        props = {k: _plain(v) for k, v in (o.properties or {}).items()}
        if "from_node" in props and "to_node" in props:
            return  # a compiled edge Boardwright's export draws for others
        placements = self.carried
        if isinstance(o, to.Tile):
            if props.get("placement") in placements:
                return  # the face of a placed tile (Boardwright's export)
            self._tile_object(o, where, dx, dy)
            return
        cls = o.class_ or ""
        if cls == "tile" and props.get("placement") in placements:
            return  # a placed tile's outline (Boardwright's export)
        owner = props.get("tile")
        if isinstance(owner, str) and owner in placements:
            return  # its tile's features come from the tile asset
        props.pop("tile", None)
        node = props.pop("node", None)
        fid = props.pop("feature", None) or (
            node if isinstance(node, str) and "/" not in node else None
        )
        kind = props.pop("kind", None)
        port = props.pop("port", None) is True
        props = {
            (k[:-1] if k.endswith("_") and k[:-1] in RESERVED else k): v for k, v in props.items()
        }
        if port:  # a port the compiler made a node: its class is that node's kind
            kind, cls = "port", ""
        elif kind not in FEATURE_KINDS:
            if kind is not None:
                props["kind_"] = kind
            kind = cls if cls in FEATURE_KINDS else layer_kind
        if cls and cls not in FEATURE_KINDS:
            props.setdefault("class", cls)
        if node is None and o.name:
            props.setdefault("name", o.name)
        shape, pts = self._outline(o, where)
        if shape is None:
            return
        if kind is None:
            kind = _SHAPE_KIND[shape]
        if isinstance(o, to.Text):
            props.setdefault("text", o.text)
            props.setdefault("size", float(o.font_size) / self.s)
        for k in _DERIVED.get(kind, ()):
            props.pop(k, None)
        centre = False
        want = FEATURE_KINDS.get(kind)
        if want == "Point" and shape != "point":
            centre = True
            self.losses.add("centre", "shapes of a point kind: placed at their centre")
        rot = float(o.rotation or 0.0)
        x, y = float(o.coordinates.x), float(o.coordinates.y)
        exact = rot == 0.0 and dx == 0.0 and dy == 0.0
        if rot:
            a = math.radians(rot)
            c, s_ = math.cos(a), math.sin(a)
            pts = [(px * c - py * s_, px * s_ + py * c) for px, py in pts]
        start = len(self.xs)
        for px, py in pts:
            self.xs.append(px if exact else x + dx + px)
            self.ys.append(py if exact else y + dy + py)
            self.x0.append(x if exact else 0.0)
            self.y0.append(y if exact else 0.0)
            self.exact.append(exact)
        self.pending.append(_Pending(kind, shape, start, len(pts), props, where, fid, centre))

    def _outline(self, o: Any, where: str) -> tuple[str | None, list[tuple[float, float]]]:
        """The object's shape and its vertices relative to its position (pixels)."""
        w, h = float(o.size.width or 0), float(o.size.height or 0)
        if isinstance(o, (to.Point, to.Text)):
            return "point", [(0.0, 0.0)]
        if isinstance(o, (to.Polygon, to.Polyline)):
            pts = [(float(p.x), float(p.y)) for p in o.points]
            return ("polygon" if isinstance(o, to.Polygon) else "polyline"), pts
        if isinstance(o, (to.Rectangle, to.Ellipse)):
            if w <= 0 or h <= 0:
                self.losses.add("zero", "rectangles or ellipses without area: taken as points")
                return "point", [(0.0, 0.0)]
            if isinstance(o, to.Ellipse):
                self.losses.add("ellipse", f"ellipses: drawn as {ELLIPSE_SIDES}-sided polygons")
                n = ELLIPSE_SIDES
                return "polygon", [
                    (
                        w / 2 + w / 2 * math.cos(2 * math.pi * i / n),
                        h / 2 + h / 2 * math.sin(2 * math.pi * i / n),
                    )
                    for i in range(n)
                ]
            return "polygon", [(0.0, 0.0), (w, 0.0), (w, h), (0.0, h)]
        self.problems.add(where, f"unsupported object type {type(o).__name__}")
        return None, []

    def _finish_objects(self) -> None:
        """Recover every object's coordinates in one pass, then build its feature."""
        if not self.pending:
            return
        s, ox, oy = self.s, self.ox, self.oy
        xs, ys = np.array(self.xs), np.array(self.ys)
        x0, y0 = np.array(self.x0), np.array(self.y0)
        if not (
            np.isfinite(xs).all()
            and np.isfinite(ys).all()
            and np.isfinite(x0).all()
            and np.isfinite(y0).all()
        ):
            self.problems.add("", "a coordinate is NaN or infinite")
            return
        # the export wrote (mm - origin) * s - x0; undo it, exactly where a decimal does
        mx = recover((x0 + xs) / s + ox, xs, lambda c, i: (c - ox) * s - x0[i])
        my = recover((y0 + ys) / s + oy, ys, lambda c, i: (c - oy) * s - y0[i])
        for p in self.pending:
            cx, cy = mx[p.start : p.start + p.count], my[p.start : p.start + p.count]
            pts = list(zip(cx.tolist(), cy.tolist()))
            geom: BaseGeometry
            if p.shape == "point":
                geom = shapely.Point(pts[0])
            elif p.shape == "polyline":
                if len(pts) < 2:
                    self.problems.add(p.where, "a polyline needs two points")
                    continue
                geom = shapely.LineString(pts)
            else:
                if len(pts) < 3:
                    self.problems.add(p.where, "a polygon needs three points")
                    continue
                geom = shapely.Polygon(pts)
            if p.centre:
                if not check_shape(geom, p.where, self.problems):
                    continue
                geom = (
                    geom.centroid
                    if p.shape == "polygon"
                    else geom.interpolate(0.5, normalized=True)
                )
            self.builder.feature(p.kind, geom, p.props, p.where, p.fid, "o")

    # -- tiles
    def _tileset_of(self, gid: int) -> tuple[Any, int] | None:
        firsts = [f for f in self.map.tilesets if f <= gid]
        if not firsts:
            return None
        first = max(firsts)
        return self.map.tilesets[first], gid - first

    def _asset(self, gid: int, where: str) -> str | None:
        """The tile asset of global tile id ``gid`` (flags removed), made on first use."""
        if gid in self.assets:
            return self.assets[gid]
        found = self._tileset_of(gid)
        if found is None:
            self.problems.add(where, f"tile {gid} is in no tileset")
            self.assets[gid] = None
            return None
        ts, local = found
        tile = (ts.tiles or {}).get(local)
        tw = float(tile.width if tile is not None and tile.width else ts.tile_width)
        th = float(tile.height if tile is not None and tile.height else ts.tile_height)
        if tile is not None and tile.image is not None and tile.image_width:
            tw, th = float(tile.image_width), float(tile.image_height)
        s = self.s
        outline: dict[str, Any]
        if self.hexagonal:
            outline = {"shape": "polygon", "points": [[x / s, y / s] for x, y in self._hexagon()]}
        elif tw == th:
            outline = {"shape": "square", "size": tw / s}
        else:
            outline = {
                "shape": "polygon",
                "points": [
                    [-tw / 2 / s, -th / 2 / s],
                    [tw / 2 / s, -th / 2 / s],
                    [tw / 2 / s, th / 2 / s],
                    [-tw / 2 / s, th / 2 / s],
                ],
            }
        key = f"{ts.name or 'tileset'}/{local}"
        features = []
        if tile is not None and tile.objects is not None:
            sub = Builder(self.problems, self.losses)
            for o in tile.objects.tiled_objects:
                self._tile_feature(
                    o, sub, tw, th, f"tileset {ts.name!r} tile {local} object {o.id}"
                )
            features = sub.features
        face = self._face(ts, tile, local, where)
        props = {
            k: _plain(v) for k, v in ((tile.properties if tile is not None else None) or {}).items()
        }
        try:
            asset = TileAsset(
                key,
                (tile.class_ if tile is not None and tile.class_ else key),
                outline,
                features,
                True,
                props,
                face,
            )
        except BoardwrightError as exc:
            self.problems.add(where, exc.message)
            self.assets[gid] = None
            return None
        self.board.tiles[key] = asset
        self.assets[gid] = key
        return key

    def _tile_feature(self, o: Any, sub: Builder, tw: float, th: float, where: str) -> None:
        """A tileset tile's collision object as a feature in the tile's frame, if it names a kind."""
        props = {k: _plain(v) for k, v in (o.properties or {}).items()}
        kind = props.pop("kind", None)
        if kind not in FEATURE_KINDS:
            kind = o.class_ if o.class_ in FEATURE_KINDS else None
        if kind is None:
            self.losses.add(
                "collision", "collision shapes of tileset tiles without a kind: left out"
            )
            return
        shape, pts = self._outline(o, where)
        if shape is None:
            return
        x, y, s = float(o.coordinates.x), float(o.coordinates.y), self.s
        a = math.radians(float(o.rotation or 0.0))
        c, sn = math.cos(a), math.sin(a)
        world = [
            ((x + px * c - py * sn - tw / 2) / s, (y + px * sn + py * c - th / 2) / s)
            for px, py in pts
        ]
        geom: BaseGeometry = (
            shapely.Point(world[0])
            if shape == "point"
            else shapely.LineString(world)
            if shape == "polyline"
            else shapely.Polygon(world)
        )
        if FEATURE_KINDS[kind] == "Point" and shape != "point":
            geom = geom.centroid
        if o.name:
            props.setdefault("name", o.name)
        sub.feature(kind, geom, props, where, None, "o")

    def _face(self, ts: Any, tile: Any, local: int, where: str) -> str | None:
        """The picture of a tileset tile (cut from the tileset's image), as an image id."""
        try:
            if tile is not None and tile.image is not None:
                blob = self.files.image_bytes(tile.image)
                if blob is None:
                    return None
                if (
                    tile.width
                    and tile.image_width
                    and (tile.width, tile.height) != (tile.image_width, tile.image_height)
                ):
                    blob = _crop(
                        blob, int(tile.x or 0), int(tile.y or 0), int(tile.width), int(tile.height)
                    )
                return self.board.images.add(blob, Path(str(tile.image)).name).id
            if ts.image is None:
                return None
            sheet = self.files.image_bytes(ts.image)
            if sheet is None:
                return None
            cols = int(ts.columns or 1)
            tw, th = int(ts.tile_width), int(ts.tile_height)
            x = int(ts.margin or 0) + (local % cols) * (tw + int(ts.spacing or 0))
            y = int(ts.margin or 0) + (local // cols) * (th + int(ts.spacing or 0))
            return self.board.images.add(_crop(sheet, x, y, tw, th), f"{ts.name}-{local}.png").id
        except (BoardwrightError, OSError, ValueError):
            self.losses.add("face", "tile pictures that could not be read: tiles without faces")
            return None

    def _hexagon(self) -> list[tuple[float, float]]:
        """The map's hexagonal cell, centred (pixels), as Tiled's hexagonal renderer draws it."""
        m = self.map
        tw, th = int(m.tile_size.width) & ~1, int(m.tile_size.height) & ~1
        side = int(m.hex_side_length or 0)
        pts: list[tuple[float, float]]
        if m.stagger_axis == "x":
            off = (tw - side) // 2
            pts = [
                (0, th / 2),
                (off, 0),
                (off + side, 0),
                (tw, th / 2),
                (off + side, th),
                (off, th),
            ]
        else:
            off = (th - side) // 2
            pts = [
                (tw / 2, 0),
                (tw, off),
                (tw, off + side),
                (tw / 2, th),
                (0, off + side),
                (0, off),
            ]
        return [(x - tw / 2, y - th / 2) for x, y in pts]

    def _cell_origin(self, col: int, row: int) -> tuple[float, float]:
        """Top-left pixel of a cell's box (Tiled's orthogonal and hexagonal renderers)."""
        m = self.map
        tw, th = int(m.tile_size.width), int(m.tile_size.height)
        if not self.hexagonal:
            return float(col * tw), float(row * th)
        tw, th = tw & ~1, th & ~1
        side = int(m.hex_side_length or 0)
        even = m.stagger_index == "even"
        if m.stagger_axis == "x":
            col_w = (tw - side) // 2 + side
            y = row * th + (th // 2 if bool(col & 1) ^ even else 0)
            return float(col * col_w), float(y)
        row_h = (th - side) // 2 + side
        x = col * tw + (tw // 2 if bool(row & 1) ^ even else 0)
        return float(x), float(row * row_h)

    def _turns(self, gid: int, what: str) -> int:
        flags = (bool(gid & FLIP_D), bool(gid & FLIP_H), bool(gid & FLIP_V))
        if self.hexagonal:
            if any(flags) or gid & ROTATE_120:
                self.losses.add(
                    "hexflip", f"turned or flipped {what} on hexagonal maps: placed unturned"
                )
            return 0
        turns = QUARTER_TURNS.get(tuple(int(f) for f in flags))  # type: ignore[arg-type]
        if turns is None:
            self.losses.add("mirror", f"mirrored {what}: placed unmirrored (tiles only turn)")
            return 0
        return turns

    def _tile_layer(self, layer: Any, dx: float, dy: float) -> None:
        rows = layer.data or []
        m = self.map
        th = float(m.tile_size.height)
        slug = (
            "".join(ch if ch.isalnum() else "-" for ch in (layer.name or "tiles"))[:40] or "tiles"
        )
        for r, row in enumerate(rows):
            for c, raw in enumerate(row):
                if not raw:
                    continue
                gid = int(raw) & GID_MASK
                where = f"layer {layer.name!r} cell ({c}, {r})"
                key = self._asset(gid, where)
                if key is None:
                    continue
                ts, _ = self._tileset_of(gid) or (None, 0)
                tile = self.board.tiles[key]
                x0, y0, x1, y1 = tile.outline.bounds
                cx, cy = self._cell_origin(c, r)
                off = ts.tile_offset if ts is not None and ts.tile_offset is not None else None
                ox_, oy_ = (float(off.x), float(off.y)) if off is not None else (0.0, 0.0)
                w_px, h_px = (x1 - x0) * self.s, (y1 - y0) * self.s
                if self.hexagonal:
                    px, py = cx + float(m.tile_size.width) / 2, cy + th / 2
                else:  # drawn with its bottom-left corner on the cell's
                    px, py = cx + w_px / 2, cy + th - h_px / 2
                pid = self.builder.fresh_id(f"{slug}-{c}-{r}", "t")
                self.board.placements.append(
                    Placement(
                        pid,
                        key,
                        (px + ox_ + dx) / self.s + self.ox,
                        (py + oy_ + dy) / self.s + self.oy,
                        self._turns(int(raw), "tiles"),
                    )
                )

    def _tile_object(self, o: Any, where: str, dx: float, dy: float) -> None:
        key = self._asset(int(o.gid) & GID_MASK, where)
        if key is None:
            return
        tile = self.board.tiles[key]
        x0, y0, x1, y1 = tile.outline.bounds
        w, h = float(o.size.width or (x1 - x0) * self.s), float(o.size.height or (y1 - y0) * self.s)
        if abs(w - (x1 - x0) * self.s) > 1e-6 or abs(h - (y1 - y0) * self.s) > 1e-6:
            self.losses.add("resized", "resized tile objects: placed at their tile's size")
        rot = float(o.rotation or 0.0)
        q = rot / 90.0
        turns = self._turns(int(o.gid), "tile objects")
        if not math.isclose(q, round(q), abs_tol=1e-9):
            self.losses.add("rot", "tile objects turned by other than quarter turns: turn rounded")
        turns = (turns + round(q)) % 4
        a = math.radians(rot)
        # Tiled anchors a tile object at its bottom-left corner and turns it about it
        cx = float(o.coordinates.x) + dx + (w / 2) * math.cos(a) + (h / 2) * math.sin(a)
        cy = float(o.coordinates.y) + dy + (w / 2) * math.sin(a) - (h / 2) * math.cos(a)
        pid = self.builder.fresh_id(o.name or None, "t")
        self.board.placements.append(
            Placement(pid, key, cx / self.s + self.ox, cy / self.s + self.oy, turns)
        )

    def _image_layer(self, layer: Any, dx: float, dy: float) -> None:
        blob = self.files.image_bytes(layer.image)
        if blob is None:
            return
        try:
            info = self.board.images.add(blob, Path(str(layer.image)).name)
        except BoardwrightError as exc:
            self.losses.add("bad-image", f"pictures refused ({exc.message}): left out")
            return
        if layer.repeat_x or layer.repeat_y:
            self.losses.add("repeat", "repeated image layers: drawn once")
        x, y = dx / self.s + self.ox, dy / self.s + self.oy
        scale = 1.0 / self.s
        if self.board.background is None:
            self.board.background = Background(
                info.id, x, y, scale, 0.0, float(layer.opacity), False, bool(layer.visible)
            )
            return
        w, h = info.width * scale, info.height * scale
        box = shapely.box(x, y, x + w, y + h)
        self.builder.feature(
            "art",
            box,
            {"image": info.id, "opacity": float(layer.opacity)},
            f"layer {layer.name!r}",
            None,
            "img",
        )


def _layer_kind(layer: Any) -> str | None:
    props = layer.properties or {}
    kind = props.get("kind")
    if kind in FEATURE_KINDS:
        return str(kind)
    return layer.class_ if layer.class_ in FEATURE_KINDS else None


def _plain(value: Any) -> Any:
    from .props import plain

    return plain(value)


def _crop(blob: bytes, x: int, y: int, w: int, h: int) -> bytes:
    """``w`` × ``h`` pixels at (``x``, ``y``) of a picture, as PNG bytes."""
    from ..images.decode import inspect_image

    inspect_image(blob, "tileset image")  # size and format limits before decoding
    with Image.open(io.BytesIO(blob)) as im:
        part = im.crop((x, y, x + w, y + h))
        buf = io.BytesIO()
        part.save(buf, "PNG")
        return buf.getvalue()
