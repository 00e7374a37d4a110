"""Rules modules: the game kit (:mod:`.base`) and the registry of installed games.

Games are found through the entry-point group ``boardwright.rules``
(:mod:`.registry`); the built-in games live in subpackages of this package.
"""

from __future__ import annotations

from .base import BoardName, FigureView, Game, LegalMoves
from .events import Event, event, visible
from .moves import Move
from .options import Option
from .outcome import Outcome, draw, lost, won
from .registry import RulesModule, Symbol, available, get_game, get_module, modules

__all__ = [
    "BoardName",
    "Event",
    "FigureView",
    "Game",
    "LegalMoves",
    "Move",
    "Option",
    "Outcome",
    "RulesModule",
    "Symbol",
    "available",
    "draw",
    "event",
    "get_game",
    "get_module",
    "lost",
    "modules",
    "visible",
    "won",
]
