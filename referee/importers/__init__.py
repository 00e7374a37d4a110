"""Boards in from other tools: Tiled maps, GeoJSON and graphs.

:func:`import_board` reads a file of one of the :data:`IMPORTERS` formats
(:mod:`.formats`: ``tmj``, ``tmx``, ``geojson``, ``node-link``, ``graphml``) into a
:class:`~referee.model.Board` — one module per format (:mod:`.tiled`,
:mod:`.geojson`, :mod:`.graphs`) — and says, one line per kind, what the format held
that the board does not keep (:class:`ImportResult`). A file it cannot read is
refused with one :class:`ImportRefused` listing every problem, one line each; the
caller writes the board only on success (``referee import`` saves it atomically
through the project store, the editor adds it as one undo step).

Exports round-trip: a board exported by ``referee export`` (tmj, geojson, node-link,
graphml) imports back to a board whose compiled graph is the original's — node ids,
relations, properties — because each export carries what its format has no place
for (:mod:`referee.export.carry`) and coordinates are recovered exactly
(:mod:`.exact`). ``docs/reference/import-formats.md`` lists what each format keeps.

Everything read goes through :mod:`.sources`: the file named, and the tilesets,
templates and pictures a map refers to (which must stay inside its folder).
"""

from __future__ import annotations

import math
import os
from pathlib import Path

from ..errors import UsageError
from ..vocabulary import plugins
from .formats import IMPORTERS, Importer
from .result import ImportRefused, ImportResult
from .settings import LAYOUTS, OPTIONS, ImportOption, ImportSettings, Progress

__all__ = [
    "IMPORTERS",
    "LAYOUTS",
    "OPTIONS",
    "ImportOption",
    "ImportRefused",
    "ImportResult",
    "ImportSettings",
    "Importer",
    "Progress",
    "guess_format",
    "import_board",
]


def import_board(
    fmt: str,
    path: str | os.PathLike[str],
    settings: ImportSettings | None = None,
    progress: Progress | None = None,
) -> ImportResult:
    """Read ``path`` as ``fmt`` (an :data:`IMPORTERS` name) into a board.

    Raises
    ------
    UsageError
        An unknown format, or a setting out of range (checked before the file is read).
    ImportRefused
        The file cannot be imported; :attr:`ImportRefused.problems` has one line each.
    BoardwrightError
        The file cannot be read (missing, a FIFO, too large, malformed JSON …).
    """
    importer = IMPORTERS.get(fmt)
    if importer is None:
        raise UsageError(f"unknown import format {fmt!r} (one of {', '.join(IMPORTERS)})")
    s = settings or ImportSettings()
    _check(s)
    return importer.read(Path(path), s, progress)


def _check(s: ImportSettings) -> None:
    def positive(value: float | None, flag: str) -> None:
        if value is None:
            return
        ok = isinstance(value, (int, float)) and not isinstance(value, bool)
        if not ok or not math.isfinite(value) or not 1e-9 <= value <= 1e9:
            raise UsageError(f"{flag} must be a number from 1e-9 to 1e9, not {value!r}")

    positive(s.px_per_mm, OPTIONS["px_per_mm"].flag)
    positive(s.mm_per_unit, OPTIONS["mm_per_unit"].flag)
    positive(s.metres_per_mm, OPTIONS["metres_per_mm"].flag)
    if s.layout not in LAYOUTS:
        raise UsageError(f"--layout must be one of {', '.join(LAYOUTS)}, not {s.layout!r}")
    if s.rules is not None and s.rules not in plugins():
        raise UsageError(f"--rules {s.rules!r}: no such rules (installed: {', '.join(plugins())})")
    if s.root is not None and not Path(s.root).is_dir():
        raise UsageError(f"--root {s.root}: not a folder")


def guess_format(path: str | os.PathLike[str]) -> str | None:
    """The :data:`IMPORTERS` format a file most likely is, from its suffix and, for
        ``.json``, its first 64 KiB: a Tiled map says ``"type": "map"``, GeoJSON
        ``"FeatureCollection"`` or ``"Feature"``, node-link JSON has ``"nodes"`` (or begins
    with networkx's ``"directed"`` and ``"multigraph"``).
        ``None``: no guess (the caller asks). Reads at most 64 KiB of a regular file."""
    import re

    from ..safeio import check_regular_file

    name = Path(path).name.lower()
    for suffix, fmt in (
        (".tmx", "tmx"),
        (".tmx.gz", "tmx"),
        (".tmj", "tmj"),
        (".geojson", "geojson"),
        (".graphml", "graphml"),
    ):
        if name.endswith(suffix):
            return fmt
    if not name.endswith(".json"):
        return None
    try:
        check_regular_file(path, ImportRefused)
        with open(path, "rb") as fh:
            head = fh.read(65536).decode("utf-8", "replace")
    except (OSError, ImportRefused):
        return None
    if re.search(r'"type"\s*:\s*"map"', head):
        return "tmj"
    if re.search(r'"type"\s*:\s*"(FeatureCollection|Feature)"', head):
        return "geojson"
    if re.search(r'"(nodes|directed|multigraph)"\s*:', head):
        return "node-link"
    return None
