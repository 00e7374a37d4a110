"""The objective: a weighted sum of terms, each "higher is better", and the constraints.

Terms (``--objective connected=1,criticality=0.5,…``; a weight may be negative):

``connected``
    The census's connected share (0 … 1).
``criticality``
    1 − the worst tile's decided share (1: no tile's turn ever decides the answer).
``path-mean``
    Mean steps from the starts to the goal at the initial turns, divided by the start
    board's (1 for the same length; a negative weight asks for shorter paths).
``path-spread``
    −(longest − shortest of those steps) / the start board's mean (0 when every start
    is as far from the goal).
``balance``
    −|first player's win rate − the fair share| from bot games (``referee balance``),
    measured only for the finalists of the search (:mod:`.finalists`).

Constraint: ``min_distance`` — every start reaches a goal at the initial turns, and
in at least that many steps (so the board can be played as laid and no start is too
near the goal). A candidate
that misses it is stored and reported, never chosen while one that meets it exists.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..errors import UsageError
from .measure import Measures

TERMS = ("connected", "criticality", "path-mean", "path-spread", "balance")
PATH_TERMS = ("path-mean", "path-spread")
#: how much a step short of the minimum distance costs in the search
PENALTY = 1.0


@dataclass(frozen=True)
class Objective:
    weights: dict[str, float] = field(default_factory=lambda: {"connected": 1.0})
    min_distance: int | None = None

    @classmethod
    def parse(cls, text: str | None, min_distance: int | None = None) -> Objective:
        """``"connected=1,criticality=0.5"`` (a bare term weighs 1)."""
        weights: dict[str, float] = {}
        for part in (text or "connected").split(","):
            part = part.strip()
            if not part:
                continue
            name, _, w = part.partition("=")
            name = name.strip()
            if name not in TERMS:
                raise UsageError(
                    f"--objective {part}: unknown term {name!r} (terms: {', '.join(TERMS)})"
                )
            if name in weights:
                raise UsageError(f"--objective: {name!r} is given twice")
            try:
                weights[name] = float(w) if w.strip() else 1.0
            except ValueError:
                raise UsageError(f"--objective {part}: the weight must be a number") from None
            if weights[name] != weights[name] or abs(weights[name]) == float("inf"):
                raise UsageError(f"--objective {part}: the weight must be a finite number")
        if not weights or all(v == 0 for v in weights.values()):
            raise UsageError("--objective: every weight is zero; nothing to search for")
        if min_distance is not None and min_distance < 0:
            raise UsageError(f"--min-distance must be at least 0, not {min_distance}")
        return cls(weights, min_distance)

    @classmethod
    def from_description(cls, text: str) -> Objective:
        """The objective :meth:`describe` wrote (``"connected=1, min-distance=3"``):
        the terms as :meth:`parse` reads them, and ``min-distance=N``."""
        terms, min_distance = [], None
        for part in (p.strip() for p in text.split(",")):
            name, _, value = part.partition("=")
            if name.strip() == "min-distance":
                try:
                    min_distance = int(value)
                except ValueError:
                    raise UsageError(f"objective {part}: the distance must be a number") from None
            elif part:
                terms.append(part)
        return cls.parse(",".join(terms), min_distance)

    @property
    def needs_criticality(self) -> bool:
        return bool(self.weights.get("criticality"))

    @property
    def needs_paths(self) -> bool:
        return self.min_distance is not None or any(self.weights.get(t) for t in PATH_TERMS)

    def terms(self, m: Measures, base: Measures) -> dict[str, float]:
        """Each weighted term's value (``balance`` only once it is measured)."""
        out: dict[str, float] = {}
        scale = base.path_mean or 1.0
        for name in self.weights:
            if name == "connected":
                out[name] = m.connected
            elif name == "criticality":
                out[name] = 1.0 - (m.worst_criticality or 0.0)
            elif name == "path-mean":
                out[name] = (m.path_mean or 0.0) / scale
            elif name == "path-spread":
                spread = m.path_spread
                out[name] = -(spread if spread is not None else scale) / scale
        return out

    def violation(self, m: Measures) -> int:
        """How far the layout is from the constraint (0: it holds): the most steps any
        start is short of the minimum distance; a start that reaches no goal at the
        initial turns is the minimum distance short (at least 1)."""
        if self.min_distance is None or m.steps is None:
            return 0
        d = self.min_distance
        return max((max(d, 1) if s is None else max(0, d - s) for s in m.steps.values()), default=0)

    def score(self, m: Measures, base: Measures, balance: float | None = None) -> float:
        """The weighted sum (without the balance term unless ``balance`` is given)."""
        t = self.terms(m, base)
        s = sum(self.weights[k] * v for k, v in t.items())
        if balance is not None and "balance" in self.weights:
            s += self.weights["balance"] * balance
        return s

    def describe(self) -> str:
        parts = [f"{k}={v:g}" for k, v in self.weights.items()]
        if self.min_distance is not None:
            parts.append(f"min-distance={self.min_distance}")
        return ", ".join(parts)
