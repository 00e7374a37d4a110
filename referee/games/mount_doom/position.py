"""Positions of Adventure to Mount Doom: a situation written by hand (the game kit).

A position names figures by the board's node ids, players by name, and piles top
card first; what it leaves out is filled in (see :class:`MountDoomPosition`).
``referee schema position mount-doom`` prints its JSON Schema; an example is
``docs/positions/mount-doom-start.json``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ...errors import StateError
from ..outcome import Outcome
from ..tracks import ask
from .layout import COMPANIONS
from .state import RALLY, MountDoomBase


@dataclass
class RowCard:
    """One card on the encounter row."""

    card: str = field(metadata={"help": "card id"})
    up: bool = field(default=True, metadata={"help": "lying face up"})


@dataclass
class MountDoomPosition:
    """A situation of Adventure to Mount Doom.

    Figures stand on node ids of the board; piles are listed **top card first**.
    Left out: ``decks`` (the later stages' cards not placed elsewhere, in the pack's
    order), ``gandalf_stack`` (the Gandalf cards not held or boxed), ``box`` (every
    other card but those in ``unseen``), ``queue`` (the start of ``to_move``'s turn).
    """

    companions: dict[str, str] = field(
        metadata={"help": "companion -> route node id (or the rally space's node)"}
    )
    ring: str = field(metadata={"help": "node id of the One Ring on the resolve track"})
    row: list[list[RowCard]] = field(
        metadata={"help": "the six encounter positions, each a stack bottom first"}
    )
    to_move: str = field(default="", metadata={"help": "the player whose turn it is"})
    turn: int = field(default=1, metadata={"help": "turns played, from 1", "low": 1})
    stage: int = field(
        default=1, metadata={"help": "1 Lothlórien ... 6 Mount Doom", "low": 1, "high": 6}
    )
    held: dict[str, str] = field(
        default_factory=dict, metadata={"help": "card lying face up -> the player it lies before"}
    )
    decks: dict[str, list[str]] | None = field(
        default=None, metadata={"help": "stage -> its face-down encounter stack, top first"}
    )
    gandalf_stack: list[str] | None = field(
        default=None, metadata={"help": "the face-down Gandalf stack, top first"}
    )
    box: list[str] | None = field(default=None, metadata={"help": "cards back in the box"})
    unseen: list[str] = field(
        default_factory=list,
        metadata={"help": "cards put back in the box unseen (nobody knows which)"},
    )
    nazgul: int = field(
        default=1,
        metadata={"help": "Nazgûl at Minas Morgul, the Witch-king included", "low": 1, "high": 9},
    )
    uruk: int = field(
        default=0, metadata={"help": "Uruk-hai warriors at Isengard", "low": 0, "high": 5}
    )
    leader: bool = field(default=True, metadata={"help": "the Uruk-hai leader is at Isengard"})
    witch_king_defeated: bool = False
    treebeard_token: bool = False
    gandalf_token: bool = False
    stage_over: bool = field(
        default=False, metadata={"help": "the stage goal was reached this turn"}
    )
    cocooned: bool = False
    uruk_wins: int = 0
    rolled: dict[str, Any] = field(default_factory=dict, metadata={"help": "the dice phase's roll"})
    tray: list[dict[str, Any]] = field(default_factory=list, metadata={"help": "dice on the tray"})
    queue: list[dict[str, Any]] | None = field(
        default=None, metadata={"help": "operations and decisions pending (advanced)"}
    )
    result: Outcome | None = field(default=None, metadata={"help": "the outcome, if over"})


class MountDoomPositions(MountDoomBase):
    """:meth:`dump_position` and :meth:`load_position` (the kit does the rest)."""

    def dump_position(self) -> MountDoomPosition:
        lay = self.lay
        start = self.queue == [ask("start")] and not self.rolled and not self.tray
        return MountDoomPosition(
            companions={c: lay.rally if p == RALLY else lay.route[p] for c, p in self.pos.items()},
            ring=lay.resolve[self.ring],
            row=[[RowCard(e["card"], e["up"]) for e in stack] for stack in self.row],
            to_move=self.players[self.current],
            turn=self.turn,
            stage=self.stage,
            held={e["card"]: self.players[e["owner"]] for e in self.held},
            decks={k: list(v) for k, v in self.decks.items()},
            gandalf_stack=list(self.gandalf_stack),
            box=list(self.box),
            unseen=list(self.unseen),
            nazgul=self.nazgul,
            uruk=self.uruk,
            leader=self.leader,
            witch_king_defeated=self.witch_king_defeated,
            treebeard_token=self.treebeard_token,
            gandalf_token=self.gandalf_token,
            stage_over=self.stage_over,
            cocooned=self.cocooned,
            uruk_wins=self.uruk_wins,
            rolled=dict(self.rolled),
            tray=[dict(d) for d in self.tray],
            queue=None if start or self.result is not None else [dict(o) for o in self.queue],
            result=self.result,
        )

    def load_position(self, position: Any) -> None:
        p: MountDoomPosition = position
        lay = self.lay
        index = {n: k for k, n in enumerate(lay.route)}
        for c, node in p.companions.items():
            if c not in COMPANIONS:
                raise StateError(f"position.companions: no companion {c!r}", code="bad_state")
            if node == lay.rally:
                self.pos[c] = RALLY
            elif node in index:
                self.pos[c] = index[node]
            else:
                raise StateError(
                    f"position.companions.{c}: {node!r} is not a space of the route",
                    code="bad_state",
                )
        if p.ring not in lay.resolve:
            raise StateError(
                f"position.ring: {p.ring!r} is not a space of the resolve track", code="bad_state"
            )
        self.ring = lay.resolve.index(p.ring)
        if p.to_move and p.to_move not in self.players:
            raise StateError(f"position.to_move: no player {p.to_move!r}", code="bad_state")
        self.current = self.players.index(p.to_move) if p.to_move else 0
        self.held = []
        for card, who in p.held.items():
            if who not in self.players:
                raise StateError(f"position.held.{card}: no player {who!r}", code="bad_state")
            self.held.append({"card": card, "owner": self.players.index(who)})
        self.row = [[{"card": rc.card, "up": rc.up} for rc in stack] for stack in p.row]
        for name in (
            "turn",
            "stage",
            "nazgul",
            "uruk",
            "leader",
            "witch_king_defeated",
            "treebeard_token",
            "gandalf_token",
            "stage_over",
            "cocooned",
            "uruk_wins",
            "rolled",
            "tray",
            "result",
        ):
            setattr(self, name, getattr(p, name))
        self.unseen = list(p.unseen)
        placed = {e["card"] for e in self.held} | {e["card"] for s in self.row for e in s}
        placed |= set(self.unseen)
        if p.decks is not None:
            self.decks = {k: list(v) for k, v in p.decks.items()}
        else:
            self.decks = {
                str(s): [c for c in lay.stage_decks[s] if c not in placed] if s > p.stage else []
                for s in range(1, 7)
            }
        placed |= {c for d in self.decks.values() for c in d}
        if p.gandalf_stack is not None:
            self.gandalf_stack = list(p.gandalf_stack)
        else:
            self.gandalf_stack = [c for c in lay.gandalf_deck if c not in placed]
        placed |= set(self.gandalf_stack)
        if p.box is not None:
            self.box = list(p.box)
        else:
            self.box = [c for c in lay.cards if c not in placed]
        if p.queue is not None:
            self.queue = [dict(o) for o in p.queue]
        else:
            self.queue = [] if p.result is not None else [ask("start")]
        if self.result is not None:
            self.phase = "over"
        elif self.queue and self.queue[0].get("op") == "ask":
            self.phase = str(self.queue[0].get("phase"))
