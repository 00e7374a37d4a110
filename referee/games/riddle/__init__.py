"""Riddle of the Ring (rules name ``riddle``): movement referee and the whole card game."""

from __future__ import annotations

from ..registry import RulesModule
from .cli import register as register_cli
from .game import RiddleGame
from .moves import Move
from .pictures import PICTURES
from .vocabulary import PROPS, SYMBOLS

#: the descriptor registered in the ``boardwright.rules`` entry-point group
RULES = RulesModule(
    name="riddle",
    game=RiddleGame,
    props=PROPS,
    symbols=SYMBOLS,
    pictures=PICTURES,
    cli=register_cli,
    positions=("shipped:positions/riddle-of-the-ring.json",),
    sample="shipped:projects/riddle-sample",
)

__all__ = ["RULES", "Move", "RiddleGame"]
