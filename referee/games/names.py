"""Names in positions: the nearest valid value for a refusal, and the rulebook's names.

A position is written by people. When one names something the game does not know
(a misspelt figure, a point the board lacks), the refusal names the field as
written and suggests the nearest valid value (:func:`unknown`)::

    position.figures.hobbit-yelow: no figure 'hobbit-yelow' in this game
    (did you mean 'hobbit-yellow'?)

A game may also accept the names its rulebook gives places (``"white starting point
3"``) where a position writes ids: it lists them in
:meth:`~referee.games.base.Game.board_names` and reads a value with
:func:`resolve`, which takes an id or a name (case and spacing ignored).
:func:`with_names` writes a position the other way, by names wherever the game reads
them back (``referee position --names``). Cards are read and written by the titles
the rulebook prints with :class:`CardTitles`.
"""

from __future__ import annotations

import difflib
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from ..errors import StateError

__all__ = ["CardTitles", "resolve", "suggest", "unknown", "with_names"]


def suggest(value: object, choices: Iterable[str]) -> str:
    """`` (did you mean 'x'?)`` with the valid value nearest ``value``, or ``""``.

    Notes
    -----
    :func:`difflib.get_close_matches` (ratio at least 0.6), O(n) in the choices.
    """
    if not isinstance(value, str):
        return ""
    pool = list(choices)
    found = difflib.get_close_matches(value, pool, n=1, cutoff=0.6)
    if not found:
        lowered = {c.lower(): c for c in pool}
        found = [lowered[m] for m in difflib.get_close_matches(value.lower(), lowered, n=1)]
    return f" (did you mean {found[0]!r}?)" if found else ""


def unknown(where: str, what: str, value: object, choices: Iterable[str]) -> StateError:
    """The one-line refusal of a ``value`` that is no ``what`` of the game, at
    ``where`` (the position field as written), with the nearest valid value."""
    pool = list(choices)
    return StateError(f"{where}: {value!r} is no {what}{suggest(value, pool)}", code="bad_state")


def _key(text: str) -> str:
    return " ".join(text.lower().split())


def resolve(value: str, ids: Iterable[str], names: Mapping[str, str], where: str, what: str) -> str:
    """The id ``value`` stands for: itself when it is one of ``ids``, else the id of the
    board name it is (``names``: name -> id; case and spacing ignored).

    Raises
    ------
    StateError
        Neither an id nor a name: one line naming ``where``, with the nearest id or
        name.
    """
    pool = set(ids)
    if value in pool:
        return value
    by_key = {_key(n): i for n, i in names.items()}
    found = by_key.get(_key(value))
    if found is not None:
        return found
    raise unknown(where, what, value, [*sorted(pool), *names])


def with_names(
    position: Mapping[str, Any],
    names: Iterable[tuple[str, str]],
    same: Callable[[dict[str, Any]], bool],
    keep: Iterable[str] = (),
) -> dict[str, Any]:
    """``position`` with every id that has a rulebook name written by that name.

    ``names`` are the board's (name, id) pairs in the game's order: an id is written by
    its first name; a name several ids share (case and spacing ignored) is written by
    none, so those ids stay. A field (a top-level key but ``keep``) takes the names only
    when ``same`` says the position it then is reads back as the same game: a field
    whose strings merely look like ids (a scenario, a card) keeps them.

    Notes
    -----
    O(size of the position) per field with a name to write, plus one ``same`` each.
    """
    pairs = list(names)
    shared = Counter(_key(n) for n, _ in pairs)
    table: dict[str, str] = {}
    for name, nid in pairs:
        if shared[_key(name)] == 1:
            table.setdefault(nid, name)

    def renamed(value: Any) -> Any:
        if isinstance(value, str):
            return table.get(value, value)
        if isinstance(value, list):
            return [renamed(v) for v in value]
        if isinstance(value, dict):
            return {k: renamed(v) for k, v in value.items()}
        return value

    out = dict(position)
    frozen = set(keep)
    for key, value in position.items():
        new = renamed(value)
        if key in frozen or new == value:
            continue
        trial = {**out, key: new}
        if same(trial):
            out = trial
    return out


class CardTitles:
    """A game's cards by id and by the title the rulebook prints (one copy each).

    :meth:`read` takes an id or a title (case and spacing ignored); a title several
    cards share (Adventure to Mount Doom's four Uruk-hai) is refused with the ids to
    write instead. :meth:`write` gives the title where it names that card alone.
    """

    def __init__(self, titles: Mapping[str, str]) -> None:
        #: card id -> its title
        self.titles = dict(titles)
        self._by_key: dict[str, list[str]] = {}
        for cid, title in self.titles.items():
            self._by_key.setdefault(_key(title), []).append(cid)

    def read(self, value: object, where: str, what: str = "card of the pack") -> str:
        """The card id ``value`` names, else one line naming ``where`` (the nearest
        id or title suggested)."""
        if isinstance(value, str) and value in self.titles:
            return value
        found = self._by_key.get(_key(value)) if isinstance(value, str) else None
        if not found:
            raise unknown(where, what, value, [*self.titles, *self.titles.values()])
        if len(found) > 1:
            raise StateError(
                f"{where}: {value!r} is the title of {len(found)} cards: write one of "
                f"{', '.join(found)}",
                code="bad_state",
            )
        return found[0]

    def write(self, card: str) -> str:
        """``card``'s title when it names that card alone, else its id."""
        title = self.titles.get(card)
        return title if title is not None and self._by_key[_key(title)] == [card] else card
