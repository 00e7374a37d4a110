"""Rules modules: the game kit (:mod:`.base`) and the registry of installed games.

Games are found through the entry-point group ``boardwright.rules``
(:mod:`.registry`); the built-in games live in subpackages of this package. What a
game's board vocabulary is made of (:class:`~referee.vocabulary.Symbol`,
:class:`~referee.vocabulary.FigureView`) lives on the ground floor,
:mod:`referee.vocabulary`, where the core reads it.
"""

from __future__ import annotations

from .base import BoardName, Game, LegalMoves
from .events import Event, event, visible
from .moves import Move
from .options import Option
from .outcome import Outcome, draw, lost, won
from .registry import RulesModule, available, get_game, get_module, modules

__all__ = [
    "BoardName",
    "Event",
    "Game",
    "LegalMoves",
    "Move",
    "Option",
    "Outcome",
    "RulesModule",
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
