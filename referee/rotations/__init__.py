"""Rotation connectivity analysis: which turns of the tiles keep the board playable.

Public API (Qt-free, used by ``referee turns`` and the editor's dock):

- :func:`census` ``(compiled, *, sources, targets, tiles, galleries, spider, sample, seed,
  workers, progress) -> CensusResult`` — exact (frontier DP, no enumeration) or sampled
  count of the configurations that connect every ``to`` node to a ``from`` node, per-tile
  symmetry and criticality, a failing configuration and the one with the fewest
  reachable points. ``progress(done, total, stage)`` may return False to stop; the
  result is then marked ``partial``.
- :func:`legal_turns` ``(compiled, tile) -> LegalTurns`` — turns of one tile whose ports
  all meet a path on the other side, with the reason for each rejected turn.
- :func:`apply_turns` ``(board, turns) -> Board`` — a copy with the placements turned.
- :func:`write_witness` ``(board, witness, path)`` — that copy as a project (and a
  picture when the SVG renderer is available).

See :mod:`.census` for the precise definitions of the figures and :mod:`.exact` for
the method.
"""

from __future__ import annotations

from .census import CensusResult, TileReport, Witness, census, wilson
from .exact import FrontierDP
from .legal import LegalTurns, TurnVerdict, legal_turns
from .structure import Problem, build_problem, turn_classes
from .write import apply_turns, write_witness

__all__ = [
    "CensusResult",
    "FrontierDP",
    "LegalTurns",
    "Problem",
    "TileReport",
    "TurnVerdict",
    "Witness",
    "apply_turns",
    "build_problem",
    "census",
    "legal_turns",
    "turn_classes",
    "wilson",
    "write_witness",
]
