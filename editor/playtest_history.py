"""Take-back in a playtest: the plies played, a copy of the game before each, and the
plies taken back (to replay).

Positions come from the kit: :meth:`Game.copy` before each move (the copy the kit's own
rollback uses), so taking back restores the game exactly — dice and shuffles included,
their generator being part of the state — and replaying pushes the same move again on
the same state, which gives the same events.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass
class Ply:
    """One move played: its text and the game as it was before it."""

    text: str
    before: Any


class PlayHistory:
    """The plies of one playtest, and the ones taken back (most recent first to replay)."""

    def __init__(self) -> None:
        self.played: list[Ply] = []
        self.taken_back: list[str] = []  # the next move to replay is the last

    def record(self, text: str, before: Any) -> None:
        """A move was played from ``before``: replays are forgotten unless it is the one
        the replay list would have played next."""
        self.played.append(Ply(text, before))
        if self.taken_back and self.taken_back[-1] == text:
            self.taken_back.pop()
        else:
            self.taken_back.clear()

    def take_back(self) -> Ply | None:
        """Forget the last ply (kept for replay); its ``before`` is the game to restore."""
        if not self.played:
            return None
        ply = self.played.pop()
        self.taken_back.append(ply.text)
        return ply

    def next_replay(self) -> str | None:
        return self.taken_back[-1] if self.taken_back else None

    def lines(self) -> list[str]:
        """The move list: the start, the plies played, then the ones taken back."""
        out = ["start"]
        out += [f"{i + 1}. {p.text}" for i, p in enumerate(self.played)]
        n = len(self.played)
        out += [f"{n + i + 1}. {t}" for i, t in enumerate(reversed(self.taken_back))]
        return out
