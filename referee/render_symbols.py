"""SVG of the rules modules' symbols (:mod:`referee.palette`), for ``referee render``.

:func:`symbol_elements` turns the symbols that match a feature into SVG elements
``(layer, tag, attributes, body)``, the same shapes, sizes and colours the editor's
canvas draws (``editor/style.py``), so a game's own symbols appear in a rendered
board without code in the renderer. The built-in games' printed-board pictures
(five-arrow black starts, moon doors, the spider...) are drawn by
:mod:`referee.render` itself: :data:`DRAWN_BY_RENDER` names the symbols those
pictures stand for, and those are left to it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final
from xml.sax.saxutils import escape

from . import palette
from .model import Feature

#: Symbol keys whose finer printed-board picture :mod:`referee.render` draws itself
#: (a base ``kind`` or ``kind.prop``: every ``kind.prop=value`` of that property too).
DRAWN_BY_RENDER: Final[frozenset[str]] = frozenset(
    {
        "point",
        "point.colour",
        "point.wind",
        "point.heading",
        "point.magic",
        "point.start",
        "point.goal",
        "point.stage_goal",
        "point.event",
        "junction",
        "junction.forced_right",
        "door",
        "door.symbol",
        "path.guard",
        "space.terrain",
        "space.city",
        "river_dot",
    }
)

Element = tuple[str, str, dict[str, Any], str]


def _num(v: float) -> str:
    return f"{v:.2f}".rstrip("0").rstrip(".")


def _pts(pts: list[tuple[float, float]]) -> str:
    return " ".join(f"{_num(x)},{_num(y)}" for x, y in pts)


def _drawn_by_render(key: str) -> bool:
    return key in DRAWN_BY_RENDER or key.partition("=")[0] in DRAWN_BY_RENDER


def symbol_elements(
    nid: str, f: Feature, table: Mapping[str, palette.Symbol] | None = None
) -> list[Element]:
    """SVG elements of the symbols that draw ``f`` and that :mod:`referee.render` does
    not draw itself, bottom first (``table``: see :func:`referee.palette.feature_symbols`).

    Notes
    -----
    O(symbols of the feature's kind).
    """
    out: list[Element] = []
    found = [
        (k, s)
        for k, s in palette.feature_symbols(f.kind, f.props, table)
        if not _drawn_by_render(k)
    ]
    if not found:
        return out
    x, y = palette.symbol_anchor(f.geometry)
    for key, sym in found:
        title = f"<title>{escape(nid)} {escape(sym.title or key)}</title>"
        edge: dict[str, Any] = (
            {"stroke": sym.stroke, "stroke_width": 0.5} if sym.stroke else {"stroke": "none"}
        )
        shape = sym.shape
        if shape == "area":
            if f.geometry.geom_type.endswith("Polygon"):
                ring = list(f.geometry.exterior.coords) if f.geometry.geom_type == "Polygon" else []
                if ring:
                    out.append(
                        ("regions", "polygon", {"points": _pts(ring), "fill": sym.colour}, title)
                    )
            continue
        if shape == "circle":
            attrs = {"cx": _num(x), "cy": _num(y), "r": _num(sym.size), "fill": sym.colour}
            out.append(("points", "circle", {**attrs, **edge}, title))
        elif shape == "ring":
            attrs = {"cx": _num(x), "cy": _num(y), "r": _num(sym.size), "fill": "none"}
            out.append(
                ("points", "circle", {**attrs, "stroke": sym.colour, "stroke_width": 1.0}, title)
            )
        elif shape in ("arrow", "tick"):
            pts = palette.symbol_outline(sym, x, y, palette.symbol_bearing(key, f.props))
            if not pts:
                continue
            end = (
                pts[1]
                if shape == "tick"
                else ((pts[0][0] + pts[2][0]) / 2, (pts[0][1] + pts[2][1]) / 2)
            )
            line = {"x1": _num(x), "y1": _num(y), "x2": _num(end[0]), "y2": _num(end[1])}
            width = 0.9 if shape == "tick" else 0.6
            out.append(
                ("marks", "line", {**line, "stroke": sym.colour, "stroke_width": width}, title)
            )
            if shape == "arrow":
                out.append(("marks", "polygon", {"points": _pts(pts), "fill": sym.colour}, ""))
        elif shape != "text":
            pts = palette.symbol_outline(sym, x, y)
            out.append(
                ("points", "polygon", {"points": _pts(pts), "fill": sym.colour, **edge}, title)
            )
        if sym.label:
            colour = sym.colour if shape == "text" else (sym.stroke or "#111111")
            size = sym.size if shape == "text" else sym.size * 1.2
            text = {
                "x": _num(x),
                "y": _num(y + size * 0.35),
                "font_size": _num(size),
                "text_anchor": "middle",
                "fill": colour,
            }
            out.append(("labels", "text", text, escape(sym.label)))
    return out


def legend_entries(
    features: list[Feature], table: Mapping[str, palette.Symbol] | None = None
) -> list[tuple[str, str, palette.Symbol]]:
    """``(key, title, symbol)`` of the symbols with a ``title`` that draw some of
    ``features`` and that :mod:`referee.render`'s own key does not show, once each."""
    seen: dict[str, tuple[str, str, palette.Symbol]] = {}
    for f in features:
        for key, sym in palette.feature_symbols(f.kind, f.props, table):
            if sym.title and not _drawn_by_render(key) and key not in seen:
                seen[key] = (key, sym.title, sym)
    return list(seen.values())


def sample_props(key: str, sym: palette.Symbol) -> dict[str, Any]:
    """Properties of a feature the symbol ``key`` draws (for the key of a board):
    ``{"colour": "black"}`` for ``point.colour=black``, ``{"magic": True}`` for
    ``point.magic`` (``"E"`` for an arrow or a tick, which need a direction)."""
    prop, eq, value = key.partition(".")[2].partition("=")
    if not prop:
        return {}
    if eq:
        known = {"True": True, "False": False}
        return {prop: known.get(value, value)}
    return {prop: "E" if sym.shape in ("arrow", "tick") else True}


__all__ = ["DRAWN_BY_RENDER", "legend_entries", "sample_props", "symbol_elements"]
