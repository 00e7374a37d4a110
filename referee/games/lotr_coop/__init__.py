"""The cooperative Lord of the Rings game (rulebook and rulings: docs/rulings.md).

``GAME`` is :class:`~.game.LotrCoop`; the boards are ``projects/lotr-coop`` and the
components the ``lotr-coop`` asset pack. See :mod:`.game` for the moves.
"""

from __future__ import annotations

from .game import LotrCoop, Move

GAME = LotrCoop

__all__ = ["GAME", "LotrCoop", "Move"]
