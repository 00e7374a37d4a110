"""The ``balance`` term: bot games on the finalists only, as ``referee balance`` plays them.

Bot games cost seconds each where a census costs milliseconds, so the search ranks
by the other terms and only its ``--top`` finalists (and the start board) are
played: the same :class:`~referee.balance.Study` (seeded games, stored in the
design's database, resumed on a re-run; seats rotate when the bots differ) on the
same engines (local processes or Dask). Without ``--bots`` every seat gets
:data:`DEFAULT_BOT`, the kit's Monte Carlo tree search on a small budget: random
bots play so badly that who moves first hardly decides anything, and a first
player's advantage measured with them is noise.

Each finalist gets its first player's advantage over the **decided** games (a game
that hits the move limit, or that every seat wins, says nothing about who is
favoured): the first player's win rate among them less the fair share 1/seats,
with its 95 % Wilson interval, and the one-sided p of the two-proportion z-test
that its first player wins more often than on the start board (same seeds). The
finalists are then re-ranked with the balance term (−|advantage|; a board with no
decided game counts as the least fair, −(1 − 1/seats)) in the score.
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


def n_specs(bots: str) -> int:
    """How many seats a ``--bots`` text names."""
    return len(
        [s for s in bots.replace(";", ",").split(",") if s.strip() and "=" not in s.split(":")[0]]
    )


#: the bot of every seat when ``--bots`` is not given (see the module notes)
DEFAULT_BOT = "mcts:iterations=8,rollout=2"
#: the level of :func:`verdict`'s test
ALPHA = 0.05


def first_player(summary: dict[str, Any]) -> dict[str, Any]:
    """The first player's advantage over the decided games of one study's summary."""
    fp = summary["first_player"]
    played = fp["first_player_won"]["games"]
    won = fp["first_player_won_decided"]
    fair = fp["fair_share"] or 0.0
    decided = won["games"]
    return {
        "wins": won["wins"],
        "decided": decided,
        "games": played,
        "fair_share": fair,
        "advantage": round(won["rate"] - fair, 4) if decided else None,
        "ci95": [round(won["ci95"][0] - fair, 4), round(won["ci95"][1] - fair, 4)]
        if decided
        else None,
    }


def compare_first_player(fp: dict[str, Any], base: dict[str, Any]) -> dict[str, Any]:
    """``p`` (one-sided: the first player wins more of the decided games than on the
    start board) and ``z`` of the two-proportion z-test."""
    z, p = two_proportion_z(fp["wins"], fp["decided"], base["wins"], base["decided"])
    one_sided = p / 2 if z > 0 else 1 - p / 2
    return {"p": round(one_sided, 4), "z": round(z, 3)}


def verdict(result: DesignResult) -> str | None:
    """One sentence on the best finalist's first-player advantage against the start
    board's (None when no balance was played)."""
    if not result.best or result.best[0].balance is None or result.base.balance is None:
        return None
    b, s = result.best[0].balance, result.base.balance

    def adv(x: dict[str, Any]) -> str:
        if x["advantage"] is None:
            return f"none of {x['games']} games decided"
        lo, hi = x["ci95"]
        return (
            f"{x['advantage']:+.3f} [{lo:+.3f}, {hi:+.3f}] over {x['decided']} decided "
            f"of {x['games']} games"
        )

    p = b.get("p")
    if p is None or b["advantage"] is None or s["advantage"] is None:
        tail = "no test (a board has no decided game)"
    else:
        said = "significantly larger" if p < ALPHA else "not significantly larger"
        tail = f"one-sided p = {p:.3f}: {said} than the start board's (at {ALPHA:g})"
    return (
        f"first-player advantage (win rate − fair share, 95 % interval): best "
        f"{adv(b)}; start {adv(s)}; {tail}"
    )


def play_finalists(
    result: DesignResult,
    *,
    rules: str,
    bots: str | None,
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

    bots = bots or DEFAULT_BOT
    seats = players or max(2, n_specs(bots))
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
            c.balance = {**fp, **compare_first_player(fp, base_fp)}
    _rescore(result)


def _rescore(result: DesignResult) -> None:
    obj = result.objective
    base = result.base.measures

    def term(c: Candidate) -> float | None:
        if c.balance is None:
            return None
        if c.balance["advantage"] is None:  # no decided game: the least fair
            return -(1.0 - float(c.balance["fair_share"]))
        return -abs(float(c.balance["advantage"]))

    for c in [result.base, *result.best]:
        c.score = obj.score(c.measures, base, term(c))
    result.best.sort(key=lambda c: (c.violation, -c.score, c.key))
