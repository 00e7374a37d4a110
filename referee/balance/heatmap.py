"""Heat maps of where figures went, drawn on the board itself.

The board is drawn by :func:`referee.render.render_svg` (without pieces); one disc
per node that moves reached is laid over it. :func:`heatmap_svg` draws one study:
the disc's area and colour grow with the count (pale yellow → dark red, on a
square-root scale so rare places stay visible). :func:`difference_svg` draws two
boards on the same seeds: the change in visits per game, B − A, on a diverging
scale (blue: fewer on B, red: more), a black ring round the changes that are
significant (:func:`referee.balance.report.heat_difference`).

The title and the colour key sit in a band added above the board (the SVG's
``viewBox`` grows upward), so they never cover the board's own title or spaces.
PNG comes from the same resvg rasteriser as ``referee render --png``.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from typing import Any
from xml.sax.saxutils import escape

from ..compiler import CompiledBoard
from ..render import render_svg
from ..render.png import svg_to_png

#: colour ramp of visits, low to high
_RAMP = ((255, 237, 160), (254, 178, 76), (240, 59, 32), (128, 0, 38))
#: diverging ramp of a change: most fewer (blue), none (near white), most more (red)
_DIVERGING = ((33, 102, 172), (146, 197, 222), (247, 247, 247), (244, 165, 130), (178, 24, 43))


def _colour(t: float, ramp: tuple[tuple[int, int, int], ...] = _RAMP) -> str:
    t = max(0.0, min(1.0, t)) * (len(ramp) - 1)
    i = min(int(t), len(ramp) - 2)
    f = t - i
    a, b = ramp[i], ramp[i + 1]
    r, g, bl = (round(a[k] + (b[k] - a[k]) * f) for k in range(3))
    return f"#{r:02x}{g:02x}{bl:02x}"


def _extent(compiled: CompiledBoard) -> tuple[float, float, float, float]:
    """min x, min y of the nodes and the disc radius at the most visited node."""
    g = compiled.graph
    xs = [float(d["x"]) for _, d in g.nodes(data=True) if "x" in d]
    ys = [float(d["y"]) for _, d in g.nodes(data=True) if "y" in d]
    span = max(max(xs, default=1) - min(xs, default=0), max(ys, default=1) - min(ys, default=0))
    return min(xs, default=0.0), min(ys, default=0.0), span, span / 35.0


def _disc(x: float, y: float, r: float, fill: str, tip: str, ring: bool = False) -> str:
    stroke = ' stroke="#000" stroke-width="1.6"' if ring else ""
    return (
        f'<circle cx="{x:.2f}" cy="{y:.2f}" r="{r:.2f}" fill="{fill}" '
        f'fill-opacity="0.8"{stroke}><title>{escape(tip)}</title></circle>'
    )


def _with_band(svg: str, title: str, key: list[tuple[str, str]], size: float) -> str:
    """``svg`` with a band above it: ``title`` on the first line, the colour key
    (``key``: colour, label) on the second; the root's ``viewBox`` and height grown
    upward to hold it, so nothing of the board is covered."""
    m = re.search(r'viewBox="([-\d.e]+) ([-\d.e]+) ([-\d.e]+) ([-\d.e]+)"', svg)
    if m is None:
        return svg
    x0, y0, w, h = (float(v) for v in m.groups())
    # a title of up to ~70 characters fits the board's width
    font = min(0.8 * size, w / 40.0)
    band = 3.2 * font
    top = y0 - band
    head = svg[: m.start()] + f'viewBox="{x0:g} {top:g} {w:g} {h + band:g}"' + svg[m.end() :]
    hm = re.search(r'height="([\d.e]+)mm"', head)
    if hm is not None:
        grown = float(hm.group(1)) * (h + band) / h
        head = head[: hm.start()] + f'height="{grown:g}mm"' + head[hm.end() :]
    x = x0 + font * 0.6
    parts = [
        f'<g id="heat-title"><rect x="{x0:g}" y="{top:g}" width="{w:g}" height="{band:g}" '
        'fill="#fdfcf7"/>',
        f'<text x="{x:g}" y="{top + 1.2 * font:g}" font-size="{font:g}" '
        f'fill="#111">{escape(title)}</text>',
    ]
    small = 0.7 * font
    y = top + 1.8 * font
    for colour, label in key:
        ring = label.startswith("ringed")
        parts.append(
            f'<rect x="{x:g}" y="{y:g}" width="{small:g}" height="{small:g}" '
            f'fill="{colour}" stroke="#000" stroke-width="{1.6 if ring else 0.3}"/>'
            f'<text x="{x + 1.3 * small:g}" y="{y + 0.85 * small:g}" '
            f'font-size="{small:g}" fill="#111">{escape(label)}</text>'
        )
        x += small * (2.5 + 0.6 * len(label))
    parts.append("</g>")
    end = head.rfind("</svg>")
    return head[:end] + "".join(parts) + head[end:]


def heatmap_svg(compiled: CompiledBoard, heat: Mapping[str, int], title: str = "") -> str:
    """The board with ``heat`` (node id -> count) drawn over it, as SVG text.

    Notes
    -----
    Node positions are the compiled board's (tiles at their placed turns); nodes
    without a position are skipped. Linear in the nodes counted.
    """
    svg = render_svg(compiled.board, compiled, pieces=False, legend=False)
    g = compiled.graph
    _, _, _, r_max = _extent(compiled)
    top = max(heat.values(), default=0)
    parts = ['<g id="heat" stroke="#3b0a0a" stroke-width="0.4">']
    for node, n in sorted(heat.items(), key=lambda kv: kv[1]):
        d = g.nodes.get(node) if node in g else None
        if d is None or "x" not in d or n <= 0 or top <= 0:
            continue
        t = math.sqrt(n / top)
        r = r_max * (0.25 + 0.75 * t)
        parts.append(_disc(float(d["x"]), float(d["y"]), r, _colour(t), f"{node}: {n}"))
    parts.append("</g>")
    end = svg.rfind("</svg>")
    svg = svg[:end] + "".join(parts) + svg[end:]
    if not title:
        return svg
    key = [(_colour(math.sqrt(f)), f"{round(f * top)} visits") for f in (0.05, 0.25, 0.5, 1.0)]
    return _with_band(svg, f"{title} (max {top})", key, r_max)


def difference_svg(compiled: CompiledBoard, diff: Mapping[str, Any], title: str = "") -> str:
    """Board B with the change in visits per game drawn over it, as SVG text.

    ``diff`` is :func:`referee.balance.report.heat_difference`'s: node id ->
    ``{"a", "b", "difference", "p", "significant"}`` (visits per game on A and B,
    B − A, the two-sided p-value and whether the change passes the false
    discovery rate). The disc grows with the size of the change on a square-root
    scale; blue is fewer visits on B, red more; a black ring marks a significant
    change. Nodes not on board B are skipped.
    """
    svg = render_svg(compiled.board, compiled, pieces=False, legend=False)
    g = compiled.graph
    _, _, _, r_max = _extent(compiled)
    top = max((abs(float(v["difference"])) for v in diff.values()), default=0.0)
    parts = ['<g id="heat-difference" stroke="#222" stroke-width="0.4">']
    for node, v in sorted(diff.items(), key=lambda kv: abs(float(kv[1]["difference"]))):
        d = g.nodes.get(node) if node in g else None
        delta = float(v["difference"])
        if d is None or "x" not in d or delta == 0 or top <= 0:
            continue
        t = math.sqrt(abs(delta) / top)
        r = r_max * (0.25 + 0.75 * t)
        colour = _colour(0.5 + 0.5 * t * (1 if delta > 0 else -1), _DIVERGING)
        tip = (
            f"{node}: {v['a']:g} → {v['b']:g} per game ({delta:+g}; p = {v['p']:g}"
            f"{', significant' if v['significant'] else ''})"
        )
        parts.append(_disc(float(d["x"]), float(d["y"]), r, colour, tip, bool(v["significant"])))
    parts.append("</g>")
    end = svg.rfind("</svg>")
    svg = svg[:end] + "".join(parts) + svg[end:]
    if not title:
        return svg
    key = [
        (
            _colour(0.5 + math.copysign(0.5 * math.sqrt(abs(f)), f), _DIVERGING),
            f"{f * top:+.2g}{' (fewer on B)' if f == -1 else ' (more on B)' if f == 1 else ''}",
        )
        for f in (-1.0, -0.25, 0.25, 1.0)
    ] + [("#ffffff", "ringed: significant")]
    return _with_band(svg, f"{title}: change in visits per game", key, r_max)


def heatmap_png(svg: str, width_px: int = 1600) -> bytes:
    """The heat map SVG rasterised (resvg)."""
    return svg_to_png(svg, width_px)
