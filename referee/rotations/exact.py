"""Exact rotation census without enumeration: a frontier dynamic program.

The tiles are given their turns one at a time in a *sweep order* (:mod:`.sweep`).
After a prefix of tiles has been given turns, only the vertices that a processed
tile and a still-unprocessed tile both touch (the *frontier*), plus the permanent
vertices (``SRC`` and the targets), can still matter. The DP state is the
partition of that *active list* into classes already joined by the prefix,
written with canonical labels (first occurrence numbering). States reached by many
prefixes are merged and their counts added (exact Python integers).

A state is *decided* as soon as the answer no longer depends on the rest:

- every target is in the class of ``SRC`` → success for every completion;
- a target's class (or the class of ``SRC``) has no frontier vertex left → it can
  never be joined again → failure for every completion.

Decided states leave the table with their count times the number of completions,
which keeps the tables small.

Three passes share the machinery:

:meth:`FrontierDP.count`
    the forward pass: number of configurations that succeed, one witness of
    failure and of success. It keeps every table (a *layer*: the states before
    one step, as a row of labels each) and every transition (state, turn class)
    → next state or decided answer.
:meth:`FrontierDP.criticality`
    every tile's criticality from one backward and one more forward pass over
    those layers. Backward: ``S_j(x)``, the completions of steps *j*… that succeed
    from state *x* (a sum over the transitions). The success count of tile *i*
    in class *t* is then ``Σ_x count(x) · S(x after i in class t)``. Whether the
    tile *decides* the answer needs the *set* of worlds ``{x after i in class t}``
    of one context at once; success is monotone in the partition (joining more
    can only help), so when that set has a finest world *a* and a coarsest world
    *b* — always the case once the sweep is about a frontier away from tile *i*,
    and at once when a turn decides — the contexts where the worlds disagree
    number ``S(b) − S(a)``. Sets without both are carried forward (for all tiles
    together, tagged by tile) until they have.
:meth:`FrontierDP.fewest`
    min-plus DP for the configuration with the fewest reachable points: the
    state also carries, per open class, the points already joined to it; the
    class of ``SRC`` carries the running total; closed classes without ``SRC``
    are dropped (their points are never reached).

Notes
-----
With frontier width *w* (at most the cut of the sweep plus the permanent
vertices) a table holds at most Bell(*w*) states (in practice far fewer: planar
sweeps give non-crossing partitions). The forward step costs O(|table| · k · w · h)
for *k* turn classes with *h* hyperedge positions, done as numpy operations over
the whole table at once (states are rows of a label array; a row's mixed-radix
number, exact because a canonical label at position *c* is at most *c*, is its
key). The backward pass costs O(|table| · k) big-integer additions per step; the
criticality pass O(|table| · k² · w) per step plus the carried sets. On a grid of
tiles swept row by row *w* is about the row width plus one, so the whole census
is linear in the number of tiles (it used to take one sweep per tile:
quadratic).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from .structure import Problem
from .sweep import Plan, Step, make_plan

#: world id of a decided success (also an index into ``ext`` tables: second to last)
SUCCESS = -2
#: world id of a decided failure (last entry of ``ext`` tables)
DEAD = -1

Tick = Callable[[str], None]


class Cancelled(Exception):
    """Raised by a progress callback to stop a run; the run's partial figures stay."""


@dataclass
class Layer:
    """The table before one step: one row of canonical labels per state."""

    labels: np.ndarray  # (m, len(active list)) int
    counts: np.ndarray  # (m,) object: prefix configurations that reach each state
    parent: np.ndarray  # (m,) int64: the first (state * k + class) of the layer before
    #: per state, one bit per pair of positions in the same class (criticality pass)
    pairs: np.ndarray | None = None


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


# ---------------------------------------------------------------------- table operations
def _join(x: np.ndarray, option: tuple[tuple[tuple[int, ...], int], ...]) -> np.ndarray:
    """Every row of ``x`` with the classes each hyperedge touches joined (not canonical)."""
    y = x
    for he, _ in option:
        if len(he) < 2:
            continue
        cols = y[:, list(he)]
        low = cols.min(axis=1, keepdims=True)
        for c in range(cols.shape[1]):
            y = np.where(y == cols[:, c : c + 1], low, y)
    return y


def _advance(labels: np.ndarray, step: Step) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """One step for every state and turn class at once.

    Returns the outgoing labels (not canonical) of row ``state * k + class``, and
    which of those rows are decided successes and failures.
    """
    m = labels.shape[0]
    k = len(step.options)
    x = labels
    if step.n_new:
        fresh = labels.max(axis=1, keepdims=True) + 1 + np.arange(step.n_new, dtype=labels.dtype)
        x = np.concatenate([labels, fresh.astype(labels.dtype)], axis=1)
    keep = list(step.keep)
    out = np.empty((m, k, len(keep)), dtype=labels.dtype)
    for o, opt in enumerate(step.options):
        out[:, o, :] = _join(x, opt)[:, keep]
    z = out.reshape(m * k, len(keep))
    p = step.n_perm
    unsat = z[:, 1:p] != z[:, :1]
    success = ~unsat.any(axis=1)
    has_open = np.zeros((m * k, x.shape[1]), dtype=bool)
    rows = np.arange(m * k)
    if step.open_pos:
        has_open[rows[:, None], z[:, list(step.open_pos)]] = True
    dead = ~has_open[rows, z[:, 0]] | (unsat & ~has_open[rows[:, None], z[:, 1:p]]).any(axis=1)
    return z, success, dead & ~success


def _canonical(z: np.ndarray) -> np.ndarray:
    """Rows relabelled by first occurrence (0, then the next new label 1, …)."""
    m, w = z.shape
    if m == 0:
        return z
    first = _first_positions(z, int(z.max()) + 1)
    isfirst = first == np.arange(w)
    rank = np.cumsum(isfirst, axis=1) - 1
    return np.take_along_axis(rank, first, axis=1).astype(z.dtype)


def _first_positions(z: np.ndarray, labels: int) -> np.ndarray:
    """Per cell, the first position in its row that holds the same label."""
    m, w = z.shape
    rows = np.arange(m)
    first = np.zeros((m, labels), dtype=np.intp)
    for c in range(w - 1, -1, -1):
        first[rows, z[:, c]] = c
    return np.take_along_axis(first, z.astype(np.intp), axis=1)


def _group(rows: np.ndarray, radix: Sequence[int]) -> tuple[np.ndarray, np.ndarray]:
    """(first index of each distinct row, group of every row), groups in key order.

    ``radix[c]`` bounds column *c* (``0 <= rows[:, c] < radix[c]``). When the
    product of the bounds is below 2⁶³ each row is read as one mixed-radix integer
    (one sort of int64 keys); otherwise the rows are sorted column by column.
    """
    m = len(rows)
    if math.prod(radix) < 2**63:
        place = np.ones(len(radix), dtype=np.int64)
        for c in range(len(radix) - 2, -1, -1):
            place[c] = place[c + 1] * radix[c + 1]
        keys = rows.astype(np.int64) @ place
        _, first, inverse = np.unique(keys, return_index=True, return_inverse=True)
        return first, inverse.reshape(-1)
    order = np.lexsort(rows.T[::-1])
    srt = rows[order]
    new = np.concatenate([[True], (srt[1:] != srt[:-1]).any(axis=1)]) if m else np.zeros(0, bool)
    inverse = np.empty(m, dtype=np.int64)
    inverse[order] = np.cumsum(new) - 1
    return order[new], inverse


def _canonical_radix(width: int) -> list[int]:
    """Bounds of canonical labels: the label at position *c* is at most *c*."""
    return [c + 1 for c in range(width)]


def _sum_by(values: np.ndarray, groups: np.ndarray, n: int) -> np.ndarray:
    """Sum of ``values`` (object integers) per group ``0..n-1`` (every group non-empty)."""
    if n == 0:
        return np.zeros(0, dtype=object)
    order = np.argsort(groups, kind="stable")
    g = groups[order]
    starts = np.flatnonzero(np.concatenate([[True], g[1:] != g[:-1]]))
    return np.add.reduceat(values[order], starts)


class FrontierDP:
    """Frontier dynamic program over one :class:`~.sweep.Plan` (see the module notes)."""

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
        #: layers[j]: the table before step j (layers[n] is empty); filled by count()
        self.layers: list[Layer] = []
        #: nxt[j][state, class]: the state of layers[j + 1] reached, or SUCCESS / DEAD
        self.nxt: list[np.ndarray] = []
        self.succ_before: list[int] = []
        self.dead_before: list[int] = []
        self._critical: list[CriticalResult] | None = None
        self._counted = False
        # partial figures while running (read after an interruption)
        self.success = 0
        self.failure = 0
        self.steps_done = 0

    def _tick(self, what: str) -> None:
        if self.tick is not None:
            self.tick(what)

    @property
    def _trivial(self) -> bool:
        """No tile, or no target left to join: nothing to sweep."""
        return not self.plan.steps or len(self.plan.perm) == 1

    # ------------------------------------------------------------------ count
    def count(self) -> CountResult:
        """Exact number of successful configurations (and witnesses).

        Keeps every layer and transition for :meth:`criticality`.
        """
        plan, rest = self.plan, self.rest
        n = len(plan.steps)
        self.success = self.failure = 0
        self.layers, self.nxt, self.succ_before, self.dead_before = [], [], [], []
        self._critical = None
        self._counted = False
        if self._trivial:
            if len(plan.perm) == 1:
                self.success = rest[0]
            else:
                self.failure = rest[0]
            self.steps_done = n
            self.succ_before = [self.success] * n
            self.dead_before = [self.failure] * n
            self._counted = True
            cur = list(self.current)
            ok = len(plan.perm) == 1
            return CountResult(
                self.success, self.failure, None if ok else cur, cur if ok else None, 1, n, True
            )
        dtype = np.int16 if plan.width < 2**15 else np.int32
        perm = len(plan.perm)
        layer = Layer(
            np.arange(perm, dtype=dtype)[None, :],
            np.array([1], dtype=object),
            np.array([-1], dtype=np.int64),
        )
        succ_at: tuple[int, int] | None = None
        fail_at: tuple[int, int] | None = None
        max_states = 1
        for j, step in enumerate(plan.steps):
            self.layers.append(layer)
            self.succ_before.append(self.success)
            self.dead_before.append(self.failure)
            k = len(step.options)
            m = len(layer.counts)
            nxt = np.full(m * k, DEAD, dtype=np.int64)
            if m:
                z, succ, dead = _advance(layer.labels, step)
                reps = np.repeat(layer.counts, k)
                if succ.any():
                    self.success += int(reps[succ].sum()) * rest[j + 1]
                    if succ_at is None:
                        succ_at = (j, int(np.argmax(succ)))
                if dead.any():
                    self.failure += int(reps[dead].sum()) * rest[j + 1]
                    if fail_at is None:
                        fail_at = (j, int(np.argmax(dead)))
                nxt[succ] = SUCCESS
                live = np.flatnonzero(~(succ | dead))
                rows = _canonical(z[live])
                first, group = _group(rows, _canonical_radix(rows.shape[1]))
                nxt[live] = group
                layer = Layer(rows[first], _sum_by(reps[live], group, len(first)), live[first])
            else:
                layer = Layer(
                    np.zeros((0, len(step.keep)), dtype=dtype),
                    np.zeros(0, dtype=object),
                    np.zeros(0, dtype=np.int64),
                )
            self.nxt.append(nxt.reshape(m, k))
            max_states = max(max_states, len(layer.counts))
            self.steps_done = j + 1
            self._tick("count")
        self.layers.append(layer)
        assert not len(layer.counts), "every state is decided after the last tile"
        self._counted = True
        fw = None if fail_at is None else self._unwind(*fail_at)
        sw = None if succ_at is None else self._unwind(*succ_at)
        return CountResult(self.success, self.failure, fw, sw, max_states, n, True)

    def _unwind(self, j: int, flat: int) -> list[int]:
        """The configuration of transition ``flat`` (state * k + class) of step ``j``.

        Tiles after step ``j`` keep their current turn's class.
        """
        choice = list(self.current)
        while j >= 0:
            s, o = divmod(flat, len(self.plan.steps[j].options))
            choice[self.plan.order[j]] = o
            flat = int(self.layers[j].parent[s])
            j -= 1
        return choice

    # ------------------------------------------------------------------ criticality
    def _suffix(self) -> list[np.ndarray]:
        """``ext[j]``: ``S_j`` of every state of layer *j*, then ``rest[j]`` and 0.

        Indexed by a world id of layer *j*, it gives the successful completions:
        ``SUCCESS`` (-2) reads ``rest[j]``, ``DEAD`` (-1) reads 0.
        """
        n = len(self.plan.steps)
        ext: list[np.ndarray] = [np.zeros(0, dtype=object)] * (n + 1)
        ext[n] = np.array([self.rest[n], 0], dtype=object)
        for j in range(n - 1, -1, -1):
            nxt = self.nxt[j]
            s = ext[j + 1][nxt].sum(axis=1) if len(nxt) else np.zeros(0, dtype=object)
            ext[j] = np.concatenate([s, np.array([self.rest[j], 0], dtype=object)])
        return ext

    def _pairs(self, j: int) -> np.ndarray:
        """Layer *j*'s partitions as bit sets of same-class position pairs.

        Partition *a* refines *b* exactly when ``pairs[a] & ~pairs[b]`` is all zero.
        """
        layer = self.layers[j]
        if layer.pairs is None:
            lab = layer.labels
            m, w = lab.shape
            cells = [(c, d) for c in range(w) for d in range(c + 1, w)]
            words = np.zeros((m, max(1, (len(cells) + 63) // 64)), dtype=np.uint64)
            for i, (c, d) in enumerate(cells):
                bit = np.uint64(1) << np.uint64(i % 64)
                words[:, i // 64] |= np.where(lab[:, c] == lab[:, d], bit, np.uint64(0))
            layer.pairs = words
        return layer.pairs

    def criticality(self) -> list[CriticalResult]:
        """Every tile's criticality (indexed like ``problem.tiles``); runs :meth:`count`
        first if it has not run. See the module notes for the method."""
        if self._critical is not None:
            return self._critical
        if not self._counted:
            self.count()
        plan, problem = self.plan, self.problem
        n = len(plan.steps)
        out: list[CriticalResult | None] = [None] * len(problem.tiles)
        contexts = [problem.total // len(problem.tiles[s.tile].classes) for s in plan.steps]
        if self._trivial:
            for q, step in enumerate(plan.steps):
                k = len(step.options)
                share = self.success // k
                out[step.tile] = CriticalResult(step.tile, contexts[q], 0, [share] * k, True)
                self._tick("critical")
            self._critical = [r for r in out if r is not None]
            return self._critical
        ext = self._suffix()
        width = max(len(s.options) for s in plan.steps)
        # decided = open contexts - contexts where every turn succeeds - where every fails
        open_ctx = [0] * n
        all_succ = [0] * n
        all_fail = [0] * n
        empty = (
            np.zeros((0, width), dtype=np.int64),
            np.zeros(0, dtype=np.int64),
            np.zeros(0, dtype=object),
        )
        carried = {"min": empty, "max": empty}
        # a state that succeeds (fails) for every completion counts as SUCCESS (DEAD);
        # indexed by a world id (SUCCESS and DEAD read themselves)
        sure: list[np.ndarray] = []
        for j in range(n + 1):
            s = ext[j][:-2]
            ids = np.where(s == 0, DEAD, np.where(s == self.rest[j], SUCCESS, np.arange(len(s))))
            sure.append(np.concatenate([ids, [SUCCESS, DEAD]]).astype(np.int64))
        for j, step in enumerate(plan.steps):
            k = len(step.options)
            nxt = self.nxt[j]
            layer = self.layers[j]
            # success by class: every state of the layer, each class, its completions
            base = self.succ_before[j] // k
            by_class = [
                base + (int((layer.counts * ext[j + 1][nxt[:, t]]).sum()) if len(nxt) else 0)
                for t in range(k)
            ]
            out[step.tile] = CriticalResult(step.tile, contexts[j], 0, by_class, True)
            open_ctx[j] = int(layer.counts.sum()) * self.rest[j + 1] if len(nxt) else 0
            # nxt, with every sure state as SUCCESS or DEAD
            nxt = sure[j + 1][nxt]
            own = (
                np.concatenate([nxt, np.repeat(nxt[:, :1], width - k, axis=1)], axis=1),
                np.full(len(nxt), j, dtype=np.int64),
                layer.counts,
            )
            for side, acc in (("min", all_succ), ("max", all_fail)):
                worlds, tags, counts = carried[side]
                parts_w, parts_t, parts_c = [own[0]], [own[1]], [own[2]]
                if len(worlds):
                    # the sets carried from earlier tiles take this step's classes
                    live = worlds >= 0
                    idx = np.where(live, worlds, 0)
                    for o in range(k):
                        parts_w.append(np.where(live, nxt[idx, o], worlds))
                        parts_t.append(tags)
                        parts_c.append(counts)
                carried[side] = self._settle(
                    j + 1,
                    side,
                    np.concatenate(parts_w),
                    np.concatenate(parts_t),
                    np.concatenate(parts_c),
                    ext[j + 1],
                    acc,
                )
            self._tick("critical")
        assert not len(carried["min"][0]) and not len(carried["max"][0])
        for j, step in enumerate(plan.steps):
            r = out[step.tile]
            assert r is not None
            r.decided = open_ctx[j] - all_succ[j] - all_fail[j]
        self._critical = [r for r in out if r is not None]
        return self._critical

    def _settle(
        self,
        j: int,
        side: str,
        worlds: np.ndarray,
        tags: np.ndarray,
        counts: np.ndarray,
        ext: np.ndarray,
        acc: list[int],
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Settle the sets of worlds (rows of layer-*j* ids) that have one finest
        (``side="min"``) or one coarsest (``"max"``) world; return the others as
        the set of their finest (coarsest) worlds, merged when equal.

        ``"min"``: every world succeeds exactly when the finest does, so the
        completions where all succeed number ``S(finest)``, added to ``acc``;
        ``"max"``: all fail exactly when the coarsest fails, ``rest - S(coarsest)``.
        """
        m, width = worlds.shape
        if m == 0:
            return worlds, tags, counts
        pairs = self._pairs(j)
        # below[:, t, u]: world t is strictly finer than world u (DEAD is below every
        # other world, SUCCESS above)
        below = np.zeros((m, width, width), dtype=bool)
        for t in range(width):
            a = worlds[:, t]
            for u in range(t + 1, width):
                b = worlds[:, u]
                diff = a != b
                below[:, t, u] = diff & ((a == DEAD) | (b == SUCCESS))
                below[:, u, t] = diff & ((b == DEAD) | (a == SUCCESS))
                both = np.flatnonzero(diff & (a >= 0) & (b >= 0))
                if len(both):
                    pa, pb = pairs[a[both]], pairs[b[both]]
                    below[both, t, u] = ~(pa & ~pb).any(axis=1)
                    below[both, u, t] = ~(pb & ~pa).any(axis=1)
        # the finest (coarsest) worlds: nothing strictly below (above) them
        extreme = ~below.any(axis=1) if side == "min" else ~below.any(axis=2)
        pick = worlds[np.arange(m), np.argmax(extreme, axis=1)]
        worlds = np.where(extreme, worlds, pick[:, None])
        single = (worlds == pick[:, None]).all(axis=1)
        if single.any():
            rows = np.flatnonzero(single)
            got = ext[pick[rows]]
            if side == "max":
                got = ext[SUCCESS] - got
            which, group = np.unique(tags[rows], return_inverse=True)
            gain = _sum_by(got * counts[rows], group.reshape(-1), len(which))
            for q, g in zip(which.tolist(), gain.tolist()):
                acc[q] += int(g)
        keep = ~single
        worlds, tags, counts = worlds[keep], tags[keep], counts[keep]
        if not len(worlds):
            return worlds, tags, counts
        # a set, not a tuple: sort, repeat the smallest in place of duplicates, sort again
        worlds = np.sort(worlds, axis=1)
        dup = np.concatenate(
            [np.zeros((len(worlds), 1), dtype=bool), worlds[:, 1:] == worlds[:, :-1]], axis=1
        )
        worlds = np.sort(np.where(dup, worlds[:, :1], worlds), axis=1)
        # world ids shifted to 0.. (SUCCESS and DEAD first)
        radix = [int(tags.max()) + 1] + [len(pairs) + 2] * width
        first, group = _group(np.concatenate([tags[:, None], worlds + 2], axis=1), radix)
        return worlds[first], tags[first], _sum_by(counts, group.reshape(-1), len(first))

    def critical(self, tile: int) -> CriticalResult:
        """How often ``tile``'s turn decides the answer (from :meth:`criticality`)."""
        return self.criticality()[tile]

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

        Notes
        -----
        A table is three arrays (canonical labels, points per class, points joined
        to ``SRC``); a step is numpy work over all its states at once, O(|table| ·
        k · w · h) like :meth:`count`, then one sort keeps the best of equal states.
        """
        cap = max_states
        exact = True
        problem = self.problem
        ub, ub_choice = local_search_fewest(problem, self.current)
        plan = make_plan(problem, with_targets=False, order=self.plan.order)
        labels = np.zeros((1, 1), dtype=np.int64)
        weights = np.zeros((1, 1), dtype=np.int64)  # per class label; SRC's entry 0
        joined = np.array([plan.src_weight], dtype=np.int64)  # points joined to SRC
        parents: list[np.ndarray] = []
        max_states = 1
        for step in plan.steps:
            if not len(joined):  # every state reached the bound: the local search's stands
                self._tick("fewest")
                continue
            z, w, s = _advance_weighted(labels, weights, joined, step)
            live = np.flatnonzero(s < ub)
            z, w, s = z[live], w[live], s[live]
            canon = _canonical(z)
            # the points of each class follow its label to its canonical number
            cw = np.zeros_like(canon)
            np.put_along_axis(cw, canon, np.take_along_axis(w, z, axis=1), axis=1)
            cw[:, 0] = 0
            best = live[:0]
            if len(live):
                radix = _canonical_radix(canon.shape[1]) + [int(cw.max()) + 1] * cw.shape[1]
                _, group = _group(np.concatenate([canon, cw], axis=1), radix)
                order = np.lexsort((s, group))
                g = group[order]
                best = order[np.flatnonzero(np.concatenate([[True], g[1:] != g[:-1]]))]
            if len(best) > cap:
                exact = False
                best = best[np.lexsort((cw[best].sum(axis=1), s[best]))[:cap]]
            labels, weights, joined = canon[best], cw[best], s[best]
            parents.append(live[best])
            max_states = max(max_states, len(best))
            self._tick("fewest")
        if not len(joined) or len(parents) < len(plan.steps):
            return FewestResult(ub, ub_choice, max_states, exact)
        i = int(np.argmin(joined))
        points = int(joined[i])
        choice = list(self.current)
        for j in range(len(plan.steps) - 1, -1, -1):
            i, o = divmod(int(parents[j][i]), len(plan.steps[j].options))
            choice[plan.order[j]] = o
        return FewestResult(points, choice, max_states, exact)


def _advance_weighted(
    labels: np.ndarray, weights: np.ndarray, joined: np.ndarray, step: Step
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """:func:`_advance` for :meth:`FrontierDP.fewest`: every state and turn class at once.

    Returns, for row ``state * k + class``, the outgoing labels (not canonical), the
    points of each class by label, and the points joined to ``SRC``.
    """
    m, a = labels.shape
    k = len(step.options)
    width = a + step.n_new
    rows = np.arange(m)
    x = labels
    w = np.zeros((m, width), dtype=np.int64)
    w[:, :a] = weights
    if step.n_new:
        fresh = labels.max(axis=1, keepdims=True) + 1 + np.arange(step.n_new)
        x = np.concatenate([labels, fresh], axis=1)
        w[rows[:, None], fresh] = np.array(step.new_weight, dtype=np.int64)
    w[rows, x[:, 0]] = joined  # SRC's class carries the running total
    keep = list(step.keep)
    out_z = np.empty((m, k, len(keep)), dtype=np.int64)
    out_w = np.empty((m, k, width), dtype=np.int64)
    out_s = np.empty((m, k), dtype=np.int64)
    for o, opt in enumerate(step.options):
        y, wy = x, w.copy()
        for he, pts in opt:
            for p in he[1:]:
                l0, l1 = y[:, he[0]], y[:, p]
                r = np.flatnonzero(l0 != l1)
                if len(r):
                    lo, hi = np.minimum(l0, l1), np.maximum(l0, l1)
                    wy[r, lo[r]] += wy[r, hi[r]]
                    wy[r, hi[r]] = 0
                    y = np.where(y == hi[:, None], lo[:, None], y)
            if pts:
                wy[rows, y[:, he[0]]] += pts
        z = y[:, keep]
        out_z[:, o, :] = z
        out_w[:, o, :] = wy
        out_s[:, o] = wy[rows, z[:, 0]]
    return (
        out_z.reshape(m * k, len(keep)),
        out_w.reshape(m * k, width),
        out_s.reshape(m * k),
    )


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
