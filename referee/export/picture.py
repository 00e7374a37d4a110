"""Pictures of a board for ``referee export --to svg|png|tts``: the
:mod:`referee.render` SVG, and PNG rasterised from it (:mod:`referee.render.png`)."""

from __future__ import annotations

from ..compiler import CompiledBoard
from ..render import render_svg as draw
from ..render.png import svg_to_png


def render_svg(compiled: CompiledBoard, *, graph: bool = False) -> str:
    """The board drawn by :func:`referee.render.render_svg`, as SVG text."""
    return draw(compiled.board, compiled, graph=graph)


def render_png(compiled: CompiledBoard, width_px: int = 2048, *, graph: bool = False) -> bytes:
    """The ``render`` drawing of the board as PNG bytes."""
    return svg_to_png(render_svg(compiled, graph=graph), width_px)


__all__ = ["render_png", "render_svg"]
