"""The SVG document of ``referee render``: numbers, layers, shared definitions and glyphs.

Everything here writes text only (no board knowledge): :class:`Svg` collects elements
in named layers and writes them in order, and keeps each as a :class:`Primitive` (the
data the editor's canvas paints the same pictures from); :func:`fmt`, :func:`points` and
:func:`path_d` format coordinates (two decimals, no trailing zeros, so the output is
deterministic); :func:`star`, :func:`moon_d`, :func:`arrow` and :func:`chevron` are
the small glyphs the printed-board pictures share.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Final
from xml.sax.saxutils import quoteattr, unescape

from shapely.geometry.base import BaseGeometry

from .. import palette
from ..geometry import unit_vector

#: named fonts first, so rasterisers without Georgia (resvg on a bare Linux) still find one
FONTS: Final = "Georgia, DejaVu Serif, Liberation Serif, serif"

#: the layers of a picture, bottom first
LAYERS: Final[tuple[str, ...]] = (
    "ground",
    "faces",
    "art",
    "regions",
    "rivers",
    "roads",
    "tracks",
    "paths",
    "counters",
    "marks",
    "points",
    "pieces",
    "graph",
    "labels",
)


def fmt(v: float) -> str:
    """A coordinate with at most 2 decimals and no trailing zeros."""
    s = f"{v:.2f}".rstrip("0").rstrip(".")
    return "0" if s in ("-0", "") else s


def points(coords: Iterable[Sequence[float]]) -> str:
    """``x,y x,y ...`` of a polygon or polyline."""
    return " ".join(f"{fmt(c[0])},{fmt(c[1])}" for c in coords)


def path_d(geom: BaseGeometry) -> str:
    """SVG path data of a (multi)polygon or (multi)line."""
    parts: list[str] = []
    if geom.geom_type in ("Polygon", "MultiPolygon"):
        polys = geom.geoms if geom.geom_type == "MultiPolygon" else [geom]
        for poly in polys:
            for ring in [poly.exterior, *poly.interiors]:
                c = list(ring.coords)[:-1]
                parts.append("M" + " L".join(f"{fmt(x)},{fmt(y)}" for x, y, *_ in c) + " Z")
    elif geom.geom_type in ("LineString", "MultiLineString", "LinearRing"):
        lines = geom.geoms if geom.geom_type == "MultiLineString" else [geom]
        for line in lines:
            parts.append("M" + " L".join(f"{fmt(x)},{fmt(y)}" for x, y, *_ in line.coords))
    return " ".join(parts)


@dataclass(frozen=True)
class Primitive:
    """One drawn element, as data: what ``referee render`` writes as SVG and the
    editor's canvas paints with Qt (:func:`referee.render.primitives.feature_primitives`),
    so both draw a track board's decorations from one description.

    Attributes
    ----------
    layer : str
        One of :data:`LAYERS`.
    tag : str
        ``circle``, ``ellipse``, ``rect``, ``line``, ``polygon``, ``path`` or ``text``.
    attrs : dict
        The SVG attributes as written (``stroke-width``, ``font-size``...), as text.
    text : str
        A ``text`` element's words (unescaped).
    title : str
        The element's ``<title>`` (what hovering shows), unescaped.
    node : str or None
        The node whose picture drew it, while :meth:`Svg.drawing` names one.
    """

    layer: str
    tag: str
    attrs: dict[str, str]
    text: str = ""
    title: str = ""
    node: str | None = None


def _body_parts(tag: str, body: str) -> tuple[str, str]:
    """``(text, title)`` of an element's body (a ``<title>`` or a text's escaped words)."""
    if body.startswith("<title>") and body.endswith("</title>"):
        return "", unescape(body[len("<title>") : -len("</title>")])
    return (unescape(body), "") if tag == "text" else ("", "")


class Svg:
    """A tiny SVG writer: layers of elements (:data:`LAYERS`), written in order.

    Attribute names are written with ``-`` for ``_`` (``stroke_width`` ->
    ``stroke-width``); ``None`` values are left out. Every element added is also kept
    as a :class:`Primitive` (:attr:`primitives`), the description the editor paints.
    """

    LAYERS: Final = LAYERS

    def __init__(self) -> None:
        self.layers: dict[str, list[str]] = {k: [] for k in LAYERS}
        #: every element added, in order, as data
        self.primitives: list[Primitive] = []
        self._node: str | None = None

    @contextmanager
    def drawing(self, node: str) -> Iterator[None]:
        """Name the node whose picture the elements added meanwhile draw."""
        saved, self._node = self._node, node
        try:
            yield
        finally:
            self._node = saved

    def add(self, layer: str, tag: str, attrs: dict[str, Any], body: str = "") -> None:
        """Append an element ``<tag attrs>body</tag>`` to ``layer``."""
        written = {k.replace("_", "-"): str(v) for k, v in attrs.items() if v is not None}
        a = " ".join(f"{k}={quoteattr(v)}" for k, v in written.items())
        self.layers[layer].append(f"<{tag} {a}>{body}</{tag}>" if body else f"<{tag} {a}/>")
        text, title = _body_parts(tag, body)
        self.primitives.append(Primitive(layer, tag, written, text, title, self._node))

    def raw(self, layer: str, text: str) -> None:
        """Append ready-made SVG text to ``layer``."""
        self.layers[layer].append(text)

    def flat(self) -> str:
        """Every element of every layer, bottom first, without the layer groups."""
        return "".join(item for layer in LAYERS for item in self.layers[layer])


def defs() -> str:
    """The patterns (trees, peaks, waves) and arrow heads every picture may use."""
    return (
        "<defs>"
        '<pattern id="trees" width="6" height="6" patternUnits="userSpaceOnUse">'
        '<circle cx="3" cy="3" r="2.1" fill="#4a7a3c" stroke="#2e5226" stroke-width="0.35"/>'
        '<line x1="3" y1="5" x2="3" y2="6" stroke="#3a2a12" stroke-width="0.5"/></pattern>'
        '<pattern id="peaks" width="9" height="7" patternUnits="userSpaceOnUse">'
        '<path d="M0.5,6.5 L4.5,1 L8.5,6.5 Z" fill="#8f7657" stroke="#5a4630" '
        'stroke-width="0.35"/><path d="M3.2,2.8 L4.5,1 L5.8,2.8 L4.9,2.4 L4.3,3 Z" fill="#fbf8ef"/>'
        '<path d="M4.5,1 L8.5,6.5 L5.6,6.5 Z" fill="#6f5a40" opacity="0.6"/>'
        "</pattern>"
        '<pattern id="waves" width="8" height="4" patternUnits="userSpaceOnUse">'
        '<path d="M0,2 Q2,0.6 4,2 T8,2" fill="none" stroke="#5a95c4" stroke-width="0.35"/>'
        "</pattern>"
        '<marker id="wind" viewBox="0 0 6 6" refX="5" refY="3" markerWidth="3.4" '
        'markerHeight="3.4" markerUnits="userSpaceOnUse" orient="auto">'
        '<path d="M0,0 L6,3 L0,6 Z" fill="#111"/></marker>'
        '<marker id="graph-arrow" viewBox="0 0 6 6" refX="5" refY="3" markerWidth="4" '
        'markerHeight="4" markerUnits="userSpaceOnUse" orient="auto">'
        f'<path d="M0,0 L6,3 L0,6 Z" fill="{palette.RELATION_COLOURS["next"]}"/></marker>'
        "</defs>"
    )


# ---------------------------------------------------------------------- glyphs
def star(cx: float, cy: float, r: float, tips: int = 5) -> str:
    """The ``points`` of a star of ``tips`` tips, radius ``r``."""
    out = []
    for k in range(2 * tips):
        a = math.pi * k / tips - math.pi / 2
        rr = r if k % 2 == 0 else r * 0.45
        out.append((cx + rr * math.cos(a), cy + rr * math.sin(a)))
    return points(out)


def moon_d(cx: float, cy: float, r: float) -> str:
    """Path data of a crescent moon opening to the right."""
    top, bot = (cx + r * 0.35, cy - r * 0.94), (cx + r * 0.35, cy + r * 0.94)
    return (
        f"M{fmt(top[0])},{fmt(top[1])} A{fmt(r)},{fmt(r)} 0 1 0 {fmt(bot[0])},{fmt(bot[1])} "
        f"A{fmt(r * 0.78)},{fmt(r * 0.78)} 0 1 1 {fmt(top[0])},{fmt(top[1])} Z"
    )


def arrow(
    svg: Svg,
    layer: str,
    x: float,
    y: float,
    bearing: float,
    start: float,
    end: float,
    colour: str = "#111",
    width: float = 0.7,
) -> None:
    """A line with the ``wind`` arrow head, from ``start`` to ``end`` mm out along ``bearing``."""
    dx, dy = unit_vector(bearing)
    svg.add(
        layer,
        "line",
        {
            "x1": fmt(x + dx * start),
            "y1": fmt(y + dy * start),
            "x2": fmt(x + dx * end),
            "y2": fmt(y + dy * end),
            "stroke": colour,
            "stroke_width": width,
            "marker_end": "url(#wind)",
        },
    )


def chevron(
    svg: Svg, x: float, y: float, bearing: float, dist: float, size: float, fill: str, stroke: str
) -> None:
    """A filled chevron pointing along ``bearing``, ``dist`` mm from ``(x, y)`` (``marks``)."""
    dx, dy = unit_vector(bearing)
    px, py = -dy, dx
    cx, cy = x + dx * dist, y + dy * dist
    tip = (cx + dx * size, cy + dy * size)
    left = (cx - dx * size * 0.4 + px * size * 0.8, cy - dy * size * 0.4 + py * size * 0.8)
    right = (cx - dx * size * 0.4 - px * size * 0.8, cy - dy * size * 0.4 - py * size * 0.8)
    svg.add(
        "marks",
        "polygon",
        {
            "points": points([tip, left, (cx, cy), right]),
            "fill": fill,
            "stroke": stroke,
            "stroke_width": 0.3,
        },
    )


__all__ = [
    "FONTS",
    "LAYERS",
    "Primitive",
    "Svg",
    "arrow",
    "chevron",
    "defs",
    "fmt",
    "moon_d",
    "path_d",
    "points",
    "star",
]
