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

import dataclasses
import math
from collections.abc import Callable, Mapping
from typing import Any, Final
from xml.sax.saxutils import escape

import numpy as np
import shapely

from .. import palette
from ..images.draw import SvgImages
from ..model import Board
from ..vocabulary import FigureView, Symbol
from .svg import Svg, fmt, path_d, points

#: a piece type's ``size`` word -> :attr:`FigureView.size`
SIZES: Final = {"small": 0, "medium": 1, "large": 2}
#: the board's area of the browser table at 1400 x 900, in CSS px (the board is
#: fitted into it; measured by the Chromium label test), and what a figure's letters
#: should measure there (issue 29: the table's test asks for >= 11 px)
TABLE_FIT_PX: Final = (966.0, 802.0)
LEGIBLE_PX: Final = 11.5


def legible_label(width: float, height: float) -> float:
    """The smallest letter size (board mm) a figure's label is drawn at on a picture
    ``width`` x ``height`` mm: :data:`LEGIBLE_PX` once fitted into
    :data:`TABLE_FIT_PX`."""
    return LEGIBLE_PX * max(width / TABLE_FIT_PX[0], height / TABLE_FIT_PX[1])


def _label_size(label: str, r: float) -> float:
    """A label's letter size in a figure of radius ``r``: one letter fills it, two or
    three are smaller so they fit inside."""
    return r * (1.0 if len(label) <= 1 else 0.8 if len(label) == 2 else 0.62)


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
    min_label: float = 0.0,
    growth: Mapping[str, float] | None = None,
) -> dict[str, tuple[float, float]]:
    """Draw ``views`` (layer ``pieces``) at their nodes; returns where each was drawn.

    Each figure is one element (``data-figure`` its id, ``<title>`` its name), then
    its label; figures sharing a node stand round it. ``tokens``: figure id -> the
    picture (in ``pics``) that draws it instead, cut to a disc.

    ``min_label`` (board mm, :func:`legible_label`): the figures of a node are grown
    together until their smallest label is that size, but never so far that their
    group reaches past half way to the nearest other node with figures (a dense map's
    figures stay apart and are read zoomed in, as its names are). ``growth`` (node ->
    factor, :func:`stack_growth` of the whole picture) is given by a caller that draws
    a picture's stacks one at a time; it replaces ``min_label`` for those nodes.

    Notes
    -----
    O(g·n) vectorized for the g of the n occupied nodes whose labels want to grow
    (the nearest other one), O(figures) otherwise.
    """
    placed = _placed(views, where)
    if growth is None:
        growth = _growths(placed, table, min_label)
    drawn: dict[str, tuple[float, float]] = {}
    for node, xy, here in placed:
        syms = [palette.figure_symbol(v, table) for v in here]
        grow = growth.get(node, 1.0)
        if grow > 1.0:
            syms = [dataclasses.replace(s, size=s.size * grow) for s in syms]
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


_Placed = list[tuple[str, tuple[float, float], list[FigureView]]]


def _placed(views: list[FigureView], where: Callable[[str], tuple[float, float] | None]) -> _Placed:
    """The stacks (node, where, its figures) in the order of their first figure."""
    stacks: dict[str, list[FigureView]] = {}
    for v in views:
        stacks.setdefault(v.node, []).append(v)
    placed: _Placed = []
    for node, here in stacks.items():
        xy = where(node)
        if xy is not None:
            placed.append((node, xy, here))
    return placed


#: a stack's own part of its growth: (how much its labels want to grow, its radius
#: at growth 1); the nearest other stack sets the rest
_Need = tuple[float, float]


def _need(here: list[FigureView], table: Mapping[str, Symbol], min_label: float) -> _Need:
    syms = [palette.figure_symbol(v, table) for v in here]
    smallest = min((_label_size(s.label, s.size) for s in syms if s.label), default=min_label)
    if min_label <= 0 or smallest >= min_label:
        return 1.0, 0.0
    radius = max(s.size for s in syms)
    dx, dy = palette.stack_offset(0, len(here), radius)
    return min_label / smallest, math.hypot(dx, dy) + radius  # the group's radius at 1


def _growths(
    placed: _Placed,
    table: Mapping[str, Symbol],
    min_label: float,
    needs: dict[tuple[FigureView, ...], _Need] | None = None,
) -> dict[str, float]:
    """Node -> growth: each stack's labels grow to ``min_label`` (never shrink), but the
    group reaches at most half way to the nearest other occupied node. ``needs``: a
    cache of :func:`_need` by stack, for this ``table`` and ``min_label`` only."""
    out: dict[str, float] = {}
    wanting: list[tuple[int, str, float, float]] = []
    for k, (node, _, here) in enumerate(placed):
        key = tuple(here)
        need = needs.get(key) if needs is not None else None
        if need is None:
            need = _need(here, table, min_label)
            if needs is not None:
                needs[key] = need
        want, reach = need
        if want <= 1.0:
            out[node] = 1.0
        else:
            wanting.append((k, node, want, reach))
    if wanting:
        xy = np.array([at for _, at, _ in placed], dtype=float)
        rows = np.array([k for k, _, _, _ in wanting])
        d = np.hypot(xy[rows, None, 0] - xy[None, :, 0], xy[rows, None, 1] - xy[None, :, 1])
        d[np.arange(len(rows)), rows] = np.inf  # a stack is not its own neighbour
        near = d.min(axis=1)
        for (_, node, want, reach), n in zip(wanting, near.tolist(), strict=True):
            out[node] = max(1.0, min(want, n / 2 / reach))
    return out


def stack_growth(
    views: list[FigureView],
    where: Callable[[str], tuple[float, float] | None],
    table: Mapping[str, Symbol],
    min_label: float,
    needs: dict[tuple[FigureView, ...], _Need] | None = None,
) -> dict[str, float]:
    """Node -> how much :func:`draw_figures` grows the figures standing there (1 = not
    at all): what a stack looks like depends on its neighbours, so a caller drawing
    stacks one at a time (and caching them) needs this of the whole picture.
    ``needs``: the caller's cache of each stack's own part, kept for one ``table`` and
    ``min_label``.

    Notes
    -----
    O(n) for the n occupied nodes, plus O(g·n) vectorized for the g stacks whose labels
    want to grow (the nearest other stack of each).
    """
    return _growths(_placed(views, where), table, min_label, needs)


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
        size = _label_size(sym.label, r)
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


__all__ = [
    "LEGIBLE_PX",
    "SIZES",
    "TABLE_FIT_PX",
    "draw_figures",
    "legible_label",
    "piece_views",
    "stack_growth",
]
