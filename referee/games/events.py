"""The one event shape every game shares, how it is built, and who may see it.

An event is a JSON object with at least ``type`` (a word: ``"moved"``,
``"card_turned"``) and ``text`` (one sentence for people), plus fields of the
game's own::

    {"type": "moved", "text": "Red moves from s1 to s4", "figure": "red", "to": "s4"}

**Building one.** :func:`event` is the one constructor: the text is a template
filled from the event's fields (:meth:`str.format`), plus ``words`` that only the
text needs (a figure's name for people)::

    event(
        "moved",
        "{name} moves from {from} to {to}",
        figure="red",
        to="s4",
        words={"name": "Red"},
        from_="s1",
    )

A game declares its templates once, in :attr:`~referee.games.base.Game.EVENTS`
(event type -> template; ``type.variant`` for another sentence of the same type),
and builds its events with :meth:`~referee.games.base.Game.event`, which looks the
template up there: ``self.event("wind.nobody", point="p3", towards="N")``.

**Private events.** An event only some players may see carries ``private``: the
list of players who see it whole. Everybody else sees its ``public`` field
instead (an event of the same shape with the secret left out), or nothing when
it has none::

    event(
        "drew",
        "{player} draws {card}",
        player="red",
        card="ring",
        private=["red"],
        public=event("drew", "{player} draws a card", player="red"),
    )

That is the one convention: what the players named may know goes into the event's
own fields; nothing else (no per-player secrets, no ``secret`` field).
:func:`visible` is the one filter: the CLI, the server and the editor show a
player ``visible(events, player)``; ``viewer=None`` is an onlooker, who sees no
private event (the state file and the log keep everything).
"""

from __future__ import annotations

import keyword
import re
import string
from collections.abc import Callable, Iterable, Mapping, Sequence
from functools import cache
from typing import Any, Protocol

__all__ = ["Event", "EventMaker", "event", "visible"]

#: keyword arguments that stand for fields named like Python keywords (``from_``:
#: the field ``from``), as PEP 8 spells them
_KEYWORD_ARGS = frozenset(f"{k}_" for k in keyword.kwlist)

#: an event: ``{"type": str, "text": str, ...}`` (see the module docstring)
Event = dict[str, Any]


class EventMaker(Protocol):
    """What a game's rule helpers call to tell an event: the kit's ``Game.event``
    (a game's helper protocol takes it from here rather than spelling it again)."""

    def event(
        self,
        name: str,
        /,
        *,
        private: Sequence[str] | None = None,
        public: Mapping[str, Any] | None = None,
        words: Mapping[str, Any] | None = None,
        **fields: Any,
    ) -> Event: ...


def event(
    type: str,
    template: str,
    /,
    *,
    private: Sequence[str] | None = None,
    public: Mapping[str, Any] | None = None,
    words: Mapping[str, Any] | None = None,
    **fields: Any,
) -> Event:
    """Build an event: ``{"type", "text", **fields}`` (plus ``private``/``public``).

    Parameters
    ----------
    type : str
        The kind of event, one word (``"moved"``).
    template : str
        Its sentence for people, a :meth:`str.format` template over ``fields`` and
        ``words`` (``"{player} rolls {roll}"``); ``{{`` and ``}}`` are braces.
    private : sequence of str, optional
        The players who may see this event whole; omitted: everybody.
    public : Event, optional
        What everybody else sees instead (only with ``private``).
    words : mapping, optional
        Values the text uses that are no field of the event (names for people).
    **fields
        The game's own fields (JSON values); a field named like a Python keyword
        takes a trailing underscore (``from_="s1"`` is the field ``from``).

    Raises
    ------
    ValueError
        The template names a value neither ``fields`` nor ``words`` give (a bug
        of the game, caught where the event is made), or ``public`` without
        ``private``.

    Notes
    -----
    About a microsecond: the referee makes a few per move, so a template is
    compiled once (:func:`compile_template`) and then filled like an f-string.
    """
    return build(type, compile_template(template), fields, words, private, public)


#: a compiled template (:func:`compile_template`): the mapping of values -> the text
Fill = Callable[[Mapping[str, Any]], str]


def build(
    type: str,
    fill: Fill,
    fields: dict[str, Any],
    words: Mapping[str, Any] | None,
    private: Sequence[str] | None,
    public: Mapping[str, Any] | None,
) -> Event:
    """:func:`event` with a compiled template and the fields as a dict: the one place
    an event is made (the game kit's :meth:`~referee.games.base.Game.event`, with the
    templates of :attr:`~referee.games.base.Game.EVENTS` compiled once, calls it too)."""
    if not _KEYWORD_ARGS.isdisjoint(fields):
        fields = {(k[:-1] if k in _KEYWORD_ARGS else k): v for k, v in fields.items()}
    try:
        text = fill({**fields, **words} if words else fields)
    except KeyError as exc:
        raise ValueError(f"event {type!r}: its template needs {exc}") from None
    ev: Event = {"type": type, "text": text, **fields}
    if private is not None:
        ev["private"] = list(private)
        if public is not None:
            ev["public"] = dict(public)
    elif public is not None:
        raise ValueError(f"event {type!r}: a public stand-in goes with a private audience")
    return ev


#: a replacement field the compiled form handles: a plain name, an optional !r/!s/!a
#: and a simple format spec (anything else is filled by :meth:`str.format_map`)
_SIMPLE_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")
_SIMPLE_SPEC = re.compile(r"[\w<>=^+\- #.,%]*\Z")


@cache
def compile_template(template: str) -> Fill:
    """``template`` as a function of a mapping, as :meth:`str.format_map` fills it.

    A template of plain ``{name}`` fields (with ``!r`` or a simple format spec)
    becomes an f-string that reads the mapping directly — four or five times
    faster than :meth:`str.format_map`; any other is filled by ``format_map``.

    Raises
    ------
    ValueError
        ``template`` is no valid format string.

    Notes
    -----
    Compiled once per template text (cached); the literal text is passed in as
    constants, never pasted into the generated source.
    """
    literals: list[str] = []
    parts: list[str] = []
    for literal, name, spec, conversion in string.Formatter().parse(template):
        if literal:
            parts.append(f"{{L[{len(literals)}]}}")
            literals.append(literal)
        if name is None:
            continue
        if (
            not _SIMPLE_NAME.match(name)
            or not _SIMPLE_SPEC.match(spec or "")
            or conversion not in (None, "r", "s", "a")
        ):
            return template.format_map
        conv = f"!{conversion}" if conversion else ""
        parts.append(f"{{v[{name!r}]{conv}{':' + spec if spec else ''}}}")
    source = f"lambda v, L=L: f{''.join(parts)!r}" if parts else "lambda v: ''"
    fill: Fill = eval(source, {"L": tuple(literals)})
    return fill


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
