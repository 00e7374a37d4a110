"""The moves of Adventure to Mount Doom (see :mod:`.game` for the phases)."""

from __future__ import annotations

from ..base import WordMove

VERBS = (
    "roll",
    "place",
    "go",
    "use",
    "advance",
    "army",
    "reroll",
    "fight",
    "save",
    "accept",
    "vision",
    "pass",
    "count",
    "done",
)
#: variant name -> (friends in need, without protection)
VARIANTS = {
    "standard": (False, False),
    "friends-in-need": (True, False),
    "without-protection": (False, True),
    "both": (True, True),
}


class Move(WordMove):
    """A decision, e.g. ``Move(("roll", "aragorn", "ringbearer"))``; ``str`` is its text."""

    verbs = VERBS
