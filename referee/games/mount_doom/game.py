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
from collections.abc import Iterator
from typing import Any, ClassVar

from ...compiler import CompiledBoard
from ...errors import IllegalMoveError, StateError, UsageError
from ..base import FigureView, Game, WordMove
from ..rng import Rng
from .layout import COMPANIONS, RINGBEARER, Layout, layout_of

RALLY = -1
VERBS = (
    "roll",
    "place",
    "go",
    "use",
    "advance",
    "army",
    "reroll",
    "fight",
    "save",
    "accept",
    "vision",
    "pass",
    "count",
    "done",
)
VARIANTS = {
    "standard": (False, False),
    "friends-in-need": (True, False),
    "without-protection": (False, True),
    "both": (True, True),
}


class Move(WordMove):
    """A decision, e.g. ``Move(("roll", "aragorn", "ringbearer"))``; ``str`` is its text."""

    verbs = VERBS


def _ask(phase: str, **data: Any) -> dict[str, Any]:
    return {"op": "ask", "phase": phase, **data}


class MountDoom(Game[Move]):
    """State and rules of one game of Adventure to Mount Doom."""

    rules: ClassVar[str] = "mount-doom"

    # ------------------------------------------------------------------ construction
    def __init__(self, compiled: CompiledBoard) -> None:
        self.compiled = compiled
        self.lay: Layout = layout_of(compiled)

    @classmethod
    def new(
        cls,
        compiled: CompiledBoard,
        *,
        players: int,
        seed: int,
        options: dict[str, Any] | None = None,
    ) -> MountDoom:
        """Set up a game: figures on Rivendell, Lothlórien cards laid out, cards dealt.

        ``options``: ``variant`` (standard, friends-in-need, without-protection, both),
        or the booleans ``friends_in_need`` and ``without_protection``.
        """
        opts = dict(options or {})
        if not 1 <= int(players) <= 5:
            raise UsageError(f"Adventure to Mount Doom is played by 1 to 5 players, not {players}")
        variant = str(opts.pop("variant", "standard") or "standard")
        if variant not in VARIANTS:
            raise UsageError(f"unknown variant {variant!r} (known: {', '.join(VARIANTS)})")
        fin, wop = VARIANTS[variant]
        for key, val in opts.items():
            if key not in ("friends_in_need", "without_protection"):
                raise UsageError(
                    f"unknown option {key!r} (known: variant, friends_in_need, without_protection)"
                )
            flag = str(val).lower() in ("1", "true", "yes", "on")
            fin = fin or (key == "friends_in_need" and flag)
            wop = wop or (key == "without_protection" and flag)
        g = cls(compiled)
        lay = g.lay
        g.rng = Rng.from_seed(seed)
        g.seed = seed
        g.players = int(players)
        g.friends_in_need = fin
        g.without_protection = wop
        g.current = 0
        g.turn = 1
        g.pos = dict.fromkeys(COMPANIONS, 0)
        g.ring = lay.ring_start
        g.nazgul = 1  # the Witch-king stands at Minas Morgul
        g.witch_king_defeated = False
        g.uruk = 0  # warriors at Isengard (the leader is apart)
        g.leader = True
        g.treebeard_token = False
        g.gandalf_token = False
        g.stage = 1
        g.stage_over = False
        g.cocooned = False
        g.uruk_wins = 0
        g.decks = {}
        for s in range(1, 7):
            d = list(lay.stage_decks[s])
            g.rng.shuffle(d)
            g.decks[s] = d
        gd = list(lay.gandalf_deck)
        g.rng.shuffle(gd)
        g.gandalf_stack = gd
        g.held = []
        g.box = []
        g.row = [[] for _ in range(6)]
        g.rolled = {}
        g.tray = []
        g.outcome_ = None
        events: list[dict[str, Any]] = []
        # the oldest (player 1) receives a Gandalf card, the youngest the Boromir card
        g._give(g.gandalf_stack.pop(0), 0, events)
        g._give(lay.boromir, g.players - 1, events)
        g._lay_out(1, None)
        g.queue = [_ask("start")]
        g.phase = "start"
        g.setup_events = events
        return g

    def _give(self, card: str, owner: int, events: list[dict[str, Any]]) -> None:
        self.held.append({"card": card, "owner": owner})
        events.append({"type": "card_received", "card": card, "player": f"p{owner + 1}"})

    # ------------------------------------------------------------------ serialisation
    _FIELDS = (
        "seed",
        "players",
        "friends_in_need",
        "without_protection",
        "current",
        "turn",
        "pos",
        "ring",
        "nazgul",
        "witch_king_defeated",
        "uruk",
        "leader",
        "treebeard_token",
        "gandalf_token",
        "stage",
        "stage_over",
        "cocooned",
        "uruk_wins",
        "gandalf_stack",
        "held",
        "box",
        "row",
        "rolled",
        "tray",
        "queue",
        "phase",
    )

    def to_json(self) -> dict[str, Any]:
        return self.fields_to_json(
            decks={str(k): v for k, v in self.decks.items()}, outcome=self.outcome_
        )

    @classmethod
    def from_json(cls, data: dict[str, Any], compiled: CompiledBoard) -> MountDoom:
        g = cls(compiled)

        def rest(d: dict[str, Any]) -> None:
            g.decks = {int(k): list(v) for k, v in d["decks"].items()}
            g.outcome_ = d["outcome"]

        g.fields_from_json(data, rest)
        return g

    # ------------------------------------------------------------------ queries
    @property
    def outcome(self) -> dict[str, Any] | None:
        return self.outcome_

    @property
    def to_move(self) -> str:
        return f"p{self.current + 1}"

    @property
    def final_stage(self) -> bool:
        return self.stage == 6

    def parse_move(self, text: str) -> Move:
        return Move.parse(text)

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
        if self.outcome_ is not None:
            return 1000.0 if self.outcome_["result"] == "won" else -1000.0
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
        return (
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

    # ------------------------------------------------------------------ frontends
    #: stand colours of the pack's figures, as fill colours
    STAND_COLOURS: ClassVar[dict[str, str]] = {
        "orange": "#f57c00",
        "green": "#2e7d32",
        "blue": "#1e88e5",
        "red": "#c62828",
        "yellow": "#fdd835",
    }
    COMPANION_LABELS: ClassVar[dict[str, str]] = {
        "ringbearer": "FS",
        "aragorn": "A",
        "legolas": "L",
        "gimli": "G",
        "merry-pippin": "MP",
    }

    def _companion_node(self, index: int) -> str:
        return self.lay.rally if index == RALLY else self.lay.route[index]

    def figures(self) -> dict[str, FigureView]:
        """The companions on the route (or the rally space), the One Ring on the resolve
        track, the Witch-king and the Nazgûl at Minas Morgul, the Uruk-hai at Isengard.

        Everything belongs to the Fellowship (``owner`` ``None``): every player moves
        every companion.
        """
        lay, pieces = self.lay, self.compiled.board.piece_types
        out: dict[str, FigureView] = {}
        for c in COMPANIONS:
            spec = pieces.get(f"mount-doom/{c}", {})
            out[c] = FigureView(
                id=c,
                node=self._companion_node(self.pos[c]),
                label=self.COMPANION_LABELS[c],
                colour=self.STAND_COLOURS.get(str(spec.get("stand")), "#9e9e9e"),
                side="fellowship",
                name=str(spec.get("name", c)),
                size=2 if c == RINGBEARER else 1,
            )
        out["one-ring"] = FigureView(
            id="one-ring",
            node=lay.resolve[self.ring],
            label="R",
            colour="#ffd54f",
            side="marker",
            name="The One Ring",
            size=0,
        )
        if not self.witch_king_defeated:
            out["witch-king"] = FigureView(
                id="witch-king",
                node=lay.nazgul_spaces[0],
                label="WK",
                colour="#212121",
                side="shadow",
                name="Witch-king of Angmar",
                size=1,
            )
        for k in range(1, min(self.nazgul, len(lay.nazgul_spaces))):
            out[f"nazgul-{k}"] = FigureView(
                id=f"nazgul-{k}",
                node=lay.nazgul_spaces[k],
                label="N",
                colour="#424242",
                side="shadow",
                name=f"Nazgûl {k}",
                size=0,
            )
        if self.leader:
            out["uruk-hai-leader"] = FigureView(
                id="uruk-hai-leader",
                node=lay.isengard[0],
                label="UL",
                colour="#5d4037",
                side="shadow",
                name="Uruk-hai leader",
                size=1,
            )
        for k in range(1, min(self.uruk, len(lay.isengard) - 1) + 1):
            out[f"uruk-hai-{k}"] = FigureView(
                id=f"uruk-hai-{k}",
                node=lay.isengard[k],
                label="U",
                colour="#8d6e63",
                side="shadow",
                name=f"Uruk-hai warrior {k}",
                size=0,
            )
        return out

    def _landing(self, who: str, n: int) -> str | None:
        """The node :meth:`_move` puts ``who`` on when moving ``n`` spaces (``None``:
        he does not move). Mirrors :meth:`_move` without changing anything."""
        if who not in COMPANIONS or n <= 0 or not self._movable(who):
            return None
        start = self.pos[who]
        target = start + n
        if who == RINGBEARER:
            goal = next(gi for gi in self.lay.goals if gi > start)
            target = min(target, goal)
        elif target > self.lay.minas_morgul:
            return self.lay.rally
        return self.lay.route[target]

    def move_destination(self, move: Move) -> tuple[str, str] | None:
        """``advance C N`` and ``use CARD C N`` (cards that move a companion) move
        companion C; every other decision (dice, cards, battles) moves no figure."""
        w = move.words
        try:
            if w[0] == "advance" and len(w) == 3 and self.phase == "advance":
                who, n = w[1], int(w[2])
            elif (
                w[0] == "use"
                and len(w) == 4
                and any(e["op"] == "move" for e in self.lay.cards[w[1]]["use"]["effects"])
            ):
                who, n = w[2], int(w[3])
            else:
                return None
        except (KeyError, ValueError, TypeError):
            return None
        node = self._landing(who, n)
        return None if node is None else (who, node)

    # ------------------------------------------------------------------ legal moves
    def generate_legal_moves(self) -> Iterator[Move]:
        if self.outcome_ is not None:
            return
        ph = self.phase
        ask = self.queue[0] if self.queue else {}
        if ph == "start":
            if self.final_stage:
                yield Move(("roll",))
            else:
                for a, b in itertools.combinations(sorted(COMPANIONS), 2):
                    yield Move(("roll", a, b))
        elif ph == "place1":
            for v in sorted(set(self.rolled["black"])):
                for c in sorted(self.rolled["dice"]):
                    yield Move(("place", str(v), c))
        elif ph == "roll2":
            for c in sorted(COMPANIONS):
                if c not in self.rolled["used"]:
                    yield Move(("roll", c))
        elif ph == "place2":
            for c in sorted(self.rolled["dice"]):
                yield Move(("place", c))
        elif ph == "resolve":
            yield Move(("go",))
        elif ph == "advance":
            for n in range(3):
                yield Move(("advance", ask["who"], str(n)))
        elif ph == "army":
            for d in ask["directions"]:
                yield Move(("army", d))
        elif ph == "denethor":
            for side in ask["sides"]:
                yield Move(("reroll", str(side)))
        elif ph == "battle":
            yield Move(("fight",))
            for c in self._usable_cards(("battle",)):
                yield Move(("use", c))
        elif ph == "gandalf":
            for e in self.held:
                if self.lay.cards[e["card"]]["kind"] == "gandalf":
                    yield Move(("save", e["card"]))
            yield Move(("accept",))
        elif ph == "boromir":
            for c in self._usable_cards(("lost_uruk_battle",)):
                yield Move(("use", c))
            yield Move(("accept",))
        elif ph == "vision":
            for c in self.decks.get(self.stage + 1, []):
                yield Move(("vision", c))
            yield Move(("pass",))
        elif ph == "turned":
            yield Move(("go",))
        elif ph == "friends":
            for e in self.held:
                yield Move(("count", e["card"]))
            yield Move(("done",))
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
                        yield Move(("use", card, c, str(n)))
        elif any(e["op"] == "treebeard" for e in effects):
            yield Move(("use", card, "resolve"))
            if not self.treebeard_token and (self.leader or self.uruk):
                yield Move(("use", card, "isengard"))
        else:
            yield Move(("use", card))

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
        verb = move.words[0]
        details = {"move": str(move), "phase": self.phase, "legal": sorted(str(m) for m in legal)}
        if verb == "use" and len(move.words) > 1:
            card = move.words[1]
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
        if not any(m.words[0] == verb for m in legal):
            raise IllegalMoveError(
                f"{verb!r} is not possible in phase {self.phase}",
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
        if w[0] == "use" and self._anytime_card(w[1]):
            self._use_card(w, ev)
            if ph == "start" and self.stage_over and self.outcome_ is None:
                self.queue.insert(0, {"op": "stage_end"})
            self._run(ev)
            return ev
        ask = self.queue.pop(0)  # the ask this move answers
        if ph == "start":
            if self.final_stage:
                v = self._roll_die(self.lay.encounter_faces, "encounter", ev)
                self.cocooned = False
                self.queue[0:0] = [
                    {"op": "encounter", "value": v},
                    {"op": "final_step"},
                    {"op": "end_turn"},
                ]
            else:
                a, b = w[1], w[2]
                black = [
                    self._roll_die(self.lay.encounter_faces, "encounter", ev) for _ in range(2)
                ]
                dice = {c: self._roll_die(self.lay.companion_faces, c, ev) for c in (a, b)}
                self.rolled = {"black": black, "dice": dice, "used": [a, b]}
                self.queue.insert(0, _ask("place1"))
        elif ph == "place1":
            v, c = int(w[1]), w[2]
            black = list(self.rolled["black"])
            black.remove(v)
            self.tray = [
                {"side": 1, "kind": "encounter", "value": v},
                {"side": 1, "kind": "companion", "who": c, "value": self.rolled["dice"][c]},
            ]
            other = next(x for x in self.rolled["dice"] if x != c)
            self.rolled = {"black": black, "keep": other, "used": list(self.rolled["used"])}
            ev.append({"type": "placed", "side": 1, "encounter": v, "companion": c})
            self.queue.insert(0, _ask("roll2"))
        elif ph == "roll2":
            c3 = w[1]
            other = self.rolled["keep"]
            v = self._roll_die(self.lay.encounter_faces, "encounter", ev)
            dice = {x: self._roll_die(self.lay.companion_faces, x, ev) for x in (other, c3)}
            self.rolled = {"black": [v], "dice": dice, "used": self.rolled["used"] + [c3]}
            self.queue.insert(0, _ask("place2"))
        elif ph == "place2":
            c = w[1]
            v = self.rolled["black"][0]
            self.tray += [
                {"side": 2, "kind": "encounter", "value": v},
                {"side": 2, "kind": "companion", "who": c, "value": self.rolled["dice"][c]},
            ]
            self.rolled = {}
            ev.append({"type": "placed", "side": 2, "encounter": v, "companion": c})
            seq: list[dict[str, Any]] = []
            for i in range(4):
                seq += [_ask("resolve"), {"op": "die", "i": i}]
            self.queue[0:0] = seq + [{"op": "end_turn"}]
        elif ph in ("resolve", "turned"):
            pass  # the next op is the die, or the turned card's effects
        elif ph == "friends":
            if w[0] == "count":
                self._spend(w[1], ev)
                ev.append({"type": "friend_counted", "card": w[1]})
                self._resolve(1, ev)
                if self.held and self.outcome_ is None:
                    self.queue.insert(0, ask)
        elif ph == "advance":
            self._move(w[1], int(w[2]), ev)
        elif ph == "army":
            self._army(int(ask["position"]) - 1, w[1], ev)
        elif ph == "denethor":
            self._reroll_side(int(w[1]), ev)
        elif ph == "battle":
            b = ask["battle"]
            if w[0] == "use":
                self._spend(w[1], ev)
                ev.append({"type": "battle_won_by_card", "card": w[1]})
                self._battle_end(b, True, ev)
            else:
                self._battle_roll(b, ev)
        elif ph == "gandalf":
            b = ask["battle"]
            if w[0] == "save":
                self._spend(w[1], ev)
                ev.append({"type": "battle_saved_by_gandalf", "card": w[1]})
                self._battle_end(b, True, ev)
            else:
                self._battle_lost(b, ev)
        elif ph == "boromir":
            b = ask["battle"]
            if w[0] == "use":
                self._spend(w[1], ev)
                face = self._roll_die(self.lay.battle_faces, "battle", ev)
                won = face != "sauron"
                ev.append({"type": "boromir", "face": face, "won": won})
                self._battle_end(b, won, ev)
            else:
                self._battle_end(b, False, ev)
        elif ph == "vision":
            if w[0] == "vision":
                card = next(e["card"] for e in self.held if self._usable(e, ("stage_setup",)))
                self._spend(card, ev)
                self._setup_next_stage(w[1], ev)
            else:
                self._setup_next_stage(None, ev)
        self._run(ev)
        return ev

    # ------------------------------------------------------------------ the queue
    def _run(self, ev: list[dict[str, Any]]) -> None:
        """Carry out queued operations until one needs a decision or the game ends."""
        while self.outcome_ is None and self.queue:
            op = self.queue[0]
            if op["op"] == "ask":
                self.phase = op["phase"]
                return
            self.queue.pop(0)
            self._op(op, ev)
        if self.outcome_ is not None:
            self.phase = "over"
            self.queue = []

    def _op(self, op: dict[str, Any], ev: list[dict[str, Any]]) -> None:
        kind = op["op"]
        if kind == "die":
            die = self.tray[op["i"]]
            if die["kind"] == "encounter":
                self._encounter(die["value"], ev)
            else:
                ev.append({"type": "companion_die", "who": die["who"], "value": die["value"]})
                self._move(die["who"], die["value"], ev)
            die["done"] = True
        elif kind == "encounter":
            self._encounter(op["value"], ev)
        elif kind == "final_step":
            if self.cocooned:
                ev.append({"type": "cocooned", "who": RINGBEARER})
            else:
                self._move(RINGBEARER, 1, ev)
        elif kind == "end_turn":
            self.tray = []
            if self.stage_over:
                self.queue[0:0] = [{"op": "stage_end"}, {"op": "next_player"}]
            else:
                self.queue.insert(0, {"op": "next_player"})
        elif kind == "next_player":
            self.current = (self.current + 1) % self.players
            self.turn += 1
            self.cocooned = False
            ev.append({"type": "turn", "player": self.to_move, "turn": self.turn})
            self.queue.insert(0, _ask("start"))
        elif kind == "stage_end":
            if self._usable_cards(("stage_setup",)):
                self.queue.insert(0, _ask("vision"))
            else:
                self._setup_next_stage(None, ev)
        elif kind == "effect":
            self._effect(op["effect"], ev)
        elif kind == "battle":
            self._battle_start(op["battle"], ev)
        elif kind == "final_setup":
            self._final_setup(op, ev)
        elif kind == "uruk_cleanup":
            if not self.treebeard_token and self.uruk_wins > 0 and self.uruk > 0:
                self.uruk -= 1
                ev.append({"type": "uruk_hai_removed", "left": self.uruk})
        else:  # pragma: no cover - a bug, not bad input
            raise StateError(f"unknown queued operation {kind!r}")

    # ------------------------------------------------------------------ chance
    def _roll_die(self, faces: list[Any], name: str, ev: list[dict[str, Any]]) -> Any:
        face = faces[self.rng.randrange(len(faces))]
        ev.append({"type": "roll", "die": name, "face": face})
        return face

    # ------------------------------------------------------------------ figures
    def _move(self, who: str, n: int, ev: list[dict[str, Any]]) -> None:
        """Move ``who`` exactly ``n`` spaces (the Ring-bearer stops on the stage goal)."""
        if n <= 0:
            return
        lay = self.lay
        if not self._movable(who):
            ev.append({"type": "stays", "who": who, "reason": "cannot move"})
            return
        start = self.pos[who]
        target = start + n
        exact = True
        if who == RINGBEARER:
            goal = next(gi for gi in lay.goals if gi > start)
            if target > goal:
                target, exact = goal, False
        elif target > lay.minas_morgul:
            self.pos[who] = RALLY
            ev.append({"type": "rally", "who": who, "from": lay.route[start]})
            return
        occupied = any(self.pos[c] == target for c in COMPANIONS if c != who)
        self.pos[who] = target
        ev.append(
            {
                "type": "move",
                "who": who,
                "from": lay.route[start],
                "to": lay.route[target],
                "spaces": target - start,
            }
        )
        if target in lay.goals:
            self._reach_goal(who, target, exact, ev)
            return
        event = lay.events.get(target)
        if event:
            if occupied and not self.without_protection:
                ev.append({"type": "protected", "space": lay.route[target], "event": event})
            elif event == "dark_heart":
                ev.append({"type": "event_space", "space": lay.route[target], "event": event})
                self._resolve(-1, ev)
            else:
                ev.append({"type": "event_space", "space": lay.route[target], "event": event})
                self._place_nazgul(1, ev)

    def _reach_goal(self, who: str, gi: int, exact: bool, ev: list[dict[str, Any]]) -> None:
        lay = self.lay
        name = lay.goal_names[gi]
        ev.append({"type": "stage_goal", "who": who, "goal": name, "exact": exact})
        if gi == lay.mount_doom:
            self._finish("won", "the Ring-bearer reached the crater of Mount Doom", ev)
            return
        if who != RINGBEARER:
            if exact:
                self._resolve(1, ev)
            return
        if gi == lay.helms_deep and self.gandalf_token:
            self.gandalf_token = False
            ev.append({"type": "gandalf_token_removed"})
        if gi != lay.minas_morgul and self.gandalf_stack:
            card = self.gandalf_stack.pop(0)
            if exact:
                self._give(card, self.current, ev)
            else:
                self.box.append(card)
                ev.append({"type": "gandalf_card_lost"})
        if gi == lay.goals[self.stage - 1]:
            self.stage_over = True
            ev.append({"type": "stage_over", "stage": self.stage, "goal": name})

    def _resolve(self, n: int, ev: list[dict[str, Any]]) -> None:
        """Move the One Ring ``n`` spaces (positive: toward the bright heart)."""
        if n == 0:
            return
        new = self.ring - n
        if new > self.lay.dark_end:
            self.ring = self.lay.dark_end
            ev.append({"type": "resolve", "change": n, "ring": self.lay.resolve[self.ring]})
            self._finish(
                "lost", "the One Ring was pulled past the last space toward the dark heart", ev
            )
            return
        self.ring = max(0, new)
        ev.append({"type": "resolve", "change": n, "ring": self.lay.resolve[self.ring]})

    def _place_nazgul(self, n: int, ev: list[dict[str, Any]]) -> None:
        for _ in range(n):
            if self.witch_king_defeated:
                ev.append({"type": "nazgul_no_threat"})
                return
            self.nazgul += 1
            ev.append(
                {
                    "type": "nazgul",
                    "space": self.lay.nazgul_spaces[self.nazgul - 1],
                    "count": self.nazgul,
                }
            )
            if self.nazgul >= 9:
                self._finish("lost", "the ninth Nazgûl was placed at Minas Morgul", ev)
                return

    def _finish(self, result: str, reason: str, ev: list[dict[str, Any]]) -> None:
        if self.outcome_ is None:
            self.outcome_ = {
                "result": result,
                "winner": "fellowship" if result == "won" else None,
                "reason": reason,
                "turns": self.turn,
            }
            ev.append({"type": "game_over", **self.outcome_})

    # ------------------------------------------------------------------ cards
    def _spend(self, card: str, ev: list[dict[str, Any]]) -> None:
        self.held = [e for e in self.held if e["card"] != card]
        self.box.append(card)
        ev.append({"type": "card_used", "card": card})

    def _use_card(self, w: tuple[str, ...], ev: list[dict[str, Any]]) -> None:
        card = w[1]
        self._spend(card, ev)
        for eff in self.lay.cards[card]["use"]["effects"]:
            if eff["op"] == "move":
                self._move(w[2], int(w[3]), ev)
            elif eff["op"] == "treebeard":
                if w[2] == "resolve":
                    self._resolve(int(eff.get("n", 2)), ev)
                else:
                    self.treebeard_token = True
                    ev.append({"type": "treebeard_token"})
            else:
                self._effect(eff, ev)
            if self.outcome_ is not None:
                return

    def _encounter(self, value: int, ev: list[dict[str, Any]]) -> None:
        """Activate encounter row position ``value`` (1..6)."""
        k = value - 1
        stack = self.row[k]
        if not stack:
            sym = self.lay.row_symbols[k]
            ev.append({"type": "row_symbol", "position": value, "symbol": sym})
            if sym == "nazgul":
                self._place_nazgul(1, ev)
            else:
                self.queue.insert(0, _ask("advance", who=sym))
            return
        top = stack[-1]
        card = self.lay.cards[top["card"]]
        turned = not top["up"]
        if turned:
            stack[-1] = {"card": top["card"], "up": True}
            ev.append({"type": "card_turned", "position": value, "card": card["id"]})
        ev.append(
            {"type": "encounter", "position": value, "card": card["id"], "kind": card["kind"]}
        )
        if card["kind"] == "friend":
            stack.pop()
            self._give(card["id"], self.current, ev)
            return
        if card.get("once"):
            stack.pop()
            self.box.append(card["id"])
            ev.append({"type": "card_removed", "card": card["id"]})
        effects = [
            {"op": "effect", "effect": dict(e, position=value)} for e in card.get("effects", [])
        ]
        if turned and effects and self._usable_cards(("any",)):
            # a card just turned face up: the players may use "any time" cards before it
            # is carried out (DESIGN §6)
            effects.insert(0, _ask("turned", position=value, card=card["id"]))
        self.queue[0:0] = effects

    def _effect(self, eff: dict[str, Any], ev: list[dict[str, Any]]) -> None:
        op = eff["op"]
        if op == "resolve":
            self._resolve(int(eff["n"]), ev)
        elif op == "nazgul":
            self._place_nazgul(int(eff["n"]), ev)
        elif op == "battle":
            battles = [
                {
                    "op": "battle",
                    "battle": {
                        "hearts": int(eff.get("hearts", 1)),
                        "on_loss": eff.get("on_loss", []),
                        "uruk": False,
                    },
                }
                for _ in range(int(eff.get("count", 1)))
            ]
            self.queue[0:0] = battles
        elif op == "uruk_hai":
            n = self.uruk + (1 if self.leader else 0)
            if n == 0:
                # only the cards of the stages to Gondor and Minas Morgul name the bright
                # heart (rulebook, Closer Look; DESIGN §6): their data carries freed_hearts
                ev.append({"type": "isengard_free"})
                self._resolve(int(eff.get("freed_hearts", 0)), ev)
                return
            self.uruk_wins = 0
            self.queue[0:0] = [
                {
                    "op": "battle",
                    "battle": {"hearts": int(eff.get("hearts", 1)), "on_loss": [], "uruk": True},
                }
                for _ in range(n)
            ] + [{"op": "uruk_cleanup"}]
        elif op == "saruman":
            if not self.leader:
                ev.append({"type": "saruman", "added": 0, "reason": "Isengard is free"})
                return
            add = min(int(eff["n"]), 5 - self.uruk)
            self.uruk += add
            ev.append({"type": "saruman", "added": add, "at_isengard": self.uruk})
        elif op == "gandalf_blocked":
            self.gandalf_token = self.pos[RINGBEARER] < self.lay.helms_deep
            ev.append({"type": "gandalf_token", "placed": self.gandalf_token})
        elif op == "sauron_eye":
            if self.ring < self.lay.sauron_eye:
                self.ring = self.lay.sauron_eye
                ev.append({"type": "sauron_eye", "ring": self.lay.resolve[self.ring]})
            else:
                ev.append({"type": "sauron_eye", "ring": None})
        elif op == "discard_friends":
            friends = [
                e["card"] for e in self.held if self.lay.cards[e["card"]]["kind"] == "friend"
            ]
            for c in friends:
                self._spend(c, ev)
            if not friends:
                self._resolve(-int(eff.get("hearts_if_none", 1)), ev)
        elif op == "army_of_the_dead":
            k = int(eff["position"]) - 1
            dirs = [
                d
                for d, step in (("left", -1), ("right", 1))
                if self._army_target(k, step) is not None
            ]
            if dirs:
                self.queue.insert(0, _ask("army", position=k + 1, directions=dirs))
            else:
                ev.append({"type": "army_stays"})
        elif op == "reroll_companion_die":
            sides = [d["side"] for d in self.tray if d["kind"] == "companion" and not d.get("done")]
            if len(sides) == 2:
                self.queue.insert(0, _ask("denethor", sides=sides))
            elif sides:
                self._reroll_side(sides[0], ev)
            else:
                ev.append({"type": "denethor", "rerolled": None})
        elif op == "cocoon":
            self.cocooned = True
        elif op == "remove_uruk":
            n = min(int(eff["n"]), self.uruk)
            self.uruk -= n
            ev.append({"type": "uruk_hai_removed", "left": self.uruk})
        elif op == "duel_witch_king":
            face = self._roll_die(self.lay.battle_faces, "battle", ev)
            won = face in self.supporters()
            if won:
                self.witch_king_defeated = True
            ev.append({"type": "duel_witch_king", "face": face, "won": won})
        else:  # pragma: no cover - the pack names an op we do not know
            raise StateError(f"unknown effect op {op!r}")

    def _army_target(self, k: int, step: int) -> int | None:
        j = k + step
        while 0 <= j < 6:
            if self.row[j]:
                return j
            j += step
        return None

    def _army(self, k: int, direction: str, ev: list[dict[str, Any]]) -> None:
        j = self._army_target(k, -1 if direction == "left" else 1)
        assert j is not None
        army = self.row[k].pop()
        self.row[j].append(army)
        ev.append(
            {"type": "army_moved", "from": k + 1, "to": j + 1, "covers": self.row[j][-2]["card"]}
        )

    def _reroll_side(self, side: int, ev: list[dict[str, Any]]) -> None:
        die = next(d for d in self.tray if d["kind"] == "companion" and d["side"] == side)
        die["value"] = self._roll_die(self.lay.companion_faces, die["who"], ev)
        ev.append({"type": "denethor", "side": side, "value": die["value"]})

    # ------------------------------------------------------------------ battles
    def _battle_start(self, b: dict[str, Any], ev: list[dict[str, Any]]) -> None:
        ev.append({"type": "battle", "uruk_hai": b["uruk"], "support": self.supporters()})
        if self._usable_cards(("battle", "any")):
            self.queue.insert(0, _ask("battle", battle=b))
        else:
            self._battle_roll(b, ev)

    def _battle_roll(self, b: dict[str, Any], ev: list[dict[str, Any]]) -> None:
        face = self._roll_die(self.lay.battle_faces, "battle", ev)
        if face == "sauron":
            won = False
        elif face == "gandalf":
            if not self._gandalf_blocked() and any(
                self.lay.cards[e["card"]]["kind"] == "gandalf" for e in self.held
            ):
                self.queue.insert(0, _ask("gandalf", battle=b))
                return
            won = False
        else:
            won = face in self.supporters()
        self._battle_end(b, won, ev)

    def _battle_lost(self, b: dict[str, Any], ev: list[dict[str, Any]]) -> None:
        self._battle_end(b, False, ev)

    def _battle_end(
        self,
        b: dict[str, Any],
        won: bool,
        ev: list[dict[str, Any]],
    ) -> None:
        if (
            not won
            and b["uruk"]
            and not b.get("boromir_asked")
            and self._usable_cards(("lost_uruk_battle",))
        ):
            self.queue.insert(0, _ask("boromir", battle=dict(b, boromir_asked=True)))
            return
        ev.append({"type": "battle_result", "won": won})
        if won:
            if b["uruk"]:
                self.uruk_wins += 1
                if self.treebeard_token:
                    if self.uruk:
                        self.uruk -= 1
                    elif self.leader:
                        self.leader = False
                        ev.append({"type": "isengard_free"})
                    ev.append({"type": "uruk_hai_removed", "left": self.uruk + self.leader})
            return
        self._resolve(-int(b["hearts"]), ev)
        if self.outcome_ is None:
            self.queue[0:0] = [{"op": "effect", "effect": e} for e in b.get("on_loss", [])]

    # ------------------------------------------------------------------ stages
    def _lay_out(self, stage: int, leave_out: str | None) -> list[str]:
        deck = self.decks[stage]
        if leave_out is not None:
            deck.remove(leave_out)
            laid, out = deck[:6], [leave_out] + deck[6:]
        else:
            laid, out = deck[:6], deck[6:]
        self.decks[stage] = []
        self.box.extend(out)
        for k, c in enumerate(laid):
            up = leave_out is not None or k not in (0, 5)
            self.row[k] = [{"card": c, "up": up}]
        return laid

    def _setup_next_stage(self, leave_out: str | None, ev: list[dict[str, Any]]) -> None:
        for stack in self.row:
            self.box.extend(e["card"] for e in stack)
        self.row = [[] for _ in range(6)]
        self.stage += 1
        self.stage_over = False
        ev.append(
            {
                "type": "stage",
                "stage": self.stage,
                "goal": self.lay.goal_names[self.lay.goals[self.stage - 1]],
            }
        )
        if self.stage == 6:
            mm = self.lay.minas_morgul
            helpers = [c for c in COMPANIONS if c != RINGBEARER and self.pos[c] == mm]
            ev.append({"type": "minas_morgul", "helpers": helpers})
            setup = {"op": "final_setup", "leave_out": leave_out, "helpers": helpers}
            if self.friends_in_need and self.held:
                # Friends in Need: the players choose which unused cards count (DESIGN §6)
                self.queue[0:0] = [_ask("friends"), setup]
            else:
                self._final_setup(setup, ev)
        else:
            self._lay_out(self.stage, leave_out)

    def _final_setup(self, op: dict[str, Any], ev: list[dict[str, Any]]) -> None:
        """Lay out the Mount Doom cards, then one step per helper at Minas Morgul."""
        self._lay_out(6, op["leave_out"])
        for _ in op["helpers"]:
            self._move(RINGBEARER, 1, ev)
            if self.outcome_ is not None:
                return

    # ------------------------------------------------------------------ accounting
    def invariants(self) -> list[str]:
        """Broken invariants (empty when all hold): cards, figures, tokens accounted for.

        ``referee selfplay`` calls this after every move.
        """
        bad: list[str] = []
        locs = self.card_locations()
        if sorted(locs) != sorted(self.lay.cards):
            bad.append("the cards in play are not exactly the cards of the pack")
        double = sorted(
            c for c, v in locs.items() if v not in ("deck", "gandalf_stack", "row", "held", "box")
        )
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
        if self.outcome_ is None and not (self.queue and self.queue[0]["op"] == "ask"):
            bad.append("the game waits for no decision")
        return bad

    def card_locations(self) -> dict[str, str]:
        """Where every card is: ``deck``, ``gandalf_stack``, ``row``, ``held``, ``box``."""
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
        return out
