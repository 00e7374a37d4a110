"""Adventure to Mount Doom: a cooperative track game (rulebook and rulings: docs/rulings.md).

``RULES`` describes the module to Boardwright (the ``boardwright.rules`` entry point);
the game is :class:`~.game.MountDoom`, the board ``projects/mount-doom`` and the
components the ``mount-doom`` asset pack. See :mod:`.game` for the moves and
``docs/coverage/adventure-to-mount-doom.md`` for where each rule is implemented.
"""

from __future__ import annotations

from .. import track_pictures, track_vocabulary
from ..registry import RulesModule
from .checks import board_problems
from .game import MountDoom, Move

#: the descriptor registered in the ``boardwright.rules`` entry-point group
RULES = RulesModule(
    name="mount-doom",
    game=MountDoom,
    props=track_vocabulary.PROPS,
    board_checks=(board_problems,),
    symbols=track_vocabulary.SYMBOLS,
    pictures=track_pictures.PICTURES,
    positions=("shipped:positions/mount-doom-start.json",),
    sample="shipped:projects/mount-doom",
)

__all__ = ["RULES", "MountDoom", "Move"]
