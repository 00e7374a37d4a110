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

- a Friendly Exchange happens only when both players hold a card; each draws from
  the other's hand as it was before the exchange;
- Cloak/Rope/Boat cards a move needs go from the hand to the table; a Cloak or Rope
  held is always used rather than being stopped by a forest or mountain;
- Wizards are used by players of their own kind (Good: Hobbits, Evil: Black Riders);
  Good/Evil characters by Hobbits/Black Riders, Neutral ones by anybody;
- an Elf Ring reaches a player on or beside you, a Palantir a player on a city;
- a Hobbit/Black Rider card used to draw a card is discarded; one given to its owner
  stays in his hand, and the giver takes any other card of the hand he saw;
- in a battle the defender answers a round with one or more cards/cities, one at a
  time, until he has matched the round's points exactly (never more);
  each Good/Evil city on or beside either player serves each player once per battle;
  the cards of the battle are discarded (Retain cards return) before the winner
  takes his card;
- the referee makes the player on turn discard down to 10 cards, so a player can be
  caught over the limit (``catch``) only when the state was built by hand;
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

import itertools
from collections.abc import Callable, Iterator
from typing import Any, ClassVar

from ...compiler import CompiledBoard
from ...errors import IllegalMoveError, StateError, UnknownNodeError, UsageError
from ..base import FigureView, Game
from ..rng import Rng
from .cards import Deck, deck_for
from .moves import Move, path_text

MOVEMENT_KINDS = ("boat", "cloak", "rope")
HAND_LIMIT = 10
MARKERS = ("frodo", "rider1", "sam", "rider2", "merry", "rider3", "pippin", "rider4")
HOBBITS = ("frodo", "sam", "merry", "pippin")
SIDE = {"hobbit": "hobbits", "rider": "riders"}
RIDERS = ("rider1", "rider2", "rider3", "rider4")
GOAL = {"hobbit": "cracks_of_doom", "rider": "barad_dur"}

#: option name -> (default, description). Variation numbers follow the Supplementary Rules.
OPTIONS: dict[str, tuple[Any, str]] = {
    "recommended": (
        False,
        "the Recommended Game: all four of gollum_spots, clairvoyance_spots, "
        "secret_spots, captivity",
    ),
    "gollum_spots": (False, "Recommended: Gollum only from a G space"),
    "clairvoyance_spots": (False, "Recommended: see hands within 6 of a C space (clair)"),
    "secret_spots": (False, "Recommended: hide cards on S spaces (hide/retrieve/find/peek)"),
    "captivity": (False, "Recommended: the winner of a battle may take the loser captive"),
    "partners": (False, "Variation 1: Hobbits against Black Riders, the team wins together"),
    "partners_extra_card": (False, "Variation 1: the larger team starts with 3 cards"),
    "partner_exchange": (
        "basic",
        "Variation 2 between partners: basic (at random), a (each "
        "gives a card of his choice), b (each may ask for a title; "
        "without it, as a), c (each takes a card of his "
        "choice from the other's hand)",
    ),
    "table_talk": (False, "Variation 3: partners see each other's hands"),
    "partner_clairvoyance": (
        False,
        "Variation 4: partners both on C spaces see each other's hands",
    ),
    "wait_once": (False, "Variation 5: wait only once to win"),
    "no_wait": (False, "Variation 6: win without waiting"),
    "elf_ring_win": (False, "Variation 7: The Ring and the three Elf Rings win anywhere"),
    "doom_cities": (False, "Variation 8: Cracks of Doom a Good City, Barad-Dur an Evil City"),
    "short_limbo": (False, "Variation 9: stays in Limbo/captivity of 2 turns (6+ players)"),
    "limbo_out": (False, "Variation 10: with 6+ players those sent to Limbo drop out down to 5"),
    "resist_c": (False, "Variation 11: resist C spaces like an Elf Ring"),
    "once_through": (False, "Variation 12: go through the deck only once"),
    "restrict_draws": (
        False,
        "Variation 13: draw from a Hobbit only with a Hobbit card, "
        "from a Black Rider only with a Black Rider card",
    ),
    "enhanced_two": (
        False,
        "Variation 14: two players, Hobbits against Black Riders, each "
        "bringing in up to four characters and using one a turn",
    ),
    "markers": ("", "comma-separated markers in seating order (default frodo,rider1,sam,...)"),
    "turn_limit": (0, "end the game as a draw after this many rounds (0: no limit)"),
}
_RECOMMENDED = ("gollum_spots", "clairvoyance_spots", "secret_spots", "captivity")


def _illegal(code: str, message: str, **details: Any) -> IllegalMoveError:
    return IllegalMoveError(message, code=code, details=details)


def make_movement(compiled: CompiledBoard) -> Any:
    """The movement referee for ``compiled`` (cached on the compiled board)."""
    from .movement import Movement

    return compiled.derived("riddle.movement", lambda: Movement(compiled))


class BoardInfo:
    """What the card game needs to know about the spaces of a compiled board."""

    def __init__(self, compiled: CompiledBoard) -> None:
        g = compiled.graph
        self.terrain: dict[str, str] = {}
        self.city: dict[str, str] = {}
        self.letters: dict[str, frozenset[str]] = {}
        self.roles: dict[str, str] = {}
        self.dots: set[str] = set()
        for n, d in g.nodes(data=True):
            if d.get("kind") == "space":
                self.terrain[n] = d.get("terrain", "open")
                if d.get("city"):
                    self.city[n] = d["city"]
                self.letters[n] = frozenset(d.get("letters") or ())
                if d.get("role"):
                    self.roles[d["role"]] = n
            elif d.get("kind") == "river_dot":
                self.dots.add(n)
        for role in ("shire", "cracks_of_doom", "barad_dur", "exit_limbo"):
            if role not in self.roles:
                raise UsageError(
                    f"board has no space with role {role!r}: it cannot host Riddle of the Ring",
                    code="not_riddle_board",
                )
        self.land = sorted(n for n, t in self.terrain.items() if t not in ("ocean", "lake"))

    def is_water(self, node: str | None) -> bool:
        return node in self.dots or self.terrain.get(node or "", "") in ("ocean", "lake")


def board_info(compiled: CompiledBoard) -> BoardInfo:
    return compiled.derived("riddle.info", lambda: BoardInfo(compiled))


class Player:
    """One player: marker, hand, table cards, where he is and his bookkeeping."""

    __slots__ = (
        "away",
        "captor",
        "cities",
        "free_next",
        "goal_seen",
        "goal_wait",
        "hand",
        "kind",
        "name",
        "out",
        "pos",
        "riddle_extra",
        "status",
        "table",
    )

    def __init__(self, name: str, kind: str) -> None:
        self.name = name
        self.kind = kind  # hobbit | rider
        self.pos: str | None = None  # None until placed at the Shire, and in Limbo
        self.hand: list[str] = []
        self.table: list[str] = []  # Cloak/Rope/Boat on the table
        self.status = "waiting"  # waiting | board | limbo | captive
        self.away = 0  # turns ended in Limbo / captivity
        self.captor: str | None = None
        self.cities: list[str] = []  # the last two cities used for picking up
        self.goal_wait = False  # ended the last turn on his goal
        self.goal_seen = False  # has ended a turn on his goal (Variation 5)
        self.riddle_extra = 0  # cards got by another's wrong guess (not counted)
        self.free_next = False  # leaves Limbo/captivity when his next turn comes
        self.out = False  # dropped out (Variations 10, 12)

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "kind": self.kind,
            "pos": self.pos,
            "hand": list(self.hand),
            "table": list(self.table),
            "status": self.status,
            "away": self.away,
            "captor": self.captor,
            "cities": list(self.cities),
            "goal_wait": self.goal_wait,
            "goal_seen": self.goal_seen,
            "riddle_extra": self.riddle_extra,
            "free_next": self.free_next,
            "out": self.out,
        }

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Player:
        p = cls(d["name"], d["kind"])
        for k in cls.__slots__:
            if k in d and k not in ("name", "kind"):
                v = d[k]
                setattr(p, k, list(v) if isinstance(v, list) else v)
        return p


class RiddleGame(Game[Move]):
    """Riddle of the Ring, referee of the whole card game (see module docs)."""

    rules = "riddle"
    #: cache destination paths per board (the benchmark switches it off for its baseline)
    cache_paths: ClassVar[bool] = True

    def __init__(self, compiled: CompiledBoard, options: dict[str, Any]) -> None:
        self.compiled = compiled
        self.opts = options
        self.deck: Deck = deck_for(compiled.board)
        self.info = board_info(compiled)
        self.mv = make_movement(compiled)
        self.players: list[Player] = []
        self.draw_pile: list[str] = []
        self.discard_pile: list[str] = []
        self.hidden: dict[str, dict[str, list[str]]] = {}
        self.cur = 0
        self.turn_no = 0
        self.round_no = 1
        self.phase = "start"
        self.t: dict[str, Any] = {}
        self.sub: dict[str, Any] | None = None
        self.rng = Rng(0)
        self.result: dict[str, Any] | None = None
        self.seen: dict[str, list[dict[str, Any]]] = {}
        self.order: list[str] = []
        self._by: dict[str, Player] = {}
        self._beside_cache: dict[str, frozenset[str]] = {}
        self.setup_events: list[dict[str, Any]] = []
        self.sides: dict[str, dict[str, Any]] = {}  # Variation 14 only
        self.side_turn: str | None = None

    # ================================================================ set-up
    @staticmethod
    def read_options(options: dict[str, Any] | None) -> dict[str, Any]:
        """Options with defaults; ``recommended`` switches on its four features."""
        out = {k: v for k, (v, _) in OPTIONS.items()}
        options = dict(options or {})
        variant = options.pop("variant", None)
        if variant is not None:
            if variant not in ("basic", "recommended"):
                raise UsageError(
                    f"Riddle of the Ring variants: basic, recommended (not "
                    f"{variant!r}); variations are options"
                )
            options.setdefault("recommended", variant == "recommended")
        for k, v in options.items():
            key = k.replace("-", "_")
            if key not in OPTIONS:
                raise UsageError(f"unknown riddle option {k!r} (known: {', '.join(OPTIONS)})")
            default = OPTIONS[key][0]
            if isinstance(default, bool):
                if isinstance(v, str):
                    if v.lower() not in ("1", "0", "true", "false", "yes", "no", "on", "off"):
                        raise UsageError(f"option {k} takes true/false, not {v!r}")
                    v = v.lower() in ("1", "true", "yes", "on")
                v = bool(v)
            elif isinstance(default, int):
                try:
                    v = int(v)
                except (TypeError, ValueError):
                    raise UsageError(f"option {k} takes an integer, not {v!r}") from None
            else:
                v = str(v)
            out[key] = v
        if out["partner_exchange"] not in ("basic", "a", "b", "c"):
            raise UsageError(
                f"partner_exchange is basic, a, b or c, not {out['partner_exchange']!r}"
            )
        if out["recommended"]:
            for k in _RECOMMENDED:
                out[k] = True
        return out

    @classmethod
    def new(
        cls,
        compiled: CompiledBoard,
        *,
        players: int,
        seed: int,
        options: dict[str, Any] | None = None,
    ) -> RiddleGame:
        opts = cls.read_options(options)
        if not isinstance(players, int) or not 2 <= players <= 8:
            raise UsageError(f"Riddle of the Ring is for 2 to 8 players, not {players!r}")
        markers = (
            [m.strip() for m in opts["markers"].split(",") if m.strip()]
            if opts["markers"]
            else list(MARKERS[:players])
        )
        if (
            len(markers) != players
            or len(set(markers)) != players
            or any(m not in MARKERS for m in markers)
        ):
            raise UsageError(
                f"markers must be {players} different ones of {', '.join(MARKERS)}, "
                f"not {opts['markers']!r}"
            )
        if opts["partners"] and players < 4:
            raise UsageError("Variation 1 (partners) needs 4 or more players")
        if opts["enhanced_two"]:
            return cls._new_enhanced(compiled, players, seed, opts, markers)
        g = cls(compiled, opts)
        g.rng = Rng.from_seed(seed)
        g.players = [Player(m, "hobbit" if m in HOBBITS else "rider") for m in markers]
        g._index()
        g.draw_pile = list(g.deck.instances)
        g._shuffle(g.draw_pile)
        big = g._majority_kind() if opts["partners"] and opts["partners_extra_card"] else None
        for _ in range(3):
            for p in g.players:
                want = 3 if p.kind == big else 2
                if len(p.hand) < want and g.draw_pile:
                    p.hand.append(g.draw_pile.pop())
        # highest roll starts; ties roll again; play goes on in seating order
        rolling = list(range(players))
        while len(rolling) > 1:
            rolls = [(g._die(), i) for i in rolling]
            top = max(r for r, _ in rolls)
            rolling = [i for r, i in rolls if r == top]
        g.cur = rolling[0]
        g.order = [g.players[(g.cur + k) % players].name for k in range(players)]
        g.seen = {p.name: [] for p in g.players}
        ev: list[dict[str, Any]] = [
            {
                "event": "deal",
                "players": [p.name for p in g.players],
                "cards": {p.name: len(p.hand) for p in g.players},
            },
            {"event": "first_player", "player": g.players[g.cur].name},
        ]
        g._begin_turn(ev)
        g.setup_events = ev
        return g

    @classmethod
    def _new_enhanced(
        cls,
        compiled: CompiledBoard,
        players: int,
        seed: int,
        opts: dict[str, Any],
        markers: list[str],
    ) -> RiddleGame:
        """Variation 14: the two players are the sides ``hobbits`` and ``riders``; all
        eight characters exist, those not brought in yet wait in reserve."""
        if players != 2:
            raise UsageError("Variation 14 (enhanced_two) is a two-player game")
        kinds = sorted("hobbit" if m in HOBBITS else "rider" for m in markers)
        if kinds != ["hobbit", "rider"]:
            raise UsageError("Variation 14: one Hobbit and one Black Rider marker to start")
        g = cls(compiled, opts)
        g.rng = Rng.from_seed(seed)
        g.players = [Player(m, "hobbit" if m in HOBBITS else "rider") for m in HOBBITS + RIDERS]
        g._index()
        for p in g.players:
            if p.name not in markers:
                p.status = "reserve"
        g.draw_pile = list(g.deck.instances)
        g._shuffle(g.draw_pile)
        for _ in range(2):
            for m in markers:
                g._by[m].hand.append(g.draw_pile.pop())
        rolling = list(markers)
        while len(rolling) > 1:
            rolls = [(g._die(), m) for m in rolling]
            top = max(r for r, _ in rolls)
            rolling = [m for r, m in rolls if r == top]
        first = g._by[rolling[0]]
        g.cur = g.players.index(first)
        g.order = [rolling[0]] + [m for m in markers if m != rolling[0]]
        g.sides = {SIDE[g._by[m].kind]: {"start": m, "started": m == rolling[0]} for m in markers}
        g.side_turn = SIDE[first.kind]
        g.seen = {p.name: [] for p in g.players}
        ev: list[dict[str, Any]] = [
            {"event": "deal", "players": list(markers), "cards": dict.fromkeys(markers, 2)},
            {"event": "first_player", "player": g.side_turn},
        ]
        g._begin_turn(ev)
        g.setup_events = ev
        return g

    def _index(self) -> None:
        self._by = {p.name: p for p in self.players}

    def _majority_kind(self) -> str | None:
        h = sum(1 for p in self.players if p.kind == "hobbit")
        r = len(self.players) - h
        return "hobbit" if h > r else "rider" if r > h else None

    # ================================================================ serialising
    def to_json(self) -> dict[str, Any]:
        sub = None
        if self.sub is not None:
            sub = {k: (list(v) if isinstance(v, list) else v) for k, v in self.sub.items()}
        return {
            "rules": self.rules,
            "board_hash": self.compiled.hash,
            "options": dict(self.opts),
            "players": [p.to_json() for p in self.players],
            "order": list(self.order),
            "draw": list(self.draw_pile),
            "discard": list(self.discard_pile),
            "hidden": {s: {n: list(c) for n, c in d.items()} for s, d in self.hidden.items()},
            "cur": self.cur,
            "turn": self.turn_no,
            "round": self.round_no,
            "phase": self.phase,
            "t": {k: (list(v) if isinstance(v, list) else v) for k, v in self.t.items()},
            "sub": sub,
            "rng": self.rng.state,
            "result": self.result,
            "seen": {n: [dict(s) for s in v] for n, v in self.seen.items()},
            "sides": {k: dict(v) for k, v in self.sides.items()},
            "side_turn": self.side_turn,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any], compiled: CompiledBoard) -> RiddleGame:
        if not isinstance(data, dict) or data.get("rules") != cls.rules:
            raise StateError("not a Riddle of the Ring state", code="bad_state")
        if data.get("board_hash") != compiled.hash:
            raise StateError(
                f"state was made for board {data.get('board_hash')!r}, not for this "
                f"board ({compiled.hash})",
                code="wrong_board",
            )
        try:
            g = cls(compiled, cls.read_options(data["options"]))
            g.players = [Player.from_json(p) for p in data["players"]]
            g._index()
            g.order = list(data["order"])
            g.draw_pile = list(data["draw"])
            g.discard_pile = list(data["discard"])
            g.hidden = {s: {n: list(c) for n, c in d.items()} for s, d in data["hidden"].items()}
            g.cur, g.turn_no, g.round_no = int(data["cur"]), int(data["turn"]), int(data["round"])
            g.phase = str(data["phase"])
            g.t = {k: (list(v) if isinstance(v, list) else v) for k, v in data["t"].items()}
            sub = data.get("sub")
            g.sub = (
                None
                if sub is None
                else {k: (list(v) if isinstance(v, list) else v) for k, v in sub.items()}
            )
            g.rng = Rng(int(data["rng"]))
            g.result = data.get("result")
            g.seen = {n: [dict(s) for s in v] for n, v in data.get("seen", {}).items()}
            g.sides = {k: dict(v) for k, v in (data.get("sides") or {}).items()}
            g.side_turn = data.get("side_turn")
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise StateError(f"malformed Riddle of the Ring state: {exc!r}") from None
        return g

    # ================================================================ randomness
    def _rand(self, n: int) -> int:
        r = self.rng.below(n)
        return r

    def _die(self) -> int:
        return self._rand(6) + 1

    def _shuffle(self, cards: list[str]) -> None:
        for i in range(len(cards) - 1, 0, -1):
            j = self._rand(i + 1)
            cards[i], cards[j] = cards[j], cards[i]

    # ================================================================ helpers
    @property
    def me(self) -> Player:
        return self.players[self.cur]

    def player(self, name: str) -> Player:
        p = self._by.get(name)
        if p is None:
            raise _illegal(
                "unknown_player",
                f"no player {name!r} in this game (players: {', '.join(self._by)})",
                player=name,
            )
        return p

    def ctype(self, card: str) -> Any:
        t = self.deck.type_of.get(card)
        if t is None:
            raise _illegal("unknown_card", f"no card {card!r} in the deck", card=card)
        return t

    def _in_hand(self, p: Player, card: str) -> Any:
        t = self.ctype(card)
        if card not in p.hand:
            raise _illegal(
                "not_in_hand", f"{p.name} does not hold {card}", card=card, player=p.name
            )
        return t

    def _who_ok(self, p: Player, use: dict[str, Any]) -> bool:
        who = use.get("who", "any")
        return who == "any" or who == p.kind

    def _usable(self, p: Player, card: str, use_name: str) -> dict[str, Any]:
        """The use ``use_name`` of a card in ``p``'s hand that ``p`` may make."""
        t = self._in_hand(p, card)
        u = t.use(use_name)
        if u is None:
            raise _illegal("wrong_card", f"{t.name} cannot be used for {use_name}", card=card)
        if not self._who_ok(p, u):
            who = "Hobbits" if u["who"] == "hobbit" else "Black Riders"
            raise _illegal("wrong_kind", f"only {who} may use {t.name} for {use_name}", card=card)
        return u  # type: ignore[no-any-return]

    def _cards_with(self, p: Player, use_name: str) -> list[str]:
        """One card per type in ``p``'s hand that ``p`` may use for ``use_name``."""
        out, types = [], set()
        for c in sorted(p.hand):
            t = self.deck.type_of[c]
            if t.id in types:
                continue
            u = t.use(use_name)
            if u is not None and self._who_ok(p, u):
                out.append(c)
                types.add(t.id)
        return out

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

    def _avail(self, p: Player) -> tuple[str, ...]:
        return tuple(sorted(self._kinds_on_table(p) | set(self._hand_kinds(p))))

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

    def _take_random(self, src: Player, dst: Player) -> str | None:
        if not src.hand:
            return None
        c = src.hand.pop(self._rand(len(src.hand)))
        dst.hand.append(c)
        return c

    def _reveal(self, viewer: Player, of: str, cards: list[str], how: str) -> dict[str, Any]:
        s = {"of": of, "cards": sorted(cards), "turn": self.turn_no, "how": how}
        lst = self.seen.setdefault(viewer.name, [])
        lst.append(s)
        del lst[:-12]
        return s

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

    # ================================================================ interface
    @property
    def to_move(self) -> str:
        """The player to decide: a marker name, or with Variation 14 a side
        (``hobbits``/``riders``); :attr:`acting` names the character."""
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
    def outcome(self) -> dict[str, Any] | None:
        return self.result

    def parse_move(self, text: str) -> Move:
        return Move.parse(text)

    def check(self, move: Move) -> None:
        if not isinstance(move, Move):
            raise _illegal("bad_move", f"not a Riddle of the Ring move: {move!r}")
        if self.result is not None:
            raise _illegal("game_over", "the game is over")
        allowed = _PHASE_VERBS.get(self.phase, ())
        if move.verb not in allowed:
            raise _illegal(
                "wrong_phase",
                f"{move.verb!r} is not possible now ({self.phase}; possible: {', '.join(allowed)})",
                phase=self.phase,
                move=str(move),
            )
        getattr(self, f"_c_{move.verb}")(*move.args)

    def _apply(self, move: Move) -> list[dict[str, Any]]:
        ev: list[dict[str, Any]] = []
        getattr(self, f"_a_{move.verb}")(ev, *move.args)
        return ev

    def generate_legal_moves(self) -> Iterator[Move]:
        if self.result is not None:
            return
        yield from getattr(self, f"_g_{self.phase}")()

    # ================================================================ frontends
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

    def figures(self) -> dict[str, FigureView]:
        """Every player's marker that stands on the board (not in Limbo, not yet placed).

        A captive stands with his captor, on the same space. Figure ids are the
        marker names; each marker belongs to its player.
        """
        out: dict[str, FigureView] = {}
        for p in self.players:
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

    # ================================================================ turn flow
    def _begin_turn(self, ev: list[dict[str, Any]]) -> None:
        p = self.me
        self.turn_no += 1
        self.t = {
            "roll": 0,
            "die_used": False,
            "stopped": False,
            "moved": False,
            "start": p.pos,
            "pp": 0,
            "pending": [],
            "exchanged": [],
            "battled": [],
            "hid": 0,
            "retrieved": False,
            "found": False,
            "interrogated": [],
            "must_discard": 0,
            "used_cards": [],
            "entered": p.status,
        }
        self.sub = None
        ev.append({"event": "turn", "player": p.name, "turn": self.turn_no, "round": self.round_no})
        if p.status in ("limbo", "captive"):
            limit = 2 if self.opts["short_limbo"] and len(self.players) >= 6 else 3
            if p.free_next or p.away >= limit:
                self.phase = "place"
            else:
                self.phase = "limbo"
        else:
            if p.status == "waiting":
                p.status = "board"
                p.pos = self.info.roles["shire"]
                self.t["start"] = p.pos
                ev.append({"event": "placed", "player": p.name, "at": p.pos, "why": "shire"})
            self.phase = "start"

    def _end_turn(self, ev: list[dict[str, Any]]) -> None:
        p = self.me
        if p.status == "board" and p.pos is not None:
            keep = {
                "cloak": self.info.terrain.get(p.pos) == "forest",
                "rope": self.info.terrain.get(p.pos) == "mountain",
                "boat": self.info.is_water(p.pos),
            }
            for c in list(p.table):
                if not keep.get(self.deck.type_of[c].id, False):
                    p.table.remove(c)
                    self.discard_pile.append(c)
            goal = self.info.roles[GOAL[p.kind]]
            p.goal_wait = p.pos == goal
            p.goal_seen = p.goal_seen or p.goal_wait
        elif p.status in ("limbo", "captive"):
            p.away += 1
        p.riddle_extra = 0
        ev.append({"event": "turn_over", "player": p.name})
        if self.opts["once_through"]:
            self._once_through_check(ev)
        if self.opts["enhanced_two"]:
            self._next_side(ev)
            return
        # next player in seating order
        n = len(self.players)
        nxt = next(
            (
                (self.cur + k) % n
                for k in range(1, n + 1)
                if not self.players[(self.cur + k) % n].out
            ),
            None,
        )
        if nxt is None:  # pragma: no cover - everybody out
            self.result = {"result": "draw", "reason": "no players"}
            self.phase = "over"
            return
        first = self.players.index(self._by[self.order[0]])
        if self._crossed(self.cur, nxt, first):
            self.round_no += 1
            if self.opts["turn_limit"] and self.round_no > self.opts["turn_limit"]:
                self.result = {
                    "result": "draw",
                    "reason": "turn_limit",
                    "rounds": self.round_no - 1,
                }
                self.phase = "over"
                ev.append({"event": "game_over", **self.result})
                return
        self.cur = nxt
        self._begin_turn(ev)

    def _next_side(self, ev: list[dict[str, Any]]) -> None:
        """Variation 14: the other side plays; after its first turn it chooses a character."""
        side = "riders" if self.side_turn == "hobbits" else "hobbits"
        if side == SIDE[self._by[self.order[0]].kind]:
            self.round_no += 1
            if self.opts["turn_limit"] and self.round_no > self.opts["turn_limit"]:
                self.result = {
                    "result": "draw",
                    "reason": "turn_limit",
                    "rounds": self.round_no - 1,
                }
                self.phase = "over"
                ev.append({"event": "game_over", **self.result})
                return
        self.side_turn = side
        info = self.sides[side]
        if not info["started"]:
            info["started"] = True
            self.cur = self.players.index(self._by[info["start"]])
            self._begin_turn(ev)
            return
        self.phase = "character"
        self.sub = None
        self.t = {"pp": 0, "pending": [], "roll": 0}
        ev.append({"event": "side_to_choose", "side": side})

    def _side_chars(self, side: str | None) -> list[Player]:
        return [q for q in self.players if SIDE[q.kind] == side and not q.out]

    def _c_use(self, name: str) -> None:
        q = self.player(name)
        if SIDE[q.kind] != self.side_turn or q.out or q.status == "reserve":
            raise _illegal(
                "not_your_character",
                f"{name} is not an active character of the {self.side_turn}",
                player=name,
            )

    def _a_use(self, ev: list[dict[str, Any]], name: str) -> None:
        self.cur = self.players.index(self._by[name])
        self._begin_turn(ev)

    def _c_bring(self, name: str) -> None:
        q = self.player(name)
        if SIDE[q.kind] != self.side_turn or q.status != "reserve":
            raise _illegal(
                "not_in_reserve",
                f"{name} is not a character of the {self.side_turn} waiting in reserve",
                player=name,
            )

    def _a_bring(self, ev: list[dict[str, Any]], name: str) -> None:
        q = self._by[name]
        q.status = "waiting"
        q.hand.extend(self._draw_cards(2))
        ev.append(
            {
                "event": "bring_in",
                "side": self.side_turn,
                "player": name,
                "private": {name: {"got": list(q.hand)}},
            }
        )
        self.cur = self.players.index(q)
        self._begin_turn(ev)

    def _g_character(self) -> Iterator[Move]:
        for q in self._side_chars(self.side_turn):
            yield Move("bring" if q.status == "reserve" else "use", (q.name,))

    @staticmethod
    def _crossed(a: int, b: int, first: int) -> bool:
        """Going forward from seat ``a`` to seat ``b`` reaches seat ``first``."""
        if b > a:
            return a < first <= b
        return first > a or first <= b

    def _once_through_check(self, ev: list[dict[str, Any]]) -> None:
        if self.draw_pile:
            return
        for q in self.players:
            if not q.out and not q.hand and q.status not in ("captive", "reserve"):
                q.out = True
                for c in q.table:
                    self.discard_pile.append(c)
                q.table.clear()
                q.pos = None
                ev.append({"event": "out_of_game", "player": q.name, "why": "no cards, deck gone"})
                for r in self.players:
                    if r.status == "captive" and r.captor == q.name:
                        r.status, r.captor, r.pos, r.free_next = "limbo", None, None, True
                        ev.append({"event": "prisoner_follows", "player": r.name, "with": q.name})
        left = [q for q in self.players if not q.out and q.status != "reserve"]
        if (
            self.opts["enhanced_two"]
            and left
            and len({q.kind for q in left}) == 1
            and not any(q.status == "reserve" and q.kind != left[0].kind for q in self.players)
        ):
            self._win(left[0], ev, "last side in the game")
        elif len(left) == 1:
            self._win(left[0], ev, "last player in the game")
        elif not left:
            self.result = {"result": "draw", "reason": "everybody out"}
            self.phase = "over"

    def _win(self, p: Player, ev: list[dict[str, Any]], how: str) -> None:
        self.result = {"result": "won", "winner": p.name, "how": how}
        if self.opts["enhanced_two"]:
            self.result["side"] = SIDE[p.kind]
        if self.opts["partners"]:
            self.result["team"] = [q.name for q in self.players if q.kind == p.kind]
        self.phase = "over"
        ev.append({"event": "game_over", **self.result})

    # ================================================================ roll, Limbo, placing
    def _c_roll(self) -> None:
        return None

    def _a_roll(self, ev: list[dict[str, Any]]) -> None:
        r = self._die()
        p = self.me
        ev.append({"event": "roll", "player": p.name, "die": r})
        if self.phase == "start":
            self.t["roll"] = r
            self.phase = "main"
        elif r == 6:
            ev.append({"event": "escape", "player": p.name, "how": "six"})
            self.phase = "place"
        else:
            self.phase = "limbo_rolled"

    def _c_reroll(self, card: str) -> None:
        self._usable(self.me, card, "reroll")
        if self.t["die_used"]:
            raise _illegal("die_used", "roll again only before moving with the die")

    def _a_reroll(self, ev: list[dict[str, Any]], card: str) -> None:
        self._after(self.me, card, self.ctype(card).use("reroll").get("after", "discard"))
        self.t["roll"] = self._die()
        ev.append({"event": "roll", "player": self.me.name, "die": self.t["roll"], "by": card})

    def _g_start(self) -> Iterator[Move]:
        yield Move("roll")

    def _g_over(self) -> Iterator[Move]:
        return iter(())

    _g_limbo = _g_start

    def _c_escape(self, card: str) -> None:
        self._usable(self.me, card, "escape")

    def _a_escape(self, ev: list[dict[str, Any]], card: str) -> None:
        u = self.ctype(card).use("escape")
        self._after(self.me, card, u.get("after", "discard"))
        ev.append({"event": "escape", "player": self.me.name, "how": card})
        self.phase = "place"

    def _g_limbo_rolled(self) -> Iterator[Move]:
        for c in self._cards_with(self.me, "escape"):
            yield Move("escape", (c,))
        yield Move("pass")

    def _place_targets(self) -> list[str]:
        p = self.me
        anchor = self.info.roles["exit_limbo"]
        if p.status == "captive" and p.captor is not None:
            cap = self._by.get(p.captor)
            if cap is not None and cap.pos is not None and cap.status == "board":
                anchor = cap.pos
        land = set(self.info.land) - {self.info.roles["exit_limbo"]}
        return self.compiled.derived(
            f"riddle.place_within6:{anchor}",
            lambda: sorted(n for n in self.mv.within(anchor, 6) if n in land),
        )

    def _c_place(self, space: str) -> None:
        space = self._node(space)
        if space not in self._place_targets():
            raise _illegal(
                "too_far",
                f"{space} is not a land space within 6 spaces of where you leave Limbo/captivity",
                space=space,
            )

    def _a_place(self, ev: list[dict[str, Any]], space: str) -> None:
        p = self.me
        space = self._node(space)
        ev.append({"event": "placed", "player": p.name, "at": space, "why": p.status})
        p.status, p.pos, p.away, p.captor, p.free_next = "board", space, 0, None, False
        self.t["start"] = space
        self.phase = "start"

    def _g_place(self) -> Iterator[Move]:
        for s in self._place_targets():
            yield Move("place", (s,))

    # ================================================================ moving
    def _movable(self) -> None:
        p = self.me
        if p.status != "board" or p.pos is None:
            raise _illegal("not_on_board", f"{p.name} is not on the board")
        if self.t["stopped"]:
            raise _illegal(
                "stopped",
                "you entered a forest or mountain without a Cloak or Rope: "
                "no more movement this turn",
            )

    def _fit(
        self, try_: Callable[[tuple[str, ...]], Any], uses: tuple[str, ...]
    ) -> tuple[Any, tuple[str, ...]]:
        """The :class:`Reach` of a move using the Cloak/Rope the move names (``uses``),
        the cards on the table, and a Boat from the hand when the move needs one.

        ``try_(cards)`` returns a :class:`Reach` or raises. Returns the reach and the
        card kinds that go from the hand to the table. A named card that changes
        nothing is refused (``card_not_needed``): one text per way of moving.
        """
        p = self.me
        table = self._kinds_on_table(p)
        hand = self._hand_kinds(p)
        for k in uses:
            if k in table:
                raise _illegal(
                    "on_table",
                    f"your {k.capitalize()} is already on the table and in use: leave out +{k}",
                    card=k,
                )
            if k not in hand:
                raise _illegal("no_card", f"you hold no {k.capitalize()} card", card=k)
        chosen = table | set(uses)
        used = tuple(uses)
        try:
            reach = try_(tuple(sorted(chosen)))
        except IllegalMoveError as exc:
            if "boat" not in hand or "boat" in chosen:
                raise self._hint(exc, hand, table) from None
            try:
                reach = try_(tuple(sorted(chosen | {"boat"})))
            except IllegalMoveError as exc2:
                raise self._hint(exc2, hand, table) from None
            chosen = chosen | {"boat"}
            used = (*uses, "boat")
        for k in uses:
            try:
                r2 = try_(tuple(sorted(chosen - {k})))
            except IllegalMoveError:
                continue
            if r2.stops_turn and not reach.stops_turn:
                continue
            raise _illegal(
                "card_not_needed",
                f"this move neither needs your {k.capitalize()} nor stops without it: "
                f"leave out +{k}",
                card=k,
            )
        return reach, used

    @staticmethod
    def _hint(exc: IllegalMoveError, hand: dict[str, str], table: set[str]) -> IllegalMoveError:
        """``exc`` with a hint when a Cloak/Rope in the hand would have kept the player going."""
        k = {"must_stop_in_forest": "cloak", "must_stop_in_mountain": "rope"}.get(exc.code or "")
        if k is None or k not in hand or k in table:
            return exc
        return IllegalMoveError(
            f"{exc} (add +{k} to use your {k.capitalize()})",
            code=exc.code,
            location=exc.location,
            details=exc.details,
        )

    def _node(self, name: str) -> str:
        """A node id from an id or a space name (the movement referee resolves)."""
        try:
            return str(self.mv.resolve(name))
        except (UnknownNodeError, UsageError, KeyError) as exc:
            raise _illegal(
                "unknown_space", f"no space {name!r} on this board: {exc}", space=name
            ) from None

    def _fit_path(
        self, path: tuple[str, ...], counts: int, uses: tuple[str, ...]
    ) -> tuple[Any, tuple[str, ...]]:
        p = self.me
        path = tuple(self._node(x) for x in path)
        if not path or path[0] != p.pos:
            raise _illegal(
                "bad_path",
                f"a path starts where you stand ({p.pos}), not at {path[0] if path else 'nothing'}",
                path=list(path),
            )
        if len(path) < 2:
            raise _illegal("no_move", "a move must go at least one space")
        reach, used = self._fit(lambda cards: self.mv.validate(path, counts, cards), uses)
        if reach.node == p.pos:
            raise _illegal("same_space", "a move must end on a different space than it began")
        return reach, used

    def _fit_flight(
        self, space: str, bombadil: bool, uses: tuple[str, ...]
    ) -> tuple[Any, tuple[str, ...]]:
        p = self.me
        space = self._node(space)

        def attempt(cards: tuple[str, ...]) -> Any:
            r = self.mv.flight_targets(p.pos, cards, bombadil=bombadil).get(space)
            if r is None or space == p.pos:
                raise _illegal(
                    "cannot_land",
                    f"cannot {'hop' if bombadil else 'fly'} to {space}"
                    + (" (a Boat is needed to land on water)" if self.info.is_water(space) else ""),
                    space=space,
                )
            return r

        return self._fit(attempt, uses)

    @staticmethod
    def _uses(flags: tuple[str, ...]) -> tuple[str, ...]:
        return tuple(f[1:] for f in flags)

    def _c_move(self, path: str, *flags: str) -> None:
        self._movable()
        if self.t["die_used"]:
            raise _illegal("die_used", "you have already moved with the die this turn")
        reach, _ = self._fit_path(tuple(path.split(">")), self.t["roll"], self._uses(flags))
        self._not_back_for_good(reach, Move("move", (path, *flags)))

    def _a_move(self, ev: list[dict[str, Any]], path: str, *flags: str) -> None:
        reach, used = self._fit_path(tuple(path.split(">")), self.t["roll"], self._uses(flags))
        self.t["die_used"] = True
        self._do_move(ev, reach, used, "die")

    def _c_ride(self, card: str, path: str, *flags: str) -> None:
        self._movable()
        u = self._usable(self.me, card, "extra_move")
        reach, _ = self._fit_path(tuple(path.split(">")), int(u["n"]), self._uses(flags))
        self._not_back_for_good(reach, Move("ride", (card, path, *flags)))

    def _a_ride(self, ev: list[dict[str, Any]], card: str, path: str, *flags: str) -> None:
        u = self.ctype(card).use("extra_move")
        reach, used = self._fit_path(tuple(path.split(">")), int(u["n"]), self._uses(flags))
        self._after(self.me, card, u.get("after", "discard"))
        self._do_move(ev, reach, used, card)

    def _c_fly(self, card: str, space: str, *flags: str) -> None:
        self._movable()
        self._usable(self.me, card, "fly")
        reach, _ = self._fit_flight(space, False, self._uses(flags))
        self._not_back_for_good(reach, Move("fly", (card, space, *flags)))

    def _a_fly(self, ev: list[dict[str, Any]], card: str, space: str, *flags: str) -> None:
        reach, used = self._fit_flight(space, False, self._uses(flags))
        self._after(self.me, card, self.ctype(card).use("fly").get("after", "discard"))
        self._do_move(ev, reach, used, card)

    def _c_hop(self, card: str, space: str, *flags: str) -> None:
        self._movable()
        self._usable(self.me, card, "hop")
        reach, _ = self._fit_flight(space, True, self._uses(flags))
        self._not_back_for_good(reach, Move("hop", (card, space, *flags)))

    def _a_hop(self, ev: list[dict[str, Any]], card: str, space: str, *flags: str) -> None:
        reach, used = self._fit_flight(space, True, self._uses(flags))
        self._after(self.me, card, self.ctype(card).use("hop").get("after", "discard"))
        self._do_move(ev, reach, used, card)

    def _not_back_for_good(self, reach: Any, move: Move) -> None:
        """Refuse a move back to the turn's starting space after which the player could
        neither move on nor win: "No player may begin and end a turn on the same space,
        unless he ... wins the game on that turn" (DESIGN §5)."""
        if reach.node != self.t["start"] or self._can_leave_after(move):
            return
        raise _illegal(
            "same_space",
            f"back on {reach.node}, where your turn began, you could not move on: "
            "no player may begin and end a turn on the same space",
            space=reach.node,
        )

    def _can_leave_after(self, move: Move) -> bool:
        """After ``move`` (which ends where the turn began) a move on, or a win, is legal."""
        g = self.copy()
        assert isinstance(g, RiddleGame)
        g._apply(move)
        return g._has_any_move() or g._ok(Move("ring"))

    def _do_move(
        self, ev: list[dict[str, Any]], reach: Any, used: tuple[str, ...], how: str
    ) -> None:
        p = self.me
        hk = self._hand_kinds(p)
        for k in used:
            c = hk[k]
            p.hand.remove(c)
            p.table.append(c)
        frm = p.pos
        p.pos = reach.node
        self.t["moved"] = True
        if reach.stops_turn:
            self.t["stopped"] = True
        self.t["exchanged"] = []
        ev.append(
            {
                "event": "move",
                "player": p.name,
                "from": frm,
                "to": p.pos,
                "by": how,
                "path": list(reach.path),
                "cards_to_table": list(used),
                "stopped": bool(reach.stops_turn),
            }
        )
        for q in self.players:
            if q.status == "captive" and q.captor == p.name:
                q.pos = p.pos
                got = (
                    self.hidden.get(p.pos, {}).pop(q.name, None)
                    if self.opts["secret_spots"]
                    else None
                )
                if got:
                    p.hand.extend(got)
                    ev.append(
                        {
                            "event": "captive_hidden_cards",
                            "player": p.name,
                            "captive": q.name,
                            "count": len(got),
                            "private": {p.name: {"got": list(got)}},
                        }
                    )
        pending = [
            q.name
            for q in self._seated()
            if q is not p and q.status == "board" and not q.out and self._near(p.pos, q.pos)
        ]
        self.t["pending"] = pending
        if pending:
            self.phase = "exchange"
            ev.append({"event": "exchanges_due", "player": p.name, "with": list(pending)})

    def _seated(self) -> list[Player]:
        """Players in turn order starting after the player on turn."""
        n = len(self.players)
        return [self.players[(self.cur + k) % n] for k in range(1, n + 1)]

    def _g_moves(self) -> Iterator[Move]:
        p = self.me
        if p.status != "board" or p.pos is None or self.t["stopped"]:
            return
        table = tuple(sorted(self._kinds_on_table(p)))
        hand = tuple(sorted(set(self._hand_kinds(p)) - set(table)))
        back = self.t["start"] if p.pos != self.t["start"] else None
        if not self.t["die_used"] and self.t["roll"]:
            for node, m in self._paths(p.pos, self.t["roll"], table, hand, None):
                if node != back or self._can_leave_after(m):
                    yield m
        for c in self._cards_with(p, "extra_move"):
            n = int(self.ctype(c).use("extra_move")["n"])
            for node, m in self._paths(p.pos, n, table, hand, c):
                if node != back or self._can_leave_after(m):
                    yield m
        base = set(table) | ({"boat"} & set(hand))
        for verb, use, bomb in (("fly", "fly", False), ("hop", "hop", True)):
            cards = self._cards_with(p, use)
            if not cards:
                continue
            for node, r in sorted(self.mv.flight_targets(p.pos, base, bombadil=bomb).items()):
                if node == p.pos:
                    continue
                k = "cloak" if self.info.terrain.get(node) == "forest" else "rope"
                flags = [()] + ([(f"+{k}",)] if r.stops_turn and k in hand else [])
                for c in cards:
                    for f in flags:
                        m = Move(verb, (c, node, *f))
                        if node != back or self._can_leave_after(m):
                            yield m

    def _paths(
        self,
        start: str,
        counts: int,
        table: tuple[str, ...],
        hand: tuple[str, ...],
        card: str | None,
    ) -> list[tuple[str, Move]]:
        """``(destination, move PATH)`` (or ``ride CARD PATH``) to every destination,
        with and without each Cloak/Rope of the hand where using it makes a difference;
        cached per board: the answer depends only on the start, the counts, the
        movement cards on the table and in the hand, and the card."""

        def compute() -> list[tuple[str, Move]]:
            base = set(table) | ({"boat"} & set(hand))
            optional = [k for k in ("cloak", "rope") if k in hand]
            found: list[tuple[str, tuple[str, ...], Move]] = []
            for size in range(len(optional) + 1):
                for combo in itertools.combinations(optional, size):
                    cards = base | set(combo)
                    for node, r in self.mv.destinations(start, counts, cards).items():
                        if node == start or not self._makes_difference(r, counts, cards, combo):
                            continue
                        flags = tuple(f"+{k}" for k in combo)
                        text = path_text(r.path)
                        args = (text, *flags) if card is None else (card, text, *flags)
                        found.append((node, flags, Move("move" if card is None else "ride", args)))
            found.sort(key=lambda x: (x[0], x[1]))
            return [(node, m) for node, _, m in found]

        if not self.cache_paths:
            return compute()
        cache: dict[Any, Any] = self.compiled.derived("riddle.paths", dict)
        key = (start, counts, table, hand, card)
        got = cache.get(key)
        if got is None:
            if len(cache) > 50_000:
                cache.clear()
            got = cache[key] = compute()
        return got  # type: ignore[no-any-return]

    def _makes_difference(
        self, reach: Any, counts: int, cards: set[str], combo: tuple[str, ...]
    ) -> bool:
        """Each Cloak/Rope of ``combo`` is needed on ``reach.path`` or keeps it going."""
        for k in combo:
            try:
                r2 = self.mv.validate(reach.path, counts, cards - {k})
            except IllegalMoveError:
                continue
            if r2.stops_turn and not reach.stops_turn:
                continue
            return False
        return True

    def _has_any_move(self) -> bool:
        return any(True for _ in self._g_moves())

    # ================================================================ Friendly Exchanges
    def _c_exchange(self, name: str) -> None:
        if name not in self.t["pending"]:
            raise _illegal(
                "no_exchange_due",
                f"no Friendly Exchange with {name} is due "
                f"(due: {', '.join(self.t['pending']) or 'none'})",
                player=name,
            )

    def _a_exchange(self, ev: list[dict[str, Any]], name: str) -> None:
        p, q = self.me, self._by[name]
        self.t["pending"].remove(name)
        mode = self.opts["partner_exchange"]
        if p.hand and q.hand and mode != "basic" and self._team(p, q):
            self.sub = {
                "kind": "pexchange",
                "with": name,
                "mode": mode,
                "turn": p.name,
                "gives": {},
            }
            if mode == "b":
                self.sub.update(step="ask", asks={}, answers={})
            self.phase = "pexchange"
            ev.append({"event": "partner_exchange", "player": p.name, "with": name, "mode": mode})
            return
        if p.hand and q.hand:
            a = p.hand.pop(self._rand(len(p.hand)))
            b = q.hand.pop(self._rand(len(q.hand)))
            p.hand.append(b)
            q.hand.append(a)
            self.t["exchanged"].append(name)
            ev.append(
                {
                    "event": "exchange",
                    "player": p.name,
                    "with": name,
                    "private": {p.name: {"gave": a, "got": b}, name: {"gave": b, "got": a}},
                }
            )
        else:
            ev.append({"event": "exchange", "player": p.name, "with": name, "none": True})
        if not self.t["pending"]:
            self.phase = "main"

    def _g_exchange(self) -> Iterator[Move]:
        for n in self.t["pending"]:
            yield Move("exchange", (n,))

    def _pex(self) -> tuple[dict[str, Any], Player, Player]:
        sub = self.sub or {}
        actor = self._by[sub["turn"]]
        other = self._by[sub["with"]] if actor is self.me else self.me
        return sub, actor, other

    def _c_offer(self, card: str) -> None:
        sub, actor, _ = self._pex()
        if sub.get("mode") == "b":
            self._pexb_expect(sub, "offer", "offer")
        elif sub.get("mode") != "a":
            raise _illegal("wrong_phase", "offer a card only in Variation 2a/2b exchanges")
        self._in_hand(actor, card)

    # Variation 2b: ask for a title; grant it or decline, then select as in 2a
    _PEXB_STEPS: ClassVar[dict[str, str]] = {
        "ask": "ask for a title (ask TITLE) or not (noask)",
        "answer": "answer your partner's request (grant CARD or decline)",
        "offer": "select the card you give (offer CARD)",
    }

    def _pexb_expect(self, sub: dict[str, Any], step: str, verb: str) -> None:
        if sub.get("mode") != "b":
            raise _illegal(
                "wrong_phase",
                f"{verb!r} only in Variation 2b exchanges (partner_exchange=b between partners)",
            )
        if sub.get("step") != step:
            raise _illegal(
                "wrong_phase",
                f"not now in this Variation 2b exchange: "
                f"{sub['turn']} is to {self._PEXB_STEPS[sub['step']]}",
                step=sub.get("step"),
                move=verb,
            )

    def _pexb_step(self, sub: dict[str, Any]) -> bool:
        """Set ``sub["turn"]``/``sub["step"]`` to the next decision of a 2b exchange;
        ``False`` when every card to give is chosen."""
        p, q = self.me.name, str(sub["with"])
        asks, answers, gives = sub["asks"], sub["answers"], sub["gives"]
        for r in (p, q):
            if r not in asks:
                sub["turn"], sub["step"] = r, "ask"
                return True
        for giver, receiver in ((p, q), (q, p)):
            if giver not in gives:
                sub["turn"] = giver
                sub["step"] = (
                    "answer" if asks[receiver] is not None and giver not in answers else "offer"
                )
                return True
        return False

    def _c_ask(self, title: str) -> None:
        self._pexb_expect(self._pex()[0], "ask", "ask")
        self._title(title)

    def _a_ask(self, ev: list[dict[str, Any]], title: str) -> None:
        sub, actor, other = self._pex()
        sub["asks"][actor.name] = title
        ev.append(
            {
                "event": "request",
                "player": actor.name,
                "with": other.name,
                "private": {actor.name: {"title": title}, other.name: {"title": title}},
            }
        )
        self._pex_next(ev)

    def _c_noask(self) -> None:
        self._pexb_expect(self._pex()[0], "ask", "noask")

    def _a_noask(self, ev: list[dict[str, Any]]) -> None:
        sub, actor, other = self._pex()
        sub["asks"][actor.name] = None
        ev.append({"event": "request", "player": actor.name, "with": other.name, "none": True})
        self._pex_next(ev)

    def _c_grant(self, card: str) -> None:
        sub, actor, other = self._pex()
        self._pexb_expect(sub, "answer", "grant")
        t = self._in_hand(actor, card)
        title = sub["asks"][other.name]
        if t.title != title:
            raise _illegal(
                "not_requested",
                f"{other.name} asked for {title}, and {card} is {t.title}",
                card=card,
                title=title,
            )

    def _a_grant(self, ev: list[dict[str, Any]], card: str) -> None:
        sub, actor, other = self._pex()
        sub["answers"][actor.name] = "granted"
        sub["gives"][actor.name] = card
        ev.append(
            {
                "event": "request_answer",
                "player": actor.name,
                "with": other.name,
                "answer": "granted",
                "private": {actor.name: {"card": card}, other.name: {"card": card}},
            }
        )
        self._pex_next(ev)

    def _c_decline(self) -> None:
        self._pexb_expect(self._pex()[0], "answer", "decline")

    def _a_decline(self, ev: list[dict[str, Any]]) -> None:
        sub, actor, other = self._pex()
        sub["answers"][actor.name] = "declined"
        ev.append(
            {
                "event": "request_answer",
                "player": actor.name,
                "with": other.name,
                "answer": "declined",
            }
        )
        self._pex_next(ev)

    def _c_pick(self, card: str) -> None:
        sub, _actor, other = self._pex()
        if sub.get("mode") != "c":
            raise _illegal("wrong_phase", "pick a card only in Variation 2c exchanges")
        if card not in other.hand:
            raise _illegal("not_in_hand", f"{other.name} does not hold {card}", card=card)

    def _a_offer(self, ev: list[dict[str, Any]], card: str) -> None:
        sub, actor, _ = self._pex()
        sub["gives"][actor.name] = card
        self._pex_next(ev)

    def _a_pick(self, ev: list[dict[str, Any]], card: str) -> None:
        sub, _actor, other = self._pex()
        sub["gives"][other.name] = card
        self._pex_next(ev)

    def _pex_next(self, ev: list[dict[str, Any]]) -> None:
        sub = self.sub
        assert sub is not None
        p, q = self.me, self._by[sub["with"]]
        if sub["mode"] == "b":
            if self._pexb_step(sub):
                return
        elif sub["turn"] == p.name:
            sub["turn"] = q.name
            return
        a, b = sub["gives"][p.name], sub["gives"][q.name]
        p.hand.remove(a)
        q.hand.remove(b)
        p.hand.append(b)
        q.hand.append(a)
        self.t["exchanged"].append(q.name)
        ev.append(
            {
                "event": "exchange",
                "player": p.name,
                "with": q.name,
                "mode": sub["mode"],
                "private": {p.name: {"gave": a, "got": b}, q.name: {"gave": b, "got": a}},
            }
        )
        self.sub = None
        self.phase = "exchange" if self.t["pending"] else "main"

    def _g_pexchange(self) -> Iterator[Move]:
        sub, actor, other = self._pex()
        if sub["mode"] == "b":
            if sub["step"] == "ask":
                yield Move("noask")
                for t in sorted(self.deck.titles):
                    yield Move("ask", (t,))
                return
            if sub["step"] == "answer":
                title = sub["asks"][other.name]
                for c in sorted(actor.hand):
                    if self.deck.type_of[c].title == title:
                        yield Move("grant", (c,))
                yield Move("decline")
                return
        if sub["mode"] in ("a", "b"):
            for c in sorted(actor.hand):
                yield Move("offer", (c,))
        else:
            for c in sorted(other.hand):
                yield Move("pick", (c,))

    # ================================================================ Power Plays
    def _power_play(self) -> None:
        if self.t["pp"] >= 2:
            raise _illegal("power_plays_used", "you have had your 2 Power Plays this turn")

    def _target(self, name: str, *, other_team: bool = False) -> Player:
        q = self.player(name)
        if q is self.me:
            raise _illegal("self_target", "you cannot do this with yourself")
        if not self._reachable(q):
            raise _illegal(
                "out_of_reach",
                f"{name} is in {q.status if not q.out else 'no game'}: no activities with him",
                player=name,
            )
        if other_team and self._team(self.me, q):
            raise _illegal("partner", f"{name} is your partner", player=name)
        return q

    def _c_look(self, card: str, name: str) -> None:
        self._power_play()
        u = self._usable(self.me, card, "clairvoyance")
        q = self._target(name)
        reach = u.get("reach", "any")
        if reach == "beside" and not self._near(self.me.pos, q.pos):
            raise _illegal(
                "too_far",
                f"{self.ctype(card).name} sees only a player on or beside you",
                player=name,
            )
        if reach == "city" and (q.pos is None or self._city_of(q.pos) is None):
            raise _illegal(
                "not_on_city", f"{self.ctype(card).name} sees only a player on a city", player=name
            )

    def _resist_cards(self, q: Player) -> list[str]:
        return sorted(c for c in q.hand if self.deck.type_of[c].id in ("the_ring", q.name))

    def _a_look(self, ev: list[dict[str, Any]], card: str, name: str) -> None:
        u = self.ctype(card).use("clairvoyance")
        self.t["pp"] += 1
        self._after(self.me, card, u.get("after", "discard"))
        self._clairvoyance(ev, self._by[name], bool(u.get("resistible")), card)

    def _clairvoyance(
        self, ev: list[dict[str, Any]], q: Player, resistible: bool, how: str
    ) -> None:
        ev.append({"event": "clairvoyance", "player": self.me.name, "target": q.name, "by": how})
        if self._share_cards(q, how) or (resistible and self._resist_cards(q)):
            self.sub = {"kind": "look", "target": q.name, "by": how}
            self.phase = "resist"
            return
        s = self._reveal(self.me, q.name, q.hand, how)
        ev.append(
            {
                "event": "seen",
                "player": self.me.name,
                "target": q.name,
                "private": {self.me.name: s},
            }
        )

    def _c_clair(self, name: str) -> None:
        if not self.opts["clairvoyance_spots"]:
            raise _illegal("option_off", "C spaces are used only in the Recommended Game")
        self._power_play()
        p = self.me
        if p.pos is None or "C" not in self.info.letters.get(p.pos, ()):
            raise _illegal("not_on_c_space", "you are not stopped on a C space")
        q = self._target(name)
        if q.pos is None or q.status != "board" or q.pos not in self._within6(p.pos):
            raise _illegal("too_far", f"{name} is not within 6 spaces of your C space", player=name)

    def _within6(self, node: str) -> set[str]:
        return self.compiled.derived(
            f"riddle.within6:{node}", lambda: set(self.mv.within(node, 6)) | {node}
        )

    def _a_clair(self, ev: list[dict[str, Any]], name: str) -> None:
        self.t["pp"] += 1
        self._clairvoyance(ev, self._by[name], bool(self.opts["resist_c"]), "c_space")

    def _share_cards(self, q: Player, how: str | None = None) -> list[str]:
        """Variation 4: a partner seen with an Elf Ring or Palantir may show his own."""
        if not (
            self.opts["partner_clairvoyance"] and self.opts["partners"] and self._team(self.me, q)
        ):
            return []
        how = how if how is not None else str((self.sub or {}).get("by", ""))
        t = self.deck.type_of.get(how)
        if t is None or t.id not in ("elf_ring", "palantir"):
            return []
        return sorted(c for c in q.hand if self.deck.type_of[c].id in ("elf_ring", "palantir"))

    def _c_share(self, card: str) -> None:
        q = self._by[self.sub["target"]]  # type: ignore[index]
        if card not in self._share_cards(q):
            raise _illegal(
                "cannot_share",
                "Variation 4: show an Elf Ring or Palantir of your own to your partner",
                card=card,
            )

    def _a_share(self, ev: list[dict[str, Any]], card: str) -> None:
        q = self._by[self.sub["target"]]  # type: ignore[index]
        a = self._reveal(self.me, q.name, q.hand, "partners")
        b = self._reveal(q, self.me.name, self.me.hand, "partners")
        ev.append(
            {
                "event": "partners_share",
                "player": self.me.name,
                "with": q.name,
                "shown": card,
                "private": {self.me.name: a, q.name: b},
            }
        )
        self.sub = None
        self.phase = "main"

    def _c_resist(self, card: str) -> None:
        q = self._by[self.sub["target"]]  # type: ignore[index]
        if card not in self._resist_cards(q):
            raise _illegal(
                "cannot_resist", "resist only with The Ring or your own character card", card=card
            )

    def _a_resist(self, ev: list[dict[str, Any]], card: str) -> None:
        q = self._by[self.sub["target"]]  # type: ignore[index]
        s = self._reveal(self.me, q.name, [card], "resisted")
        ev.append(
            {
                "event": "resisted",
                "player": self.me.name,
                "target": q.name,
                "private": {self.me.name: s, q.name: {"showed": card}},
            }
        )
        self.sub = None
        self.phase = "main"

    def _c_show(self) -> None:
        return None

    def _a_show(self, ev: list[dict[str, Any]]) -> None:
        q = self._by[self.sub["target"]]  # type: ignore[index]
        s = self._reveal(self.me, q.name, q.hand, str(self.sub["by"]))  # type: ignore[index]
        ev.append(
            {
                "event": "seen",
                "player": self.me.name,
                "target": q.name,
                "private": {self.me.name: s},
            }
        )
        self.sub = None
        self.phase = "main"

    def _g_resist(self) -> Iterator[Move]:
        q = self._by[self.sub["target"]]  # type: ignore[index]
        for c in self._resist_cards(q):
            yield Move("resist", (c,))
        for c in self._share_cards(q):
            yield Move("share", (c,))
        yield Move("show")

    def _c_peek(self, card: str, space: str) -> None:
        if not self.opts["secret_spots"]:
            raise _illegal("option_off", "S spaces are used only in the Recommended Game")
        self._power_play()
        self._usable(self.me, card, "see_hidden")
        if not any(self.hidden.get(space, {}).values()):
            raise _illegal("nothing_hidden", f"no cards are hidden at {space}", space=space)

    def _a_peek(self, ev: list[dict[str, Any]], card: str, space: str) -> None:
        self.t["pp"] += 1
        seen = {n: sorted(c) for n, c in self.hidden[space].items() if c}
        self._reveal(
            self.me, f"hidden:{space}", [f"{n}:{c}" for n, cs in seen.items() for c in cs], card
        )
        ev.append(
            {
                "event": "peek",
                "player": self.me.name,
                "space": space,
                "private": {self.me.name: seen},
            }
        )

    # ---------------------------------------------------------------- riddles
    def _c_riddle(self, card: str, name: str, title: str) -> None:
        self._power_play()
        self._usable(self.me, card, "riddle")
        if len(self.me.hand) < 2:
            raise _illegal(
                "riddle_alone",
                "if the only card in your hand is a Riddle card, do "
                "not use it: you must have 1 other card to lose",
            )
        q = self._target(name, other_team=True)
        if not q.hand:
            raise _illegal("empty_hand", f"{name} has no cards", player=name)
        self._title(title)

    def _title(self, title: str) -> None:
        if title not in self.deck.titles:
            raise _illegal(
                "unknown_title",
                f"no card is titled {title!r} (titles: {', '.join(sorted(self.deck.titles))})",
                title=title,
            )

    def _a_riddle(self, ev: list[dict[str, Any]], card: str, name: str, title: str) -> None:
        self.t["pp"] += 1
        self._after(self.me, card, "discard")
        self._guess(ev, self._by[name], title, card)

    def _guess(self, ev: list[dict[str, Any]], q: Player, title: str, how: str) -> None:
        p = self.me
        i = self._rand(len(q.hand))
        c = q.hand[i]
        if self.deck.type_of[c].title == title:
            q.hand.pop(i)
            p.hand.append(c)
            ev.append(
                {
                    "event": "riddle",
                    "player": p.name,
                    "target": q.name,
                    "guess": title,
                    "right": True,
                    "card": c,
                    "by": how,
                }
            )
            if q.hand:
                self.sub = {"kind": "riddle", "target": q.name, "by": how}
                self.phase = "riddle"
                return
        else:
            lost = self._take_random(p, q)
            if lost is not None:
                q.riddle_extra += 1
            ev.append(
                {
                    "event": "riddle",
                    "player": p.name,
                    "target": q.name,
                    "guess": title,
                    "right": False,
                    "by": how,
                    "private": {q.name: {"drawn": c, "got": lost}, p.name: {"lost": lost}},
                }
            )
        self.sub = None
        self.phase = "main"

    def _c_guess(self, title: str) -> None:
        self._title(title)

    def _a_guess(self, ev: list[dict[str, Any]], title: str) -> None:
        sub = self.sub or {}
        self._guess(ev, self._by[sub["target"]], title, sub["by"])

    def _c_stop(self) -> None:
        return None

    def _a_stop(self, ev: list[dict[str, Any]]) -> None:
        ev.append({"event": "riddle_over", "player": self.me.name})
        self.sub = None
        self.phase = "main"

    def _g_riddle(self) -> Iterator[Move]:
        for t in sorted(self.deck.titles):
            yield Move("guess", (t,))
        yield Move("stop")

    def _c_interrogate(self, name: str, title: str) -> None:
        q = self.player(name)
        if not self.opts["captivity"] or q.status != "captive" or q.captor != self.me.name:
            raise _illegal("not_your_captive", f"{name} is not your captive", player=name)
        if name in self.t["interrogated"]:
            raise _illegal("once_per_turn", "you may riddle a captive once per turn")
        if not q.hand:
            raise _illegal("empty_hand", f"{name} has no cards", player=name)
        self._title(title)

    def _a_interrogate(self, ev: list[dict[str, Any]], name: str, title: str) -> None:
        self.t["interrogated"].append(name)
        self._guess(ev, self._by[name], title, "captivity")

    # ---------------------------------------------------------------- Gollum, character cards
    def _c_gollum(self, card: str, name: str) -> None:
        self._power_play()
        self._usable(self.me, card, "gollum")
        if self.opts["gollum_spots"] and (
            self.me.pos is None or "G" not in self.info.letters.get(self.me.pos, ())
        ):
            raise _illegal(
                "not_on_g_space", "Gollum is used only from a G space (Recommended Game)"
            )
        self._target(name)

    def _a_gollum(self, ev: list[dict[str, Any]], card: str, name: str) -> None:
        self.t["pp"] += 1
        self._after(self.me, card, "discard")
        q = self._by[name]
        ring = next((c for c in q.hand if self.deck.type_of[c].id == "the_ring"), None)
        if ring is not None:
            q.hand.remove(ring)
            self.me.hand.append(ring)
        ev.append(
            {
                "event": "gollum",
                "player": self.me.name,
                "target": name,
                "got_ring": ring is not None,
            }
        )

    def _c_draw(self, card: str, name: str) -> None:
        self._power_play()
        self._usable(self.me, card, "draw")
        q = self._target(name)
        if self.opts["restrict_draws"] and self.ctype(card).player_kind != q.kind:
            raise _illegal(
                "restricted_draw",
                "Variation 13: draw from a Hobbit only with a "
                "Hobbit card, from a Black Rider only with a Black Rider card",
            )
        if not q.hand:
            raise _illegal("empty_hand", f"{name} has no cards", player=name)

    def _a_draw(self, ev: list[dict[str, Any]], card: str, name: str) -> None:
        self.t["pp"] += 1
        self._after(self.me, card, "discard")
        got = self._take_random(self._by[name], self.me)
        ev.append(
            {
                "event": "draw",
                "player": self.me.name,
                "target": name,
                "by": card,
                "private": {self.me.name: {"got": got}, name: {"lost": got}},
            }
        )

    def _c_give(self, card: str) -> None:
        self._power_play()
        self._usable(self.me, card, "give_take")
        owner = self.ctype(card).id
        if owner == self.me.name:
            raise _illegal("own_card", "you cannot give yourself your own card")
        if owner not in self._by:
            raise _illegal("not_playing", f"{self.ctype(card).name} is not in the game")
        self._target(owner)

    def _a_give(self, ev: list[dict[str, Any]], card: str) -> None:
        self.t["pp"] += 1
        q = self._by[self.ctype(card).id]
        self.me.hand.remove(card)
        q.hand.append(card)
        s = self._reveal(self.me, q.name, q.hand, card)
        ev.append(
            {
                "event": "give",
                "player": self.me.name,
                "target": q.name,
                "card": card,
                "private": {self.me.name: s},
            }
        )
        if len(q.hand) > 1:
            self.sub = {"kind": "give", "target": q.name, "exclude": card}
            self.phase = "choose"

    def _c_take(self, card: str) -> None:
        sub = self.sub or {}
        q = self._by[sub["target"]]
        if card not in q.hand or card == sub.get("exclude"):
            raise _illegal("not_in_hand", f"{q.name} has no {card} you may take", card=card)

    def _a_take(self, ev: list[dict[str, Any]], card: str) -> None:
        sub = self.sub or {}
        q = self._by[sub["target"]]
        q.hand.remove(card)
        self.me.hand.append(card)
        ev.append({"event": "take", "player": self.me.name, "target": q.name, "card": card})
        self.sub = None
        self.phase = "main"
        if sub["kind"] == "battle":
            self._send_away(ev, q, "limbo")

    def _c_capture(self) -> None:
        if not self.opts["captivity"] or (self.sub or {}).get("kind") != "battle":
            raise _illegal(
                "no_capture",
                "only the winner of a battle may take the loser captive (Recommended Game)",
            )

    def _a_capture(self, ev: list[dict[str, Any]]) -> None:
        q = self._by[self.sub["target"]]  # type: ignore[index]
        self.sub = None
        self.phase = "main"
        self._send_away(ev, q, "captive")

    def _g_choose(self) -> Iterator[Move]:
        sub = self.sub or {}
        q = self._by[sub["target"]]
        seen = set()
        for c in sorted(q.hand):
            tid = self.deck.type_of[c].id
            if c != sub.get("exclude") and tid not in seen:
                seen.add(tid)
                yield Move("take", (c,))
        if sub.get("kind") == "battle" and self.opts["captivity"]:
            yield Move("capture")

    def _c_release(self, name: str) -> None:
        q = self.player(name)
        if q.status != "captive" or q.captor != self.me.name:
            raise _illegal("not_your_captive", f"{name} is not your captive", player=name)
        if q.free_next:
            raise _illegal("already_released", f"{name} is already set free")

    def _a_release(self, ev: list[dict[str, Any]], name: str) -> None:
        self._by[name].free_next = True
        ev.append({"event": "release", "player": self.me.name, "captive": name})

    def _send_away(self, ev: list[dict[str, Any]], q: Player, status: str) -> None:
        """Send ``q`` to Limbo or into captivity of the player on turn (with his prisoners)."""
        p = self.me
        self.discard_pile.extend(q.table)
        q.table.clear()
        q.goal_wait = False
        q.status, q.away, q.free_next = status, 0, False
        q.captor = p.name if status == "captive" else None
        q.pos = p.pos if status == "captive" else None
        ev.append(
            {"event": "limbo" if status == "limbo" else "captive", "player": q.name, "by": p.name}
        )
        for r in self.players:
            if r.status == "captive" and r.captor == q.name:
                r.status, r.free_next = status, True
                r.captor = q.captor
                r.pos = q.pos
                ev.append({"event": "prisoner_follows", "player": r.name, "with": q.name})
        if (
            status == "limbo"
            and self.opts["limbo_out"]
            and sum(1 for r in self.players if not r.out) >= 6
        ):
            q.out = True
            q.pos = None
            for c in list(q.hand):
                q.hand.remove(c)
                if self.deck.type_of[c].id == "the_ring":
                    p.hand.append(c)
                else:
                    self.discard_pile.append(c)
            ev.append({"event": "out_of_game", "player": q.name, "why": "Variation 10"})

    # ---------------------------------------------------------------- battles
    def _battle_cities(self, a: Player, b: Player) -> list[tuple[str, str]]:
        spaces: set[str] = set()
        for x in (a.pos, b.pos):
            if x is not None:
                spaces.add(x)
                spaces |= self._beside(x)
        out = []
        for s in sorted(spaces):
            c = self._city_of(s)
            if c in ("good", "evil"):
                out.append((s, c))
        return out

    @staticmethod
    def _att_sides(defender: Player) -> tuple[str, str]:
        return ("evil", "neutral") if defender.kind == "hobbit" else ("good", "neutral")

    @staticmethod
    def _def_sides(defender: Player) -> tuple[str, str]:
        return ("good", "neutral") if defender.kind == "hobbit" else ("evil", "neutral")

    def _c_battle(self, name: str) -> None:
        self._power_play()
        q = self._target(name, other_team=True)
        if name not in self.t["exchanged"]:
            raise _illegal(
                "no_exchange",
                f"attack {name} only after landing on or beside him "
                "and having a Friendly Exchange with him",
                player=name,
            )
        if name in self.t["battled"]:
            raise _illegal("battled", f"you may not attack {name} more than once per turn")
        if not self._on_board(q) or not self._near(self.me.pos, q.pos):
            raise _illegal("too_far", f"{name} is not on or beside you", player=name)
        forces = self._g_forces("commit", self.me, self._att_sides(q), [], 5, q)
        if not any(not m.args[0].startswith("city:") for m in forces):
            raise _illegal(
                "no_battle_card",
                "every Power Play needs at least 1 card from your hand: you hold no card "
                f"to open a battle against {name} with",
                player=name,
            )

    def _a_battle(self, ev: list[dict[str, Any]], name: str) -> None:
        self.t["pp"] += 1
        self.t["battled"].append(name)
        self.sub = {
            "kind": "battle",
            "defender": name,
            "total": 0,
            "need": 0,
            "att": [],
            "dfn": [],
            "att_cities": [],
            "def_cities": [],
        }
        self.phase = "battle_att"
        ev.append({"event": "battle", "player": self.me.name, "defender": name})

    def _force(
        self,
        who: Player,
        x: str,
        sides: tuple[str, str],
        used: list[str],
        limit: int,
        defender: Player,
        *,
        exact: bool = False,
    ) -> tuple[int, str | None]:
        """Points of force ``x`` (a card in ``who``'s hand or ``city:SPACE``); with
        ``exact`` the force must bring exactly ``limit`` points (the defender's answer)."""
        if x.startswith("city:"):
            space = x[5:]
            cities = dict(self._battle_cities(self.me, defender))
            if space not in cities:
                raise _illegal(
                    "no_city",
                    f"{space} is not a Good or Evil city on or beside either player",
                    space=space,
                )
            if cities[space] not in sides:
                raise _illegal(
                    "wrong_side", f"{space} is a {cities[space]} city: not your force", space=space
                )
            if space in used:
                raise _illegal("city_used", f"you have used {space} in this battle already")
            pts = 1
        else:
            t = self._in_hand(who, x)
            if t.use("battle") is None or t.points < 1:
                raise _illegal("no_battle_points", f"{t.name} has no battle points", card=x)
            if t.side not in sides:
                raise _illegal(
                    "wrong_side",
                    f"{t.name} is {t.side}: you fight with {' and '.join(sides)} forces here",
                    card=x,
                )
            if t.id == who.name and who is self.me and defender.kind == who.kind:
                raise _illegal(
                    "own_card",
                    "you may not use your own character card to attack one of your own kind",
                    card=x,
                )
            pts = t.points
        if pts > limit:
            raise _illegal("too_many_points", f"{x} brings {pts} points, more than {limit}", card=x)
        if exact and pts != limit:
            raise _illegal(
                "must_match",
                f"{x} brings {pts} point(s): answer a round with one card or one city "
                f"of exactly {limit}",
                card=x,
            )
        return pts, (x[5:] if x.startswith("city:") else None)

    def _c_commit(self, x: str) -> None:
        sub = self.sub or {}
        d = self._by[sub["defender"]]
        if not sub["att"] and x.startswith("city:"):
            raise _illegal(
                "card_first",
                "open the battle with a card from your hand: every Power Play needs one",
                space=x[5:],
            )
        self._force(self.me, x, self._att_sides(d), sub["att_cities"], 5 - sub["total"], d)

    def _a_commit(self, ev: list[dict[str, Any]], x: str) -> None:
        sub = self.sub  # type: ignore[assignment]
        assert sub is not None
        d = self._by[sub["defender"]]
        pts, city = self._force(
            self.me, x, self._att_sides(d), sub["att_cities"], 5 - sub["total"], d
        )
        if city:
            sub["att_cities"].append(city)
        else:
            self.me.hand.remove(x)
            sub["att"].append(x)
        sub["total"] += pts
        sub["need"] = pts
        self.phase = "battle_def"
        ev.append(
            {
                "event": "battle_round",
                "player": self.me.name,
                "force": x,
                "points": pts,
                "total": sub["total"],
            }
        )

    def _c_settle(self) -> None:
        if not (self.sub or {}).get("att"):
            raise _illegal(
                "card_first",
                "settle for a tie only after the defender has matched a round: open the "
                "battle with a card from your hand",
            )

    def _a_settle(self, ev: list[dict[str, Any]]) -> None:
        self._end_battle(ev, None)

    def _c_match(self, x: str) -> None:
        sub = self.sub or {}
        d = self._by[sub["defender"]]
        self._force(d, x, self._def_sides(d), sub["def_cities"], sub["need"], d, exact=True)

    def _a_match(self, ev: list[dict[str, Any]], x: str) -> None:
        sub = self.sub
        assert sub is not None
        d = self._by[sub["defender"]]
        pts, city = self._force(
            d, x, self._def_sides(d), sub["def_cities"], sub["need"], d, exact=True
        )
        if city:
            sub["def_cities"].append(city)
        else:
            d.hand.remove(x)
            sub["dfn"].append(x)
        sub["need"] -= pts
        ev.append(
            {
                "event": "battle_match",
                "player": d.name,
                "force": x,
                "points": pts,
                "still": sub["need"],
            }
        )
        if sub["need"] == 0:
            if sub["total"] >= 5:
                self._end_battle(ev, None)
            else:
                self.phase = "battle_att"

    def _c_surrender(self) -> None:
        return None

    def _a_surrender(self, ev: list[dict[str, Any]]) -> None:
        self._end_battle(ev, self.me)

    def _end_battle(self, ev: list[dict[str, Any]], winner: Player | None) -> None:
        sub = self.sub
        assert sub is not None
        d = self._by[sub["defender"]]
        for who, cards in ((self.me, sub["att"]), (d, sub["dfn"])):
            for c in cards:
                if self.deck.type_of[c].battle_after == "retain":
                    who.hand.append(c)
                else:
                    self.discard_pile.append(c)
        ev.append(
            {
                "event": "battle_over",
                "attacker": self.me.name,
                "defender": d.name,
                "result": "won" if winner else "tie",
                "points": sub["total"],
            }
        )
        self.sub = None
        self.phase = "main"
        if winner is None:
            return
        s = self._reveal(self.me, d.name, d.hand, "battle")
        ev.append(
            {
                "event": "seen",
                "player": self.me.name,
                "target": d.name,
                "private": {self.me.name: s},
            }
        )
        if d.hand or self.opts["captivity"]:
            self.sub = {"kind": "battle", "target": d.name}
            self.phase = "choose"
        else:
            self._send_away(ev, d, "limbo")

    def _g_battle_att(self) -> Iterator[Move]:
        sub = self.sub or {}
        d = self._by[sub["defender"]]
        opening = not sub["att"]
        for m in self._g_forces(
            "commit", self.me, self._att_sides(d), sub["att_cities"], 5 - sub["total"], d
        ):
            if not (opening and m.args[0].startswith("city:")):
                yield m
        if not opening:
            yield Move("settle")

    def _g_battle_def(self) -> Iterator[Move]:
        sub = self.sub or {}
        d = self._by[sub["defender"]]
        yield from self._g_forces(
            "match", d, self._def_sides(d), sub["def_cities"], sub["need"], d, exact=True
        )
        yield Move("surrender")

    def _g_forces(
        self,
        verb: str,
        who: Player,
        sides: tuple[str, str],
        used: list[str],
        limit: int,
        d: Player,
        *,
        exact: bool = False,
    ) -> Iterator[Move]:
        seen = set()
        low = limit if exact else 1
        for c in sorted(who.hand):
            t = self.deck.type_of[c]
            if t.id in seen or t.use("battle") is None or not low <= t.points <= limit:
                continue
            if t.side not in sides:
                continue
            if t.id == who.name and who is self.me and d.kind == who.kind:
                continue
            seen.add(t.id)
            yield Move(verb, (c,))
        if limit >= 1 and (low <= 1):
            for s, side in self._battle_cities(self.me, d):
                if side in sides and s not in used:
                    yield Move(verb, (f"city:{s}",))

    # ================================================================ Secret Spots, catching
    def _on_s(self) -> str:
        p = self.me
        if not self.opts["secret_spots"]:
            raise _illegal("option_off", "S spaces are used only in the Recommended Game")
        if p.pos is None or p.status != "board" or "S" not in self.info.letters.get(p.pos, ()):
            raise _illegal("not_on_s_space", "you are not stopped on an S space")
        return p.pos

    def _c_hide(self, card: str) -> None:
        self._on_s()
        self._in_hand(self.me, card)
        if self.t["hid"] >= 4:
            raise _illegal("hid_four", "you may hide 1 to 4 cards per turn")

    def _a_hide(self, ev: list[dict[str, Any]], card: str) -> None:
        s = self._on_s()
        self.me.hand.remove(card)
        self.hidden.setdefault(s, {}).setdefault(self.me.name, []).append(card)
        self.t["hid"] += 1
        ev.append(
            {
                "event": "hide",
                "player": self.me.name,
                "space": s,
                "private": {self.me.name: {"hid": card}},
            }
        )

    def _c_retrieve(self, card: str) -> None:
        s = self._on_s()
        if card not in self.hidden.get(s, {}).get(self.me.name, []):
            raise _illegal("not_hidden", f"you have not hidden {card} here", card=card)
        if self.t["hid"]:
            raise _illegal(
                "hid_this_turn", "you may not hide cards and then retrieve them in the same turn"
            )

    def _a_retrieve(self, ev: list[dict[str, Any]], card: str) -> None:
        s = self._on_s()
        lst = self.hidden[s][self.me.name]
        lst.remove(card)
        if not lst:
            del self.hidden[s][self.me.name]
        if not self.hidden[s]:
            del self.hidden[s]
        self.me.hand.append(card)
        ev.append(
            {
                "event": "retrieve",
                "player": self.me.name,
                "space": s,
                "private": {self.me.name: {"got": card}},
            }
        )

    def _c_find(self, name: str) -> None:
        s = self._on_s()
        if name == self.me.name or not self.hidden.get(s, {}).get(name):
            raise _illegal("nothing_hidden", f"{name} has no cards hidden here", player=name)
        if self.t["found"]:
            raise _illegal("once_per_turn", "you find 1 hidden card per turn")

    def _a_find(self, ev: list[dict[str, Any]], name: str) -> None:
        s = self._on_s()
        lst = self.hidden[s][name]
        c = lst.pop(self._rand(len(lst)))
        if not lst:
            del self.hidden[s][name]
        if not self.hidden[s]:
            del self.hidden[s]
        self.me.hand.append(c)
        self.t["found"] = True
        ev.append(
            {
                "event": "find",
                "player": self.me.name,
                "space": s,
                "from": name,
                "private": {self.me.name: {"got": c}},
            }
        )

    def _c_catch(self, name: str) -> None:
        q = self._target(name)
        if len(q.hand) - q.riddle_extra <= HAND_LIMIT:
            raise _illegal(
                "within_limit",
                f"{name} holds {len(q.hand)} cards "
                f"({q.riddle_extra} from wrong Riddles do not count)",
                player=name,
            )

    def _a_catch(self, ev: list[dict[str, Any]], name: str) -> None:
        ev.append({"event": "caught", "player": self.me.name, "target": name})
        self._send_away(ev, self._by[name], "limbo")

    # ================================================================ winning
    def _c_ring(self) -> None:
        p = self.me
        if not any(self.deck.type_of[c].id == "the_ring" for c in p.hand):
            raise _illegal("no_ring", "you do not hold The Ring")
        if p.status != "board":
            raise _illegal("not_on_board", "you cannot win from Limbo or captivity")
        if (
            self.opts["elf_ring_win"]
            and sum(1 for c in p.hand if self.deck.type_of[c].id == "elf_ring") >= 3
        ):
            return
        goal = self.info.roles[GOAL[p.kind]]
        where = "the Cracks of Doom" if p.kind == "hobbit" else "Barad-Dur"
        if p.pos != goal:
            raise _illegal("not_on_goal", f"show The Ring while on {where}")
        if not (p.goal_wait or self.opts["no_wait"] or (self.opts["wait_once"] and p.goal_seen)):
            raise _illegal(
                "must_wait",
                f"you must first end a turn on {where}; you win on your next turn there",
            )

    def _a_ring(self, ev: list[dict[str, Any]]) -> None:
        self._win(self.me, ev, "the_ring")

    # ================================================================ ending the turn
    def _can_end(self) -> None:
        p = self.me
        if p.status != "board":
            return
        if not self.t["moved"] and self._has_any_move():
            raise _illegal("must_move", "you must move at least 1 space per turn")
        if self.t["moved"] and p.pos == self.t["start"] and self._has_any_move():
            # a move back here is legal only while a move on remains; should a Power
            # Play since have cost the player his means of moving, he may end here
            raise _illegal("same_space", "you may not begin and end a turn on the same space")

    def _c_pickup(self, what: str) -> None:
        self._can_end()
        p = self.me
        if what == "city":
            city = self._city_of(p.pos)
            if city is None:
                raise _illegal("not_on_city", f"{p.pos} is not a city")
            if p.pos in p.cities[-2:]:
                raise _illegal(
                    "city_used",
                    f"pick up cards from at least 2 other cities before using {p.pos} again",
                    space=p.pos,
                )
        else:
            self._usable(p, what, "pickup")

    def _a_pickup(self, ev: list[dict[str, Any]], what: str) -> None:
        p = self.me
        if what == "city":
            n = 3
            big = self._majority_kind() if self.opts["partners"] else None
            if big == p.kind:
                n = 2
            p.cities = (p.cities + [p.pos])[-2:]  # type: ignore[list-item]
        else:
            u = self.ctype(what).use("pickup")
            self._after(p, what, "discard")
            n = int(u["n"])
        got = self._draw_cards(n)
        p.hand.extend(got)
        ev.append(
            {
                "event": "pickup",
                "player": p.name,
                "by": what,
                "count": len(got),
                "private": {p.name: {"got": got}},
            }
        )
        self.t["must_discard"] = 1 if got else 0
        self._finish(ev)

    def _c_pass(self) -> None:
        if self.phase == "main":
            self._can_end()

    def _a_pass(self, ev: list[dict[str, Any]]) -> None:
        p = self.me
        if self.phase == "limbo_rolled":
            got = self._draw_cards(1)
            p.hand.extend(got)
            ev.append(
                {
                    "event": "pickup",
                    "player": p.name,
                    "by": "limbo",
                    "count": len(got),
                    "private": {p.name: {"got": got}},
                }
            )
        else:
            ev.append({"event": "pass", "player": p.name})
        self._finish(ev)

    def _finish(self, ev: list[dict[str, Any]]) -> None:
        if self.t["must_discard"] or len(self.me.hand) > HAND_LIMIT:
            self.phase = "discard"
        else:
            self._end_turn(ev)

    def _c_discard(self, card: str) -> None:
        self._in_hand(self.me, card)

    def _a_discard(self, ev: list[dict[str, Any]], card: str) -> None:
        p = self.me
        p.hand.remove(card)
        self.discard_pile.append(card)
        ev.append({"event": "discard", "player": p.name, "card": card})
        self.t["must_discard"] = 0
        if len(p.hand) <= HAND_LIMIT:
            self._end_turn(ev)

    def _g_discard(self) -> Iterator[Move]:
        seen = set()
        for c in sorted(self.me.hand):
            tid = self.deck.type_of[c].id
            if tid not in seen:
                seen.add(tid)
                yield Move("discard", (c,))

    # ================================================================ main phase moves
    def _g_main(self) -> Iterator[Move]:
        p = self.me
        for m in (Move("ring"),):
            if self._ok(m):
                yield m
        moves = list(self._g_moves())
        yield from moves
        if not self.t["die_used"]:
            for c in self._cards_with(p, "reroll"):
                yield Move("reroll", (c,))
        others = [q for q in self.players if q is not p and self._reachable(q)]
        if self.t["pp"] < 2:
            for c in self._cards_with(p, "clairvoyance"):
                for q in others:
                    yield from self._if_ok(Move("look", (c, q.name)))
            if (
                self.opts["clairvoyance_spots"]
                and p.pos is not None
                and "C" in self.info.letters.get(p.pos, ())
            ):
                near = self._within6(p.pos)
                for q in others:
                    if q.status == "board" and q.pos in near:
                        yield from self._if_ok(Move("clair", (q.name,)))
            if self.opts["secret_spots"]:
                for c in self._cards_with(p, "see_hidden"):
                    for s in sorted(self.hidden):
                        yield from self._if_ok(Move("peek", (c, s)))
            if len(p.hand) >= 2:
                for c in self._cards_with(p, "riddle"):
                    for q in others:
                        if q.hand and not self._team(p, q):
                            for t in sorted(self.deck.titles):
                                yield Move("riddle", (c, q.name, t))
            if not self.opts["gollum_spots"] or (
                p.pos is not None and "G" in self.info.letters.get(p.pos, ())
            ):
                for c in self._cards_with(p, "gollum"):
                    for q in others:
                        yield from self._if_ok(Move("gollum", (c, q.name)))
            for c in self._cards_with(p, "draw"):
                for q in others:
                    yield from self._if_ok(Move("draw", (c, q.name)))
            for c in self._cards_with(p, "give_take"):
                yield from self._if_ok(Move("give", (c,)))
            for n in self.t["exchanged"]:
                yield from self._if_ok(Move("battle", (n,)))
        for q in self.players:
            if q.status == "captive" and q.captor == p.name:
                if self.opts["captivity"] and q.hand and q.name not in self.t["interrogated"]:
                    for t in sorted(self.deck.titles):
                        yield Move("interrogate", (q.name, t))
                if not q.free_next:
                    yield Move("release", (q.name,))
        if (
            self.opts["secret_spots"]
            and p.pos is not None
            and "S" in self.info.letters.get(p.pos, ())
        ):
            if self.t["hid"] < 4:
                for c in sorted(p.hand):
                    yield Move("hide", (c,))
            if not self.t["hid"]:
                for c in sorted(self.hidden.get(p.pos, {}).get(p.name, [])):
                    yield Move("retrieve", (c,))
            if not self.t["found"]:
                for n in sorted(self.hidden.get(p.pos, {})):
                    if n != p.name:
                        yield Move("find", (n,))
        for q in others:
            if len(q.hand) - q.riddle_extra > HAND_LIMIT:
                yield Move("catch", (q.name,))
        # ending the turn
        can_end = True
        if p.status == "board":
            if (not self.t["moved"] or p.pos == self.t["start"]) and moves:
                can_end = False
        if can_end:
            city = self._city_of(p.pos)
            if city is not None and p.pos not in p.cities[-2:]:
                yield Move("pickup", ("city",))
            for c in self._cards_with(p, "pickup"):
                yield Move("pickup", (c,))
            yield Move("pass")

    def _ok(self, m: Move) -> bool:
        try:
            self.check(m)
        except IllegalMoveError:
            return False
        return True

    def _if_ok(self, m: Move) -> Iterator[Move]:
        if self._ok(m):
            yield m

    # ================================================================ views
    def view(self, player: str | None = None) -> dict[str, Any]:
        """What ``player`` may see (``None``: what every onlooker sees).

        Shows positions, hand sizes, table cards, the top of the discard stack and the
        battle on the table to everybody; a player's own hand, his hidden cards and
        what he has seen by clairvoyance or in battle only to him (and, with table
        talk or Variation 4, to his partners).
        """
        if self.opts["enhanced_two"] and player in ("hobbits", "riders"):
            # Variation 14: a side sees only the hand of the character it is using now
            acting = self._by[self.acting] if self.phase != "character" else None
            player = acting.name if acting is not None and SIDE[acting.kind] == player else None
        elif player is not None:
            self.player(player)
        me = self._by.get(player) if player else None
        partners: set[str] = set()
        if me is not None and self.opts["partners"]:
            mates = [q for q in self.players if q.kind == me.kind and q is not me]
            if self.opts["table_talk"]:
                partners = {q.name for q in mates}
            elif (
                self.opts["partner_clairvoyance"]
                and me.pos
                and "C" in self.info.letters.get(me.pos, ())
            ):
                partners = {
                    q.name
                    for q in mates
                    if q.pos and q.status == "board" and "C" in self.info.letters.get(q.pos, ())
                }
        players = []
        for q in self.players:
            d: dict[str, Any] = {
                "name": q.name,
                "kind": q.kind,
                "pos": q.pos,
                "status": "out" if q.out else q.status,
                "hand_count": len(q.hand),
                "table": sorted(q.table),
                "captor": q.captor,
                "away_turns": q.away,
                "waiting_on_goal": q.goal_wait,
                "hidden_counts": {
                    s: len(h[q.name]) for s, h in sorted(self.hidden.items()) if q.name in h
                },
            }
            if me is not None and (q is me or q.name in partners):
                d["hand"] = sorted(q.hand)
            players.append(d)
        out: dict[str, Any] = {
            "rules": self.rules,
            "viewer": player,
            "turn": self.turn_no,
            "round": self.round_no,
            "on_turn": self.me.name,
            "to_move": self.to_move if self.result is None else None,
            "phase": self.phase,
            "roll": self.t.get("roll") or None,
            "power_plays": self.t.get("pp", 0),
            "exchanges_due": list(self.t.get("pending", [])),
            "players": players,
            "draw_count": len(self.draw_pile),
            "discard_count": len(self.discard_pile),
            "discard_top": self.discard_pile[-1] if self.discard_pile else None,
            "options": {k: v for k, v in self.opts.items() if v},
            "outcome": self.result,
        }
        if self.sub is not None and self.sub.get("kind") == "battle" and "defender" in self.sub:
            out["battle"] = {
                "attacker": self.me.name,
                "defender": self.sub["defender"],
                "attacker_forces": list(self.sub["att"])
                + [f"city:{c}" for c in self.sub["att_cities"]],
                "defender_forces": list(self.sub["dfn"])
                + [f"city:{c}" for c in self.sub["def_cities"]],
                "total": self.sub["total"],
                "to_match": self.sub["need"],
            }
        if me is not None:
            out["hand"] = sorted(me.hand)
            out["hidden"] = {
                s: sorted(h[me.name]) for s, h in sorted(self.hidden.items()) if me.name in h
            }
            out["seen"] = [dict(s) for s in self.seen.get(me.name, [])]
            if self.phase == "choose" and me is self.me and self.sub is not None:
                out["choosing_from"] = sorted(self._by[self.sub["target"]].hand)
            if (
                self.phase == "pexchange"
                and self.sub is not None
                and self.sub["mode"] == "c"
                and self.sub["turn"] == me.name
            ):
                out["choosing_from"] = sorted(self._pex()[2].hand)
            if (
                self.phase == "pexchange"
                and self.sub is not None
                and self.sub["mode"] == "b"
                and me.name in (self.me.name, self.sub["with"])
            ):
                # Variation 2b: the two partners know the titles asked and the answers
                out["requests"] = {
                    "asked": dict(self.sub["asks"]),
                    "answers": dict(self.sub["answers"]),
                }
        return out

    @staticmethod
    def events_for(events: list[dict[str, Any]], viewer: str | None) -> list[dict[str, Any]]:
        """``events`` as ``viewer`` may see them: each event's ``private`` part keeps only
        the viewer's own entry (``None``: no private part at all)."""
        out = []
        for e in events:
            priv = e.get("private")
            if priv is None:
                out.append(e)
                continue
            e = {k: v for k, v in e.items() if k != "private"}
            if viewer is not None and viewer in priv:
                e["private"] = {viewer: priv[viewer]}
            out.append(e)
        return out

    def invariants(self) -> list[str]:
        """Broken invariants (empty when all hold): each of the deck's cards exactly once;
        nobody but the player on turn over 10 cards (wrong-Riddle gains aside); markers
        where their status says; at most 2 Power Plays."""
        bad = []
        cards = self.all_cards()
        if sorted(cards) != sorted(self.deck.instances):
            bad.append(
                f"cards: {len(cards)} accounted for, {len(set(cards))} different, "
                f"deck has {len(self.deck.instances)}"
            )
        for i, q in enumerate(self.players):
            if i != self.cur and len(q.hand) - q.riddle_extra > HAND_LIMIT:
                bad.append(f"{q.name} holds {len(q.hand)} cards after his turn")
            if q.out:
                continue
            if q.status == "board" and q.pos is None:
                bad.append(f"{q.name} is on the board nowhere")
            if q.status == "limbo" and q.pos is not None:
                bad.append(f"{q.name} is in Limbo but on {q.pos}")
            if q.status == "captive":
                cap = self._by.get(q.captor or "")
                if cap is None or cap.pos != q.pos:
                    bad.append(f"{q.name} is a captive away from his captor")
        if self.t.get("pp", 0) > 2:
            bad.append(f"{self.t['pp']} Power Plays this turn")
        return bad

    def all_cards(self) -> list[str]:
        """Every card instance wherever it is (for the 80-card invariant)."""
        out = list(self.draw_pile) + list(self.discard_pile)
        for q in self.players:
            out += q.hand + q.table
        for h in self.hidden.values():
            for cs in h.values():
                out += cs
        if self.sub is not None and self.sub.get("kind") == "battle" and "att" in self.sub:
            out += list(self.sub["att"]) + list(self.sub["dfn"])
        return out


_PHASE_VERBS: dict[str, tuple[str, ...]] = {
    "start": ("roll",),
    "limbo": ("roll",),
    "limbo_rolled": ("escape", "pass"),
    "place": ("place",),
    "main": (
        "reroll",
        "move",
        "ride",
        "fly",
        "hop",
        "look",
        "clair",
        "peek",
        "riddle",
        "interrogate",
        "gollum",
        "draw",
        "give",
        "battle",
        "release",
        "hide",
        "retrieve",
        "find",
        "catch",
        "ring",
        "pickup",
        "pass",
    ),
    "exchange": ("exchange",),
    "character": ("use", "bring"),
    "pexchange": ("offer", "pick", "ask", "noask", "grant", "decline"),
    "resist": ("resist", "show", "share"),
    "riddle": ("guess", "stop"),
    "choose": ("take", "capture"),
    "battle_att": ("commit", "settle"),
    "battle_def": ("match", "surrender"),
    "discard": ("discard",),
    "over": (),
}
