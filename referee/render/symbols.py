"""SVG of the rules modules' symbols (:mod:`referee.palette`), for ``referee render``.

:func:`symbol_elements` turns the symbols that match a feature into SVG elements
``(layer, tag, attributes, body)``, the same shapes, sizes and colours the editor's
canvas draws (``editor/style.py``), so a game's own symbols appear in a rendered
board without code in the renderer. The finer printed-board pictures (five-arrow
black starts, moon doors, the spider...) are the rules modules' own
(:mod:`referee.render.pictures`); :func:`drawn_by_render` names the symbols those
pictures and the shared feature drawers stand for, and those are left to them.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import Any
from xml.sax.saxutils import escape

from .. import palette
from ..model import Feature
from ..vocabulary import Symbol
from .features import COVERED
from .pictures import covered_keys
from .svg import fmt, points


def drawn_by_render() -> frozenset[str]:
    """Symbol keys whose finer picture ``referee render`` draws (a base ``kind`` or
    ``kind.prop``: every ``kind.prop=value`` of that property too): the installed
    rules modules' pictures' and the shared feature drawers' (junctions, river dots)."""
    return covered_keys() | COVERED


Element = tuple[str, str, dict[str, Any], str]


def _covered(key: str, covered: Collection[str]) -> bool:
    return key in covered or key.partition("=")[0] in covered


def symbol_elements(
    nid: str,
    f: Feature,
    table: Mapping[str, Symbol] | None = None,
    covered: Collection[str] | None = None,
) -> list[Element]:
    """SVG elements of the symbols that draw ``f`` and that no picture stands for
    (``covered``, default :func:`drawn_by_render`), bottom first (``table``: see
    :func:`referee.palette.feature_symbols`).

    Notes
    -----
    O(symbols of the feature's kind).
    """
    out: list[Element] = []
    skip = drawn_by_render() if covered is None else covered
    found = [
        (k, s) for k, s in palette.feature_symbols(f.kind, f.props, table) if not _covered(k, skip)
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
                        ("regions", "polygon", {"points": points(ring), "fill": sym.colour}, title)
                    )
            continue
        if shape == "circle":
            attrs = {"cx": fmt(x), "cy": fmt(y), "r": fmt(sym.size), "fill": sym.colour}
            out.append(("points", "circle", {**attrs, **edge}, title))
        elif shape == "ring":
            attrs = {"cx": fmt(x), "cy": fmt(y), "r": fmt(sym.size), "fill": "none"}
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
            line = {"x1": fmt(x), "y1": fmt(y), "x2": fmt(end[0]), "y2": fmt(end[1])}
            width = 0.9 if shape == "tick" else 0.6
            out.append(
                ("marks", "line", {**line, "stroke": sym.colour, "stroke_width": width}, title)
            )
            if shape == "arrow":
                out.append(("marks", "polygon", {"points": points(pts), "fill": sym.colour}, ""))
        elif shape != "text":
            pts = palette.symbol_outline(sym, x, y)
            out.append(
                ("points", "polygon", {"points": points(pts), "fill": sym.colour, **edge}, title)
            )
        if sym.label:
            colour = sym.colour if shape == "text" else (sym.stroke or "#111111")
            size = sym.size if shape == "text" else sym.size * 1.2
            text = {
                "x": fmt(x),
                "y": fmt(y + size * 0.35),
                "font_size": fmt(size),
                "text_anchor": "middle",
                "fill": colour,
            }
            out.append(("labels", "text", text, escape(sym.label)))
    return out


def legend_entries(
    features: list[Feature],
    table: Mapping[str, Symbol] | None = None,
    covered: Collection[str] | None = None,
) -> list[tuple[str, str, Symbol]]:
    """``(key, title, symbol)`` of the symbols with a ``title`` that draw some of
    ``features`` and that no picture stands for (``covered``, default
    :func:`drawn_by_render`; the pictures key themselves), once each."""
    skip = drawn_by_render() if covered is None else covered
    seen: dict[str, tuple[str, str, Symbol]] = {}
    for f in features:
        for key, sym in palette.feature_symbols(f.kind, f.props, table):
            if sym.title and not _covered(key, skip) and key not in seen:
                seen[key] = (key, sym.title, sym)
    return list(seen.values())


def sample_props(key: str, sym: Symbol) -> dict[str, Any]:
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


__all__ = ["drawn_by_render", "legend_entries", "sample_props", "symbol_elements"]
