"""The board model: features, tile assets, placements and boards.

A :class:`Board` is what a project holds: board metadata, the tile assets it uses
(embedded, so a project opens on a machine without the pack), tile placements
with their quarter turns, free-standing features, pieces and decks. It knows
nothing of Qt; the editor edits it through undo commands and the compiler turns
it into a :class:`~referee.compiler.CompiledBoard`.

Node ids are stable: a feature ``p3`` on the tile placed as ``t07`` is the node
``"t07/p3"`` whatever the turn of ``t07``; a free-standing feature keeps its id.
"""

from __future__ import annotations

import copy
import math
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cache
from typing import Any

import shapely
from shapely.geometry.base import BaseGeometry

from .errors import (
    AssetError,
    BoardError,
    FormatVersionError,
    GeometryError,
    ProjectFileError,
    UnknownNodeError,
)
from .geometry import (
    COMPASS,
    geometry_from_json,
    geometry_to_json,
    regular_polygon,
    turn_and_move,
    turn_and_move_all,
    turn_bearing,
)
from .images.store import ImageInfo, ImageStore
from .vocabulary import PropTable, prop_specs

#: The JSON form of a board (:meth:`Board.to_json`): the export format and its version.
FORMAT = "boardwright-project"
FORMAT_VERSION = 1
#: Most features (free-standing plus in tile assets) and placements a board may have.
MAX_FEATURES = 100_000

#: Feature kinds the compiler knows, with the geometry type each takes.
FEATURE_KINDS: dict[str, str] = {
    "point": "Point",
    "junction": "Point",
    "door": "Point",
    "port": "Point",
    "counter_space": "Polygon",
    "path": "LineString",
    "space": "Polygon",
    "river": "LineString",
    "river_dot": "Point",
    "bridge": "Point",
    "road": "LineString",
    "track": "LineString",
    "art": "Any",  # terrain drawing: ignored by the compiler, drawn by renderers
    "label": "Point",  # text on the board: ignored by the compiler
}

#: Kinds that become nodes of the compiled graph.
NODE_KINDS = ("point", "junction", "door", "space", "river_dot", "counter_space")

#: Kinds a figure can stand on.
STANDING_KINDS = ("point", "space", "river_dot")


def _enum(*values: Any) -> dict[str, Any]:
    return {"type": "enum", "values": list(values)}


_STR = {"type": "str"}
_NUM = {"type": "number"}
_IDS = {"type": "ids"}  # a list of feature ids

#: The generic property vocabulary: per kind, the properties the compiler itself
#: reads, with their value types (``port.side`` for linking tiles, ``path.medium`` for
#: water paths, ``counter_space.arrival`` and ``river_dot.city`` for their relations,
#: ``track.points``), plus names, labels and art. Each game's own properties
#: (Ringgeister's point colours and winds, Riddle's terrain and cities, the track
#: games' events...) are declared by its rules module (``RulesModule.props``, a
#: :class:`referee.vocabulary.Plugin`) and merged in by :func:`prop_table`; loading and the editor's
#: inspector use that merged table, over every installed module (a board that
#: declares no rules still loads with any installed game's properties).
#: Unknown properties are kept as they are.
PROP_SPECS: dict[str, dict[str, dict[str, Any]]] = {
    "point": {"name": _STR},
    "port": {"side": _enum(None, "N", "E", "S", "W")},
    "path": {"medium": _enum("land", "water")},
    "counter_space": {"arrival": _IDS, "name": _STR},
    "space": {"name": _STR},
    "river": {"name": _STR},
    "river_dot": {"city": _STR},
    "bridge": {"name": _STR},
    "road": {"name": _STR},
    "track": {"name": _STR, "points": _IDS},
    # image: the id of a project image, fitted to the geometry's bounds and clipped to it
    "art": {
        "terrain": _STR,
        "fill": _STR,
        "stroke": _STR,
        "label": _STR,
        "image": _STR,
        "opacity": _NUM,
    },
    "label": {"text": _STR, "size": _NUM},
}


@cache
def prop_table() -> PropTable:
    """The merged property table: :data:`PROP_SPECS` and every installed plug-in's
    ``props`` (:func:`referee.vocabulary.prop_specs`), built once.

    Global on purpose: a board that declares no rules (or other rules) still loads
    with the properties any installed game uses, so a board can be drawn before its
    rules are chosen. Read-only: do not change it.
    """
    return prop_specs(PROP_SPECS)


@cache
def direction_props() -> tuple[str, ...]:
    """Properties that are directions and turn with their tile: every property of
    type ``direction`` in the merged table (Ringgeister's ``wind`` and ``heading``)."""
    names = {k for row in prop_table().values() for k, v in row.items() if v["type"] == "direction"}
    return tuple(sorted(names))


def check_prop(kind: str, key: str, value: Any, where: str) -> None:
    """Raise :class:`BoardError` if ``value`` is not allowed for ``kind.key``.

    The spec comes from the merged table (:func:`prop_table`).
    """
    spec = prop_table().get(kind, {}).get(key)
    if spec is None:
        return
    t = spec["type"]
    ok = True
    if t == "enum":
        ok = value in spec["values"]
    elif t == "bool":
        ok = isinstance(value, bool)
    elif t == "str":
        ok = value is None or isinstance(value, str)
    elif t == "int":
        ok = value is None or (isinstance(value, int) and not isinstance(value, bool))
    elif t == "number":
        ok = value is None or (
            isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)
        )
    elif t == "direction":
        ok = (
            value is None
            or value in COMPASS
            or (
                isinstance(value, (int, float))
                and not isinstance(value, bool)
                and math.isfinite(value)
            )
        )
    elif t == "ids":
        ok = isinstance(value, list) and all(isinstance(v, str) for v in value)
    elif t == "letters":
        ok = isinstance(value, list) and all(v in spec["values"] for v in value)
    if not ok:
        allowed = f" (one of {spec['values']})" if "values" in spec else f" ({t})"
        raise BoardError(
            f"property {key}={value!r} is not allowed for a {kind}{allowed}",
            code="bad_property",
            location=where,
        )


@dataclass
class Feature:
    """A geometry with a kind and properties, in its tile's frame or on the board."""

    id: str
    kind: str
    geometry: BaseGeometry
    props: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def from_json(cls, data: Any, where: str) -> Feature:
        if not isinstance(data, dict):
            raise BoardError("a feature must be a JSON object", location=where)
        fid = data.get("id")
        if not isinstance(fid, str) or not fid or "/" in fid:
            raise BoardError(
                f"feature id {fid!r} must be a non-empty string without '/'",
                code="bad_id",
                location=where,
            )
        where = f"{where} (id {fid!r})"
        kind = data.get("kind")
        if kind not in FEATURE_KINDS:
            raise BoardError(
                f"unknown feature kind {kind!r} (known: {', '.join(FEATURE_KINDS)})",
                code="unknown_kind",
                location=where,
            )
        geom = geometry_from_json(data.get("geometry"), where)
        want = FEATURE_KINDS[kind]
        if want != "Any" and geom.geom_type != want:
            raise BoardError(
                f"a {kind} needs a {want} geometry, not {geom.geom_type}",
                code="bad_geometry",
                location=where,
            )
        props = data.get("props", {})
        if not isinstance(props, dict):
            raise BoardError("props must be a JSON object", location=where)
        for k, v in props.items():
            check_prop(kind, k, v, where)
        return cls(fid, kind, geom, dict(props))

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "kind": self.kind,
            "geometry": geometry_to_json(self.geometry),
            "props": self.props,
        }

    def turned(self, turns: int, turn_count: int, dx: float = 0.0, dy: float = 0.0) -> Feature:
        """This feature turned clockwise about the tile centre, then moved."""
        return self.with_turned_geometry(
            turn_and_move(self.geometry, turns, turn_count, dx, dy), turns, turn_count
        )

    def with_turned_geometry(self, geometry: BaseGeometry, turns: int, turn_count: int) -> Feature:
        """This feature with ``geometry`` (already turned) and its direction properties
        turned by ``turns`` with it."""
        props = self.props
        directions = direction_props()
        if turns % turn_count and any(k in props for k in directions):
            props = dict(props)
            for k in directions:
                if k in props:
                    props[k] = turn_bearing(props[k], turns, turn_count)
        return Feature(self.id, self.kind, geometry, props)


_SHAPE_SIDES = {"square": 4, "octagon": 8, "hexagon": 6}


@dataclass
class TileAsset:
    """A tile: an outline and features in its own frame (centre at the origin).

    ``turn_count`` is 4 for tiles that turn in quarter turns and 6 for hexagons.
    ``face`` is the id of an image in the board's (or pack's) image store, drawn
    stretched over the outline's bounding box in the tile frame, clipped to the
    outline, and turned with the tile.
    """

    key: str
    name: str
    outline_spec: dict[str, Any]
    features: list[Feature]
    turnable: bool = True
    props: dict[str, Any] = field(default_factory=dict)
    face: str | None = None
    _variants: dict[int, list[Feature]] = field(default_factory=dict, repr=False, compare=False)
    #: per-turn derived data (e.g. split path segments), computed once by the compiler
    cache: dict[Any, Any] = field(default_factory=dict, repr=False, compare=False)
    outline: shapely.Polygon = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        self.outline = outline_polygon(self.outline_spec, self.key)

    @property
    def shape(self) -> str:
        return str(self.outline_spec.get("shape", "polygon"))

    @property
    def turn_count(self) -> int:
        return 6 if self.shape == "hexagon" else 4

    def variant(self, turns: int) -> list[Feature]:
        """The features turned by ``turns`` (cached: each variant is computed once)."""
        t = turns % self.turn_count
        v = self._variants.get(t)
        if v is None:
            # one vectorized transform for the whole tile (equal to turning each feature)
            geoms = turn_and_move_all([f.geometry for f in self.features], t, self.turn_count)
            v = [
                f.with_turned_geometry(g, t, self.turn_count) for f, g in zip(self.features, geoms)
            ]
            self._variants[t] = v
        return v

    def feature(self, fid: str) -> Feature:
        for f in self.features:
            if f.id == fid:
                return f
        raise UnknownNodeError(f"tile {self.key} has no feature {fid!r}", location=self.key)

    def invalidate(self) -> None:
        """Forget cached variants after the features were edited."""
        self._variants.clear()
        self.cache.clear()
        self.outline = outline_polygon(self.outline_spec, self.key)

    @classmethod
    def from_json(cls, data: Any, where: str, key: str | None = None) -> TileAsset:
        if not isinstance(data, dict):
            raise AssetError("a tile must be a JSON object", location=where)
        key = key or data.get("key") or data.get("id")
        if not isinstance(key, str) or not key:
            raise AssetError("a tile needs a key", location=where)
        where = f"{where} (tile {key!r})"
        outline = data.get("outline")
        if not isinstance(outline, dict):
            raise AssetError("a tile needs an outline object", location=where)
        feats_json = data.get("features", [])
        if not isinstance(feats_json, list):
            raise AssetError("features must be a list", location=where)
        feats = [Feature.from_json(f, f"{where} features[{i}]") for i, f in enumerate(feats_json)]
        _check_unique([f.id for f in feats], where)
        turnable = data.get("turnable", True)
        if not isinstance(turnable, bool):
            raise AssetError("turnable must be true or false", location=where)
        props = data.get("props", {})
        outline_polygon(dict(outline), where)  # errors name the file, not only the key
        face = data.get("face")
        if face is not None and not isinstance(face, str):
            raise AssetError("face must be an image id (a string)", location=where)
        tile = cls(
            key,
            str(data.get("name", key)),
            dict(outline),
            feats,
            turnable,
            dict(props) if isinstance(props, dict) else {},
            face,
        )
        return tile

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "key": self.key,
            "name": self.name,
            "outline": self.outline_spec,
            "turnable": self.turnable,
            "props": self.props,
            "features": [f.to_json() for f in self.features],
        }
        if self.face is not None:
            out["face"] = self.face
        return out


def outline_polygon(spec: dict[str, Any], where: str) -> shapely.Polygon:
    """The outline polygon of a tile from its spec.

    ``{"shape": "square"|"octagon"|"hexagon", "size": across_flats}`` or
    ``{"shape": "polygon", "points": [[x, y], ...]}`` in the tile frame.
    """
    shape = spec.get("shape")
    if shape in _SHAPE_SIDES:
        size = spec.get("size")
        if not isinstance(size, (int, float)) or isinstance(size, bool) or not (0 < size < 1e6):
            raise AssetError(f"{shape} outline needs a positive size", location=where)
        return regular_polygon(_SHAPE_SIDES[shape], float(size))
    if shape == "polygon":
        poly = geometry_from_json(
            {"type": "Polygon", "coordinates": [spec.get("points")]}, f"{where} outline"
        )
        assert isinstance(poly, shapely.Polygon)
        return poly
    raise AssetError(
        f"unknown outline shape {shape!r} (square, octagon, hexagon or polygon)", location=where
    )


@dataclass
class Placement:
    """A tile placed on the board: its centre and how many turns clockwise."""

    id: str
    tile: str
    x: float
    y: float
    turns: int = 0

    @classmethod
    def from_json(cls, data: Any, where: str) -> Placement:
        if not isinstance(data, dict):
            raise BoardError("a placement must be a JSON object", location=where)
        pid, tile = data.get("id"), data.get("tile")
        if not isinstance(pid, str) or not pid or "/" in pid:
            raise BoardError(
                f"placement id {pid!r} must be a non-empty string without '/'",
                code="bad_id",
                location=where,
            )
        where = f"{where} (placement {pid!r})"
        if not isinstance(tile, str):
            raise BoardError("placement needs a tile key", location=where)
        try:
            x, y = float(data["x"]), float(data["y"])
            turns = data.get("turns", 0)
        except (KeyError, TypeError, ValueError):
            raise BoardError("placement needs numeric x and y", location=where) from None
        if not (math.isfinite(x) and math.isfinite(y)):
            raise GeometryError("placement position is NaN or infinite", location=where)
        if not isinstance(turns, int) or isinstance(turns, bool) or turns < 0:
            raise BoardError(f"turns must be a non-negative integer, not {turns!r}", location=where)
        return cls(pid, tile, x, y, turns)

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "tile": self.tile, "x": self.x, "y": self.y, "turns": self.turns}


@dataclass
class PieceOnBoard:
    """A piece (figure, counter) standing on a node, or off the board (``at`` None)."""

    id: str
    piece: str
    at: str | None = None
    props: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "piece": self.piece, "at": self.at, "props": self.props}


@dataclass
class Background:
    """A picture under the whole board (a scanned map to trace, a painted board).

    The image's top-left pixel corner sits at board position (``x``, ``y``) mm; one
    image pixel is ``scale`` mm wide; the picture is turned ``rotation`` degrees
    clockwise about that corner. ``opacity`` is 0..1. ``locked`` keeps the editor
    from moving it; ``visible`` False hides it without forgetting it.
    """

    image: str
    x: float = 0.0
    y: float = 0.0
    scale: float = 1.0
    rotation: float = 0.0
    opacity: float = 1.0
    locked: bool = False
    visible: bool = True

    def size_mm(self, width_px: int, height_px: int) -> tuple[float, float]:
        """The picture's size on the board for an image of ``width_px`` × ``height_px``."""
        return width_px * self.scale, height_px * self.scale

    def to_board(self, px: float, py: float) -> tuple[float, float]:
        """Board position (mm) of image pixel position (``px``, ``py``)."""
        a = math.radians(self.rotation)
        dx, dy = px * self.scale, py * self.scale
        return (
            self.x + dx * math.cos(a) - dy * math.sin(a),
            self.y + dx * math.sin(a) + dy * math.cos(a),
        )

    def to_image(self, x: float, y: float) -> tuple[float, float]:
        """Image pixel position of board position (``x``, ``y``) mm (inverse of :meth:`to_board`)."""
        a = math.radians(self.rotation)
        dx, dy = x - self.x, y - self.y
        return (
            (dx * math.cos(a) + dy * math.sin(a)) / self.scale,
            (-dx * math.sin(a) + dy * math.cos(a)) / self.scale,
        )

    def calibrate(self, a: tuple[float, float], b: tuple[float, float], distance_mm: float) -> None:
        """Set :attr:`scale` so that board points ``a`` and ``b`` (where the user clicked,
        in mm at the current scale) are ``distance_mm`` apart, keeping ``a`` in place.

        Raises :class:`BoardError` for coincident points or a non-positive distance.
        """
        pa, pb = self.to_image(*a), self.to_image(*b)
        px = math.hypot(pb[0] - pa[0], pb[1] - pa[1])
        if not (distance_mm > 0 and math.isfinite(distance_mm)) or px <= 0:
            raise BoardError(
                "calibration needs two different points and a positive distance",
                code="bad_calibration",
                location="background",
            )
        self.scale = distance_mm / px
        # keep the picture point under `a` where it was
        nx, ny = self.to_board(*pa)
        self.x += a[0] - nx
        self.y += a[1] - ny

    def to_json(self) -> dict[str, Any]:
        return {
            "image": self.image,
            "x": self.x,
            "y": self.y,
            "scale": self.scale,
            "rotation": self.rotation,
            "opacity": self.opacity,
            "locked": self.locked,
            "visible": self.visible,
        }

    @classmethod
    def from_json(cls, data: Any, where: str) -> Background:
        if not isinstance(data, dict) or not isinstance(data.get("image"), str):
            raise BoardError("background needs an image id", location=where)
        try:
            nums = {
                k: float(data.get(k, d))
                for k, d in (
                    ("x", 0.0),
                    ("y", 0.0),
                    ("scale", 1.0),
                    ("rotation", 0.0),
                    ("opacity", 1.0),
                )
            }
        except (TypeError, ValueError):
            raise BoardError(
                "background x, y, scale, rotation, opacity must be numbers", location=where
            ) from None
        if not all(math.isfinite(v) for v in nums.values()) or nums["scale"] <= 0:
            raise BoardError("background needs finite numbers and a positive scale", location=where)
        if not 0.0 <= nums["opacity"] <= 1.0:
            raise BoardError("background opacity must be between 0 and 1", location=where)
        flags = {k: data.get(k, d) for k, d in (("locked", False), ("visible", True))}
        if not all(isinstance(v, bool) for v in flags.values()):
            raise BoardError("background locked and visible must be true or false", location=where)
        return cls(
            data["image"],
            nums["x"],
            nums["y"],
            nums["scale"],
            nums["rotation"],
            nums["opacity"],
            bool(flags["locked"]),
            bool(flags["visible"]),
        )


@dataclass
class Board:
    """Everything a project holds about a board.

    Attributes
    ----------
    meta : dict
        ``name``, ``rules`` (e.g. ``"ringgeister"``), ``width``/``height`` in mm,
        ``settings`` (rules settings such as ``wind_corridor_mm``), ``description``.
    tiles : dict
        Tile assets used, by key ``"pack/tile"`` (embedded copies).
    placements : list
        Tile placements, in drawing order.
    features : list
        Free-standing features (frame pieces, hand-drawn region maps, tracks).
    piece_types, decks : dict
        Piece and deck assets used, by key (plain JSON data).
    pieces : list
        Pieces on the board at their starting places.
    images : ImageStore
        The pictures the board's assets and features use, by content id.
    background : Background or None
        A picture under the board.

    Where images are used (:meth:`image_uses`): a tile's ``face``, the
    ``background``, an ``art`` feature's ``image`` prop, a piece type's ``token``,
    a deck's ``back`` and each card's ``face`` (and its own ``back``).
    """

    meta: dict[str, Any] = field(default_factory=dict)
    tiles: dict[str, TileAsset] = field(default_factory=dict)
    placements: list[Placement] = field(default_factory=list)
    features: list[Feature] = field(default_factory=list)
    piece_types: dict[str, dict[str, Any]] = field(default_factory=dict)
    decks: dict[str, dict[str, Any]] = field(default_factory=dict)
    pieces: list[PieceOnBoard] = field(default_factory=list)
    games: list[dict[str, Any]] = field(default_factory=list)
    images: ImageStore = field(default_factory=ImageStore)
    background: Background | None = None

    # ------------------------------------------------------------------ JSON form
    def to_json(self) -> dict[str, Any]:
        """The board as a JSON-ready dict (the export format, version 1; the schema is
        ``referee/schema/project.schema.json``). The keys ``images`` and ``background``
        are written only when the board has them."""
        out = {
            "format": FORMAT,
            "version": FORMAT_VERSION,
            "meta": self.meta,
            "assets": {
                "tiles": [t.to_json() for t in self.tiles.values()],
                "pieces": [dict(v, key=k) for k, v in self.piece_types.items()],
                "decks": [dict(v, key=k) for k, v in self.decks.items()],
            },
            "placements": [p.to_json() for p in self.placements],
            "features": [f.to_json() for f in self.features],
            "pieces": [p.to_json() for p in self.pieces],
            "games": self.games,
        }
        if len(self.images):
            out["images"] = [i.to_json() for i in self.images]
        if self.background is not None:
            out["background"] = self.background.to_json()
        return out

    @classmethod
    def from_json(cls, data: Any, where: str = "project") -> Board:
        """Build a board from the export format (:meth:`to_json`), validating as it goes.

        Raises
        ------
        ProjectFileError
            Not a Boardwright project.
        FormatVersionError
            A format version this Boardwright does not read.
        BoardError
            Anything else wrong, naming the place (``where`` and the entry).
        """
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise ProjectFileError(
                'not a Boardwright project (no "format": "boardwright-project")', location=where
            )
        version = data.get("version")
        if version != FORMAT_VERSION:
            raise FormatVersionError(
                f"project format version {version!r} is not supported (this Boardwright reads "
                f"version {FORMAT_VERSION}); upgrade Boardwright to open it",
                location=where,
            )
        meta = data.get("meta", {})
        if not isinstance(meta, dict):
            raise BoardError("meta must be a JSON object", location=f"{where} meta")
        assets = data.get("assets", {})
        if not isinstance(assets, dict):
            raise BoardError("assets must be a JSON object", location=f"{where} assets")
        board = cls(meta=dict(meta))
        n_items = len(_list(data, "features", where)) + len(_list(data, "placements", where))
        for t in _list(assets, "tiles", f"{where} assets"):
            if isinstance(t, dict) and isinstance(t.get("features"), list):
                n_items += len(t["features"])
        if n_items > MAX_FEATURES:
            raise BoardError(
                f"{n_items} features and placements is more than this Boardwright handles "
                f"(limit {MAX_FEATURES})",
                code="too_large",
                location=where,
            )
        for i, t in enumerate(_list(assets, "tiles", f"{where} assets")):
            tile = TileAsset.from_json(t, f"{where} assets.tiles[{i}]")
            if tile.key in board.tiles:
                raise BoardError(
                    f"duplicate tile asset {tile.key!r}",
                    code="duplicate_id",
                    location=f"{where} assets.tiles[{i}]",
                )
            board.tiles[tile.key] = tile
        for kind, target in (("pieces", board.piece_types), ("decks", board.decks)):
            for i, item in enumerate(_list(assets, kind, f"{where} assets")):
                if not isinstance(item, dict) or not isinstance(item.get("key"), str):
                    raise BoardError(
                        f"each {kind[:-1]} asset needs a string key",
                        location=f"{where} assets.{kind}[{i}]",
                    )
                item = dict(item)
                target[item.pop("key")] = item
        board.placements = [
            Placement.from_json(p, f"{where} placements[{i}]")
            for i, p in enumerate(_list(data, "placements", where))
        ]
        board.features = [
            Feature.from_json(f, f"{where} features[{i}]")
            for i, f in enumerate(_list(data, "features", where))
        ]
        for i, p in enumerate(_list(data, "pieces", where)):
            if (
                not isinstance(p, dict)
                or not isinstance(p.get("id"), str)
                or not isinstance(p.get("piece"), str)
            ):
                raise BoardError(
                    "a piece needs string id and piece", location=f"{where} pieces[{i}]"
                )
            at = p.get("at")
            if at is not None and not isinstance(at, str):
                raise BoardError(
                    "a piece's 'at' must be a node id or null", location=f"{where} pieces[{i}]"
                )
            props = p.get("props") or {}
            if not isinstance(props, dict):
                raise BoardError(
                    "a piece's props must be an object", location=f"{where} pieces[{i}]"
                )
            board.pieces.append(PieceOnBoard(p["id"], p["piece"], at, dict(props)))
        board.games = list(_list(data, "games", where))
        for i, item in enumerate(_list(data, "images", where)):
            board.images.register(ImageInfo.from_json(item, f"{where} images[{i}]"))
        if data.get("background") is not None:
            board.background = Background.from_json(data["background"], f"{where} background")
        board.validate(where)
        return board

    # ------------------------------------------------------------------ access
    @property
    def name(self) -> str:
        return str(self.meta.get("name", "untitled"))

    @property
    def rules(self) -> str | None:
        r = self.meta.get("rules")
        return r if isinstance(r, str) else None

    @property
    def settings(self) -> dict[str, Any]:
        s = self.meta.get("settings")
        return s if isinstance(s, dict) else {}

    def placement(self, pid: str) -> Placement:
        for p in self.placements:
            if p.id == pid:
                return p
        raise UnknownNodeError(f"no tile placed as {pid!r}", code="unknown_tile", location=pid)

    def tile_of(self, placement: Placement) -> TileAsset:
        try:
            return self.tiles[placement.tile]
        except KeyError:
            raise AssetError(
                f"placement {placement.id!r} uses unknown tile {placement.tile!r}",
                code="unknown_asset",
                location=placement.id,
            ) from None

    def feature(self, fid: str) -> Feature:
        for f in self.features:
            if f.id == fid:
                return f
        raise UnknownNodeError(f"no feature {fid!r}", location=fid)

    def placed_features(self, placement: Placement, turns: int | None = None) -> list[Feature]:
        """World-frame features of one placement (turned, then moved to its centre)."""
        tile = self.tile_of(placement)
        t = placement.turns if turns is None else turns
        return [
            Feature(
                f.id, f.kind, turn_and_move(f.geometry, 0, 4, placement.x, placement.y), f.props
            )
            for f in tile.variant(t)
        ]

    def world_features(self) -> Iterator[tuple[str, str | None, Feature]]:
        """Every feature in world coordinates as ``(node_id, placement_id, feature)``."""
        for p in self.placements:
            for f in self.placed_features(p):
                yield f"{p.id}/{f.id}", p.id, f
        for f in self.features:
            yield f.id, None, f

    def world_feature(self, node_id: str) -> Feature:
        """One feature in world coordinates by its node id."""
        if "/" in node_id:
            pid, fid = node_id.split("/", 1)
            p = self.placement(pid)
            tile = self.tile_of(p)
            f = next((g for g in tile.variant(p.turns) if g.id == fid), None)
            if f is None:
                raise UnknownNodeError(
                    f"tile {p.tile} placed as {pid} has no feature {fid!r}", location=node_id
                )
            return Feature(f.id, f.kind, turn_and_move(f.geometry, 0, 4, p.x, p.y), f.props)
        return self.feature(node_id)

    def outline_of(self, placement: Placement) -> shapely.Polygon:
        tile = self.tile_of(placement)
        return turn_and_move(
            tile.outline, placement.turns, tile.turn_count, placement.x, placement.y
        )

    def copy(self) -> Board:
        return copy.deepcopy(self)

    def image_uses(self) -> Iterator[tuple[str, str]]:
        """Every image reference as ``(where, image_id)``, in a stable order.

        ``where`` names the carrier: ``background``, ``tile KEY face``,
        ``tile KEY feature FID``, ``feature FID``, ``piece KEY token``,
        ``deck KEY back``, ``deck KEY card CID face|back``.
        """
        if self.background is not None:
            yield "background", self.background.image
        for key, tile in self.tiles.items():
            if tile.face:
                yield f"tile {key} face", tile.face
            for f in tile.features:
                if isinstance(f.props.get("image"), str):
                    yield f"tile {key} feature {f.id}", f.props["image"]
        for f in self.features:
            if isinstance(f.props.get("image"), str):
                yield f"feature {f.id}", f.props["image"]
        for key, pt in self.piece_types.items():
            if isinstance(pt.get("token"), str):
                yield f"piece {key} token", pt["token"]
        for key, deck in self.decks.items():
            if isinstance(deck.get("back"), str):
                yield f"deck {key} back", deck["back"]
            cards = deck.get("cards")
            for i, card in enumerate(cards if isinstance(cards, list) else []):
                if not isinstance(card, dict):
                    continue
                cid = card.get("id", i)
                for side in ("face", "back"):
                    if isinstance(card.get(side), str):
                        yield f"deck {key} card {cid} {side}", card[side]

    # ------------------------------------------------------------------ checks
    def validate(self, where: str = "board") -> None:
        """Raise :class:`BoardError` on duplicate ids or unknown assets."""
        _check_unique([p.id for p in self.placements], f"{where} placements")
        _check_unique([f.id for f in self.features], f"{where} features")
        _check_unique([p.id for p in self.pieces], f"{where} pieces")
        clash = {p.id for p in self.placements} & {f.id for f in self.features}
        if clash:
            raise BoardError(
                f"id {sorted(clash)[0]!r} names both a placement and a feature",
                code="duplicate_id",
                location=where,
            )
        for i, p in enumerate(self.placements):
            if p.tile not in self.tiles:
                raise AssetError(
                    f"unknown tile asset {p.tile!r}",
                    code="unknown_asset",
                    location=f"{where} placements[{i}] (placement {p.id!r})",
                )
        for i, pc in enumerate(self.pieces):
            if pc.piece not in self.piece_types:
                raise AssetError(
                    f"unknown piece asset {pc.piece!r}",
                    code="unknown_asset",
                    location=f"{where} pieces[{i}] (piece {pc.id!r})",
                )


def _check_unique(ids: list[str], where: str) -> None:
    seen: set[str] = set()
    for i in ids:
        if i in seen:
            raise BoardError(f"duplicate id {i!r}", code="duplicate_id", location=where)
        seen.add(i)


def _list(data: dict[str, Any], key: str, where: str) -> list[Any]:
    value = data.get(key, [])
    if not isinstance(value, list):
        raise BoardError(f"{key} must be a list", location=f"{where} {key}")
    return value
