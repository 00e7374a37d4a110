"""The settings of an import: :class:`ImportSettings` and the flags that set them
(:data:`OPTIONS`), read by every importer and by ``referee import``."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

__all__ = ["LAYOUTS", "OPTIONS", "ImportOption", "ImportSettings", "Progress"]

#: ``progress(done, total)``: called as an import goes (the editor's progress dialog)
Progress = Callable[[int, int], None]

#: layouts for graphs whose nodes have no positions (networkx's layout functions)
LAYOUTS = ("spring", "kamada-kawai", "circular", "shell", "spectral", "planar")


@dataclass(frozen=True)
class ImportOption:
    """A setting importers read: a field of :class:`ImportSettings` and a flag of
    ``referee import``.

    Attributes
    ----------
    name : str
        The field (``px_per_mm``).
    flag : str
        The ``referee import`` flag (``--px-per-mm``).
    help : str
        What it sets, with its default, for the flag's help and the docs.
    """

    name: str
    flag: str
    help: str


#: every setting an importer may read, by field name
OPTIONS: dict[str, ImportOption] = {
    o.name: o
    for o in (
        ImportOption(
            "px_per_mm",
            "--px-per-mm",
            "Tiled pixels per millimetre (default: the map's px_per_mm property, else 1)",
        ),
        ImportOption(
            "mm_per_unit",
            "--mm-per-unit",
            "millimetres per coordinate unit of a GeoJSON that is not longitude/latitude, or "
            "of a graph's node positions (default 1)",
        ),
        ImportOption(
            "metres_per_mm",
            "--geo-metres-per-mm",
            "a longitude/latitude GeoJSON: metres of ground per board millimetre (default: "
            "the file's own, else the longer side of the data becomes 1000 mm)",
        ),
        ImportOption(
            "layout",
            "--layout",
            "a graph whose nodes lack positions: networkx layout "
            f"({', '.join(LAYOUTS)}; default spring), in a 600 mm square",
        ),
        ImportOption(
            "graph_only",
            "--graph-only",
            "take a graph as it is (nodes as points, edges as paths), even a Boardwright "
            "export that carries its board",
        ),
        ImportOption(
            "root",
            "--root",
            "folder the files a map refers to must be inside (default: the map's folder)",
        ),
        ImportOption("rules", "--rules", "the board's rules (default: what the file says)"),
    )
}


@dataclass(frozen=True)
class ImportSettings:
    """The settings of one import (checked by :func:`referee.importers.import_board`)."""

    px_per_mm: float | None = None
    mm_per_unit: float = 1.0
    metres_per_mm: float | None = None
    layout: str = "spring"
    graph_only: bool = False
    root: Path | None = None
    rules: str | None = None
