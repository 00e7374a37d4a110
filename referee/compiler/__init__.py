"""Compile a :class:`~referee.model.Board` into relations (README.md: Projects and boards).

One module per topic: :mod:`.paths` (the ``path`` relation across tiles),
:mod:`.regions` (``touch``, ``road``, ``dot``, ``dot_river``), :mod:`.compiled`
(the graph, integer views, spatial index, tracks), :mod:`.points` (points and the
steps between them, for points-and-paths games), :mod:`.problems`.
"""

from .compiled import RELATIONS, CompiledBoard, PathView, board_hash, compile_board
from .points import PointGraph
from .problems import CODES, ERROR, WARNING, Problem

__all__ = [
    "CODES",
    "ERROR",
    "RELATIONS",
    "WARNING",
    "CompiledBoard",
    "PathView",
    "PointGraph",
    "Problem",
    "board_hash",
    "compile_board",
]
