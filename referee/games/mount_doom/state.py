"""The declared state of a game of Adventure to Mount Doom, and what it must satisfy.

:class:`MountDoomState` lists every field a saved game holds (JSON values, checked
for type on load by :func:`referee.games.tracks.check_type`); :class:`MountDoomBase`
adds the board's :class:`~.layout.Layout`, the queries the rules ask of a state,
and the checks of meaning a loaded state must pass (:meth:`MountDoomBase._validate`)
or a running game must keep (:meth:`MountDoomBase.invariants`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ...compiler import CompiledBoard
from ..events import Event
from ..outcome import Outcome
from ..rng import Rng
from ..tracks import Op, need
from .layout import COMPANIONS, RINGBEARER, Layout
from .moves import PHASES as MOVE_PHASES
from .moves import VARIANTS

#: the position of a companion on the rally space beside Minas Morgul
RALLY = -1
#: every phase a decision can be asked in
PHASES = tuple(p for p in MOVE_PHASES if p != "over")
#: every queued operation
OPS = (
    "ask",
    "die",
    "encounter",
    "final_step",
    "end_turn",
    "next_player",
    "stage_end",
    "effect",
    "battle",
    "final_setup",
    "uruk_cleanup",
)


@dataclass(eq=False, repr=False)
class MountDoomState:
    """Every field of a saved game's ``state`` (the players, options and generator
    are the kit's part of the file).

    Attributes
    ----------
    current, turn : int
        Index of the player whose turn it is; turns played so far (from 1).
    pos : dict of str to int
        Route index of every companion (``-1``: the rally space).
    ring : int
        Index of the One Ring on the resolve track (0: the bright heart end).
    nazgul, uruk : int
        Nazgûl at Minas Morgul (Witch-king included, 1 to 9); Uruk-hai warriors at
        Isengard (0 to 5).
    witch_king_defeated, leader, treebeard_token, gandalf_token : bool
        Éowyn's victory; the Uruk-hai leader still at Isengard; the two tokens.
    stage : int
        The stage being played (1 Lothlórien ... 6 Mount Doom).
    stage_over, cocooned : bool
        The Ring-bearer reached the stage goal this turn; Shelob cocooned him.
    uruk_wins : int
        Battles won in the current Uruk-hai encounter.
    decks : dict of str to list of str
        The face-down encounter stacks by stage (``"1"`` ... ``"6"``), top first.
    gandalf_stack, box : list of str
        The face-down Gandalf stack (top first); cards back in the box that the
        players saw go there (used, removed, turned up, chosen by Gandalf's Vision).
    unseen : list of str
        Cards put back in the box unseen: the 7th card of a stage, the cards still
        face down on the row when a stage ends, the Gandalf cards lost. Nobody knows
        which they are (:meth:`~.game.MountDoom.view` shows only how many). A state
        written before this field has none (its box then counts as seen).
    held : list of dict
        Cards lying face up in front of a player: ``{"card", "owner"}``.
    row : list of list of dict
        The six encounter positions, each a stack ``[{"card", "up"}]`` (top last).
    rolled, tray : dict, list of dict
        The dice phase's roll; the dice placed on the tray.
    queue : list of dict
        Operations still to carry out, the first ask the decision awaited.
    phase : str
        The phase of that decision (``over`` once the game ended).
    result : dict or None
        The outcome: ``None`` while the game goes on.
    """

    current: int = 0
    turn: int = 1
    pos: dict[str, int] = field(default_factory=dict)
    ring: int = 0
    nazgul: int = 1
    witch_king_defeated: bool = False
    uruk: int = 0
    leader: bool = True
    treebeard_token: bool = False
    gandalf_token: bool = False
    stage: int = 1
    stage_over: bool = False
    cocooned: bool = False
    uruk_wins: int = 0
    decks: dict[str, list[str]] = field(default_factory=dict)
    gandalf_stack: list[str] = field(default_factory=list)
    held: list[dict[str, Any]] = field(default_factory=list)
    box: list[str] = field(default_factory=list)
    unseen: list[str] = field(default_factory=list)
    row: list[list[dict[str, Any]]] = field(default_factory=list)
    rolled: dict[str, Any] = field(default_factory=dict)
    tray: list[dict[str, Any]] = field(default_factory=list)
    queue: list[Op] = field(default_factory=list)
    phase: str = "start"
    result: Outcome | None = None


class MountDoomBase(MountDoomState):
    """The state with its board: queries and checks (no moves)."""

    compiled: CompiledBoard
    lay: Layout
    players: list[str]
    options: dict[str, Any]
    rng: Rng

    if TYPE_CHECKING:  # the kit's Game.event, which the game class brings in

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

    @property
    def to_move(self) -> str:
        return "nobody" if self.result is not None else self.players[self.current]

    @property
    def friends_in_need(self) -> bool:
        """The Friends in Need variant is played (option ``variant``)."""
        return VARIANTS[self.options["variant"]][0]

    @property
    def without_protection(self) -> bool:
        """The Without Protection and With Personal Friends variant is played."""
        return VARIANTS[self.options["variant"]][1]

    @property
    def final_stage(self) -> bool:
        return self.stage == 6

    def supporters(self) -> list[str]:
        """Companions supporting the Ring-bearer in a battle (DESIGN §6).

        Every companion on the Ring-bearer's space or ahead of him up to and
        including the next stage goal; those behind him, past that goal, or on the
        rally space do not support.
        """
        rb = self.pos[RINGBEARER]
        nxt = next((gi for gi in self.lay.goals if gi > rb), self.lay.mount_doom)
        return [c for c in COMPANIONS if c != RINGBEARER and rb <= self.pos[c] <= nxt]

    def value(self) -> float:
        """A rough heuristic of how well the Fellowship stands (for the greedy policy).

        Ring-bearer progress, resolve left and Nazgûl still in the supply; +-1000 for
        a finished game.
        """
        if self.result is not None:
            return 1000.0 if self.result.result == "won" else -1000.0
        rb = self.pos[RINGBEARER]
        rb += (
            sum(
                d["value"]
                for d in self.tray
                if d["kind"] == "companion" and d["who"] == RINGBEARER and not d.get("done")
            )
            * 0.9
        )
        rb += sum(v for c, v in self.rolled.get("dice", {}).items() if c == RINGBEARER) * 0.5
        return float(
            2.0 * rb
            + 3.0 * (self.lay.dark_end - self.ring)
            + 4.0 * (9 - self.nazgul)
            + 0.5 * len(self.held)
            + 0.3 * len(self.supporters())
            - 0.5 * self.uruk
        )

    def _gandalf_blocked(self) -> bool:
        return self.gandalf_token and self.pos[RINGBEARER] < self.lay.helms_deep

    def _usable(self, entry: dict[str, Any], when: tuple[str, ...]) -> bool:
        card = self.lay.cards[entry["card"]]
        use = card.get("use")
        if not use or use.get("when") not in when:
            return False
        if card["kind"] == "gandalf":
            return not self._gandalf_blocked()
        return not (self.without_protection and entry["owner"] != self.current)

    def _usable_cards(self, when: tuple[str, ...]) -> list[str]:
        return [e["card"] for e in self.held if self._usable(e, when)]

    def _movable(self, who: str) -> bool:
        p = self.pos[who]
        if who == RINGBEARER:
            return not self.stage_over and p < self.lay.mount_doom
        return not self.final_stage and p != RALLY and p < self.lay.minas_morgul

    # ------------------------------------------------------------------ checks on load
    def _validate(self) -> None:
        """Refuse a loaded state that breaks the rules' meaning (one line, the field named).

        Checked: player counts and indices, every companion on the route (or the rally
        space), the Ring on the resolve track, figure counts, every card of the pack
        in exactly one place, the row's six stacks, the decision awaited.
        """
        lay = self.lay
        n = len(self.players)
        need(1 <= n <= 5, "players", f"{n} players (1 to 5)")
        need(0 <= self.current < n, "current", f"no player {self.current}")
        need(self.turn >= 1, "turn", "turns count from 1")
        need(1 <= self.stage <= 6, "stage", f"no stage {self.stage} (1 to 6)")
        need(sorted(self.pos) == sorted(COMPANIONS), "pos", f"companions are {COMPANIONS}")
        for c, p in self.pos.items():
            ok = 0 <= p <= lay.mount_doom or (p == RALLY and c != RINGBEARER)
            need(ok, f"pos.{c}", f"{p} is not a space of the route (0 to {lay.mount_doom})")
        need(0 <= self.ring <= lay.dark_end, "ring", f"{self.ring} is off the resolve track")
        need(1 <= self.nazgul <= 9, "nazgul", f"{self.nazgul} Nazgûl (1 to 9)")
        need(0 <= self.uruk <= 5, "uruk", f"{self.uruk} Uruk-hai warriors (0 to 5)")
        need(self.uruk_wins >= 0, "uruk_wins", "a negative count")
        need(
            sorted(self.decks) == [str(s) for s in range(1, 7)],
            "decks",
            "one stack per stage 1 to 6",
        )
        need(len(self.row) == 6, "row", f"{len(self.row)} encounter positions, not 6")
        for k, stack in enumerate(self.row):
            for e in stack:
                need(
                    isinstance(e.get("card"), str) and isinstance(e.get("up"), bool),
                    f"row[{k}]",
                    'each card is {"card": id, "up": true|false}',
                )
        for i, e in enumerate(self.held):
            owner = e.get("owner")
            need(
                isinstance(e.get("card"), str)
                and isinstance(owner, int)
                and not isinstance(owner, bool)
                and 0 <= owner < n,
                f"held[{i}]",
                'each card is {"card": id, "owner": a player index}',
            )
        locs = self.card_locations()
        unknown = sorted(set(locs) - set(lay.cards))
        need(not unknown, "cards", f"no card {', '.join(unknown)} in the pack")
        missing = sorted(set(lay.cards) - set(locs))
        need(not missing, "cards", f"missing: {', '.join(missing)}")
        double = sorted(c for c, v in locs.items() if v not in _PLACES)
        need(not double, "cards", f"in two places: {', '.join(double)}")
        for c in self.gandalf_stack:
            need(lay.cards[c]["kind"] == "gandalf", "gandalf_stack", f"{c} is no Gandalf card")
        for i, d in enumerate(self.tray):
            need(
                d.get("kind") in ("encounter", "companion") and isinstance(d.get("value"), int),
                f"tray[{i}]",
                "a die is {kind: encounter|companion, value, ...}",
            )
            if d.get("kind") == "companion":
                need(d.get("who") in COMPANIONS, f"tray[{i}].who", "not a companion")
        for i, op in enumerate(self.queue):
            need(op.get("op") in OPS, f"queue[{i}]", f"unknown operation {op.get('op')!r}")
            if op["op"] == "ask":
                need(op.get("phase") in PHASES, f"queue[{i}]", f"unknown phase {op.get('phase')!r}")
        for die in self.rng.fixed:
            need(1 <= die <= 6, "dice", f"a fixed die shows {die} (1 to 6)")
        if self.result is None:
            need(
                bool(self.queue) and self.queue[0]["op"] == "ask",
                "queue",
                "the game waits for no decision",
            )
            need(
                self.phase == self.queue[0]["phase"],
                "phase",
                f"{self.phase!r}, but the decision awaited is {self.queue[0]['phase']!r}",
            )
        else:
            need(
                self.result.result in ("won", "lost"),
                "outcome",
                "result is won or lost",
            )

    # ------------------------------------------------------------------ accounting
    def invariants(self) -> list[str]:
        """Broken invariants (empty when all hold): cards, figures, tokens accounted for.

        ``referee selfplay`` calls this after every move.
        """
        bad: list[str] = []
        locs = self.card_locations()
        if sorted(locs) != sorted(self.lay.cards):
            bad.append("the cards in play are not exactly the cards of the pack")
        double = sorted(c for c, v in locs.items() if v not in _PLACES)
        if double:
            bad.append(f"cards in two places: {', '.join(double)}")
        if not 1 <= self.nazgul <= 9:
            bad.append(f"{self.nazgul} Nazgûl at Minas Morgul")
        if not 0 <= self.uruk <= 5:
            bad.append(f"{self.uruk} Uruk-hai warriors at Isengard")
        if not 0 <= self.ring <= self.lay.dark_end:
            bad.append("the One Ring is off the resolve track")
        if (
            any(not (p == RALLY or 0 <= p <= self.lay.mount_doom) for p in self.pos.values())
            or self.pos[RINGBEARER] < 0
        ):
            bad.append("a companion is off the route")
        if self.result is None and not (self.queue and self.queue[0]["op"] == "ask"):
            bad.append("the game waits for no decision")
        return bad

    def card_locations(self) -> dict[str, str]:
        """Where every card is: ``deck``, ``gandalf_stack``, ``row``, ``held``, ``box``,
        ``unseen`` (in the box, unseen)."""
        out: dict[str, str] = {}
        for d in self.decks.values():
            for c in d:
                out[c] = out.get(c, "") + "deck"
        for c in self.gandalf_stack:
            out[c] = out.get(c, "") + "gandalf_stack"
        for stack in self.row:
            for e in stack:
                out[e["card"]] = out.get(e["card"], "") + "row"
        for e in self.held:
            out[e["card"]] = out.get(e["card"], "") + "held"
        for c in self.box:
            out[c] = out.get(c, "") + "box"
        for c in self.unseen:
            out[c] = out.get(c, "") + "unseen"
        return out


_PLACES = ("deck", "gandalf_stack", "row", "held", "box", "unseen")
