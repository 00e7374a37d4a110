"""Riddle of the Ring: constants, the board facts the card game needs, and errors."""

from __future__ import annotations

from typing import Any

from ...compiler import CompiledBoard
from ...errors import IllegalMoveError, UsageError

MOVEMENT_KINDS = ("boat", "cloak", "rope")
MARKERS = ("frodo", "rider1", "sam", "rider2", "merry", "rider3", "pippin", "rider4")
HOBBITS = ("frodo", "sam", "merry", "pippin")
SIDE = {"hobbit": "hobbits", "rider": "riders"}
RIDERS = ("rider1", "rider2", "rider3", "rider4")
GOAL = {"hobbit": "cracks_of_doom", "rider": "barad_dur"}

#: entries each per-board cache of the game (reaches, paths, hand uses) keeps before
#: it is emptied
CACHE_KEPT = 50_000


def board_cache(compiled: CompiledBoard, name: str) -> dict[Any, Any]:
    """The per-board cache ``name`` (:meth:`CompiledBoard.derived`), emptied when it
    holds more than :data:`CACHE_KEPT` entries."""
    cache: dict[Any, Any] = compiled.derived(name, dict)
    if len(cache) > CACHE_KEPT:
        cache.clear()
    return cache


#: option name -> (default, description). Variation numbers follow the Supplementary Rules.


def illegal(code: str, message: str, **details: Any) -> IllegalMoveError:
    return IllegalMoveError(message, code=code, details=details)


def make_movement(compiled: CompiledBoard) -> Any:
    """The movement referee for ``compiled`` (cached on the compiled board)."""
    from .movement import Movement

    return compiled.derived("riddle.movement", lambda: Movement(compiled))


class BoardInfo:
    """What the card game needs to know about the spaces of a compiled board."""

    def __init__(self, compiled: CompiledBoard) -> None:
        g = compiled.graph
        self.terrain: dict[str, str] = {}
        self.city: dict[str, str] = {}
        self.letters: dict[str, frozenset[str]] = {}
        self.roles: dict[str, str] = {}
        self.dots: set[str] = set()
        for n, d in g.nodes(data=True):
            if d.get("kind") == "space":
                self.terrain[n] = d.get("terrain", "open")
                if d.get("city"):
                    self.city[n] = d["city"]
                self.letters[n] = frozenset(d.get("letters") or ())
                if d.get("role"):
                    self.roles[d["role"]] = n
            elif d.get("kind") == "river_dot":
                self.dots.add(n)
        for role in ("shire", "cracks_of_doom", "barad_dur", "exit_limbo"):
            if role not in self.roles:
                raise UsageError(
                    f"board has no space with role {role!r}: it cannot host Riddle of the Ring",
                    code="not_riddle_board",
                )
        self.land = sorted(n for n, t in self.terrain.items() if t not in ("ocean", "lake"))

    def is_water(self, node: str | None) -> bool:
        return node in self.dots or self.terrain.get(node or "", "") in ("ocean", "lake")


def board_info(compiled: CompiledBoard) -> BoardInfo:
    return compiled.derived("riddle.info", lambda: BoardInfo(compiled))
