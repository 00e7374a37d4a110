"""Boardwright's headless core: board model, geometry compiler, project store, rules.

``referee`` never imports Qt or :mod:`editor`.
"""

from __future__ import annotations

from .compiler import CompiledBoard, Problem, compile_board
from .errors import BoardError, BoardwrightError, IllegalMoveError, ProjectFileError, UsageError
from .model import Board, Feature, Placement, TileAsset
from .store import load_project, save_project

__version__ = "0.1.0"

__all__ = [
    "Board",
    "BoardError",
    "BoardwrightError",
    "CompiledBoard",
    "Feature",
    "IllegalMoveError",
    "Placement",
    "Problem",
    "ProjectFileError",
    "TileAsset",
    "UsageError",
    "compile_board",
    "load_project",
    "save_project",
]
