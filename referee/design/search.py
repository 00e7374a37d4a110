"""The search: simulated annealing over the layouts, seeded, resumable, stored.

Why not a library optimiser (Optuna is on PyPI): the free part of a board is a
*permutation* of tiles over slots (plus turns), and the samplers of Optuna (TPE,
CMA-ES, GP, NSGA-II) draw each parameter on its own — a permutation written as
independent choices is almost never a permutation, and written as random keys or a
Lehmer code a small change of the parameters is a large change of the board, which
is what those samplers rely on. A swap of two tiles is the natural small step, and
one census costs tens of milliseconds, so a local search of thousands of steps is
cheap. Annealing is a dozen lines over :meth:`~.space.Space.propose`, and its state
is the seed: no second storage (Optuna keeps its own database through SQLAlchemy).

Resuming: the chain is a function of the seed and the step (proposals and acceptance draw from
one ``random.Random(seed)``; measures are deterministic), so a re-run with the same
seed walks the same chain, takes each measured layout from the store instead of
measuring it again, and goes on from where the last run stopped. A count budget
(``--budget 2000``) is reproducible; a time budget (``--budget 10m``) stops the same
chain at another step on a busier machine.
"""

from __future__ import annotations

import math
import random
import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..compiler import CompiledBoard
from ..errors import UsageError
from ..rotations import build_problem
from .measure import CensusOptions, Evaluator, Measures
from .objective import PENALTY, Objective
from .space import Layout, Space, layout_key
from .store import DesignStore

#: progress(step, steps or None, measured, cached, best score, elapsed seconds)
Progress = Callable[[int, int | None, int, int, float, float], None]

#: annealing temperatures, per unit of the objective's total weight, cooled over one
#: cycle of CYCLE steps; each cycle starts again from the best layout so far. The
#: schedule depends on the step only, never on the budget, so a longer budget walks
#: the same chain further (a re-run continues where the last one stopped).
T_START, T_END = 0.05, 0.0005
CYCLE = 400


@dataclass(frozen=True)
class Budget:
    steps: int | None = None
    seconds: float | None = None

    @classmethod
    def parse(cls, text: str) -> Budget:
        """``2000`` (candidates), ``90s``, ``10m`` or ``1h``."""
        t = text.strip().lower()
        m = re.fullmatch(r"(\d+(?:\.\d+)?)\s*([smh])", t)
        if m:
            secs = float(m.group(1)) * {"s": 1, "m": 60, "h": 3600}[m.group(2)]
            if secs <= 0:
                raise UsageError(f"--budget {text}: must be more than nothing")
            return cls(seconds=secs)
        if t.isdigit() and int(t) > 0:
            return cls(steps=int(t))
        raise UsageError(f"--budget {text}: a number of candidates (2000) or a time (90s, 10m, 1h)")

    def describe(self) -> str:
        return f"{self.steps} candidates" if self.steps else f"{self.seconds:g} s"


@dataclass
class Candidate:
    key: str
    layout: Layout
    measures: Measures
    score: float
    violation: int
    changes: list[str] = field(default_factory=list)
    balance: dict[str, Any] | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "key": self.key,
            "score": self.score,
            "violation": self.violation,
            "changes": self.changes,
            "layout": [list(c) for c in self.layout],
            "measures": self.measures.to_json(),
            "balance": self.balance,
        }


@dataclass
class DesignResult:
    objective: Objective
    space: Space
    base: Candidate
    best: list[Candidate]
    steps: int
    measured: int
    cached: int
    interrupted: bool
    seconds: float
    space_key: str
    seed: int
    #: ``--compare``: another layout of the same slots, measured the same way
    compare: Candidate | None = None

    @property
    def feasible(self) -> bool:
        return bool(self.best) and self.best[0].violation == 0


def census_options(
    compiled: CompiledBoard,
    sources: list[str] | None = None,
    targets: list[str] | None = None,
    galleries: str | None = None,
    spider: str = "open",
) -> CensusOptions:
    """The start and goal nodes and options, checked as ``referee turns`` checks them."""
    p = build_problem(
        compiled, sources=sources, targets=targets, galleries=galleries, spider=spider
    )
    return CensusOptions(list(p.sources), list(p.to_nodes), p.galleries, p.spider)


def fixed_slots(compiled: CompiledBoard, opts: CensusOptions) -> list[str]:
    """The slots that hold a start or goal node."""
    out = []
    for n in opts.sources + opts.targets:
        owner = compiled.features[n][0]
        if owner and owner not in out:
            out.append(owner)
    return out


def describe_space(space: Space, compiled: CompiledBoard, opts: CensusOptions) -> dict[str, Any]:
    """What decides a layout's measures besides the layout (the store's space key)."""
    description: dict[str, Any] = {
        "board": compiled.hash,
        "from": opts.sources,
        "to": opts.targets,
        "galleries": opts.galleries,
        "spider": opts.spider,
    }
    if space.pack is not None:
        # a layout's measures then also depend on the pack's tiles it uses
        description["pack"] = space.pack_fingerprint()
    return description


class Searcher:
    """One design problem: a space, its measures and the store."""

    def __init__(
        self,
        space: Space,
        compiled: CompiledBoard,
        opts: CensusOptions,
        objective: Objective,
        store: DesignStore,
        mode: str = "incremental",
    ) -> None:
        self.space, self.objective, self.store = space, objective, store
        paths = objective.needs_paths
        self.evaluator = Evaluator.of(
            space, compiled, opts, paths=paths, critical=objective.needs_criticality, mode=mode
        )
        #: the finalists' criticality when the search measured without it
        self.finishing = Evaluator.of(space, compiled, opts, paths=paths, mode=mode)
        self.space_key = store.begin(describe_space(space, compiled, opts))
        self.measured = 0
        self.cached = 0

    def _complete(self, m: Measures | None) -> bool:
        """Whether stored measures hold what the objective reads."""
        return (
            m is not None
            and (m.steps is not None or not self.objective.needs_paths)
            and (m.worst_criticality is not None or not self.objective.needs_criticality)
        )

    def measure(self, layout: Layout) -> Measures:
        """The layout's measures: from the store, else measured and stored."""
        key = layout_key(layout)
        got = self.store.get(self.space_key, key)
        if got is not None and self._complete(got):
            self.cached += 1
            return got
        m = self.evaluator(layout)
        self.store.put(self.space_key, key, layout, m)
        self.measured += 1
        return m

    def finish(self, c: Candidate) -> Candidate:
        """A finalist measured with its criticality (stored for the next run)."""
        if c.measures.worst_criticality is None:
            c.measures = self.finishing(c.layout)
            self.store.put(self.space_key, c.key, c.layout, c.measures)
        return c

    def violation(self, layout: Layout, m: Measures) -> int:
        """How far from the constraints: steps short of the minimum distance plus
        slots out of symmetry (0: every constraint holds)."""
        return self.objective.violation(m) + self.space.asymmetry(layout)

    def candidate(self, layout: Layout, m: Measures, base: Measures) -> Candidate:
        return Candidate(
            layout_key(layout),
            layout,
            m,
            self.objective.score(m, base),
            self.violation(layout, m),
            self.space.changes(layout),
        )

    def _climb(self, layout: Layout, m: Measures, base: Measures) -> float:
        """What the search climbs: the score less a penalty per unit of violation."""
        return self.objective.score(m, base) - PENALTY * self.violation(layout, m)

    def run(
        self,
        budget: Budget,
        seed: int = 0,
        top: int = 5,
        progress: Progress | None = None,
        *,
        stop: Callable[[], bool] | None = None,
        improved: Callable[[Candidate], None] | None = None,
    ) -> DesignResult:
        """Anneal from the start layout for ``budget``; Ctrl-C stops with what is found.

        ``stop()`` is asked before each step (True: stop as Ctrl-C does);
        ``improved(candidate)`` hears of each layout better than any before in the run.
        """
        t0 = time.perf_counter()
        obj = self.objective
        self.measured = self.cached = 0
        original = self.measure(self.space.original)
        base = self.finish(self.candidate(self.space.original, original, original))
        rng = random.Random(seed)
        weight = sum(abs(w) for w in obj.weights.values())
        cur = self.space.start
        cur_s = self._climb(cur, self.measure(cur), original)
        best, best_s = cur, cur_s
        step = 0
        interrupted = False
        last = 0.0
        try:
            while True:
                elapsed = time.perf_counter() - t0
                if budget.steps is not None and step >= budget.steps:
                    break
                if budget.seconds is not None and elapsed >= budget.seconds:
                    break
                if stop is not None and stop():
                    interrupted = True
                    break
                phase = step % CYCLE
                if phase == 0 and step:
                    cur, cur_s = best, best_s  # each cycle starts again from the best
                temp = weight * T_START * (T_END / T_START) ** (phase / (CYCLE - 1))
                cand = self.space.propose(cur, rng)
                m = self.measure(cand)
                s = self._climb(cand, m, original)
                u = rng.random()
                if s >= cur_s or u < math.exp((s - cur_s) / temp):
                    cur, cur_s = cand, s
                if s > best_s:
                    best, best_s = cand, s
                    if improved is not None:
                        improved(self.candidate(cand, m, original))
                step += 1
                if progress is not None and (elapsed - last >= 0.5 or step == budget.steps):
                    last = elapsed
                    progress(step, budget.steps, self.measured, self.cached, best_s, elapsed)
        except KeyboardInterrupt:
            interrupted = True
        ranked = self.best(original, top)
        self.store.record_run(
            space=self.space_key,
            seed=seed,
            objective=obj.describe(),
            budget=budget.describe(),
            steps=step,
            evaluated=self.measured,
            best=ranked[0].key if ranked else "",
            interrupted=int(interrupted),
        )
        return DesignResult(
            obj,
            self.space,
            base,
            ranked,
            step,
            self.measured,
            self.cached,
            interrupted,
            time.perf_counter() - t0,
            self.space_key,
            seed,
        )

    def compare(self, result: DesignResult, layout: Layout) -> Candidate:
        """Measure ``layout`` beside the result (``--compare``) and keep it there."""
        c = self.finish(self.candidate(layout, self.measure(layout), result.base.measures))
        result.compare = c
        return c

    def best(self, original: Measures, top: int) -> list[Candidate]:
        """The ``top`` best stored candidates this space allows (meeting the constraint
        first, then by score, then by key), measured in any run."""
        out = []
        for _key, layout, m in self.store.all(self.space_key):
            if not self.space.allows(layout):  # other pins or --count caps
                continue
            if not self._complete(m):
                continue
            out.append(self.candidate(layout, m, original))
        out.sort(key=lambda c: (c.violation, -c.score, c.key))
        return [self.finish(c) for c in out[:top]]
