"""The Riddle of the Ring's printed-board pictures for ``referee render``
(``RULES.pictures``): a space filled by its terrain (with trees, peaks or waves), its
city, letters, name and role. The editor's canvas draws the plain symbols of
:mod:`.vocabulary` instead."""

from __future__ import annotations

from typing import Any
from xml.sax.saxutils import escape

from ...model import Feature
from ...render.features import TERRAIN, TERRAIN_PATTERNS
from ...render.pictures import Canvas, Picture
from ...render.svg import fmt, path_d, points

#: city fill by allegiance
CITY_COLOURS = {"good": "#f4f1e6", "evil": "#2a1b1b", "neutral": "#c9b27a"}
#: a small castle: corners around the space's representative point
_CASTLE = (
    (-3.2, 2.2),
    (-3.2, -1.2),
    (-2.0, -1.2),
    (-2.0, -2.6),
    (-0.6, -2.6),
    (-0.6, -1.2),
    (0.6, -1.2),
    (0.6, -2.6),
    (2.0, -2.6),
    (2.0, -1.2),
    (3.2, -1.2),
    (3.2, 2.2),
)


def draw_space(c: Canvas, nid: str, f: Feature) -> None:
    """A space: its terrain fill and pattern, city, letters, name and role."""
    s = c.svg
    p = f.props
    terrain = str(p.get("terrain") or "open")
    fill, _stroke = TERRAIN.get(terrain, TERRAIN["open"])
    d = path_d(f.geometry)
    name = f" {escape(str(p['name']))}" if p.get("name") else ""
    s.add(
        "regions",
        "path",
        {
            "d": d,
            "fill": fill,
            # over a visible background picture the spaces let it show through
            "fill_opacity": 0.45 if c.see_through else None,
            "stroke": "#5b5036",
            "stroke_width": 0.4,
            "stroke_linejoin": "round",
        },
        f"<title>{escape(nid)}{name} ({escape(terrain)})</title>",
    )
    pattern = TERRAIN_PATTERNS.get(terrain) if terrain != "water" else None
    if pattern and c.patterns:
        s.add("regions", "path", {"d": d, "fill": f"url(#{pattern})", "stroke": "none"})
    at = f.geometry.representative_point()
    cx, cy = at.x, at.y
    city = p.get("city")
    if city:
        castle = points([(cx + dx, cy + dy) for dx, dy in _CASTLE])
        s.add(
            "marks",
            "polygon",
            {
                "points": castle,
                "fill": CITY_COLOURS.get(str(city), "#ccc"),
                "stroke": "#111",
                "stroke_width": 0.35,
            },
            f"<title>{escape(str(city))} city</title>",
        )
    letters = p.get("letters") or []
    if letters:
        s.add(
            "labels",
            "text",
            {**_text(cx, cy + 6.0, 3.2), "font_weight": "bold"},
            escape("".join(map(str, letters))),
        )
    if p.get("name"):
        s.add("labels", "text", _text(cx, cy - 4.0, 2.6), escape(str(p["name"])))
    role = p.get("role")
    if role:
        s.add(
            "labels",
            "text",
            {**_text(cx, cy + 9.5, 2.2, "#7a1010"), "font_style": "italic"},
            escape(str(role).replace("_", " ")),
        )


def _text(x: float, y: float, size: float, fill: str = "#2a2214") -> dict[str, Any]:
    return {"x": fmt(x), "y": fmt(y), "font_size": size, "text_anchor": "middle", "fill": fill}


PICTURES: dict[str, Picture] = {
    "space": Picture(draw_space, covers=("space.terrain", "space.city")),
}

__all__ = ["CITY_COLOURS", "PICTURES", "draw_space"]
