"""Ringgeister rules (docs/rulings.md): quarter-turning octagon and square tiles, wind and black figures."""

from __future__ import annotations

from .game import RinggeisterGame
from .moves import Move

GAME = RinggeisterGame

__all__ = ["GAME", "Move", "RinggeisterGame"]
