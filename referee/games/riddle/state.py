"""Riddle of the Ring: the declared game state and position, and what loading checks.

The kit (:mod:`referee.games.base`) writes and reads state files around
:class:`RiddleState` (``"state"`` of ``to_json``: rules, version, board hash,
players, options and generator are the kit's frame) and positions around
:class:`RiddlePosition`; both are checked for *structure* against these
declarations. :func:`.checks.problems` checks their *meaning* — every reference to a
player, a space, a card or an index — so that a hand-edited impossible state is
refused with one line (``StateError`` code ``bad_state``) instead of failing later.

Version history of the state: 1 — the flat file written before the kit (no
``"state"`` key, no ``"version"``; :func:`migrate_v1` reads it); 2 — this layout.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from ...errors import StateError
from ..outcome import Outcome

STATE_VERSION = 2

Kind = Literal["hobbit", "rider"]
Status = Literal["waiting", "board", "limbo", "captive", "reserve"]
PhaseName = Literal[
    "start",
    "limbo",
    "limbo_rolled",
    "place",
    "main",
    "exchange",
    "character",
    "pexchange",
    "resist",
    "riddle",
    "choose",
    "battle_att",
    "battle_def",
    "discard",
    "over",
]
#: the kinds of activity in progress (``sub["kind"]``)
ACTIVITIES = ("pexchange", "look", "riddle", "give", "battle")


@dataclass(slots=True)
class Player:
    """One player: marker, hand, table cards, where he is and his bookkeeping."""

    name: str = field(metadata={"help": "the marker: frodo, sam, merry, pippin, rider1..4"})
    kind: Kind = field(metadata={"help": "hobbit or rider"})
    pos: str | None = field(
        default=None, metadata={"help": "space id; null until placed, and in Limbo"}
    )
    hand: list[str] = field(default_factory=list, metadata={"help": "card ids"})
    table: list[str] = field(
        default_factory=list, metadata={"help": "Cloak/Rope/Boat cards face-up on the table"}
    )
    status: Status = field(default="waiting", metadata={"help": "waiting: not placed yet"})
    away: int = field(default=0, metadata={"help": "turns ended in Limbo or captivity", "low": 0})
    captor: str | None = field(default=None, metadata={"help": "the captor of a captive"})
    cities: list[str] = field(
        default_factory=list, metadata={"help": "the last two cities used for picking up"}
    )
    goal_wait: bool = field(default=False, metadata={"help": "ended the last turn on his goal"})
    goal_seen: bool = field(
        default=False, metadata={"help": "has ended a turn on his goal (Variation 5)"}
    )
    riddle_extra: int = field(
        default=0, metadata={"help": "cards got by another's wrong guess", "low": 0}
    )
    free_next: bool = field(
        default=False, metadata={"help": "leaves Limbo/captivity when his next turn comes"}
    )
    out: bool = field(default=False, metadata={"help": "dropped out (Variations 10, 12)"})


@dataclass(slots=True)
class TurnState:
    """The turn in progress: the die, movement, Power Plays and activities done."""

    roll: int = field(default=0, metadata={"help": "the die (0: not rolled)", "low": 0, "high": 6})
    die_used: bool = False
    stopped: bool = field(default=False, metadata={"help": "a forest/mountain ended movement"})
    moved: bool = False
    start: str | None = field(default=None, metadata={"help": "the space the turn began on"})
    pp: int = field(default=0, metadata={"help": "Power Plays made", "low": 0, "high": 2})
    pending: list[str] = field(
        default_factory=list, metadata={"help": "players a Friendly Exchange is due with"}
    )
    exchanged: list[str] = field(default_factory=list)
    battled: list[str] = field(default_factory=list)
    hid: int = field(default=0, metadata={"low": 0, "high": 4})
    found: bool = False
    interrogated: list[str] = field(default_factory=list)
    must_discard: int = field(default=0, metadata={"help": "discards still owed", "low": 0})


@dataclass(frozen=True, slots=True)
class Reveal:
    """What a player saw of a hand (or of hidden cards), as he remembers it."""

    of: str = field(metadata={"help": "whose hand (hidden:SPACE for hidden cards)"})
    cards: tuple[str, ...] = field(metadata={"help": "the cards seen, sorted"})
    turn: int = field(metadata={"help": "the turn he saw them", "low": 0})
    how: str = field(metadata={"help": "the card or activity that showed them"})


@dataclass(slots=True)
class SideState:
    """Variation 14: a side's first character and whether it has had its first turn."""

    start: str
    started: bool = False


@dataclass
class RiddleState:
    """Everything of a game but the kit's frame (players, options, generator)."""

    seats: list[Player] = field(metadata={"help": "the players in seating order"})
    order: list[str] = field(metadata={"help": "turn order from the first player"})
    draw: list[str] = field(metadata={"help": "the draw pile, top card LAST"})
    discard: list[str] = field(metadata={"help": "the discard stack, top card last"})
    hidden: dict[str, dict[str, list[str]]] = field(
        metadata={"help": "S space -> player -> cards hidden there"}
    )
    cur: int = field(metadata={"help": "index into seats of the player on turn", "low": 0})
    turn: int = field(metadata={"low": 0})
    round: int = field(metadata={"low": 1})
    phase: PhaseName
    t: TurnState
    sub: dict[str, Any] | None = field(
        metadata={"help": "the activity in progress (kind: " + ", ".join(ACTIVITIES) + ")"}
    )
    result: Outcome | None
    seen: dict[str, list[Reveal]] = field(
        metadata={"help": "player -> hands he has seen (newest last)"}
    )
    sides: dict[str, SideState] = field(default_factory=dict)
    side_turn: str | None = None


@dataclass
class RiddlePosition:
    """A Riddle of the Ring situation, written by hand.

    ``players`` (the kit's frame) are the markers in seating order
    (``frodo``, ``sam``, ``merry``, ``pippin``, ``rider1`` ... ``rider4``). Every card
    of the deck appears exactly once: in ``draw`` (top card FIRST), ``discard`` (top
    card first), a hand, a table or ``hidden``.
    """

    to_move: str = field(metadata={"help": "the player on turn (a marker)"})
    phase: PhaseName = field(
        default="start",
        metadata={"help": "start: to roll; main: rolled (give roll); others need turn_state"},
    )
    roll: int = field(
        default=0, metadata={"help": "the die of the turn (phase main)", "low": 0, "high": 6}
    )
    turn_state: TurnState | None = field(
        default=None,
        metadata={
            "help": "the turn in progress (moves made, Power Plays, exchanges due); "
            "left out: the turn of to_move begins as the rules begin it"
        },
    )
    activity: dict[str, Any] | None = field(
        default=None, metadata={"help": "an activity in progress (a battle, a Riddle ...)"}
    )
    away: dict[str, int] = field(
        default_factory=dict, metadata={"help": "marker -> turns ended in Limbo/captivity"}
    )
    riddle_extra: dict[str, int] = field(
        default_factory=dict, metadata={"help": "marker -> cards got by others' wrong guesses"}
    )
    waiting_on_goal: list[str] = field(
        default_factory=list, metadata={"help": "markers that ended their last turn on their goal"}
    )
    goal_seen: list[str] = field(
        default_factory=list, metadata={"help": "markers that have ended a turn on their goal"}
    )
    free_next: list[str] = field(
        default_factory=list, metadata={"help": "markers set free, leaving at their next turn"}
    )
    out: list[str] = field(default_factory=list, metadata={"help": "markers out of the game"})
    places: dict[str, str | None] = field(
        default_factory=dict,
        metadata={
            "help": "marker -> space id or name (referee board-names); null or left out: "
            "not placed yet (the Shire)"
        },
    )
    hands: dict[str, list[str]] = field(
        default_factory=dict,
        metadata={
            "help": "marker -> cards: a card id (boat.3, the_ring) or a title as the List "
            "of Cards prints it (Boat, The Ring: the first copy placed nowhere else)"
        },
    )
    tables: dict[str, list[str]] = field(
        default_factory=dict,
        metadata={"help": "marker -> Cloak/Rope/Boat on the table (ids or titles)"},
    )
    limbo: list[str] = field(default_factory=list, metadata={"help": "markers in Limbo"})
    captives: dict[str, str] = field(
        default_factory=dict, metadata={"help": "captive marker -> his captor (with him)"}
    )
    draw: list[str] = field(
        default_factory=list, metadata={"help": "draw pile, top FIRST (card ids or titles)"}
    )
    draw_rest: bool = field(
        default=False,
        metadata={
            "help": "put every card not listed elsewhere under the draw pile, shuffled "
            "by the seed (positions written by hand need not list the whole deck)"
        },
    )
    discard: list[str] = field(
        default_factory=list, metadata={"help": "discard, top first (card ids or titles)"}
    )
    hidden: dict[str, dict[str, list[str]]] = field(
        default_factory=dict,
        metadata={"help": "S space (id or name) -> marker -> cards hidden there"},
    )
    cities: dict[str, list[str]] = field(
        default_factory=dict,
        metadata={"help": "marker -> the last two cities picked up at (ids or names)"},
    )
    turn: int = field(default=1, metadata={"low": 1})
    round: int = field(default=1, metadata={"low": 1})


# ====================================================================== old files
def migrate_v1(data: dict[str, Any]) -> dict[str, Any]:
    """A version-1 state file (flat keys, written before the kit) in today's layout."""
    if not isinstance(data, dict) or "players" not in data or "state" in data:
        raise StateError("not a Riddle of the Ring state of version 1", code="bad_state")
    try:
        seats = [dict(p) for p in data["players"]]
        t = dict(data.get("t") or {})
        for k in ("retrieved", "used_cards", "entered"):
            t.pop(k, None)
        opts = dict(data.get("options") or {})
        kinds = {p["kind"] for p in seats if p.get("status") != "reserve"} | {
            p["kind"] for p in seats
        }
        names = (
            ["hobbits", "riders"]
            if opts.get("enhanced_two") and kinds == {"hobbit", "rider"}
            else [str(p["name"]) for p in seats]
        )
        state = {
            "seats": seats,
            "order": data["order"],
            "draw": data["draw"],
            "discard": data["discard"],
            "hidden": data["hidden"],
            "cur": data["cur"],
            "turn": data["turn"],
            "round": data["round"],
            "phase": data["phase"],
            "t": t,
            "sub": data.get("sub"),
            "result": _outcome_v1(data.get("result")),
            "seen": data.get("seen") or {},
            "sides": data.get("sides") or {},
            "side_turn": data.get("side_turn"),
        }
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise StateError(
            f"malformed Riddle of the Ring state (version 1): missing or bad {exc}",
            code="bad_state",
        ) from None
    return {
        "rules": data.get("rules"),
        "version": STATE_VERSION,
        "board_hash": data.get("board_hash"),
        "players": names,
        "options": {k: v for k, v in opts.items() if v is not None},
        "rng": data.get("rng"),
        "dice": [],
        "state": state,
    }


def _outcome_v1(result: Any) -> Any:
    if not isinstance(result, dict) or "winners" in result:
        return result
    out = {k: v for k, v in result.items() if k != "winner"}
    if result.get("result") == "won":
        out["winners"] = (
            [result["side"]]
            if result.get("side")
            else list(result.get("team") or [result.get("winner")])
        )
    else:
        out["winners"] = []
    return out
