"""The import formats as one registry: :data:`IMPORTERS`, name -> :class:`Importer`.

Like the exporters' registry (:mod:`referee.export.formats`), each importer declares
its name (``referee import NAME``), the file suffixes it reads, a one-line
description and the settings (:data:`OPTIONS`) it reads. The CLI builds its format
choices and flag help from here, ``docs/reference/import-formats.md`` lists it (a
test keeps the page in step), and the editor's File ▸ Import offers it. A new format
is one :class:`Importer` here.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .result import ImportResult

__all__ = ["IMPORTERS", "OPTIONS", "ImportOption", "ImportSettings", "Importer", "Progress"]

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


#: ``read(path, settings, progress) -> ImportResult``
Read = Callable[[Path, ImportSettings, "Progress | None"], "ImportResult"]


@dataclass(frozen=True)
class Importer:
    """One import format.

    Attributes
    ----------
    name : str
        ``referee import NAME``.
    suffixes : tuple of str
        File suffixes it reads (the editor's file filter; the first is the usual one).
    description : str
        One line: what it reads.
    options : tuple of str
        The :data:`OPTIONS` it reads (``rules`` is read by all).
    read : callable
        ``read(path, settings, progress)``.
    """

    name: str
    suffixes: tuple[str, ...]
    description: str
    options: tuple[str, ...]
    read: Read

    def __post_init__(self) -> None:
        unknown = [o for o in self.options if o not in OPTIONS]
        if unknown:
            raise ValueError(f"importer {self.name!r}: unknown option(s) {', '.join(unknown)}")


def _tiled(path: Path, settings: ImportSettings, progress: Progress | None) -> ImportResult:
    from .tiled import read_tiled

    return read_tiled(path, settings, progress)


def _geojson(path: Path, settings: ImportSettings, progress: Progress | None) -> ImportResult:
    from .geojson import read_geojson

    return read_geojson(path, settings, progress)


def _node_link(path: Path, settings: ImportSettings, progress: Progress | None) -> ImportResult:
    from .graphs import read_node_link

    return read_node_link(path, settings, progress)


def _graphml(path: Path, settings: ImportSettings, progress: Progress | None) -> ImportResult:
    from .graphs import read_graphml

    return read_graphml(path, settings, progress)


_GRAPH = ("mm_per_unit", "layout", "graph_only", "rules")

#: every import format, by name, in the order ``referee import --help`` lists them
IMPORTERS: dict[str, Importer] = {
    i.name: i
    for i in (
        Importer(
            "tmj",
            (".tmj", ".json"),
            "a Tiled JSON map: object layers, tile layers and tilesets, image layers",
            ("px_per_mm", "root", "rules"),
            _tiled,
        ),
        Importer(
            "tmx",
            (".tmx", ".tmx.gz"),
            "a Tiled XML map: object layers, tile layers and tilesets, image layers",
            ("px_per_mm", "root", "rules"),
            _tiled,
        ),
        Importer(
            "geojson",
            (".geojson", ".json"),
            "GeoJSON features: polygons as spaces, lines as paths, points as points",
            ("mm_per_unit", "metres_per_mm", "rules"),
            _geojson,
        ),
        Importer(
            "node-link",
            (".json",),
            "a networkx node-link graph: nodes as points, edges as paths",
            _GRAPH,
            _node_link,
        ),
        Importer(
            "graphml",
            (".graphml", ".xml"),
            "a GraphML graph: nodes as points, edges as paths",
            _GRAPH,
            _graphml,
        ),
    )
}
