"""The pieces of a game's picture as the server draws them: one stack (the figures on
one node) at a time, each stack once per place and set of figures, from caches shared
by every game; and a figure view as a plain dict without a deep copy.

:class:`referee.session.Session` answers every view with these, once per ply.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from .envelopes import AnyGame
from .palette import rules_symbols
from .render.board import figure_label_size
from .render.figures import draw_figures, stack_growth
from .render.svg import Svg
from .vocabulary import FigureView

#: one drawn stack of figures: (rules, where, the figures) -> SVG elements
_STACKS: dict[tuple[str, tuple[float, float], tuple[FigureView, ...], float], str] = {}
_STACKS_MAX = 8192
#: (rules, smallest label) -> each stack's own part of its growth (stack_growth)
_NEEDS: dict[tuple[str, float], dict[tuple[FigureView, ...], tuple[float, float]]] = {}
_FLAT = (str, int, float, bool, type(None))


def pieces_svg(game: AnyGame, views: list[FigureView], label: float | None = None) -> str:
    """The figures ``views`` of ``game`` as SVG elements: exactly
    :func:`referee.render.figures_svg` (a test keeps it so), drawn one stack (the
    figures on one node) at a time and each stack drawn once per place and set of
    figures: a move changes a stack or two, the other stacks come from a cache.

    :func:`~referee.render.figures.draw_figures` draws the figures node by node, in
    the order of their first figure, each node's figures together, and a stack's
    elements depend only on its figures, the rules' symbols, where it stands and how
    much it grows (:func:`~referee.render.figures.stack_growth`, which looks at the
    other stacks: so it is part of the key). ``label``: the game's
    :func:`~referee.render.figure_label_size`, when the caller keeps it.

    Stacks stand where :meth:`~referee.games.base.Game.node_xy` says: a game whose
    tiles turn does not turn a compiled board it shares with other games.
    """
    stacks: dict[str, list[FigureView]] = {}
    for v in views:
        stacks.setdefault(v.node, []).append(v)
    table = rules_symbols(game.rules)
    where = {node: game.node_xy(node) for node in stacks}  # no shared board is turned
    if label is None:
        label = figure_label_size(game)
    needs = _NEEDS.get((game.rules, label))
    if needs is None or len(needs) >= _STACKS_MAX:
        if len(_NEEDS) >= 64:
            _NEEDS.clear()
        needs = _NEEDS[(game.rules, label)] = {}
    growth = stack_growth(views, where.__getitem__, table, label, needs)
    parts: list[str] = []
    for node, here in stacks.items():
        xy = where[node]
        grow = growth.get(node, 1.0)
        key = (game.rules, (float(xy[0]), float(xy[1])), tuple(here), grow)
        drawn = _STACKS.get(key)
        if drawn is None:
            svg = Svg()
            draw_figures(svg, here, _At(xy), table, growth={node: grow})
            drawn = "".join(svg.layers["pieces"])
            if len(_STACKS) >= _STACKS_MAX:
                _STACKS.clear()
            _STACKS[key] = drawn
        parts.append(drawn)
    return "".join(parts)


class _At:
    """The place of one stack, whatever node it is asked for."""

    def __init__(self, xy: tuple[float, float]) -> None:
        self.xy = xy

    def __call__(self, node: str) -> tuple[float, float]:
        return self.xy


def figure_dict(view: FigureView) -> dict[str, Any]:
    """``dataclasses.asdict(view)``, made without its deep copy when every field is a
    plain value (as :class:`~referee.vocabulary.FigureView`'s are)."""
    out = dict(view.__dict__) if hasattr(view, "__dict__") else None
    if out is None or not all(isinstance(v, _FLAT) for v in out.values()):
        return dataclasses.asdict(view)
    return out
