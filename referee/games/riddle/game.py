"""Riddle of the Ring: the card game referee (rules name ``riddle``).

The game is a sequence of small decision moves (:mod:`.moves`). The player on turn
rolls, moves along paths the movement referee (:mod:`.movement`) validates, has the
obligatory Friendly Exchanges in the order he chooses, makes up to two Power Plays
before and/or after moving, and ends the turn by picking up (city or card) and
discarding, or by passing. Other players decide only inside activities that ask
them: the defender of a battle, and the target of resistible clairvoyance.

Blind draws from a hand ("draw the card he wants seeing only the backs") are made
by the seeded generator held in the state, so a game replays bit for bit.

Rulings of ours where the rulebook is silent (see also the deck's ``ours`` fields):

- a Friendly Exchange is owed only when both players hold a card when the mover
  stops (rulings § Riddle card game, "no cards, no exchange"); each draws from the
  other's hand as it was before the exchange;
- Cloak/Rope/Boat cards a move uses go from the hand to the table; a Boat is used
  when the move needs one, a Cloak or Rope only when the move says so (``+cloak``,
  ``+rope``: "may use", rulings § Riddle movement), and naming one that changes nothing is refused;
- a move back to the space the turn began on is refused when no legal way would then
  remain to end the turn elsewhere (or to win) (rulings § Riddle movement);
- Wizards are used by players of their own kind (Good: Hobbits, Evil: Black Riders);
  Good/Evil characters by Hobbits/Black Riders, Neutral ones by anybody;
- an Elf Ring reaches a player on or beside you, a Palantir a player on a city;
- a Hobbit/Black Rider card used to draw a card is discarded; one given to its owner
  stays in his hand, and the giver takes any other card of the hand he saw;
- in a battle the defender answers a round with one card or one city of exactly the
  round's points (rulings § Riddle movement); the attacker opens with a card from his hand (every
  Power Play needs one) and may settle only after a matched round;
  each Good/Evil city on or beside either player serves each player once per battle;
  the cards of the battle are discarded (Retain cards return) before the winner
  takes his card;
- there is no ``catch`` (rulings § Riddle card game, "no catching over 10 cards"): the
  referee makes every player discard down to 10 at the end of his turn;
- leaving Limbo or captivity: any land space within 6 spaces of Exit Limbo (or of the
  captor); a table card of a player sent to Limbo is discarded;
- Variation 2b (``partner_exchange=b``): first each partner, the player on turn first,
  asks for a title (``ask boat``) or not (``noask``); then each, the player on turn
  first, answers the request made of him (``grant boat.2``, or ``decline``, which is
  also the only answer when he lacks the title, so a decline never tells whether he
  holds it) and, without a granted request, selects the card he gives as in 2a
  (``offer``); the cards change hands together at the end. Titles asked and cards
  granted are known to the two partners only; the others learn that a request was
  made and whether it was granted.

Notes
-----
Legal move generation is dominated by the movement referee's ``destinations``;
everything else is linear in the hand sizes and the number of players.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Iterator, Sequence
from typing import Any, ClassVar, Self

from ...compiler import CompiledBoard
from ...errors import IllegalMoveError, UnknownNodeError, UsageError
from ...vocabulary import FigureView
from .. import state as declared
from ..base import BoardName, Game
from ..outcome import Outcome
from . import checks, determinize, evaluate, events, names, positions, setup, state, views
from .cards import Deck, deck_for
from .common import (
    MOVEMENT_KINDS,
    SIDE,
    BoardInfo,
    board_cache,
    board_info,
    illegal,
    make_movement,
)
from .moves import Move
from .state import Player, Reveal, SideState, TurnState
from .verbs import GENERATORS, PHASES, VERBS


class RiddleGame(Game[Move]):
    """Riddle of the Ring, referee of the whole card game (see module docs).

    The object holds the state and the helpers every rule family uses; the rules
    themselves live in one module per family (:mod:`.flow`, :mod:`.travel`,
    :mod:`.exchanges`, :mod:`.power_plays`, :mod:`.battles`, :mod:`.secret_spots`),
    reached through the explicit tables of :mod:`.verbs`.
    """

    rules = "riddle"
    title = "Riddle of the Ring"
    PLAYERS = (2, 8)
    OPTIONS = setup.OPTIONS
    MOVE = Move
    STATE = state.RiddleState
    POSITION = state.RiddlePosition
    STATE_VERSION = state.STATE_VERSION
    PHASES = PHASES
    EVENTS = events.EVENTS
    DICE_ORDER = (
        "one die per roll, in the order the moves are played, whoever plays them: "
        "the roll move that begins a turn on the board; the roll move of a turn in "
        "Limbo or captivity (a 6 escapes), and after placing the marker back the roll "
        "move of that regular turn (a second die); each reroll CARD (Gimli, Ugluk). "
        "Set-up's rolls for the first player come before any position; blind draws "
        "(Friendly Exchanges, Riddles, draws, finds) and shuffles take no fixed die"
    )
    DRAW_ORDER = (
        "one fixed draw per card taken at random, in the order play takes them: a "
        "Friendly Exchange takes two, first the card the other player draws from the "
        "mover's hand, then the card the mover draws from the other's hand; a Riddle "
        "(and each guess after a right one) the card guessed at, from the other "
        "player's hand, and after a wrong guess the card the other player draws from "
        "the guesser's hand; a Hobbit or Black Rider card's draw the card drawn; "
        "finding hidden cards the card found. Write a card id (boat.3: that copy) or "
        "a title or type id (Boat: any copy in that hand); a fixed draw not in the "
        "hand drawn from refuses the move that draws (draws[0]). A partner exchange "
        "(Variations 2a to 2c) is chosen, not drawn, and takes none"
    )
    #: cache destination paths per board (the benchmark switches it off for its baseline)
    cache_paths: ClassVar[bool] = True
    #: marker colours: Hobbits light, Black Riders dark
    MARKER_COLOURS: ClassVar[dict[str, str]] = {
        "frodo": "#43a047",
        "sam": "#fdd835",
        "merry": "#1e88e5",
        "pippin": "#fb8c00",
        "rider1": "#212121",
        "rider2": "#4a148c",
        "rider3": "#b71c1c",
        "rider4": "#37474f",
    }

    opts: dict[str, Any]
    deck: Deck
    info: BoardInfo
    mv: Any
    seats: list[Player]
    draw_pile: list[str]
    discard_pile: list[str]
    hidden: dict[str, dict[str, list[str]]]
    cur: int
    turn_no: int
    round_no: int
    phase: str
    t: TurnState
    sub: dict[str, Any] | None
    result: Outcome | None
    seen: dict[str, list[Reveal]]
    order: list[str]
    sides: dict[str, SideState]
    side_turn: str | None
    _by: dict[str, Player]
    _beside_cache: dict[str, frozenset[str]]

    # ================================================================ the kit's hooks
    @classmethod
    def blank(
        cls, compiled: CompiledBoard, players: Sequence[str], options: dict[str, Any]
    ) -> Self:
        """An empty game on ``compiled`` with the board's tables (deck, spaces, movement)."""
        g = super().blank(compiled, players, options)
        g.opts = setup.expand_options(options)
        g.deck = deck_for(compiled.board)
        g.info = board_info(compiled)
        g.mv = make_movement(compiled)
        g.seats = []
        g.draw_pile, g.discard_pile = [], []
        g.hidden = {}
        g.cur, g.turn_no, g.round_no = 0, 0, 1
        g.phase = "start"
        g.t = TurnState()
        g.sub = None
        g.result = None
        g.seen = {}
        g.order = []
        g._by = {}
        g._beside_cache = {}
        g.sides = {}  # Variation 14 only
        g.side_turn = None
        return g

    @classmethod
    def setup(
        cls, compiled: CompiledBoard, players: int, seed: int, options: dict[str, Any]
    ) -> Self:
        """A new game: deal, roll for the first player (see :func:`.setup.new_game`)."""
        return setup.new_game(cls, compiled, players, seed, options)

    def dump_state(self) -> state.RiddleState:
        # the kit encodes it at once into new JSON values: no copies needed here
        return state.RiddleState(
            seats=self.seats,
            order=self.order,
            draw=self.draw_pile,
            discard=self.discard_pile,
            hidden=self.hidden,
            cur=self.cur,
            turn=self.turn_no,
            round=self.round_no,
            phase=self.phase,  # type: ignore[arg-type]
            t=self.t,
            sub=self.sub,
            result=self.result,
            seen=self.seen,
            sides=self.sides,
            side_turn=self.side_turn,
        )

    def load_state(self, st: state.RiddleState) -> None:
        self.seats = st.seats
        self._index()
        self.order = st.order
        self.draw_pile, self.discard_pile = st.draw, st.discard
        self.hidden = st.hidden
        self.cur, self.turn_no, self.round_no = st.cur, st.turn, st.round
        self.phase = st.phase
        self.t, self.sub, self.result = st.t, st.sub, st.result
        self.seen = st.seen
        self.sides, self.side_turn = st.sides, st.side_turn

    def validate(self) -> list[str]:
        """Impossible references first (:func:`.checks.problems`), then the invariants."""
        return checks.problems(self) or self.invariants()

    def copy(self) -> Self:
        """An independent copy: the declared state cloned by the kit
        (:func:`referee.games.state.clone`, field by field as the declaration says),
        the board's tables shared. The kit's :meth:`push` rolls back through it."""
        g = copy.copy(self)
        g.load_state(declared.clone(self.dump_state()))
        g.rng = self.rng.copy()
        g.setup_events = list(self.setup_events)
        g.players, g.options = list(self.players), dict(self.options)
        return g

    @classmethod
    def migrate(cls, data: dict[str, Any], version: int | None) -> dict[str, Any]:
        """Version 1 (before the kit: flat keys, no ``version``) to today's layout.

        The kit passes the file's ``version``, ``-1`` (or ``None``) when it has none."""
        if version is None or version in (-1, 1):
            return state.migrate_v1(data)
        return super().migrate(data, version)

    @classmethod
    def board_names(cls, compiled: CompiledBoard) -> list[BoardName]:
        """Every space's name on the board, and the rulebook's names of the Shire, the
        Cracks of Doom, Barad-Dur and Exit Limbo (:mod:`.names`)."""
        return names.board_names(compiled)

    def dump_position(self) -> state.RiddlePosition:
        return positions.dump(self)

    def load_position(self, position: state.RiddlePosition) -> None:
        positions.load(self, position)

    def _index(self) -> None:
        self._by = {p.name: p for p in self.seats}

    def _majority_kind(self) -> str | None:
        h = sum(1 for p in self.seats if p.kind == "hobbit")
        r = len(self.seats) - h
        return "hobbit" if h > r else "rider" if r > h else None

    def _rand(self, n: int) -> int:
        r = self.rng.below(n)
        return r

    def _die(self) -> int:
        """A die roll (fixed dice of a position or test first, see :meth:`Rng.die`)."""
        return self.rng.die(6)

    def _shuffle(self, cards: list[str]) -> None:
        for i in range(len(cards) - 1, 0, -1):
            j = self._rand(i + 1)
            cards[i], cards[j] = cards[j], cards[i]

    @property
    def me(self) -> Player:
        return self.seats[self.cur]

    def player(self, name: str) -> Player:
        p = self._by.get(name)
        if p is None:
            raise illegal(
                "unknown_player",
                f"no player {name!r} in this game (players: {', '.join(self._by)})",
                player=name,
            )
        return p

    def ctype(self, card: str) -> Any:
        t = self.deck.type_of.get(card)
        if t is None:
            raise illegal("unknown_card", f"no card {card!r} in the deck", card=card)
        return t

    def _in_hand(self, p: Player, card: str) -> Any:
        t = self.ctype(card)
        if card not in p.hand:
            raise illegal("not_in_hand", f"{p.name} does not hold {card}", card=card, player=p.name)
        return t

    def _who_ok(self, p: Player, use: dict[str, Any]) -> bool:
        who = use.get("who", "any")
        return bool(who == "any" or who == p.kind)

    def _usable(self, p: Player, card: str, use_name: str) -> dict[str, Any]:
        """The use ``use_name`` of a card in ``p``'s hand that ``p`` may make."""
        t = self._in_hand(p, card)
        u = t.use(use_name)
        if u is None:
            raise illegal("wrong_card", f"{t.name} cannot be used for {use_name}", card=card)
        if not self._who_ok(p, u):
            who = "Hobbits" if u["who"] == "hobbit" else "Black Riders"
            raise illegal("wrong_kind", f"only {who} may use {t.name} for {use_name}", card=card)
        return u  # type: ignore[no-any-return]

    def _cards_with(self, p: Player, use_name: str) -> list[str]:
        """One card per type in ``p``'s hand that ``p`` may use for ``use_name``."""
        return list(self._hand_uses(p).get(use_name, ()))

    def _hand_uses(self, p: Player) -> dict[str, list[str]]:
        """Use name -> one card per type in ``p``'s hand that ``p`` may use so (cached per
        board by hand and kind of player: every listing asks it several times)."""
        cache: dict[Any, dict[str, list[str]]] = board_cache(self.compiled, "riddle.hand_uses")
        key = (tuple(p.hand), p.kind)
        got = cache.get(key)
        if got is None:
            got = {}
            types: dict[str, set[str]] = {}
            for c in sorted(p.hand):
                t = self.deck.type_of[c]
                for u in t.uses:
                    name = u["use"]
                    if self._who_ok(p, u) and t.id not in types.setdefault(name, set()):
                        types[name].add(t.id)
                        got.setdefault(name, []).append(c)
            cache[key] = got
        return got

    def _after(self, p: Player, card: str, after: str) -> None:
        """Put a used card where its use says (hand, discard or table)."""
        if after == "retain":
            return
        p.hand.remove(card)
        if after == "table":
            p.table.append(card)
        else:
            self.discard_pile.append(card)

    def _beside(self, node: str) -> frozenset[str]:
        b = self._beside_cache.get(node)
        if b is None:
            b = frozenset(self.mv.beside(node))
            self._beside_cache[node] = b
        return b

    def _near(self, a: str | None, b: str | None) -> bool:
        """On or beside (``touch``; on a river dot only its three spaces)."""
        if a is None or b is None:
            return False
        return a == b or b in self._beside(a) or a in self._beside(b)

    def _reachable(self, p: Player) -> bool:
        """Others may have Friendly Exchanges and Power Plays with ``p``."""
        return not p.out and p.status in ("board", "waiting")

    def _on_board(self, p: Player) -> bool:
        return not p.out and p.status == "board" and p.pos is not None

    def _team(self, a: Player, b: Player) -> bool:
        return bool(self.opts["partners"] or self.opts["enhanced_two"]) and a.kind == b.kind

    def _kinds_on_table(self, p: Player) -> set[str]:
        return {self.deck.type_of[c].id for c in p.table}

    def _hand_kinds(self, p: Player) -> dict[str, str]:
        out: dict[str, str] = {}
        for c in sorted(p.hand):
            tid = self.deck.type_of[c].id
            if tid in MOVEMENT_KINDS and tid not in out:
                out[tid] = c
        return out

    def _draw_cards(self, n: int) -> list[str]:
        got: list[str] = []
        for _ in range(n):
            if not self.draw_pile:
                if self.opts["once_through"] or not self.discard_pile:
                    break
                self.draw_pile = self.discard_pile
                self.discard_pile = []
                self._shuffle(self.draw_pile)
            got.append(self.draw_pile.pop())
        return got

    def with_card_titles(self, position: dict[str, Any]) -> dict[str, Any]:
        """Cards by their titles where they read back as the same cards
        (:func:`.names.with_titles`)."""
        return names.with_titles(self.deck, position)

    def read_draw(self, value: str, where: str) -> str:
        """A fixed draw: a card id as it is, a title (or type id, or Riddle guess)
        as its type id (:meth:`.names.CardNames.kind`)."""
        return names.CardNames(self.deck).kind(value, where)

    def draw_matches(self, card: str, draw: str) -> bool:
        """``card`` is the fixed draw: that very card, or a copy of that type."""
        t = self.deck.type_of.get(card)
        return card == draw or (t is not None and t.id == draw)

    def next_draw_from(self) -> tuple[list[str], str] | None:
        """At a Friendly Exchange the first draw is from the mover's hand; in a
        Riddle, a guess draws from the target's."""
        if self.phase == "exchange":
            # a partner exchange first (Variation 2) could change the mover's hand
            blind = self.opts["partner_exchange"] == "basic" or not any(
                self._team(self.me, self._by[n]) for n in self.t.pending
            )
            return (list(self.me.hand), f"{self.me.name}'s hand") if blind else None
        if self.phase == "riddle" and self.sub and self.sub.get("target") in self._by:
            q = self._by[self.sub["target"]]
            return list(q.hand), f"{q.name}'s hand"
        return None

    def _take_random(self, src: Player, dst: Player) -> str | None:
        if not src.hand:
            return None
        c = src.hand.pop(self.blind_draw(src.hand, f"{src.name}'s hand"))
        dst.hand.append(c)
        return c

    def _reveal(self, viewer: Player, of: str, cards: list[str], how: str) -> dict[str, Any]:
        """Remember that ``viewer`` saw ``cards`` of ``of``; the record as JSON (for
        the event that tells him)."""
        s = Reveal(of, tuple(sorted(cards)), self.turn_no, how)
        lst = self.seen.setdefault(viewer.name, [])
        lst.append(s)
        del lst[:-12]
        return declared.encode(s)  # type: ignore[no-any-return]

    def _city_of(self, node: str | None) -> str | None:
        if node is None:
            return None
        c = self.info.city.get(node)
        if c is None and self.opts["doom_cities"]:
            if node == self.info.roles["cracks_of_doom"]:
                return "good"
            if node == self.info.roles["barad_dur"]:
                return "evil"
        return c

    def _node(self, name: str) -> str:
        """A node id from an id or a space name (the movement referee resolves)."""
        try:
            return str(self.mv.resolve(name))
        except (UnknownNodeError, UsageError, KeyError) as exc:
            raise illegal(
                "unknown_space", f"no space {name!r} on this board: {exc}", space=name
            ) from None

    @property
    def to_move(self) -> str:
        """The player to decide: a marker name, or with Variation 14 a side
        (``hobbits``/``riders``); :attr:`acting` names the character; ``nobody`` when
        the game is over."""
        if self.result is not None:
            return "nobody"
        if self.opts["enhanced_two"]:
            if self.phase == "character":
                return str(self.side_turn)
            return SIDE[self._by[self.acting].kind]
        return self.acting

    @property
    def acting(self) -> str:
        """The character whose hand and marker the current decision concerns."""
        if self.phase == "resist" and self.sub is not None:
            return str(self.sub["target"])
        if self.phase == "battle_def" and self.sub is not None:
            return str(self.sub["defender"])
        if self.phase == "pexchange" and self.sub is not None:
            return str(self.sub["turn"])
        return self.me.name

    @property
    def outcome(self) -> Outcome | None:
        return self.result

    def parse_move(self, text: str) -> Move:
        return Move.parse(text)

    def _check(self, move: Move) -> None:
        # the kit has refused a finished game, another move type and a verb the
        # phase does not allow (PHASES)
        VERBS[move.verb].check(self, *move.args)

    def _apply(self, move: Move) -> list[dict[str, Any]]:
        ev: list[dict[str, Any]] = []
        VERBS[move.verb].apply(self, ev, *move.args)
        return ev

    def generate_legal_moves(self) -> Iterator[Move]:
        # not a generator itself: one generator less to pass each move through
        if self.result is not None:
            return iter(())
        return GENERATORS[self.phase](self)

    def _ok(self, m: Move) -> bool:
        try:
            self.check(m)
        except IllegalMoveError:
            return False
        return True

    def _if_ok(self, m: Move) -> Iterator[Move]:
        if self._ok(m):
            yield m

    def figures(self) -> dict[str, FigureView]:
        """Every player's marker that stands on the board (not in Limbo, not yet placed).

        A captive stands with his captor, on the same space. Figure ids are the
        marker names; each marker belongs to its player.
        """
        out: dict[str, FigureView] = {}
        for p in self.seats:
            if p.pos is None or p.status not in ("board", "captive") or p.out:
                continue
            label = p.name[:1].upper() if p.kind == "hobbit" else "R" + p.name[-1:]
            out[p.name] = FigureView(
                id=p.name,
                node=p.pos,
                label=label,
                colour=self.MARKER_COLOURS.get(p.name, "#9e9e9e"),
                side=p.kind,
                owner=p.name,
                name=p.name.capitalize()
                + (f" (captive of {p.captor})" if p.status == "captive" else ""),
                size=1,
            )
        return out

    def move_destination(self, move: Move) -> tuple[str, str] | None:
        """``move``/``ride`` go to the path's last node, ``fly``/``hop`` to their space,
        ``place`` puts a marker back on the board; the figure is the player's marker."""
        if move.verb in ("move", "ride"):
            target = move.path[-1]
        elif move.verb in ("fly", "hop"):
            target = move.args[1]
        elif move.verb == "place":
            target = move.args[0]
        else:
            return None
        try:
            return self.me.name, self._node(target)
        except IllegalMoveError:
            return None

    def dump_view(self, player: str | None = None) -> dict[str, Any]:
        """What ``player`` may see (see :func:`.views.view`)."""
        return views.view(self, player)

    def viewers(self) -> list[str]:
        """Each seat (a marker's name) and, with Variation 14, each side."""
        sides = ["hobbits", "riders"] if self.opts["enhanced_two"] else []
        return [*self._by, *sides]

    def determinise(self, player: str, rng: random.Random) -> RiddleGame:
        """For bots: a game dealt from ``view(player)`` (:mod:`.determinize`)."""
        return determinize.determinise(self, player, rng)

    def evaluate(self, player: str) -> float | None:
        """For bots: ``player``'s standing, 0 to 1, from his view (:mod:`.evaluate`)."""
        return evaluate.evaluate(self, player)

    def invariants(self) -> list[str]:
        """Broken invariants, empty when all hold (see :func:`.views.invariants`)."""
        return views.invariants(self)

    def all_cards(self) -> list[str]:
        """Every card instance wherever it is."""
        return views.all_cards(self)
