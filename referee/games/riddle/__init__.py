"""Riddle of the Ring (rules name ``riddle``): movement referee and the whole card game."""

from __future__ import annotations

from ..registry import RulesModule
from .game import RiddleGame
from .moves import Move

GAME = RiddleGame

#: the descriptor registered in the ``boardwright.rules`` entry-point group
RULES = RulesModule(
    name="riddle",
    game=RiddleGame,
    positions=("docs/positions/riddle-of-the-ring.json",),
    sample="projects/riddle-sample",
)

__all__ = ["GAME", "RULES", "Move", "RiddleGame"]
