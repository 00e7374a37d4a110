"""Exports of compiled boards: node-link JSON, GraphML, GeoJSON, Tiled, TTS, SVG, PNG.

networkx is the exchange form: :func:`to_node_link` / :func:`from_node_link` are a
lossless pair (``edges="edges"`` passed explicitly); :mod:`.graphml` writes GraphML
that networkx, igraph and rustworkx read (dict and list attributes as JSON strings,
which :func:`from_graphml` decodes again).
:mod:`.tmj` writes a Tiled map, :mod:`.tts` a Tabletop Simulator saved object,
:mod:`.picture` the ``render`` drawing as SVG or PNG. :func:`write_export` writes any
of them to a file (``referee export``).

The node-link form with its ``graph`` header is our compiled-board JSON; its JSON
Schema is ``referee/schema/compiled.schema.json`` (:func:`compiled_schema`), and
``COMPILED_VERSION`` is the version it describes.
"""

from __future__ import annotations

import contextlib
import json
import os
from pathlib import Path
from typing import Any

import networkx as nx

from ..compiler import CompiledBoard
from ..errors import UsageError
from .geojson import GeoPlacement, to_geojson
from .graphml import from_graphml, to_graphml

__all__ = [
    "COMPILED_FORMAT",
    "COMPILED_VERSION",
    "EXPORT_FORMATS",
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

COMPILED_FORMAT = "boardwright-compiled"
COMPILED_VERSION = 1


def to_node_link(compiled: CompiledBoard) -> dict[str, Any]:
    """networkx node-link data of the compiled graph, with a versioned header."""
    data: dict[str, Any] = nx.node_link_data(compiled.graph, edges="edges")
    data["graph"] = {
        "format": COMPILED_FORMAT,
        "version": COMPILED_VERSION,
        "name": compiled.board.name,
        "rules": compiled.board.rules,
        "board_hash": compiled.hash,
        "turns": {p.id: p.turns for p in compiled.board.placements},
    }
    return data


def from_node_link(data: dict[str, Any]) -> nx.MultiGraph:
    """The graph back from :func:`to_node_link` output."""
    return nx.node_link_graph(data, edges="edges", multigraph=True)


def write_compiled(compiled: CompiledBoard, fmt: str, *, geo: GeoPlacement | None = None) -> str:
    """The compiled board as text in ``fmt`` (node-link, graphml or geojson).

    ``geo`` lays a GeoJSON export on the Earth (:class:`~.geojson.GeoPlacement`).
    """
    if fmt == "node-link":
        return json.dumps(to_node_link(compiled), indent=1, ensure_ascii=False) + "\n"
    if fmt == "graphml":
        return to_graphml(compiled)
    if fmt == "geojson":
        return json.dumps(to_geojson(compiled, geo=geo), ensure_ascii=False) + "\n"
    raise UsageError(f"unknown format {fmt!r}")


#: Formats :func:`write_export` knows (``referee export --to``).
EXPORT_FORMATS = ("node-link", "graphml", "geojson", "tmj", "tts", "svg", "png")


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
    """Write ``compiled`` as ``fmt`` to ``path``; return the files written.

    ``tts`` also writes the board picture as ``<path stem>.png`` beside the JSON
    (unless ``image_url`` names a picture elsewhere) and points the board at it,
    and adds the board's pictures — background, tile faces, piece tokens, card
    sheets — as TTS objects whose files go to ``<path stem>.images/``
    (:mod:`.tts_art`; ``image_url_base`` for hosted pictures). ``tmj`` adds the
    background image layer and the tile-face tileset (:mod:`.tmj_art`).
    ``geo`` places a ``geojson`` export on the Earth (default: board millimetres).
    Files are written whole or not at all (temporary file + rename).
    """
    from .picture import render_png, render_svg

    out = Path(path)
    if fmt not in EXPORT_FORMATS:
        raise UsageError(f"unknown export format {fmt!r} (one of {', '.join(EXPORT_FORMATS)})")
    if not out.parent.is_dir():
        raise UsageError(f"cannot write {out}: folder {out.parent} does not exist")
    written: list[Path] = []
    if fmt in ("node-link", "graphml", "geojson"):
        _write(out, write_compiled(compiled, fmt, geo=geo).encode("utf-8"))
    elif fmt == "tmj":
        from .tmj import to_tmj

        tmj = to_tmj(compiled, px_per_mm=px_per_mm)
        if any(True for _ in compiled.board.image_uses()):
            from .tmj_art import add_tmj_art

            folder = out.with_name(out.stem + ".images")
            written += add_tmj_art(tmj, compiled, folder, _write, px_per_mm=px_per_mm)
        _write(out, (json.dumps(tmj, indent=1, ensure_ascii=False) + "\n").encode("utf-8"))
    elif fmt == "svg":
        _write(out, render_svg(compiled).encode("utf-8"))
    elif fmt == "png":
        _write(out, render_png(compiled, png_width))
    else:  # tts
        from .picture import svg_to_png, view_box
        from .tts import MM_PER_INCH, to_tts

        box = None
        if image_url is None:
            img = out.with_suffix(".png")
            svg = render_svg(compiled)
            box = view_box(svg)
            _write(img, svg_to_png(svg, png_width))
            written.append(img)
            image_url = img.resolve().as_uri()
        data = to_tts(compiled, image_url, mm_per_unit=mm_per_unit or MM_PER_INCH, view_box=box)
        if any(True for _ in compiled.board.image_uses()):
            from .tts_art import TtsArt

            info = data["_boardwright"]
            art = TtsArt(
                compiled,
                out.with_name(out.stem + ".images"),
                (float(info["centre_mm"][0]), float(info["centre_mm"][1])),
                float(info["mm_per_unit"]),
                image_url_base,
                write=_write,
            )
            data["ObjectStates"].extend(art.objects())
            written.extend(art.written)
        _write(out, (json.dumps(data, indent=1, ensure_ascii=False) + "\n").encode("utf-8"))
    written.insert(0 if fmt not in ("tts", "tmj") else len(written), out)
    return written


def _write(path: Path, data: bytes) -> None:
    tmp = path.with_name(f".{path.name}.writing")
    try:
        tmp.write_bytes(data)
        os.replace(tmp, path)
    except OSError as exc:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise UsageError(f"cannot write {path}: {exc.strerror or exc}") from None
