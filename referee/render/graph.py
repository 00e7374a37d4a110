"""The compiled graph drawn over a board (``referee render --graph``).

Edges in their relation's colour (:mod:`referee.palette`, as the editor's overlay),
``next`` edges with an arrow head, water paths dashed, river touches dotted; port
nodes that became dead ends or junctions as squares, the other nodes as dots; each
problem with a place ringed (red for errors, orange for warnings).
"""

from __future__ import annotations

from typing import Any
from xml.sax.saxutils import escape

from .. import palette
from ..compiler import CompiledBoard
from .svg import Svg, fmt


def draw_graph(svg: Svg, cb: CompiledBoard) -> None:
    """Add the graph of ``cb`` to the ``graph`` layer.

    Notes
    -----
    O(E log E + V log V): edges and nodes are sorted, so the output is deterministic.
    """
    g = cb.graph
    for u, v, _k, d in sorted(g.edges(keys=True, data=True), key=lambda e: e[2]):
        rel = d.get("relation", "")
        (x1, y1), (x2, y2) = cb.xy(u), cb.xy(v)
        if rel == "next":
            (x1, y1), (x2, y2) = cb.xy(d["tail"]), cb.xy(d["head"])
        attrs: dict[str, Any] = {
            "x1": fmt(x1),
            "y1": fmt(y1),
            "x2": fmt(x2),
            "y2": fmt(y2),
            "stroke": palette.relation_colour(rel),
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
        svg.add("graph", "line", attrs, f"<title>{escape(rel)} {escape(u)} - {escape(v)}</title>")
    for n, d in sorted(g.nodes(data=True)):
        kind = d.get("kind")
        if kind in ("dead_end", "junction") and d.get("port"):
            svg.add(
                "graph",
                "rect",
                {
                    "x": fmt(d["x"] - 1.4),
                    "y": fmt(d["y"] - 1.4),
                    "width": 2.8,
                    "height": 2.8,
                    "fill": palette.DEAD_END_PORT if kind == "dead_end" else palette.JUNCTION_PORT,
                    "stroke": "#111",
                    "stroke_width": 0.3,
                },
                f"<title>{escape(n)} {kind}</title>",
            )
        else:
            svg.add(
                "graph",
                "circle",
                {
                    "cx": fmt(d["x"]),
                    "cy": fmt(d["y"]),
                    "r": 0.9,
                    "fill": palette.NODE,
                    "opacity": 0.9,
                },
                f"<title>{escape(n)} ({escape(str(kind))})</title>",
            )
    for prob in cb.problems:
        if prob.x is None or prob.y is None:
            continue
        svg.add(
            "graph",
            "circle",
            {
                "cx": fmt(prob.x),
                "cy": fmt(prob.y),
                "r": 4.5,
                "fill": "none",
                "stroke": "#ff0000" if prob.severity == "error" else "#ff9900",
                "stroke_width": 0.7,
            },
            f"<title>{escape(str(prob))}</title>",
        )


__all__ = ["draw_graph"]
