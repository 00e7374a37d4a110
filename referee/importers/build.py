"""Building the board of an import: checked features, fresh ids, the carried block.

Every importer hands its features to one :class:`Builder`, which checks each the way
a loaded project is checked — the geometry the kind needs (a space a valid polygon,
a path a line of two distinct points), finite coordinates within
:data:`MAX_COORD_MM`, properties through the vocabulary (:func:`.props.coerce`) —
and gives it an id no other feature has. A problem is one line naming the place in
the file (``layer 'spaces' object 12``); :meth:`Builder.board` refuses them all at
once. The block a Boardwright export carries (:mod:`referee.export.carry`: tile
assets, placements, settings, piece types, decks) is read by :func:`read_block`.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import shapely
from shapely.geometry.base import BaseGeometry

from ..errors import BoardwrightError
from ..geometry import check_geometry
from ..model import FEATURE_KINDS, FORMAT, FORMAT_VERSION, MAX_FEATURES, Board, Feature
from .props import coerce
from .result import Losses, Problems

#: Largest coordinate (in mm, either sign) an import accepts: a thousand kilometres.
MAX_COORD_MM = 1e9
#: ``format`` and version of the block Boardwright's exports carry
BLOCK_FORMAT = "boardwright-board"
BLOCK_VERSION = 1


class Builder:
    """Collects the features of one import (see the module's notes).

    Parameters
    ----------
    problems : Problems
    losses : Losses
    taken : iterable of str
        Ids already used (placements and features of the carried block).
    """

    def __init__(self, problems: Problems, losses: Losses, taken: set[str] | None = None) -> None:
        self.problems = problems
        self.losses = losses
        self.features: list[Feature] = []
        self.ids: set[str] = set(taken or ())
        self._next = 0
        #: the order of the free-standing features (a carried block's ``order``)
        self.order: list[str] = []

    def fresh_id(self, wanted: Any, prefix: str) -> str:
        """``wanted`` if it is a usable id no feature has, else a fresh one.

        An id holding ``/`` (which only tile features have) has it replaced by ``_``;
        a taken id gets ``~2``, ``~3`` …; both are counted in the losses.
        """
        if isinstance(wanted, (int, float)) and not isinstance(wanted, bool):
            wanted = f"{prefix}{wanted:g}" if isinstance(wanted, float) else f"{prefix}{wanted}"
        if isinstance(wanted, str) and wanted.strip():
            fid = wanted.strip()
            if "/" in fid:
                fid = fid.replace("/", "_")
                self.losses.add("slash", "ids with '/' (kept for tile features): '/' became '_'")
            if fid not in self.ids:
                self.ids.add(fid)
                return fid
            n = 2
            while f"{fid}~{n}" in self.ids:
                n += 1
            self.losses.add("dup", "ids used twice: the later ones renamed id~2, id~3 …")
            fid = f"{fid}~{n}"
            self.ids.add(fid)
            return fid
        while True:
            self._next += 1
            fid = f"{prefix}{self._next}"
            if fid not in self.ids:
                self.ids.add(fid)
                return fid

    def feature(
        self,
        kind: str,
        geom: BaseGeometry,
        props: dict[str, Any],
        where: str,
        wanted_id: Any = None,
        prefix: str = "f",
    ) -> Feature | None:
        """Check and add one feature; ``None`` (and a problem) if it is refused."""
        if len(self.features) >= MAX_FEATURES:
            self.problems.add(where, f"more than {MAX_FEATURES} features (the board's limit)")
            return None
        want = FEATURE_KINDS.get(kind)
        if want is None:
            self.problems.add(where, f"unknown kind {kind!r}")
            return None
        if want != "Any" and geom.geom_type != want:
            self.problems.add(where, f"a {kind} needs a {want}, not a {geom.geom_type}")
            return None
        if not check_shape(geom, where, self.problems):
            return None
        out: dict[str, Any] = {}
        for key, value in props.items():
            if value is None:
                continue
            try:
                out[key] = coerce(kind, key, value, where)
            except BoardwrightError as exc:
                self.problems.add(where, exc.message)
                return None
        f = Feature(self.fresh_id(wanted_id, prefix), kind, geom, out)
        self.features.append(f)
        return f

    def board(self, base: Board | None, meta: dict[str, Any]) -> Board:
        """The board: ``base`` (the carried block's, or a new one) with the features
        added; refuses every problem collected so far."""
        self.problems.check()
        board = base if base is not None else Board()
        board.meta = {**board.meta, **{k: v for k, v in meta.items() if v is not None}}
        board.features.extend(self.features)
        if self.order:
            # the order the carried block gives; features added since go after them
            rank = {fid: i for i, fid in enumerate(self.order)}
            last = len(rank)
            board.features.sort(key=lambda f: rank.get(f.id, last))
        try:
            board.validate(self.problems.source)
        except BoardwrightError as exc:
            self.problems.add("", str(exc))
        self.problems.check()
        return board


def check_shape(geom: BaseGeometry, where: str, problems: Problems) -> bool:
    """Finite, within :data:`MAX_COORD_MM`, valid (as :func:`referee.geometry.check_geometry`)."""
    coords = shapely.get_coordinates(geom)
    if len(coords) and np.isfinite(coords).all() and np.abs(coords).max() > MAX_COORD_MM:
        problems.add(where, f"a coordinate is beyond ±{MAX_COORD_MM:g} mm")
        return False
    try:
        check_geometry(geom, where)
    except BoardwrightError as exc:
        problems.add(where, exc.message)
        return False
    return True


def read_block(data: Any, problems: Problems) -> Board | None:
    """The board of a Boardwright export's carried block (:mod:`referee.export.carry`),
    without the features the format carries itself; ``None`` (and a problem) if the
    block is malformed or of a newer version."""
    where = "the Boardwright block"
    if not isinstance(data, dict) or data.get("format") != BLOCK_FORMAT:
        problems.add(where, f'not a {BLOCK_FORMAT} block (no "format": "{BLOCK_FORMAT}")')
        return None
    if data.get("version") != BLOCK_VERSION:
        problems.add(
            where,
            f"version {data.get('version')!r} is not supported (this Boardwright reads "
            f"version {BLOCK_VERSION}); upgrade Boardwright",
        )
        return None
    project = {
        "format": FORMAT,
        "version": FORMAT_VERSION,
        "meta": data.get("meta", {}),
        "assets": {
            "tiles": data.get("tiles", []),
            "pieces": data.get("piece_types", []),
            "decks": data.get("decks", []),
        },
        "placements": data.get("placements", []),
        "features": data.get("features", []),
        "pieces": data.get("pieces", []),
    }
    try:
        return Board.from_json(project, f"{problems.source} boardwright block")
    except BoardwrightError as exc:
        problems.add("", str(exc))
        return None


def block_order(data: Any) -> list[str]:
    """The ``order`` of a carried block: the free-standing features' ids in board order."""
    order = data.get("order") if isinstance(data, dict) else None
    return [i for i in order if isinstance(i, str)] if isinstance(order, list) else []


def unreferenced_images(board: Board, losses: Losses) -> None:
    """Drop the picture references whose picture the import does not have (a tile
    face named by the block of a GeoJSON export), counting them in ``losses``."""
    for tile in board.tiles.values():
        if tile.face is not None and tile.face not in board.images:
            tile.face = None
            losses.add("faces", "tile faces: the file carries no pictures")
    for f in [*board.features, *(g for t in board.tiles.values() for g in t.features)]:
        image = f.props.get("image")
        if isinstance(image, str) and f.kind == "art" and image not in board.images:
            del f.props["image"]
            losses.add("art-images", "pictures of art features: the file carries no pictures")
    for key, pt in board.piece_types.items():
        if isinstance(pt.get("token"), str) and pt["token"] not in board.images:
            del pt["token"]
            losses.add("tokens", f"piece tokens ({key} …): the file carries no pictures")
    for deck in board.decks.values():
        for side in ("back",):
            if isinstance(deck.get(side), str) and deck[side] not in board.images:
                del deck[side]
                losses.add("cards", "card pictures: the file carries no pictures")
        for card in deck.get("cards", []) if isinstance(deck.get("cards"), list) else []:
            if not isinstance(card, dict):
                continue
            for side in ("face", "back"):
                if isinstance(card.get(side), str) and card[side] not in board.images:
                    del card[side]
                    losses.add("cards", "card pictures: the file carries no pictures")
