"""Printed-board pictures: a rules module's finer drawings of its own features.

A plug-in may declare, beside its :class:`~referee.vocabulary.Symbol` table,
``pictures``: symbol key -> :class:`Picture` (``RulesModule.pictures``, read from the
ground-floor :func:`referee.vocabulary.plugins`). ``referee render`` draws a
feature's matching pictures (its kind's base picture first, then the others in table
order) instead of the plain symbols they stand for (:attr:`Picture.covers`); the
editor's canvas keeps drawing the symbols, except where a :attr:`Picture.editor`
picture matches (below). Ringgeister's five-arrow black starts,
moon doors and spider (``referee/games/ringgeister/pictures.py``), the Riddle's
spaces with their cities and letters (``referee/games/riddle/pictures.py``) and the
track games' numbered points (``referee/games/track_pictures.py``) are drawn so.

A picture draws on a :class:`Canvas` (the renderer) with the SVG helpers of
:mod:`referee.render.svg`.

A picture marked :attr:`Picture.editor` (the track games' spaces, stage goals, event
symbols, resolve-track ends and track names) is drawn by the editor's canvas too, from
the same elements: :func:`referee.render.primitives.feature_primitives` runs the
pictures of one feature and returns what they drew as
:class:`~referee.render.svg.Primitive` data, which ``render`` writes as SVG and the
editor paints with Qt — one drawing code path, so they agree.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cache
from typing import Any, Protocol

from ..errors import UsageError
from ..model import Feature
from ..palette import symbol_matches
from ..vocabulary import plugins
from .svg import Svg


class Canvas(Protocol):
    """What a picture draws on (:class:`referee.render.board.BoardRenderer`)."""

    svg: Svg
    #: draw terrain patterns (trees, peaks, waves) over the fills
    patterns: bool

    @property
    def see_through(self) -> bool:
        """A background picture is shown: fills let it show through."""
        ...


#: ``draw(canvas, node id, feature)``
Draw = Callable[[Canvas, str, Feature], None]


@dataclass(frozen=True)
class LegendSample:
    """One entry of the key of a rendered board.

    Shown when some feature of the board matches ``when`` (a symbol key:
    ``"point"``, ``"point.magic"``, ``"door.symbol=moon"``); drawn as a feature of
    the key's kind with ``props`` at the origin, ``shift`` mm to the left (room for
    a long glyph, e.g. a wind arrow).
    """

    title: str
    when: str
    props: Mapping[str, Any] = field(default_factory=dict)
    shift: float = 0.0


@dataclass(frozen=True)
class Picture:
    """How ``referee render`` draws features a symbol key matches.

    Attributes
    ----------
    draw : callable
        ``draw(canvas, nid, feature)``: add the feature's elements to ``canvas.svg``.
    covers : tuple of str
        The symbol keys (``kind.prop``: every ``kind.prop=value`` too) this picture
        stands for: their plain symbols are not drawn by ``render`` (the picture's own
        key is always covered).
    legend : tuple of LegendSample
        The entries the picture contributes to the key of a board that uses it.
    editor : bool
        The editor's canvas draws it too, from
        :func:`referee.render.primitives.feature_primitives` (instead of the plain
        symbols it covers). Only for pictures that draw from the feature
        alone (no terrain patterns, no see-through fills, no ``raw`` SVG).
    """

    draw: Draw
    covers: tuple[str, ...] = ()
    legend: tuple[LegendSample, ...] = ()
    editor: bool = False


@cache
def picture_table() -> dict[str, Picture]:
    """Every installed plug-in's ``pictures``, merged by key (the first plug-in by
    name wins a key two declare). Read-only.

    Raises
    ------
    UsageError
        A plug-in's picture is not a :class:`Picture` (naming the plug-in and key).
    """
    out: dict[str, Picture] = {}
    for plugin in plugins().values():
        for key, pic in plugin.pictures.items():
            if not isinstance(pic, Picture):
                raise UsageError(
                    f"rules module {plugin.name!r}: pictures[{key!r}] is a "
                    f"{type(pic).__name__}, not a referee.render.pictures.Picture"
                )
            out.setdefault(key, pic)
    return out


def feature_pictures(
    kind: str, props: Mapping[str, Any], table: Mapping[str, Picture] | None = None
) -> list[Picture]:
    """The pictures that draw a feature of ``kind`` with ``props``: the kind's base
    picture first, then the matching others in table order.

    Notes
    -----
    O(pictures); the tables are a few dozen entries.
    """
    pics = picture_table() if table is None else table
    base = pics.get(kind)
    out = [base] if base is not None else []
    out += [p for k, p in pics.items() if k != kind and symbol_matches(k, kind, props)]
    return out


@dataclass
class Sheet:
    """A bare canvas for pictures drawn outside a rendered board (the editor's)."""

    svg: Svg = field(default_factory=Svg)
    patterns: bool = False
    see_through: bool = False


def editor_pictures(
    kind: str, props: Mapping[str, Any], table: Mapping[str, Picture] | None = None
) -> list[tuple[str, Picture]]:
    """``(key, picture)`` of the :attr:`Picture.editor` pictures that draw a feature
    of ``kind`` with ``props``, in the order ``render`` draws them."""
    pics = picture_table() if table is None else table
    return [
        (k, p)
        for k, p in pics.items()
        if p.editor and (k == kind or symbol_matches(k, kind, props))
    ]


def covered_keys(table: Mapping[str, Picture] | None = None) -> frozenset[str]:
    """The symbol keys the pictures stand for (their keys and :attr:`Picture.covers`)."""
    pics = picture_table() if table is None else table
    return frozenset(pics) | frozenset(k for p in pics.values() for k in p.covers)


__all__ = [
    "Canvas",
    "Draw",
    "LegendSample",
    "Picture",
    "Sheet",
    "covered_keys",
    "editor_pictures",
    "feature_pictures",
    "picture_table",
]
