"""Ringgeister rules (docs/rulings.md): quarter-turning octagon and square tiles, wind and black figures."""

from __future__ import annotations

from ..registry import RulesModule
from .checks import board_counts, board_problems, goal_reach_problems
from .game import RinggeisterGame
from .moves import Move
from .pictures import PICTURES
from .vocabulary import PROPS, SYMBOLS

#: the descriptor registered in the ``boardwright.rules`` entry-point group
RULES = RulesModule(
    name="ringgeister",
    game=RinggeisterGame,
    props=PROPS,
    board_checks=(goal_reach_problems, board_problems),
    board_counts=board_counts,
    symbols=SYMBOLS,
    pictures=PICTURES,
    positions=("shipped:positions/ringgeister-start.json",),
    sample="shipped:projects/ringgeister",
)

__all__ = ["RULES", "Move", "RinggeisterGame"]
