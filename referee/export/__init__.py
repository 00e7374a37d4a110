"""Exports of compiled boards: node-link JSON, GraphML, GeoJSON, Tiled, TTS, SVG, PNG.

networkx is the exchange form: :func:`to_node_link` / :func:`from_node_link`
(:mod:`.node_link`) are a lossless pair (``edges="edges"`` passed explicitly);
:mod:`.graphml` writes GraphML that networkx, igraph and rustworkx read (dict and
list attributes as JSON strings, which :func:`from_graphml` decodes again).
:mod:`.tmj` writes a Tiled map, :mod:`.tts` a Tabletop Simulator saved object,
:mod:`.picture` the ``render`` drawing as SVG or PNG.

The formats are one registry, :data:`EXPORTERS` (:mod:`.formats`): each
:class:`Exporter` declares its name, file suffix, description and the settings
(:data:`OPTIONS`) it reads. :func:`write_export` writes any of them to a file
(``referee export``, whose ``--to`` choices and flag help come from the registry, as
does ``docs/reference/export-formats.md``), :func:`write_compiled` the text formats
(``referee compile``).

The node-link form with its ``graph`` header is our compiled-board JSON; its JSON
Schema is ``referee/schema/compiled.schema.json`` (:func:`compiled_schema`), and
``COMPILED_VERSION`` is the version it describes.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from ..compiler import CompiledBoard
from ..errors import UsageError
from .formats import (
    EXPORTERS,
    OPTIONS,
    PICTURE_SUFFIXES,
    TEXT_FORMATS,
    Exporter,
    ExportOption,
    ExportSettings,
)
from .geojson import GeoPlacement, to_geojson
from .graphml import from_graphml, to_graphml
from .node_link import COMPILED_FORMAT, COMPILED_VERSION, from_node_link, to_node_link

__all__ = [
    "COMPILED_FORMAT",
    "COMPILED_VERSION",
    "EXPORTERS",
    "OPTIONS",
    "TEXT_FORMATS",
    "ExportOption",
    "ExportSettings",
    "Exporter",
    "GeoPlacement",
    "compiled_schema",
    "from_graphml",
    "from_node_link",
    "to_geojson",
    "to_graphml",
    "to_node_link",
    "write_compiled",
    "write_export",
]


def write_compiled(compiled: CompiledBoard, fmt: str, *, geo: GeoPlacement | None = None) -> str:
    """The compiled board as text in ``fmt``: a format whose exporter writes one text
    file (:data:`TEXT_FORMATS`: node-link, graphml, geojson; ``referee compile``).

    ``geo`` lays a GeoJSON export on the Earth (:class:`~.geojson.GeoPlacement`).
    """
    exporter = EXPORTERS.get(fmt)
    if exporter is None or exporter.text is None:
        raise UsageError(f"unknown format {fmt!r} (one of {', '.join(TEXT_FORMATS)})")
    return exporter.text(compiled, ExportSettings(geo=geo))


def compiled_schema() -> dict[str, Any]:
    """The JSON Schema of :func:`to_node_link` output (our compiled-board JSON)."""
    from importlib import resources

    text = resources.files("referee").joinpath("schema/compiled.schema.json").read_text("utf-8")
    schema: dict[str, Any] = json.loads(text)
    return schema


def write_export(
    compiled: CompiledBoard,
    fmt: str,
    path: str | Path,
    *,
    png_width: int = 2048,
    px_per_mm: float = 1.0,
    image_url: str | None = None,
    mm_per_unit: float | None = None,
    image_url_base: str | None = None,
    geo: GeoPlacement | None = None,
) -> list[Path]:
    """Write ``compiled`` as ``fmt`` (an :data:`EXPORTERS` name) to ``path``; return the
    files written.

    ``tts`` also writes the board picture as ``<path stem>.png`` beside the JSON
    (unless ``image_url`` names a picture elsewhere) and points the board at it,
    and adds the board's pictures — background, tile faces, piece tokens, card
    sheets — as TTS objects whose files go to ``<path stem>.images/``
    (:mod:`.tts_art`; ``image_url_base`` for hosted pictures). ``tmj`` adds the
    background image layer and the tile-face tileset (:mod:`.tmj_art`).
    ``geo`` places a ``geojson`` export on the Earth (default: board millimetres).
    Files are written whole or not at all (:func:`referee.safeio.atomic_write`).
    Numbers are checked before any work (finite, positive), and an output whose
    name says it is a picture of another kind (``-o board.png`` for ``tts``, or
    an ``.svg``/``.png`` name for a text format) is refused: ``tts`` would
    otherwise overwrite its own PNG picture with JSON.
    """
    from ..safeio import finite

    out = Path(path)
    exporter = EXPORTERS.get(fmt)
    if exporter is None:
        raise UsageError(f"unknown export format {fmt!r} (one of {', '.join(EXPORTERS)})")
    finite(px_per_mm, "--px-per-mm", low=1e-6, high=1e6)
    if mm_per_unit is not None:
        finite(mm_per_unit, "--tts-mm-per-unit", low=1e-6, high=1e6)
    if isinstance(png_width, bool) or not isinstance(png_width, int) or not 1 <= png_width <= 16384:
        raise UsageError(f"--png-width must be an integer from 1 to 16384, not {png_width!r}")
    suffix = out.suffix.lower()
    picture = PICTURE_SUFFIXES.get(suffix)
    if picture is not None and picture != fmt:
        raise UsageError(
            f"-o {out}: a {suffix} name for a {fmt} export (it would not be a {suffix[1:]} "
            f"file{'; tts writes its picture beside the JSON' if fmt == 'tts' else ''}); "
            "choose another name"
        )
    if not out.parent.is_dir():
        raise UsageError(f"cannot write {out}: folder {out.parent} does not exist")
    settings = ExportSettings(
        png_width=png_width,
        px_per_mm=px_per_mm,
        image_url=image_url,
        mm_per_unit=mm_per_unit,
        image_url_base=image_url_base,
        geo=geo,
    )
    return exporter.write(compiled, out, settings)
