"""Ringgeister rules (docs/rulings.md): quarter-turning octagon and square tiles, wind and black figures."""

from __future__ import annotations

from ..registry import RulesModule
from .checks import board_problems
from .game import RinggeisterGame
from .moves import Move

GAME = RinggeisterGame

#: the descriptor registered in the ``boardwright.rules`` entry-point group
RULES = RulesModule(
    name="ringgeister",
    game=RinggeisterGame,
    board_checks=(board_problems,),
    positions=("docs/positions/ringgeister-start.json",),
    sample="projects/ringgeister",
)

__all__ = ["GAME", "RULES", "Move", "RinggeisterGame"]
