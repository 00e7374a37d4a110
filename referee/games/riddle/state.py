"""Riddle of the Ring: the declared game state (players, piles, the turn in progress)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...compiler import CompiledBoard
from ...errors import StateError
from ..rng import Rng

if TYPE_CHECKING:
    from .game import RiddleGame


class Player:
    """One player: marker, hand, table cards, where he is and his bookkeeping."""

    __slots__ = (
        "away",
        "captor",
        "cities",
        "free_next",
        "goal_seen",
        "goal_wait",
        "hand",
        "kind",
        "name",
        "out",
        "pos",
        "riddle_extra",
        "status",
        "table",
    )

    def __init__(self, name: str, kind: str) -> None:
        self.name = name
        self.kind = kind  # hobbit | rider
        self.pos: str | None = None  # None until placed at the Shire, and in Limbo
        self.hand: list[str] = []
        self.table: list[str] = []  # Cloak/Rope/Boat on the table
        self.status = "waiting"  # waiting | board | limbo | captive
        self.away = 0  # turns ended in Limbo / captivity
        self.captor: str | None = None
        self.cities: list[str] = []  # the last two cities used for picking up
        self.goal_wait = False  # ended the last turn on his goal
        self.goal_seen = False  # has ended a turn on his goal (Variation 5)
        self.riddle_extra = 0  # cards got by another's wrong guess (not counted)
        self.free_next = False  # leaves Limbo/captivity when his next turn comes
        self.out = False  # dropped out (Variations 10, 12)

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "kind": self.kind,
            "pos": self.pos,
            "hand": list(self.hand),
            "table": list(self.table),
            "status": self.status,
            "away": self.away,
            "captor": self.captor,
            "cities": list(self.cities),
            "goal_wait": self.goal_wait,
            "goal_seen": self.goal_seen,
            "riddle_extra": self.riddle_extra,
            "free_next": self.free_next,
            "out": self.out,
        }

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Player:
        p = cls(d["name"], d["kind"])
        for k in cls.__slots__:
            if k in d and k not in ("name", "kind"):
                v = d[k]
                setattr(p, k, list(v) if isinstance(v, list) else v)
        return p


def state_to_json(g: RiddleGame) -> dict[str, Any]:
    sub = None
    if g.sub is not None:
        sub = {k: (list(v) if isinstance(v, list) else v) for k, v in g.sub.items()}
    return {
        "rules": g.rules,
        "board_hash": g.compiled.hash,
        "options": dict(g.opts),
        "players": [p.to_json() for p in g.players],
        "order": list(g.order),
        "draw": list(g.draw_pile),
        "discard": list(g.discard_pile),
        "hidden": {s: {n: list(c) for n, c in d.items()} for s, d in g.hidden.items()},
        "cur": g.cur,
        "turn": g.turn_no,
        "round": g.round_no,
        "phase": g.phase,
        "t": {k: (list(v) if isinstance(v, list) else v) for k, v in g.t.items()},
        "sub": sub,
        "rng": g.rng.state,
        "result": g.result,
        "seen": {n: [dict(s) for s in v] for n, v in g.seen.items()},
        "sides": {k: dict(v) for k, v in g.sides.items()},
        "side_turn": g.side_turn,
    }


def state_from_json(
    cls: type[RiddleGame], data: dict[str, Any], compiled: CompiledBoard
) -> RiddleGame:
    from .setup import read_options

    if not isinstance(data, dict) or data.get("rules") != cls.rules:
        raise StateError("not a Riddle of the Ring state", code="bad_state")
    if data.get("board_hash") != compiled.hash:
        raise StateError(
            f"state was made for board {data.get('board_hash')!r}, not for this "
            f"board ({compiled.hash})",
            code="wrong_board",
        )
    try:
        g = cls(compiled, read_options(data["options"]))
        g.players = [Player.from_json(p) for p in data["players"]]
        g._index()
        g.order = list(data["order"])
        g.draw_pile = list(data["draw"])
        g.discard_pile = list(data["discard"])
        g.hidden = {s: {n: list(c) for n, c in d.items()} for s, d in data["hidden"].items()}
        g.cur, g.turn_no, g.round_no = int(data["cur"]), int(data["turn"]), int(data["round"])
        g.phase = str(data["phase"])
        g.t = {k: (list(v) if isinstance(v, list) else v) for k, v in data["t"].items()}
        sub = data.get("sub")
        g.sub = (
            None
            if sub is None
            else {k: (list(v) if isinstance(v, list) else v) for k, v in sub.items()}
        )
        g.rng = Rng(int(data["rng"]))
        g.result = data.get("result")
        g.seen = {n: [dict(s) for s in v] for n, v in data.get("seen", {}).items()}
        g.sides = {k: dict(v) for k, v in (data.get("sides") or {}).items()}
        g.side_turn = data.get("side_turn")
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise StateError(f"malformed Riddle of the Ring state: {exc!r}") from None
    return g
