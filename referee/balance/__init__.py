"""Balance studies: many seeded games between bots, stored, reported, compared.

- :mod:`.runner` plays one game of a study (:class:`Job` -> record);
- :mod:`.engines` runs the games on local processes or a Dask cluster;
- :mod:`.store` keeps every finished game in SQLite (a re-run resumes);
- :mod:`.report` and :mod:`.stats` compute win rates with Wilson intervals, the
  first player's advantage, lengths, endings, rules fired, and the comparison of
  two boards with p-values; :mod:`.heatmap` draws where figures went on the board;
- :mod:`.study` ties them together (``referee balance``).
"""

from __future__ import annotations

from .engines import DaskEngine, Engine, EngineError, LocalEngine, make_engine
from .runner import Job, play
from .store import ResultStore
from .study import Study, run_study

__all__ = [
    "DaskEngine",
    "Engine",
    "EngineError",
    "Job",
    "LocalEngine",
    "ResultStore",
    "Study",
    "make_engine",
    "play",
    "run_study",
]
