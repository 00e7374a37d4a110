"""Exact rotation census without enumeration: a frontier dynamic program.

The tiles are processed one at a time in a *sweep order*. After a prefix of
tiles has been given turns, only the vertices that a processed tile and a
still-unprocessed tile both touch (the *frontier*), plus the permanent vertices
(``SRC`` and the targets), can still matter. The DP state is the partition of
those vertices into classes already joined by the prefix, written as a tuple of
canonical labels (first occurrence numbering). States reached by many prefixes
are merged and their counts added (exact Python integers).

A state is *decided* as soon as the answer no longer depends on the rest:

- every target is in the class of ``SRC`` → success for every completion;
- a target's class (or the class of ``SRC``) has no frontier vertex left → it can
  never be joined again → failure for every completion.

Decided states leave the table with their count times the number of completions,
which keeps the tables small.

Three passes share the machinery:

:meth:`FrontierDP.count`
    number of configurations that succeed, one witness of failure and success.
:meth:`FrontierDP.critical`
    for one tile *i*, its "multi-world" run: before tile *i* the plain states;
    at tile *i* each state splits into a tuple of one world per turn class of
    *i*, and every later tile is applied to all worlds alike. When all worlds are
    decided the tuple's outcome vector is known for every completion. This gives,
    for each configuration of the *other* tiles (a *context*), whether the
    outcome differs between turns of tile *i* (tile *i* **decides** the answer
    in that context), and the success count per turn of *i*.
:meth:`FrontierDP.fewest`
    min-plus DP for the configuration with the fewest reachable points: the
    state also carries, per open class, the points already joined to it; the
    class of ``SRC`` carries the running total; closed classes without ``SRC``
    are dropped (their points are never reached).

Notes
-----
With frontier width *w* (at most the cut of the sweep plus the permanent
vertices) a table holds at most Bell(*w*) states (in practice far fewer: planar
sweeps give non-crossing partitions). Each step costs O(|table| · k · w) for *k*
turn classes. On a grid of tiles swept row by row *w* is about the row width
plus one, so the whole census is linear in the number of tiles.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from .structure import Problem, TileVar

SUCCESS = 1
DEAD = 0

Tick = Callable[[str], None]


class Cancelled(Exception):
    """Raised by a progress callback to stop a run; the run's partial figures stay."""


@dataclass
class Step:
    tile: int  # index into problem.tiles
    n_in: int  # size of the incoming active list
    n_new: int  # vertices entering at this step (appended)
    options: list[tuple[tuple[tuple[int, ...], int], ...]]  # per class: (positions, points)
    new_weight: tuple[int, ...]  # points of the entering vertices
    keep: tuple[int, ...]  # positions (in incoming+new) of the outgoing list
    n_perm: int  # permanent vertices (always first)
    open_pos: tuple[int, ...]  # outgoing positions a later tile still touches


@dataclass
class Plan:
    order: list[int]
    steps: list[Step]
    perm: list[int]  # permanent vertex ids: src first, then targets
    width: int  # widest active list
    src_weight: int


def _activity(problem: Problem, order: Sequence[int]) -> tuple[dict[int, int], dict[int, int]]:
    first: dict[int, int] = {}
    last: dict[int, int] = {}
    for j, ti in enumerate(order):
        for c in problem.tiles[ti].classes:
            for vs, _ in c.hyperedges:
                for v in vs:
                    first.setdefault(v, j)
                    last[v] = j
    return first, last


def order_cost(problem: Problem, order: Sequence[int], perm: Sequence[int]) -> tuple[int, int]:
    """(widest frontier, sum of frontier sizes) of a sweep order."""
    first, last = _activity(problem, order)
    ps = set(perm)
    sizes = []
    for j in range(len(order)):
        sizes.append(len(ps) + sum(1 for v in first if v not in ps and first[v] <= j < last[v]))
    return (max(sizes, default=len(ps)), sum(sizes))


def choose_order(problem: Problem, perm: Sequence[int]) -> list[int]:
    """A sweep order with a narrow frontier.

    Tries sweeps along rows, columns and both diagonals (each way) and a greedy
    order grown from every tile (always add the tile that leaves the fewest
    vertices open), and keeps the one with the smallest (widest frontier, sum).
    """
    n = len(problem.tiles)
    if n == 0:
        return []
    tiles = problem.tiles
    cands: list[list[int]] = []
    keys: list[Callable[[TileVar], tuple[float, float]]] = [
        lambda t: (t.y, t.x),
        lambda t: (t.x, t.y),
        lambda t: (t.x + t.y, t.x),
        lambda t: (t.x - t.y, t.y),
    ]
    for key in keys:
        o = sorted(range(n), key=lambda i: key(tiles[i]))
        cands.extend([o, o[::-1]])
    touch = [{v for c in t.classes for vs, _ in c.hyperedges for v in vs} for t in tiles]
    uses: dict[int, int] = {}
    for s in touch:
        for v in s:
            uses[v] = uses.get(v, 0) + 1
    ps = set(perm)
    for start in range(n):
        order = [start]
        left = set(range(n)) - {start}
        seen = dict.fromkeys(touch[start], 1)
        while left:
            best = None
            for i in left:
                opened = 0
                for v in touch[i]:
                    if v in ps:
                        continue
                    k = seen.get(v, 0) + 1
                    if k == 1 and uses[v] > 1:
                        opened += 1
                    elif k == uses[v] and k > 1:
                        opened -= 1
                d = (tiles[i].x - tiles[order[-1]].x) ** 2 + (tiles[i].y - tiles[order[-1]].y) ** 2
                cand = (opened, d, i)
                if best is None or cand < best:
                    best = cand
            assert best is not None
            i = best[2]
            order.append(i)
            left.discard(i)
            for v in touch[i]:
                seen[v] = seen.get(v, 0) + 1
        cands.append(order)
    return min(cands, key=lambda o: order_cost(problem, o, perm))


def make_plan(
    problem: Problem, with_targets: bool = True, order: Sequence[int] | None = None
) -> Plan:
    """Compile the sweep into per-step position tables."""
    perm = [problem.src]
    if with_targets:
        for t in problem.targets:
            if t not in perm:
                perm.append(t)
    if order is None:
        order = choose_order(problem, perm)
    first, last = _activity(problem, order)
    ps = set(perm)
    active = list(perm)
    steps: list[Step] = []
    width = len(active)
    for j, ti in enumerate(order):
        new = sorted(v for v in first if first[v] == j and v not in ps)
        combined = active + new
        pos = {v: p for p, v in enumerate(combined)}
        opts = []
        for c in problem.tiles[ti].classes:
            opts.append(tuple((tuple(pos[v] for v in vs), w) for vs, w in c.hyperedges))
        keep = tuple(p for p, v in enumerate(combined) if v in ps or last[v] > j)
        active = [combined[p] for p in keep]
        open_pos = tuple(p for p, v in enumerate(active) if last.get(v, -1) > j)
        steps.append(
            Step(
                ti,
                len(combined) - len(new),
                len(new),
                opts,
                tuple(problem.weight[v] for v in new),
                keep,
                len(perm),
                open_pos,
            )
        )
        width = max(width, len(combined))
    return Plan(list(order), steps, perm, width, problem.weight[problem.src])


_World = tuple[int, ...] | int
"""A state still open after a step, or its decided answer (``SUCCESS`` or ``DEAD``)."""


def _apply(state: tuple[int, ...], step: Step, opt: int) -> tuple[int, ...]:
    """Join the classes the option's hyperedges touch; drop leaving vertices; relabel."""
    lab = list(state)
    if step.n_new:
        nxt = (max(state) + 1) if state else 0
        lab.extend(range(nxt, nxt + step.n_new))
    for he, _ in step.options[opt]:
        if len(he) < 2:
            continue
        ls = {lab[p] for p in he}
        if len(ls) > 1:
            m = min(ls)
            lab = [m if x in ls else x for x in lab]
    mp: dict[int, int] = {}
    return tuple([mp.setdefault(lab[p], len(mp)) for p in step.keep])


def _decide(state: tuple[int, ...], step: Step) -> tuple[int, ...] | int:
    """SUCCESS, DEAD, or the state itself when the answer is still open."""
    s = state[0]
    unsat = [x for x in state[1 : step.n_perm] if x != s]
    if not unsat:
        return SUCCESS
    open_ = {state[p] for p in step.open_pos}
    if s not in open_:
        return DEAD
    for x in unsat:
        if x not in open_:
            return DEAD
    return state


def _unwind(w: object, order: Sequence[int], default: Sequence[int]) -> list[int]:
    """A witness (linked (parent, class) pairs along the sweep) as one class per tile.

    Tiles after the point where the answer was decided keep ``default`` (their
    current turn's class).
    """
    seq: list[int] = []
    while w is not None:
        assert isinstance(w, tuple)
        w, o = w
        seq.append(o)
    seq.reverse()
    choice = list(default)
    for j, o in enumerate(seq):
        choice[order[j]] = o
    return choice


@dataclass
class CountResult:
    success: int
    failure: int
    fail_witness: list[int] | None
    success_witness: list[int] | None
    max_states: int
    steps_done: int
    complete: bool


@dataclass
class CriticalResult:
    tile: int
    contexts: int  # configurations of the other tiles
    decided: int  # contexts where the tile's turn changes the answer
    success_by_class: list[int]  # contexts that succeed with the tile in each class
    complete: bool


@dataclass
class FewestResult:
    points: int
    witness: list[int]
    max_states: int
    complete: bool


class FrontierDP:
    """Frontier dynamic program over one :class:`Plan` (see the module notes)."""

    def __init__(
        self, problem: Problem, plan: Plan | None = None, tick: Tick | None = None
    ) -> None:
        self.problem = problem
        self.plan = plan or make_plan(problem)
        self.tick = tick
        n = len(self.plan.steps)
        ks = [len(problem.tiles[s.tile].classes) for s in self.plan.steps]
        #: rest[j] = completions of steps j..n-1
        self.rest = [1] * (n + 1)
        for j in range(n - 1, -1, -1):
            self.rest[j] = self.rest[j + 1] * ks[j]
        self.current = [tv.class_of(tv.current) for tv in problem.tiles]
        self.tables: list[dict[tuple[int, ...], int]] = []
        self.succ_before: list[int] = []
        self.dead_before: list[int] = []
        # partial figures while running (read after an interruption)
        self.success = 0
        self.failure = 0
        self.steps_done = 0

    def _tick(self, what: str) -> None:
        if self.tick is not None:
            self.tick(what)

    # ------------------------------------------------------------------ count
    def count(self, keep_tables: bool = False, upto: int | None = None) -> CountResult:
        """Exact number of successful configurations (and witnesses).

        With ``keep_tables`` the table before every step is kept for
        :meth:`critical`; with ``upto`` the run stops before that step.
        """
        plan, rest = self.plan, self.rest
        perm = plan.steps[0].n_perm if plan.steps else len(plan.perm)
        start = tuple(range(perm))
        table: dict[tuple[int, ...], int] = {}
        wit: dict[tuple[int, ...], object] = {}
        self.success = self.failure = 0
        fail_w: object = False
        succ_w: object = False
        if not plan.steps or perm == 1:
            if perm == 1:
                self.success = rest[0]
                succ_w = None
            else:
                self.failure = rest[0]
                fail_w = None
            self.steps_done = len(plan.steps)
            nsteps = len(plan.steps)
            self.tables = [{} for _ in range(nsteps)]
            self.succ_before = [self.success] * nsteps
            self.dead_before = [self.failure] * nsteps
            return self._count_result(fail_w, succ_w, 1)
        table[start] = 1
        wit[start] = None
        max_states = 1
        n = len(plan.steps) if upto is None else upto
        self.tables, self.succ_before, self.dead_before = [], [], []
        for j in range(n):
            step = plan.steps[j]
            if keep_tables:
                self.tables.append(table)
                self.succ_before.append(self.success)
                self.dead_before.append(self.failure)
            new: dict[tuple[int, ...], int] = {}
            nwit: dict[tuple[int, ...], object] = {}
            mult = rest[j + 1]
            for st, c in table.items():
                w = wit[st]
                for o in range(len(step.options)):
                    ns = _apply(st, step, o)
                    d = _decide(ns, step)
                    if d is SUCCESS:
                        self.success += c * mult
                        if succ_w is False:
                            succ_w = (w, o)
                    elif d is DEAD:
                        self.failure += c * mult
                        if fail_w is False:
                            fail_w = (w, o)
                    else:
                        assert not isinstance(d, int)
                        if d in new:
                            new[d] += c
                        else:
                            new[d] = c
                            nwit[d] = (w, o)
            table, wit = new, nwit
            max_states = max(max_states, len(table))
            self.steps_done = j + 1
            self._tick("count")
        if upto is not None:
            if keep_tables:
                self.tables.append(table)
                self.succ_before.append(self.success)
                self.dead_before.append(self.failure)
            return self._count_result(fail_w, succ_w, max_states, complete=False)
        assert not table, "every state is decided after the last tile"
        return self._count_result(fail_w, succ_w, max_states)

    def _count_result(
        self, fail_w: object, succ_w: object, max_states: int, complete: bool = True
    ) -> CountResult:
        order, cur = self.plan.order, self.current
        fw = None if fail_w is False else _unwind(fail_w, order, cur)
        sw = None if succ_w is False else _unwind(succ_w, order, cur)
        return CountResult(
            self.success, self.failure, fw, sw, max_states, self.steps_done, complete
        )

    # ------------------------------------------------------------------ critical
    def critical(self, tile: int) -> CriticalResult:
        """How often ``tile``'s turn decides the answer (multi-world run).

        Needs :meth:`count` run with ``keep_tables=True`` (or runs the prefix).
        """
        plan, rest = self.plan, self.rest
        q = plan.order.index(tile)
        if len(self.tables) <= q:
            self.count(keep_tables=True, upto=q)
        k = len(self.problem.tiles[tile].classes)
        contexts = self.problem.total // k
        table0 = self.tables[q]
        succ_pre, dead_pre = self.succ_before[q], self.dead_before[q]
        # configurations decided before tile q are the same for every turn of it
        by_class = [succ_pre // k] * k
        decided = 0
        step = plan.steps[q]
        ms: dict[tuple[_World, ...], int] = {}
        mult_after = rest[q + 1]
        for st, c in table0.items():
            worlds = tuple(_decide(_apply(st, step, o), step) for o in range(k))
            decided, by_class = self._bucket(ms, worlds, c, mult_after, decided, by_class)
        self._tick("critical")
        for j in range(q + 1, len(plan.steps)):
            step = plan.steps[j]
            cache: dict[tuple[tuple[int, ...], int], _World] = {}
            new: dict[tuple[_World, ...], int] = {}
            mult = rest[j + 1]
            nopt = len(step.options)
            for worlds, c in ms.items():
                for o in range(nopt):
                    nw: list[_World] = []
                    for w in worlds:
                        if isinstance(w, int):
                            nw.append(w)
                            continue
                        key = (w, o)
                        r = cache.get(key)
                        if r is None:
                            r = cache[key] = _decide(_apply(w, step, o), step)
                        nw.append(r)
                    decided, by_class = self._bucket(new, tuple(nw), c, mult, decided, by_class)
            ms = new
            self._tick("critical")
        assert not ms
        del dead_pre
        return CriticalResult(tile, contexts, decided, by_class, True)

    @staticmethod
    def _bucket(
        table: dict[tuple[_World, ...], int],
        worlds: tuple[_World, ...],
        c: int,
        mult: int,
        decided: int,
        by_class: list[int],
    ) -> tuple[int, list[int]]:
        if all(type(w) is int for w in worlds):
            n = c * mult
            if any(worlds) and not all(worlds):
                decided += n
            for i, w in enumerate(worlds):
                if w == SUCCESS:
                    by_class[i] += n
        else:
            table[worlds] = table.get(worlds, 0) + c
        return decided, by_class

    # ------------------------------------------------------------------ fewest
    def fewest(self, max_states: int = 100_000) -> FewestResult:
        """The configuration with the fewest reachable points (min-plus DP).

        Uses its own plan in which only ``SRC`` is permanent. The state also holds
        the points of every open class, so tables grow faster than in
        :meth:`count`; when one exceeds ``max_states`` only the ``max_states``
        most promising states (fewest points joined to ``SRC``, then fewest
        pending) are kept and the result is marked not exact (``complete`` False):
        a configuration and an upper bound, not a proven minimum.

        A local search first finds a good configuration (each tile in turn set to
        its best class until nothing improves); its count *U* bounds the DP, which
        then keeps only states with fewer than *U* points joined to ``SRC`` (that
        count never decreases along the sweep), so the answer stays exact.
        """
        cap = max_states
        exact = True
        problem = self.problem
        ub, ub_choice = local_search_fewest(problem, self.current)
        plan = make_plan(problem, with_targets=False, order=self.plan.order)
        # state key: (labels, weights per label with SRC's entry 0); value (src points, witness)
        start = ((0,), (0,))
        table: dict[tuple[tuple[int, ...], tuple[int, ...]], tuple[int, object]] = {
            start: (plan.src_weight, None)
        }
        max_states = 1
        for step in plan.steps:
            new: dict[tuple[tuple[int, ...], tuple[int, ...]], tuple[int, object]] = {}
            for (labels, weights), (sw, w) in table.items():
                for o in range(len(step.options)):
                    key, nsw = _apply_weighted(labels, weights, sw, step, o)
                    if key is None or nsw >= ub:
                        continue
                    old = new.get(key)
                    if old is None or nsw < old[0]:
                        new[key] = (nsw, (w, o))
            if len(new) > cap:
                exact = False
                kept = sorted(new.items(), key=lambda kv: (kv[1][0], sum(kv[0][1])))[:cap]
                new = dict(kept)
            table = new
            max_states = max(max_states, len(table))
            self._tick("fewest")
        if not table:
            return FewestResult(ub, ub_choice, max_states, exact)
        best = min(table.values(), key=lambda v: v[0])
        return FewestResult(best[0], _unwind(best[1], plan.order, self.current), max_states, exact)


def local_search_fewest(problem: Problem, start: Sequence[int]) -> tuple[int, list[int]]:
    """A configuration with few reachable points: coordinate descent from ``start``.

    Notes
    -----
    Each round tries every class of every tile (O(n · k) union-find evaluations);
    rounds repeat while the count drops, at most ``n`` times.
    """
    choice = list(start)
    best = problem.evaluate(choice)[1]
    for _ in range(max(1, len(choice))):
        improved = False
        for i, tv in enumerate(problem.tiles):
            for c in range(len(tv.classes)):
                if c == choice[i]:
                    continue
                old = choice[i]
                choice[i] = c
                pts = problem.evaluate(choice)[1]
                if pts < best:
                    best, improved = pts, True
                else:
                    choice[i] = old
        if not improved:
            break
    return best, choice


def _apply_weighted(
    labels: tuple[int, ...], weights: tuple[int, ...], sw: int, step: Step, opt: int
) -> tuple[tuple[tuple[int, ...], tuple[int, ...]] | None, int]:
    lab = list(labels)
    wt = dict(enumerate(weights))
    wt[labels[0]] = sw
    if step.n_new:
        nxt = max(labels) + 1
        for i in range(step.n_new):
            lab.append(nxt + i)
            wt[nxt + i] = step.new_weight[i]
    for he, pts in step.options[opt]:
        ls = {lab[p] for p in he}
        m = min(ls)
        if len(ls) > 1:
            tot = 0
            for x in ls:
                tot += wt.pop(x)
            wt[m] = tot
            lab = [m if x in ls else x for x in lab]
        wt[m] += pts
    mp: dict[int, int] = {}
    out = tuple([mp.setdefault(lab[p], len(mp)) for p in step.keep])
    nw = [0] * len(mp)
    for old, new in mp.items():
        nw[new] = wt[old]
    src_pts = nw[out[0]]
    nw[out[0]] = 0
    return (out, tuple(nw)), src_pts
