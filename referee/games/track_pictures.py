"""The track games' printed-board pictures (``RULES.pictures`` of Mount Doom and the
cooperative game), drawn by ``referee render`` and so by the browser table, which shows
the board ``render`` draws.

Every point of a track is a numbered space big enough to read at a table's size
(:data:`R` mm), and what the board's own properties say is drawn on it:

- a **stage goal** (``stage_goal``) as a gold space with a star and its name
  under it; a place of the journey (``location``) with its name;
- an **event** space (``event``): a dark heart, a Nazgûl's hood, the start, the
  rally flag; an event box of a Scenario board (``event`` naming the event) framed;
- the **resolve track**'s ends (``role`` ``bright_end`` / ``dark_end``) as a bright
  and a dark heart, the Ring's start as a ring, Sauron's eye as an eye, chevrons
  between its spaces pointing from the bright heart to the dark heart;
- Isengard's Uruk-hai and Minas Morgul's Nazgûl spaces (``role``);
- the **encounter row** (``symbol``) as card slots with their die number;
- an Activity line's space (``space``): a shield, a Life token (heart, sun, ring), the
  die, a Feature card, a step toward the light; its printed ``number``;
- each **track**'s name beside its first space (``track.name``).

No copyrighted art: shapes and words from the board's geometry and properties only.
The editor's canvas draws these pictures too, from the same elements
(:attr:`~referee.render.pictures.Picture.editor`, :func:`referee.render.primitives.feature_primitives`).
"""

from __future__ import annotations

import math
from xml.sax.saxutils import escape

from ..model import Feature
from ..render.pictures import Canvas, Picture
from ..render.svg import Svg, fmt, points, star

#: radius of a track space, mm (the tracks' spaces are 20 mm apart or more)
R = 6.8
#: text sizes, mm: numbers in a space, names of places, names of tracks (at least 11
#: px when the board is fitted to the browser table's board area at 1400 x 900)
NUMBER = 8.4
NAME = 8.6
TRACK = 8.4
INK = "#2a2214"
DARK = "#3b0b0b"


def _text(s: Svg, x: float, y: float, text: str, size: float, **style: object) -> None:
    attrs: dict[str, object] = {
        "x": fmt(x),
        "y": fmt(y),
        "font_size": fmt(size),
        "text_anchor": "middle",
        "fill": INK,
        "class": "track-text",
    }
    attrs.update(style)
    if "class_" in attrs:
        attrs["class"] = attrs.pop("class_")
    s.add("labels", "text", attrs, escape(text))


def heart_d(x: float, y: float, r: float) -> str:
    """A heart of half-width ``r`` centred on ``(x, y)``."""
    top = y - 0.35 * r
    return (
        f"M{fmt(x)},{fmt(y + r)} "
        f"C{fmt(x - 1.6 * r)},{fmt(y)} {fmt(x - r)},{fmt(top - r)} {fmt(x)},{fmt(top)} "
        f"C{fmt(x + r)},{fmt(top - r)} {fmt(x + 1.6 * r)},{fmt(y)} {fmt(x)},{fmt(y + r)} Z"
    )


def _heart(s: Svg, x: float, y: float, r: float, dark: bool, what: str) -> None:
    look = {"fill": DARK, "stroke": "#000"} if dark else {"fill": "#fff4c4", "stroke": "#b01c1c"}
    s.add(
        "points",
        "path",
        {"d": heart_d(x, y, r), **look, "stroke_width": 0.6, "data_symbol": what},
        f"<title>{what}</title>",
    )


def _hood(s: Svg, x: float, y: float, r: float, what: str = "nazgul") -> None:
    """A Nazgûl's black hood."""
    hood = [
        (x, y - r),
        (x + 0.8 * r, y + 0.9 * r),
        (x + 0.25 * r, y + 0.55 * r),
        (x, y + 0.95 * r),
        (x - 0.25 * r, y + 0.55 * r),
        (x - 0.8 * r, y + 0.9 * r),
    ]
    s.add(
        "points",
        "polygon",
        {"points": points(hood), "fill": "#111", "stroke": "#555", "stroke_width": 0.3},
        f"<title>{what}</title>",
    )
    s.add(
        "points",
        "circle",
        {"cx": fmt(x), "cy": fmt(y - 0.1 * r), "r": fmt(0.22 * r), "fill": "#c9b200"},
    )


def _space(
    s: Svg, nid: str, x: float, y: float, fill: str, stroke: str = "#3a3226", r: float = R
) -> None:
    s.add(
        "points",
        "circle",
        {
            "cx": fmt(x),
            "cy": fmt(y),
            "r": fmt(r),
            "fill": fill,
            "stroke": stroke,
            "stroke_width": 0.8,
            "class": "track-space",
            "data_node": nid,
        },
        f"<title>{escape(nid)}</title>",
    )


def draw_space(c: Canvas, nid: str, f: Feature) -> None:
    """A numbered space of a track (every point with an ``index``), over the plain
    point, with what its properties mark on it."""
    s = c.svg
    x, y = f.geometry.x, f.geometry.y
    p = f.props
    role = str(p.get("role") or "")
    event = str(p.get("event") or "")
    space = str(p.get("space") or "")
    if "symbol" in p:  # the encounter row: a card slot with its die number
        w, h = 24.0, 34.0
        s.add(
            "points",
            "rect",
            {
                "x": fmt(x - w / 2),
                "y": fmt(y - h / 2),
                "width": fmt(w),
                "height": fmt(h),
                "rx": 2,
                "fill": "#efe6cf",
                "stroke": "#6b5a3a",
                "stroke_width": 0.8,
                "stroke_dasharray": "2 1.2",
                "class": "card-slot",
                "data_node": nid,
            },
            f"<title>{escape(nid)}: encounter row, die {int(p.get('index', 0))}</title>",
        )
        # the die number over the slot
        _text(s, x, y - h / 2 - 1.5, str(p.get("index", "")), NUMBER, font_weight="bold")
        if p["symbol"] == "nazgul":
            _hood(s, x, y + 6, 5.0, "row space: Nazgûl")
        else:
            _text(s, x, y + h / 2 + NUMBER + 1.5, str(p["symbol"]), NUMBER)
        return
    fill = "#d9cfb8"
    if p.get("stage_goal"):
        fill = "#e9c046"
    elif role in ("uruk_hai", "uruk_hai_leader"):
        fill = "#9c3b2a"
    elif role in ("nazgul", "witch_king"):
        fill = "#4a4a52"
    elif event == "nazgul" or role == "sauron_eye":
        fill = "#b5aa98"
    _space(s, nid, x, y, fill, "#7a5a00" if p.get("stage_goal") else "#3a3226")
    number = p.get("number", p.get("index"))
    marked = True
    if p.get("stage_goal"):
        s.add(
            "points",
            "polygon",
            {
                "points": star(x, y, R * 0.75, 5),
                "fill": "#fff6c8",
                "stroke": "#7a5a00",
                "stroke_width": 0.4,
            },
            "<title>stage goal</title>",
        )
        s.add(
            "points",
            "circle",
            {
                "cx": fmt(x),
                "cy": fmt(y),
                "r": fmt(R + 1.8),
                "fill": "none",
                "stroke": "#b01c1c",
                "stroke_width": 0.9,
                "class": "stage-goal",
            },
        )
    elif event == "dark_heart" or role == "dark_end":
        _heart(s, x, y, R * 0.62, True, "dark heart")
    elif role == "bright_end":
        _heart(s, x, y, R * 0.62, False, "bright heart")
    elif event == "nazgul":
        _hood(s, x, y, R * 0.75, "Nazgûl space")
    elif role == "witch_king":
        _hood(s, x, y, R * 0.8, "Witch-king")
    elif role == "ring_start":
        s.add(
            "points",
            "circle",
            {
                "cx": fmt(x),
                "cy": fmt(y),
                "r": fmt(R * 0.55),
                "fill": "none",
                "stroke": "#d4a017",
                "stroke_width": 1.6,
            },
            "<title>the One Ring starts here</title>",
        )
    elif role in ("sauron_eye", "sauron_start"):
        _eye(s, x, y, R * 0.8)
    elif event == "rally":
        _flag(s, x, y)
    elif space:
        _activity(s, x, y, space)
    else:
        marked = False
    if number is not None and not marked:
        _text(s, x, y + NUMBER * 0.36, str(number), NUMBER, font_weight="bold")
    elif p.get("number") is not None:
        # just under the space, so a track 30 mm below has room for its name
        _text(s, x, y + R + NUMBER * 0.75, str(p["number"]), NUMBER)
    name = p.get("name")
    if name and (p.get("stage_goal") or p.get("location") or event == "start"):
        _text(s, x, y + R + NAME + 2.5, str(name), NAME, font_weight="bold", class_="place-name")
    if (
        p.get("event")
        and event not in ("dark_heart", "nazgul", "rally", "start")
        and "location" not in p
    ):
        # an event box of a Scenario board
        s.add(
            "points",
            "rect",
            {
                "x": fmt(x - R - 1),
                "y": fmt(y - R - 1),
                "width": fmt(2 * R + 2),
                "height": fmt(2 * R + 2),
                "fill": "none",
                "stroke": "#5a0c0c",
                "stroke_width": 0.6,
            },
            f"<title>event {escape(event)}</title>",
        )


def _eye(s: Svg, x: float, y: float, r: float) -> None:
    d = f"M{fmt(x - r)},{fmt(y)} Q{fmt(x)},{fmt(y - r)} {fmt(x + r)},{fmt(y)} Q{fmt(x)},{fmt(y + r)} {fmt(x - r)},{fmt(y)} Z"
    s.add(
        "points",
        "path",
        {"d": d, "fill": "#f2a21a", "stroke": "#5a1405", "stroke_width": 0.5},
        "<title>Sauron's eye</title>",
    )
    s.add(
        "points",
        "ellipse",
        {"cx": fmt(x), "cy": fmt(y), "rx": fmt(r * 0.18), "ry": fmt(r * 0.45), "fill": "#111"},
    )


def _flag(s: Svg, x: float, y: float) -> None:
    s.add(
        "points",
        "line",
        {
            "x1": fmt(x - 2),
            "y1": fmt(y + 4),
            "x2": fmt(x - 2),
            "y2": fmt(y - 4.5),
            "stroke": "#111",
            "stroke_width": 0.6,
        },
    )
    s.add(
        "points",
        "polygon",
        {
            "points": points([(x - 2, y - 4.5), (x + 4, y - 2.7), (x - 2, y - 0.8)]),
            "fill": "#1b7f2a",
        },
        "<title>rally space</title>",
    )


def _activity(s: Svg, x: float, y: float, space: str) -> None:
    """What an Activity line's space gives: a shield, a Life token, the die, a Feature
    card, a step toward the light."""
    kind, _, what = space.partition(":")
    r = R * 0.62
    if kind in ("shield", "shield_random"):
        outline = [(x - r, y - r), (x + r, y - r), (x + r, y), (x, y + r * 1.2), (x - r, y)]
        s.add(
            "points",
            "polygon",
            {
                "points": points(outline),
                "fill": "#8d99a6",
                "stroke": "#2b333b",
                "stroke_width": 0.4,
            },
            f"<title>{escape(space)}</title>",
        )
        if kind == "shield_random":
            _text(s, x, y + 2.9, "?", NUMBER, fill="#fff", font_weight="bold")
    elif kind == "life" and what == "heart":
        _heart(s, x, y, r, False, "Life token: heart")
    elif kind == "life" and what == "sun":
        s.add(
            "points",
            "polygon",
            {
                "points": star(x, y, r, 8),
                "fill": "#f4c20d",
                "stroke": "#7a5a00",
                "stroke_width": 0.4,
            },
            "<title>Life token: sun</title>",
        )
    elif kind == "life":
        s.add(
            "points",
            "circle",
            {
                "cx": fmt(x),
                "cy": fmt(y),
                "r": fmt(r * 0.8),
                "fill": "none",
                "stroke": "#d4a017",
                "stroke_width": 1.4,
            },
            "<title>Life token: ring</title>",
        )
    elif kind == "die":
        s.add(
            "points",
            "rect",
            {
                "x": fmt(x - r),
                "y": fmt(y - r),
                "width": fmt(2 * r),
                "height": fmt(2 * r),
                "rx": 1,
                "fill": "#fff",
                "stroke": "#111",
                "stroke_width": 0.4,
            },
            "<title>roll the die</title>",
        )
        for dx, dy in ((-0.45, -0.45), (0.45, 0.45), (0, 0)):
            s.add(
                "points",
                "circle",
                {"cx": fmt(x + dx * r), "cy": fmt(y + dy * r), "r": fmt(r * 0.14), "fill": "#111"},
            )
    elif kind == "feature":
        s.add(
            "points",
            "rect",
            {
                "x": fmt(x - r * 0.7),
                "y": fmt(y - r),
                "width": fmt(1.4 * r),
                "height": fmt(2 * r),
                "rx": 0.6,
                "fill": "#f7f1dc",
                "stroke": "#6b5a3a",
                "stroke_width": 0.4,
            },
            f"<title>Feature card: {escape(what)}</title>",
        )
    elif kind == "light":
        s.add(
            "points",
            "polygon",
            {
                "points": star(x, y, r, 12),
                "fill": "#fffbe0",
                "stroke": "#b08d00",
                "stroke_width": 0.4,
            },
            "<title>a step toward the light</title>",
        )


def draw_track_name(c: Canvas, nid: str, f: Feature) -> None:
    """A track's name just after its first space (where figures gather; along a
    vertical track, turned); the resolve track gets chevrons from its bright end to
    its dark end."""
    g = f.geometry
    coords = list(g.coords)
    if len(coords) < 2:
        return
    (x0, y0), (x1, y1) = coords[0], coords[-1]
    name = str(f.props["name"])
    spaces = len(f.props.get("points") or coords)
    if spaces < 3:  # a link (the rally space's), not a track to name
        return
    # the encounter row's card slots stand taller than a space
    above = 17.0 + NUMBER + 4.0 if "encounter" in name.lower() else R + 1.5
    vertical = abs(x1 - x0) < abs(y1 - y0)
    s = c.svg
    if vertical:
        # to the right of the track: on its left the lines of a scenario board end
        x, y = x0 + R + 2.0 + TRACK * 0.75, y0 - R
        s.add(
            "labels",
            "text",
            {
                "x": fmt(x),
                "y": fmt(y),
                "font_size": fmt(TRACK),
                "text_anchor": "end",
                "fill": INK,
                "class": "track-name",
                "transform": f"rotate(-90 {fmt(x)} {fmt(y)})",
            },
            escape(name),
        )
    else:
        s.add(
            "labels",
            "text",
            {
                "x": fmt(x0 + 2 * R),
                "y": fmt(y0 - above),
                "font_size": fmt(TRACK),
                "fill": INK,
                "class": "track-name",
            },
            escape(name),
        )
    if "resolve" in name.lower():
        # a chevron between each two spaces (the spaces lie at equal steps along the
        # line, as Draw track lays them and as the shipped board has them)
        steps = [
            g.interpolate((k + 0.5) / (spaces - 1), normalized=True) for k in range(spaces - 1)
        ]
        for mid in steps:
            ahead = g.interpolate(min(g.project(mid) + 0.5, g.length))
            behind = g.interpolate(max(g.project(mid) - 0.5, 0.0))
            ax, ay, bx, by = behind.x, behind.y, ahead.x, ahead.y
            mx, my = mid.x, mid.y
            a = math.atan2(by - ay, bx - ax)
            ux, uy = math.cos(a), math.sin(a)
            tip = (mx + ux * 2.2, my + uy * 2.2)
            back = (mx - ux * 1.6, my - uy * 1.6)
            pts = [
                tip,
                (back[0] - uy * 2.2, back[1] + ux * 2.2),
                (back[0] + uy * 2.2, back[1] - ux * 2.2),
            ]
            s.add(
                "marks",
                "polygon",
                {"points": points(pts), "fill": DARK, "class": "resolve-direction"},
                "<title>toward the dark heart</title>",
            )


def draw_rally(c: Canvas, nid: str, f: Feature) -> None:
    """The rally space (a point off the tracks' numbering): a green flag."""
    x, y = f.geometry.x, f.geometry.y
    _space(c.svg, nid, x, y, "#d9cfb8")
    _flag(c.svg, x, y)
    if f.props.get("name"):
        _text(c.svg, x, y - R - 2.5, str(f.props["name"]), NAME)


PICTURES: dict[str, Picture] = {
    "point.event=rally": Picture(draw_rally, editor=True),
    "point.index": Picture(draw_space, covers=("point.stage_goal", "point.event"), editor=True),
    "track.name": Picture(draw_track_name, editor=True),
}

__all__ = ["NAME", "NUMBER", "PICTURES", "TRACK", "R", "draw_space", "draw_track_name", "heart_d"]
