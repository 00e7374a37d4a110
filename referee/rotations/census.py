"""The rotation census: :func:`census` and its :class:`CensusResult`.

Definitions (what the figures mean)
-----------------------------------
configuration
    One turn class per selected tile (turns that give a tile the same local
    connectivity count once, see :mod:`.structure`).
success
    Every ``to`` node is joined along paths (as light figures move, ignoring
    figures) to at least one ``from`` node.
context of tile *i*
    A configuration of all the *other* selected tiles; there are
    ``total / k_i`` of them for a tile with ``k_i`` turn classes.
tile *i* decides the answer in a context
    Some turns of tile *i* succeed and others fail in that context. ``decided``
    counts such contexts; ``decided_fraction`` = decided / contexts is the
    probability that, with the other tiles turned at random, turning tile *i*
    alone can change the answer. ``flip_configurations`` = decided · k_i counts the
    configurations from which changing only tile *i*'s turn can flip the answer.
    Tiles are listed by ``decided_fraction``, highest (most critical) first.
success probability per turn
    ``success_by_class[t] / contexts``: the probability of success when tile *i*
    shows turn class *t* and the other tiles are turned at random (uniform over
    their turn classes).
reachable points
    ``point`` nodes joined along paths to some ``from`` node (the starts
    included).

Exact figures come from the frontier DP (:mod:`.exact`); ``sample`` draws
configurations uniformly at random (seeded) and gives a 95 % Wilson interval.
"""

from __future__ import annotations

import math
import multiprocessing
import signal
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..errors import UsageError
from .brute import _tables, evaluate_many
from .exact import Cancelled, CriticalResult, FrontierDP
from .structure import Problem, build_problem
from .sweep import Plan, make_plan

#: progress(done, total, stage) -> False to stop; anything else goes on
Progress = Callable[[int, int, str], Any]


@dataclass
class TileReport:
    """One selected tile: its symmetry and how much its turn matters."""

    placement: str
    turn_count: int
    current: int
    classes: list[list[int]]
    contexts: int | None = None
    decided: int | None = None
    success_by_class: list[int] | None = None
    #: sampled estimates (``sample`` runs)
    decided_fraction_est: float | None = None
    success_probability_est: list[float] | None = None

    @property
    def decided_fraction(self) -> float | None:
        if self.decided_fraction_est is not None:
            return self.decided_fraction_est
        if self.decided is None or not self.contexts:
            return None
        return self.decided / self.contexts

    @property
    def flip_configurations(self) -> int | None:
        return None if self.decided is None else self.decided * len(self.classes)

    @property
    def success_probability(self) -> list[float] | None:
        if self.success_probability_est is not None:
            return self.success_probability_est
        if self.success_by_class is None or not self.contexts:
            return None
        return [s / self.contexts for s in self.success_by_class]

    def to_json(self) -> dict[str, Any]:
        return {
            "tile": self.placement,
            "turn_count": self.turn_count,
            "current": self.current,
            "symmetry": self.classes,
            "distinct_turns": len(self.classes),
            "contexts": self.contexts,
            "decided": self.decided,
            "decided_fraction": self.decided_fraction,
            "flip_configurations": self.flip_configurations,
            "success_by_class": self.success_by_class,
            "success_probability": self.success_probability,
        }


@dataclass
class Witness:
    """One configuration: the turns of every selected tile and what it gives."""

    turns: dict[str, int]
    success: bool
    reachable_points: int

    def to_json(self) -> dict[str, Any]:
        return {
            "turns": self.turns,
            "success": self.success,
            "reachable_points": self.reachable_points,
        }


@dataclass
class CensusResult:
    """What :func:`census` found. ``partial`` says whether the run was cut short.

    Exact runs fill ``success``; sample runs fill ``estimate`` and ``interval``.
    When a run is interrupted during the count, ``success`` is None and
    ``success_bounds`` holds the lower and upper bound known so far.
    """

    method: str
    total: int
    sources: list[str]
    targets: list[str]
    galleries: str | None
    spider: str
    tiles: list[TileReport]
    success: int | None = None
    success_bounds: tuple[int, int] | None = None
    estimate: float | None = None
    interval: tuple[float, float] | None = None
    samples: int | None = None
    seed: int | None = None
    unreachable: Witness | None = None
    success_example: Witness | None = None
    fewest: Witness | None = None
    partial: bool = False
    missing: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    seconds: float = 0.0
    frontier_width: int | None = None
    max_states: int | None = None
    order: list[str] = field(default_factory=list)

    @property
    def fraction(self) -> float | None:
        if self.success is not None and self.total:
            return self.success / self.total
        return self.estimate

    def critical_tiles(self) -> list[TileReport]:
        """Tiles whose turn decides the answer in some context, most critical first."""
        return [t for t in self.tiles if (t.decided_fraction or 0) > 0]

    def to_json(self) -> dict[str, Any]:
        return {
            "method": self.method,
            "partial": self.partial,
            "missing": self.missing,
            "from": self.sources,
            "to": self.targets,
            "galleries": self.galleries,
            "spider": self.spider,
            "configurations": self.total,
            "success": self.success,
            "success_bounds": list(self.success_bounds) if self.success_bounds else None,
            "fraction": self.fraction,
            "estimate": self.estimate,
            "interval": list(self.interval) if self.interval else None,
            "samples": self.samples,
            "seed": self.seed,
            "tiles": [t.to_json() for t in self.tiles],
            "unreachable": self.unreachable.to_json() if self.unreachable else None,
            "success_example": self.success_example.to_json() if self.success_example else None,
            "fewest": self.fewest.to_json() if self.fewest else None,
            "notes": self.notes,
            "seconds": round(self.seconds, 4),
            "frontier_width": self.frontier_width,
            "max_states": self.max_states,
            "order": self.order,
        }


def wilson(successes: int, n: int, z: float = 1.959964) -> tuple[float, float]:
    """95 % Wilson score interval of a binomial proportion."""
    if n == 0:
        return (0.0, 1.0)
    p = successes / n
    den = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / den
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / den
    lo = 0.0 if successes == 0 else max(0.0, centre - half)
    hi = 1.0 if successes == n else min(1.0, centre + half)
    return (lo, hi)


def census(
    compiled: Any,
    *,
    sources: Sequence[str] | None = None,
    targets: Sequence[str] | None = None,
    tiles: str | Sequence[str] | None = "turnable",
    galleries: str | None = None,
    spider: str = "open",
    sample: int | None = None,
    seed: int = 0,
    workers: int = 1,
    progress: Progress | None = None,
    critical: bool = True,
    fewest: bool = True,
) -> CensusResult:
    """Count the configurations of the turnable tiles that keep the goal reachable.

    Parameters
    ----------
    compiled : CompiledBoard
        The board; its placements' current turns are used for the tiles not varied.
    sources, targets : node ids, optional
        ``from`` and ``to`` nodes (default: every white starting point; every goal).
    tiles : ``"turnable"`` or placement ids
        Which tiles vary.
    galleries : ``"moon"``, ``"star"`` or None
        Join the doors of this symbol (the face-up card's gallery).
    spider : ``"open"`` or ``"closed"``
        Whether the spider-guarded path counts.
    sample : int, optional
        Estimate from this many random configurations instead of counting exactly.
    seed : int
        Seed of the sample.
    workers : int
        Exact runs: with 2 or more, the counting passes (count and criticality) and
        the fewest-points search run in two processes side by side.
    progress : callable, optional
        ``progress(done, total, stage)``; return False to stop early (the result is
        then ``partial``). Ctrl-C (KeyboardInterrupt) stops the same way.
    critical, fewest : bool
        Compute the per-tile criticality and the fewest-reachable configuration.

    Returns
    -------
    CensusResult

    Notes
    -----
    Exact: the count is one frontier-DP sweep; the criticality of every tile one
    backward and one forward sweep more over the count's tables (not one sweep per
    tile); the fewest-points search one min-plus sweep; see :mod:`.exact` for the
    complexity. Sample: O(N · n · k) evaluations.
    """
    t0 = time.perf_counter()
    if workers < 1:
        raise UsageError("--workers must be at least 1")
    if sample is not None and sample < 1:
        raise UsageError("--sample must be a positive number of configurations")
    problem = build_problem(
        compiled, sources=sources, targets=targets, tiles=tiles, galleries=galleries, spider=spider
    )
    reports = [
        TileReport(tv.placement, tv.turn_count, tv.current, tv.symmetry) for tv in problem.tiles
    ]
    res = CensusResult(
        "sample" if sample else "exact",
        problem.total,
        problem.sources,
        problem.to_nodes,
        problem.galleries,
        problem.spider,
        reports,
        notes=list(problem.notes),
    )
    try:
        if sample:
            _sample(problem, res, sample, seed, progress, critical)
        else:
            _exact(problem, res, workers, progress, critical, fewest)
    finally:
        res.seconds = time.perf_counter() - t0
    res.tiles.sort(key=lambda r: (-(r.decided_fraction or 0.0), r.placement))
    return res


def _witness(problem: Problem, choice: Sequence[int]) -> Witness:
    ok, pts = problem.evaluate(choice)
    return Witness(problem.turns_of(choice), ok, pts)


class _Ticker:
    def __init__(self, progress: Progress | None, total: int) -> None:
        self.progress, self.total, self.done = progress, max(1, total), 0

    def __call__(self, stage: str, n: int = 1) -> None:
        self.done += n
        if (
            self.progress is not None
            and self.progress(min(self.done, self.total), self.total, stage) is False
        ):
            raise Cancelled(stage)


def _exact(
    problem: Problem,
    res: CensusResult,
    workers: int,
    progress: Progress | None,
    critical: bool,
    fewest: bool,
) -> None:
    plan = make_plan(problem)
    n = len(plan.steps)
    res.frontier_width = plan.width
    res.order = [problem.tiles[i].placement for i in plan.order]
    ticker = _Ticker(progress, n * (1 + int(critical) + int(fewest)))
    todo = (
        ["count"]
        + ([f"critical:{problem.tiles[i].placement}" for i in plan.order] if critical else [])
        + (["fewest"] if fewest else [])
    )
    res.missing = list(todo)
    if workers > 1 and fewest and n > 1:
        _exact_parallel(problem, plan, res, ticker, critical)
        return
    dp = FrontierDP(problem, plan, tick=lambda stage: ticker(stage))
    try:
        cr = dp.count()
        _take_count(problem, res, cr.success, cr.fail_witness, cr.success_witness, cr.max_states)
        res.missing.remove("count")
        if critical:
            _take_critical(res, problem, dp.criticality())
        dp.layers, dp.nxt = [], []
        if fewest:
            f = dp.fewest()
            _take_fewest(problem, res, f.witness, f.complete)
    except (KeyboardInterrupt, Cancelled):
        res.partial = True
        if "count" in res.missing:
            res.success_bounds = (dp.success, problem.total - dp.failure)


def _take_count(
    problem: Problem,
    res: CensusResult,
    success: int,
    fail_w: list[int] | None,
    succ_w: list[int] | None,
    max_states: int,
) -> None:
    res.success = success
    res.max_states = max(res.max_states or 0, max_states)
    if fail_w is not None:
        res.unreachable = _witness(problem, fail_w)
    if succ_w is not None:
        res.success_example = _witness(problem, succ_w)


def _take_fewest(problem: Problem, res: CensusResult, witness: list[int], exact: bool) -> None:
    res.fewest = _witness(problem, witness)
    res.missing.remove("fewest")
    if not exact:
        res.notes.append(
            "fewest reachable points: best found by a bounded search (the exact "
            "table grew too large), not a proven minimum"
        )


def _take_critical(res: CensusResult, problem: Problem, results: list[CriticalResult]) -> None:
    by_id = {r.placement: r for r in res.tiles}
    for c in results:
        pid = problem.tiles[c.tile].placement
        r = by_id[pid]
        r.contexts, r.decided, r.success_by_class = c.contexts, c.decided, list(c.success_by_class)
        res.missing.remove(f"critical:{pid}")


# ---------------------------------------------------------------------- processes
_WORKER: dict[str, Any] = {}


def _init_worker(problem: Problem, plan: Plan) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _WORKER["problem"], _WORKER["plan"] = problem, plan


def _job(kind: str) -> tuple[str, Any]:
    problem, plan = _WORKER["problem"], _WORKER["plan"]
    dp = FrontierDP(problem, plan)
    if kind == "fewest":
        f = dp.fewest()
        return kind, (f.witness, f.complete)
    r = dp.count()
    crit = dp.criticality() if kind == "census" else None
    return kind, ((r.success, r.fail_witness, r.success_witness, r.max_states), crit)


def _exact_parallel(
    problem: Problem,
    plan: Plan,
    res: CensusResult,
    ticker: _Ticker,
    critical: bool,
) -> None:
    """The counting passes (count, then criticality) and the fewest-points search in
    two processes side by side."""
    n = len(plan.steps)
    jobs = ["census" if critical else "count", "fewest"]
    ctx = multiprocessing.get_context(
        "fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn"
    )
    pool = ctx.Pool(len(jobs), initializer=_init_worker, initargs=(problem, plan))
    try:
        for kind, out in pool.imap_unordered(_job, jobs):
            if kind == "fewest":
                _take_fewest(problem, res, out[0], out[1])
                ticker(kind, n)
                continue
            (success, fail_w, succ_w, max_states), crit = out
            _take_count(problem, res, success, fail_w, succ_w, max_states)
            res.missing.remove("count")
            ticker("count", n)
            if crit is not None:
                _take_critical(res, problem, crit)
                ticker("critical", n)
        pool.close()
    except (KeyboardInterrupt, Cancelled):
        res.partial = True
        pool.terminate()
    finally:
        pool.join()


# ---------------------------------------------------------------------- sampling
def _sample(
    problem: Problem,
    res: CensusResult,
    n: int,
    seed: int,
    progress: Progress | None,
    critical: bool,
) -> None:
    rng = np.random.default_rng(seed)
    ks = [len(t.classes) for t in problem.tiles]
    res.samples, res.seed = n, seed
    nt = len(ks)
    chunk = 4096
    tb = _tables(problem)
    per_chunk = 1 + (sum(ks) if critical else 0)
    ticker = _Ticker(progress, per_chunk * ((n + chunk - 1) // chunk))
    done = succ = 0
    decided = [0] * nt
    by_class = [[0] * k for k in ks]
    best: tuple[int, np.ndarray] | None = None
    fail_choice: np.ndarray | None = None
    res.missing = ["sample"]
    try:
        while done < n:
            m = min(chunk, n - done)
            choices = (
                np.column_stack([rng.integers(0, k, m) for k in ks])
                if nt
                else np.zeros((m, 0), dtype=np.int64)
            )
            ok, pts = evaluate_many(problem, choices, True, tb)
            assert pts is not None
            ticker("sample")
            if critical:
                for i, k in enumerate(ks):
                    outs = []
                    for t in range(k):
                        c2 = choices.copy()
                        c2[:, i] = t
                        o, _ = evaluate_many(problem, c2, False, tb)
                        outs.append(o)
                        by_class[i][t] += int(o.sum())
                        ticker("sample")
                    stack = np.stack(outs)
                    decided[i] += int((stack.any(axis=0) & ~stack.all(axis=0)).sum())
            succ += int(ok.sum())
            j = int(pts.argmin())
            if best is None or int(pts[j]) < best[0]:
                best = (int(pts[j]), choices[j].copy())
            if fail_choice is None and not ok.all():
                fail_choice = choices[int(np.argmin(ok))].copy()
            done += m
        res.missing = []
    except (KeyboardInterrupt, Cancelled):
        res.partial = True
    res.samples = done
    if done:
        lo, hi = wilson(succ, done)
        res.estimate = succ / done
        res.interval = (lo, hi)
        if critical and not res.partial:
            for i, r in enumerate(res.tiles):
                r.decided_fraction_est = decided[i] / done
                r.success_probability_est = [c / done for c in by_class[i]]
    if fail_choice is not None:
        res.unreachable = _witness(problem, fail_choice.tolist())
    if best is not None:
        res.fewest = _witness(problem, best[1].tolist())
        res.notes.append("fewest reachable points: lowest seen in the sample, not a proven minimum")
