"""The Ringgeister referee: the whole game on any board that declares these rules.

Follows the Ringgeister rulebook and our numbered rulings in
docs/rulings.md; comments cite them as "ruling N". The state is the
:class:`RinggeisterGame` object itself (python-chess style, see
:mod:`referee.games.base`).

Rulings of our own, where the rulings leave something open:

- **Counters are placed by the players** (``counter SPACE`` moves, one at a time,
  in player order, before the first turn — rulebook 1.4: "the player must act
  intelligently"), one counter per space. The option ``counter_placement=random``
  places them with the game's seeded generator instead, for quick games.
- **Winning ends the game at once** (rulebook 2.3 "The game ends when a Hobbit has
  reached the last grey point"), and so does a Spirit defeating the Ringbearer
  (rulebook 6.2 "the game ends immediately"): nothing after it happens.
- **Gandalf on a magic point**: the mission check (ruling 7a) still happens — it
  is not a disruptive event; card and wind do not (ruling 7b).
- **A black figure whose route repeats** stays where it started (ruling 9); light
  figures it defeated before the repetition was found stay defeated. A Spirit that
  caught the Ringbearer on a grey point stays on that point (the game is over).
- **Light figures never reverse** along the path they arrived on, and stop at dead
  ends (only black figures turn about there); a light figure may pass its own
  starting point but never stops there (that would not be a move).
- **Passing** (ruling 1, "if neither can move, the turn is a pass"): "neither" is the
  player's two coloured figures, so a player whose coloured figures cannot move may
  pass even when Gandalf could move (option (a) with both figures stuck); moving
  Gandalf instead stays legal. While a coloured figure can move, passing is refused.
- **The goal as the next free point** (ruling 6): a figure other than the Ringbearer
  Hobbit may neither enter the free goal nor jump it (only points held by light
  figures are jumped), so a route whose next free point is the goal gives it no move.
- **Straight on at a tie** (ruling 9): where two land exits turn equally little (a T
  entered from its stem, without three arrows) the ruling names no exit; the referee
  takes the one whose compiled path sorts first — deterministic, so games replay, but
  a board should avoid such junctions.
- **A black point whose heading has no land path** (ruling 9): the figure leaves by the
  land path closest in direction to the hand's (forward or backward) bearing; at the
  end of a single path that is the way back, as if it had turned about at a dead end.
- **The wind's ray starts at its point** (ruling 8): a black figure behind the point
  is not in the wind, however close; with nobody in the wind Gollum plays wherever he
  stands (and if Gollum is the nearest in the wind, he plays as that figure).
- **Several coloured figures per colour** (custom piece sets): the turn moves each
  of them once, in any order (ruling 1 generalised).
- **Tiles that turn** (ruling 11): the tile asset is ``turnable`` and carries at
  least two black points.
- **Reshuffle**: when the face-down pile is empty and a card must be turned, the
  cards turned before (all but the face-up one) are shuffled into a new pile.
- **A storm on the first card** is applied at set-up like any other storm (all
  black starting points are occupied, so on a standard board nothing turns).
- **A defeated figure set on a white starting point** has not "come to rest" from a
  move: nothing happens there (no mission check, card or wind).
- **Every game starts from the board's own tile turns**, even when another game on
  the same compiled board has turned tiles since (states record their turns).
"""

from __future__ import annotations

import weakref
from collections import deque
from collections.abc import Iterator
from typing import Any, ClassVar

from ...compiler import CompiledBoard
from ...errors import BoardError, IllegalMoveError, StateError, UsageError
from ...geometry import COMPASS, turn_angle, unit_vector
from ..base import FigureView, Game
from ..rng import Rng
from .moves import Move
from .pieces import COLOURS as ALL_COLOURS
from .pieces import SIZE_NAMES, Card, FigureSpec, deck_cards, figure_specs
from .view import DEAD_END, DOOR, JUNCTION, POINT, BoardView, view_of

STATE_VERSION = 1
VARIANTS = {"A": 0, "B": 2, "C": 3, "default": 1}

Event = dict[str, Any]


def _compass(bearing: float) -> str:
    k = round(bearing / 90.0) % 4
    return COMPASS[k] if abs(bearing - 90.0 * round(bearing / 90.0)) < 1e-6 else f"{bearing:g}°"


class RinggeisterGame(Game[Move]):
    """A Ringgeister game on a compiled board (state + rules).

    Create with :meth:`new` or :meth:`from_json`; query ``legal_moves``; ``push``
    a :class:`Move` (or ``push_text("hobbit-yellow t3/p2")``) to get the events.
    """

    rules: ClassVar[str] = "ringgeister"

    # ================================================================== set-up
    def __init__(
        self, compiled: CompiledBoard, colours: list[str], options: dict[str, Any], seed: int
    ) -> None:
        self.compiled = compiled
        self.v: BoardView = view_of(compiled)
        self.colours = list(colours)
        self.options = dict(options)
        self.seed = int(seed)
        self.specs: list[FigureSpec] = figure_specs(compiled.board.piece_types, self.colours)
        self.fidx = {s.id: i for i, s in enumerate(self.specs)}
        self.black_figs = [i for i, s in enumerate(self.specs) if not s.light]
        self.gollum = next((i for i, s in enumerate(self.specs) if s.figure == "gollum"), -1)
        self.cards: dict[str, Card] = {
            c.id: c for c in deck_cards(compiled.board.decks, self.colours)
        }
        self.rng = Rng(0)
        self.pos: list[int] = [-1] * len(self.specs)
        self.occ: list[int] = [-1] * self.v.n
        self.face_up: str = ""
        self.pile: list[str] = []
        self.discard: list[str] = []
        self.counters: list[dict[str, Any]] = []
        self.phase = "play"
        self.player = 0
        self.moved: list[str] = []
        self.pending: list[tuple[str, str]] = []
        self._outcome: dict[str, Any] | None = None
        self.ply = 0
        self.tile_turns: dict[str, int] = dict(self.v.base_turns)
        self._version = 0
        self._dest_cache: dict[tuple[int, int], tuple[dict[int, Any], dict[Any, Any]]] = {}
        self._claim()

    @classmethod
    def new(
        cls,
        compiled: CompiledBoard,
        *,
        players: int,
        seed: int,
        options: dict[str, Any] | None = None,
    ) -> RinggeisterGame:
        """Set up a game: figures at random on their starting points, top card face up.

        Options: ``variant`` A|B|C|default (ruling 12), ``colours`` (comma list,
        default the first ``players`` of yellow, orange, purple, green),
        ``counter_placement`` choose|random.
        """
        opts = dict(options or {})
        if compiled.board.rules not in (None, "ringgeister"):
            raise BoardError(
                f"board declares rules {compiled.board.rules!r}, not ringgeister",
                code="wrong_rules",
            )
        if not isinstance(players, int) or not 1 <= players <= 4:
            raise UsageError(f"Ringgeister is played by 1 to 4 players, not {players!r}")
        colours_opt = opts.get("colours")
        if colours_opt:
            colours = [c.strip() for c in str(colours_opt).split(",") if c.strip()]
            bad = [c for c in colours if c not in ALL_COLOURS]
            if bad or len(set(colours)) != len(colours) or len(colours) != players:
                raise UsageError(
                    f"colours must be {players} different of "
                    f"{', '.join(ALL_COLOURS)}, not {colours_opt!r}"
                )
        else:
            colours = list(ALL_COLOURS[:players])
        variant = str(opts.get("variant") or "default")
        if variant not in VARIANTS:
            raise UsageError(f"unknown variant {variant!r} (A, B, C or default)")
        if variant == "C" and players > 3:
            raise UsageError("variant C (three counters each) is only for three players at most")
        placement = str(opts.get("counter_placement") or "choose")
        if placement not in ("choose", "random"):
            raise UsageError(f"counter_placement must be choose or random, not {placement!r}")
        opts.update(variant=variant, counter_placement=placement, colours=",".join(colours))
        g = cls(compiled, colours, opts, seed)
        v = g.v
        g.rng = Rng.from_seed(seed)
        light = [i for i, s in enumerate(g.specs) if s.light]
        if len(v.white_starts) < len(light):
            raise BoardError(
                f"the board has {len(v.white_starts)} white starting points for "
                f"{len(light)} light figures",
                code="not_enough_starting_points",
            )
        if len(v.black_starts) < len(g.black_figs):
            raise BoardError(
                f"the board has {len(v.black_starts)} black starting points for "
                f"{len(g.black_figs)} black figures",
                code="not_enough_starting_points",
            )
        if not g.cards:
            raise BoardError("the deck has no card for the colours in play", code="no_cards")
        whites = list(v.white_starts)
        g.rng.shuffle(whites)
        for f, p in zip(light, whites):
            g._put(f, p)
        blacks = list(v.black_starts)
        g.rng.shuffle(blacks)
        for f, p in zip(g.black_figs, blacks):
            g._put(f, p)
        g.pile = sorted(g.cards)
        g.rng.shuffle(g.pile)
        g.face_up = g.pile.pop()
        per = VARIANTS[variant]
        g.counters = [
            {"id": f"{c}-{k}", "colour": c, "space": None, "removed": False}
            for k in range(1, per + 1)
            for c in colours
        ]
        if len(g.counters) > len(v.counter_spaces):
            raise BoardError(
                f"{len(g.counters)} counters but only {len(v.counter_spaces)} counter spaces",
                code="not_enough_counter_spaces",
            )
        g.setup_events: list[Event] = [
            g._ev("card_turned", f"first card: {g._card_text()}", card=g.cards[g.face_up].to_json())
        ]
        if g.cards[g.face_up].image == "storm":
            g._storm(g.setup_events)
        if g.counters and placement == "random":
            for c in g._counter_order():
                free = [s for s in v.counter_spaces if s not in g._taken_spaces()]
                c["space"] = g.rng.choice(free)
        g.phase = "counters" if any(c["space"] is None for c in g.counters) else "play"
        g.player = 0
        return g

    def _counter_order(self) -> list[dict[str, Any]]:
        """Counters in placing order: one at a time, in turn (rulebook 1.4)."""
        per = max((int(c["id"].rsplit("-", 1)[1]) for c in self.counters), default=0)
        by_id = {c["id"]: c for c in self.counters}
        return [
            by_id[f"{col}-{k}"]
            for k in range(1, per + 1)
            for col in self.colours
            if f"{col}-{k}" in by_id
        ]

    def _taken_spaces(self) -> set[str]:
        return {c["space"] for c in self.counters if c["space"] is not None and not c["removed"]}

    # ================================================================== JSON
    def to_json(self) -> dict[str, Any]:
        ids = self.v.ids
        return {
            "rules": self.rules,
            "version": STATE_VERSION,
            "board_hash": self.compiled.hash,
            "seed": self.seed,
            "players": list(self.colours),
            "options": dict(self.options),
            "rng": self.rng.state,
            "ply": self.ply,
            "phase": self.phase,
            "player": self.player,
            "moved": list(self.moved),
            "pending": [{"figure": f, "chooser": c} for f, c in self.pending],
            "figures": {
                s.id: (ids[self.pos[i]] if self.pos[i] >= 0 else None)
                for i, s in enumerate(self.specs)
            },
            "tile_turns": dict(sorted(self.tile_turns.items())),
            "cards": {
                "face_up": self.face_up,
                "pile": list(self.pile),
                "discard": list(self.discard),
            },
            "counters": [dict(c) for c in self.counters],
            "outcome": dict(self._outcome) if self._outcome else None,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any], compiled: CompiledBoard) -> RinggeisterGame:
        if not isinstance(data, dict):
            raise StateError("a Ringgeister state must be a JSON object")
        if data.get("rules") != cls.rules:
            raise StateError(
                f"state is for rules {data.get('rules')!r}, not ringgeister", code="wrong_rules"
            )
        if data.get("board_hash") != compiled.hash:
            raise StateError(
                f"state was made for board {data.get('board_hash')!r}, not for "
                f"this board ({compiled.hash})",
                code="wrong_board",
            )
        if data.get("version") != STATE_VERSION:
            raise StateError(
                f"state version {data.get('version')!r} is not supported "
                f"(this referee reads {STATE_VERSION})",
                code="bad_state",
            )
        try:
            g = cls(compiled, list(data["players"]), dict(data["options"]), int(data["seed"]))
            g.tile_turns = {str(k): int(t) for k, t in data["tile_turns"].items()}
            if set(g.tile_turns) != {p.id for p in compiled.board.placements}:
                raise StateError(
                    "state's tile turns name other tiles than the board's", code="wrong_board"
                )
            g._claim(force=True)
            g.rng = Rng(int(data["rng"]))
            g.ply = int(data["ply"])
            g.phase = str(data["phase"])
            g.player = int(data["player"])
            g.moved = [str(m) for m in data["moved"]]
            g.pending = [(str(p["figure"]), str(p["chooser"])) for p in data["pending"]]
            figs = data["figures"]
            if set(figs) != set(g.fidx):
                raise StateError("state's figures do not match the figures in play")
            for fid, at in figs.items():
                if at is not None:
                    if at not in g.v.index:
                        raise StateError(f"figure {fid} stands on unknown node {at!r}")
                    g._put(g.fidx[fid], g.v.index[at])
            cards = data["cards"]
            g.face_up = str(cards["face_up"])
            g.pile = [str(c) for c in cards["pile"]]
            g.discard = [str(c) for c in cards["discard"]]
            if sorted([g.face_up, *g.pile, *g.discard]) != sorted(g.cards):
                raise StateError("state's cards do not match the deck in play")
            g.counters = [
                {
                    "id": str(c["id"]),
                    "colour": str(c["colour"]),
                    "space": c["space"],
                    "removed": bool(c["removed"]),
                }
                for c in data["counters"]
            ]
            g._outcome = dict(data["outcome"]) if data.get("outcome") else None
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            if isinstance(exc, StateError):
                raise
            raise StateError(f"malformed Ringgeister state ({type(exc).__name__}: {exc})") from None
        if g.phase not in ("counters", "play", "over") or not 0 <= g.player < len(g.colours):
            raise StateError("malformed Ringgeister state (phase or player)")
        return g

    # ================================================================== syncing
    def _claim(self, force: bool = False) -> None:
        """Make the shared compiled board carry this game's tile turns.

        Several games (and copies) may share one compiled board; the view records
        which game it was last synced to, so switching costs one comparison unless
        another game turned tiles in between.
        """
        v = self.v
        owner = v.synced_to() if v.synced_to is not None else None
        if owner is self and not force:
            return
        changed: list[str] = []
        for p in self.compiled.board.placements:
            t = self.tile_turns.get(p.id, p.turns)
            if p.turns != t:
                self.compiled.turn(p.id, t)
                changed.append(p.id)
        if changed:
            v.refresh(changed)
        v.synced_to = weakref.ref(self)
        self._dest_cache.clear()

    def _bump(self) -> None:
        self._version += 1
        self._dest_cache.clear()

    # ================================================================== small helpers
    def _put(self, f: int, p: int) -> None:
        self.pos[f] = p
        self.occ[p] = f

    def _lift(self, f: int) -> None:
        p = self.pos[f]
        if p >= 0 and self.occ[p] == f:
            self.occ[p] = -1
        self.pos[f] = -1

    @staticmethod
    def _ev(kind: str, text: str, **fields: Any) -> Event:
        return {"type": kind, **fields, "text": text}

    @property
    def card(self) -> Card:
        return self.cards[self.face_up]

    @property
    def ringbearer(self) -> str:
        """Colour of the current Ringbearer (the face-up card's colour)."""
        return self.card.ringbearer

    def _card_text(self, c: Card | None = None) -> str:
        c = c or self.card
        lower = "a storm" if c.image == "storm" else f"the {c.image} door"
        return f"{c.id}: Ringbearer {c.ringbearer}, black figures move {c.hand}, {lower}"

    def _is_ringbearer(self, f: int) -> bool:
        s = self.specs[f]
        return s.figure == "hobbit" and s.colour == self.ringbearer

    def _where(self, i: int) -> str:
        v = self.v
        if v.kind[i] == POINT:
            return f"{'black' if v.black[i] else 'grey'} point {v.ids[i]}"
        return {JUNCTION: "junction", DOOR: "door", DEAD_END: "dead end"}.get(
            v.kind[i], "node"
        ) + f" {v.ids[i]}"

    def _counters_left(self, colour: str) -> int:
        return sum(1 for c in self.counters if c["colour"] == colour and not c["removed"])

    def _chooser_for(self, f: int) -> str:
        s = self.specs[f]
        return s.colour if s.coloured and s.colour else self.colours[self.player]

    @property
    def outcome(self) -> dict[str, Any] | None:
        return self._outcome

    @property
    def to_move(self) -> str:
        if self._outcome is not None:
            return "nobody"
        if self.pending:
            return self.pending[0][1]
        return self.colours[self.player]

    # ================================================================== light movement
    def _search(
        self, f: int, relax: frozenset[str] = frozenset()
    ) -> tuple[dict[int, Any], dict[Any, Any]]:
        """Where light figure ``f`` may stop (rulings 2–6), with a parent map for routes.

        ``relax`` switches single restrictions off to explain a rejected move:
        ``black`` (black figures block), ``spider``, ``gallery`` (closed doors),
        ``goal`` (Ringbearer only), ``stop`` (must stop at the first free point /
        Gandalf at the first free black point).

        Returns ``(dests, parents)``: ``dests[node] = key`` of the first (fewest
        hops) arrival, ``parents[key] = previous key`` (None at the start);
        a key is ``(node, edge arrived by)`` (edge −1: through a gallery).

        Notes
        -----
        Breadth-first over (node, arrival edge) pairs on the integer path view:
        O(V + E) at worst (Gandalf), a few nodes for a coloured figure.
        """
        if not relax:
            hit = self._dest_cache.get((self._version, f))
            if hit is not None:
                return hit
        v = self.v
        s = self.specs[f]
        start = self.pos[f]
        inc, guard, kind, occ, black, goal = v.inc, v.guard, v.kind, self.occ, v.black, v.goal
        specs = self.specs
        gandalf = s.figure == "gandalf"
        hobbit = s.figure == "hobbit"
        ringbearer = hobbit and s.colour == self.ringbearer
        spider_ok = "spider" in relax or (hobbit and self._counters_left(s.colour or "") == 0)
        relax_black = "black" in relax
        relax_stop = "stop" in relax
        relax_goal = "goal" in relax
        open_all = "gallery" in relax
        image = self.card.image
        sym = image if image in ("moon", "star") else None
        dests: dict[int, Any] = {}
        parents: dict[Any, Any] = {}
        queue: deque[tuple[int, int]] = deque()
        if start >= 0:
            for e, o, _, _ in inc[start]:
                if guard[e] is not None and not spider_ok:
                    continue
                key = (o, e)
                if key not in parents:
                    parents[key] = None
                    queue.append(key)
        while queue:
            key = queue.popleft()
            node, e_in = key
            k = kind[node]
            if k == POINT:
                o = occ[node]
                if node == start:
                    pass  # its own point: passes over it, never stops there
                elif o < 0:
                    if goal[node] and not ringbearer and not relax_goal:
                        continue  # ruling 6: only the Ringbearer Hobbit enters the goal
                    if node not in dests:
                        dests[node] = key
                    if relax_stop or (gandalf and not black[node]):
                        pass  # Gandalf passes free grey points (ruling 3)
                    else:
                        continue  # ruling 2/3: stop at the first free (black) point
                elif not specs[o].light:
                    if not (relax_black or (ringbearer and specs[o].size < 2)):
                        continue  # ruling 2: black figures block; Ringbearer jumps Gollum, Orcs
                # light figure: jump over it (ruling 2)
            elif k == DOOR:
                ds = v.symbol[node]
                if ds is not None and (open_all or ds == sym):
                    for d2 in v.doors[ds]:  # ruling 5: continue from any other door
                        if d2 != node:
                            k2 = (d2, -1)
                            if k2 not in parents:
                                parents[k2] = key
                                queue.append(k2)
            elif k != JUNCTION:
                continue  # dead end (light figures do not turn about) or off the network
            for e, o, _, _ in inc[node]:
                if e == e_in:
                    continue
                if guard[e] is not None and not spider_ok:
                    continue  # ruling 6: the spider's path
                k2 = (o, e)
                if k2 not in parents:
                    parents[k2] = key
                    queue.append(k2)
        out = (dests, parents)
        if not relax:
            self._dest_cache[(self._version, f)] = out
        return out

    def _route(self, f: int, dest: int, found: tuple[dict[int, Any], dict[Any, Any]]) -> list[int]:
        dests, parents = found
        key = dests[dest]
        back: list[int] = []
        while key is not None:
            back.append(key[0])
            key = parents[key]
        back.append(self.pos[f])
        return back[::-1]

    def _movable(self) -> list[int]:
        """Figures the player to move may move now (play phase, no pending choice)."""
        colour = self.colours[self.player]
        if "gandalf" in self.moved:
            return []
        out = [
            i
            for i, s in enumerate(self.specs)
            if s.coloured and s.colour == colour and s.id not in self.moved and self.pos[i] >= 0
        ]
        if not self.moved:
            out += [
                i for i, s in enumerate(self.specs) if s.figure == "gandalf" and self.pos[i] >= 0
            ]
        return out

    # ================================================================== legal moves
    def parse_move(self, text: str) -> Move:
        return Move.parse(text)

    def generate_legal_moves(self) -> Iterator[Move]:
        self._claim()
        if self._outcome is not None:
            return
        ids = self.v.ids
        if self.pending:
            fid = self.pending[0][0]
            for p in self.v.white_starts:
                if self.occ[p] < 0:
                    yield Move("home", fid, ids[p])
            return
        if self.phase == "counters":
            taken = self._taken_spaces()
            for sid in self.v.counter_spaces:
                if sid not in taken:
                    yield Move("counter", None, sid)
            return
        coloured_move = False
        for f in self._movable():
            dests, _ = self._search(f)
            s = self.specs[f]
            for d in sorted(dests, key=ids.__getitem__):
                coloured_move = coloured_move or s.coloured
                yield Move("step", s.id, ids[d])
        if not coloured_move:
            # ruling 1: choosing (a) when neither coloured figure can move is a pass,
            # even when Gandalf could move
            yield Move("pass")

    def check(self, move: Move) -> None:
        """Raise :class:`IllegalMoveError` (code, message, details) if ``move`` is illegal."""
        self._claim()
        if not isinstance(move, Move):
            raise IllegalMoveError(f"not a Ringgeister move: {move!r}", code="bad_move")
        if self._outcome is not None:
            raise IllegalMoveError(
                "the game is over", code="game_over", details={"outcome": self._outcome}
            )
        if self.pending and move.kind != "home":
            fid, chooser = self.pending[0]
            raise IllegalMoveError(
                f"{self.specs[self.fidx[fid]].name} was defeated: first {chooser} must put it "
                f"on a free white starting point ('home {fid} POINT')",
                code="choice_pending",
                details={"figure": fid, "chooser": chooser},
            )
        if move.kind == "home":
            return self._check_home(move)
        if self.phase == "counters":
            if move.kind != "counter":
                raise IllegalMoveError(
                    "the counters are placed first ('counter SPACE')",
                    code="counters_first",
                    details={"player": self.colours[self.player]},
                )
            return self._check_counter(move)
        if move.kind == "counter":
            raise IllegalMoveError("all counters are placed already", code="counters_placed")
        if move.kind == "pass":
            for m in self.generate_legal_moves():
                if m.kind == "pass":
                    return None
            # only reached when a coloured figure can move (ruling 1)
            m = next(
                m
                for m in self.generate_legal_moves()
                if self.specs[self.fidx[m.figure or ""]].coloured
            )
            raise IllegalMoveError(
                f"you cannot pass while one of your coloured figures can move (e.g. '{m}')",
                code="must_move",
                details={"example": str(m)},
            )
        return self._check_step(move)

    def _check_home(self, move: Move) -> None:
        if not self.pending:
            raise IllegalMoveError("no defeated figure is waiting to return", code="no_choice")
        fid, _chooser = self.pending[0]
        if move.figure != fid:
            raise IllegalMoveError(
                f"first put {fid} back on a white starting point",
                code="wrong_figure",
                details={"figure": fid},
            )
        i = self.v.index.get(move.to or "")
        if i is None or self.v.start[i] != "white":
            raise IllegalMoveError(
                f"{move.to} is not a white starting point",
                code="not_white_start",
                details={"point": move.to},
            )
        if self.occ[i] >= 0:
            raise IllegalMoveError(
                f"white starting point {move.to} is occupied by {self.specs[self.occ[i]].id}",
                code="point_occupied",
                details={"point": move.to, "figure": self.specs[self.occ[i]].id},
            )

    def _check_counter(self, move: Move) -> None:
        sid = move.to or ""
        if sid not in self.v.counter_spaces:
            raise IllegalMoveError(
                f"{sid} is not a counter space", code="no_such_space", details={"space": sid}
            )
        if sid in self._taken_spaces():
            raise IllegalMoveError(
                f"counter space {sid} already holds a counter",
                code="space_taken",
                details={"space": sid},
            )

    def _check_step(self, move: Move) -> None:
        v = self.v
        f = self.fidx.get(move.figure or "")
        if f is None:
            raise IllegalMoveError(
                f"there is no figure {move.figure!r} in this game",
                code="no_such_figure",
                details={"figure": move.figure},
            )
        s = self.specs[f]
        colour = self.colours[self.player]
        if not s.light:
            raise IllegalMoveError(
                f"{s.name} is a black figure: black figures move only when the wind wakes them",
                code="not_your_figure",
                details={"figure": s.id},
            )
        if s.coloured and s.colour != colour:
            raise IllegalMoveError(
                f"{s.name} is not yours ({colour} is to move)",
                code="not_your_figure",
                details={"figure": s.id, "player": colour},
            )
        if s.figure == "gandalf" and self.moved:
            raise IllegalMoveError(
                f"you already moved {', '.join(self.moved)} this turn: a turn "
                "moves your coloured figures or Gandalf, not both",
                code="turn_in_progress",
                details={"moved": list(self.moved)},
            )
        if s.id in self.moved:
            raise IllegalMoveError(
                f"{s.name} has already moved this turn",
                code="already_moved",
                details={"figure": s.id},
            )
        if self.pos[f] < 0:
            raise IllegalMoveError(
                f"{s.name} is not on the board", code="not_on_board", details={"figure": s.id}
            )
        d = v.index.get(move.to or "")
        if d is None or v.kind[d] == 0:
            raise IllegalMoveError(
                f"the board has no point {move.to!r}",
                code="no_such_destination",
                details={"point": move.to},
            )
        if v.kind[d] != POINT:
            raise IllegalMoveError(
                f"nobody stops on a {self._where(d)} (ruling 4)",
                code="not_a_point",
                details={"point": move.to},
            )
        if d == self.pos[f]:
            raise IllegalMoveError(
                f"{s.name} already stands on {move.to}",
                code="same_point",
                details={"point": move.to},
            )
        if self.occ[d] >= 0:
            o = self.specs[self.occ[d]]
            raise IllegalMoveError(
                f"{self._where(d)} is occupied by {o.name}: a point holds one figure",
                code="point_occupied",
                details={"point": move.to, "figure": o.id},
            )
        dests, _ = self._search(f)
        if d in dests:
            return
        self._explain(f, d)

    def _explain(self, f: int, d: int) -> None:
        """Raise the most telling reason why light figure ``f`` cannot stop on ``d``.

        First each rule is switched off alone: if that makes ``d`` reachable, that rule
        is the reason. Otherwise all are switched off and the first rule broken along
        the shortest such route is named.
        """
        v, s = self.v, self.specs[f]
        here, there = v.ids[self.pos[f]], v.ids[d]
        for relax in (
            ("black",),
            ("spider",),
            ("gallery",),
            ("goal",),
            ("stop",),
            ("black", "spider", "gallery", "goal", "stop"),
        ):
            found = self._search(f, frozenset(relax))
            if d in found[0]:
                self._raise_violation(f, d, found)
        raise IllegalMoveError(
            f"no path leads {s.name} from {here} to {there}",
            code="no_path",
            details={"figure": s.id, "from": here, "to": there},
        )

    def _raise_violation(
        self, f: int, d: int, found: tuple[dict[int, Any], dict[Any, Any]]
    ) -> None:
        """Walk the route to ``d`` in ``found`` and raise for the first rule it breaks."""
        v, s = self.v, self.specs[f]
        dests, parents = found
        keys: list[tuple[int, int]] = []
        key = dests[d]
        while key is not None:
            keys.append(key)
            key = parents[key]
        keys.reverse()
        start = self.pos[f]
        route = [v.ids[start]] + [v.ids[k[0]] for k in keys]
        base = {"figure": s.id, "from": v.ids[start], "to": v.ids[d], "route": route}
        hobbit = s.figure == "hobbit"
        ringbearer = self._is_ringbearer(f)
        spider_ok = hobbit and self._counters_left(s.colour or "") == 0
        image = self.card.image
        prev = start
        for node, e_in in keys:
            if e_in >= 0 and v.guard[e_in] is not None and not spider_ok:
                why = (
                    "only a Hobbit may pass the spider"
                    if not hobbit
                    else f"{s.colour} still has {self._counters_left(s.colour or '')} counter(s) "
                    "on the board"
                )
                raise IllegalMoveError(
                    f"the spider blocks the secret passage: {why}",
                    code="spider_blocks",
                    details=base,
                )
            if e_in == -1 and v.symbol[prev] != image:
                doors = [v.ids[prev], v.ids[node]]
                raise IllegalMoveError(
                    f"the dwarf gallery from {doors[0]} to {doors[1]} is closed: the face-up "
                    f"card shows {image}, so only {image} doors open"
                    if image != "storm"
                    else f"the dwarf gallery from {doors[0]} to {doors[1]} is closed: the face-up "
                    "card shows a storm, so no door opens",
                    code="gallery_closed",
                    details={**base, "doors": doors, "card": self.face_up},
                )
            prev = node
            if v.kind[node] != POINT or node == start:
                continue
            o = self.occ[node]
            if node == d or (o < 0 and v.goal[node] and not ringbearer):
                # the free goal: only the Ringbearer enters it, nobody jumps it (ruling 6)
                if v.goal[node] and not ringbearer:
                    raise IllegalMoveError(
                        f"only the Ringbearer Hobbit ({self.ringbearer}) may enter the goal on "
                        "the Mountain of Fire",
                        code="goal_needs_ringbearer",
                        details={**base, "ringbearer": self.ringbearer},
                    )
                continue
            if o >= 0 and not self.specs[o].light and not (ringbearer and self.specs[o].size < 2):
                b = self.specs[o]
                why = (
                    "even the Ringbearer cannot pass a Spirit of the Ring"
                    if ringbearer
                    else "only the Ringbearer Hobbit jumps Gollum and Orcs"
                )
                raise IllegalMoveError(
                    f"{s.name} cannot pass {b.name} on {v.ids[node]} ({why})",
                    code="blocked_by_black_figure",
                    details={**base, "point": v.ids[node], "black_figure": b.id},
                )
            if o < 0:
                if s.figure == "gandalf" and v.black[node]:
                    raise IllegalMoveError(
                        f"Gandalf must stop at the first free black point ({v.ids[node]})",
                        code="must_stop_at_black_point",
                        details={**base, "point": v.ids[node]},
                    )
                if s.figure != "gandalf":
                    raise IllegalMoveError(
                        f"{s.name} must stop at the next free point ({v.ids[node]}); it may "
                        "only jump points held by light figures",
                        code="not_next_free_point",
                        details={**base, "point": v.ids[node]},
                    )
        raise IllegalMoveError(
            f"{s.name} cannot reach {v.ids[d]} this turn", code="unreachable", details=base
        )

    # ================================================================== applying
    def push(self, move: Move) -> list[Event]:  # type: ignore[override]
        """Apply ``move``; raise :class:`IllegalMoveError` and change nothing if illegal.

        Cheaper than the base class's JSON snapshot: :meth:`check` runs first (the
        guarantee), and a bug mid-apply restores a snapshot of the few mutable lists.
        """
        self.check(move)
        snap = self._snapshot()
        try:
            return self._apply(move)
        except BaseException:
            self._restore(snap)
            raise

    def _snapshot(self) -> tuple[Any, ...]:
        return (
            list(self.pos),
            self.rng.state,
            self.face_up,
            list(self.pile),
            list(self.discard),
            [dict(c) for c in self.counters],
            self.phase,
            self.player,
            list(self.moved),
            list(self.pending),
            self._outcome,
            self.ply,
            dict(self.tile_turns),
        )

    def _restore(self, snap: tuple[Any, ...]) -> None:
        (
            pos,
            rng,
            self.face_up,
            self.pile,
            self.discard,
            self.counters,
            self.phase,
            self.player,
            self.moved,
            self.pending,
            self._outcome,
            self.ply,
            self.tile_turns,
        ) = snap
        self.rng = Rng(rng)
        self.occ = [-1] * self.v.n
        self.pos = [-1] * len(self.specs)
        for f, p in enumerate(pos):
            if p >= 0:
                self._put(f, p)
        self._claim(force=True)
        self._bump()

    def _apply(self, move: Move) -> list[Event]:
        self._claim()
        events: list[Event] = []
        if move.kind == "counter":
            self._place_counter(move, events)
        elif move.kind == "home":
            self._home(move, events)
        elif move.kind == "pass":
            events.append(
                self._ev(
                    "pass",
                    f"{self.colours[self.player]} passes: neither coloured figure can move",
                    player=self.colours[self.player],
                )
            )
            self._next_player(events)
        else:
            self._step(move, events)
        self.ply += 1
        self._bump()
        return events

    def _place_counter(self, move: Move, events: list[Event]) -> None:
        colour = self.colours[self.player]
        c = next(c for c in self._counter_order() if c["colour"] == colour and c["space"] is None)
        c["space"] = move.to
        events.append(
            self._ev(
                "counter_placed",
                f"{colour} places counter {c['id']} on {move.to}",
                counter=c["id"],
                space=move.to,
                player=colour,
            )
        )
        left = [c for c in self._counter_order() if c["space"] is None]
        if left:
            # one at a time, in turn: the next player who still has a counter to place
            n = len(self.colours)
            for k in range(1, n + 1):
                p = (self.player + k) % n
                if any(c["colour"] == self.colours[p] for c in left):
                    self.player = p
                    break
        else:
            self.phase = "play"
            self.player = 0
            events.append(
                self._ev(
                    "turn", f"all counters placed: {self.colours[0]} begins", player=self.colours[0]
                )
            )

    def _home(self, move: Move, events: list[Event]) -> None:
        fid, chooser = self.pending.pop(0)
        f, p = self.fidx[fid], self.v.index[move.to or ""]
        self._put(f, p)
        events.append(
            self._ev(
                "figure_home",
                f"{self.specs[f].name} sets out again from white "
                f"starting point {move.to} ({chooser}'s choice)",
                figure=fid,
                to=move.to,
                chooser=chooser,
            )
        )
        self._bump()
        self._continue_turn(events)

    def _step(self, move: Move, events: list[Event]) -> None:
        v = self.v
        f = self.fidx[move.figure or ""]
        s = self.specs[f]
        d = v.index[move.to or ""]
        route = self._route(f, d, self._search(f))
        start = self.pos[f]
        self._lift(f)
        self._put(f, d)
        self._bump()
        events.append(
            self._ev(
                "moved",
                f"{s.name} moves from {v.ids[start]} to {self._where(d)}",
                figure=s.id,
                **{"from": v.ids[start]},
                to=v.ids[d],
                route=[v.ids[i] for i in route],
            )
        )
        self.moved.append(s.id)
        if v.goal[d]:
            self._outcome = {
                "result": "won",
                "winner": s.colour,
                "figure": s.id,
                "ply": self.ply + 1,
            }
            self.phase = "over"
            events.append(
                self._ev(
                    "game_won",
                    f"{s.name}, the Ringbearer, reaches the Mountain "
                    f"of Fire and destroys the Ring: {s.colour} wins",
                    winner=s.colour,
                    figure=s.id,
                )
            )
            return
        self._after_rest(f, d, events)
        self._continue_turn(events)

    def _after_rest(self, f: int, p: int, events: list[Event]) -> None:
        """Ruling 7: mission check, magic card, wind (and what the wind wakes)."""
        v, s = self.v, self.specs[f]
        self._mission_check(events)
        if s.figure == "gandalf" and v.magic[p]:
            events.append(
                self._ev(
                    "nothing_happens",
                    f"Gandalf stops on magic point {v.ids[p]}: nothing happens",
                    figure=s.id,
                    point=v.ids[p],
                )
            )
            return
        if v.magic[p] and s.coloured:
            self._turn_card(events)
        if self._outcome is None and v.wind[p] is not None:
            self._wind(p, events)

    def _mission_check(self, events: list[Event]) -> None:
        """Ruling 7a: remove a counter whose arrival points hold both its figures + one more."""
        v, occ, specs = self.v, self.occ, self.specs
        for c in self.counters:
            if c["removed"] or c["space"] is None:
                continue
            arrival = v.counter_spaces.get(c["space"], [])
            if not arrival or any(occ[i] < 0 or not specs[occ[i]].light for i in arrival):
                continue
            on = {specs[occ[i]].id for i in arrival}
            own = {s.id for s in specs if s.coloured and s.colour == c["colour"]}
            if own <= on and len(on) > len(own):
                c["removed"] = True
                events.append(
                    self._ev(
                        "counter_removed",
                        f"mission complete: counter {c['id']} leaves {c['space']}",
                        counter=c["id"],
                        space=c["space"],
                        colour=c["colour"],
                        figures=sorted(on),
                    )
                )

    def _turn_card(self, events: list[Event]) -> None:
        """Rulebook 3.1: turn the next card face up (reshuffle when the pile is used up)."""
        if not self.pile:
            if not self.discard:
                events.append(self._ev("card_kept", "no other card to turn"))
                return
            self.pile = self.discard
            self.discard = []
            self.rng.shuffle(self.pile)
            events.append(
                self._ev(
                    "reshuffled",
                    f"all cards were turned: {len(self.pile)} shuffled into a new pile",
                    cards=len(self.pile),
                )
            )
        self.discard.append(self.face_up)
        self.face_up = self.pile.pop()
        self._bump()
        events.append(
            self._ev("card_turned", f"card turned: {self._card_text()}", card=self.card.to_json())
        )
        if self.card.image == "storm":
            self._storm(events)

    def _storm(self, events: list[Event]) -> None:
        """Ruling 11: every turnable tile with nobody on it turns a quarter turn clockwise."""
        v = self.v
        occupied = {v.owner[p] for p in self.pos if p >= 0}
        turned = [t for t in v.turnable if t not in occupied]
        skipped = [t for t in v.turnable if t in occupied]
        events.append(
            self._ev(
                "storm",
                f"the Great Storm turns {len(turned)} tile(s)"
                + (f"; {len(skipped)} with figures on them stay" if skipped else ""),
                tiles=turned,
                skipped=skipped,
            )
        )
        for t in turned:
            self._turn_tile(t, "storm", events, refresh=False)
        if turned:
            self.v.refresh(turned)

    def _turn_tile(self, pid: str, cause: str, events: list[Event], refresh: bool = True) -> None:
        tile = self.compiled.board.tile_of(self.compiled.board.placement(pid))
        new = (self.tile_turns[pid] + 1) % tile.turn_count
        self.tile_turns[pid] = new
        self.compiled.turn(pid, new)
        if refresh:
            self.v.refresh([pid])
        self._bump()
        events.append(
            self._ev(
                "tile_turned",
                f"tile {pid} turns a quarter turn clockwise ({cause})",
                tile=pid,
                turns=new,
                cause=cause,
            )
        )

    def _wind(self, p: int, events: list[Event]) -> None:
        """Ruling 8: the nearest black figure within the corridor of the ray plays, else Gollum."""
        v = self.v
        bearing = v.wind[p]
        assert bearing is not None
        ux, uy = unit_vector(bearing)
        px, py = v.x[p], v.y[p]
        corridor = v.corridor
        best: tuple[float, str, int] | None = None
        for f in self.black_figs:
            q = self.pos[f]
            if q < 0:
                continue
            dx, dy = v.x[q] - px, v.y[q] - py
            t = dx * ux + dy * uy
            if t <= 1e-9 or abs(dx * uy - dy * ux) > corridor:
                continue
            cand = (t, self.specs[f].id, f)
            if best is None or cand < best:
                best = cand
        towards = _compass(bearing)
        if best is not None:
            f = best[2]
            events.append(
                self._ev(
                    "wind",
                    f"wind from {v.ids[p]} towards {towards} wakes "
                    f"{self.specs[f].name} on {v.ids[self.pos[f]]}",
                    point=v.ids[p],
                    towards=towards,
                    figure=self.specs[f].id,
                    distance=round(best[0], 3),
                )
            )
        elif self.gollum >= 0 and self.pos[self.gollum] >= 0:
            f = self.gollum
            events.append(
                self._ev(
                    "wind",
                    f"wind from {v.ids[p]} towards {towards} meets no black figure: Gollum plays",
                    point=v.ids[p],
                    towards=towards,
                    figure=self.specs[f].id,
                    distance=None,
                )
            )
        else:
            events.append(
                self._ev(
                    "wind",
                    f"wind from {v.ids[p]} towards {towards} wakes nobody",
                    point=v.ids[p],
                    towards=towards,
                    figure=None,
                )
            )
            return
        self._black_move(f, events)

    def _exit_towards(self, node: int, target: float) -> tuple[int, int, float, float] | None:
        best = None
        for t in self.v.land_inc[node]:
            diff = abs(turn_angle(target, t[2]))
            if best is None or (diff, t[0]) < best[0]:
                best = ((diff, t[0]), t)
        return best[1] if best else None

    def _reverse(self, e: int, node: int, frm: int) -> tuple[int, int, float, float]:
        """The entry of edge ``e`` leaving ``node`` back towards ``frm`` (turning about)."""
        row = self.v.inc[node]
        for t in row:
            if t[0] == e and t[1] == frm:
                return t
        return next(t for t in row if t[0] == e)

    def _black_move(self, f: int, events: list[Event]) -> None:
        """Rulings 9–11: the woken black figure's move, its encounters, a Spirit's turn."""
        v, s = self.v, self.specs[f]
        specs, occ = self.specs, self.occ
        start = self.pos[f]
        hand = self.card.hand
        heading = v.heading[start] if v.heading[start] is not None else v.wind[start]
        first = None
        if heading is not None:
            target = heading if hand == "forward" else (heading + 180.0) % 360.0
            first = self._exit_towards(start, target)
        if first is None:
            events.append(
                self._ev(
                    "black_stays",
                    f"{s.name} has no land path to follow from {v.ids[start]}",
                    figure=s.id,
                    at=v.ids[start],
                )
            )
            return
        self._lift(f)
        e, to, _, b_in = first
        frm = start
        repelled = False
        seen: set[tuple[int, int, bool]] = set()
        route = [start]
        final = -1
        looped = False
        kind, black, land_inc, forced = v.kind, v.black, v.land_inc, v.forced_right
        while True:
            state = (e, to, repelled)
            if state in seen:
                looped = True
                final = start
                break
            seen.add(state)
            node = to
            route.append(node)
            k = kind[node]
            if k == POINT:
                o = occ[node]
                if o >= 0 and specs[o].light:
                    ls = specs[o]
                    on_black = black[node]
                    if s.size > ls.size:
                        black_wins = True
                    elif s.size == ls.size:
                        black_wins = on_black
                    else:
                        black_wins = False
                    events.append(
                        self._ev(
                            "encounter",
                            f"{s.name} ({SIZE_NAMES[s.size]}) meets {ls.name} "
                            f"({SIZE_NAMES[ls.size]}) on {self._where(node)}: "
                            + (f"{s.name} wins" if black_wins else f"{ls.name} repels it"),
                            black_figure=s.id,
                            light_figure=ls.id,
                            point=v.ids[node],
                            point_colour="black" if on_black else "grey",
                            winner="black" if black_wins else "light",
                        )
                    )
                    if black_wins:
                        caught_ringbearer = s.figure == "spirit" and self._is_ringbearer(o)
                        self._lift(o)
                        if caught_ringbearer:
                            self._put(f, node)
                            self._outcome = {
                                "result": "lost",
                                "reason": "ringbearer_caught",
                                "figure": ls.id,
                                "by": s.id,
                                "ply": self.ply + 1,
                            }
                            self.phase = "over"
                            events.append(
                                self._ev(
                                    "black_moved",
                                    f"{s.name} moves from {v.ids[start]} to {v.ids[node]}",
                                    figure=s.id,
                                    **{"from": v.ids[start]},
                                    to=v.ids[node],
                                    route=[v.ids[i] for i in route],
                                    hand=hand,
                                )
                            )
                            events.append(
                                self._ev(
                                    "game_lost",
                                    f"{s.name} has caught the Ringbearer: the Dark "
                                    "Lord wins, everybody loses",
                                    figure=ls.id,
                                    by=s.id,
                                )
                            )
                            return
                        chooser = self._chooser_for(o)
                        self.pending.append((ls.id, chooser))
                        events.append(
                            self._ev(
                                "sent_home",
                                f"{ls.name} is defeated and must return to a white "
                                f"starting point of {chooser}'s choice",
                                figure=ls.id,
                                chooser=chooser,
                            )
                        )
                        if on_black:
                            final = node  # ruling 10: takes its place and stops
                            break
                    else:
                        repelled = True  # ruling 10: turns about in front of it, goes on
                        e, to, _, b_in = self._reverse(e, node, frm)
                        frm = node
                        route.pop()  # it never entered the light figure's point
                        continue
                elif o < 0 and black[node]:
                    final = node  # ruling 9: first black point not held by a black figure
                    break
            exits = [t for t in land_inc[node] if t[0] != e]
            if k == DEAD_END or not exits:
                nxt = self._reverse(e, node, frm)  # ruling 9: turns about at a dead end
            elif forced[node]:
                nxt = max(exits, key=lambda t: (turn_angle(b_in, t[2]), -t[0]))
            else:
                nxt = min(exits, key=lambda t: (abs(turn_angle(b_in, t[2])), t[0]))
            e, to, _, b_in = nxt
            frm = node
        self._put(f, final)
        if looped:
            events.append(
                self._ev(
                    "black_stays",
                    f"{s.name}'s route repeats without reaching "
                    f"a free black point: it stays on {v.ids[start]}",
                    figure=s.id,
                    at=v.ids[start],
                )
            )
            return
        events.append(
            self._ev(
                "black_moved",
                f"{s.name} moves {hand} from {v.ids[start]} to {self._where(final)}",
                figure=s.id,
                **{"from": v.ids[start]},
                to=v.ids[final],
                route=[v.ids[i] for i in route],
                hand=hand,
            )
        )
        if s.figure == "spirit" and v.start[final] == "black":
            pid = v.owner[final]
            if pid is not None and pid in v.turnable:
                self._turn_tile(pid, f"{s.name} on black starting point {v.ids[final]}", events)

    def _continue_turn(self, events: list[Event]) -> None:
        """After a move: wait for pending choices, the turn's other figure, or pass the turn."""
        if self._outcome is not None:
            self.phase = "over"
            return
        if self.pending:
            return
        if self.moved and "gandalf" not in self.moved and self._movable():
            if any(self._search(f)[0] for f in self._movable()):
                return
        self._next_player(events)

    def _next_player(self, events: list[Event]) -> None:
        self.player = (self.player + 1) % len(self.colours)
        self.moved = []
        events.append(
            self._ev(
                "turn", f"{self.colours[self.player]} to move", player=self.colours[self.player]
            )
        )

    # ================================================================== reports
    def invariants(self) -> list[str]:
        """Broken invariants (empty when all hold): one figure per point, figures only
        on points, every figure on the board or waiting for a home choice, counters sane."""
        out: list[str] = []
        v = self.v
        seen: dict[int, str] = {}
        waiting = {f for f, _ in self.pending}
        for i, s in enumerate(self.specs):
            p = self.pos[i]
            if p < 0:
                if s.id not in waiting and self._outcome is None:
                    out.append(f"{s.id} is off the board without a pending choice")
                continue
            if v.kind[p] != POINT:
                out.append(f"{s.id} stands on {self._where(p)}, not a point")
            if p in seen:
                out.append(f"{s.id} and {seen[p]} share {v.ids[p]}")
            seen[p] = s.id
            if self.occ[p] != i:
                out.append(f"occupancy of {v.ids[p]} does not name {s.id}")
        if sum(1 for o in self.occ if o >= 0) != len(seen):
            out.append("occupancy lists figures that are elsewhere")
        if len(self.pos) != len(self.specs):
            out.append("figure count changed")
        spaces = [c["space"] for c in self.counters if c["space"] and not c["removed"]]
        if len(spaces) != len(set(spaces)):
            out.append("two counters share a space")
        if sorted([self.face_up, *self.pile, *self.discard]) != sorted(self.cards):
            out.append("cards lost or duplicated")
        return out

    # ================================================================== frontends
    #: fill colours of the figures (coloured figures by colour, Gandalf white, black ones)
    FIGURE_COLOURS: ClassVar[dict[str, str]] = {
        "yellow": "#f4c20d",
        "orange": "#f57c00",
        "purple": "#8e24aa",
        "green": "#2e7d32",
        "white": "#fafafa",
        "black": "#212121",
    }
    FIGURE_LETTERS: ClassVar[dict[str, str]] = {
        "hobbit": "H",
        "man": "M",
        "gandalf": "G",
        "gollum": "g",
        "orc": "O",
        "spirit": "S",
    }

    def figures(self) -> dict[str, FigureView]:
        """Every figure on the board (defeated figures waiting to go home are left out).

        A coloured figure belongs to its colour's player; Gandalf and the black
        figures belong to nobody.
        """
        ids = self.v.ids
        out: dict[str, FigureView] = {}
        for i, s in enumerate(self.specs):
            if self.pos[i] < 0:
                continue
            colour = s.colour or ("white" if s.light else "black")
            out[s.id] = FigureView(
                id=s.id,
                node=ids[self.pos[i]],
                label=self.FIGURE_LETTERS.get(s.figure, s.id[:1].upper()),
                colour=self.FIGURE_COLOURS.get(colour, "#9e9e9e"),
                side=s.side,
                owner=s.colour if s.coloured else None,
                name=s.name,
                size=s.size,
            )
        return out

    def move_destination(self, move: Move) -> tuple[str, str] | None:
        """A step goes to its point, a defeated figure home to its white point
        (the figure enters the board), a mission counter (figure ``""``) to its space."""
        if move.kind in ("step", "home") and move.figure and move.to:
            return move.figure, move.to
        if move.kind == "counter" and move.to:
            return "", move.to
        return None

    def render(self) -> str:
        """A plain-text picture of the state for people and simple frontends."""
        lines = [
            f"Ringgeister — ply {self.ply}, phase {self.phase}, "
            f"{'game over' if self._outcome else self.to_move + ' to move'}",
            f"card: {self._card_text()} ({len(self.pile)} in the pile)",
        ]
        if self._outcome:
            lines.append(f"outcome: {self._outcome}")
        if self.pending:
            lines.append(
                "waiting: "
                + ", ".join(
                    f"{self.specs[self.fidx[f]].name} ({c} chooses)" for f, c in self.pending
                )
            )
        for s, p in zip(self.specs, self.pos):
            where = self._where(p) if p >= 0 else "off the board"
            lines.append(f"  {s.id:<18} {SIZE_NAMES[s.size]:<6} {where}")
        for c in self.counters:
            state = "removed" if c["removed"] else (c["space"] or "not placed")
            lines.append(f"  counter {c['id']:<12} {state}")
        turned = {k: t for k, t in self.tile_turns.items() if t}
        if turned:
            lines.append("tile turns: " + ", ".join(f"{k}×{t}" for k, t in sorted(turned.items())))
        return "\n".join(lines)
