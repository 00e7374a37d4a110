"""The referee of the cooperative Lord of the Rings game (``rules/lord-of-the-rings-cooperative.txt``).

Players are the Hobbits (``frodo``, ``sam``, ``pippin``, ``merry``, ``fatty`` by player
count). Each decision is a move; chance (the shuffled Hobbit deck, event tiles,
face-down shields, the die) comes from the seeded generator in the state.

========== ==================================================================
phase      moves
========== ==================================================================
reveal     ``reveal`` (the next Event tile)
play       ``play CARD [LINE]`` (one white and one grey per turn; LINE for a
           joker, or Frodo's white card played as a joker), ``end`` (after at
           least one card), ``draw`` / ``heal`` (2b: draw two Hobbit cards, or
           move your Hobbit one step toward the light; ends the turn)
each_pay   ``pay P CARD`` / ``decline P``: player P answers an EACH PLAYER event
group_pay  ``give P CARD`` (or ``give P life:KIND``, ``give P shield:V`` for the
           card-life-shield tile) until the group has paid, or ``refuse``
volunteer  ``volunteer P`` or ``refuse``
line       ``line L``: an Activity tile whose line is missing or full: advance L
discard    ``discard P CARD``: the die made P discard cards
========== ==================================================================

At any time (DESIGN §6: at every decision, while an event or a volunteer decision
is pending too): ``gandalf P CARD PAY`` (player P discards shields worth 5 or more,
PAY their values as ``4+1``; the Gandalf card's effect happens), ``yellow P CARD
[TARGET]`` (P plays a yellow Feature card), ``drop P CARD`` (P discards an unwanted
card). ``ring LINE``: once per Scenario the Ring-bearer puts on the Ring, in the
play phase or in the reveal phase after a tile was revealed. CARD is a Hobbit card
type (``w-fighting``, ``g-star2`` …) or a Feature card id.

Rulings where the rulebook is silent (also in the README):

- A Scenario ends as soon as the effect that completed the main line or concluded the
  sixth event has been carried out; the rest of that turn is not played.
- Jokers and Frodo's white cards (his skill) also pay for a symbol asked by an event.
- Payments: a group payment may stop half-way with ``refuse``; what was paid is lost.
- The die's "discard two cards" has no alternative: a Hobbit with fewer cards discards
  what he has and is eliminated (rulebook, "Conclusion").
- Event tiles run out: the discarded tiles are shuffled into a new pile.
- Mount Doom: the Ring-bearer rolls first; then clockwise.
- The Gandalf cards lie open as a common display. The paying player chooses the
  shields (DESIGN §6); the moves list every choice worth 5 or more from which no
  shield could be left out (no change is given).

Notes
-----
Legal moves per decision are at most a few hundred (payments list each player's card
types); ``check`` is a set lookup on them.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, ClassVar

from ...compiler import CompiledBoard
from ...errors import IllegalMoveError, StateError, UsageError
from ..base import FigureView, Game, WordMove
from ..rng import Rng
from .layout import ACTIVITIES, HOBBITS, LIFE, CoopLayout, Scenario, coop_layout

VERBS = (
    "reveal",
    "play",
    "end",
    "draw",
    "heal",
    "pay",
    "decline",
    "give",
    "refuse",
    "volunteer",
    "line",
    "discard",
    "gandalf",
    "yellow",
    "ring",
    "drop",
)
#: the phases of the active player's own turn (revealing tiles, playing cards)
TURN_PHASES = ("reveal", "play")
TURN_OPS = ("end_turn",)


class Move(WordMove):
    """A decision, e.g. ``Move(("play", "g-star", "hiding"))``; ``str`` is its text."""

    verbs = VERBS


def shield_payments(values: list[int], at_least: int) -> list[str]:
    """The ways to pay ``at_least`` from shields worth ``values``: every choice of
    shields worth ``at_least`` or more from which no shield could be left out, as
    ``"4+1"`` (values largest first), each set of values once.

    Notes
    -----
    A minimal choice is worth less than ``at_least`` + the largest value, so the
    search stays small (a few dozen choices for a full hand of shields).
    """
    counts: dict[int, int] = {}
    for v in values:
        counts[v] = counts.get(v, 0) + 1
    kinds = sorted(counts, reverse=True)
    out: list[str] = []

    def walk(i: int, chosen: list[int], total: int) -> None:
        if total >= at_least:
            if total - min(chosen) < at_least:
                out.append("+".join(str(v) for v in chosen))
            return
        for j in range(i, len(kinds)):
            v = kinds[j]
            if chosen.count(v) < counts[v]:
                walk(j, chosen + [v], total + v)

    if sum(values) >= at_least:
        walk(0, [], 0)
    return out


def _ask(phase: str, **data: Any) -> dict[str, Any]:
    return {"op": "ask", "phase": phase, **data}


class LotrCoop(Game[Move]):
    """State and rules of one game of the cooperative Lord of the Rings."""

    rules: ClassVar[str] = "lotr-coop"

    def __init__(self, compiled: CompiledBoard) -> None:
        self.compiled = compiled
        self.lay: CoopLayout = coop_layout(compiled)

    # ------------------------------------------------------------------ set-up
    @classmethod
    def new(
        cls,
        compiled: CompiledBoard,
        *,
        players: int,
        seed: int,
        options: dict[str, Any] | None = None,
    ) -> LotrCoop:
        """Set up: Hobbits by player count, Bag End, Rivendell, then the Moria Scenario.

        ``options``: ``sauron`` = Sauron's starting space on the Corruption line (a
        difficulty level; default the board's ``sauron_start``).
        """
        opts = dict(options or {})
        if not 2 <= int(players) <= 5:
            raise UsageError(f"the cooperative game is played by 2 to 5 players, not {players}")
        g = cls(compiled)
        lay = g.lay
        sauron = opts.pop("sauron", lay.sauron_start)
        opts.pop("variant", None)
        if opts:
            raise UsageError(f"unknown option(s) {', '.join(sorted(opts))} (known: sauron)")
        try:
            sauron = int(sauron)
        except (TypeError, ValueError):
            raise UsageError(f"option sauron must be a number, not {sauron!r}") from None
        if not 4 <= sauron <= lay.dark_end:
            raise UsageError(f"option sauron must be between 4 and {lay.dark_end}")
        g.rng = Rng.from_seed(seed)
        g.seed = seed
        g.players = int(players)
        g.names = list(HOBBITS[: g.players])
        g.alive = [True] * g.players
        g.hands = [[] for _ in range(g.players)]
        g.corruption = [0] * g.players
        g.sauron = sauron
        g.shields = [[] for _ in range(g.players)]
        pool = list(lay.shields)
        g.rng.shuffle(pool)
        g.shield_pool = pool
        g.spent_random = []
        g.life = [dict.fromkeys(LIFE, 0) for _ in range(g.players)]
        deck = list(lay.hobbit_deck)
        g.rng.shuffle(deck)
        g.deck = deck
        g.discard = []
        g.box = []
        g.features_on_board = []
        g.gandalf_cards = list(lay.gandalf)
        g.ringbearer = 0
        g.active = 0
        g.location = 0
        g.scenario = None
        g.markers = {}
        g.event_pos = 0
        g.tiles = []
        g.tile_discard = []
        g.played = {"white": False, "grey": False, "cards": 0}
        g.revealed = 0
        g.ring_used = False
        g.ring_on = None
        g.scenario_over = False
        g.last_number = 0
        g.queue = []
        g.phase = "start"
        g.outcome_ = None
        ev: list[dict[str, Any]] = []
        g._journey(ev)
        g._run(ev)
        g.setup_events = ev
        return g

    # ------------------------------------------------------------------ serialisation
    _FIELDS = (
        "seed",
        "players",
        "names",
        "alive",
        "hands",
        "corruption",
        "sauron",
        "shields",
        "shield_pool",
        "spent_random",
        "life",
        "deck",
        "discard",
        "box",
        "features_on_board",
        "gandalf_cards",
        "ringbearer",
        "active",
        "location",
        "scenario",
        "markers",
        "event_pos",
        "tiles",
        "tile_discard",
        "played",
        "revealed",
        "ring_used",
        "ring_on",
        "scenario_over",
        "last_number",
        "queue",
        "phase",
    )

    def to_json(self) -> dict[str, Any]:
        return self.fields_to_json(outcome=self.outcome_)

    @classmethod
    def from_json(cls, data: dict[str, Any], compiled: CompiledBoard) -> LotrCoop:
        g = cls(compiled)

        def rest(d: dict[str, Any]) -> None:
            g.outcome_ = d["outcome"]

        g.fields_from_json(data, rest)
        return g

    # ------------------------------------------------------------------ queries
    @property
    def outcome(self) -> dict[str, Any] | None:
        return self.outcome_

    @property
    def to_move(self) -> str:
        ask = self.queue[0] if self.queue else {}
        p = ask.get("player", self.active)
        return self.names[p]

    @property
    def sc(self) -> Scenario | None:
        return self.lay.scenarios[self.scenario] if self.scenario else None

    def parse_move(self, text: str) -> Move:
        return Move.parse(text)

    def _pid(self, name: str) -> int | None:
        return self.names.index(name) if name in self.names else None

    def _order(self, start: int) -> list[int]:
        """Players still in the game, clockwise from ``start``."""
        return [
            (start + k) % self.players
            for k in range(self.players)
            if self.alive[(start + k) % self.players]
        ]

    def _skill(self, p: int) -> str:
        return self.lay.skills.get(self.names[p], "")

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
        """A rough heuristic of how well the Fellowship stands (for the greedy policy)."""
        if self.outcome_ is not None:
            return (1000.0 if self.outcome_["result"] == "won" else -1000.0) + self.outcome_[
                "score"
            ]
        rb = self.ringbearer
        gap = [self.sauron - self.corruption[p] for p in range(self.players) if self.alive[p]]
        return (
            3.0 * self.last_number
            + 20.0 * self.location
            + 4.0 * (self.sauron - self.corruption[rb])
            + 1.0 * min(gap)
            + 5.0 * sum(self.alive)
            + 0.3 * sum(map(len, self.hands))
            + 0.5 * self.shield_total()
            + sum(sum(v.values()) for v in self.life)
            - 3.0 * self.event_pos
        )

    def shield_total(self) -> int:
        return sum(s["v"] for hs in self.shields for s in hs)

    # ------------------------------------------------------------------ frontends
    HOBBIT_COLOURS: ClassVar[dict[str, str]] = {
        "frodo": "#43a047",
        "sam": "#fdd835",
        "pippin": "#fb8c00",
        "merry": "#1e88e5",
        "fatty": "#8e24aa",
    }
    HOBBIT_LABELS: ClassVar[dict[str, str]] = {
        "frodo": "F",
        "sam": "S",
        "pippin": "P",
        "merry": "M",
        "fatty": "Fy",
    }
    ACTIVITY_COLOURS: ClassVar[dict[str, str]] = {
        "fighting": "#c62828",
        "hiding": "#6d4c41",
        "travelling": "#00897b",
        "friendship": "#f06292",
    }

    def figures(self) -> dict[str, FigureView]:
        """The Hobbits and Sauron on the Corruption line, the Fellowship's marker on
        the Master board and, during a Scenario, the Activity markers
        (``marker-<activity>``) and the event marker (``event-marker``).

        A Hobbit belongs to his player; markers and Sauron belong to nobody.
        """
        lay = self.lay
        out: dict[str, FigureView] = {}
        for p, name in enumerate(self.names):
            if not self.alive[p]:
                continue
            out[name] = FigureView(
                id=name,
                node=lay.corruption[self.corruption[p]],
                label=self.HOBBIT_LABELS.get(name, name[:1].upper()),
                colour=self.HOBBIT_COLOURS.get(name, "#9e9e9e"),
                side="hobbit",
                owner=name,
                name=name.capitalize() + (" (Ring-bearer)" if p == self.ringbearer else ""),
                size=2 if p == self.ringbearer else 1,
            )
        out["sauron"] = FigureView(
            id="sauron",
            node=lay.corruption[self.sauron],
            label="Sa",
            colour="#212121",
            side="shadow",
            name="Sauron",
            size=2,
        )
        if 0 <= self.location < len(lay.master):
            out["journey"] = FigureView(
                id="journey",
                node=str(lay.master[self.location]["id"]),
                label="J",
                colour="#ffd54f",
                side="marker",
                name="The Fellowship's journey",
                size=1,
            )
        sc = self.sc
        if sc is not None:
            for act, line in sc.lines.items():
                k = self.markers.get(act)
                if k is None:
                    continue
                out[f"marker-{act}"] = FigureView(
                    id=f"marker-{act}",
                    node=line.points[k],
                    label=act[:1].upper(),
                    colour=self.ACTIVITY_COLOURS.get(act, "#9e9e9e"),
                    side="marker",
                    name=f"{act.capitalize()} marker" + (" (main line)" if line.main else ""),
                    size=0,
                )
            if 0 <= self.event_pos < len(sc.event_points):
                out["event-marker"] = FigureView(
                    id="event-marker",
                    node=sc.event_points[self.event_pos],
                    label="E",
                    colour="#9e9e9e",
                    side="marker",
                    name="Event marker",
                    size=0,
                )
        return out

    def _marker_landing(self, activity: str, n: int) -> tuple[str, str] | None:
        """Where :meth:`_advance` puts the ``activity`` marker after ``n`` spaces."""
        sc = self.sc
        if sc is None or activity not in sc.lines or activity not in self.markers or n <= 0:
            return None
        line = sc.lines[activity]
        k = min(self.markers[activity] + n, line.last)
        if k == self.markers[activity]:
            return None
        return f"marker-{activity}", line.points[k]

    def move_destination(self, move: Move) -> tuple[str, str] | None:
        """``play CARD [LINE]`` and ``line L`` advance an Activity marker, ``heal`` moves
        the active Hobbit a step toward the light, ``volunteer P`` moves P toward the
        darkness. ``ring LINE`` is left out: the die decides how far the marker goes."""
        w, ph = move.words, self.phase
        try:
            if w[0] == "play" and ph == "play":
                syms = self.lay.cards[w[1]].get("symbols", [])
                line = w[2] if len(w) > 2 else (syms[0] if syms else "")
                return self._marker_landing(line, len(syms))
            if w[0] == "line" and ph == "line":
                return self._marker_landing(w[1], 1)
            if w[0] == "heal" and ph == "play":
                p = self.active
                if self.corruption[p] <= 0:
                    return None
                return self.names[p], self.lay.corruption[self.corruption[p] - 1]
            if w[0] == "volunteer" and ph == "volunteer":
                p = self.names.index(w[1])
                k = min(self.lay.dark_end, self.corruption[p] + int(self.queue[0]["n"]))
                if k == self.corruption[p]:
                    return None
                return w[1], self.lay.corruption[k]
        except (KeyError, ValueError, IndexError, TypeError):
            return None
        return None

    # ------------------------------------------------------------------ legal moves
    def generate_legal_moves(self) -> Iterator[Move]:
        if self.outcome_ is not None or not self.queue:
            return
        ask = self.queue[0]
        ph = self.phase
        if ph == "reveal":
            yield Move(("reveal",))
        elif ph == "play":
            yield from self._play_moves()
        elif ph == "each_pay":
            p = ask["player"]
            for c in sorted(set(self.hands[p])):
                if self._matches(p, c, ask["symbol"]):
                    yield Move(("pay", self.names[p], c))
            yield Move(("decline", self.names[p]))
        elif ph == "group_pay":
            for p in self._order(self.active):
                name = self.names[p]
                if "symbol" in ask:
                    for c in sorted(set(self.hands[p])):
                        if self._matches(p, c, ask["symbol"]):
                            yield Move(("give", name, c))
                else:
                    needs = ask["needs"]
                    if "card" in needs:
                        for c in sorted(set(self.hands[p])):
                            yield Move(("give", name, c))
                    if "life" in needs:
                        for k in LIFE:
                            if self.life[p][k]:
                                yield Move(("give", name, f"life:{k}"))
                    if "shield" in needs:
                        for v in sorted({s["v"] for s in self.shields[p]}):
                            yield Move(("give", name, f"shield:{v}"))
            yield Move(("refuse",))
        elif ph == "volunteer":
            for p in self._order(self.active):
                yield Move(("volunteer", self.names[p]))
            yield Move(("refuse",))
        elif ph == "line":
            for ln in ask["lines"]:
                yield Move(("line", ln))
        elif ph == "discard":
            p = ask["player"]
            for c in sorted(set(self.hands[p])):
                yield Move(("discard", self.names[p], c))
        # "any time during the game": at every decision, events and volunteers
        # included (DESIGN §6)
        yield from self._anytime_moves(ph)

    def _open_lines(self) -> list[str]:
        sc = self.sc
        if sc is None:
            return []
        return [a for a in ACTIVITIES if a in sc.lines and self.markers[a] < sc.lines[a].last]

    def _play_moves(self) -> Iterator[Move]:
        p = self.active
        sc = self.sc
        if self.played["cards"] == 0:
            yield Move(("draw",))
            yield Move(("heal",))
        else:
            yield Move(("end",))
        if sc is None:
            return
        lines = [a for a in ACTIVITIES if a in sc.lines]
        for c in sorted(set(self.hands[p])):
            card = self.lay.cards[c]
            colour = card.get("colour")
            if colour not in ("white", "grey") or self.played[colour]:
                continue
            syms = card.get("symbols", [])
            if syms and all(s == "star" for s in syms):
                for ln in lines:
                    yield Move(("play", c, ln))
                continue
            yield Move(("play", c))
            if (
                self._skill(p) == "frodo_white_joker"
                and card["kind"] == "hobbit"
                and colour == "white"
            ):
                for ln in lines:
                    if ln not in syms:
                        yield Move(("play", c, ln))

    def _anytime_moves(self, ph: str) -> Iterator[Move]:
        for p in self._order(self.active):
            name = self.names[p]
            if self.gandalf_cards:
                for pay in shield_payments([s["v"] for s in self.shields[p]], 5):
                    for gc in self.gandalf_cards:
                        yield Move(("gandalf", name, gc, pay))
            if not (ph == "discard" and self.queue[0].get("player") == p):
                # (a Hobbit the die makes discard cannot escape it by dropping cards)
                for c in sorted(set(self.hands[p])):
                    yield Move(("drop", name, c))
            for c in sorted(set(self.hands[p])):
                card = self.lay.cards[c]
                if card.get("colour") != "yellow":
                    continue
                if card.get("target") == "player":
                    for q in self._order(self.active):
                        yield Move(("yellow", name, c, self.names[q]))
                else:
                    yield Move(("yellow", name, c))
        rb_ok = self.alive[self.ringbearer] and not self.ring_used and self.sc is not None
        if rb_ok and (ph == "play" or self.revealed > 0):
            for ln in self._open_lines():
                yield Move(("ring", ln))

    def check(self, move: Move) -> None:
        if not isinstance(move, Move):
            raise IllegalMoveError(f"not a move: {move!r}", code="bad_move")
        if self.outcome_ is not None:
            raise IllegalMoveError(
                "the game is over", code="game_over", details={"outcome": self.outcome_}
            )
        legal = set(self.generate_legal_moves())
        if move in legal:
            return
        w = move.words
        details = {"move": str(move), "phase": self.phase, "to_move": self.to_move}
        if (
            len(w) > 1
            and w[0]
            in ("pay", "give", "discard", "gandalf", "yellow", "volunteer", "decline", "drop")
            and w[1] not in self.names
        ):
            raise IllegalMoveError(
                f"no player {w[1]!r} in this game ({', '.join(self.names)})",
                code="unknown_player",
                details=details,
            )
        if len(w) > 1 and w[0] in (
            "pay",
            "give",
            "discard",
            "gandalf",
            "yellow",
            "volunteer",
            "drop",
        ):
            p = self.names.index(w[1])
            if not self.alive[p]:
                raise IllegalMoveError(
                    f"{w[1]} has been eliminated", code="eliminated", details=details
                )
        if w[0] == "play" and len(w) > 1:
            if w[1] not in self.hands[self.active]:
                raise IllegalMoveError(
                    f"{self.names[self.active]} holds no {w[1]!r}",
                    code="card_not_in_hand",
                    details=details,
                )
            colour = self.lay.cards[w[1]].get("colour")
            if colour in ("white", "grey") and self.played.get(colour):
                raise IllegalMoveError(
                    f"a {colour} card was already played this turn",
                    code="colour_already_played",
                    details=details,
                )
        if w[0] == "gandalf" and len(w) > 1:
            p = self.names.index(w[1])
            if sum(s["v"] for s in self.shields[p]) < 5:
                raise IllegalMoveError(
                    f"{w[1]} has fewer than 5 shields", code="not_enough_shields", details=details
                )
        if w[0] == "ring" and self.ring_used:
            raise IllegalMoveError(
                "the Ring was already put on in this Scenario", code="ring_used", details=details
            )
        if not any(m.words[0] == w[0] for m in legal):
            raise IllegalMoveError(
                f"{w[0]!r} is not possible in phase {self.phase}",
                code="wrong_phase",
                details=details,
            )
        raise IllegalMoveError(
            f"{move} is not allowed here", code="illegal_choice", details=details
        )

    # ------------------------------------------------------------------ applying
    def _apply(self, move: Move) -> list[dict[str, Any]]:
        ev: list[dict[str, Any]] = []
        w = move.words
        ph = self.phase
        if w[0] in ("gandalf", "yellow", "ring", "drop"):
            self._anytime(w, ev)
            self._run(ev)
            return ev
        ask = self.queue[0]
        if ph == "reveal":
            self.queue.pop(0)
            self._reveal(ev)
        elif ph == "play":
            if w[0] == "play":
                self._play_card(w, ev)
            else:
                self.queue.pop(0)
                if w[0] == "draw":
                    n = 3 if self._skill(self.active) == "pippin_draws_three" else 2
                    self._draw(self.active, n, ev)
                elif w[0] == "heal":
                    self._light(self.active, 1, ev)
                self.queue.insert(0, {"op": "end_turn"})
        elif ph == "each_pay":
            self.queue.pop(0)
            p = ask["player"]
            if w[0] == "pay":
                self._discard_card(p, w[2], ev)
            else:
                self.queue[0:0] = [dict(o, player=p) for o in ask["else"]]
        elif ph == "group_pay":
            if w[0] == "refuse":
                self.queue.pop(0)
                ev.append({"type": "group_refused"})
                self.queue[0:0] = list(ask["else"])
            else:
                p = self.names.index(w[1])
                item = w[2]
                if item.startswith("life:"):
                    self.life[p][item[5:]] -= 1
                    ask["needs"].remove("life")
                    ev.append({"type": "paid", "player": w[1], "life": item[5:]})
                elif item.startswith("shield:"):
                    self._pay_shield(p, int(item[7:]), ev)
                    ask["needs"].remove("shield")
                else:
                    self._discard_card(p, item, ev)
                    if "needs" in ask:
                        ask["needs"].remove("card")
                    else:
                        ask["n"] -= 1
                if ask.get("n", 1) <= 0 or ask.get("needs") == []:
                    self.queue.pop(0)
                    ev.append({"type": "group_paid"})
        elif ph == "volunteer":
            self.queue.pop(0)
            if w[0] == "refuse":
                self.queue[0:0] = list(ask["else"])
            else:
                p = self.names.index(w[1])
                ev.append({"type": "volunteer", "player": w[1]})
                self._dark(p, int(ask["n"]), ev)
        elif ph == "line":
            self.queue.pop(0)
            self._advance(w[1], 1, True, ev)
        elif ph == "discard":
            p = ask["player"]
            self._discard_card(p, w[2], ev)
            ask["n"] -= 1
            if ask["n"] <= 0:
                self.queue.pop(0)
        self._run(ev)
        return ev

    def _anytime(self, w: tuple[str, ...], ev: list[dict[str, Any]]) -> None:
        if w[0] == "drop":
            p = self.names.index(w[1])
            self._discard_card(p, w[2], ev)
            return
        if w[0] == "gandalf":
            p = self.names.index(w[1])
            values = [int(v) for v in w[3].split("+")]
            for v in values:
                self._pay_shield(p, v, ev)
            paid = sum(values)
            self.gandalf_cards.remove(w[2])
            self.box.append(w[2])
            ev.append({"type": "gandalf", "player": w[1], "card": w[2], "paid": paid})
            self.queue[0:0] = [
                dict(o, player=self.active) for o in self.lay.gandalf[w[2]]["effects"]
            ]
        elif w[0] == "yellow":
            p = self.names.index(w[1])
            card = self.lay.cards[w[2]]
            self.hands[p].remove(w[2])
            self.discard.append(w[2])
            target = self.names.index(w[3]) if len(w) > 3 else p
            ev.append(
                {"type": "yellow", "player": w[1], "card": w[2], "target": self.names[target]}
            )
            self.queue[0:0] = [dict(o, player=target) for o in card.get("effects", [])]
        else:  # ring
            rb = self.ringbearer
            self.ring_used = True
            self.ring_on = rb
            face = self._roll(ev, rb)
            spaces = 4 - int(face.get("circles", 0))
            ev.append({"type": "ring", "player": self.names[rb], "line": w[1], "spaces": spaces})
            self.queue[0:0] = self._die_ops(rb, face) + [
                {"op": "advance", "line": w[1], "n": spaces, "carry": False}
            ]

    # ------------------------------------------------------------------ queue
    def _run(self, ev: list[dict[str, Any]]) -> None:
        """Carry out queued operations until one needs a decision or the game ends."""
        while self.outcome_ is None and self.queue:
            op = self.queue[0]
            if self.scenario_over and (
                op["op"] in TURN_OPS or (op["op"] == "ask" and op["phase"] in TURN_PHASES)
            ):
                self.queue = [{"op": "scenario_end"}]
                op = self.queue[0]
            elif not self.alive[self.active] and (op["op"] == "ask" and op["phase"] in TURN_PHASES):
                self.queue = [{"op": "end_turn"}]
                op = self.queue[0]
            if op["op"] == "ask":
                if self._ask_still_needed(op):
                    self.phase = op["phase"]
                    return
                self.queue.pop(0)
                continue
            self.queue.pop(0)
            self._op(op, ev)
        if self.outcome_ is not None:
            self.phase = "over"
            self.queue = []

    def _ask_still_needed(self, ask: dict[str, Any]) -> bool:
        """Drop asks addressed to eliminated players or with no possible answer."""
        p = ask.get("player")
        if p is not None and not self.alive[p]:
            return False
        if ask["phase"] == "discard" and not self.hands[p]:
            return False
        return not (ask["phase"] == "line" and not ask["lines"])

    def _op(self, op: dict[str, Any], ev: list[dict[str, Any]]) -> None:
        k = op["op"]
        p = op.get("player", self.active)
        if k in ("dark", "light", "die", "draw", "missing_life") and not self.alive[p]:
            return
        if k == "end_turn":
            self._end_turn(ev)
        elif k == "scenario_end":
            self._scenario_end(ev)
        elif k == "advance":
            self._advance(op["line"], int(op["n"]), bool(op["carry"]), ev)
        elif k == "next_event":
            self._next_event(ev)
        elif k == "event_concluded":
            ev.append({"type": "final_event_concluded"})
            self.scenario_over = True
        elif k == "each":
            self.queue[0:0] = [
                _ask("each_pay", player=q, symbol=op["pay"]["symbol"], **{"else": op["else"]})
                for q in self._order(self.active)
            ]
        elif k == "group":
            self.queue.insert(
                0,
                _ask(
                    "group_pay",
                    symbol=op["pay"]["symbol"],
                    n=int(op["pay"]["n"]),
                    **{"else": op["else"]},
                ),
            )
        elif k == "group_mixed":
            self.queue.insert(0, _ask("group_pay", needs=list(op["pay"]), **{"else": op["else"]}))
        elif k == "volunteer":
            self.queue.insert(0, _ask("volunteer", n=int(op["n"]), **{"else": op["else"]}))
        elif k == "each_do":
            seq: list[dict[str, Any]] = []
            for q in self._order(self.active):
                seq += [dict(o, player=q) for o in op["do"]]
            self.queue[0:0] = seq
        elif k == "ringbearer":
            self.queue[0:0] = [dict(o, player=self.ringbearer) for o in op["do"]]
        elif k == "active_do":
            self.queue[0:0] = [dict(o, player=self.active) for o in op["do"]]
        elif k == "sauron":
            self._sauron(int(op["n"]), ev)
        elif k == "advance_main":
            if self.sc is not None:
                self._advance(self.sc.main.activity, int(op["n"]), True, ev)
        elif k == "dark":
            self._dark(p, int(op["n"]), ev)
        elif k == "light":
            self._light(p, int(op["n"]), ev)
        elif k == "draw":
            self._draw(p, int(op["n"]), ev)
        elif k == "die":
            face = self._roll(ev, p)
            self.queue[0:0] = self._die_ops(p, face)
        elif k == "die_discard":
            n = int(op["n"])
            if len(self.hands[p]) < n:
                for c in list(self.hands[p]):
                    self._discard_card(p, c, ev)
                self._eliminate(p, "could not discard the cards the die asked for", ev)
            else:
                self.queue.insert(0, _ask("discard", player=p, n=n))
        elif k == "missing_life":
            kind = next((x for x in LIFE if not self.life[p][x]), None)
            if kind:
                self.life[p][kind] += 1
                ev.append({"type": "life", "player": self.names[p], "kind": kind})
        elif k == "deal_features":
            self._deal_features(op["scenario"], ev)
        elif k == "mount_doom_roll":
            self._mount_doom_roll(int(op["player"]), op["tried"], ev)
        elif k == "mount_doom_check":
            self._mount_doom_check(op, ev)
        else:  # pragma: no cover - a pack op we do not know
            raise StateError(f"unknown operation {k!r}")

    # ------------------------------------------------------------------ chance
    def _roll(self, ev: list[dict[str, Any]], p: int) -> dict[str, Any]:
        face = self.lay.die[self.rng.randrange(len(self.lay.die))]
        ev.append({"type": "die", "player": self.names[p], "face": face["id"]})
        return face

    def _die_ops(self, p: int, face: dict[str, Any]) -> list[dict[str, Any]]:
        ops: list[dict[str, Any]] = []
        circles = int(face.get("circles", 0))
        if circles and self._skill(p) == "sam_fewer_circles":
            circles -= 1
        if circles:
            ops.append({"op": "dark", "n": circles, "player": p})
        if face.get("discard"):
            n = 1 if self._skill(p) == "merry_discards_one" else int(face["discard"])
            ops.append({"op": "die_discard", "n": n, "player": p})
        if face.get("sauron"):
            ops.append({"op": "sauron", "n": int(face["sauron"])})
        return ops

    def _draw(self, p: int, n: int, ev: list[dict[str, Any]]) -> None:
        got = []
        for _ in range(n):
            if not self.deck:
                hobbit = [c for c in self.discard if self.lay.cards[c]["kind"] == "hobbit"]
                self.box += [c for c in self.discard if self.lay.cards[c]["kind"] != "hobbit"]
                self.discard = []
                self.rng.shuffle(hobbit)
                self.deck = hobbit
                ev.append({"type": "deck_reshuffled", "cards": len(hobbit)})
                if not self.deck:
                    break
            got.append(self.deck.pop())
        self.hands[p] += got
        ev.append({"type": "draw", "player": self.names[p], "cards": len(got)})

    # ------------------------------------------------------------------ hobbits, Sauron
    def _dark(self, p: int, n: int, ev: list[dict[str, Any]]) -> None:
        self.corruption[p] = min(self.lay.dark_end, self.corruption[p] + n)
        ev.append({"type": "corruption", "player": self.names[p], "to": self.corruption[p]})
        if self.corruption[p] >= self.sauron:
            self._eliminate(p, "met Sauron on the Corruption line", ev)

    def _light(self, p: int, n: int, ev: list[dict[str, Any]]) -> None:
        new = max(0, self.corruption[p] - n)
        if new != self.corruption[p]:
            self.corruption[p] = new
            ev.append({"type": "corruption", "player": self.names[p], "to": new})

    def _sauron(self, n: int, ev: list[dict[str, Any]]) -> None:
        self.sauron = max(0, min(self.lay.dark_end, self.sauron - n))
        ev.append({"type": "sauron", "to": self.sauron})
        for q in range(self.players):
            if self.alive[q] and self.corruption[q] >= self.sauron:
                self._eliminate(q, "Sauron reached the Hobbit", ev)

    def _eliminate(self, p: int, reason: str, ev: list[dict[str, Any]]) -> None:
        if not self.alive[p]:
            return
        self.alive[p] = False
        self.discard += self.hands[p]
        self.hands[p] = []
        self.life[p] = dict.fromkeys(LIFE, 0)
        ev.append({"type": "eliminated", "player": self.names[p], "reason": reason})
        if self.location == len(self.lay.master) - 1:
            return  # at Mount Doom the die passes on (see _mount_doom_roll)
        if p == self.ringbearer:
            self._finish("lost", self.last_number, "the Ring-bearer was eliminated", ev)

    def _finish(self, result: str, score: int, reason: str, ev: list[dict[str, Any]]) -> None:
        if self.outcome_ is None:
            self.outcome_ = {
                "result": result,
                "winner": "fellowship" if result == "won" else None,
                "score": score,
                "reason": reason,
            }
            ev.append({"type": "game_over", **self.outcome_})

    # ------------------------------------------------------------------ cards
    def _discard_card(self, p: int, card: str, ev: list[dict[str, Any]]) -> None:
        self.hands[p].remove(card)
        self.discard.append(card)
        ev.append({"type": "discard", "player": self.names[p], "card": card})

    def _pay_shield(self, p: int, value: int, ev: list[dict[str, Any]]) -> None:
        s = next(s for s in self.shields[p] if s["v"] == value)
        self.shields[p].remove(s)
        if s.get("r"):
            self.spent_random.append(s["v"])
        ev.append({"type": "shield_paid", "player": self.names[p], "value": value})

    def _play_card(self, w: tuple[str, ...], ev: list[dict[str, Any]]) -> None:
        p = self.active
        card = self.lay.cards[w[1]]
        self.hands[p].remove(w[1])
        self.discard.append(w[1])
        self.played[card["colour"]] = True
        self.played["cards"] += 1
        syms = card.get("symbols", [])
        line = w[2] if len(w) > 2 else syms[0]
        ev.append(
            {
                "type": "play",
                "player": self.names[p],
                "card": w[1],
                "line": line,
                "spaces": len(syms),
            }
        )
        sc = self.sc
        if sc is None or line not in sc.lines:
            ev.append({"type": "no_effect", "card": w[1]})
            return
        self._advance(line, len(syms), True, ev)

    def _deal_features(self, scenario: str, ev: list[dict[str, Any]]) -> None:
        cards = list(self.lay.features_by_scenario.get(scenario, []))
        self.rng.shuffle(cards)
        if self.players == 2:
            self.box += cards[:4]
            cards = cards[4:]
        order = self._order(self.ringbearer)
        for k, c in enumerate(cards):
            self.hands[order[k % len(order)]].append(c)
        ev.append({"type": "features_dealt", "scenario": scenario, "cards": len(cards)})

    # ------------------------------------------------------------------ activity lines
    def _advance(self, activity: str, n: int, carry: bool, ev: list[dict[str, Any]]) -> None:
        """Move a marker ``n`` spaces, carrying out every space passed (DESIGN §6).

        Die rolls on the spaces are made last, before anything else happens.
        """
        sc = self.sc
        if sc is None or activity not in sc.lines:
            return
        line = sc.lines[activity]
        p = self.active
        dice = 0
        for _ in range(n):
            if self.markers[activity] >= line.last:
                break
            self.markers[activity] += 1
            k = self.markers[activity]
            ev.append(
                {"type": "marker", "line": activity, "to": line.points[k], "carried_out": carry}
            )
            if line.main and line.numbers[k] is not None:
                self.last_number = int(line.numbers[k])  # type: ignore[arg-type]
            if carry:
                space = line.spaces[k]
                if space == "die":
                    dice += 1
                elif space:
                    self._space(p, space, ev)
            if line.main and k == line.last:
                ev.append({"type": "main_line_completed", "scenario": sc.id})
                self.scenario_over = True
        self.queue[0:0] = [{"op": "die", "player": p} for _ in range(dice)]

    def _space(self, p: int, space: str, ev: list[dict[str, Any]]) -> None:
        if space == "shield":
            self.shields[p].append({"v": 1})
            ev.append({"type": "shield", "player": self.names[p], "value": 1})
        elif space == "shield_random":
            if self.shield_pool:
                v = self.shield_pool.pop()
                self.shields[p].append({"v": v, "r": True})
                ev.append({"type": "shield", "player": self.names[p], "value": v})
        elif space.startswith("life:"):
            self.life[p][space[5:]] += 1
            ev.append({"type": "life", "player": self.names[p], "kind": space[5:]})
        elif space.startswith("feature:"):
            c = space[8:]
            if c in self.features_on_board:
                self.features_on_board.remove(c)
                self.hands[p].append(c)
                ev.append({"type": "feature", "player": self.names[p], "card": c})
        elif space == "light":
            self._light(p, 1, ev)

    # ------------------------------------------------------------------ turns
    def _reveal(self, ev: list[dict[str, Any]]) -> None:
        if not self.tiles:
            self.tiles = list(self.tile_discard)
            self.tile_discard = []
            self.rng.shuffle(self.tiles)
            ev.append({"type": "tiles_reshuffled", "tiles": len(self.tiles)})
        tid = self.tiles.pop()
        self.tile_discard.append(tid)
        self.revealed += 1
        tile = self.lay.tiles[tid]
        ev.append({"type": "tile", "tile": tid, "kind": tile["kind"]})
        if tile["kind"] == "activity":
            act = tile["activity"]
            open_lines = self._open_lines()
            if act in open_lines:
                self.queue[0:0] = [
                    {"op": "advance", "line": act, "n": 1, "carry": True},
                    _ask("play"),
                ]
            else:
                self.queue[0:0] = [_ask("line", lines=open_lines), _ask("play")]
        else:
            self.queue[0:0] = [dict(o, player=self.active) for o in tile.get("effects", [])] + [
                _ask("reveal")
            ]

    def _next_event(self, ev: list[dict[str, Any]]) -> None:
        sc = self.sc
        if sc is None or self.event_pos >= 6:
            return
        self.event_pos += 1
        box = sc.events[self.event_pos - 1]
        ev.append(
            {
                "type": "event",
                "box": self.event_pos,
                "event": box,
                "text": " ".join(
                    t
                    for t in (self.lay.events[box]["text"], self.lay.events[box].get("text_ours"))
                    if t
                ),
            }
        )
        ops = [dict(o) for o in self.lay.events[box]["effects"]]
        if self.event_pos == 6:
            ops.append({"op": "event_concluded"})
        self.queue[0:0] = ops

    def _end_turn(self, ev: list[dict[str, Any]]) -> None:
        self.played = {"white": False, "grey": False, "cards": 0}
        self.revealed = 0
        if self.scenario_over:
            self.queue.insert(0, {"op": "scenario_end"})
            return
        order = self._order((self.active + 1) % self.players)
        self.active = order[0]
        ev.append({"type": "turn", "player": self.names[self.active]})
        self.queue = [_ask("reveal")]

    def _scenario_end(self, ev: list[dict[str, Any]]) -> None:
        sc = self.sc
        assert sc is not None
        ev.append({"type": "scenario_end", "scenario": sc.id})
        self.scenario_over = False
        self.played = {"white": False, "grey": False, "cards": 0}
        self.revealed = 0
        for p in self._order(self.ringbearer):
            missing = sum(1 for k in LIFE if not self.life[p][k])
            if missing:
                ev.append({"type": "missing_life", "player": self.names[p], "missing": missing})
                self._dark(p, missing, ev)
                if self.outcome_ is not None:
                    return
        alive = self._order(self.ringbearer)
        best = max(self.life[p]["ring"] for p in alive)
        new_rb = next(p for p in alive if self.life[p]["ring"] == best)
        if new_rb != self.ringbearer:
            ev.append({"type": "ringbearer", "player": self.names[new_rb]})
        self.ringbearer = new_rb
        self._draw(new_rb, 2, ev)
        self.life = [dict.fromkeys(LIFE, 0) for _ in range(self.players)]
        for p in alive:
            if self._skill(p) == "fatty_draws_two":
                self._draw(p, 2, ev)
        self.ring_on = None
        self.scenario = None
        self._journey(ev)

    def _journey(self, ev: list[dict[str, Any]]) -> None:
        """Move along the Master board to the next Scenario, doing the events on the way."""
        lay = self.lay
        first = self.scenario is None and self.location == 0 and not self.markers
        if not first:
            self.location += 1
        while True:
            loc = lay.master[self.location]
            ev.append({"type": "journey", "location": loc["id"], "name": loc.get("name")})
            if loc.get("scenario"):
                self._start_scenario(loc["scenario"], ev)
                return
            if loc.get("final"):
                self.queue = [{"op": "mount_doom_roll", "player": self.ringbearer, "tried": []}]
                return
            ev_data = lay.events.get(str(loc.get("event")))
            if ev_data:
                self.queue += [dict(o) for o in ev_data["effects"]]
            self.location += 1

    def _start_scenario(self, scenario: str, ev: list[dict[str, Any]]) -> None:
        sc = self.lay.scenarios[scenario]
        self.scenario = scenario
        self.markers = dict.fromkeys(sc.lines, 0)
        self.event_pos = 0
        self.ring_used = False
        self.features_on_board = [
            s[8:] for ln in sc.lines.values() for s in ln.spaces if s.startswith("feature:")
        ]
        tiles = list(self.lay.tile_deck)
        self.rng.shuffle(tiles)
        self.tiles = tiles
        self.tile_discard = []
        self.active = self.ringbearer
        self.last_number = int(sc.main.numbers[0] or 0)
        ev.append(
            {"type": "scenario", "scenario": scenario, "ringbearer": self.names[self.ringbearer]}
        )
        self.queue.append(_ask("reveal"))

    def _mount_doom_roll(self, p: int, tried: list[int], ev: list[dict[str, Any]]) -> None:
        """At Mount Doom the die is rolled by the Ring-bearer, then passed on clockwise."""
        if not self.alive[p]:
            nxt = [q for q in self._order(p) if q not in tried]
            if not nxt:
                self._finish(
                    "lost",
                    60,
                    "the Fellowship reached Mount Doom but every Hobbit failed to destroy the Ring",
                    ev,
                )
                return
            p = nxt[0]
        self.active = p
        face = self._roll(ev, p)
        self.queue[0:0] = self._die_ops(p, face) + [
            {"op": "mount_doom_check", "player": p, "tried": tried + [p]}
        ]

    def _mount_doom_check(self, op: dict[str, Any], ev: list[dict[str, Any]]) -> None:
        p = int(op["player"])
        if self.alive[p]:
            if self.shield_pool:
                v = self.shield_pool.pop()
                self.shields[p].append({"v": v, "r": True})
            total = self.shield_total()
            ev.append({"type": "ring_destroyed", "player": self.names[p]})
            self._finish("won", 60 + total, f"{self.names[p]} destroyed the Ring", ev)
            return
        nxt = [q for q in self._order(p) if q not in op["tried"]]
        if not nxt:
            self._finish(
                "lost",
                60,
                "the Fellowship reached Mount Doom but every Hobbit failed to destroy the Ring",
                ev,
            )
            return
        self.queue.insert(0, {"op": "mount_doom_roll", "player": nxt[0], "tried": op["tried"]})

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
        if len(self.gandalf_cards) + sum(1 for c in self.box if c in lay.gandalf) != len(
            lay.gandalf
        ):
            bad.append("Gandalf cards lost or duplicated")
        for p in range(self.players):
            if self.alive[p] and self.corruption[p] >= self.sauron:
                bad.append(f"{self.names[p]} shares Sauron's space but is still in the game")
            if any(v < 0 for v in self.life[p].values()):
                bad.append(f"{self.names[p]} has a negative number of Life tokens")
        if self.outcome_ is None and not (self.queue and self.queue[0]["op"] == "ask"):
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
