"""What a candidate layout measures: its census and its path lengths.

- **census** (:func:`referee.rotations.census`, exact): the share of the turn
  configurations that connect every goal to a start, and the worst criticality
  (the largest share of contexts in which one tile's turn decides the answer).
- **paths** (only when an objective or constraint reads them): steps, point to point
  along the paths with the tiles at their initial turns, from each start to the
  nearest goal (:meth:`~referee.compiler.CompiledBoard.point_graph`); their mean,
  their spread (longest − shortest) and the shortest. A start that reaches no goal
  at the initial turns counts in ``unreached``.

:class:`Evaluator` measures a layout in one of two ways that give the same figures
(``tests/referee/design`` and ``bench/design.py`` check it):

- ``incremental`` (the default): the census of a layout is keyed by what decides
  it (:meth:`~.space.Space.census_key`: the tile in each slot and the turns of the
  tiles that do not turn in play), so a move that only changes the initial turn of
  a turning tile reuses it; and it is computed from the board's placements without
  compiling the board (the census reduction needs only the placements, the snapping
  tolerance and the start and goal nodes, which the pinned slots keep).
- ``full``: compile the candidate board and run the census on it, every time.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from ..compiler import CompiledBoard, compile_board
from ..model import Board
from ..rotations import census
from .space import Layout, Space


@dataclass
class Measures:
    """The figures of one layout (JSON-ready through :meth:`to_json`)."""

    success: int
    total: int
    #: None when measured without the criticality passes (no criticality term)
    worst_criticality: float | None
    worst_tile: str | None
    steps: dict[str, int | None] | None = None
    seconds: float = 0.0

    @property
    def connected(self) -> float:
        return self.success / self.total if self.total else 0.0

    def _reached(self) -> list[int]:
        return [s for s in (self.steps or {}).values() if s is not None]

    @property
    def path_mean(self) -> float | None:
        r = self._reached()
        return sum(r) / len(r) if r else None

    @property
    def path_spread(self) -> int | None:
        r = self._reached()
        return max(r) - min(r) if r else None

    @property
    def path_min(self) -> int | None:
        r = self._reached()
        return min(r) if r else None

    @property
    def unreached(self) -> int:
        return sum(1 for s in (self.steps or {}).values() if s is None)

    def to_json(self) -> dict[str, Any]:
        return {
            "success": self.success,
            "total": self.total,
            "connected": self.connected,
            "worst_criticality": self.worst_criticality,
            "worst_tile": self.worst_tile,
            "steps": self.steps,
            "seconds": round(self.seconds, 4),
        }

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Measures:
        return cls(
            int(d["success"]),
            int(d["total"]),
            None if d.get("worst_criticality") is None else float(d["worst_criticality"]),
            d.get("worst_tile"),
            d.get("steps"),
            float(d.get("seconds", 0.0)),
        )


@dataclass
class CensusOptions:
    """The census's ``--from``/``--to``/``--galleries``/``--spider``, resolved."""

    sources: list[str]
    targets: list[str]
    galleries: str | None = None
    spider: str = "open"


@dataclass
class _Placements:
    """What the census reduction reads of a compiled board: the board's placements,
    the snapping tolerance and the start and goal nodes (from the start board's
    compile; they lie on pinned slots or on the board itself)."""

    board: Board
    tol: float
    features: dict[str, Any]
    graph: Any  # the start board's graph (read for default start and goal nodes only)


CensusFigures = tuple[int, int, float | None, str | None]


def measure_census(compiled: Any, opts: CensusOptions, critical: bool = True) -> CensusFigures:
    """(success, total, worst criticality, its tile) of one board, exact; without
    ``critical`` the count alone (criticality None), about a third faster."""
    res = census(
        compiled,
        sources=opts.sources,
        targets=opts.targets,
        galleries=opts.galleries,
        spider=opts.spider,
        fewest=False,
        critical=critical,
    )
    if res.partial or res.success is None:
        # the census stops on Ctrl-C with what it has; a design run stops too, and
        # stores nothing partial
        raise KeyboardInterrupt
    if not critical:
        return res.success, res.total, None, None
    worst = max(res.tiles, key=lambda t: t.decided_fraction or 0.0, default=None)
    frac = (worst.decided_fraction or 0.0) if worst else 0.0
    return res.success, res.total, frac, worst.placement if worst and frac > 0 else None


def measure_steps(compiled: CompiledBoard, opts: CensusOptions) -> dict[str, int | None]:
    """Steps from each start to its nearest goal at the initial turns (None: none)."""
    pg = compiled.point_graph()
    best: dict[int, int] = {}
    for t in opts.targets:
        idx = compiled.index.get(t)
        if idx is None or idx not in pg.neighbours:
            continue
        for n, d in pg.steps_from(idx).items():
            if d < best.get(n, d + 1):
                best[n] = d
    return {s: best.get(compiled.index[s]) for s in opts.sources if s in compiled.index}


@dataclass
class Evaluator:
    """Measures layouts of one :class:`~.space.Space` (see the module notes)."""

    space: Space
    opts: CensusOptions
    tol: float
    features: dict[str, Any]
    graph: Any
    paths: bool = False
    critical: bool = True
    mode: str = "incremental"
    census_memo: dict[str, CensusFigures] = field(default_factory=dict)
    evaluated: int = 0

    @classmethod
    def of(cls, space: Space, compiled: CompiledBoard, opts: CensusOptions, **kw: Any) -> Evaluator:
        return cls(space, opts, compiled.tol, compiled.features, compiled.graph, **kw)

    def __call__(self, layout: Layout) -> Measures:
        t0 = time.perf_counter()
        board = self.space.board_of(layout)
        compiled: CompiledBoard | None = None
        if self.mode == "full":
            compiled = compile_board(board)
            c = measure_census(compiled, self.opts, self.critical)
        else:
            key = self.space.census_key(layout)
            got = self.census_memo.get(key)
            if got is None:
                got = measure_census(
                    _Placements(board, self.tol, self.features, self.graph),
                    self.opts,
                    self.critical,
                )
                self.census_memo[key] = got
            c = got
        steps = None
        if self.paths:
            steps = measure_steps(compiled or compile_board(board), self.opts)
        self.evaluated += 1
        return Measures(*c, steps=steps, seconds=time.perf_counter() - t0)
