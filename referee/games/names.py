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
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Mapping

from ..errors import StateError

__all__ = ["resolve", "suggest", "unknown"]


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
