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
from ..tracks import Op, ask
from .layout import COMPANIONS, RINGBEARER
from .names import place_names
from .state import RALLY, MountDoomBase


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


#: the decisions a position may await without a written queue (see MountDoomPositions)
DICE_PHASES = ("start", "place1", "roll2", "place2", "resolve")
#: the decisions while a black die's encounter is carried out, at ``at``
ENCOUNTER_PHASES = ("turned", "battle", "gandalf", "boromir", "advance", "army", "denethor")
#: the decisions of a battle (``battle`` names its card, ``uruk_battles`` the Uruk-hai's)
BATTLE_PHASES = ("battle", "gandalf", "boromir")


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


class MountDoomPositions(MountDoomBase):
    """:meth:`dump_position` and :meth:`load_position` (the kit does the rest)."""

    def _check_cards(self, p: MountDoomPosition) -> None:
        """Refuse a card the pack lacks where the position writes it (the field as
        written, the nearest card suggested), and a game going on with nine Nazgûl."""
        lost = [c for c in COMPANIONS if c not in p.companions]
        if lost:
            raise _bad(
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
            raise _bad("row", f"{len(p.row)} encounter positions, not 6")
        if p.nazgul >= 9 and p.result is None:
            raise _bad(
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
            raise _bad(f"decks.{key}", "no stage of that number (1 to 6)")
        rest = [c for c in lay.gandalf_deck if c not in placed]
        self.rng.shuffle(rest)
        self.gandalf_stack = list(p.gandalf_stack or []) + rest
        placed |= set(rest)
        if p.box is not None:
            self.box = list(p.box)
            lost = [c for c in lay.cards if c not in placed]
            if lost:
                raise _bad(
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
                raise _bad("phase", f"{p.phase!r}, but the queue awaits {awaited!r}")
        elif p.result is not None:
            self.queue = []
        else:
            fight = p.battle is not None or p.uruk_battles is not None
            phase = p.phase or ("battle" if fight else self._phase_of_dice())
            if p.battle is not None and phase not in BATTLE_PHASES:
                raise _bad(
                    "battle", f"names the card of phases battle, gandalf, boromir, not of {phase}"
                )
            if p.uruk_battles is not None and phase not in BATTLE_PHASES:
                raise _bad(
                    "uruk_battles",
                    f"counts the battles of phases battle, gandalf, boromir, not of {phase}",
                )
            if p.at is not None and phase not in ENCOUNTER_PHASES:
                raise _bad(
                    "at",
                    f"names the encounter of phases {', '.join(ENCOUNTER_PHASES)}, not of {phase}",
                )
            if p.before_roll and phase not in ("vision", "friends"):
                raise _bad("before_roll", f"says how phases vision and friends go on, not {phase}")
            if p.left_out is not None and phase != "friends":
                raise _bad(
                    "left_out",
                    f"names the card Gandalf's Vision left out at phase friends, not {phase}",
                )
            if p.turned is not None and phase != "turned":
                raise _bad("turned", f"names the card of phase turned, not of {phase}")
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
                raise _bad("phase", f"{phase!r} needs the queue position() writes for it")
            else:
                self._check_dice_phase(phase)
                self.queue = self._dice_queue(phase)
        if self.result is not None:
            self.phase = "over"
        elif self.queue and self.queue[0].get("op") == "ask":
            self.phase = str(self.queue[0].get("phase"))

    # ------------------------------------------------------------------ the dice phase
    def _phase_of_dice(self) -> str:
        """The decision awaited, read from the dice rolled and placed (no ``phase``)."""
        if len(self.tray) == 4:
            return "resolve"
        if len(self.tray) == 2:
            return "roll2" if "keep" in self.rolled else "place2"
        if self.tray:
            raise _bad("tray", f"{len(self.tray)} dice: the tray holds 2 (side 1) or 4")
        return "place1" if self.rolled else "start"

    def _check_dice_phase(self, phase: str, battle: bool = False, shown: str = "") -> None:
        """Refuse dice that do not fit the decision ``phase`` (one line, the field named;
        ``shown``: the phase the position wrote, when it is a decision of resolving)."""
        said = shown or phase
        dice = {"start": 0, "place1": 0, "roll2": 2, "place2": 2, "resolve": 4}[phase]
        if self.final_stage and phase != "start":
            raise _bad("phase", f"{phase!r}: the final stage has only the Mount Doom roll (start)")
        if len(self.tray) != dice:
            raise _bad("tray", f"{len(self.tray)} dice, but in phase {said} it holds {dice}")
        want = [(1, "encounter"), (1, "companion"), (2, "encounter"), (2, "companion")][:dice]
        got = [(d["side"], d["kind"]) for d in self.tray]
        if got != want:
            order = ", ".join(f"side {s} {k}" for s, k in want)
            raise _bad("tray", f"the dice lie {order}, in this order")
        done = [bool(d.get("done")) for d in self.tray]
        if (phase != "resolve" and any(done)) or done != sorted(done, reverse=True):
            raise _bad("tray", "dice are resolved in order: only the first ones can be done")
        if phase == "resolve" and all(done) and not battle:
            raise _bad("tray", "every die is resolved: the turn is over (no phase resolve)")
        keys = {
            "start": set(),
            "place1": {"black", "dice", "used"},
            "roll2": {"black", "keep", "used"},
            "place2": {"black", "dice", "used"},
            "resolve": set(),
        }[phase]
        if set(self.rolled) != keys:
            need = ", ".join(sorted(keys)) or "nothing"
            raise _bad("rolled", f"in phase {said} the roll holds {need}")
        if keys:
            self._check_roll(phase)

    def _check_roll(self, phase: str) -> None:
        """Refuse a dice phase's roll the rules cannot have left (one line)."""
        r = self.rolled
        black, used = r["black"], r["used"]
        dice = r.get("dice", {})
        placed = self.tray[1]["who"] if self.tray else None
        ok_dice = isinstance(dice, dict) and all(
            c in COMPANIONS and isinstance(v, int) and 1 <= v <= 6 for c, v in dice.items()
        )
        if not ok_dice or len(dice) != (0 if phase == "roll2" else 2):
            raise _bad("rolled.dice", "two companion dice, companion -> value 1 to 6")
        if not (isinstance(black, list) and all(isinstance(v, int) and 1 <= v <= 6 for v in black)):
            raise _bad("rolled.black", "the black dice's values, 1 to 6")
        if len(black) != (2 if phase == "place1" else 1):
            raise _bad(
                "rolled.black", f"{len(black)} black dice, not {2 if phase == 'place1' else 1}"
            )
        n_used = {"place1": 2, "roll2": 2, "place2": 3}[phase]
        ok_used = isinstance(used, list) and all(isinstance(c, str) for c in used)
        if not (ok_used and len(set(used)) == len(used) == n_used):
            raise _bad("rolled.used", f"the {n_used} companions whose dice were rolled this turn")
        if not set(dice) <= set(used) or (placed is not None and placed not in used):
            raise _bad("rolled.used", "every companion die rolled or placed this turn")
        if phase == "roll2" and (r["keep"] not in used or r["keep"] == placed):
            raise _bad("rolled.keep", "the companion die of the first roll not placed")
        if placed in dice:
            raise _bad("rolled.dice", f"the {placed} die lies on the tray already")

    def _encounter_at(self, at: int | None, what: str, phase: str) -> tuple[int, list[Op]]:
        """The encounter position a black die being carried out points to, and the
        rest of the turn after its card: the tray's last resolved die a black one
        (``at`` must agree), the dice after it still to come; in the final stage
        ``at`` itself (the Mount Doom roll), then the Ring-bearer's step."""
        if self.final_stage:
            if self.tray or self.rolled:
                raise _bad("tray", "the final stage uses no dice tray (one black die)")
            if at is None:
                raise _bad("at", f"{what} in the final stage: give the Mount Doom roll's black die")
            return at, [{"op": "final_step"}, {"op": "end_turn"}]
        self._check_dice_phase("resolve", battle=True, shown=phase)
        done = [i for i, d in enumerate(self.tray) if d.get("done")]
        if not done or self.tray[done[-1]]["kind"] != "encounter":
            raise _bad("tray", f"{what} comes from a black die already resolved (done)")
        value = int(self.tray[done[-1]]["value"])
        if at is not None and at != value:
            raise _bad("at", f"{at}, but the tray's last resolved black die shows {value}")
        return value, self._dice_queue("resolve")

    def _turned_queue(self, at: int | None, turned: str | None = None) -> list[Op]:
        """The queue paused after the card at ``at`` (``turned``, or the one face up
        there) was turned face up: the players may use "any time" cards, then its
        effects, then the rest of the turn."""
        value, rest = self._encounter_at(at, "a card turned face up", "turned")
        card = self._card_met(value, turned, "turned")
        if card["kind"] == "friend" or not card.get("effects"):
            raise _bad(
                "phase",
                f"turned: {card['id']} at position {value} has nothing to carry out (a friend "
                "is taken at once)",
            )
        effects: list[Op] = [
            {"op": "effect", "effect": dict(e, position=value)} for e in card["effects"]
        ]
        return [ask("turned", position=value, card=card["id"]), *effects, *rest]

    def _battle_queue(
        self,
        card: str | None,
        at: int | None = None,
        phase: str = "battle",
        uruk_battles: int | None = None,
    ) -> list[Op]:
        """The queue of a battle about to be fought (``battle``) or whose battle die
        showed Gandalf (``gandalf``: a Gandalf card may save it): the tray's last
        resolved die a black one whose Encounter card (``card``, or the one lying face
        up at its position) calls for a battle, the dice after it still to come; an
        Uruk-hai card's (``uruk_battles`` of them still to fight) also ``boromir``."""
        value, rest = self._encounter_at(at, "a battle", phase)
        card = self._card_met(value, card, "battle")["id"]
        effects = self.lay.cards[card].get("effects", [])
        uruk = next((k for k, e in enumerate(effects) if e["op"] == "uruk_hai"), None)
        if uruk_battles is not None or uruk is not None:
            return self._uruk_queue(card, value, uruk, uruk_battles, phase, rest)
        if phase == "boromir":
            raise _bad(
                "uruk_battles",
                "phase boromir comes after a lost battle against one Uruk-hai: an Uruk-hai "
                "card's battles still to fight, this one included",
            )
        fight = next((e for e in effects if e["op"] == "battle"), None)
        if fight is None or int(fight.get("count", 1)) != 1:
            raise _bad("battle", f"{card!r} is no Encounter card of one battle (name it here)")
        b = {"hearts": int(fight.get("hearts", 1)), "on_loss": fight.get("on_loss", [])}
        return [ask(phase, battle=b | {"uruk": False}), *rest]

    def _uruk_queue(
        self,
        card: str,
        value: int,
        uruk: int | None,
        battles: int | None,
        phase: str,
        rest: list[Op],
    ) -> list[Op]:
        """The queue in the middle of an Uruk-hai card's battles ("You must carry out,
        one after another, as many battles as there are Uruk-hai (including their
        leader) at Isengard"): ``battles`` still to fight, this one (awaiting ``phase``)
        included, then the warrior removed for a battle won, the card's other effects
        and the rest of the turn."""
        if uruk is None:
            raise _bad("uruk_battles", f"{card} at encounter position {value} is no Uruk-hai card")
        if battles is None:
            raise _bad(
                "uruk_battles",
                f"{card} is an Uruk-hai card: give the battles still to fight, this one "
                "included (1 to the Uruk-hai at Isengard, leader included)",
            )
        figures = self.uruk + int(self.leader)
        # with Treebeard's token each battle won removed its figure already
        most = figures if self.treebeard_token else figures - self.uruk_wins
        if battles > most:
            why = (
                "one per figure left at Isengard (Treebeard's token: each won removed its own)"
                if self.treebeard_token
                else f"the {figures} at Isengard (leader included) less the {self.uruk_wins} "
                "won (uruk_wins)"
            )
            raise _bad("uruk_battles", f"{battles}, but at most {max(most, 0)} are left: {why}")
        effects = self.lay.cards[card]["effects"]
        b: dict[str, Any] = {"hearts": int(effects[uruk].get("hearts", 1)), "on_loss": []}
        b["uruk"] = True
        if phase == "boromir":
            if not self._usable_cards(("lost_uruk_battle",)):
                raise _bad("held", "phase boromir: nobody holds Boromir's card unused")
            first = ask("boromir", battle=dict(b, boromir_asked=True))
        else:
            first = ask(phase, battle=b)
        later: list[Op] = [{"op": "battle", "battle": dict(b)} for _ in range(battles - 1)]
        after: list[Op] = [
            {"op": "effect", "effect": dict(e, position=value)} for e in effects[uruk + 1 :]
        ]
        return [first, *later, {"op": "uruk_cleanup"}, *after, *rest]

    def _stage_end_queue(
        self, phase: str, before_roll: bool = False, left_out: str | None = None
    ) -> list[Op]:
        """The queue at the end of a stage: ``vision`` (Gandalf's Vision may send a card
        of the next stage back to the box before it is laid out) or, the Ring-bearer
        at Minas Morgul, ``friends`` (Friends in Need: which unused cards count), then
        the next player's turn; ``before_roll``: a card ended the stage at the start of
        a turn (Faramir), and that turn's roll follows; ``left_out`` (friends): the card
        Gandalf's Vision sends back as the final stage is laid out."""
        then: Op = ask("start") if before_roll else {"op": "next_player"}
        if self.tray or self.rolled:
            raise _bad("tray", f"phase {phase} comes after the turn's dice (tray and rolled empty)")
        if phase == "vision":
            if not self.stage_over or self.stage >= 6:
                raise _bad("stage_over", "phase vision comes at a stage's end (stage_over true)")
            return [ask("vision"), then]
        if self.stage != 6 or any(self.row) or self.stage_over:
            raise _bad(
                "stage",
                "phase friends comes as the final stage begins (stage 6, its row not laid "
                "out yet, stage_over false)",
            )
        mm = self.lay.minas_morgul
        helpers = [c for c in COMPANIONS if c != RINGBEARER and self.pos[c] == mm]
        if left_out is not None and left_out not in self.decks["6"]:
            raise _bad("left_out", f"{left_out} is no card of the final stage's deck (decks.6)")
        setup = {"op": "final_setup", "leave_out": left_out, "helpers": helpers}
        return [ask("friends"), setup, then]

    def _written_encounter(self) -> tuple[int | None, str | None, str | None, int | None, bool]:
        """``at``, ``turned``, ``battle`` and ``uruk_battles`` that rebuild the queue of
        the card being carried out (phase turned or battle), and whether any do."""
        at, turned, battle, derived = self._written_card()
        if derived or self.phase not in BATTLE_PHASES or not self.queue:
            return at, turned, battle, None, derived
        if not self.queue[0].get("battle", {}).get("uruk"):
            return at, turned, battle, None, derived
        ops = [o.get("op") for o in self.queue]
        end = ops.index("uruk_cleanup") if "uruk_cleanup" in ops else 0
        battles = 1 + ops[:end].count("battle")
        try:
            if self._battle_queue(None, None, self.phase, battles) == self.queue:
                return None, None, None, battles, True
        except StateError:
            pass
        return None, None, None, None, False

    def _written_card(self) -> tuple[int | None, str | None, str | None, bool]:
        """``at``, ``turned`` and ``battle`` that rebuild the queue of the card being
        carried out (phase turned or battle), and whether any do."""
        first = self.queue[0] if self.queue else {}
        if self.phase == "turned":
            at = first.get("position")
            for named in (None, first.get("card")):
                try:
                    if self._turned_queue(at, named) == self.queue:
                        return at, named, None, True
                except StateError:
                    continue
            return None, None, None, False
        if self.phase in ("vision", "friends"):
            try:
                derived = self._stage_end_queue(self.phase) == self.queue
            except StateError:
                derived = False
            return None, None, None, derived
        if self.phase in ("advance", "army", "denethor"):
            for at in dict.fromkeys((first.get("position"), None)):
                try:
                    queue = (
                        self._advance_queue(at)
                        if self.phase == "advance"
                        else self._card_decision_queue(self.phase, at)
                    )
                except StateError:
                    continue
                if queue == self.queue:
                    return at, None, None, True
            return None, None, None, False
        once = [c for c in self.box if self.lay.cards.get(c, {}).get("once")]
        for card in (None, *once):
            try:
                if self._battle_queue(card, None, self.phase) == self.queue:
                    return None, None, card, True
            except StateError:
                continue
        return None, None, None, False

    def _advance_queue(self, at: int | None) -> list[Op]:
        """The queue awaiting ``advance``: the black die at ``at`` found no card, and
        the companion symbol printed there may move 0, 1 or 2 spaces."""
        value, rest = self._encounter_at(at, "a companion symbol", "advance")
        if self.row[value - 1]:
            raise _bad("row", f"phase advance: encounter position {value} holds a card, no symbol")
        sym = self.lay.row_symbols[value - 1]
        if sym not in COMPANIONS:
            raise _bad("at", f"encounter position {value} shows {sym}, no companion's symbol")
        return [ask("advance", who=sym), *rest]

    def _card_decision_queue(self, phase: str, at: int | None) -> list[Op]:
        """The queue awaiting ``army`` (where the Army of the Dead goes) or ``denethor``
        (which companion die Denethor rolls again): the card face up at ``at`` asks it,
        its other effects and the rest of the turn follow."""
        value, rest = self._encounter_at(at, f"phase {phase}", phase)
        card = self._card_met(value, None, "at")
        op = {"army": "army_of_the_dead", "denethor": "reroll_companion_die"}[phase]
        effects = [dict(e, position=value) for e in card.get("effects", [])]
        k = next((i for i, e in enumerate(effects) if e["op"] == op), None)
        if k is None:
            raise _bad("at", f"{card['id']} at encounter position {value} asks for no {phase}")
        after: list[Op] = [{"op": "effect", "effect": e} for e in effects[k + 1 :]]
        if phase == "army":
            k0 = value - 1  # the Army goes to the next card left or right (effects._army)
            dirs = [
                d
                for d, step in (("left", -1), ("right", 1))
                if any(self.row[j] for j in range(k0 + step, 6 if step > 0 else -1, step))
            ]
            if not dirs:
                raise _bad("row", "the Army of the Dead has no card to go to, left or right")
            return [ask("army", position=value, directions=dirs), *after, *rest]
        sides = [d["side"] for d in self.tray if d["kind"] == "companion" and not d.get("done")]
        if len(sides) != 2:
            raise _bad("tray", "Denethor asks which die only while both companion dice wait")
        return [ask("denethor", sides=sides), *after, *rest]

    def _card_met(self, value: int, named: str | None, key: str) -> dict[str, Any]:
        """The Encounter card being carried out at position ``value``: ``named`` (the
        position's ``key``) or the card face up there. A named card lies face up there,
        or is one put back in the box once met (it lies in the box)."""
        stack = self.row[value - 1]
        top = stack[-1]["card"] if stack and stack[-1]["up"] else None
        if named is None:
            if top is None:
                raise _bad(
                    key,
                    f"no card lies face up at encounter position {value}: name the card "
                    "(one put back in the box once met)",
                )
            return self.lay.cards[top]
        if named not in self.lay.cards:
            raise unknown(f"position.{key}", "card of the pack", named, sorted(self.lay.cards))
        card = self.lay.cards[named]
        if named != top and not (card.get("once") and named in self.box):
            raise _bad(
                key,
                f"{named} is neither the card face up at encounter position {value} nor "
                "one put back in the box once met (in box)",
            )
        return card

    def _dice_queue(self, phase: str) -> list[Op]:
        """The queue awaiting ``phase`` of the dice phase, as play leaves it."""
        if phase == "resolve":
            seq: list[Op] = []
            for i, d in enumerate(self.tray):
                if not d.get("done"):
                    seq += [ask("resolve"), {"op": "die", "i": i}]
            return [*seq, {"op": "end_turn"}]
        return [ask(phase)] if phase in DICE_PHASES else []


def _tray_die(d: TrayDie, k: int, final: bool) -> dict[str, Any]:
    """A position's tray die as the state holds it."""
    if final:
        raise _bad("tray", "the final stage uses no dice tray (one black die, rolled at once)")
    if d.kind == "companion" and d.who not in COMPANIONS:
        raise _bad(f"tray[{k}].who", f"{d.who!r} is no companion ({', '.join(COMPANIONS)})")
    if d.kind == "encounter" and d.who is not None:
        raise _bad(f"tray[{k}].who", "a black encounter die belongs to no companion")
    out: dict[str, Any] = {"side": d.side, "kind": d.kind, "value": d.value}
    if d.who is not None:
        out["who"] = d.who
    if d.done:
        out["done"] = True
    return out


def _bad(where: str, what: str) -> StateError:
    return StateError(f"position.{where}: {what}", code="bad_state")
