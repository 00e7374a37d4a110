"""The code that writes the Ringgeister asset pack and its default board.

``assets/ringgeister/build.py`` is the command; this package holds the content, one
module per kind of thing:

- :mod:`.shapes` — geometry helpers (arcs, blobs, hexagons, bearings)
- :mod:`.tile` — :class:`~.tile.TileBuilder`, one tile's features and their checks
- :mod:`.octagons`, :mod:`.squares` — the 12 octagonal and 11 square tiles
- :mod:`.frame` — the free-standing corners and the border roads
- :mod:`.figures` — the figure types, the 24 cards, the figures' starting places
- :mod:`.layout` — the pack's folders, the tile of each cell, the starting turns
- :mod:`.project` — writing ``pack.json``, ``tiles/*.json`` and the project
- :mod:`.search` — the hill climb behind ``build.py --search``

Geometry conventions are the board's: millimetres, y down, north is −y. Every
feature of a tile is in the tile frame (centre at the origin); the four ports sit at
the midpoints of the axis-aligned sides, (0, ±R) and (±R, 0) with R = 60 for octagons
and 40 for squares. Points are kept at least 6.5 mm
(:data:`~.tile.EDGE_MARGIN`) inside their tile's outline so that points of
neighbouring tiles are never closer than 13 mm, whatever the turns.
"""
