"""What a feature's editor-drawn pictures draw, as data: the one description of a
track board's decorations that ``referee render`` writes as SVG and the editor's
canvas paints with Qt (``editor/primitives.py``).

:func:`feature_primitives` runs, for a feature an
:attr:`~referee.render.pictures.Picture.editor` picture matches (the track games'
numbered spaces, stage goals, event symbols, resolve-track ends with their chevrons,
card slots and track names), every picture ``render`` draws it with and then the
plain symbols ``render`` draws beside them (:func:`~referee.render.symbols.symbol_elements`,
with render's own covered keys), on a bare sheet, exactly as :class:`BoardRenderer`
runs them for that node. Qt-free.
"""

from __future__ import annotations

from collections.abc import Mapping

from ..model import Feature
from .pictures import Picture, Sheet, editor_pictures, feature_pictures
from .svg import Primitive
from .symbols import symbol_elements


def feature_primitives(
    nid: str, f: Feature, table: Mapping[str, Picture] | None = None
) -> list[Primitive]:
    """The elements ``render`` draws for ``f``'s pictures and its uncovered symbols,
    in the order it adds them (empty: no editor-drawn picture matches ``f``, and the
    editor draws its own symbols).

    Notes
    -----
    O(pictures + elements drawn); a track space is a dozen elements.
    """
    if not editor_pictures(f.kind, f.props, table):
        return []
    sheet = Sheet()
    with sheet.svg.drawing(nid):
        for pic in feature_pictures(f.kind, f.props, table):  # all of them, as render runs
            pic.draw(sheet, nid, f)
        for layer, tag, attrs, body in symbol_elements(nid, f):
            sheet.svg.add(layer, tag, attrs, body)
    return sheet.svg.primitives


__all__ = ["feature_primitives"]
