"""The cooperative Lord of the Rings game (rulebook and rulings: docs/rulings.md).

``RULES`` describes the module to Boardwright (the ``boardwright.rules`` entry point);
the game is :class:`~.game.LotrCoop`, the boards ``projects/lotr-coop`` and the
components the ``lotr-coop`` asset pack. See :mod:`.game` for the moves and
``docs/coverage/lord-of-the-rings-cooperative.md`` for where each rule is implemented.
"""

from __future__ import annotations

from .. import track_pictures, track_vocabulary
from ..registry import RulesModule
from .checks import board_problems
from .game import LotrCoop, Move

#: the descriptor registered in the ``boardwright.rules`` entry-point group
RULES = RulesModule(
    name="lotr-coop",
    game=LotrCoop,
    props=track_vocabulary.PROPS,
    board_checks=(board_problems,),
    symbols=track_vocabulary.SYMBOLS,
    pictures=track_pictures.PICTURES,
    positions=("shipped:positions/lotr-coop-moria.json",),
    sample="shipped:projects/lotr-coop",
)

__all__ = ["RULES", "LotrCoop", "Move"]
