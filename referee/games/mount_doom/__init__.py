"""Adventure to Mount Doom: a cooperative track game (rulebook and rulings: docs/rulings.md).

``GAME`` is :class:`~.game.MountDoom`; the board is ``projects/mount-doom`` and the
components are the ``mount-doom`` asset pack. See :mod:`.game` for the moves.
"""

from __future__ import annotations

from .game import MountDoom, Move

GAME = MountDoom

__all__ = ["GAME", "MountDoom", "Move"]
