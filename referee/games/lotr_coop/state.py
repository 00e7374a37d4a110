"""The declared state of a game of the cooperative Lord of the Rings, and its checks.

:class:`LotrCoopState` lists every field a saved game holds (JSON values, checked for
type on load); :class:`LotrCoopBase` adds the board's :class:`~.layout.CoopLayout`,
the queries the rules ask of a state, and the checks of meaning a loaded state must
pass (:meth:`LotrCoopBase._validate`) or a running game must keep
(:meth:`LotrCoopBase.invariants`).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ...compiler import CompiledBoard
from ..events import Event
from ..outcome import Outcome
from ..rng import Rng
from ..tracks import Op, need
from .layout import ACTIVITIES, HOBBITS, LIFE, CoopLayout, Scenario
from .moves import PHASES as MOVE_PHASES

#: every phase a decision can be asked in
PHASES = tuple(p for p in MOVE_PHASES if p != "over")
#: every queued operation
OPS = (
    "ask",
    "end_turn",
    "scenario_end",
    "advance",
    "next_event",
    "event_concluded",
    "each",
    "group",
    "group_mixed",
    "volunteer",
    "each_do",
    "ringbearer",
    "active_do",
    "sauron",
    "advance_main",
    "dark",
    "light",
    "draw",
    "die",
    "die_discard",
    "missing_life",
    "deal_features",
    "mount_doom_roll",
    "mount_doom_check",
)


#: :meth:`LotrCoopBase.value` points per Scenario completed
PER_SCENARIO = 40.0
#: how much another Hobbit's distance to Sauron counts, next to the Ring-bearer's
OTHERS = 0.3
#: the value's offset: a Fellowship setting out for Moria stands near -40
CENTRE = 150.0


def danger(d: int) -> float:
    """Points for a Hobbit ``d`` spaces short of Sauron on the Corruption line:
    2.5 a space, less a cost that grows steeply within a die's reach (75 at ``d`` =
    1, 30 at 3, 8 at 6)."""
    return 2.5 * d - 75.0 * math.exp(-0.45 * (d - 1))


def step(d: int) -> float:
    """What one step toward the darkness costs a Hobbit ending ``d`` spaces short of
    Sauron (``danger(d + 1) - danger(d)``)."""
    return danger(d + 1) - danger(d)


@dataclass(eq=False, repr=False)
class LotrCoopState:
    """Every field of a saved game's ``state`` (the players — the Hobbits, ``frodo``
    first, by player count — the options and the generator are the kit's part).

    Attributes
    ----------
    alive : list of bool
        Each player still in the game.
    hands : list of list of str
        Each player's cards (Hobbit card types, Feature card ids).
    corruption : list of int
        Each Hobbit's space on the Corruption line (0: the light end).
    sauron : int
        Sauron's space on the Corruption line.
    shields : list of list of dict
        Each player's shields ``{"v": value}`` (``"r": true`` for a face-down one).
    shield_pool, spent_random : list of int
        Face-down shields left (drawn from the end); face-down shields paid.
    life : list of dict of str to int
        Each player's Life tokens by kind (heart, sun, ring).
    deck, discard, box : list of str
        The Hobbit deck (drawn from the end), the discard pile, cards out of the game.
    features_on_board, gandalf_cards : list of str
        Feature cards lying on the Scenario board; Gandalf cards not yet called.
    ringbearer, active : int
        The Ring-bearer's and the active player's index.
    location : int
        The Fellowship's place on the Master board.
    scenario : str or None
        The Scenario being played.
    markers : dict of str to int
        Each Activity marker's space on its line.
    event_pos : int
        The event marker (0: the start space, 1 to 6: the boxes).
    tiles, tile_discard : list of str
        Face-down Event tiles (drawn from the end), revealed ones.
    played : dict
        Cards played this turn: ``white``, ``grey`` (bool), ``cards`` (count).
    revealed : int
        Event tiles revealed this turn.
    ring_used : bool
        The Ring was put on in this Scenario; ``ring_on`` who wears it.
    scenario_over : bool
        The Scenario ends once the running effect is carried out.
    last_number : int
        The number under the main Activity marker (the score if the Ring-bearer falls).
    queue : list of dict
        Operations still to carry out, the first ask the decision awaited.
    phase : str
        The phase of that decision (``over`` once the game ended).
    result : dict or None
        The outcome: ``None`` while the game goes on.
    """

    alive: list[bool] = field(default_factory=list)
    hands: list[list[str]] = field(default_factory=list)
    corruption: list[int] = field(default_factory=list)
    sauron: int = 0
    shields: list[list[dict[str, Any]]] = field(default_factory=list)
    shield_pool: list[int] = field(default_factory=list)
    spent_random: list[int] = field(default_factory=list)
    life: list[dict[str, int]] = field(default_factory=list)
    deck: list[str] = field(default_factory=list)
    discard: list[str] = field(default_factory=list)
    box: list[str] = field(default_factory=list)
    features_on_board: list[str] = field(default_factory=list)
    gandalf_cards: list[str] = field(default_factory=list)
    ringbearer: int = 0
    active: int = 0
    location: int = 0
    scenario: str | None = None
    markers: dict[str, int] = field(default_factory=dict)
    event_pos: int = 0
    tiles: list[str] = field(default_factory=list)
    tile_discard: list[str] = field(default_factory=list)
    played: dict[str, Any] = field(default_factory=dict)
    revealed: int = 0
    ring_used: bool = False
    ring_on: int | None = None
    scenario_over: bool = False
    last_number: int = 0
    queue: list[Op] = field(default_factory=list)
    phase: str = "start"
    result: Outcome | None = None


class LotrCoopBase(LotrCoopState):
    """The state with its board: queries and checks (no moves)."""

    compiled: CompiledBoard
    lay: CoopLayout
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
        """The player the awaited decision belongs to (``nobody`` once the game is over)."""
        if self.result is not None:
            return "nobody"
        ask = self.queue[0] if self.queue else {}
        p = ask.get("player", self.active)
        return self.players[p]

    @property
    def sc(self) -> Scenario | None:
        return self.lay.scenarios[self.scenario] if self.scenario else None

    def _pid(self, name: str) -> int | None:
        return self.players.index(name) if name in self.players else None

    def _order(self, start: int) -> list[int]:
        """Players still in the game, clockwise from ``start``."""
        return [
            (start + k) % len(self.players)
            for k in range(len(self.players))
            if self.alive[(start + k) % len(self.players)]
        ]

    def _skill(self, p: int) -> str:
        return self.lay.skills.get(self.players[p], "")

    def _matches(self, p: int, card: str, symbol: str) -> bool:
        c = self.lay.cards[card]
        if symbol == "any":
            return True
        syms = c.get("symbols", [])
        if symbol in syms or "star" in syms:
            return True
        return (
            self._skill(p) == "frodo_white_joker"
            and c["kind"] == "hobbit"
            and c["colour"] == "white"
        )

    def value(self) -> float:
        """How well the Fellowship stands, in points (25 points: about one unit of
        log-odds of winning; :meth:`~referee.games.tracks.TrackGame.evaluate` reads it
        through a logistic). About -40 at the start of Moria, positive on the way to
        Mount Doom with a healthy Ring-bearer.

        What wins is reaching Mount Doom with the Ring-bearer in the game; what loses
        is the Ring-bearer meeting Sauron on the Corruption line (or failing the die's
        discard). So the terms are:

        - **progress**: :data:`PER_SCENARIO` per Scenario completed, and a share of it
          for the current Scenario — the main line's marker or the event marker,
          whichever is nearer its end (either ends the Scenario);
        - **the Ring-bearer's distance to Sauron** ``d``: :func:`danger` — a steep
          cost within a die roll's reach (three circles, or Sauron's face at ``d`` =
          1), a small linear gain beyond; other Hobbits count :data:`OTHERS` as much,
          and a Hobbit still in the game a fixed amount (more Hobbits to pay events);
        - **Life tokens**: each kind a Hobbit lacks costs the step toward the
          darkness it will cost at the Scenario's end, in the share of the Scenario
          done (a Scenario sets out with none; the spaces give them);
        - **cards**: the hands pay events and the die's discards (a Ring-bearer who
          cannot discard two cards is eliminated), so each card counts, less past
          six; **shields** call Gandalf cards.

        Notes
        -----
        O(players); reads only what every player sees (corruption, markers, hand
        sizes, tokens, shields).
        """
        if self.result is not None:
            won = self.result.result == "won"
            return (1000.0 if won else -1000.0) + float(self.result.extra["score"])
        rb = self.ringbearer
        done, share = self._progress()
        v = PER_SCENARIO * (done + share) - CENTRE
        for p in range(len(self.players)):
            if not self.alive[p]:
                continue
            w = 1.0 if p == rb else OTHERS
            d = self.sauron - self.corruption[p]
            v += w * danger(d)
            if p != rb:
                v += 10.0
            missing = sum(1 for k in LIFE if not self.life[p][k])
            v -= share * w * missing * step(d - 1)
            cards = len(self.hands[p])
            v += 1.5 * min(cards, 6) + 0.3 * max(0, cards - 6)
            if p == rb and cards < 2 and self._skill(p) != "merry_discards_one":
                v -= 8.0
        return v + 0.8 * min(self.shield_total(), 15)

    def _progress(self) -> tuple[int, float]:
        """Scenarios completed, and the current one's share (0 to 1) done."""
        stages = [i for i, loc in enumerate(self.lay.master) if loc.get("scenario")]
        done = sum(1 for i in stages if i < self.location)
        sc = self.sc
        if sc is None:
            return done, 0.0
        main = sc.main
        return done, max(self.markers[main.activity] / main.last, self.event_pos / 6.0)

    def shield_total(self) -> int:
        return sum(s["v"] for hs in self.shields for s in hs)

    def _open_lines(self) -> list[str]:
        sc = self.sc
        if sc is None:
            return []
        return [a for a in ACTIVITIES if a in sc.lines and self.markers[a] < sc.lines[a].last]

    # ------------------------------------------------------------------ checks on load
    def _validate(self) -> None:
        """Refuse a loaded state that breaks the rules' meaning (one line, the field named).

        Checked: players and their Hobbits, every index in range, Hobbits and Sauron on
        the Corruption line, Life tokens and shields, every card, tile, shield and
        Gandalf card accounted for, the Scenario's markers on their lines, the
        decision awaited.
        """
        lay = self.lay
        n = len(self.players)
        need(2 <= n <= 5, "players", f"{n} players (2 to 5)")
        need(self.players == list(HOBBITS[:n]), "players", f"the Hobbits are {HOBBITS[:n]}")
        for name in ("alive", "hands", "corruption", "shields", "life"):
            k = len(getattr(self, name))
            need(k == n, name, f"{k} entries for {n} players")
        for p, c in enumerate(self.corruption):
            need(
                0 <= c <= lay.dark_end,
                f"corruption[{p}]",
                f"{c} is off the Corruption line (0 to {lay.dark_end})",
            )
            if self.alive[p] and self.result is None:
                need(c < self.sauron, f"corruption[{p}]", "a Hobbit in the game is behind Sauron")
        need(0 <= self.sauron <= lay.dark_end, "sauron", f"{self.sauron} is off the line")
        for p, lf in enumerate(self.life):
            need(sorted(lf) == sorted(LIFE), f"life[{p}]", f"the kinds are {LIFE}")
            need(all(v >= 0 for v in lf.values()), f"life[{p}]", "a negative number of tokens")
        for p, hs in enumerate(self.shields):
            for s in hs:
                v = s.get("v")
                need(
                    isinstance(v, int) and not isinstance(v, bool) and v >= 1,
                    f"shields[{p}]",
                    'a shield is {"v": value of 1 or more}',
                )
        for name in ("ringbearer", "active"):
            k = getattr(self, name)
            need(0 <= k < n, name, f"no player {k}")
        if self.ring_on is not None:
            need(0 <= self.ring_on < n, "ring_on", f"no player {self.ring_on}")
        need(0 <= self.location < len(lay.master), "location", "not a place of the Master board")
        need(0 <= self.event_pos <= 6, "event_pos", f"{self.event_pos} (0 to 6)")
        sc = self.sc if self.scenario in lay.scenarios else None
        need(
            self.scenario is None or sc is not None,
            "scenario",
            f"no Scenario {self.scenario!r}",
        )
        if sc is not None:
            need(
                sorted(self.markers) == sorted(sc.lines),
                "markers",
                f"the lines are {sorted(sc.lines)}",
            )
            for act, k in self.markers.items():
                need(0 <= k <= sc.lines[act].last, f"markers.{act}", f"{k} is off the line")
            tiles = Counter(self.tiles) + Counter(self.tile_discard)
            need(tiles == Counter(lay.tile_deck), "tiles", "event tiles lost or duplicated")
        self._validate_cards()
        for i, op in enumerate(self.queue):
            need(op.get("op") in OPS, f"queue[{i}]", f"unknown operation {op.get('op')!r}")
            if op["op"] == "ask":
                need(op.get("phase") in PHASES, f"queue[{i}]", f"unknown phase {op.get('phase')!r}")
            who = op.get("player")
            if who is not None:
                ok = isinstance(who, int) and not isinstance(who, bool) and 0 <= who < n
                need(ok, f"queue[{i}].player", f"no player {who!r}")
        for die in self.rng.fixed:
            need(1 <= die <= len(lay.die), "dice", f"a fixed die shows {die}")
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
            need(self.result.result in ("won", "lost"), "outcome", "result is won or lost")

    def _validate_cards(self) -> None:
        lay = self.lay
        piles = {"deck": self.deck, "discard": self.discard, "box": self.box}
        piles.update({f"hands[{p}]": h for p, h in enumerate(self.hands)})
        piles["features_on_board"] = self.features_on_board
        for where, pile in piles.items():
            for c in pile:
                need(c in lay.cards or c in lay.gandalf, where, f"no card {c!r} in the pack")
        counts = Counter(c for pile in piles.values() for c in pile)
        hobbit = Counter(lay.hobbit_deck)
        for c, k in hobbit.items():
            need(counts[c] == k, "cards", f"{counts[c]} {c} cards, not {k}")
        double = sorted(c for c, k in counts.items() if k > 1 and c not in hobbit)
        need(not double, "cards", f"in two places: {', '.join(double)}")
        for c in self.gandalf_cards:
            need(c in lay.gandalf, "gandalf_cards", f"no Gandalf card {c!r}")
        used = Counter(c for c in self.box + self.discard if c in lay.gandalf)
        gandalf = Counter(self.gandalf_cards) + used
        for c in lay.gandalf:
            where = "neither to call, in the discard pile nor in the box"
            need(gandalf[c] > 0, "gandalf_cards", f"Gandalf card {c!r} is {where}")
            twice = "to call but also used (in the discard pile or the box)"
            need(gandalf[c] < 2, "gandalf_cards", f"Gandalf card {c!r} is {twice}")
        held = sum(1 for hs in self.shields for s in hs if s.get("r"))
        need(
            len(self.shield_pool) + held + len(self.spent_random) == len(lay.shields),
            "shield_pool",
            "face-down shields lost or duplicated",
        )

    # ------------------------------------------------------------------ accounting
    def invariants(self) -> list[str]:
        """Broken invariants (empty when all hold); ``referee selfplay`` calls it after every move."""
        bad: list[str] = []
        lay = self.lay
        if self.card_counts()["hobbit"] != len(lay.hobbit_deck):
            bad.append(f"{self.card_counts()['hobbit']} Hobbit cards, not {len(lay.hobbit_deck)}")
        feats = [
            c
            for pile in [self.deck, self.discard, self.box, self.features_on_board] + self.hands
            for c in pile
            if lay.cards.get(c, {}).get("kind") == "feature"
        ]
        if len(feats) != len(set(feats)):
            bad.append("a Feature card is in two places")
        if self.scenario and len(self.tiles) + len(self.tile_discard) != len(lay.tile_deck):
            bad.append("event tiles lost or duplicated")
        held_random = sum(1 for hs in self.shields for s in hs if s.get("r"))
        if len(self.shield_pool) + held_random + len(self.spent_random) != len(lay.shields):
            bad.append("face-down shields lost or duplicated")
        used = sum(1 for c in self.box + self.discard if c in lay.gandalf)
        if len(self.gandalf_cards) + used != len(lay.gandalf):
            bad.append("Gandalf cards lost or duplicated")
        for p in range(len(self.players)):
            if self.alive[p] and self.corruption[p] >= self.sauron:
                bad.append(f"{self.players[p]} shares Sauron's space but is still in the game")
            if any(v < 0 for v in self.life[p].values()):
                bad.append(f"{self.players[p]} has a negative number of Life tokens")
        if self.result is None and not (self.queue and self.queue[0]["op"] == "ask"):
            bad.append("the game waits for no decision")
        return bad

    def card_counts(self) -> dict[str, int]:
        """How many Hobbit cards and Feature cards are where (for invariant checks)."""
        hob = feat = 0
        for pile in [self.deck, self.discard, self.box] + self.hands:
            for c in pile:
                kind = self.lay.cards.get(c, {}).get("kind")
                if kind == "hobbit":
                    hob += 1
                elif kind == "feature":
                    feat += 1
        return {"hobbit": hob, "feature": feat + len(self.features_on_board)}
