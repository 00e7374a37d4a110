"""How a game ended: the typed :class:`Outcome` (like ``chess.Outcome``).

A game's :attr:`~referee.games.base.Game.outcome` is ``None`` while it goes on, else
an :class:`Outcome`: the result (``won``, ``lost`` or ``draw``), the winners, why
it ended, and fields of the game's own (the ply, the score, the figure that
reached the goal)::

    won(["yellow"], figure="hobbit-yellow", ply=41)
    lost(reason="ringbearer_caught", by="spirit-3")

Its JSON (:meth:`Outcome.to_json`) is the flat object state files, logs and HTTP
answers carry: ``{"result": "won", "winners": ["yellow"], "figure": ..., "ply": 41}``;
:meth:`Outcome.from_json` reads it back, refusing what no referee writes (a
``winner`` key of the old format, another result, winners that are not names).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Literal

from ..errors import StateError

__all__ = ["RESULTS", "Outcome", "draw", "lost", "won"]

#: the results a game can end with
RESULTS = ("won", "lost", "draw")
#: keys of the JSON that are the outcome's own, not a game's extra field
_OWN = frozenset({"result", "winners", "reason"})
#: keys no referee writes any more, refused on reading (issue 27: strict)
_LEGACY = frozenset({"winner"})

Result = Literal["won", "lost", "draw"]


@dataclass(frozen=True)
class Outcome:
    """How a game ended.

    Attributes
    ----------
    result : {"won", "lost", "draw"}
        ``won``: some players (or a side) won; ``lost``: everybody lost (a
        cooperative game, or the board beat the players); ``draw``.
    winners : tuple of str
        Who won (players, or a side's name); empty unless ``result`` is ``won``.
    reason : str or None
        What ended the game, in the game's words (``"ringbearer_caught"``).
    extra : mapping
        The game's own fields (JSON values), in the order it gave them.

    Notes
    -----
    Equal outcomes have equal JSON; the hash leaves ``extra`` out.
    """

    result: Result
    winners: tuple[str, ...] = ()
    reason: str | None = None
    extra: Mapping[str, Any] = field(default_factory=dict, hash=False)

    def __post_init__(self) -> None:
        if self.result not in RESULTS:
            raise ValueError(f"an outcome's result is won, lost or draw, not {self.result!r}")
        object.__setattr__(self, "winners", tuple(self.winners))
        clash = sorted((_OWN | _LEGACY) & set(self.extra))
        if clash:
            raise ValueError(f"{clash[0]!r} is a field of the outcome itself, not an extra one")
        object.__setattr__(self, "extra", MappingProxyType(dict(self.extra)))

    def __str__(self) -> str:
        """For people: ``won by yellow``, ``lost (ringbearer_caught)``, ``draw``."""
        head = f"won by {', '.join(self.winners)}" if self.winners else self.result
        return f"{head} ({self.reason})" if self.reason else head

    def won_by(self, player: str) -> bool:
        """Whether ``player`` is among the winners."""
        return player in self.winners

    def to_json(self) -> dict[str, Any]:
        """The flat JSON object: ``result``, ``winners``, ``reason`` (when set), the extras."""
        out: dict[str, Any] = {"result": self.result, "winners": list(self.winners)}
        if self.reason is not None:
            out["reason"] = self.reason
        out.update(self.extra)
        return out

    @classmethod
    def from_json(cls, data: Any, where: str = "outcome") -> Outcome:
        """Read :meth:`to_json`'s object back.

        Raises
        ------
        StateError
            Code ``bad_state``, one line naming ``where``: not an object, a result
            other than won/lost/draw, winners that are not a list of names, winners
            of a game nobody won, a ``reason`` that is not text, or an old key
            (``winner``: write ``winners``).
        """
        if not isinstance(data, Mapping):
            raise StateError(f"{where}: expected an object, got {data!r}", code="bad_state")
        legacy = sorted(_LEGACY & set(data))
        if legacy:
            raise StateError(
                f"{where}: {legacy[0]!r} is an old key: write 'winners', a list of names",
                code="bad_state",
            )
        result = data.get("result")
        if result not in RESULTS:
            raise StateError(
                f"{where}.result: expected one of won, lost, draw, got {result!r}",
                code="bad_state",
            )
        if "winners" not in data:
            raise StateError(f"{where}: missing field 'winners'", code="bad_state")
        winners = data["winners"]
        if not isinstance(winners, list) or not all(isinstance(w, str) for w in winners):
            raise StateError(
                f"{where}.winners: expected a list of names, got {winners!r}", code="bad_state"
            )
        if result != "won" and winners:
            raise StateError(
                f"{where}.winners: a game that ends {result} has no winners", code="bad_state"
            )
        reason = data.get("reason")
        if reason is not None and not isinstance(reason, str):
            raise StateError(f"{where}.reason: expected text, got {reason!r}", code="bad_state")
        extra = {k: v for k, v in data.items() if k not in _OWN}
        return cls(result, tuple(winners), reason, extra)

    @classmethod
    def json_schema(cls) -> dict[str, Any]:
        """The JSON Schema of :meth:`to_json` (extras allowed, the old ``winner`` refused)."""
        return {
            "type": "object",
            "description": "how the game ended: result, winners, reason and the game's "
            "own fields (null while it goes on)",
            "properties": {
                "result": {
                    "enum": list(RESULTS),
                    "description": "won: some players won; lost: everybody lost; draw",
                },
                "winners": {
                    "type": "array",
                    "items": {"type": "string"},
                    "description": "who won (players or a side); empty unless won",
                },
                "reason": {"type": "string", "description": "what ended the game"},
            },
            "required": ["result", "winners"],
            "not": {"required": ["winner"]},
            "additionalProperties": True,
        }


def won(winners: Sequence[str], *, reason: str | None = None, **fields: Any) -> Outcome:
    """The outcome of a game ``winners`` won (players, or a side's name)."""
    return Outcome("won", tuple(winners), reason, fields)


def lost(*, reason: str | None = None, **fields: Any) -> Outcome:
    """The outcome of a game everybody lost (a cooperative game, or the board won)."""
    return Outcome("lost", (), reason, fields)


def draw(*, reason: str | None = None, **fields: Any) -> Outcome:
    """The outcome of a drawn game."""
    return Outcome("draw", (), reason, fields)
