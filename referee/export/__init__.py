"""Exports of compiled boards: node-link JSON, GraphML, GeoJSON, Tiled, TTS, SVG, PNG.

networkx is the exchange form: :func:`to_node_link` / :func:`from_node_link` are a
lossless pair (``edges="edges"`` passed explicitly); GraphML flattens dict and list
attributes to JSON strings, which :func:`from_graphml` decodes again.
:mod:`.tmj` writes a Tiled map, :mod:`.tts` a Tabletop Simulator saved object,
:mod:`.picture` the ``render`` drawing as SVG or PNG. :func:`write_export` writes any
of them to a file (``referee export``).

The node-link form with its ``graph`` header is our compiled-board JSON; its JSON
Schema is ``referee/schema/compiled.schema.json`` (:func:`compiled_schema`), and
``COMPILED_VERSION`` is the version it describes.
"""

from __future__ import annotations

import io
import json
import math
import re
from pathlib import Path
from typing import Any

import networkx as nx

from ..compiler import CompiledBoard
from ..errors import BoardError, UsageError
from ..geometry import geometry_to_json
from ..safeio import atomic_write, dumps_json

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


_JSON_PREFIX = "json:"


#: Characters XML 1.0 cannot hold at all (not even escaped), and lone surrogates.
_XML_ILLEGAL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff\ud800-\udfff]")


def _xml_safe(value: Any, where: str) -> Any:
    """``value`` if GraphML can carry it, else a :class:`BoardError` naming ``where``."""
    if isinstance(value, str):
        m = _XML_ILLEGAL.search(value)
        if m:
            raise BoardError(
                f"{value[:40]!r} holds U+{ord(m.group()):04X}, which XML cannot carry",
                code="bad_text",
                location=where,
            )
    elif isinstance(value, float) and not math.isfinite(value):
        raise BoardError(f"{value} is not a finite number", code="bad_number", location=where)
    return value


def to_graphml(compiled: CompiledBoard) -> str:
    """GraphML text of the compiled graph (well-formed XML or a :class:`BoardError`).

    Ids and attribute values holding characters XML 1.0 cannot hold (NUL and other
    control characters, lone surrogates) are refused, naming the node or edge.
    """
    g = nx.MultiGraph()
    for n, d in compiled.graph.nodes(data=True):
        where = f"graphml node {n!r}"
        _xml_safe(n, where)
        g.add_node(
            n, **{_xml_safe(k, where): _flat(v, where) for k, v in d.items() if v is not None}
        )
    for u, v, k, d in compiled.graph.edges(keys=True, data=True):
        where = f"graphml edge {u!r}-{v!r}"
        _xml_safe(k, where)
        g.add_edge(
            u,
            v,
            key=k,
            **{_xml_safe(a, where): _flat(b, where) for a, b in d.items() if b is not None},
        )
    buf = io.BytesIO()
    nx.write_graphml(g, buf, encoding="utf-8")
    return buf.getvalue().decode("utf-8")


def _flat(v: Any, where: str = "graphml") -> Any:
    if isinstance(v, (dict, list, tuple)):
        v = _JSON_PREFIX + dumps_json(v, where, sort_keys=True, error=BoardError)
    return _xml_safe(v, where)


def from_graphml(text: str) -> nx.MultiGraph:
    """Read our GraphML back, decoding the JSON-encoded attributes.

    GraphML has no null: ``None`` attributes are left out when writing, and the
    node attribute ``tile`` (``None`` for free-standing features) is restored here,
    so the graph read back equals the compiled graph.
    """
    g = nx.read_graphml(io.BytesIO(text.encode("utf-8")), force_multigraph=True)
    for _, d in g.nodes(data=True):
        _unflat(d)
        d.setdefault("tile", None)
    for _, _, d in g.edges(data=True):
        _unflat(d)
    return g


def _unflat(d: dict[str, Any]) -> None:
    for k, v in list(d.items()):
        if isinstance(v, str) and v.startswith(_JSON_PREFIX):
            d[k] = json.loads(v[len(_JSON_PREFIX) :])


def to_geojson(compiled: CompiledBoard) -> dict[str, Any]:
    """Every feature in world coordinates with its properties (a FeatureCollection)."""
    feats = []
    for nid, (owner, f) in compiled.features.items():
        props = {"id": nid, "kind": f.kind, "tile": owner, **f.props}
        feats.append(
            {
                "type": "Feature",
                "id": nid,
                "geometry": geometry_to_json(f.geometry),
                "properties": props,
            }
        )
    return {"type": "FeatureCollection", "name": compiled.board.name, "features": feats}


def write_compiled(compiled: CompiledBoard, fmt: str) -> str:
    """The compiled board as text in ``fmt`` (node-link, graphml or geojson)."""
    if fmt == "node-link":
        return dumps_json(to_node_link(compiled), "node-link", indent=1, error=BoardError) + "\n"
    if fmt == "graphml":
        return to_graphml(compiled)
    if fmt == "geojson":
        return dumps_json(to_geojson(compiled), "geojson", error=BoardError) + "\n"
    raise UsageError(f"unknown format {fmt!r}")


#: Formats :func:`write_export` knows (``referee export --to``).
EXPORT_FORMATS = ("node-link", "graphml", "geojson", "tmj", "tts", "svg", "png")


def compiled_schema() -> dict[str, Any]:
    """The JSON Schema of :func:`to_node_link` output (our compiled-board JSON)."""
    from importlib import resources

    text = resources.files("referee").joinpath("schema/compiled.schema.json").read_text("utf-8")
    return json.loads(text)  # type: ignore[no-any-return]


def write_export(
    compiled: CompiledBoard,
    fmt: str,
    path: str | Path,
    *,
    png_width: int = 2048,
    px_per_mm: float = 1.0,
    image_url: str | None = None,
    mm_per_unit: float | None = None,
) -> list[Path]:
    """Write ``compiled`` as ``fmt`` to ``path``; return the files written.

    ``tts`` also writes the board picture as ``<path stem>.png`` beside the JSON
    (unless ``image_url`` names a picture elsewhere) and points the board at it.
    Files are written whole or not at all (:func:`referee.safeio.atomic_write`).
    Numbers are checked before any work (finite, positive), and an output whose
    name says it is a picture of another kind (``-o board.png`` for ``tts``, or
    an ``.svg``/``.png`` name for a text format) is refused: ``tts`` would
    otherwise overwrite its own PNG picture with JSON.
    """
    from ..safeio import finite
    from .picture import render_png, render_svg

    out = Path(path)
    if fmt not in EXPORT_FORMATS:
        raise UsageError(f"unknown export format {fmt!r} (one of {', '.join(EXPORT_FORMATS)})")
    finite(px_per_mm, "--px-per-mm", low=1e-6, high=1e6)
    if mm_per_unit is not None:
        finite(mm_per_unit, "--tts-mm-per-unit", low=1e-6, high=1e6)
    if isinstance(png_width, bool) or not isinstance(png_width, int) or not 1 <= png_width <= 16384:
        raise UsageError(f"--png-width must be an integer from 1 to 16384, not {png_width!r}")
    suffix = out.suffix.lower()
    if suffix in _PICTURE_SUFFIXES and _PICTURE_SUFFIXES[suffix] != fmt:
        raise UsageError(
            f"-o {out}: a {suffix} name for a {fmt} export (it would not be a {suffix[1:]} "
            f"file{'; tts writes its picture beside the JSON' if fmt == 'tts' else ''}); "
            "choose another name"
        )
    if not out.parent.is_dir():
        raise UsageError(f"cannot write {out}: folder {out.parent} does not exist")
    written: list[Path] = []
    if fmt in ("node-link", "graphml", "geojson"):
        _write(out, write_compiled(compiled, fmt).encode("utf-8"))
    elif fmt == "tmj":
        from .tmj import to_tmj

        _write(
            out,
            (
                dumps_json(
                    to_tmj(compiled, px_per_mm=px_per_mm), str(out), indent=1, error=BoardError
                )
                + "\n"
            ).encode("utf-8"),
        )
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
        _write(out, (dumps_json(data, str(out), indent=1, error=BoardError) + "\n").encode("utf-8"))
    written.insert(0 if fmt != "tts" else len(written), out)
    return written


_PICTURE_SUFFIXES = {".png": "png", ".svg": "svg"}


def _write(path: Path, data: bytes) -> None:
    atomic_write(path, data)
