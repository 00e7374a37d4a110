"""Card faces in a view: what a person sees of a card, wherever a game shows one.

A game whose players hold cards puts two keys at the top of its view
(:meth:`referee.games.base.Game.dump_view`), read by the browser table, the editor's
Playtest and any frontend alike:

- ``hand``: the viewer's own cards, by id, in hand order (left out for an onlooker
  who holds none);
- ``cards``: ``{card id: face}`` for every card the view shows face up (the hand, the
  cards on the table, a face-up row) — a face is :meth:`CardFace.to_json`: ``title``,
  ``kind``, ``colour``, ``value`` and ``text``, read from the deck data.

Face-down cards stay ids the view already hides (``"?"``); no face is given for them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

__all__ = ["CardFace", "faces"]


@dataclass(frozen=True)
class CardFace:
    """The face of one card as the deck data prints it.

    Attributes
    ----------
    title : str
        The card's printed title (``Boat``, ``Gimli``, ``Balrog of Moria``).
    kind : str
        Its kind or deck (``travel``, ``enemy``, ``feature``).
    colour : str
        The card's colour word or ``#rrggbb`` (``white``, ``grey``, ``good``), or empty.
    value : str
        What is printed in its corner (battle points, symbols), or empty.
    text : str
        Its rules text, or empty.
    """

    title: str
    kind: str = ""
    colour: str = ""
    value: str = ""
    text: str = ""

    def to_json(self) -> dict[str, str]:
        return {
            "title": self.title,
            "kind": self.kind,
            "colour": self.colour,
            "value": self.value,
            "text": self.text,
        }


def faces(ids: Iterable[Any], face: Callable[[str], CardFace | None]) -> dict[str, dict[str, str]]:
    """``{id: face}`` for the card ids ``face`` knows (``"?"`` and unknown ids left
    out), sorted by id so a view is the same bytes for the same state."""
    out: dict[str, dict[str, str]] = {}
    for cid in sorted({c for c in ids if isinstance(c, str) and c != "?"}):
        f = face(cid)
        if f is not None:
            out[cid] = f.to_json()
    return out
