"""The board features every game shares, as ``referee render`` draws them.

Tile art and labels, paths on land and water, ports, junctions, counter spaces,
rivers, river dots, bridges, roads and track lines: the kinds the compiler itself
knows. A rules module's own features (Ringgeister's points and doors, the Riddle's
spaces) are drawn by its printed-board pictures (:mod:`referee.render.pictures`).
:data:`FEATURE_DRAWERS` maps a feature kind to its drawer.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final, Protocol
from xml.sax.saxutils import escape

from shapely.geometry.base import BaseGeometry

from ..model import Board, Feature
from .svg import Svg, fmt, path_d

#: ground colours by tile shape (``board`` the playing area, ``frame`` around it)
GROUND: Final[dict[str, str]] = {
    "board": "#d8c9a0",
    "frame": "#6e5a3c",
    "octagon": "#cfe0a6",
    "square": "#e3d7a4",
    "polygon": "#d9d3b0",
    "hexagon": "#d9d3b0",
}
#: terrain -> (fill, stroke), for tile art and region-map spaces
TERRAIN: Final[dict[str, tuple[str, str]]] = {
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
#: terrain -> the pattern (:func:`referee.render.svg.defs`) drawn over its fill
TERRAIN_PATTERNS: Final[dict[str, str]] = {
    "forest": "trees",
    "mountain": "peaks",
    "water": "waves",
    "lake": "waves",
    "ocean": "waves",
}
#: (outer, inner) strokes of a path on land and on water
LAND: Final = ("#6b4f2a", "#ead7a2")
WATER: Final = ("#2f6ea5", "#9ccbee")


class Surface(Protocol):
    """What the feature drawers draw on (:class:`referee.render.board.BoardRenderer`)."""

    board: Board
    svg: Svg
    patterns: bool
    ports: bool

    def point_xy(self, nid: str) -> tuple[float, float] | None:
        """Where the feature ``nid`` is drawn, if it is a point or a polygon."""
        ...

    def framed_image(
        self,
        image_id: str,
        owner: str | None,
        frame: BaseGeometry,
        clip: BaseGeometry,
        opacity: float | None = None,
    ) -> str:
        """An image stretched over ``frame``, clipped to ``clip`` (SVG text)."""
        ...


def draw_art(r: Surface, nid: str, f: Feature) -> None:
    """Tile art: a picture, or a terrain fill (with its pattern) or line."""
    g = f.geometry
    image = f.props.get("image")
    if isinstance(image, str):
        owner, _, fid = nid.rpartition("/")
        frame = g
        if owner:
            frame = r.board.tile_of(r.board.placement(owner)).feature(fid).geometry
        op = f.props.get("opacity")
        opacity = float(op) if op is not None else None
        r.svg.raw("art", r.framed_image(image, owner or None, frame, g, opacity))
        return
    terrain = str(f.props.get("terrain") or "")
    fill, stroke = TERRAIN.get(terrain, ("#cbbf95", "#7d6f48"))
    fill = str(f.props.get("fill") or fill)
    stroke = str(f.props.get("stroke") or stroke)
    if g.geom_type in ("Polygon", "MultiPolygon"):
        d = path_d(g)
        r.svg.add(
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
        pattern = TERRAIN_PATTERNS.get(terrain)
        if pattern and r.patterns:
            r.svg.add("art", "path", {"d": d, "fill": f"url(#{pattern})", "stroke": "none"})
    elif g.geom_type in ("LineString", "MultiLineString"):
        r.svg.add(
            "art", "path", {"d": path_d(g), "fill": "none", "stroke": stroke, "stroke_width": 0.8}
        )
    label = f.props.get("label")
    if label and terrain in ("shire", "fire"):
        c = g.centroid
        dy = -31 if terrain == "shire" else -33
        r.svg.add(
            "labels",
            "text",
            {
                "x": fmt(c.x),
                "y": fmt(c.y + dy),
                "font_size": 8.6,  # >= 11 px on the browser table at 1400 x 900
                "text_anchor": "middle",
                "fill": "#2a2214",
                "font_style": "italic",
            },
            escape(str(label)),
        )


def draw_label(r: Surface, nid: str, f: Feature) -> None:
    """A text label at its point."""
    size = f.props.get("size") or 4.0
    r.svg.add(
        "labels",
        "text",
        {
            "x": fmt(f.geometry.x),
            "y": fmt(f.geometry.y),
            "font_size": fmt(float(size)),
            "text_anchor": "middle",
            "dominant_baseline": "middle",
            # light on a tile board's dark frame, dark elsewhere
            "fill": "#f3e6c4" if r.board.placements else "#2a2214",
            "letter_spacing": 1.5,
        },
        escape(str(f.props.get("text", ""))),
    )


def draw_path(r: Surface, nid: str, f: Feature) -> None:
    """A path: a brown track on land, a dashed blue one on water."""
    d = path_d(f.geometry)
    water = f.props.get("medium") == "water"
    outer, inner = WATER if water else LAND
    r.svg.add("paths", "path", {"d": d, **_line(outer, 3.0 if water else 2.8)})
    r.svg.add(
        "paths",
        "path",
        {
            "d": d,
            **_line(inner, 1.7 if water else 1.5),
            "stroke_dasharray": "3 1.6" if water else None,
        },
    )


def draw_port(r: Surface, nid: str, f: Feature) -> None:
    """A port on a tile side: a small dot (unless ports are left out)."""
    if not r.ports:
        return
    x, y = f.geometry.x, f.geometry.y
    r.svg.add(
        "marks",
        "circle",
        {"cx": fmt(x), "cy": fmt(y), "r": 0.7, "fill": "#4d3f29", "opacity": 0.55},
        f"<title>{escape(nid)}</title>",
    )


def draw_junction(r: Surface, nid: str, f: Feature) -> None:
    """A junction of paths: a dot in the path's colour."""
    x, y = f.geometry.x, f.geometry.y
    r.svg.add(
        "points",
        "circle",
        {"cx": fmt(x), "cy": fmt(y), "r": 1.3, "fill": LAND[0]},
        f"<title>{escape(nid)} junction</title>",
    )


def draw_counter_space(r: Surface, nid: str, f: Feature) -> None:
    """A counter space, dotted lines to its arrival points."""
    r.svg.add(
        "counters",
        "path",
        {"d": path_d(f.geometry), "fill": "#f6efd6", "stroke": "#6b4f2a", "stroke_width": 0.6},
        f"<title>{escape(nid)} counter space</title>",
    )
    c = f.geometry.centroid
    prefix = nid.rsplit("/", 1)[0] + "/" if "/" in nid else ""
    for pid in f.props.get("arrival") or []:
        target = r.point_xy(prefix + pid)
        if target is None:
            continue
        r.svg.add(
            "counters",
            "line",
            {
                "x1": fmt(c.x),
                "y1": fmt(c.y),
                "x2": fmt(target[0]),
                "y2": fmt(target[1]),
                "stroke": "#6b4f2a",
                "stroke_width": 0.35,
                "stroke_dasharray": "0.8 0.8",
            },
        )


def _line(colour: str, width: float) -> dict[str, str | float]:
    return {
        "fill": "none",
        "stroke": colour,
        "stroke_width": width,
        "stroke_linecap": "round",
        "stroke_linejoin": "round",
    }


def draw_river(r: Surface, nid: str, f: Feature) -> None:
    """A river, in blue."""
    r.svg.add(
        "rivers",
        "path",
        {"d": path_d(f.geometry), **_line("#2f6ea5", 2.2)},
        f"<title>{escape(nid)} river</title>",
    )


def draw_river_dot(r: Surface, nid: str, f: Feature) -> None:
    """A river dot: a red disc."""
    r.svg.add(
        "points",
        "circle",
        {
            "cx": fmt(f.geometry.x),
            "cy": fmt(f.geometry.y),
            "r": 1.8,
            "fill": "#d42020",
            "stroke": "#5a0808",
            "stroke_width": 0.4,
        },
        f"<title>{escape(nid)} river dot</title>",
    )


def draw_bridge(r: Surface, nid: str, f: Feature) -> None:
    """A bridge: a plank."""
    x, y = f.geometry.x, f.geometry.y
    r.svg.add(
        "marks",
        "rect",
        {
            "x": fmt(x - 2.4),
            "y": fmt(y - 1.2),
            "width": 4.8,
            "height": 2.4,
            "fill": "#8a6a3a",
            "stroke": "#3a2a12",
            "stroke_width": 0.4,
        },
        f"<title>{escape(nid)} bridge</title>",
    )


def draw_road(r: Surface, nid: str, f: Feature) -> None:
    """A road: brown edges, a dashed pale middle."""
    d = path_d(f.geometry)
    r.svg.add("roads", "path", {"d": d, **_line("#5b4020", 1.6)})
    r.svg.add(
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


def draw_track(r: Surface, nid: str, f: Feature) -> None:
    """The line of a track game."""
    r.svg.add(
        "tracks",
        "path",
        {"d": path_d(f.geometry), **_line("#7d6a45", 1.8)},
        f"<title>{escape(nid)} track</title>",
    )


#: feature kind -> its drawer
FEATURE_DRAWERS: Final[dict[str, Callable[[Surface, str, Feature], None]]] = {
    "art": draw_art,
    "label": draw_label,
    "path": draw_path,
    "port": draw_port,
    "junction": draw_junction,
    "counter_space": draw_counter_space,
    "river": draw_river,
    "river_dot": draw_river_dot,
    "bridge": draw_bridge,
    "road": draw_road,
    "track": draw_track,
}
#: symbol keys these drawers stand for (their plain symbols are not drawn by ``render``)
COVERED: Final = frozenset({"junction", "river_dot"})

__all__ = [
    "COVERED",
    "FEATURE_DRAWERS",
    "GROUND",
    "LAND",
    "TERRAIN",
    "TERRAIN_PATTERNS",
    "WATER",
    "Surface",
]
