"""Figures on the board, as ``referee render`` draws them.

A figure is drawn with its symbol from the one palette
(:func:`referee.palette.figure_symbol`: the rules module's declared shape, the
figure's colour and label), as the editor's Playtest draws it; several figures on
one node stand round it (:func:`referee.palette.stack_offset`). The figures come
from a game (:meth:`referee.games.base.Game.figures`: a state, a position) or from
the pieces a project sets on its board (:func:`piece_views`). A piece type with a
``token`` picture is drawn as that picture, cut to a disc.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Final
from xml.sax.saxutils import escape

import shapely

from .. import palette
from ..images.draw import SvgImages
from ..model import Board
from ..vocabulary import FigureView, Symbol
from .svg import Svg, fmt, path_d, points

#: a piece type's ``size`` word -> :attr:`FigureView.size`
SIZES: Final = {"small": 0, "medium": 1, "large": 2}


def piece_views(
    board: Board,
    where: Callable[[str], tuple[float, float] | None],
    table: Mapping[str, Symbol],
) -> list[FigureView]:
    """The pieces the board sets on its nodes, as figures (pieces off the board, or on
    a node ``where`` does not know, are left out).

    The kind is the piece type's ``figure`` (``hobbit``), else its id; the label the
    kind's symbol's in ``table``, else the first letter of its figure or name; the colour the
    piece's own ``colour``, else its type's (the black side is black): a name of
    :data:`referee.palette.FIGURE_COLOURS` or ``#rrggbb``.
    """
    out: list[FigureView] = []
    for pc in board.pieces:
        if pc.at is None or where(pc.at) is None:
            continue
        t: Mapping[str, Any] = board.piece_types.get(pc.piece, {})
        side = str(t.get("side") or "")
        colour = str(pc.props.get("colour") or t.get("colour") or "white")
        if side == "black":
            colour = "black"
        kind = str(t.get("figure") or pc.piece)
        declared = table.get(kind)
        named = str(t.get("figure") or t.get("name") or pc.piece)
        out.append(
            FigureView(
                id=pc.id,
                node=pc.at,
                label=declared.label if declared is not None else named[:1].upper(),
                colour=palette.FIGURE_COLOURS.get(colour, colour if colour[:1] == "#" else "#ddd"),
                side=side,
                name=f"{pc.id} on {pc.at}",
                size=SIZES.get(str(t.get("size")), 1),
                kind=kind,
            )
        )
    return out


def draw_figures(
    svg: Svg,
    views: list[FigureView],
    where: Callable[[str], tuple[float, float] | None],
    table: Mapping[str, Symbol],
    tokens: Mapping[str, str] | None = None,
    pics: SvgImages | None = None,
) -> dict[str, tuple[float, float]]:
    """Draw ``views`` (layer ``pieces``) at their nodes; returns where each was drawn.

    Each figure is one element (``data-figure`` its id, ``<title>`` its name), then
    its label; figures sharing a node stand round it. ``tokens``: figure id -> the
    picture (in ``pics``) that draws it instead, cut to a disc.

    Notes
    -----
    O(figures).
    """
    stacks: dict[str, list[FigureView]] = {}
    for v in views:
        stacks.setdefault(v.node, []).append(v)
    drawn: dict[str, tuple[float, float]] = {}
    for node, here in stacks.items():
        xy = where(node)
        if xy is None:
            continue
        syms = [palette.figure_symbol(v, table) for v in here]
        radius = max(s.size for s in syms)
        for i, (v, sym) in enumerate(zip(here, syms, strict=True)):
            dx, dy = palette.stack_offset(i, len(here), radius)
            x, y = xy[0] + dx, xy[1] + dy
            drawn[v.id] = (x, y)
            token = (tokens or {}).get(v.id)
            if token is not None and pics is not None:
                _token(svg, pics, token, sym, x, y)
            else:
                _figure(svg, v, sym, x, y)
    return drawn


def _figure(svg: Svg, v: FigureView, sym: Symbol, x: float, y: float) -> None:
    r = sym.size
    title = f"<title>{escape(sym.title)}</title>"
    look = {"fill": sym.colour, "stroke": sym.stroke, "stroke_width": 0.6, "opacity": 0.93}
    if sym.shape == "circle":
        at = {"cx": fmt(x), "cy": fmt(y), "r": fmt(r)}
        svg.add("pieces", "circle", {**at, **look, "data_figure": v.id}, title)
    else:
        outline = points(palette.symbol_outline(sym, x, y))
        svg.add("pieces", "polygon", {"points": outline, **look, "data_figure": v.id}, title)
    if sym.label:
        size = r * (1.0 if len(sym.label) <= 1 else 0.8 if len(sym.label) == 2 else 0.62)
        svg.add(
            "pieces",
            "text",
            {
                "x": fmt(x),
                "y": fmt(y + size * 0.36),
                "font_size": fmt(size),
                "text_anchor": "middle",
                "font_weight": "bold",
                "fill": palette.ink(sym.colour),
            },
            escape(sym.label),
        )


def _token(svg: Svg, pics: SvgImages, token: str, sym: Symbol, x: float, y: float) -> None:
    r = sym.size
    disc = shapely.Point(x, y).buffer(r, quad_segs=16)
    svg.raw(
        "pieces",
        pics.element(
            token, x - r, y - r, 2 * r, 2 * r, clip_d=path_d(disc), title=escape(sym.title)
        ),
    )
    ring = {"fill": "none", "stroke": "#111", "stroke_width": 0.6}
    svg.add("pieces", "circle", {"cx": fmt(x), "cy": fmt(y), "r": fmt(r), **ring})


__all__ = ["SIZES", "draw_figures", "piece_views"]
