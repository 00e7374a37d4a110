"""Draw a board as SVG, headless (no Qt, no display): ``referee render``.

One renderer for every kind of board the compiler knows:

- **tiles** (Ringgeister): outlines with a ground colour, terrain art (forest,
  mountain, water, rock, …), paths on land and water, grey and black points,
  starting points (white ring; black ring with five arrows), the goal, wind
  arrows, headings of black points, magic points (white rectangle), dwarf doors
  with their symbol (moon, star), junctions and forks with three black arrows,
  hexagonal counter spaces linked to their arrival points, ports;
- **region maps** (Riddle of the Ring): spaces filled by terrain, rivers, river
  dots, bridges, roads, cities, letters and names;
- **tracks** (Mount Doom, the cooperative game): the line and its numbered points;
- **pieces** standing on nodes, and optionally the **compiled graph** as an
  overlay (one colour per relation; port nodes that became dead ends/junctions).

Everything is drawn in board millimetres (``viewBox`` = the board), so the SVG
prints at real size. Every node carries a ``<title>`` with its id, so hovering
in a browser tells which node is which. The output is deterministic: the same
board gives the same bytes (tests compare it).
"""

from __future__ import annotations

import math
from collections.abc import Collection, Iterable
from typing import Any
from xml.sax.saxutils import escape, quoteattr

import shapely
import shapely.affinity
from shapely.geometry.base import BaseGeometry

from . import palette
from .compiler import CompiledBoard
from .errors import UsageError
from .geometry import bearing_degrees, unit_vector
from .images.draw import SvgImages
from .model import Board, Feature
from .render_symbols import legend_entries, sample_props, symbol_elements

#: ground, art and line colours
GROUND = {
    "board": "#d8c9a0",
    "frame": "#6e5a3c",
    "octagon": "#cfe0a6",
    "square": "#e3d7a4",
    "polygon": "#d9d3b0",
    "hexagon": "#d9d3b0",
}
TERRAIN = {
    "forest": ("#5f8f4e", "#3f6634"),
    "mountain": ("#a88e6e", "#6d573d"),
    "water": ("#8cc0e3", "#4b86b4"),
    "lake": ("#8cc0e3", "#4b86b4"),
    "ocean": ("#6fa7d6", "#3b74a5"),
    "rock": ("#8d8d8d", "#3c3c3c"),
    "open": ("#e8e0bc", "#8a7f5a"),
    "field": ("#e2d88f", "#9a8c45"),
    "shire": ("#b8d98c", "#5f7d3a"),
    "fire": ("#b39a84", "#4a3528"),
    "volcano": ("#3d2520", "#1a0c08"),
    "marsh": ("#a9c2a0", "#5f7a57"),
    "lava": ("#e0521a", "#9a2a08"),
}
LAND = ("#6b4f2a", "#ead7a2")
WATER = ("#2f6ea5", "#9ccbee")
FIGURE_COLOURS = {
    "yellow": "#f2d024",
    "orange": "#f08a1c",
    "purple": "#8a4bc8",
    "green": "#3aa245",
    "white": "#ffffff",
    "black": "#151515",
}
_SIZE_R = {"small": 3.6, "medium": 4.4, "large": 5.2}
#: named fonts first, so rasterisers without Georgia (resvg on a bare Linux) still find one
FONTS = "Georgia, DejaVu Serif, Liberation Serif, serif"
#: letters on the figure tokens where the first letter would be ambiguous
_FIGURE_LETTERS = {
    "gollum": "Go",
    "gandalf": "G",
    "spirit": "S",
    "orc": "O",
    "hobbit": "H",
    "man": "M",
}


def _f(v: float) -> str:
    """A coordinate with at most 2 decimals and no trailing zeros."""
    s = f"{v:.2f}".rstrip("0").rstrip(".")
    return "0" if s in ("-0", "") else s


def _pts(coords: Iterable[Any]) -> str:
    return " ".join(f"{_f(x)},{_f(y)}" for x, y, *_ in coords)


def _path_d(geom: BaseGeometry) -> str:
    """SVG path data of a (multi)polygon or (multi)line."""
    parts: list[str] = []
    if geom.geom_type in ("Polygon", "MultiPolygon"):
        polys = geom.geoms if geom.geom_type == "MultiPolygon" else [geom]
        for poly in polys:
            for ring in [poly.exterior, *poly.interiors]:
                c = list(ring.coords)[:-1]
                parts.append("M" + " L".join(f"{_f(x)},{_f(y)}" for x, y, *_ in c) + " Z")
    elif geom.geom_type in ("LineString", "MultiLineString", "LinearRing"):
        lines = geom.geoms if geom.geom_type == "MultiLineString" else [geom]
        for line in lines:
            parts.append("M" + " L".join(f"{_f(x)},{_f(y)}" for x, y, *_ in line.coords))
    return " ".join(parts)


class _Svg:
    """A tiny SVG writer: layers of elements, written in order."""

    LAYERS = (
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

    def __init__(self) -> None:
        self.layers: dict[str, list[str]] = {k: [] for k in self.LAYERS}

    def add(self, layer: str, tag: str, attrs: dict[str, Any], body: str = "") -> None:
        a = " ".join(
            f"{k.replace('_', '-')}={quoteattr(str(v))}" for k, v in attrs.items() if v is not None
        )
        self.layers[layer].append(f"<{tag} {a}>{body}</{tag}>" if body else f"<{tag} {a}/>")

    def raw(self, layer: str, text: str) -> None:
        self.layers[layer].append(text)


def _defs() -> str:
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


# ---------------------------------------------------------------------- symbols
def _star(cx: float, cy: float, r: float, points: int = 5) -> str:
    out = []
    for k in range(2 * points):
        a = math.pi * k / points - math.pi / 2
        rr = r if k % 2 == 0 else r * 0.45
        out.append((cx + rr * math.cos(a), cy + rr * math.sin(a)))
    return _pts(out)


def _moon_d(cx: float, cy: float, r: float) -> str:
    """A crescent moon opening to the right."""
    top, bot = (cx + r * 0.35, cy - r * 0.94), (cx + r * 0.35, cy + r * 0.94)
    return (
        f"M{_f(top[0])},{_f(top[1])} A{_f(r)},{_f(r)} 0 1 0 {_f(bot[0])},{_f(bot[1])} "
        f"A{_f(r * 0.78)},{_f(r * 0.78)} 0 1 1 {_f(top[0])},{_f(top[1])} Z"
    )


def _arrow(
    svg: _Svg,
    layer: str,
    x: float,
    y: float,
    bearing: float,
    start: float,
    end: float,
    colour: str = "#111",
    width: float = 0.7,
) -> None:
    dx, dy = unit_vector(bearing)
    svg.add(
        layer,
        "line",
        {
            "x1": _f(x + dx * start),
            "y1": _f(y + dy * start),
            "x2": _f(x + dx * end),
            "y2": _f(y + dy * end),
            "stroke": colour,
            "stroke_width": width,
            "marker_end": "url(#wind)",
        },
    )


def _chevron(
    svg: _Svg, x: float, y: float, bearing: float, dist: float, size: float, fill: str, stroke: str
) -> None:
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
            "points": _pts([tip, left, (cx, cy), right]),
            "fill": fill,
            "stroke": stroke,
            "stroke_width": 0.3,
        },
    )


# ---------------------------------------------------------------------- renderer
class BoardRenderer:
    """Render a board (and optionally its compiled graph) to SVG text.

    Parameters
    ----------
    board : Board
        The board, at the turns of its placements.
    compiled : CompiledBoard, optional
        Needed for the graph overlay and for dead-end/junction port nodes; built
        when missing and ``graph`` is asked for.
    graph : bool
        Draw the compiled graph on top.
    pieces : bool
        Draw the pieces standing on the board.
    ports : bool
        Mark the ports on the tile sides.
    labels : bool
        Draw text (names, letters, the legend).
    patterns : bool
        Draw terrain patterns (trees, peaks, waves) over the fills; False gives
        flat fills — a picture whose regions are separated only by their borders,
        as :mod:`referee.trace` reads.
    layers : collection of str, optional
        Draw only these layers of :attr:`_Svg.LAYERS` (e.g. ``("ground",
        "regions")`` for the spaces alone); default all.
    images : {"embed", "link", "none"}
        Pictures (background, tile faces, art, piece tokens) as data URIs, as
        links to ``image_link_base + <id>.<ext>``, or not at all
        (:class:`referee.images.draw.SvgImages`).
    image_px_per_mm : float, optional
        Embed raster pictures reduced to this resolution (for PNG output).

    Notes
    -----
    Cost is linear in the features (one pass over ``board.world_features()``) plus
    the graph edges when the overlay is drawn.
    """

    def __init__(
        self,
        board: Board,
        compiled: CompiledBoard | None = None,
        *,
        graph: bool = False,
        pieces: bool = True,
        ports: bool = True,
        legend: bool = True,
        labels: bool = True,
        patterns: bool = True,
        layers: Collection[str] | None = None,
        images: str = "embed",
        image_link_base: str = "",
        image_px_per_mm: float | None = None,
    ) -> None:
        self.board = board
        self.patterns = patterns
        self.pics = SvgImages(
            board.images, images, link_base=image_link_base, px_per_mm=image_px_per_mm
        )
        shown = set(_Svg.LAYERS if layers is None else layers)
        unknown = shown - set(_Svg.LAYERS)
        if unknown:
            raise UsageError(
                f"unknown layer(s) {', '.join(sorted(unknown))} (known: {', '.join(_Svg.LAYERS)})"
            )
        if not labels:
            shown.discard("labels")
        self.layers = shown
        self.legend = legend
        self.compiled = compiled
        self.graph = graph
        self.pieces = pieces
        self.ports = ports
        self.svg = _Svg()
        self.world: list[tuple[str, str | None, Feature]] = list(board.world_features())
        #: where each feature is drawn: a point's position, a polygon's representative point
        self.where: dict[str, tuple[float, float]] = {}
        for nid, _, f in self.world:
            g = f.geometry
            if g.geom_type == "Point":
                self.where[nid] = (g.x, g.y)
            elif g.geom_type in ("Polygon", "MultiPolygon"):
                c = g.representative_point()
                self.where[nid] = (c.x, c.y)

    # -- extent
    def extent(self) -> tuple[float, float, float, float]:
        w, h = self.board.meta.get("width"), self.board.meta.get("height")
        if isinstance(w, (int, float)) and isinstance(h, (int, float)) and w > 0 and h > 0:
            return 0.0, 0.0, float(w), float(h)
        geoms = [f.geometry for _, _, f in self.world]
        geoms += [self.board.outline_of(p) for p in self.board.placements]
        if not geoms:
            return 0.0, 0.0, 100.0, 100.0
        x0, y0, x1, y1 = shapely.GeometryCollection(geoms).bounds
        m = 10.0
        return x0 - m, y0 - m, x1 - x0 + 2 * m, y1 - y0 + 2 * m

    # -- legend
    def _legend(self, lx: float, ly: float) -> None:
        """A key to the symbols the board uses, in the frame's top strip (tile boards)."""
        props: dict[str, set[Any]] = {}
        kinds: set[str] = set()
        for _, _, f in self.world:
            kinds.add(f.kind)
            for k, v in f.props.items():
                props.setdefault(k, set()).add(v if isinstance(v, (str, bool, int, float)) else "")
        entries: list[tuple[str, Feature]] = []
        pt = shapely.Point(0, 0)
        if "point" in kinds:
            entries.append(("grey point", Feature("", "point", pt, {"colour": "grey"})))
        if "black" in props.get("colour", ()):
            entries.append(
                ("black point", Feature("", "point", pt, {"colour": "black", "heading": "E"}))
            )
        if "white" in props.get("start", ()):
            entries.append(
                ("white start", Feature("", "point", pt, {"colour": "grey", "start": "white"}))
            )
        if "black" in props.get("start", ()):
            entries.append(
                ("black start", Feature("", "point", pt, {"colour": "black", "start": "black"}))
            )
        if True in props.get("magic", ()):
            entries.append(
                ("magic point", Feature("", "point", pt, {"colour": "grey", "magic": True}))
            )
        if props.get("wind"):
            entries.append(("wind", Feature("", "point", pt, {"colour": "grey", "wind": "E"})))
        for sym in ("moon", "star"):
            if sym in props.get("symbol", ()):
                entries.append((f"door: {sym}", Feature("", "door", pt, {"symbol": sym})))
        if True in props.get("forced_right", ()):
            entries.append(("fork: right", Feature("", "junction", pt, {"forced_right": True})))
        if "counter_space" in kinds:
            hexagon = shapely.Polygon(
                [
                    (3.8 * math.cos(math.pi * k / 3), 3.8 * math.sin(math.pi * k / 3))
                    for k in range(6)
                ]
            )
            entries.append(("counter space", Feature("", "counter_space", hexagon, {})))
        if "water" in props.get("medium", ()):
            entries.append(
                (
                    "waterway",
                    Feature("", "path", shapely.LineString([(-4, 0), (4, 0)]), {"medium": "water"}),
                )
            )
        entries += [
            (title, Feature("", key.partition(".")[0], pt, sample_props(key, sym)))
            for key, title, sym in legend_entries([f for _, _, f in self.world])
        ]
        if not entries:
            return
        s = self.svg
        s.add(
            "labels",
            "rect",
            {
                "x": _f(lx - 12),
                "y": _f(ly - 2),
                "width": 180,
                "height": 33,
                "rx": 2,
                "fill": "#efe4c4",
                "stroke": "#4d3f29",
                "stroke_width": 0.5,
                "opacity": 0.95,
            },
        )
        saved, self.svg = self.svg, _Svg()
        for i, (text, f) in enumerate(entries[:12]):
            col, row = i % 4, i // 4
            cx, cy = lx + 44 * col, ly + 4.5 + 10 * row
            shift = 5.0 if text == "wind" else 0.0
            cx -= shift
            moved = Feature(f.id, f.kind, shapely.affinity.translate(f.geometry, cx, cy), f.props)
            self._feature(f"key:{text}", None, moved)
            saved.add(
                "labels",
                "text",
                {
                    "x": _f(cx + 7.5 + 1.6 * shift),
                    "y": _f(cy + 1.2),
                    "font_size": 3.2,
                    "fill": "#2a2214",
                },
                escape(text),
            )
        key = "".join(item for layer in _Svg.LAYERS for item in self.svg.layers[layer])
        self.svg = saved
        s.raw("labels", f'<g id="legend">{key}</g>')

    # -- drawing
    def render(self) -> str:
        x0, y0, w, h = self.extent()
        self._ground(x0, y0, w, h)
        for nid, owner, f in self.world:
            self._feature(nid, owner, f)
        if self.pieces:
            self._pieces()
        if self.graph:
            self._graph()
        if self.legend and self.board.placements and w >= 400 and h >= 200:
            self._legend(x0 + w - 176, y0 + 5)
        title = escape(self.board.name)
        head = (
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{_f(w)}mm" height="{_f(h)}mm" '
            f'viewBox="{_f(x0)} {_f(y0)} {_f(w)} {_f(h)}" font-family="{FONTS}">'
            f"<title>{title}</title>"
        )
        body = [head, _defs()]
        for layer in _Svg.LAYERS:
            if layer not in self.layers:
                continue
            items = self.svg.layers[layer]
            if items:
                body.append(f'<g id="{layer}">' + "".join(items) + "</g>")
        body.append("</svg>")
        return "\n".join(body) + "\n"

    def _ground(self, x0: float, y0: float, w: float, h: float) -> None:
        s = self.svg
        has_tiles = bool(self.board.placements)
        if has_tiles:
            s.add(
                "ground",
                "rect",
                {
                    "x": _f(x0),
                    "y": _f(y0),
                    "width": _f(w),
                    "height": _f(h),
                    "fill": GROUND["frame"],
                },
            )
            m = 40.0 if w >= 200 and h >= 200 else 0.0
            s.add(
                "ground",
                "rect",
                {
                    "x": _f(x0 + m),
                    "y": _f(y0 + m),
                    "width": _f(w - 2 * m),
                    "height": _f(h - 2 * m),
                    "fill": GROUND["board"],
                    "stroke": "#4d3f29",
                    "stroke_width": 0.8,
                },
            )
        else:
            s.add(
                "ground",
                "rect",
                {"x": _f(x0), "y": _f(y0), "width": _f(w), "height": _f(h), "fill": "#f3eedb"},
            )
        bg = self.board.background
        if bg is not None and bg.visible and bg.image in self.board.images:
            info = self.board.images.info(bg.image)
            bw, bh = bg.size_mm(info.width, info.height)
            s.raw(
                "ground",
                self.pics.element(
                    bg.image,
                    0.0,
                    0.0,
                    bw,
                    bh,
                    transform=f"translate({_f(bg.x)},{_f(bg.y)}) rotate({_f(bg.rotation)})",
                    opacity=bg.opacity,
                    title="background",
                ),
            )
        for p in self.board.placements:
            tile = self.board.tile_of(p)
            outline = self.board.outline_of(p)
            if tile.face:
                s.raw("faces", self._framed_image(tile.face, p.id, tile.outline, outline))
            s.add(
                "ground",
                "path",
                {
                    "d": _path_d(outline),
                    "fill": GROUND.get(tile.shape, GROUND["polygon"]),
                    "stroke": "#4d3f29",
                    "stroke_width": 0.6,
                },
                f"<title>{escape(p.id)}: {escape(tile.name)} (turns {p.turns})</title>",
            )
            if not tile.turnable:
                # fixed tiles: a double rim
                inner = outline.buffer(-1.6, join_style="mitre")
                s.add(
                    "ground",
                    "path",
                    {"d": _path_d(inner), "fill": "none", "stroke": "#4d3f29", "stroke_width": 0.3},
                )

    def _framed_image(
        self,
        image_id: str,
        owner: str | None,
        frame: BaseGeometry,
        clip: BaseGeometry,
        opacity: float | None = None,
    ) -> str:
        """An image stretched over ``frame``'s bounds, clipped to ``clip`` (world).

        ``frame`` is in the frame of tile placement ``owner`` when given (the image
        turns and moves with the tile), else on the board.
        """
        x0, y0, x1, y1 = frame.bounds
        transform = None
        if owner is not None:
            p = self.board.placement(owner)
            tile = self.board.tile_of(p)
            angle = 360.0 * (p.turns % tile.turn_count) / tile.turn_count
            transform = f"translate({_f(p.x)},{_f(p.y)}) rotate({_f(angle)})"
        clip_d = None
        # clip only where the shape is not the picture's rectangle (resvg renders each
        # clip as a canvas-sized mask: a square tile needs none)
        box_area = (x1 - x0) * (y1 - y0)
        if clip.geom_type in ("Polygon", "MultiPolygon") and frame.area < box_area * 0.9999:
            clip_d = _path_d(clip)
        return self.pics.element(
            image_id,
            x0,
            y0,
            x1 - x0,
            y1 - y0,
            transform=transform,
            clip_d=clip_d,
            opacity=opacity,
            title=escape(self.board.images.info(image_id).name)
            if image_id in self.board.images
            else "",
        )

    def _feature(self, nid: str, owner: str | None, f: Feature) -> None:
        draw = getattr(self, f"_draw_{f.kind}", None)
        if draw is not None:
            draw(nid, f)
        # the rules modules' own symbols (referee.palette), as the editor draws them
        for layer, tag, attrs, body in symbol_elements(nid, f):
            self.svg.add(layer, tag, attrs, body)

    # tiles and frame --------------------------------------------------------
    def _draw_art(self, nid: str, f: Feature) -> None:
        g = f.geometry
        image = f.props.get("image")
        if isinstance(image, str):
            owner, _, fid = nid.rpartition("/")
            frame = g
            if owner:
                frame = self.board.tile_of(self.board.placement(owner)).feature(fid).geometry
            op = f.props.get("opacity")
            self.svg.raw(
                "art",
                self._framed_image(
                    image, owner or None, frame, g, float(op) if op is not None else None
                ),
            )
            return
        terrain = str(f.props.get("terrain") or "")
        fill, stroke = TERRAIN.get(terrain, ("#cbbf95", "#7d6f48"))
        fill = str(f.props.get("fill") or fill)
        stroke = str(f.props.get("stroke") or stroke)
        if g.geom_type in ("Polygon", "MultiPolygon"):
            d = _path_d(g)
            self.svg.add(
                "art",
                "path",
                {
                    "d": d,
                    "fill": fill,
                    "stroke": stroke,
                    "stroke_width": 0.4,
                    "stroke_linejoin": "round",
                },
            )
            pattern = {
                "forest": "trees",
                "mountain": "peaks",
                "water": "waves",
                "lake": "waves",
                "ocean": "waves",
            }.get(terrain)
            if pattern and self.patterns:
                self.svg.add("art", "path", {"d": d, "fill": f"url(#{pattern})", "stroke": "none"})
        elif g.geom_type in ("LineString", "MultiLineString"):
            self.svg.add(
                "art",
                "path",
                {"d": _path_d(g), "fill": "none", "stroke": stroke, "stroke_width": 0.8},
            )
        label = f.props.get("label")
        if label and terrain in ("shire", "fire"):
            c = g.centroid
            dy = -31 if terrain == "shire" else -33
            self.svg.add(
                "labels",
                "text",
                {
                    "x": _f(c.x),
                    "y": _f(c.y + dy),
                    "font_size": 4.2,
                    "text_anchor": "middle",
                    "fill": "#2a2214",
                    "font_style": "italic",
                },
                escape(str(label)),
            )

    def _draw_label(self, nid: str, f: Feature) -> None:
        size = f.props.get("size") or 4.0
        self.svg.add(
            "labels",
            "text",
            {
                "x": _f(f.geometry.x),
                "y": _f(f.geometry.y),
                "font_size": _f(float(size)),
                "text_anchor": "middle",
                "dominant_baseline": "middle",
                # light on a tile board's dark frame, dark elsewhere
                "fill": "#f3e6c4" if self.board.placements else "#2a2214",
                "letter_spacing": 1.5,
            },
            escape(str(f.props.get("text", ""))),
        )

    def _draw_path(self, nid: str, f: Feature) -> None:
        d = _path_d(f.geometry)
        water = f.props.get("medium") == "water"
        outer, inner = WATER if water else LAND
        self.svg.add(
            "paths",
            "path",
            {
                "d": d,
                "fill": "none",
                "stroke": outer,
                "stroke_width": 3.0 if water else 2.8,
                "stroke_linecap": "round",
                "stroke_linejoin": "round",
            },
        )
        self.svg.add(
            "paths",
            "path",
            {
                "d": d,
                "fill": "none",
                "stroke": inner,
                "stroke_width": 1.7 if water else 1.5,
                "stroke_linecap": "round",
                "stroke_linejoin": "round",
                "stroke_dasharray": "3 1.6" if water else None,
            },
        )
        if f.props.get("guard") == "spider":
            self.svg.add(
                "paths",
                "path",
                {
                    "d": d,
                    "fill": "none",
                    "stroke": "#111",
                    "stroke_width": 0.8,
                    "stroke_dasharray": "1.2 1.2",
                },
            )
            mid = f.geometry.interpolate(0.5, normalized=True)
            self._spider(mid.x, mid.y)

    def _spider(self, x: float, y: float) -> None:
        s = self.svg
        for k in range(4):
            for side in (-1, 1):
                a = math.radians(-50 + 33 * k)
                x1, y1 = x + side * 2.0 * math.cos(a), y + 2.0 * math.sin(a)
                x2, y2 = x + side * 4.6 * math.cos(a), y + 4.6 * math.sin(a) + 1.2
                s.add(
                    "marks",
                    "polyline",
                    {
                        "points": _pts([(x, y), (x1, y1), (x2, y2)]),
                        "fill": "none",
                        "stroke": "#111",
                        "stroke_width": 0.45,
                    },
                )
        s.add(
            "marks",
            "ellipse",
            {"cx": _f(x), "cy": _f(y + 0.6), "rx": 1.7, "ry": 2.2, "fill": "#111"},
        )
        s.add(
            "marks",
            "circle",
            {"cx": _f(x), "cy": _f(y - 1.9), "r": 1.1, "fill": "#111"},
            "<title>the spider's secret passage</title>",
        )

    def _draw_port(self, nid: str, f: Feature) -> None:
        if not self.ports:
            return
        x, y = f.geometry.x, f.geometry.y
        self.svg.add(
            "marks",
            "circle",
            {"cx": _f(x), "cy": _f(y), "r": 0.7, "fill": "#4d3f29", "opacity": 0.55},
            f"<title>{escape(nid)}</title>",
        )

    def _draw_junction(self, nid: str, f: Feature) -> None:
        x, y = f.geometry.x, f.geometry.y
        s = self.svg
        s.add(
            "points",
            "circle",
            {"cx": _f(x), "cy": _f(y), "r": 1.3, "fill": LAND[0]},
            f"<title>{escape(nid)} junction</title>",
        )
        if f.props.get("forced_right"):
            # three black arrows circling the fork clockwise: "turn right"
            for k in range(3):
                a = math.radians(45 + 120 * k)
                cx, cy = x + 6.5 * math.cos(a), y + 6.5 * math.sin(a)
                tangent = math.degrees(a) + 180.0  # screen angle + 90 -> bearing of clockwise
                _chevron(s, cx, cy, tangent % 360.0, 0.0, 2.4, "#111", "#111")

    def _draw_door(self, nid: str, f: Feature) -> None:
        x, y = f.geometry.x, f.geometry.y
        s = self.svg
        sym = f.props.get("symbol")
        s.add(
            "points",
            "path",
            {
                "d": f"M{_f(x - 3.2)},{_f(y + 2.6)} L{_f(x - 3.2)},{_f(y - 0.6)} "
                f"A3.2,3.2 0 0 1 {_f(x + 3.2)},{_f(y - 0.6)} "
                f"L{_f(x + 3.2)},{_f(y + 2.6)} Z",
                "fill": "#3b2f4a",
                "stroke": "#d9c98c",
                "stroke_width": 0.5,
            },
            f"<title>{escape(nid)} dwarf door ({escape(str(sym))})</title>",
        )
        if sym == "moon":
            s.add("points", "path", {"d": _moon_d(x - 0.3, y + 0.3, 1.9), "fill": "#f4e27a"})
        elif sym == "star":
            s.add("points", "polygon", {"points": _star(x, y + 0.5, 2.2), "fill": "#f4e27a"})

    def _draw_counter_space(self, nid: str, f: Feature) -> None:
        s = self.svg
        s.add(
            "counters",
            "path",
            {"d": _path_d(f.geometry), "fill": "#f6efd6", "stroke": "#6b4f2a", "stroke_width": 0.6},
            f"<title>{escape(nid)} counter space</title>",
        )
        c = f.geometry.centroid
        prefix = nid.rsplit("/", 1)[0] + "/" if "/" in nid else ""
        for pid in f.props.get("arrival") or []:
            target = self._point_xy(prefix + pid)
            if target is None:
                continue
            s.add(
                "counters",
                "line",
                {
                    "x1": _f(c.x),
                    "y1": _f(c.y),
                    "x2": _f(target[0]),
                    "y2": _f(target[1]),
                    "stroke": "#6b4f2a",
                    "stroke_width": 0.35,
                    "stroke_dasharray": "0.8 0.8",
                },
            )

    def _point_xy(self, nid: str) -> tuple[float, float] | None:
        return self.where.get(nid)

    def _draw_point(self, nid: str, f: Feature) -> None:
        s = self.svg
        x, y = f.geometry.x, f.geometry.y
        p = f.props
        black = p.get("colour") == "black"
        r = 2.6
        # direction marks first, so the point sits on top of them
        if p.get("wind") is not None:
            _arrow(s, "marks", x, y, bearing_degrees(p["wind"]), r + 1.0, r + 8.0)
        if p.get("start") == "black":
            s.add(
                "points",
                "circle",
                {
                    "cx": _f(x),
                    "cy": _f(y),
                    "r": _f(r + 2.4),
                    "fill": "#f0e8cc",
                    "stroke": "#111",
                    "stroke_width": 0.6,
                },
            )
            for k in range(5):  # the five arrows of a black starting point
                a = math.radians(72 * k + 18)
                bx, by = x + (r + 2.4) * math.cos(a), y + (r + 2.4) * math.sin(a)
                tangent = (math.degrees(a) + 180.0) % 360.0
                _chevron(s, bx, by, tangent, 0.0, 1.1, "#111", "#111")
        elif p.get("start") == "white":
            s.add(
                "points",
                "circle",
                {
                    "cx": _f(x),
                    "cy": _f(y),
                    "r": _f(r + 2.0),
                    "fill": "#fffdf3",
                    "stroke": "#111",
                    "stroke_width": 0.6,
                },
            )
        if p.get("goal"):
            s.add(
                "points",
                "polygon",
                {
                    "points": _star(x, y, r + 4.5, 8),
                    "fill": "#e0401a",
                    "stroke": "#5a1405",
                    "stroke_width": 0.5,
                },
            )
        fill = "#151515" if black else "#9b9b9b"
        title = (
            f"<title>{escape(nid)}{' ' + escape(str(p['name'])) if p.get('name') else ''}</title>"
        )
        s.add(
            "points",
            "circle",
            {
                "cx": _f(x),
                "cy": _f(y),
                "r": _f(r),
                "fill": fill,
                "stroke": "#222" if not black else "#000",
                "stroke_width": 0.5,
            },
            title,
        )
        if p.get("heading") is not None and black:
            # "forward": a red triangle inside the black point
            hx, hy = unit_vector(bearing_degrees(p["heading"]))
            tip = (x + hx * 2.1, y + hy * 2.1)
            back = (x - hx * 1.0, y - hy * 1.0)
            s.add(
                "points",
                "polygon",
                {
                    "points": _pts(
                        [
                            tip,
                            (back[0] - hy * 1.4, back[1] + hx * 1.4),
                            (back[0] + hy * 1.4, back[1] - hx * 1.4),
                        ]
                    ),
                    "fill": "#e0301e",
                    "stroke": "none",
                },
            )
        if p.get("magic"):
            s.add(
                "points",
                "rect",
                {
                    "x": _f(x + 2.2),
                    "y": _f(y - 5.6),
                    "width": 3.6,
                    "height": 2.4,
                    "fill": "#ffffff",
                    "stroke": "#222",
                    "stroke_width": 0.35,
                },
            )
        if p.get("stage_goal"):
            s.add(
                "points",
                "circle",
                {
                    "cx": _f(x),
                    "cy": _f(y),
                    "r": _f(r + 1.6),
                    "fill": "none",
                    "stroke": "#b01c1c",
                    "stroke_width": 0.6,
                },
            )
        idx = p.get("index")
        if idx is not None:
            s.add(
                "labels",
                "text",
                {
                    "x": _f(x),
                    "y": _f(y + 0.9),
                    "font_size": 2.4,
                    "text_anchor": "middle",
                    "fill": "#fff",
                },
                escape(str(idx)),
            )
        ev = p.get("event")
        if ev:
            s.add(
                "labels",
                "text",
                {
                    "x": _f(x),
                    "y": _f(y - r - 1.2),
                    "font_size": 2.2,
                    "text_anchor": "middle",
                    "fill": "#5a0c0c",
                },
                escape(str(ev)),
            )

    # region maps ------------------------------------------------------------
    def _draw_space(self, nid: str, f: Feature) -> None:
        s = self.svg
        p = f.props
        terrain = str(p.get("terrain") or "open")
        fill, _stroke = TERRAIN.get(terrain, TERRAIN["open"])
        d = _path_d(f.geometry)
        bg = self.board.background
        s.add(
            "regions",
            "path",
            {
                "d": d,
                "fill": fill,
                # over a visible background picture the spaces let it show through
                "fill_opacity": 0.45 if bg is not None and bg.visible else None,
                "stroke": "#5b5036",
                "stroke_width": 0.4,
                "stroke_linejoin": "round",
            },
            f"<title>{escape(nid)}{' ' + escape(str(p['name'])) if p.get('name') else ''}"
            f" ({escape(terrain)})</title>",
        )
        pattern = {"forest": "trees", "mountain": "peaks", "ocean": "waves", "lake": "waves"}.get(
            terrain
        )
        if pattern and self.patterns:
            s.add("regions", "path", {"d": d, "fill": f"url(#{pattern})", "stroke": "none"})
        c = f.geometry.representative_point()
        cx, cy = c.x, c.y
        city = p.get("city")
        if city:
            col = {"good": "#f4f1e6", "evil": "#2a1b1b", "neutral": "#c9b27a"}.get(
                str(city), "#ccc"
            )
            pts = [
                (cx - 3.2, cy + 2.2),
                (cx - 3.2, cy - 1.2),
                (cx - 2.0, cy - 1.2),
                (cx - 2.0, cy - 2.6),
                (cx - 0.6, cy - 2.6),
                (cx - 0.6, cy - 1.2),
                (cx + 0.6, cy - 1.2),
                (cx + 0.6, cy - 2.6),
                (cx + 2.0, cy - 2.6),
                (cx + 2.0, cy - 1.2),
                (cx + 3.2, cy - 1.2),
                (cx + 3.2, cy + 2.2),
            ]
            s.add(
                "marks",
                "polygon",
                {"points": _pts(pts), "fill": col, "stroke": "#111", "stroke_width": 0.35},
                f"<title>{escape(str(city))} city</title>",
            )
        letters = p.get("letters") or []
        if letters:
            s.add(
                "labels",
                "text",
                {
                    "x": _f(cx),
                    "y": _f(cy + 6.0),
                    "font_size": 3.2,
                    "text_anchor": "middle",
                    "fill": "#2a2214",
                    "font_weight": "bold",
                },
                escape("".join(map(str, letters))),
            )
        name = p.get("name")
        if name:
            s.add(
                "labels",
                "text",
                {
                    "x": _f(cx),
                    "y": _f(cy - 4.0),
                    "font_size": 2.6,
                    "text_anchor": "middle",
                    "fill": "#2a2214",
                },
                escape(str(name)),
            )
        role = p.get("role")
        if role:
            s.add(
                "labels",
                "text",
                {
                    "x": _f(cx),
                    "y": _f(cy + 9.5),
                    "font_size": 2.2,
                    "text_anchor": "middle",
                    "fill": "#7a1010",
                    "font_style": "italic",
                },
                escape(str(role).replace("_", " ")),
            )

    def _draw_river(self, nid: str, f: Feature) -> None:
        self.svg.add(
            "rivers",
            "path",
            {
                "d": _path_d(f.geometry),
                "fill": "none",
                "stroke": "#2f6ea5",
                "stroke_width": 2.2,
                "stroke_linecap": "round",
                "stroke_linejoin": "round",
            },
            f"<title>{escape(nid)} river</title>",
        )

    def _draw_river_dot(self, nid: str, f: Feature) -> None:
        self.svg.add(
            "points",
            "circle",
            {
                "cx": _f(f.geometry.x),
                "cy": _f(f.geometry.y),
                "r": 1.8,
                "fill": "#d42020",
                "stroke": "#5a0808",
                "stroke_width": 0.4,
            },
            f"<title>{escape(nid)} river dot</title>",
        )

    def _draw_bridge(self, nid: str, f: Feature) -> None:
        x, y = f.geometry.x, f.geometry.y
        self.svg.add(
            "marks",
            "rect",
            {
                "x": _f(x - 2.4),
                "y": _f(y - 1.2),
                "width": 4.8,
                "height": 2.4,
                "fill": "#8a6a3a",
                "stroke": "#3a2a12",
                "stroke_width": 0.4,
            },
            f"<title>{escape(nid)} bridge</title>",
        )

    def _draw_road(self, nid: str, f: Feature) -> None:
        d = _path_d(f.geometry)
        self.svg.add(
            "roads",
            "path",
            {
                "d": d,
                "fill": "none",
                "stroke": "#5b4020",
                "stroke_width": 1.6,
                "stroke_linecap": "round",
                "stroke_linejoin": "round",
            },
        )
        self.svg.add(
            "roads",
            "path",
            {
                "d": d,
                "fill": "none",
                "stroke": "#e9cf86",
                "stroke_width": 0.8,
                "stroke_dasharray": "2 1.2",
            },
            f"<title>{escape(nid)} road</title>",
        )

    def _draw_track(self, nid: str, f: Feature) -> None:
        self.svg.add(
            "tracks",
            "path",
            {
                "d": _path_d(f.geometry),
                "fill": "none",
                "stroke": "#7d6a45",
                "stroke_width": 1.8,
                "stroke_linecap": "round",
                "stroke_linejoin": "round",
            },
            f"<title>{escape(nid)} track</title>",
        )

    # pieces and graph -------------------------------------------------------
    def _pieces(self) -> None:
        types = self.board.piece_types
        for pc in self.board.pieces:
            if pc.at is None:
                continue
            xy = self._point_xy(pc.at)
            if xy is None:
                continue
            t = types.get(pc.piece, {})
            colour = str(pc.props.get("colour") or t.get("colour") or "white")
            side = t.get("side")
            r = _SIZE_R.get(str(t.get("size")), 4.0)
            fill = FIGURE_COLOURS.get(colour, colour if colour.startswith("#") else "#ddd")
            if side == "black":
                fill = FIGURE_COLOURS["black"]
            figure = str(t.get("figure") or t.get("name") or pc.piece)
            letter = _FIGURE_LETTERS.get(figure, figure[:1].upper())
            x, y = xy
            token = t.get("token")
            if isinstance(token, str) and token in self.board.images:
                disc = shapely.Point(x, y).buffer(r, quad_segs=16)
                self.svg.raw(
                    "pieces",
                    self.pics.element(
                        token,
                        x - r,
                        y - r,
                        2 * r,
                        2 * r,
                        clip_d=_path_d(disc),
                        title=f"{escape(pc.id)} on {escape(pc.at)}",
                    ),
                )
                self.svg.add(
                    "pieces",
                    "circle",
                    {
                        "cx": _f(x),
                        "cy": _f(y),
                        "r": _f(r),
                        "fill": "none",
                        "stroke": "#111",
                        "stroke_width": 0.6,
                    },
                )
                continue
            self.svg.add(
                "pieces",
                "circle",
                {
                    "cx": _f(x),
                    "cy": _f(y),
                    "r": _f(r),
                    "fill": fill,
                    "stroke": "#f0e6c8" if side == "black" else "#111",
                    "stroke_width": 0.6,
                    "opacity": 0.93,
                },
                f"<title>{escape(pc.id)} on {escape(pc.at)}</title>",
            )
            self.svg.add(
                "pieces",
                "text",
                {
                    "x": _f(x),
                    "y": _f(y + r * 0.36),
                    "font_size": _f(r),
                    "text_anchor": "middle",
                    "font_weight": "bold",
                    "fill": "#f0e6c8" if side == "black" else "#111",
                },
                escape(letter),
            )

    def _graph(self) -> None:
        cb = self.compiled
        if cb is None:
            from .compiler import compile_board

            cb = self.compiled = compile_board(self.board)
        g = cb.graph
        s = self.svg
        for u, v, _k, d in sorted(g.edges(keys=True, data=True), key=lambda e: e[2]):
            rel = d.get("relation", "")
            col = palette.relation_colour(rel)
            (x1, y1), (x2, y2) = cb.xy(u), cb.xy(v)
            if rel == "next":
                (x1, y1), (x2, y2) = cb.xy(d["tail"]), cb.xy(d["head"])
            attrs: dict[str, Any] = {
                "x1": _f(x1),
                "y1": _f(y1),
                "x2": _f(x2),
                "y2": _f(y2),
                "stroke": col,
                "stroke_width": 0.6,
                "opacity": 0.85,
            }
            if rel == "path" and d.get("medium") == "water":
                attrs["stroke"] = palette.WATER_PATH
                attrs["stroke_dasharray"] = "1.5 0.8"
            if rel == "touch" and d.get("river"):
                attrs["stroke_dasharray"] = "0.6 0.9"
            if rel == "next":
                attrs["marker_end"] = "url(#graph-arrow)"
            s.add("graph", "line", attrs, f"<title>{escape(rel)} {escape(u)} - {escape(v)}</title>")
        for n, d in sorted(g.nodes(data=True)):
            kind = d.get("kind")
            if kind in ("dead_end", "junction") and d.get("port"):
                s.add(
                    "graph",
                    "rect",
                    {
                        "x": _f(d["x"] - 1.4),
                        "y": _f(d["y"] - 1.4),
                        "width": 2.8,
                        "height": 2.8,
                        "fill": palette.DEAD_END_PORT
                        if kind == "dead_end"
                        else palette.JUNCTION_PORT,
                        "stroke": "#111",
                        "stroke_width": 0.3,
                    },
                    f"<title>{escape(n)} {kind}</title>",
                )
            else:
                s.add(
                    "graph",
                    "circle",
                    {
                        "cx": _f(d["x"]),
                        "cy": _f(d["y"]),
                        "r": 0.9,
                        "fill": palette.NODE,
                        "opacity": 0.9,
                    },
                    f"<title>{escape(n)} ({escape(str(kind))})</title>",
                )
        for prob in cb.problems:
            if prob.x is None:
                continue
            s.add(
                "graph",
                "circle",
                {
                    "cx": _f(prob.x),
                    "cy": _f(prob.y),
                    "r": 4.5,
                    "fill": "none",
                    "stroke": "#ff0000" if prob.severity == "error" else "#ff9900",
                    "stroke_width": 0.7,
                },
                f"<title>{escape(str(prob))}</title>",
            )


def render_svg(
    board: Board,
    compiled: CompiledBoard | None = None,
    *,
    graph: bool = False,
    pieces: bool = True,
    ports: bool = True,
    legend: bool = True,
    labels: bool = True,
    patterns: bool = True,
    layers: Collection[str] | None = None,
    images: str = "embed",
    image_link_base: str = "",
    image_px_per_mm: float | None = None,
) -> str:
    """The board as SVG text (see :class:`BoardRenderer`)."""
    return BoardRenderer(
        board,
        compiled,
        graph=graph,
        pieces=pieces,
        ports=ports,
        legend=legend,
        labels=labels,
        patterns=patterns,
        layers=layers,
        images=images,
        image_link_base=image_link_base,
        image_px_per_mm=image_px_per_mm,
    ).render()
