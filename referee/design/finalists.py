"""The ``balance`` term: bot games on the finalists only, as ``referee balance`` plays them.

Bot games cost seconds each where a census costs milliseconds, so the search ranks
by the other terms and only its ``--top`` finalists (and the start board) are
played: the same :class:`~referee.balance.Study` (seeded games, stored in the
design's database, resumed on a re-run) on the same engines (local processes or
Dask). Each finalist gets its first player's advantage (the first player's win rate
less the fair share 1/seats) with a 95 % interval, and the one-sided p of the
two-proportion z-test that its first player wins more often than on the start board
(same seeds). The finalists are then re-ranked with the balance term
(−|advantage|) in the score.
"""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

from ..balance import make_engine, run_study
from ..balance.stats import two_proportion_z
from ..bots import parse_bots
from ..store import save_project
from .search import Candidate, DesignResult
from .store import SHARED


def _n_specs(bots: str) -> int:
    return len(
        [s for s in bots.replace(";", ",").split(",") if s.strip() and "=" not in s.split(":")[0]]
    )


def first_player(summary: dict[str, Any]) -> dict[str, Any]:
    fp = summary["first_player"]
    won = fp["first_player_won"]
    fair = fp["fair_share"] or 0.0
    return {
        "wins": won["wins"],
        "games": won["games"],
        "advantage": round(won["rate"] - fair, 4),
        "ci95": [round(won["ci95"][0] - fair, 4), round(won["ci95"][1] - fair, 4)],
    }


def play_finalists(
    result: DesignResult,
    *,
    rules: str,
    bots: str,
    players: int | None,
    games: int,
    options: dict[str, Any],
    max_moves: int,
    engine: str,
    workers: int | None,
    scheduler: str | None,
    db: str,
    out: str | None,
    progress: bool,
) -> None:
    """Play the start board and each finalist; fill ``balance`` and re-rank ``result.best``."""
    from ..balance.study import Study

    seats = players or max(2, _n_specs(bots))
    specs = tuple(parse_bots(bots, seats))
    eng = make_engine(engine, workers=workers, scheduler=scheduler)
    with tempfile.TemporaryDirectory(prefix="design-balance-") as tmp:
        folder = Path(out) / "balance" if out else Path(tmp)
        folder.mkdir(parents=True, exist_ok=True)
        base_path = folder / "start.bwproj"
        save_project(result.space.board_of(result.base.layout), base_path)
        study = Study(
            rules, str(base_path), seats, games, specs, options=options, max_moves=max_moves
        )
        base_rep = run_study(study, db=db, engine=eng, progress=progress, shared=SHARED)
        base_fp = first_player(base_rep["summary"])
        result.base.balance = {**base_fp, "p": None}
        for c in result.best:
            path = folder / f"{c.key}.bwproj"
            save_project(result.space.board_of(c.layout), path)
            rep = run_study(
                Study(rules, str(path), seats, games, specs, options=options, max_moves=max_moves),
                db=db,
                engine=eng,
                progress=progress,
                shared=SHARED,
            )
            fp = first_player(rep["summary"])
            z, p = two_proportion_z(fp["wins"], fp["games"], base_fp["wins"], base_fp["games"])
            one_sided = p / 2 if z > 0 else 1 - p / 2
            c.balance = {**fp, "p": round(one_sided, 4), "z": round(z, 3)}
    _rescore(result)


def _rescore(result: DesignResult) -> None:
    obj = result.objective
    base = result.base.measures

    def term(c: Candidate) -> float | None:
        return None if c.balance is None else -abs(float(c.balance["advantage"]))

    for c in [result.base, *result.best]:
        c.score = obj.score(c.measures, base, term(c))
    result.best.sort(key=lambda c: (c.violation, -c.score, c.key))
