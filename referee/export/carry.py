"""What a format has no place for, carried along so that an import gets the board back.

Each export format carries the board's features its own way (Tiled objects, GeoJSON
features, graph nodes), but none has a place for a tile asset in its own frame, a
placement's centre, the board's settings, its piece types and decks. Every exporter
that an import reads back (``tmj``, ``geojson``, ``node-link``, ``graphml``) writes
them in one JSON block, :func:`board_block`, where the format allows foreign data:

- ``tmj``: the map property ``boardwright`` (a ``string`` holding the JSON text);
- ``geojson``: the collection's foreign member ``boardwright_board``;
- ``node-link``: the ``board`` member of the graph header;
- ``graphml``: the graph's ``board`` data key (JSON text, ``json:`` prefixed).

The block::

    {"format": "boardwright-board", "version": 1, "board_hash": "…",
     "meta": {...}, "tiles": [tile assets, features in their own frame],
     "placements": [{"id", "tile", "x", "y", "turns"}], "piece_types": [...],
     "decks": [...], "pieces": [...], "features": [free-standing features],
     "order": [the ids of every free-standing feature, in the board's order]}

``features`` lists only the free-standing features the format itself does not carry:
all of them for the graph formats (a graph has nodes, not geometry), the ``art``
features for ``tmj`` (Tiled gets no terrain drawings), none for ``geojson``. The
features a format does carry are read back from the format's own content, so an
edit made in the other tool comes back; the tiles' features come from the block
(see :mod:`referee.importers`); ``order`` puts them back in the board's order (a
format groups them its own way: Tiled by layer). Pictures and recorded games are not
in the block.

Notes
-----
Linear in the size of the board.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ..compiler import CompiledBoard

#: ``format`` of the block, and its version
BLOCK_FORMAT = "boardwright-board"
BLOCK_VERSION = 1


def board_block(compiled: CompiledBoard, kinds: Iterable[str] | None = ()) -> dict[str, Any]:
    """The block of ``compiled``'s board (see the module's notes).

    Parameters
    ----------
    compiled : CompiledBoard
    kinds : iterable of str or None
        The kinds of free-standing feature to carry (the ones the format drops);
        ``None``: every free-standing feature.
    """
    board = compiled.board
    laid = compiled.laid_turns
    wanted = None if kinds is None else set(kinds)
    return {
        "format": BLOCK_FORMAT,
        "version": BLOCK_VERSION,
        "board_hash": compiled.hash,
        "meta": board.meta,
        "tiles": [t.to_json() for t in board.tiles.values()],
        "placements": [dict(p.to_json(), turns=laid.get(p.id, p.turns)) for p in board.placements],
        "piece_types": [dict(v, key=k) for k, v in board.piece_types.items()],
        "decks": [dict(v, key=k) for k, v in board.decks.items()],
        "pieces": [p.to_json() for p in board.pieces],
        "features": [f.to_json() for f in board.features if wanted is None or f.kind in wanted],
        "order": [f.id for f in board.features],
    }
