"""Positions of Adventure to Mount Doom: a situation written by hand (the game kit).

A position names figures by the board's node ids, players by name, and piles top
card first; what it leaves out is filled in (see :class:`MountDoomPosition`).
``referee schema position mount-doom`` prints its JSON Schema; an example is
``docs/positions/mount-doom-start.json``.
"""

from __future__ import annotations

from contextlib import suppress
from dataclasses import dataclass, field
from typing import Any, Literal

from ...errors import StateError
from ..names import CardTitles, resolve, unknown
from ..outcome import Outcome
from ..tracks import refuse_position
from .layout import COMPANIONS
from .names import place_names
from .position_queue import BATTLE_PHASES, DICE_PHASES, MountDoomPositionQueue
from .state import RALLY


@dataclass
class RowCard:
    """One card on the encounter row."""

    card: str = field(
        metadata={"help": "the card: its id or its title (Galadriel, Watcher in the Water)"}
    )
    up: bool = field(default=True, metadata={"help": "lying face up"})


@dataclass
class TrayDie:
    """A die placed on the dice tray (side 1 is resolved first, black die before colour)."""

    side: int = field(metadata={"help": "1 (left, resolved first) or 2", "low": 1, "high": 2})
    kind: Literal["encounter", "companion"] = field(
        metadata={"help": "a black encounter die or a coloured companion die"}
    )
    value: int = field(metadata={"help": "what it shows", "low": 1, "high": 6})
    who: str | None = field(
        default=None, metadata={"help": "a companion die's companion (none for a black die)"}
    )
    done: bool = field(default=False, metadata={"help": "already resolved this turn"})


#: the decisions while a black die's encounter is carried out, at ``at``
ENCOUNTER_PHASES = ("turned", "battle", "gandalf", "boromir", "advance", "army", "denethor")


@dataclass
class MountDoomPosition:
    """A situation of Adventure to Mount Doom.

    Figures stand on node ids of the board; piles are listed **top card first**.
    ``decks`` (per stage to come) and ``gandalf_stack`` list their top: the cards of
    that stage (the Gandalf cards) placed nowhere else are dealt under it from the
    position's seed (``docs/reference/positions.md``). Left out: ``box`` (every other
    card but those in ``unseen``), ``phase`` (read from ``tray`` and ``rolled``:
    nothing rolled is the start of ``to_move``'s turn, four dice on the tray the
    resolution phase), ``queue`` (the rest of the turn, from ``phase``).

    ``phase`` names the decision awaited in the rulebook's order of a turn: ``start``
    (roll the first dice; in the final stage the Mount Doom roll of one black die),
    ``place1``, ``roll2``, ``place2`` (the dice phase, ``rolled`` holding the roll) and
    ``resolve`` (the dice on the ``tray`` resolved in order, the next one the first
    not ``done``), then, while a black die's Encounter card is carried out, ``turned``
    (the card at ``at`` just turned face up: the pause for "any time" cards before it
    is carried out), ``battle`` (a battle die pending), ``advance`` (the companion
    symbol of an empty encounter position: move 0, 1 or 2), ``army`` (where the Army of
    the Dead goes), ``denethor`` (which companion die he rolls again) and ``gandalf``
    (a battle die showed Gandalf); at a stage's end ``vision`` (Gandalf's Vision) and
    ``friends`` (Friends in Need), ``before_roll`` when a card ended the stage at the
    start of a turn (Faramir) and the turn goes on, ``left_out`` the Mount Doom card
    Gandalf's Vision sent back before Friends in Need. A battle against the Uruk-hai is one of
    ``uruk_battles`` still to fight; ``boromir`` is such a battle just lost, Boromir's
    card at hand ("after a lost battle against one Uruk-hai").
    """

    companions: dict[str, str] = field(
        metadata={
            "help": "companion -> his route space: a node id or a name of referee "
            "board-names (Rivendell, Lothlórien, route space 9, the rally space...)"
        }
    )
    ring: str = field(
        metadata={
            "help": "the One Ring's resolve space: a node id or a name (the bright heart, "
            "resolve space 4 counted from the bright heart, the dark heart...)"
        }
    )
    row: list[list[RowCard]] = field(
        metadata={"help": "the six encounter positions, each a stack bottom first"}
    )
    to_move: str = field(default="", metadata={"help": "the player whose turn it is"})
    turn: int = field(default=1, metadata={"help": "turns played, from 1", "low": 1})
    stage: int = field(
        default=1, metadata={"help": "1 Lothlórien ... 6 Mount Doom", "low": 1, "high": 6}
    )
    held: dict[str, str] = field(
        default_factory=dict,
        metadata={"help": "card lying face up (id or title) -> the player it lies before"},
    )
    decks: dict[str, list[str]] | None = field(
        default=None,
        metadata={"help": "stage -> its face-down encounter stack, top first (ids or titles)"},
    )
    gandalf_stack: list[str] | None = field(
        default=None,
        metadata={"help": "the face-down Gandalf stack, top first (ids or titles)"},
    )
    box: list[str] | None = field(
        default=None, metadata={"help": "cards back in the box (ids or titles)"}
    )
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
    witch_king_defeated: bool = field(
        default=False, metadata={"help": "Éowyn defeated the Witch-king: no more Nazgûl are placed"}
    )
    treebeard_token: bool = field(
        default=False, metadata={"help": "the Treebeard token lies at Isengard"}
    )
    gandalf_token: bool = field(
        default=False,
        metadata={"help": "the Balrog's Gandalf token: no Gandalf cards until Helm's Deep"},
    )
    stage_over: bool = field(
        default=False, metadata={"help": "the stage goal was reached this turn"}
    )
    cocooned: bool = field(
        default=False, metadata={"help": "Shelob cocooned the Ring-bearer this turn"}
    )
    uruk_wins: int = field(
        default=0, metadata={"help": "battles won in the Uruk-hai encounter going on", "low": 0}
    )
    rolled: dict[str, Any] = field(
        default_factory=dict,
        metadata={
            "help": "the dice phase's roll: in place1 {black: [2 values], dice: {companion: "
            "value, 2 of them}, used: [those 2]}; in roll2 {black: [value], keep: the "
            "companion not placed, used}; in place2 {black: [value], dice: {2}, used: [3]}"
        },
    )
    tray: list[TrayDie] = field(
        default_factory=list,
        metadata={"help": "dice on the tray in resolution order: side 1 black, colour, side 2"},
    )
    phase: (
        Literal[
            "start",
            "place1",
            "roll2",
            "place2",
            "resolve",
            "turned",
            "advance",
            "army",
            "denethor",
            "battle",
            "gandalf",
            "boromir",
            "vision",
            "friends",
        ]
        | None
    ) = field(
        default=None,
        metadata={
            "help": "the decision awaited (default: read from tray and rolled); turned: "
            "the card at 'at' was just turned face up, the players may use 'any time' "
            "cards before it is carried out; battle: a battle die pending; advance, army, "
            "denethor: the symbol, Army of the Dead or Denethor at 'at'; gandalf: a battle "
            "die showed Gandalf; boromir: a battle against one Uruk-hai lost, Boromir may "
            "roll again; vision, friends: a stage's end"
        },
    )
    battle: str | None = field(
        default=None,
        metadata={
            "help": "phases battle, gandalf, boromir: the Encounter card being fought "
            "(default: the card face up where the last resolved black die points)"
        },
    )
    uruk_battles: int | None = field(
        default=None,
        metadata={
            "help": "phases battle, gandalf, boromir of an Uruk-hai card: the battles against "
            'the Uruk-hai still to fight, this one included ("as many battles as there are '
            'Uruk-hai (including their leader) at Isengard", one after another; '
            "uruk_wins counts those won so far)",
            "low": 1,
            "high": 6,
        },
    )
    at: int | None = field(
        default=None,
        metadata={
            "help": "phases turned, battle, gandalf, boromir, advance, army, denethor: the "
            "encounter position "
            "(1 to 6) being carried out (default: where the tray's last resolved black die points; "
            "the final stage has no tray: the Mount Doom roll's black die, required)",
            "low": 1,
            "high": 6,
        },
    )
    turned: str | None = field(
        default=None,
        metadata={
            "help": "phase turned: the card just turned face up (default: the card face up "
            "at 'at'; a card put back in the box once met, like the Cave Troll, is named "
            "here and lies in box)"
        },
    )
    before_roll: bool = field(
        default=False,
        metadata={
            "help": "phases vision, friends: the stage ended at the start of the turn, before "
            'its roll (Faramir: "the stage ends immediately. The next stage is prepared '
            'directly"); to_move then rolls, in the same turn (default: the stage ended '
            "after the turn's dice, the next player's turn follows)"
        },
    )
    left_out: str | None = field(
        default=None,
        metadata={
            "help": "phase friends: the Mount Doom card Gandalf's Vision sent back to the box "
            "before the final stage (id or title; it lies in decks.6 until the stage is "
            "laid out, the others then face up: the players saw them all)"
        },
    )
    queue: list[dict[str, Any]] | None = field(
        default=None,
        metadata={"help": "operations and decisions pending (advanced: default from phase)"},
    )
    result: Outcome | None = field(default=None, metadata={"help": "the outcome, if over"})


class MountDoomPositions(MountDoomPositionQueue):
    """:meth:`dump_position` and :meth:`load_position` (the kit does the rest)."""

    def _check_cards(self, p: MountDoomPosition) -> None:
        """Refuse a card the pack lacks where the position writes it (the field as
        written, the nearest card suggested), and a game going on with nine Nazgûl."""
        lost = [c for c in COMPANIONS if c not in p.companions]
        if lost:
            raise refuse_position(
                f"companions.{lost[0]}",
                f"missing: every companion stands on a space ({', '.join(COMPANIONS)})",
            )
        titles = self.card_titles()
        seen: dict[str, str] = {}

        def read(c: str, where: str) -> str:
            cid = titles.read(c, where)
            if cid in seen:
                raise StateError(
                    f"{where}: card {cid} is listed twice (also {seen[cid]})", code="bad_state"
                )
            seen[cid] = where
            return cid

        # cards by id or by title (one copy of each card): read as ids from here on
        p.held = {read(c, f"position.held.{c}"): who for c, who in p.held.items()}
        for k, stack in enumerate(p.row):
            for i, rc in enumerate(stack):
                rc.card = read(rc.card, f"position.row[{k}][{i}].card")
        if p.decks is not None:
            p.decks = {
                s: [read(c, f"position.decks.{s}[{i}]") for i, c in enumerate(d)]
                for s, d in p.decks.items()
            }
        for key in ("gandalf_stack", "box", "unseen"):
            pile = getattr(p, key)
            if pile is not None:
                setattr(p, key, [read(c, f"position.{key}[{i}]") for i, c in enumerate(pile)])
        for key in ("battle", "turned", "left_out"):
            if getattr(p, key) is not None:
                setattr(p, key, titles.read(getattr(p, key), f"position.{key}"))
        if len(p.row) != 6:
            raise refuse_position("row", f"{len(p.row)} encounter positions, not 6")
        if p.nazgul >= 9 and p.result is None:
            raise refuse_position(
                "nazgul",
                "the ninth Nazgûl at Minas Morgul ends the game: 8 at most while it goes on",
            )

    def card_titles(self) -> CardTitles:
        """The pack's cards by id and by title (``Galadriel``, ``Watcher in the Water``;
        the four ``Uruk-hai``, two ``Saruman`` and two ``Sauron's Eye`` by id only)."""
        return CardTitles({c: str(d.get("name") or c) for c, d in self.lay.cards.items()})

    def with_card_titles(self, position: dict[str, Any]) -> dict[str, Any]:
        """``position`` with each card written by its title where it names that card
        alone (every card is one copy, so a title always reads back as it)."""
        titles = self.card_titles()
        out = dict(position)

        def each(v: Any) -> Any:
            return [titles.write(c) if isinstance(c, str) else c for c in v]

        if isinstance(out.get("held"), dict):
            out["held"] = {titles.write(c): who for c, who in out["held"].items()}
        if isinstance(out.get("row"), list):
            out["row"] = [
                [
                    {**rc, "card": titles.write(rc["card"])}
                    if isinstance(rc, dict) and isinstance(rc.get("card"), str)
                    else rc
                    for rc in stack
                ]
                for stack in out["row"]
            ]
        if isinstance(out.get("decks"), dict):
            out["decks"] = {s: each(d) for s, d in out["decks"].items()}
        for key in ("gandalf_stack", "box", "unseen"):
            if isinstance(out.get(key), list):
                out[key] = each(out[key])
        for key in ("battle", "turned", "left_out"):
            if isinstance(out.get(key), str):
                out[key] = titles.write(out[key])
        return out

    def dump_position(self) -> MountDoomPosition:
        lay = self.lay
        over = self.result is not None
        derived = not over and self.queue == self._dice_queue(self.phase)
        at = turned = battle = uruk_battles = None
        if not over and not derived and self.phase in (*ENCOUNTER_PHASES, "vision", "friends"):
            # a card being carried out: derived when phase, at and the card rebuild it
            at, turned, battle, uruk_battles, derived = self._written_encounter()
        before_roll, left_out = False, None
        if not over and not derived and self.phase in ("vision", "friends"):
            setup = self.queue[1] if len(self.queue) > 1 else {}
            out = setup.get("leave_out") if self.phase == "friends" else None
            for before in (False, True):  # True: a card ended the stage before the roll
                with suppress(StateError):
                    if self._stage_end_queue(self.phase, before, out) == self.queue:
                        derived, before_roll, left_out = True, before, out
                        break
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
            tray=[
                TrayDie(d["side"], d["kind"], d["value"], d.get("who"), bool(d.get("done")))
                for d in self.tray
            ],
            phase=None if over else self.phase,  # type: ignore[arg-type]
            battle=battle,
            uruk_battles=uruk_battles,
            before_roll=before_roll,
            left_out=left_out,
            at=at,
            turned=turned,
            queue=None if derived or over else [dict(o) for o in self.queue],
            result=self.result,
        )

    def load_position(self, p: MountDoomPosition) -> None:
        lay = self.lay
        index = {n: k for k, n in enumerate(lay.route)}
        route_names = place_names(self.compiled, "route")
        for c, written in p.companions.items():
            if c not in COMPANIONS:
                raise unknown("position.companions", "companion", c, COMPANIONS)
            where = f"position.companions.{c}"
            node = resolve(written, [*lay.route, lay.rally], route_names, where, "route space")
            self.pos[c] = RALLY if node == lay.rally else index[node]
        ring_names = place_names(self.compiled, "resolve")
        ring = resolve(p.ring, lay.resolve, ring_names, "position.ring", "resolve space")
        self.ring = lay.resolve.index(ring)
        if p.to_move and p.to_move not in self.players:
            raise StateError(f"position.to_move: no player {p.to_move!r}", code="bad_state")
        self.current = self.players.index(p.to_move) if p.to_move else 0
        self._check_cards(p)
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
            "result",
        ):
            setattr(self, name, getattr(p, name))
        self.tray = [_tray_die(d, k, self.final_stage) for k, d in enumerate(p.tray)]
        self.unseen = list(p.unseen)
        placed = {e["card"] for e in self.held} | {e["card"] for s in self.row for e in s}
        placed |= set(self.unseen)
        # a pile lists its top; what is placed nowhere else goes under it, dealt from the
        # position's seed (box: only what a given box or unseen does not hold)
        stacks = dict(p.decks or {})
        if p.box is not None:
            placed |= set(p.box)
        placed |= {c for d in stacks.values() for c in d} | set(p.gandalf_stack or [])
        self.decks = {}
        for stage in range(1, 7):
            top = list(stacks.pop(str(stage), []))
            rest = [c for c in lay.stage_decks[stage] if c not in placed]
            # a stage to come, or the final one at Friends in Need (laid out after it)
            if stage > p.stage or (stage == 6 and p.phase == "friends"):
                self.rng.shuffle(rest)
                top += rest
                placed |= set(rest)
            self.decks[str(stage)] = top
        if stacks:
            key = sorted(stacks)[0]
            raise refuse_position(f"decks.{key}", "no stage of that number (1 to 6)")
        rest = [c for c in lay.gandalf_deck if c not in placed]
        self.rng.shuffle(rest)
        self.gandalf_stack = list(p.gandalf_stack or []) + rest
        placed |= set(rest)
        if p.box is not None:
            self.box = list(p.box)
            lost = [c for c in lay.cards if c not in placed]
            if lost:
                raise refuse_position(
                    "box",
                    f"card {lost[0]} is placed nowhere: a box given holds every card no "
                    "other field places (or leave box out)",
                )
        else:
            self.box = [c for c in lay.cards if c not in placed]
        if p.queue is not None:
            self.queue = [dict(o) for o in p.queue]
            first = self.queue[0] if self.queue else {}
            awaited = first.get("phase") if first.get("op") == "ask" else None
            if p.phase is not None and p.phase != awaited:
                raise refuse_position("phase", f"{p.phase!r}, but the queue awaits {awaited!r}")
        elif p.result is not None:
            self.queue = []
        else:
            fight = p.battle is not None or p.uruk_battles is not None
            phase = p.phase or ("battle" if fight else self._phase_of_dice())
            if p.battle is not None and phase not in BATTLE_PHASES:
                raise refuse_position(
                    "battle", f"names the card of phases battle, gandalf, boromir, not of {phase}"
                )
            if p.uruk_battles is not None and phase not in BATTLE_PHASES:
                raise refuse_position(
                    "uruk_battles",
                    f"counts the battles of phases battle, gandalf, boromir, not of {phase}",
                )
            if p.at is not None and phase not in ENCOUNTER_PHASES:
                raise refuse_position(
                    "at",
                    f"names the encounter of phases {', '.join(ENCOUNTER_PHASES)}, not of {phase}",
                )
            if p.before_roll and phase not in ("vision", "friends"):
                raise refuse_position(
                    "before_roll", f"says how phases vision and friends go on, not {phase}"
                )
            if p.left_out is not None and phase != "friends":
                raise refuse_position(
                    "left_out",
                    f"names the card Gandalf's Vision left out at phase friends, not {phase}",
                )
            if p.turned is not None and phase != "turned":
                raise refuse_position("turned", f"names the card of phase turned, not of {phase}")
            if phase in BATTLE_PHASES:
                self.queue = self._battle_queue(p.battle, p.at, phase, p.uruk_battles)
            elif phase in ("vision", "friends"):
                self.queue = self._stage_end_queue(phase, p.before_roll, p.left_out)
            elif phase == "turned":
                self.queue = self._turned_queue(p.at, p.turned)
            elif phase == "advance":
                self.queue = self._advance_queue(p.at)
            elif phase in ("army", "denethor"):
                self.queue = self._card_decision_queue(phase, p.at)
            elif phase not in DICE_PHASES:
                raise refuse_position(
                    "phase", f"{phase!r} needs the queue position() writes for it"
                )
            else:
                self._check_dice_phase(phase)
                self.queue = self._dice_queue(phase)
        if self.result is not None:
            self.phase = "over"
        elif self.queue and self.queue[0].get("op") == "ask":
            self.phase = str(self.queue[0].get("phase"))


def _tray_die(d: TrayDie, k: int, final: bool) -> dict[str, Any]:
    """A position's tray die as the state holds it."""
    if final:
        raise refuse_position(
            "tray", "the final stage uses no dice tray (one black die, rolled at once)"
        )
    if d.kind == "companion" and d.who not in COMPANIONS:
        raise refuse_position(
            f"tray[{k}].who", f"{d.who!r} is no companion ({', '.join(COMPANIONS)})"
        )
    if d.kind == "encounter" and d.who is not None:
        raise refuse_position(f"tray[{k}].who", "a black encounter die belongs to no companion")
    out: dict[str, Any] = {"side": d.side, "kind": d.kind, "value": d.value}
    if d.who is not None:
        out["who"] = d.who
    if d.done:
        out["done"] = True
    return out
