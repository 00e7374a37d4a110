"""Movement on a Riddle of the Ring region map (docs/rulings.md: the cost table).

:class:`Movement` is built once per compiled board. It turns the ``touch``,
``road``, ``dot`` and ``dot_river`` relations into integer adjacency lists, one set
with a Boat and one without, each split by the kind of step:

========  ==========================================================  =====================
kind      steps                                                       cost
========  ==========================================================  =====================
plain     land → touching land (not across a river, or at a bridge);  1
          with a Boat: across a river, land ↔ ocean/lake,
          land/ocean/lake ↔ river dot, dot → next dot
road      between consecutive spaces of a road (at a bridge if it      a run of k steps
          crosses a river)                                            costs ⌈k/2⌉
water     ocean/lake → ocean/lake (Boat)                              a run of k steps
                                                                      costs ⌈k/2⌉
========  ==========================================================  =====================

Runs need memory. Two equivalent views are used:

- :meth:`Movement.destinations` precomputes, per node, the *count edges*: every
  node one count away — one plain step, one or two road steps, or one or two water
  steps (a run of k steps is covered by ⌈k/2⌉ such counts, and no count mixes
  kinds). The cheapest counts are then a plain breadth-first search over count
  edges, to depth ``roll``, expanding no node that stops the turn. Paths put back
  the space passed in the middle of a two-step count.
- :meth:`Movement.validate` walks the given path with a small state machine: the
  mode says whether the count just paid still covers one more road (or water) step;
  such a step is free and ends the pair, any other step costs a new count. Getting
  on or off a road is a plain step.

:func:`reference_destinations` (a networkx Dijkstra over an expanded
``(node, mode)`` state graph, built per call) is the independent oracle both are
tested against.

Rulings taken here (the rulebook leaves them open):

- A city-dot (a river dot inside a city at the end of a river) *is* its city: both
  ids resolve to the city space, which also gets the dot's ``dot_river`` steps
  (Boat). Entering it is ordinary land movement.
- Entering a forest (mountain) space without a road and without a Cloak (Rope)
  ends all movement for the turn, whatever the step (land, Boat crossing, leaving a
  river dot or the water). Starting a move on such a space is free.
- Flights (Eagles, Dragon Birds, Tom Bombadil) land on spaces, never on a river
  dot: rivers are entered and left only at a dot's three spaces.
- The Exit Limbo space is "not part of the board": it counts for "within N
  spaces" but nobody moves or flies onto it (code ``off_board``).
- Road steps pair only along **one** road (rulings § Riddle movement; Key to the Board: "along spaces
  connected by the same road"): two consecutive road steps share a count only if both
  follow the same road. Changing to another road where two roads meet starts a new
  count (without an on/off cost: the player never left a road).
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from ...compiler import CompiledBoard
from ...errors import IllegalMoveError, UnknownNodeError, UsageError

MOVEMENT_CARDS = ("boat", "cloak", "rope")
WATER_TERRAINS = ("ocean", "lake")

# step kinds
PLAIN, ROAD, WATER = 0, 1, 2
# search modes
_NONE, _ROAD, _WATER = 0, 1, 2
# what stops a move on entering a node (index into _STOP_CODES)
_GO, _FOREST, _MOUNTAIN = 0, 1, 2
#: :attr:`Movement.terrain_stop` codes of the terrains a Cloak / a Rope lets one go on in
FOREST, MOUNTAIN = _FOREST, _MOUNTAIN
_UNSEEN = 1 << 30
#: validated moves a :class:`Movement` keeps (:meth:`Movement.validate`)
VALIDATED_KEPT = 4096
_STOP_CODES = {_FOREST: "must_stop_in_forest", _MOUNTAIN: "must_stop_in_mountain"}


@dataclass(frozen=True)
class Reach:
    """One destination of a move.

    Attributes
    ----------
    node : str
        Space id or river dot id.
    cost : int
        Counts used (the cheapest, for :meth:`Movement.destinations`; the path's own
        cost for :meth:`Movement.validate`; 0 for flights).
    path : tuple of str
        One cheapest path, start first, ``node`` last.
    stops_turn : bool
        Entering ``node`` ended all movement for the turn (a forest without Cloak or a
        mountain without Rope, neither with a road).
    """

    node: str
    cost: int
    path: tuple[str, ...]
    stops_turn: bool

    def to_json(self) -> dict[str, Any]:
        return {
            "node": self.node,
            "cost": self.cost,
            "path": list(self.path),
            "stops_turn": self.stops_turn,
        }


_new = object.__new__


def _reach(node: str, cost: int, path: tuple[str, ...], stops: bool) -> Reach:
    """A :class:`Reach` without the frozen dataclass ``__init__`` (3x faster; hot path)."""
    r = _new(Reach)
    d = r.__dict__
    d["node"] = node
    d["cost"] = cost
    d["path"] = path
    d["stops_turn"] = stops
    return r


def parse_cards(cards: Iterable[str] | str | None) -> tuple[bool, bool, bool]:
    """``(boat, cloak, rope)`` from card names (case-insensitive, ``"boat,rope"`` too).

    Raises
    ------
    UsageError
        For a name that is not a movement card.
    """
    if cards is None:
        return False, False, False
    if isinstance(cards, str):
        cards = list(cards.split(","))
    names = set()
    for c in cards:
        c = c.strip().lower()
        if not c:
            continue
        if c.endswith("s") and c[:-1] in MOVEMENT_CARDS:
            c = c[:-1]
        if c not in MOVEMENT_CARDS:
            raise UsageError(
                f"unknown movement card {c!r} (known: {', '.join(MOVEMENT_CARDS)})",
                code="unknown_card",
            )
        names.add(c)
    return "boat" in names, "cloak" in names, "rope" in names


class Movement:
    """The movement referee of one compiled Riddle of the Ring board.

    Parameters
    ----------
    compiled : CompiledBoard
        A compiled region map (spaces, rivers, river dots, bridges, roads).

    Notes
    -----
    Construction is O(N + E) over the region nodes and relations, plus the
    two-step count edges (O(N d²) for degree d). Queries are a breadth-first search
    over count edges bounded by the roll: O(R d) for the R nodes within reach,
    independent of the board size (scratch arrays are reset, not reallocated, so a
    Movement is not for sharing between threads).
    """

    def __init__(self, compiled: CompiledBoard) -> None:
        self.compiled = compiled
        self._validated: dict[tuple[tuple[str, ...], int, object], Reach] = {}
        g = compiled.graph
        ids: list[str] = []
        index: dict[str, int] = {}
        alias: dict[str, str] = {}
        for nid, d in g.nodes(data=True):
            if d["kind"] == "space":
                index[nid] = len(ids)
                ids.append(nid)
        for nid, d in g.nodes(data=True):
            if d["kind"] == "river_dot":
                city = d.get("city_space")
                if city is not None and city in index:
                    alias[nid] = city
                    index[nid] = index[city]
                else:
                    index[nid] = len(ids)
                    ids.append(nid)
        n = len(ids)
        self.ids = ids
        self.index = index
        self.alias = alias
        self.n = n
        attrs = [g.nodes[i] for i in ids]
        self.is_dot = [a["kind"] == "river_dot" for a in attrs]
        self.is_water = [a.get("terrain") in WATER_TERRAINS for a in attrs]
        self.is_road = [bool(a.get("road")) for a in attrs]
        self.off_board = [a.get("role") == "exit_limbo" for a in attrs]
        terr = [
            _GO
            if a["kind"] != "space" or a.get("road")
            else _FOREST
            if a.get("terrain") == "forest"
            else _MOUNTAIN
            if a.get("terrain") == "mountain"
            else _GO
            for a in attrs
        ]
        self.terrain_stop = terr
        #: stop[cloak][rope][i]: entering i ends all movement for the turn
        self._stop = [
            [
                [(t == _FOREST and not cl) or (t == _MOUNTAIN and not ro) for t in terr]
                for ro in (False, True)
            ]
            for cl in (False, True)
        ]

        # ---- classify every step u -> v: (kind, needs_boat, crossing_river)
        road_pairs: dict[tuple[int, int], frozenset[str]] = {}
        touch: dict[tuple[int, int], dict[str, Any]] = {}
        other: list[tuple[int, int]] = []  # dot and dot_river pairs (Boat, plain)
        touch_adj: list[set[int]] = [set() for _ in range(n)]
        dot_spaces: list[set[int]] = [set() for _ in range(n)]
        for u, v, d in g.edges(data=True):
            rel = d["relation"]
            if rel not in ("touch", "road", "dot", "dot_river"):
                continue
            if u not in index or v not in index:
                continue
            a, b = index[u], index[v]
            if a == b:
                continue  # a city-dot and its own city
            if rel == "touch":
                touch[(a, b)] = touch[(b, a)] = d
                touch_adj[a].add(b)
                touch_adj[b].add(a)
            elif rel == "road":
                rid = str(d.get("road", ""))
                both = road_pairs.get((a, b), frozenset()) | {rid}
                road_pairs[(a, b)] = road_pairs[(b, a)] = both
            else:
                other.append((a, b))
                if rel == "dot":
                    if self.is_dot[a] and not self.is_dot[b]:
                        dot_spaces[a].add(b)
                    elif self.is_dot[b] and not self.is_dot[a]:
                        dot_spaces[b].add(a)
        self.touch_adj = [sorted(s) for s in touch_adj]
        self.dot_spaces = [sorted(s) for s in dot_spaces]
        #: spaces -> the (non-city) dots whose three spaces include it
        space_dots: list[list[int]] = [[] for _ in range(n)]
        for dt in range(n):
            for sp in self.dot_spaces[dt]:
                space_dots[sp].append(dt)
        self.space_dots = space_dots
        step: dict[tuple[int, int], tuple[int, bool, bool]] = {}
        for (a, b), d in touch.items():
            wa, wb = self.is_water[a], self.is_water[b]
            if wa and wb:
                step[(a, b)] = (WATER, True, False)
            elif wa or wb:
                step[(a, b)] = (PLAIN, True, False)
            elif d.get("river") and not d.get("bridge"):
                step[(a, b)] = (PLAIN, True, True)
            elif (a, b) in road_pairs:
                step[(a, b)] = (ROAD, False, False)
            else:
                step[(a, b)] = (PLAIN, False, False)
        for a, b in other:
            for x, y in ((a, b), (b, a)):
                if (x, y) not in step:
                    step[(x, y)] = (PLAIN, True, False)
        self._step = step
        #: (a, b) -> the ids of the roads joining a and b (road steps pair along one road)
        self._roads = road_pairs
        # ---- adjacency per Boat flag, per kind; never into an off-board space
        adj: list[list[list[list[int]]]] = []
        for boat in (False, True):
            lists = [[[] for _ in range(n)] for _ in range(3)]
            for (a, b), (kind, needs_boat, _) in sorted(step.items()):
                if (needs_boat and not boat) or self.off_board[b]:
                    continue
                lists[kind][a].append(b)
            adj.append(lists)
        self._adj = adj
        #: scratch: cheapest cost per node during one search (all _UNSEEN between calls;
        #: a Movement is not meant to be shared between threads)
        self._best = [_UNSEEN] * n
        self._par = [-1] * n
        # ---- one count = one plain step, or one or two road steps, or one or two water
        # steps: BFS over these "count" edges gives the cheapest counts exactly
        self._cadj: list[list[list[int]]] = []
        self._mid: list[dict[int, int]] = []  # u * n + v -> the space passed on the way
        for lists in adj:
            plain, road, water = lists
            cadj: list[list[int]] = []
            mid: dict[int, int] = {}
            for u in range(n):
                seen = dict.fromkeys(plain[u])
                seen.update(dict.fromkeys(road[u]))
                seen.update(dict.fromkeys(water[u]))
                for m in water[u]:
                    for v in water[m]:
                        if v != u and v not in seen:
                            seen[v] = None
                            mid[u * n + v] = m
                for m in road[u]:
                    first = road_pairs[(u, m)]
                    for v in road[m]:
                        if v != u and v not in seen and first & road_pairs[(m, v)]:
                            seen[v] = None
                            mid[u * n + v] = m
                cadj.append(list(seen))
            self._cadj.append(cadj)
            self._mid.append(mid)
        self._names: dict[str, list[str]] | None = None

    # ------------------------------------------------------------------ names
    def resolve(self, name: str) -> str:
        """The node id for a space id, river dot id or space name.

        A city-dot resolves to its city space. Names match case-insensitively.

        Raises
        ------
        UnknownNodeError
            With the closest ids and names (difflib) in the message.
        """
        if name in self.index:
            return self.ids[self.index[name]]
        names = self._name_table()
        hits = names.get(name.strip().casefold())
        if hits and len(hits) == 1:
            return hits[0]
        if hits:
            raise UnknownNodeError(
                f"{name!r} names {len(hits)} spaces: {', '.join(hits)}; use the space id",
                code="ambiguous_name",
                location=name,
            )
        cands = list(self.index) + [
            self.compiled.graph.nodes[i].get("name")
            for i in self.ids
            if self.compiled.graph.nodes[i].get("name")
        ]
        close = difflib.get_close_matches(name, cands, n=5, cutoff=0.5)
        if not close:
            low = {c.casefold(): c for c in cands}
            close = [
                low[c]
                for c in difflib.get_close_matches(name.casefold(), list(low), n=5, cutoff=0.4)
            ]
        hint = f"; closest: {', '.join(close)}" if close else ""
        raise UnknownNodeError(
            f"no space or river dot named {name!r}{hint}", location=name, details={"closest": close}
        )

    def _name_table(self) -> dict[str, list[str]]:
        if self._names is None:
            table: dict[str, list[str]] = {}
            for nid in self.ids:
                nm = self.compiled.graph.nodes[nid].get("name")
                if isinstance(nm, str) and nm:
                    table.setdefault(nm.casefold(), []).append(nid)
            self._names = table
        return self._names

    def name_of(self, node: str) -> str:
        """The display name of a node (its ``name`` property, else its id)."""
        nm = self.compiled.graph.nodes[node].get("name") if node in self.compiled.graph else None
        return nm if isinstance(nm, str) and nm else node

    def _idx(self, name: str) -> int:
        return self.index[self.resolve(name)]

    # ------------------------------------------------------------------ moving
    def destinations(self, start: str, roll: int, cards: Iterable[str] = ()) -> dict[str, Reach]:
        """Every node a move from ``start`` can end on with up to ``roll`` counts.

        Parameters
        ----------
        start : str
            Space id, river dot id or space name.
        roll : int
            Die counts (or the number on a Horse card), >= 0.
        cards : iterable of str
            Movement cards the player holds and uses: ``boat``, ``cloak``, ``rope``.

        Returns
        -------
        dict
            Node id -> :class:`Reach` with the cheapest cost and one cheapest path.
            The start is never a destination (a move ends elsewhere).

        Notes
        -----
        Breadth-first search over the precomputed count edges (see the module
        docstring), to depth ``roll``; O(R d) for the R nodes within reach.
        """
        s = self._idx(start)
        roll = _check_roll(roll)
        boat, cloak, rope = parse_cards(cards)
        cadj = self._cadj[boat]
        mid = self._mid[boat]
        stop = self._stop[cloak][rope]
        best, par = self._best, self._par
        big = _UNSEEN
        n = self.n
        best[s] = 0
        touched: list[int] = [s]
        frontier = [s]
        try:
            for c in range(1, roll + 1):
                nxt: list[int] = []
                for u in frontier:
                    if stop[u] and u != s:
                        continue
                    for v in cadj[u]:
                        if best[v] == big:
                            best[v] = c
                            par[v] = u
                            nxt.append(v)
                if not nxt:
                    break
                touched.extend(nxt)
                frontier = nxt
            ids = self.ids
            paths: dict[int, tuple[str, ...]] = {s: (ids[s],)}
            out: dict[str, Reach] = {}
            for v in touched[1:]:
                u = par[v]
                m = mid.get(u * n + v)
                nid = ids[v]
                p = paths[u] + ((nid,) if m is None else (ids[m], nid))
                paths[v] = p
                out[nid] = _reach(nid, best[v], p, stop[v])
        finally:
            for u in touched:
                best[u] = big
        return out

    def validate(self, path: Sequence[str], roll: int, cards: Iterable[str] = ()) -> Reach:
        """Check a proposed move step by step.

        Parameters
        ----------
        path : sequence of str
            Nodes (ids or names), start first; each next node one step away.
        roll : int
            Counts available.
        cards : iterable of str
            Movement cards used.

        Returns
        -------
        Reach
            The end node, the path's own cost (road and water runs paired in the order
            walked) and whether the move ended the turn.

        Raises
        ------
        IllegalMoveError
            ``same_space`` (no step, or ends where it began), ``not_adjacent``,
            ``off_board``, ``needs_boat``, ``river_without_bridge``,
            ``must_stop_in_forest``, ``must_stop_in_mountain``, ``too_far``; ``details``
            holds the step (index, from, to) and the counts used so far.

        Notes
        -----
        O(len(path)). A move is validated when it is checked and again when it is
        applied, and a Cloak or Rope named in it is tried without it too: the moves
        validated are kept (a pure function of the board and the arguments; the
        :data:`VALIDATED_KEPT` last, forgotten all at once), refusals are not.
        """
        roll = _check_roll(roll)
        # as given (a tuple or a text of cards is its own key; other spellings of the
        # same cards are kept apart, with the same result)
        key = (
            path if isinstance(path, tuple) else tuple(path),
            roll,
            cards if isinstance(cards, (tuple, str)) else tuple(cards),
        )
        hit = self._validated.get(key)
        if hit is None:
            hit = self._validate(key[0], roll, key[2])
            if len(self._validated) >= VALIDATED_KEPT:
                self._validated.clear()
            self._validated[key] = hit
        return hit

    def _validate(self, path: tuple[str, ...], roll: int, cards: Iterable[str]) -> Reach:
        """:meth:`validate` without its memo."""
        boat, cloak, rope = parse_cards(cards)
        stop = self._stop[cloak][rope]
        nodes = [self._idx(p) for p in path]
        ids = self.ids
        if len(nodes) < 2:
            raise IllegalMoveError(
                "a move must go at least one space",
                code="same_space",
                details={"path": [ids[i] for i in nodes]},
            )
        if nodes[-1] == nodes[0]:
            raise IllegalMoveError(
                f"a move must end on another space than it began ({ids[nodes[0]]})",
                code="same_space",
                location=ids[nodes[0]],
                details={"path": [ids[i] for i in nodes]},
            )
        cost, mode = 0, _NONE
        last_roads: frozenset[str] = frozenset()
        for k in range(len(nodes) - 1):
            a, b = nodes[k], nodes[k + 1]
            where = {"step": k + 1, "from": ids[a], "to": ids[b], "cost_so_far": cost}
            if k > 0 and stop[a]:
                code = _STOP_CODES[self.terrain_stop[a]]
                card = "Cloak" if self.terrain_stop[a] == _FOREST else "Rope"
                raise IllegalMoveError(
                    f"entering {self.name_of(ids[a])} without a {card} ends "
                    f"all movement for the turn",
                    code=code,
                    location=ids[a],
                    details=where,
                )
            info = self._step.get((a, b))
            if info is None:
                raise IllegalMoveError(
                    f"{self.name_of(ids[b])} is not one step from {self.name_of(ids[a])}",
                    code="not_adjacent",
                    location=ids[b],
                    details=where,
                )
            if self.off_board[b]:
                raise IllegalMoveError(
                    f"{self.name_of(ids[b])} is not part of the board",
                    code="off_board",
                    location=ids[b],
                    details=where,
                )
            kind, needs_boat, river = info
            if needs_boat and not boat:
                if river:
                    raise IllegalMoveError(
                        f"crossing the river from {self.name_of(ids[a])} to "
                        f"{self.name_of(ids[b])} needs a bridge or a Boat",
                        code="river_without_bridge",
                        location=ids[b],
                        details=where,
                    )
                raise IllegalMoveError(
                    f"moving from {self.name_of(ids[a])} to {self.name_of(ids[b])} needs a Boat",
                    code="needs_boat",
                    location=ids[b],
                    details=where,
                )
            roads = self._roads.get((a, b), frozenset()) if kind == ROAD else frozenset()
            if (kind == ROAD and mode == _ROAD and roads & last_roads) or (
                kind == WATER and mode == _WATER
            ):
                mode = _NONE
            else:
                cost += 1
                mode = _ROAD if kind == ROAD else _WATER if kind == WATER else _NONE
                last_roads = roads
            if cost > roll:
                where["cost_so_far"] = cost
                raise IllegalMoveError(
                    f"reaching {self.name_of(ids[b])} this way needs {cost} "
                    f"counts, only {roll} rolled",
                    code="too_far",
                    location=ids[b],
                    details=where,
                )
        return Reach(ids[nodes[-1]], cost, tuple(ids[i] for i in nodes), stop[nodes[-1]])

    # ------------------------------------------------------------------ distances
    def distances(self, node: str, n: int) -> dict[str, int]:
        """Spaces within ``n`` touch steps of ``node`` (itself at 0), with their distance.

        Terrain, rivers and water do not matter. From a river dot the count starts
        at its three spaces (distance 1). River dots are not listed.
        """
        n = _check_roll(n)
        s = self._idx(node)
        if self.is_dot[s]:
            seen = dict.fromkeys(self.dot_spaces[s], 1) if n >= 1 else {}
            frontier = list(seen)
            d = 1
        else:
            seen = {s: 0}
            frontier = [s]
            d = 0
        adj = self.touch_adj
        while frontier and d < n:
            d += 1
            nxt = []
            for u in frontier:
                for v in adj[u]:
                    if v not in seen:
                        seen[v] = d
                        nxt.append(v)
            frontier = nxt
        return {self.ids[i]: k for i, k in seen.items()}

    def within(self, space: str, n: int) -> set[str]:
        """Spaces within ``n`` spaces of ``space`` (``touch`` steps), the space included.

        docs/rulings.md: "within N spaces" counts ``touch`` steps, ignoring terrain, rivers
        and water. See :meth:`distances`.
        """
        return set(self.distances(space, n))

    def beside(self, node: str) -> set[str]:
        """Nodes beside ``node``: touching spaces (across rivers too) and the river dots
        of the space; on a river dot only its three spaces."""
        i = self._idx(node)
        if self.is_dot[i]:
            return {self.ids[j] for j in self.dot_spaces[i]}
        return {self.ids[j] for j in self.touch_adj[i]} | {self.ids[j] for j in self.space_dots[i]}

    def stops_turn(self, node: str, cards: Iterable[str] = ()) -> bool:
        """Whether entering ``node`` with these cards ends all movement for the turn."""
        _, cloak, rope = parse_cards(cards)
        return self._stop[cloak][rope][self._idx(node)]

    def flight_targets(
        self, start: str, cards: Iterable[str] = (), *, bombadil: bool = False
    ) -> dict[str, Reach]:
        """Where Eagles / Dragon Birds (anywhere) or Tom Bombadil (within 6) can land.

        Flights land on spaces only, never on the start or the Exit Limbo space;
        landing on water needs a Boat; landing on a forest/mountain without
        Cloak/Rope ends movement for the turn (``stops_turn``). ``cost`` is 0.
        """
        s = self._idx(start)
        boat, cloak, rope = parse_cards(cards)
        stop = self._stop[cloak][rope]
        if bombadil:
            cand = [self.index[x] for x in self.distances(self.ids[s], 6)]
        else:
            cand = [i for i in range(self.n) if not self.is_dot[i]]
        start_id = self.ids[s]
        out = {}
        for i in sorted(cand):
            if i == s or self.off_board[i] or (self.is_water[i] and not boat):
                continue
            out[self.ids[i]] = Reach(self.ids[i], 0, (start_id, self.ids[i]), stop[i])
        return out

    def validate_flight(
        self, start: str, target: str, cards: Iterable[str] = (), *, bombadil: bool = False
    ) -> Reach:
        """Check one flight; raises :class:`IllegalMoveError` (``same_space``,
        ``off_board``, ``needs_boat``, ``not_a_space``, ``too_far``)."""
        s, t = self.resolve(start), self.resolve(target)
        reach = self.flight_targets(s, cards, bombadil=bombadil).get(t)
        if reach is not None:
            return reach
        i = self.index[t]
        boat = parse_cards(cards)[0]
        if t == s:
            code, msg = "same_space", "a move must end on another space than it began"
        elif self.off_board[i]:
            code, msg = "off_board", f"{self.name_of(t)} is not part of the board"
        elif self.is_dot[i]:
            code, msg = "not_a_space", "flights land on spaces, not on river dots"
        elif self.is_water[i] and not boat:
            code, msg = "needs_boat", f"landing on {self.name_of(t)} needs a Boat"
        else:
            code, msg = "too_far", f"{self.name_of(t)} is not within 6 spaces of {self.name_of(s)}"
        raise IllegalMoveError(msg, code=code, location=t, details={"from": s, "to": t})

    # ------------------------------------------------------------------ info
    def is_water_node(self, node: str) -> bool:
        """Ocean, lake or river dot (a city-dot is land)."""
        i = self._idx(node)
        return self.is_water[i] or self.is_dot[i]

    def spaces(self) -> list[str]:
        """Ids of all spaces (not river dots)."""
        return [self.ids[i] for i in range(self.n) if not self.is_dot[i]]


def _check_roll(roll: int) -> int:
    if isinstance(roll, bool) or not isinstance(roll, int) or roll < 0:
        raise UsageError(
            f"a roll (or count) must be a whole number >= 0, not {roll!r}", code="bad_roll"
        )
    return roll


def reference_destinations(
    compiled: CompiledBoard, start: str, roll: int, cards: Iterable[str] = ()
) -> dict[str, tuple[int, bool]]:
    """Slow, independent oracle for :meth:`Movement.destinations`: node -> (cost, stops).

    Builds the expanded ``(node, mode)`` state graph as a networkx ``DiGraph`` from the
    compiled graph on every call (classifying each relation straight from the
    docs/rulings.md table) and runs ``networkx.single_source_dijkstra``. Used by the tests as a
    cross-check and by ``bench/riddle_reach.py`` as the baseline.

    Notes
    -----
    O((N + E) log N) per call over the whole board, whatever the roll.
    """
    import networkx as nx

    boat, cloak, rope = parse_cards(cards)
    g = compiled.graph
    alias = {
        n: d["city_space"]
        for n, d in g.nodes(data=True)
        if d["kind"] == "river_dot" and d.get("city_space") in g
    }
    start = alias.get(start, start)

    def water(n: str) -> bool:
        return g.nodes[n].get("terrain") in WATER_TERRAINS

    def stops(n: str) -> bool:
        d = g.nodes[n]
        if d["kind"] != "space" or d.get("road"):
            return False
        return (d.get("terrain") == "forest" and not cloak) or (
            d.get("terrain") == "mountain" and not rope
        )

    roads: dict[frozenset[str], set[str]] = {}
    for u, v, d in g.edges(data=True):
        if d["relation"] == "road":
            roads.setdefault(frozenset((u, v)), set()).add(str(d.get("road", "")))
    steps: list[tuple[str, str, str]] = []
    for u, v, d in g.edges(data=True):
        rel = d["relation"]
        u, v = alias.get(u, u), alias.get(v, v)
        if u == v:
            continue
        if rel == "touch":
            if water(u) and water(v):
                kind = "water" if boat else None
            elif water(u) or water(v) or (d.get("river") and not d.get("bridge")):
                kind = "plain" if boat else None
            else:
                kind = "road" if frozenset((u, v)) in roads else "plain"
        elif rel in ("dot", "dot_river"):
            kind = "plain" if boat else None
        else:
            continue
        if kind is not None:
            steps.append((u, v, kind))
            steps.append((v, u, kind))
    # modes: "none", "water", or "road:<id>" (the road the last paid count went along)
    all_roads = sorted({r for rs in roads.values() for r in rs})
    modes = ["none", "water", *(f"road:{r}" for r in all_roads)]
    sg = nx.DiGraph()
    for u, v, kind in steps:
        if g.nodes[v].get("role") == "exit_limbo" or (u != start and stops(u)):
            continue
        on = roads.get(frozenset((u, v)), set()) if kind == "road" else set()
        for m in modes:
            if kind == "plain":
                sg.add_edge((u, m), (v, "none"), weight=1)
            elif kind == "water":
                if m == "water":
                    sg.add_edge((u, m), (v, "none"), weight=0)
                else:
                    sg.add_edge((u, m), (v, "water"), weight=1)
            elif m.startswith("road:") and m[5:] in on:
                sg.add_edge((u, m), (v, "none"), weight=0)
            else:
                for r in on:
                    sg.add_edge((u, m), (v, f"road:{r}"), weight=1)
    src = (start, "none")
    if src not in sg:
        return {}
    dist = nx.single_source_dijkstra_path_length(sg, src, cutoff=roll)
    out: dict[str, tuple[int, bool]] = {}
    for (n, _), c in dist.items():
        if n != start and (n not in out or c < out[n][0]):
            out[n] = (int(c), stops(n))
    return out
