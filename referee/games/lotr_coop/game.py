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
roll       ``roll``: P is about to roll the die (a pause for yellow and Gandalf
           cards, only when one could be played)
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

import random
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any, ClassVar, Self

from ...compiler import CompiledBoard
from ...errors import IllegalMoveError, StateError, UsageError
from ..cards import CardFace, faces
from ..events import Event
from ..moves import Move as KitMove
from ..options import Option
from ..rng import Rng
from ..tracks import Op, TrackGame, migrate_flat
from .effects import LotrCoopRules
from .layout import ACTIVITIES, HOBBITS, LIFE, SAURON_START, coop_layout
from .moves import EVENTS, PHASES, Move, shield_payments
from .position import LotrCoopPosition, LotrCoopPositions
from .state import LotrCoopState
from .view import LotrCoopView

__all__ = ["FACE_DOWN", "LotrCoop", "Move"]

#: the face-down piles: what is in them can be counted, their order is unknown
FACE_DOWN = ("deck", "tiles", "shield_pool")


class LotrCoop(LotrCoopRules, LotrCoopView, LotrCoopPositions, TrackGame[Move]):
    """State and rules of one game of the cooperative Lord of the Rings."""

    rules: ClassVar[str] = "lotr-coop"
    title: ClassVar[str] = "The Lord of the Rings (cooperative)"
    #: the evaluation at the leaves: random play-outs waste yellow cards, Gandalf
    #: calls and payments (bench/bots.py: 20 of 40 games won against 10 with rollout=6)
    MCTS: ClassVar[dict[str, int | float]] = {"iterations": 40, "rollout": 0}
    PLAYERS: ClassVar[tuple[int, int]] = (2, 5)
    DICE_ORDER: ClassVar[str] = (
        "one die per roll, in play order: a Hobbit who rolls instead of paying an Event, "
        "the Ring put on, the Mount Doom roll (the Ring-bearer first, then clockwise); "
        "faces in the pack's order: 1 blank, 2 one circle, 3 two, 4 three, 5 discard two "
        "cards, 6 Sauron"
    )
    OPTIONS: ClassVar[tuple[Option, ...]] = (
        Option(
            "sauron",
            int,
            SAURON_START,
            low=4,
            high=99,
            help="Sauron's starting space on the Corruption line, counted from 0 (a "
            f"difficulty level, 4 to the line's last space; {SAURON_START}, the last space "
            "of the pack's line, by default)",
        ),
    )
    MOVE: ClassVar[type[KitMove]] = Move
    STATE: ClassVar[type | None] = LotrCoopState
    POSITION: ClassVar[type | None] = LotrCoopPosition
    #: 3: ``sauron`` an explicit space; 2: the kit's state file, ``sauron`` 0 for the
    #: board's start; 1 (or none): the flat files written before the kit
    STATE_VERSION: ClassVar[int] = 3
    EVENTS: ClassVar[Mapping[str, str]] = EVENTS
    PHASES: ClassVar[Mapping[str, frozenset[str]]] = PHASES
    QUEUE_KEYS: ClassVar[dict[str, dict[str, type | tuple[type, ...]]]] = {
        "each_pay": {"player": int, "symbol": str, "else": list},
        "group_pay": {"else": list},
        "volunteer": {"n": int, "else": list},
        "line": {"lines": list},
        "discard": {"player": int, "n": int},
        "roll": {"player": int},
        "advance": {"line": str, "n": int},
        "each": {"pay": dict, "else": list},
        "group": {"pay": dict, "else": list},
        "group_mixed": {"pay": list, "else": list},
        "each_do": {"do": list},
        "ringbearer": {"do": list},
        "active_do": {"do": list},
        "sauron": {"n": int},
        "advance_main": {"n": int},
        "die_discard": {"n": int},
        "mount_doom_roll": {"player": int, "tried": list},
        "mount_doom_check": {"player": int, "tried": list},
    }

    # ------------------------------------------------------------------ set-up
    @classmethod
    def blank(
        cls, compiled: CompiledBoard, players: Sequence[str], options: dict[str, Any]
    ) -> Self:
        g = super().blank(compiled, players, options)
        LotrCoopState.__init__(g)
        g.lay = coop_layout(compiled)
        n = len(g.players)
        g.alive = [True] * n
        g.hands = [[] for _ in range(n)]
        g.corruption = [0] * n
        g.shields = [[] for _ in range(n)]
        g.life = [dict.fromkeys(LIFE, 0) for _ in range(n)]
        g.played = {"white": False, "grey": False, "cards": 0}
        return g

    @classmethod
    def setup(
        cls, compiled: CompiledBoard, players: int, seed: int, options: dict[str, Any]
    ) -> Self:
        """Set up: Hobbits by player count, Bag End, Rivendell, then the Moria Scenario.

        ``options`` (parsed by the kit): ``sauron`` = Sauron's starting space on the
        Corruption line (a difficulty level; :data:`SAURON_START` by default).
        """
        g = cls.blank(compiled, list(HOBBITS[:players]), options)
        lay = g.lay
        sauron = int(options["sauron"])
        if sauron > lay.dark_end:
            raise UsageError(
                f"lotr-coop option 'sauron' must be between 4 and {lay.dark_end}",
                code="bad_option",
            )
        g.rng = Rng.from_seed(seed)
        g.sauron = sauron
        pool = list(lay.shields)
        g.rng.shuffle(pool)
        g.shield_pool = pool
        deck = list(lay.hobbit_deck)
        g.rng.shuffle(deck)
        g.deck = deck
        g.gandalf_cards = list(lay.gandalf)
        ev: list[dict[str, Any]] = []
        g._journey(ev)
        g._run(ev)
        g.setup_events = ev
        return g

    @classmethod
    def migrate(cls, data: dict[str, Any], version: int) -> dict[str, Any]:
        """An older state file: version 2 (option ``sauron`` 0 meant the board's start,
        the pack's :data:`SAURON_START`) or version 1 (flat keys, ``names`` the
        players, written before the kit). Only the option changes: the state keeps
        where Sauron stands."""
        if version == 2 and isinstance(data.get("options"), dict):
            options = dict(data["options"])
            if options.get("sauron") == 0:
                options["sauron"] = SAURON_START
            return {**data, "options": options, "version": cls.STATE_VERSION}
        if version not in (None, -1, 1) or "state" in data:  # -1: the file names none
            return super().migrate(data, version)
        names = data.get("names")
        if not isinstance(names, list):
            raise StateError("version-1 state: names must be a list", code="bad_state")
        fields = [f for f, _ in cls._fields()]
        out = migrate_flat(data, fields, names, {})
        out["version"] = cls.STATE_VERSION
        return out

    # ------------------------------------------------------------------ legal moves
    def generate_legal_moves(self) -> Iterator[Move]:
        return self._moves(drops=True)

    def _moves(self, drops: bool) -> Iterator[Move]:
        """The legal moves; without the free discards unless ``drops``."""
        if self.result is not None or not self.queue:
            return
        pending = self.queue[0]
        ph = self.phase
        if ph == "reveal":
            yield Move("reveal")
        elif ph == "play":
            yield from self._play_moves()
        elif ph == "each_pay":
            p = pending["player"]
            for c in sorted(set(self.hands[p])):
                if self._matches(p, c, pending["symbol"]):
                    yield Move("pay", self.players[p], c)
            yield Move("decline", self.players[p])
        elif ph == "group_pay":
            for p in self._order(self.active):
                name = self.players[p]
                if "symbol" in pending:
                    for c in sorted(set(self.hands[p])):
                        if self._matches(p, c, pending["symbol"]):
                            yield Move("give", name, c)
                else:
                    needs = pending["needs"]
                    if "card" in needs:
                        for c in sorted(set(self.hands[p])):
                            yield Move("give", name, c)
                    if "life" in needs:
                        for k in LIFE:
                            if self.life[p][k]:
                                yield Move("give", name, f"life:{k}")
                    if "shield" in needs:
                        for v in sorted({s["v"] for s in self.shields[p]}):
                            yield Move("give", name, f"shield:{v}")
            yield Move("refuse")
        elif ph == "volunteer":
            for p in self._order(self.active):
                yield Move("volunteer", self.players[p])
            yield Move("refuse")
        elif ph == "line":
            for ln in pending["lines"]:
                yield Move("line", ln)
        elif ph == "discard":
            p = pending["player"]
            for c in sorted(set(self.hands[p])):
                yield Move("discard", self.players[p], c)
        elif ph == "roll":
            yield Move("roll")
        # "any time during the game": at every decision, events and volunteers
        # included (DESIGN §6)
        yield from self._anytime_moves(ph, drops)

    def search_moves(self) -> list[Move]:
        """Hook for bots: the legal moves worth searching — all but the free discards.

        A free discard (``drop``) never helps in this pack: no rule refreshes a hand
        to a number of cards (the rulebook's one reason for it, "Any Time During the
        Game"), and a card kept can still be paid or discarded later. The rules keep
        offering it; a bot need not spend its budget on it, and a decision whose
        only other answer is "go on" (``reveal``, ``roll``) is then answered at once.
        """
        return list(self._moves(drops=False))

    def dump_view(self, player: str | None = None) -> dict[str, Any]:
        """The state as every player sees it: all of it but the order of the
        face-down piles — the Hobbit deck, the Event tiles and the face-down shields
        (:data:`FACE_DOWN`) — shown sorted: what is in them, which the players can
        count from what has been seen, not what comes next.

        The Fellowship plays open-handed (the players confer over their cards, as in
        the rulebook's example of play), so hands are shown. The kit's :meth:`view`
        then leaves out the generator (the dice and reshuffles to come).
        """
        data = self.to_json()
        state = data["state"]
        for pile in FACE_DOWN:
            state[pile] = sorted(state[pile])
        if player is not None:
            data["hand"] = list(state["hands"][self.players.index(player)])
        shown = [c for h in state["hands"] for c in h]
        data["cards"] = faces([*shown, *state["gandalf_cards"], *state["discard"]], self.card_face)
        return data

    def card_face(self, card: str) -> CardFace | None:
        """A Hobbit, Feature or Gandalf card as it lies face up: its name (a Hobbit
        card is named by its symbols), colour, symbols and text."""
        lay = self.lay
        c = lay.cards.get(card) or lay.gandalf.get(card)
        if c is None:
            return None
        symbols = [str(s) for s in c.get("symbols", [])]
        named = " + ".join(s.capitalize() for s in symbols) or card
        kind = str(c.get("kind", "gandalf"))
        return CardFace(
            title=str(c.get("name") or named),
            kind=kind if kind != "hobbit" else "hobbit card",
            colour=str(c.get("colour", "")),
            value=" ".join(symbols),
            text=str(c.get("text", "")),
        )

    def determinise(self, player: str, rng: random.Random) -> Self:
        """A world for bots consistent with :meth:`view`: a copy whose face-down piles
        are shuffled with ``rng`` and whose generator is drawn from it (the dice and
        the reshuffles to come are sampled, not foreseen).

        Notes
        -----
        One :meth:`copy` and three shuffles (about 40 items).
        """
        world = self.copy()
        world.rng = Rng(rng.getrandbits(64))
        for pile in FACE_DOWN:
            rng.shuffle(getattr(world, pile))
        return world

    def _play_moves(self) -> Iterator[Move]:
        p = self.active
        sc = self.sc
        if self.played["cards"] == 0:
            yield Move("draw")
            yield Move("heal")
        else:
            yield Move("end")
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
                    yield Move("play", c, ln)
                continue
            yield Move("play", c)
            if (
                self._skill(p) == "frodo_white_joker"
                and card["kind"] == "hobbit"
                and colour == "white"
            ):
                for ln in lines:
                    if ln not in syms:
                        yield Move("play", c, ln)

    def _anytime_moves(self, ph: str, drops: bool = True) -> Iterator[Move]:
        for p in self._order(self.active):
            name = self.players[p]
            if self.gandalf_cards:
                for pay in shield_payments([s["v"] for s in self.shields[p]], 5):
                    for gc in self.gandalf_cards:
                        yield Move("gandalf", name, gc, pay)
            if drops and not (ph == "discard" and self.queue[0].get("player") == p):
                # (a Hobbit the die makes discard cannot escape it by dropping cards)
                for c in sorted(set(self.hands[p])):
                    yield Move("drop", name, c)
            for c in sorted(set(self.hands[p])):
                card = self.lay.cards[c]
                if card.get("colour") != "yellow":
                    continue
                if card.get("target") == "player":
                    for q in self._order(self.active):
                        yield Move("yellow", name, c, self.players[q])
                else:
                    yield Move("yellow", name, c)
        rb_ok = self.alive[self.ringbearer] and not self.ring_used and self.sc is not None
        if rb_ok and (ph == "play" or self.revealed > 0):
            for ln in self._open_lines():
                yield Move("ring", ln)

    def _check(self, move: Move) -> None:
        if move.verb != "drop" and move in set(self._moves(drops=False)):
            return  # (a move other than a free discard is legal among the others)
        legal = set(self.generate_legal_moves())
        if move in legal:
            return
        details = {"move": str(move), "phase": self.phase, "to_move": self.to_move}
        if (
            len(move.args) > 0
            and move.verb
            in ("pay", "give", "discard", "gandalf", "yellow", "volunteer", "decline", "drop")
            and move.args[0] not in self.players
        ):
            raise IllegalMoveError(
                f"no player {move.args[0]!r} in this game ({', '.join(self.players)})",
                code="unknown_player",
                details=details,
            )
        if len(move.args) > 0 and move.verb in (
            "pay",
            "give",
            "discard",
            "gandalf",
            "yellow",
            "volunteer",
            "drop",
        ):
            p = self.players.index(move.args[0])
            if not self.alive[p]:
                raise IllegalMoveError(
                    f"{move.args[0]} has been eliminated", code="eliminated", details=details
                )
        if move.verb == "play" and len(move.args) > 0:
            if move.args[0] not in self.hands[self.active]:
                raise IllegalMoveError(
                    f"{self.players[self.active]} holds no {move.args[0]!r}",
                    code="card_not_in_hand",
                    details=details,
                )
            colour = self.lay.cards[move.args[0]].get("colour")
            if colour in ("white", "grey") and self.played.get(colour):
                raise IllegalMoveError(
                    f"a {colour} card was already played this turn",
                    code="colour_already_played",
                    details=details,
                )
        if move.verb == "gandalf" and len(move.args) > 0:
            p = self.players.index(move.args[0])
            if sum(s["v"] for s in self.shields[p]) < 5:
                raise IllegalMoveError(
                    f"{move.args[0]} has fewer than 5 shields",
                    code="not_enough_shields",
                    details=details,
                )
            pays = shield_payments([s["v"] for s in self.shields[p]], 5)
            if len(move.args) > 2 and move.args[2] not in pays:
                raise IllegalMoveError(
                    f"{move.args[0]} cannot pay {move.args[2]}: shields worth 5 or more, none to spare "
                    f"({', '.join(pays)})",
                    code="bad_payment",
                    details=details,
                )
        if move.verb == "ring" and self.ring_used:
            raise IllegalMoveError(
                "the Ring was already put on in this Scenario", code="ring_used", details=details
            )
        if not any(m.verb == move.verb for m in legal):
            raise IllegalMoveError(
                f"{move.verb!r} is not possible in phase {self.phase}",
                code="wrong_phase",
                details=details,
            )
        raise IllegalMoveError(
            f"{move} is not allowed here", code="illegal_choice", details=details
        )

    # ------------------------------------------------------------------ applying
    def _apply(self, move: Move) -> list[Event]:
        ev: list[Event] = []
        any_time = self._ANY_TIME.get(move.verb)
        if any_time is not None:
            any_time(self, move, ev)
        else:  # the answer to the ask at the front of the queue (left there for now)
            self._ANSWERS[self.phase, move.verb](self, move, self.queue[0], ev)
        self._run(ev)
        return ev

    # ------------------------------------------------------------------ the answers
    # one per (phase, verb) of :data:`~.moves.PHASES` but the "any time" verbs; each
    # gets the move, the ask it answers (still at the front of the queue: an answer
    # takes it off, or replaces it with what is still owed) and the events so far
    def _reveal_tile(self, move: Move, pending: Op, ev: list[Event]) -> None:
        self.queue.pop(0)
        self._reveal(ev)

    def _play(self, move: Move, pending: Op, ev: list[Event]) -> None:
        self._play_card(move, ev)

    def _end_play(self, move: Move, pending: Op, ev: list[Event]) -> None:
        """``draw``, ``heal`` or ``end``: the active player's turn ends."""
        self.queue.pop(0)
        if move.verb == "draw":
            n = 3 if self._skill(self.active) == "pippin_draws_three" else 2
            self._draw(self.active, n, ev)
        elif move.verb == "heal":
            self._light(self.active, 1, ev)
        self.queue.insert(0, {"op": "end_turn"})

    def _pay(self, move: Move, pending: Op, ev: list[Event]) -> None:
        self.queue.pop(0)
        self._discard_card(pending["player"], move.args[1], ev)

    def _decline(self, move: Move, pending: Op, ev: list[Event]) -> None:
        self.queue.pop(0)
        self.queue[0:0] = [dict(o, player=pending["player"]) for o in pending["else"]]

    def _group_refuses(self, move: Move, pending: Op, ev: list[Event]) -> None:
        self.queue.pop(0)
        ev.append(self.event("group_refused"))
        self.queue[0:0] = list(pending["else"])

    def _give(self, move: Move, pending: Op, ev: list[Event]) -> None:
        p = self.players.index(move.args[0])
        item = move.args[1]
        # the ask is a value: a payment replaces it with what is still owed
        if item.startswith("life:"):
            self.life[p][item[5:]] -= 1
            owed = dict(pending, needs=[x for x in pending["needs"] if x != "life"])
            ev.append(self.event("paid", player=move.args[0], life=item[5:]))
        elif item.startswith("shield:"):
            self._pay_shield(p, int(item[7:]), ev)
            owed = dict(pending, needs=[x for x in pending["needs"] if x != "shield"])
        else:
            self._discard_card(p, item, ev)
            if "needs" in pending:
                owed = dict(pending, needs=[x for x in pending["needs"] if x != "card"])
            else:
                owed = dict(pending, n=pending["n"] - 1)
        if owed.get("n", 1) <= 0 or owed.get("needs") == []:
            self.queue.pop(0)
            ev.append(self.event("group_paid"))
        else:
            self.queue[0] = owed

    def _nobody_volunteers(self, move: Move, pending: Op, ev: list[Event]) -> None:
        self.queue.pop(0)
        self.queue[0:0] = list(pending["else"])

    def _volunteer(self, move: Move, pending: Op, ev: list[Event]) -> None:
        self.queue.pop(0)
        ev.append(self.event("volunteer", player=move.args[0]))
        self._dark(self.players.index(move.args[0]), int(pending["n"]), ev)

    def _line(self, move: Move, pending: Op, ev: list[Event]) -> None:
        self.queue.pop(0)
        self._advance(move.args[0], 1, True, ev)

    def _discard(self, move: Move, pending: Op, ev: list[Event]) -> None:
        self._discard_card(pending["player"], move.args[1], ev)
        if pending["n"] <= 1:
            self.queue.pop(0)
        else:
            self.queue[0] = dict(pending, n=pending["n"] - 1)

    def _roll_now(self, move: Move, pending: Op, ev: list[Event]) -> None:
        self.queue.pop(0)  # the die op that follows rolls it

    #: (phase, verb) -> its answer (every pair of :data:`~.moves.PHASES` but the
    #: "any time" verbs, :attr:`_ANY_TIME`)
    _ANSWERS: ClassVar[dict[tuple[str, str], Callable[..., None]]] = {
        ("reveal", "reveal"): _reveal_tile,
        ("play", "play"): _play,
        ("play", "draw"): _end_play,
        ("play", "heal"): _end_play,
        ("play", "end"): _end_play,
        ("each_pay", "pay"): _pay,
        ("each_pay", "decline"): _decline,
        ("group_pay", "give"): _give,
        ("group_pay", "refuse"): _group_refuses,
        ("volunteer", "volunteer"): _volunteer,
        ("volunteer", "refuse"): _nobody_volunteers,
        ("line", "line"): _line,
        ("discard", "discard"): _discard,
        ("roll", "roll"): _roll_now,
    }

    # ------------------------------------------------------------------ any time
    def _drop(self, move: Move, ev: list[Event]) -> None:
        self._discard_card(self.players.index(move.args[0]), move.args[1], ev)

    def _call_gandalf(self, move: Move, ev: list[Event]) -> None:
        p = self.players.index(move.args[0])
        values = [int(v) for v in move.args[2].split("+")]
        for v in values:
            self._pay_shield(p, v, ev)
        paid = sum(values)
        self.gandalf_cards.remove(move.args[1])
        self.discard.append(move.args[1])  # "must then be discarded" (boxed at the reshuffle)
        ev.append(self.event("gandalf", player=move.args[0], card=move.args[1], paid=paid))
        self.queue[0:0] = [
            dict(o, player=self.active) for o in self.lay.gandalf[move.args[1]]["effects"]
        ]

    def _yellow(self, move: Move, ev: list[Event]) -> None:
        p = self.players.index(move.args[0])
        card = self.lay.cards[move.args[1]]
        self.hands[p].remove(move.args[1])
        self.discard.append(move.args[1])
        target = self.players.index(move.args[2]) if len(move.args) > 2 else p
        ev.append(
            self.event(
                "yellow", player=move.args[0], card=move.args[1], target=self.players[target]
            )
        )
        self.queue[0:0] = [dict(o, player=target) for o in card.get("effects", [])]

    def _put_on_ring(self, move: Move, ev: list[Event]) -> None:
        rb = self.ringbearer
        self.ring_used = True
        self.ring_on = rb
        face = self._roll(ev, rb)
        spaces = 4 - int(face.get("circles", 0))
        ev.append(self.event("ring", player=self.players[rb], line=move.args[0], spaces=spaces))
        self.queue[0:0] = self._die_ops(rb, face) + [
            {"op": "advance", "line": move.args[0], "n": spaces, "carry": False}
        ]

    #: "any time during the game" verb -> what it does (in every phase)
    _ANY_TIME: ClassVar[dict[str, Callable[..., None]]] = {
        "drop": _drop,
        "gandalf": _call_gandalf,
        "yellow": _yellow,
        "ring": _put_on_ring,
    }
