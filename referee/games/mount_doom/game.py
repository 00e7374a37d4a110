"""The referee of Adventure to Mount Doom (rulebook ``rules/adventure-to-mount-doom.txt``).

A turn is a sequence of small decisions by the player whose turn it is, each one a
move; chance (dice, the shuffled stacks) comes from the seeded generator in the state.

Phases and their moves (``str(move)`` is the text, ``parse_move`` reads it back):

========== =================================================================
phase      moves
========== =================================================================
start      ``roll A B`` (the two companion dice of the first roll, companion
           ids, sorted), in the final stage ``roll`` (one encounter die);
           ``use CARD [ARGS]``
place1     ``place V C``: keep encounter die showing V and companion die C
roll2      ``roll C``: the third companion die to roll with the other two
place2     ``place C``: keep companion die C (the black die goes along)
resolve    ``go``: resolve the next die on the tray
turned     ``go``: carry out the card just turned face up (a pause for cards)
advance    ``advance C N``: an empty encounter position shows companion C:
           move it N = 0, 1 or 2 spaces
army       ``army left|right``: where the Army of the Dead goes
denethor   ``reroll 1|2``: which side's companion die Denethor rolls again
battle     ``fight`` (roll the battle die) or ``use CARD`` (a card that wins)
gandalf    ``save CARD`` (discard a Gandalf card to win) or ``accept``
boromir    ``use boromir`` (roll again, lose only on Sauron) or ``accept``
vision     ``vision CARD`` (the card that goes back in the box) or ``pass``
friends    ``count CARD`` (Friends in Need: one more bright heart) or ``done``
========== =================================================================

``use CARD`` arguments: ``use galadriel aragorn 3`` (a companion and a number of
spaces for cards that move a companion), ``use treebeard resolve|isengard``.
Cards usable "at any time" are offered at every decision (DESIGN §6): in every
phase above, including after a face-down card is turned (phase ``turned``, only
when such a card could be used) and before every battle die (phase ``battle``);
``before_roll`` cards only in start.

Rulings where the rulebook is silent (also in the README):

- Once the Ring-bearer has reached the current stage goal, he waits there for the
  rest of the turn (dice, symbols and cards do not move him); the next stage is
  laid out at the end of the turn. A card used before rolling that brings him
  there ends the stage at once.
- A companion other than the Ring-bearer standing at Minas Morgul or on the rally
  space does not move any more. In the final stage only the Ring-bearer moves.
- Reaching any stage goal exactly with another companion gains 1 resolve.
- Friends in Need: the players choose which unused cards count (DESIGN §6); the
  cards counted are put back in the box.
- Freed Isengard gives its bright heart only on the Uruk-hai cards of the stages to
  Gondor and Minas Morgul (their data carries ``freed_hearts``; DESIGN §6).

Notes
-----
Legal moves per decision are a few dozen at most; ``check`` is a set lookup on
them, O(moves). A whole game is a few hundred moves.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any, ClassVar, Self

from ...compiler import CompiledBoard
from ...errors import IllegalMoveError, StateError
from ..base import BoardName
from ..cards import CardFace, faces
from ..events import Event
from ..moves import Move as KitMove
from ..options import Option
from ..rng import Rng
from ..tracks import Op, TrackGame, ask, migrate_flat
from . import names
from .effects import MountDoomRules
from .layout import COMPANIONS, RINGBEARER, layout_of
from .moves import EVENTS, PHASES, VARIANTS, Move
from .position import MountDoomPosition, MountDoomPositions
from .state import MountDoomState
from .view import MountDoomView

__all__ = ["HIDDEN", "MountDoom", "Move"]

#: what the view shows in place of a card nobody can identify
HIDDEN = "?"


class MountDoom(MountDoomRules, MountDoomView, MountDoomPositions, TrackGame[Move]):
    """State and rules of one game of Adventure to Mount Doom."""

    rules: ClassVar[str] = "mount-doom"
    title: ClassVar[str] = "Adventure to Mount Doom"
    PLAYERS: ClassVar[tuple[int, int]] = (1, 5)
    OPTIONS: ClassVar[tuple[Option, ...]] = (
        Option(
            "variant",
            str,
            "standard",
            choices=tuple(VARIANTS),
            help="Friends in Need (easier), Without Protection and With Personal Friends "
            "(harder), or both",
        ),
    )
    DICE_ORDER: ClassVar[str] = (
        "in each turn's dice phase, the first roll's two black dice, then its two companion "
        "dice in sorted-id order (as the roll A B move names them); the second roll's black "
        "die, then the companion die kept from the first roll, then the one chosen; while the "
        "tray is resolved, every die as it comes: the battle die of each battle (Boromir's "
        "re-roll and Éowyn's duel included) and a companion die Denethor rolls again. In the "
        "final stage one black die per turn (the roll move). A die is the face's number in "
        "the pack's order (battle die: 1 aragorn, 2 legolas, 3 gimli, 4 merry-pippin, "
        "5 sauron, 6 gandalf)"
    )
    MOVE: ClassVar[type[KitMove]] = Move
    STATE: ClassVar[type | None] = MountDoomState
    POSITION: ClassVar[type | None] = MountDoomPosition
    #: 3: one ``variant`` option; 2: the kit's state file with the variant's two
    #: booleans beside it; 1 (or none): the flat files written before the kit
    STATE_VERSION: ClassVar[int] = 3
    EVENTS: ClassVar[Mapping[str, str]] = EVENTS
    PHASES: ClassVar[Mapping[str, frozenset[str]]] = PHASES
    QUEUE_KEYS: ClassVar[dict[str, dict[str, type | tuple[type, ...]]]] = {
        "advance": {"who": str},
        "army": {"position": int, "directions": list},
        "denethor": {"sides": list},
        "battle": {"battle": dict},
        "gandalf": {"battle": dict},
        "boromir": {"battle": dict},
        "die": {"i": int},
        "encounter": {"value": int},
        "effect": {"effect": dict},
        "final_setup": {"helpers": list},
    }

    # ------------------------------------------------------------------ construction
    @classmethod
    def blank(
        cls, compiled: CompiledBoard, players: Sequence[str], options: dict[str, Any]
    ) -> Self:
        g = super().blank(compiled, players, options)
        MountDoomState.__init__(g)
        g.lay = layout_of(compiled)
        return g

    @classmethod
    def setup(
        cls, compiled: CompiledBoard, players: int, seed: int, options: dict[str, Any]
    ) -> Self:
        """Set up a game: figures on Rivendell, Lothlórien cards laid out, cards dealt.

        ``options`` (parsed by the kit from ``OPTIONS``): ``variant`` (standard,
        friends-in-need, without-protection, both). Players are ``p1`` (the
        oldest, who begins) to ``pN``.
        """
        g = cls.blank(compiled, [f"p{k + 1}" for k in range(players)], options)
        lay = g.lay
        g.rng = Rng.from_seed(seed)
        g.pos = dict.fromkeys(COMPANIONS, 0)
        g.ring = lay.ring_start  # the Witch-king alone stands at Minas Morgul (nazgul 1)
        for s in range(1, 7):
            d = list(lay.stage_decks[s])
            g.rng.shuffle(d)
            g.decks[str(s)] = d
        gd = list(lay.gandalf_deck)
        g.rng.shuffle(gd)
        g.gandalf_stack = gd
        g.row = [[] for _ in range(6)]
        events: list[dict[str, Any]] = []
        # the oldest (player 1) receives a Gandalf card, the youngest the Boromir card
        g._give(g.gandalf_stack.pop(0), 0, events)
        g._give(lay.boromir, players - 1, events)
        g._lay_out(1, None)
        g.queue = [ask("start")]
        g.phase = "start"
        g.setup_events = events
        return g

    @classmethod
    def migrate(cls, data: dict[str, Any], version: int) -> dict[str, Any]:
        """An older state file: version 2 (the variant's two booleans beside
        ``variant``) or version 1 (flat keys, ``players`` a count, written before the
        kit): the booleans and the variant become the one ``variant``."""
        if version == 2 and isinstance(data.get("options"), dict):
            options = dict(data["options"])
            options["variant"] = _variant(options)
            return {**data, "options": options, "version": cls.STATE_VERSION}
        if version not in (None, -1, 1) or "state" in data:  # -1: the file names none
            return super().migrate(data, version)
        n = data.get("players")
        if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= 5:
            raise StateError("version-1 state: players must be 1 to 5", code="bad_state")
        fields = [f for f, _ in cls._fields()]
        out = migrate_flat(data, fields, [f"p{k + 1}" for k in range(n)], {})
        out["options"] = {"variant": _variant(data)}
        out["version"] = cls.STATE_VERSION
        return out

    @classmethod
    def board_names(cls, compiled: CompiledBoard) -> list[BoardName]:
        """Rivendell, the stage goals, the rally space, the route and resolve spaces
        counted as the names say (:mod:`.names`)."""
        return names.board_names(compiled)

    # ------------------------------------------------------------------ what players see
    def dump_view(self, player: str | None = None) -> dict[str, Any]:
        """The state as every player (and onlooker) sees it; the Fellowship plays
        open-handed, so all players see the same.

        Hidden (rulebook, Setup and End of a Stage):

        - ``decks``: the stacks of the stages to come, shown **sorted** — what is in
          them is known from the pack, their order is not;
        - ``row``: a card lying face down shows ``"card": "?"`` (:data:`HIDDEN`),
          stacks keep their shape;
        - ``gandalf_stack`` and ``unseen`` (the cards put back in the box unseen): one
          ``"?"`` per card — how many, not which.

        Added: ``hidden``, the sorted cards lying face down on the row, in the Gandalf
        stack or unseen in the box — which cards those places hold between them (a
        player can count them from the pack and what was seen), not which is where.
        Everything else (figures, face-up cards, cards in front of players, the cards
        seen going back in the box, the dice rolled, the decision awaited) is shown as
        it is; the kit's :meth:`view` then leaves out the generator (the dice to come).

        Notes
        -----
        One :meth:`to_json` and a sort of at most 48 cards.
        """
        data = self.to_json()
        state = data["state"]
        hidden = list(self.gandalf_stack) + list(self.unseen)
        rows = []
        for stack in self.row:
            shown = []
            for e in stack:
                if e["up"]:
                    shown.append(dict(e))
                else:
                    hidden.append(e["card"])
                    shown.append({"card": HIDDEN, "up": False})
            rows.append(shown)
        state["row"] = rows
        state["decks"] = {k: sorted(d) for k, d in self.decks.items()}
        state["gandalf_stack"] = [HIDDEN] * len(self.gandalf_stack)
        state["unseen"] = [HIDDEN] * len(self.unseen)
        state["hidden"] = sorted(hidden)
        if player is not None:
            me = self.players.index(player)
            data["hand"] = [e["card"] for e in self.held if e["owner"] == me]
        shown = [e["card"] for e in self.held] + [e["card"] for s in rows for e in s]
        data["cards"] = faces([*shown, *state["box"]], self.card_face)
        return data

    def card_face(self, card: str) -> CardFace | None:
        """A card of the pack as it lies face up: its name, deck, kind and text."""
        c = self.lay.cards.get(card)
        if c is None:
            return None
        kind = str(c.get("kind", ""))
        return CardFace(
            title=str(c.get("name", card)),
            kind=f"{kind} · {c['deck']}" if kind not in ("", c["deck"]) else str(c["deck"]),
            colour={"enemy": "#8e2424", "friend": "#2e6b30"}.get(kind, ""),
            text=str(c.get("text_ours") or c.get("text") or ""),
        )

    def determinise(self, player: str, rng: random.Random) -> Self:
        """A world for bots consistent with :meth:`view`: a copy in which every card
        whose place nobody knows is dealt afresh with ``rng`` among the places it
        could be, and whose generator is drawn from ``rng`` (dice to come are sampled,
        not foreseen).

        Each stack of a stage to come is shuffled; the cards face down on the row,
        unseen in the box and in the Gandalf stack are shuffled among those places,
        each card within its own deck of the pack (a Rohan card stays a Rohan card,
        a Gandalf card may be in the stack or lost unseen).

        Notes
        -----
        One :meth:`copy` and a few shuffles (at most 48 cards): about 60 µs.
        """
        world = self.copy()
        world.rng = Rng(rng.getrandbits(64))
        for d in world.decks.values():
            rng.shuffle(d)
        cards = self.lay.cards
        pools: dict[str, list[str]] = {}
        face_down = [e["card"] for s in self.row for e in s if not e["up"]]
        for c in itertools.chain(self.gandalf_stack, self.unseen, face_down):
            pools.setdefault(cards[c]["deck"], []).append(c)
        for pool in pools.values():
            rng.shuffle(pool)

        def deal(c: str) -> str:  # a card of c's deck, for c's place
            return pools[cards[c]["deck"]].pop()

        world.gandalf_stack = [deal(c) for c in self.gandalf_stack]
        world.unseen = [deal(c) for c in self.unseen]
        world.row = [
            [e if e["up"] else {"card": deal(e["card"]), "up": False} for e in s] for s in self.row
        ]
        return world

    # ------------------------------------------------------------------ legal moves
    def generate_legal_moves(self) -> Iterator[Move]:
        if self.result is not None:
            return
        ph = self.phase
        pending = self.queue[0] if self.queue else {}
        if ph == "start":
            if self.final_stage:
                yield Move("roll")
            else:
                for a, b in itertools.combinations(sorted(COMPANIONS), 2):
                    yield Move("roll", a, b)
        elif ph == "place1":
            for v in sorted(set(self.rolled["black"])):
                for c in sorted(self.rolled["dice"]):
                    yield Move("place", str(v), c)
        elif ph == "roll2":
            for c in sorted(COMPANIONS):
                if c not in self.rolled["used"]:
                    yield Move("roll", c)
        elif ph == "place2":
            for c in sorted(self.rolled["dice"]):
                yield Move("place", c)
        elif ph == "resolve":
            yield Move("go")
        elif ph == "advance":
            for n in range(3):
                yield Move("advance", pending["who"], str(n))
        elif ph == "army":
            for d in pending["directions"]:
                yield Move("army", d)
        elif ph == "denethor":
            for side in pending["sides"]:
                yield Move("reroll", str(side))
        elif ph == "battle":
            yield Move("fight")
            for c in self._usable_cards(("battle",)):
                yield Move("use", c)
        elif ph == "gandalf":
            for e in self.held:
                if self.lay.cards[e["card"]]["kind"] == "gandalf":
                    yield Move("save", e["card"])
            yield Move("accept")
        elif ph == "boromir":
            for c in self._usable_cards(("lost_uruk_battle",)):
                yield Move("use", c)
            yield Move("accept")
        elif ph == "vision":  # the players look through the stack: its order stays unknown
            for c in sorted(self.decks.get(str(self.stage + 1), [])):
                yield Move("vision", c)
            yield Move("pass")
        elif ph == "turned":
            yield Move("go")
        elif ph == "friends":
            for e in self.held:
                yield Move("count", e["card"])
            yield Move("done")
        # "any time" cards are offered at every decision point (DESIGN §6)
        when = ("any", "before_roll") if ph == "start" else ("any",)
        for c in self._usable_cards(when):
            yield from self._use_moves(c)

    def _anytime_card(self, card: str) -> bool:
        """Whether ``card`` is used "at any time" (or before rolling), not as an answer
        to a decision (a battle, a lost Uruk-hai battle, a stage set-up)."""
        use = self.lay.cards.get(card, {}).get("use") or {}
        return use.get("when") in ("any", "before_roll")

    def _use_moves(self, card: str) -> Iterator[Move]:
        effects = self.lay.cards[card]["use"]["effects"]
        move_op = next((e for e in effects if e["op"] == "move"), None)
        if move_op is not None:
            who = [RINGBEARER] if move_op["who"] == "ringbearer" else list(COMPANIONS)
            for c in who:
                if self._movable(c):
                    for n in range(1, int(move_op["max"]) + 1):
                        yield Move("use", card, c, str(n))
        elif any(e["op"] == "treebeard" for e in effects):
            yield Move("use", card, "resolve")
            if not self.treebeard_token and (self.leader or self.uruk):
                yield Move("use", card, "isengard")
        else:
            yield Move("use", card)

    def _check(self, move: Move) -> None:
        legal = set(self.generate_legal_moves())
        if move in legal:
            return
        verb = move.verb
        details = {"move": str(move), "phase": self.phase, "legal": sorted(str(m) for m in legal)}
        if verb == "use" and len(move.args) > 0:
            card = move.args[0]
            if card not in self.lay.cards:
                raise IllegalMoveError(f"no card {card!r}", code="unknown_card", details=details)
            if not any(e["card"] == card for e in self.held):
                raise IllegalMoveError(
                    f"{card} is not lying face up in front of anyone",
                    code="card_not_available",
                    details=details,
                )
            entry = next(e for e in self.held if e["card"] == card)
            if self.lay.cards[card]["kind"] == "gandalf" and self._gandalf_blocked():
                raise IllegalMoveError(
                    "the Balrog's Gandalf token blocks Gandalf cards until "
                    "the Ring-bearer reaches Helm's Deep",
                    code="gandalf_blocked",
                    details=details,
                )
            if (
                self.without_protection
                and entry["owner"] != self.current
                and self.lay.cards[card]["kind"] != "gandalf"
            ):
                raise IllegalMoveError(
                    f"{card} belongs to p{entry['owner'] + 1} (personal friends)",
                    code="not_your_friend",
                    details=details,
                )
            raise IllegalMoveError(
                f"{card} cannot be used now like that (phase {self.phase})",
                code="not_now",
                details=details,
            )
        if not any(m.verb == verb for m in legal):
            raise IllegalMoveError(
                f"{verb!r} is not possible in phase {self.phase}",
                code="wrong_phase",
                details=details,
            )
        raise IllegalMoveError(
            f"{move} is not allowed here", code="illegal_choice", details=details
        )

    # ------------------------------------------------------------------ applying
    def _apply(self, move: Move) -> list[Event]:
        ev: list[Event] = []
        if move.verb == "use" and self._anytime_card(move.args[0]):
            self._use_card(move, ev)
            if self.phase == "start" and self.stage_over and self.result is None:
                self.queue.insert(0, {"op": "stage_end"})
        else:
            pending = self.queue.pop(0)  # the ask this move answers
            self._ANSWERS[self.phase, move.verb](self, move, pending, ev)
        self._run(ev)
        return ev

    # ------------------------------------------------------------------ the answers
    # one per (phase, verb) of :data:`~.moves.PHASES` but the "any time" cards; each
    # gets the move, the ask it answers (already off the queue) and the events so far
    def _roll_first(self, move: Move, pending: Op, ev: list[Event]) -> None:
        if self.final_stage:  # the Mount Doom roll: one black die
            v = self._roll_die(self.lay.encounter_faces, "encounter", ev)
            self.cocooned = False
            self.queue[0:0] = [
                {"op": "encounter", "value": v},
                {"op": "final_step"},
                {"op": "end_turn"},
            ]
            return
        a, b = move.args
        black = [self._roll_die(self.lay.encounter_faces, "encounter", ev) for _ in range(2)]
        dice = {c: self._roll_die(self.lay.companion_faces, c, ev) for c in (a, b)}
        self.rolled = {"black": black, "dice": dice, "used": [a, b]}
        self.queue.insert(0, ask("place1"))

    def _place_first(self, move: Move, pending: Op, ev: list[Event]) -> None:
        v, c = int(move.args[0]), move.args[1]
        black = list(self.rolled["black"])
        black.remove(v)
        self.tray = [
            {"side": 1, "kind": "encounter", "value": v},
            {"side": 1, "kind": "companion", "who": c, "value": self.rolled["dice"][c]},
        ]
        other = next(x for x in self.rolled["dice"] if x != c)
        self.rolled = {"black": black, "keep": other, "used": list(self.rolled["used"])}
        ev.append(self.event("placed", side=1, encounter=v, companion=c))
        self.queue.insert(0, ask("roll2"))

    def _roll_second(self, move: Move, pending: Op, ev: list[Event]) -> None:
        c3 = move.args[0]
        other = self.rolled["keep"]
        v = self._roll_die(self.lay.encounter_faces, "encounter", ev)
        dice = {x: self._roll_die(self.lay.companion_faces, x, ev) for x in (other, c3)}
        self.rolled = {"black": [v], "dice": dice, "used": self.rolled["used"] + [c3]}
        self.queue.insert(0, ask("place2"))

    def _place_second(self, move: Move, pending: Op, ev: list[Event]) -> None:
        c = move.args[0]
        v = self.rolled["black"][0]
        self.tray += [
            {"side": 2, "kind": "encounter", "value": v},
            {"side": 2, "kind": "companion", "who": c, "value": self.rolled["dice"][c]},
        ]
        self.rolled = {}
        ev.append(self.event("placed", side=2, encounter=v, companion=c))
        seq: list[Op] = []
        for i in range(4):
            seq += [ask("resolve"), {"op": "die", "i": i}]
        self.queue[0:0] = seq + [{"op": "end_turn"}]

    def _go_on(self, move: Move, pending: Op, ev: list[Event]) -> None:
        """``go``, ``done``, ``accept`` a Boromir ask...: the queue carries on."""

    def _count_friend(self, move: Move, pending: Op, ev: list[Event]) -> None:
        self._spend(move.args[0], ev)
        ev.append(self.event("friend_counted", card=move.args[0]))
        self._resolve(1, ev)
        if self.held and self.result is None:
            self.queue.insert(0, pending)

    def _advance_symbol(self, move: Move, pending: Op, ev: list[Event]) -> None:
        self._move(move.args[0], int(move.args[1]), ev)

    def _move_army(self, move: Move, pending: Op, ev: list[Event]) -> None:
        self._army(int(pending["position"]) - 1, move.args[0], ev)

    def _denethor(self, move: Move, pending: Op, ev: list[Event]) -> None:
        self._reroll_side(int(move.args[0]), ev)

    def _battle_card(self, move: Move, pending: Op, ev: list[Event]) -> None:
        self._spend(move.args[0], ev)
        ev.append(self.event("battle_won_by_card", card=move.args[0]))
        self._battle_end(pending["battle"], True, ev)

    def _fight(self, move: Move, pending: Op, ev: list[Event]) -> None:
        self._battle_roll(pending["battle"], ev)

    def _save(self, move: Move, pending: Op, ev: list[Event]) -> None:
        self._spend(move.args[0], ev)
        ev.append(self.event("battle_saved_by_gandalf", card=move.args[0]))
        self._battle_end(pending["battle"], True, ev)

    def _gandalf_accepted(self, move: Move, pending: Op, ev: list[Event]) -> None:
        self._battle_lost(pending["battle"], ev)

    def _boromir(self, move: Move, pending: Op, ev: list[Event]) -> None:
        self._spend(move.args[0], ev)
        face = self._roll_die(self.lay.battle_faces, "battle", ev)
        won = face != "sauron"
        ev.append(self.event("boromir", face=face, won=won))
        self._battle_end(pending["battle"], won, ev)

    def _boromir_accepted(self, move: Move, pending: Op, ev: list[Event]) -> None:
        self._battle_end(pending["battle"], False, ev)

    def _vision(self, move: Move, pending: Op, ev: list[Event]) -> None:
        card = next(e["card"] for e in self.held if self._usable(e, ("stage_setup",)))
        self._spend(card, ev)
        self._setup_next_stage(move.args[0], ev)

    def _no_vision(self, move: Move, pending: Op, ev: list[Event]) -> None:
        self._setup_next_stage(None, ev)

    #: (phase, verb) -> its answer (every pair of :data:`~.moves.PHASES` but the "any
    #: time" ``use``, which :meth:`_apply` carries out first)
    _ANSWERS: ClassVar[dict[tuple[str, str], Callable[..., None]]] = {
        ("start", "roll"): _roll_first,
        ("place1", "place"): _place_first,
        ("roll2", "roll"): _roll_second,
        ("place2", "place"): _place_second,
        ("resolve", "go"): _go_on,
        ("turned", "go"): _go_on,
        ("friends", "count"): _count_friend,
        ("friends", "done"): _go_on,
        ("advance", "advance"): _advance_symbol,
        ("army", "army"): _move_army,
        ("denethor", "reroll"): _denethor,
        ("battle", "use"): _battle_card,
        ("battle", "fight"): _fight,
        ("gandalf", "save"): _save,
        ("gandalf", "accept"): _gandalf_accepted,
        ("boromir", "use"): _boromir,
        ("boromir", "accept"): _boromir_accepted,
        ("vision", "vision"): _vision,
        ("vision", "pass"): _no_vision,
    }


def _variant(old: dict[str, Any]) -> str:
    """The one ``variant`` an old file's ``variant`` and booleans (``friends_in_need``,
    ``without_protection``, removed from ``old``) meant together."""
    named = VARIANTS.get(str(old.pop("variant", "standard")), (False, False))
    fin = named[0] or old.pop("friends_in_need", False) is True
    wp = named[1] or old.pop("without_protection", False) is True
    old.pop("friends_in_need", None)
    old.pop("without_protection", None)
    return next(name for name, flags in VARIANTS.items() if flags == (fin, wp))
