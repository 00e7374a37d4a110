"""Symmetries of a layout (``--symmetry``), judged by what the tiles look like.

A symmetry is a linear map *L* of the board's plane about the middle of the slots:

``rot180``      a half turn;
``rot90``       a quarter turn clockwise;
``mirror-x``    x ↦ −x: left and right swap (the mirror line is vertical);
``mirror-y``    y ↦ −y: top and bottom swap (the mirror line is horizontal);
``mirror-diag`` (x, y) ↦ (y, x): the mirror line runs from top left to bottom right;
``mirror-anti`` (x, y) ↦ (−y, −x): the mirror line runs from top right to bottom left.

Slot *i* goes to the slot *j* at its centre's image. A point of tile *T* at turn *t*
in slot *i* goes to *L* of its offset from the slot's centre, about slot *j*'s
centre, so the layout is symmetric when slot *j* holds a tile *T'* at a turn *t'*
that **looks like** *L* applied to *T* at *t*: the same features (ports, paths,
points, spaces, doors, …; not art or labels) of the same kinds, at the same
places to 0.01 mm, with the same properties (direction properties such as ``wind``
mapped by *L* too; a port's ``side`` is a name that does not turn and is not
compared), and the same outline. A mirror image is in general no turn of the same
tile: a tile whose mirror image is no turn of any tile of its outline cannot lie in
a mirror-symmetric layout, and a board that holds one is refused.

:class:`SymmetryTable` lists, for every (tile, turn), the (tile, turn) pairs that
are its image — computed once per space from the tiles' features.
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Iterable, Mapping
from typing import Any

import numpy as np
import shapely
from shapely.geometry.base import BaseGeometry

from ..errors import UsageError
from ..geometry import bearing_degrees, bearing_of, turn_and_move, unit_vector
from ..model import TileAsset, direction_props

#: (a, b, c, d): x' = a·x + b·y, y' = c·x + d·y (screen coordinates, y down)
MATRICES: dict[str, tuple[int, int, int, int]] = {
    "rot180": (-1, 0, 0, -1),
    "rot90": (0, -1, 1, 0),
    "mirror-x": (-1, 0, 0, 1),
    "mirror-y": (1, 0, 0, -1),
    "mirror-diag": (0, 1, 1, 0),
    "mirror-anti": (0, -1, -1, 0),
}
SYMMETRIES = tuple(MATRICES)
IDENTITY = (1, 0, 0, 1)
#: kinds that are drawing only (the compiler ignores them)
IGNORED_KINDS = ("art", "label")
#: properties that are names, not part of what a tile looks like
IGNORED_PROPS = ("side",)

Cell = tuple[str, int]
Look = tuple[Any, ...]


def is_mirror(name: str) -> bool:
    return name.startswith("mirror")


def apply(m: tuple[int, int, int, int], x: float, y: float) -> tuple[float, float]:
    a, b, c, d = m
    return a * x + b * y, c * x + d * y


def _r(v: float) -> float:
    return round(float(v), 2) + 0.0  # + 0.0: no -0.0


def _ring(coords: Iterable[tuple[float, float]]) -> tuple[tuple[float, float], ...]:
    """A closed ring's points, from the same start and in the same direction
    whichever way round it was written."""
    pts = [(_r(x), _r(y)) for x, y in list(coords)[:-1]]
    if not pts:
        return ()
    best: tuple[tuple[float, float], ...] | None = None
    for seq in (pts, pts[::-1]):
        for k in range(len(seq)):
            cand = tuple(seq[k:] + seq[:k])
            if best is None or cand < best:
                best = cand
    assert best is not None
    return best


def geometry_key(g: BaseGeometry) -> tuple[Any, ...]:
    """A key equal for equal geometries (to 0.01), whatever their start or direction."""
    t = g.geom_type
    if t == "Point":
        return ("P", _r(g.x), _r(g.y))
    if t == "LineString":
        pts = tuple((_r(x), _r(y)) for x, y in g.coords)
        return ("L", min(pts, pts[::-1]))
    if t == "Polygon":
        return (
            "A",
            _ring(g.exterior.coords),
            tuple(sorted(_ring(r.coords) for r in g.interiors)),
        )
    if hasattr(g, "geoms"):
        return ("M", tuple(sorted(geometry_key(p) for p in g.geoms)))
    return ("?", g.wkt)


def _mapped(g: BaseGeometry, m: tuple[int, int, int, int]) -> BaseGeometry:
    if m == IDENTITY:
        return g
    a, b, c, d = m

    def f(xy: np.ndarray) -> np.ndarray:
        x, y = xy[:, 0], xy[:, 1]
        return np.column_stack((a * x + b * y, c * x + d * y))

    return shapely.transform(g, f)


def _props_key(props: Mapping[str, Any], m: tuple[int, int, int, int]) -> str:
    directions = set(direction_props())
    out: dict[str, Any] = {}
    for k, v in props.items():
        if k in IGNORED_PROPS:
            continue
        if k in directions and v is not None:
            try:
                dx, dy = unit_vector(bearing_degrees(v))
            except (ValueError, TypeError):
                out[k] = v
                continue
            v = round(bearing_of(*apply(m, dx, dy)), 1) % 360.0
        out[k] = v
    return json.dumps(out, sort_keys=True, default=str)


def look(tile: TileAsset, turns: int, m: tuple[int, int, int, int] = IDENTITY) -> Look:
    """What ``tile`` at ``turns`` looks like after ``m`` (in the tile's own frame)."""
    keys = [
        (f.kind, geometry_key(_mapped(f.geometry, m)), _props_key(f.props, m))
        for f in tile.variant(turns)
        if f.kind not in IGNORED_KINDS
    ]
    outline = _mapped(turn_and_move(tile.outline, turns, tile.turn_count), m)
    return (geometry_key(outline), tuple(sorted(keys)))


class SymmetryTable:
    """For each (tile, turn), the (tile, turn) pairs that look like its image."""

    def __init__(self, name: str, tiles: Mapping[str, TileAsset]) -> None:
        if name not in MATRICES:
            raise UsageError(
                f"--symmetry must be none or one of {', '.join(SYMMETRIES)}, not {name!r}"
            )
        self.name = name
        m = MATRICES[name]
        by_look: dict[Look, list[Cell]] = defaultdict(list)
        mapped: dict[Cell, Look] = {}
        for key in sorted(tiles):
            tile = tiles[key]
            for t in range(tile.turn_count):
                by_look[look(tile, t)].append((key, t))
                mapped[(key, t)] = look(tile, t, m)
        self.image: dict[Cell, frozenset[Cell]] = {
            c: frozenset(by_look.get(lk, ())) for c, lk in mapped.items()
        }
        partners: dict[str, set[str]] = defaultdict(set)
        for (key, _t), imgs in self.image.items():
            partners[key].update(k for k, _ in imgs)
        #: tile -> the tiles some turn of which is the image of some turn of it
        self.partners: dict[str, frozenset[str]] = {
            k: frozenset(partners.get(k, ())) for k in tiles
        }

    def holds(self, a: Cell, b: Cell) -> bool:
        """Whether ``b`` looks like the image of ``a``."""
        return b in self.image.get(a, frozenset())

    def turns_for(self, a: Cell, tile: str) -> list[int]:
        """The turns of ``tile`` that make it the image of ``a`` (sorted)."""
        return sorted(t for k, t in self.image.get(a, frozenset()) if k == tile)


def orbits(image: list[int]) -> list[list[int]]:
    """The cycles of the slot permutation ``image`` (each in image order)."""
    seen: set[int] = set()
    out = []
    for i in range(len(image)):
        if i in seen:
            continue
        cyc = [i]
        seen.add(i)
        j = image[i]
        while j not in seen:
            cyc.append(j)
            seen.add(j)
            j = image[j]
        out.append(cyc)
    return out
