"""The one event shape every game shares, and who may see an event.

An event is a JSON object with at least ``type`` (a word: ``"moved"``,
``"card_turned"``) and ``text`` (one sentence for people), plus fields of the
game's own::

    {"type": "moved", "text": "Red moves from s1 to s4", "figure": "red", "to": "s4"}

**Private events.** An event only some players may see carries ``private``: the
list of players who see it whole. Everybody else sees its ``public`` field
instead (an event of the same shape with the secret left out), or nothing when
it has none::

    event(
        "drew",
        "red draws the Ring",
        card="ring",
        private=["red"],
        public=event("drew", "red draws a card"),
    )

:func:`visible` is the one filter: the CLI, the server and the editor show a
player ``visible(events, player)``; ``viewer=None`` is an onlooker, who sees no
private event (the state file and the log keep everything).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

__all__ = ["Event", "event", "visible"]

#: an event: ``{"type": str, "text": str, ...}`` (see the module docstring)
Event = dict[str, Any]


def event(
    type: str,
    text: str,
    *,
    private: Sequence[str] | None = None,
    public: Event | None = None,
    **fields: Any,
) -> Event:
    """Build an event.

    Parameters
    ----------
    type : str
        The kind of event, one word (``"moved"``).
    text : str
        One sentence for people.
    private : sequence of str, optional
        The players who may see this event whole; omitted: everybody.
    public : Event, optional
        What everybody else sees instead (only with ``private``).
    **fields
        The game's own fields (JSON values).
    """
    ev: Event = {"type": type, "text": text, **fields}
    if private is not None:
        ev["private"] = list(private)
        if public is not None:
            ev["public"] = public
    return ev


def visible(events: Iterable[Event], viewer: str | None) -> list[Event]:
    """``events`` as ``viewer`` may see them.

    A public event is shown as it is; a private one whole to the players it names
    (without its ``public`` stand-in), as its ``public`` stand-in to everybody
    else, or not at all when it has none. ``viewer=None`` (an onlooker) sees no
    private event whole.

    Notes
    -----
    O(n) in the number of events.
    """
    out: list[Event] = []
    for ev in events:
        audience = ev.get("private")
        if audience is None:
            out.append(ev)
        elif viewer is not None and viewer in audience:
            out.append({k: v for k, v in ev.items() if k != "public"})
        elif isinstance(ev.get("public"), dict):
            out.append(ev["public"])
    return out
