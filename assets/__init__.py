"""Asset packs (tiles, pieces, decks), installed as ``referee.shipped.assets``.

See :mod:`referee.shipped`; this file only makes the folder an importable package.
"""
