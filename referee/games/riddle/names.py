"""The rulebook's names in Riddle of the Ring positions: spaces and cards.

**Spaces.** A player reads a space's name on the board ("Rivendell", "The Shire",
"The Cracks of Doom"); the board's features carry it (``name``), and the four spaces
the rules need by role are also known by the rulebook's words for them (``the
Shire``, ``the Cracks of Doom``, ``Barad-Dur``, ``Exit Limbo``). A position may write a
space by id or by name wherever it names one (``places``, ``cities``, ``hidden``,
``turn_state.start``); :func:`board_names` lists them (``referee board-names``). A
name several spaces share is listed for none of them: write the id there.

**Cards.** A card instance's id (``boat.3``, ``the_ring``) names that very card; its
title as the List of Cards prints it (``"Boat"``, ``"The Ring"``, ``"Mouth of
Sauron"``, case and spacing ignored), the type's id (``boat``) or the title as a Riddle
guesses it (``mouth_of_sauron``: spelt as ids are) names *a* copy of that card: the first copy, in the deck's order, that the position
does not place elsewhere (:class:`CardNames`).
"""

from __future__ import annotations

import copy
from collections import Counter
from collections.abc import Iterable
from typing import Any

from ...compiler import CompiledBoard
from ...errors import StateError
from ..base import BoardName
from ..names import resolve, unknown
from .cards import CardType, Deck, instance_ids, slug

__all__ = ["ROLE_NAMES", "CardNames", "board_names", "name_table", "with_titles"]

#: role -> the rulebook's name for the space (How to Win, LIMBO)
ROLE_NAMES = {
    "shire": "The Shire",
    "cracks_of_doom": "The Cracks of Doom",
    "barad_dur": "Barad-Dur",
    "exit_limbo": "Exit Limbo",
}


def _space_kind(data: dict[str, object]) -> str:
    city = data.get("city")
    terrain = str(data.get("terrain") or "open")
    return f"{city} city" if city else {"open": "open country"}.get(terrain, terrain)


def board_names(compiled: CompiledBoard) -> list[BoardName]:
    """Every space's name on ``compiled`` (the role spaces by the rulebook's words too).

    Notes
    -----
    O(N) over the board's nodes.
    """
    g = compiled.graph
    spaces = [(n, d) for n, d in g.nodes(data=True) if d.get("kind") == "space"]
    count = Counter(str(d["name"]).casefold() for _, d in spaces if d.get("name"))
    out: list[BoardName] = []
    for n, d in sorted(spaces, key=lambda nd: str(nd[0])):
        role = d.get("role")
        name = d.get("name")
        if isinstance(name, str) and name and count[name.casefold()] == 1:
            note = f"the rulebook's {ROLE_NAMES[role]}" if role in ROLE_NAMES else ""
            out.append(BoardName(name, str(n), _space_kind(d), note))
        if role in ROLE_NAMES and ROLE_NAMES[str(role)].casefold() != str(name or "").casefold():
            out.append(BoardName(ROLE_NAMES[str(role)], str(n), _space_kind(d), f"role {role}"))
    return out


def name_table(compiled: CompiledBoard) -> dict[str, str]:
    """Name -> space id of every :func:`board_names` entry (cached per compiled board)."""
    return compiled.derived("riddle.names", lambda: {b.name: b.id for b in board_names(compiled)})


def space(compiled: CompiledBoard, spaces: Iterable[str], value: object, where: str) -> str:
    """The space id ``value`` writes (an id or a board name), else one line naming
    ``where`` with the nearest id or name."""
    if not isinstance(value, str):
        raise StateError(f"{where}: expected a space id or name, got {value!r}", code="bad_state")
    return resolve(value, spaces, name_table(compiled), where, "space of this board")


class CardNames:
    """Reads the cards a position lists: ids as they are, titles as free copies.

    Build it with every card value of the position (:meth:`claim` the ids first), then
    :meth:`read` each value in the position's order.
    """

    def __init__(self, deck: Deck) -> None:
        self.deck = deck
        #: a type id, title or slug (case and spacing ignored) -> the type ids it names
        self.by_name: dict[str, list[str]] = {}
        for t in deck.types.values():
            keys = dict.fromkeys(
                " ".join(k.casefold().split()) for k in (t.id, t.name, slug(t.name))
            )
            for key in keys:
                self.by_name.setdefault(key, []).append(t.id)
        self.types = {t.id: t for t in deck.types.values()}
        #: instance -> the field that placed it
        self.placed: dict[str, str] = {}

    def claim(self, value: object, where: str) -> None:
        """Place the instance ``value`` names (a no-op for a title: :meth:`read` places
        those); a card listed twice is refused naming both fields."""
        if isinstance(value, str) and value in self.deck.type_of:
            if value in self.placed:
                raise StateError(
                    f"{where}: card {value} is listed twice (also {self.placed[value]})",
                    code="bad_state",
                )
            self.placed[value] = where

    def kind(self, value: object, where: str) -> str:
        """The card ``value`` names without placing one: an instance id as it is, a
        title, type id or guess as the type id (any copy of it: a fixed draw)."""
        if isinstance(value, str) and value in self.deck.type_of:
            return value
        return self._type(value, where).id

    def read(self, value: object, where: str) -> str:
        """The instance ``value`` stands for (claimed already when it is an id)."""
        if isinstance(value, str) and value in self.deck.type_of:
            return value
        t = self._type(value, where)
        for iid in instance_ids(t):
            if iid not in self.placed:
                self.placed[iid] = where
                return iid
        raise StateError(
            f"{where}: {value!r} names a {t.name} card, but all {t.count} are placed "
            f"already ({', '.join(sorted({self.placed[i] for i in instance_ids(t)}))})",
            code="bad_state",
        )

    def _type(self, value: object, where: str) -> CardType:
        """The card type a title, type id or guess names, else one line naming ``where``."""
        tids = (
            self.by_name.get(" ".join(value.casefold().split())) if isinstance(value, str) else None
        )
        if not tids:
            pool = [*self.deck.instances, *(t.name for t in self.deck.types.values())]
            raise unknown(where, "card of the deck", value, pool)
        if len(tids) > 1:  # Horse, Good Army ...: the cards differ in their numbers
            which = ", ".join(f"{i} ({self.types[i].points} battle points)" for i in tids)
            if self.types[tids[0]].kind == "travel":
                which = ", ".join(tids)
            raise StateError(
                f"{where}: {value!r} is the title of {len(tids)} different cards: write "
                f"one of {which}",
                code="bad_state",
            )
        return self.types[tids[0]]


def _longest_rising(ks: list[int]) -> set[int]:
    """The positions in ``ks`` of a longest strictly rising run (not contiguous).

    Notes
    -----
    O(n²): n is the copies of one card, ten at most.
    """
    best = [1] * len(ks)
    back = [-1] * len(ks)
    for i in range(len(ks)):
        for j in range(i):
            if ks[j] < ks[i] and best[j] + 1 > best[i]:
                best[i], back[i] = best[j] + 1, j
    if not ks:
        return set()
    i = max(range(len(ks)), key=lambda k: best[k])
    out = set()
    while i >= 0:
        out.add(i)
        i = back[i]
    return out


def with_titles(deck: Deck, position: dict[str, Any]) -> dict[str, Any]:
    """``position`` (complete, as ``position()`` writes it) with cards written by their
    titles wherever :class:`CardNames` reads the title back as that very card.

    A title reads as the first copy, in the deck's order, that no id and no earlier
    title places; reading goes ``hands``, ``tables``, ``draw``, ``discard``,
    ``hidden``. So the copies of one card written by title must rise in the deck's
    order along that reading: of each card's copies the longest such run is written
    by title, the rest keep their ids (a deck with ``boat.2`` in a hand and
    ``boat.1`` on the pile writes one of them ``Boat``). A title several cards share
    (``Horse``, ``Good Army``) is written by none; a battle's cards
    (``activity``) keep their ids. Fixed ``draws`` of a whole kind (``boat``) are
    written by its title.

    Notes
    -----
    O(cards) plus O(copies²) per card.
    """
    out = copy.deepcopy(position)
    names = CardNames(deck)

    def unique_title(tid: str) -> str | None:
        t = deck.types[tid]
        key = " ".join(t.name.casefold().split())
        return t.name if names.by_name.get(key) == [tid] else None

    lists: list[list[Any]] = [
        *(out.get("hands") or {}).values(),
        *(out.get("tables") or {}).values(),
        out.get("draw") or [],
        out.get("discard") or [],
        *(lst for per in (out.get("hidden") or {}).values() for lst in per.values()),
    ]
    slots: dict[str, list[tuple[list[Any], int, int]]] = {}
    for lst in lists:
        for i, c in enumerate(lst):
            t = deck.type_of.get(c) if isinstance(c, str) else None
            if t is not None and unique_title(t.id) is not None:
                slots.setdefault(t.id, []).append((lst, i, instance_ids(t).index(c)))
    for tid, found in slots.items():
        title = unique_title(tid)
        for k in _longest_rising([copy_no for _, _, copy_no in found]):
            lst, i, _ = found[k]
            lst[i] = title
    draws = out.get("draws")
    if isinstance(draws, list):
        out["draws"] = [
            (unique_title(d) or d) if isinstance(d, str) and d in deck.types else d for d in draws
        ]
    return out
