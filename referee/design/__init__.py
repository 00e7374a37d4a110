"""A board design assistant: search the layouts of a board's tiles (``referee design``).

- :mod:`.space`: the slots, what may move (tiles among slots of their outline, turns)
  and the pins;
- :mod:`.measure`: a layout's exact census (:mod:`referee.rotations`) and path lengths;
- :mod:`.objective`: weighted terms and the minimum-distance constraint;
- :mod:`.store`: every measured layout in SQLite (a re-run continues);
- :mod:`.search`: seeded simulated annealing (why not Optuna: see there);
- :mod:`.finalists`: bot balance of the best few, through :mod:`referee.balance`;
- :mod:`.report`: the best layouts as projects, pictures and a ranking table.
"""

from __future__ import annotations

from .measure import CensusOptions, Evaluator, Measures
from .objective import Objective
from .search import Budget, Candidate, DesignResult, Searcher, census_options, fixed_slots
from .space import Layout, Space, layout_key
from .store import DesignStore

__all__ = [
    "Budget",
    "Candidate",
    "CensusOptions",
    "DesignResult",
    "DesignStore",
    "Evaluator",
    "Layout",
    "Measures",
    "Objective",
    "Searcher",
    "Space",
    "census_options",
    "fixed_slots",
    "layout_key",
]
