"""A heat map of where figures went, drawn on the board itself.

The board is drawn by :func:`referee.render.render_svg` (without pieces); one disc
per node that moves reached is laid over it, its area and colour growing with the
count (pale yellow → dark red, on a square-root scale so rare places stay
visible). PNG comes from the same resvg rasteriser as ``referee render --png``.
"""

from __future__ import annotations

import math
from xml.sax.saxutils import escape

from ..compiler import CompiledBoard
from ..render import render_svg
from ..render.png import svg_to_png

#: colour ramp, low to high
_RAMP = ((255, 237, 160), (254, 178, 76), (240, 59, 32), (128, 0, 38))


def _colour(t: float) -> str:
    t = max(0.0, min(1.0, t)) * (len(_RAMP) - 1)
    i = min(int(t), len(_RAMP) - 2)
    f = t - i
    a, b = _RAMP[i], _RAMP[i + 1]
    r, g, bl = (round(a[k] + (b[k] - a[k]) * f) for k in range(3))
    return f"#{r:02x}{g:02x}{bl:02x}"


def heatmap_svg(compiled: CompiledBoard, heat: dict[str, int], title: str = "") -> str:
    """The board with ``heat`` (node id -> count) drawn over it, as SVG text.

    Notes
    -----
    Node positions are the compiled board's (tiles at their placed turns); nodes
    without a position are skipped. Linear in the nodes counted.
    """
    svg = render_svg(compiled.board, compiled, pieces=False, legend=False)
    g = compiled.graph
    xs = [float(d["x"]) for _, d in g.nodes(data=True) if "x" in d]
    ys = [float(d["y"]) for _, d in g.nodes(data=True) if "y" in d]
    span = max(max(xs, default=1) - min(xs, default=0), max(ys, default=1) - min(ys, default=0))
    r_max = span / 35.0
    top = max(heat.values(), default=0)
    parts = ['<g id="heat" stroke="#3b0a0a" stroke-width="0.4">']
    for node, n in sorted(heat.items(), key=lambda kv: kv[1]):
        d = g.nodes.get(node) if node in g else None
        if d is None or "x" not in d or n <= 0 or top <= 0:
            continue
        t = math.sqrt(n / top)
        r = r_max * (0.25 + 0.75 * t)
        parts.append(
            f'<circle cx="{float(d["x"]):.2f}" cy="{float(d["y"]):.2f}" r="{r:.2f}" '
            f'fill="{_colour(t)}" fill-opacity="0.78"><title>{escape(str(node))}: {n}</title>'
            "</circle>"
        )
    parts.append("</g>")
    if title:
        parts.append(
            f'<text x="{min(xs, default=0):.1f}" y="{min(ys, default=0) + r_max:.1f}" '
            f'font-size="{r_max:.1f}" fill="#111">{escape(title)} (max {top})</text>'
        )
    end = svg.rfind("</svg>")
    return svg[:end] + "".join(parts) + svg[end:]


def heatmap_png(svg: str, width_px: int = 1600) -> bytes:
    """The heat map SVG rasterised (resvg)."""
    return svg_to_png(svg, width_px)
