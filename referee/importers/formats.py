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

from . import geojson, graphs, tiled
from .result import ImportResult
from .settings import OPTIONS, ImportSettings, Progress

__all__ = ["IMPORTERS", "Importer"]

#: ``read(path, settings, progress) -> ImportResult``
Read = Callable[[Path, ImportSettings, Progress | None], ImportResult]


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
    return tiled.read_tiled(path, settings, progress)


def _geojson(path: Path, settings: ImportSettings, progress: Progress | None) -> ImportResult:
    return geojson.read_geojson(path, settings, progress)


def _node_link(path: Path, settings: ImportSettings, progress: Progress | None) -> ImportResult:
    return graphs.read_node_link(path, settings, progress)


def _graphml(path: Path, settings: ImportSettings, progress: Progress | None) -> ImportResult:
    return graphs.read_graphml(path, settings, progress)


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
