"""Riddle of the Ring: complete random games per minute on the sample map.

Each game is played from the deal to its end by picking uniformly among the legal
moves (seeded), with a round limit (``--rounds``, default 100) so that every game
ends: by a win (The Ring shown on the goal) or as a draw at the limit. The figure is
measured side by side in this process for the referee as shipped and for a baseline
without the per-board cache of movement paths (every legal-move listing asks the
movement referee again).

Usage::

    python bench/selfplay_riddle.py [--games 40] [--players 4] [--rounds 100]

The last line is one JSON object with the figures.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

from referee.compiler import compile_board  # noqa: E402
from referee.games.riddle import RiddleGame  # noqa: E402
from referee.store import load_project  # noqa: E402


def run(compiled, games: int, players: int, rounds: int, options: dict, cached: bool) -> dict:
    RiddleGame.cache_paths = cached
    compiled.forget("riddle.paths")
    plies = wins = 0
    t0 = time.perf_counter()
    for seed in range(games):
        g = RiddleGame.new(
            compiled, players=players, seed=seed, options={"turn_limit": rounds, **options}
        )
        rnd = random.Random(seed)
        while g.outcome is None:
            g.push(rnd.choice(list(g.legal_moves)))
            plies += 1
        wins += g.outcome["result"] == "won"
    dt = time.perf_counter() - t0
    RiddleGame.cache_paths = True
    return {
        "games": games,
        "seconds": round(dt, 3),
        "games_per_minute": round(games / dt * 60, 1),
        "plies": plies,
        "plies_per_second": round(plies / dt),
        "wins": wins,
        "draws_at_round_limit": games - wins,
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--project", default=str(ROOT / "projects" / "riddle-sample"))
    ap.add_argument("--games", type=int, default=40)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--rounds", type=int, default=100)
    a = ap.parse_args()
    compiled = compile_board(load_project(a.project))
    rows = []
    for label, opts in (("basic", {}), ("recommended", {"recommended": True})):
        for cached in (False, True):
            r = run(compiled, a.games, a.players, a.rounds, opts, cached)
            r.update(game=label, referee="shipped" if cached else "baseline (no path cache)")
            rows.append(r)
    print(
        f"Riddle of the Ring self-play: {a.games} random games per row, {a.players} players, "
        f"round limit {a.rounds}, board {Path(a.project).name}"
    )
    print(f"{'game':12} {'referee':26} {'games/min':>10} {'plies/s':>9} {'wins':>5} {'draws':>6}")
    for r in rows:
        print(
            f"{r['game']:12} {r['referee']:26} {r['games_per_minute']:>10} "
            f"{r['plies_per_second']:>9} {r['wins']:>5} {r['draws_at_round_limit']:>6}"
        )
    shipped = [r for r in rows if r["referee"] == "shipped"]
    base = [r for r in rows if r["referee"] != "shipped"]
    speedup = [
        round(s["games_per_minute"] / b["games_per_minute"], 2) for s, b in zip(shipped, base)
    ]
    print(
        f"speed-up of the path cache: {', '.join(f'{x}x' for x in speedup)}; "
        f"target >= 200 games/min: {'met' if min(r['games_per_minute'] for r in shipped) >= 200 else 'NOT met'}"
    )
    print(
        json.dumps(
            {
                "bench": "selfplay_riddle",
                "players": a.players,
                "rounds": a.rounds,
                "games": a.games,
                "rows": rows,
                "speedup": speedup,
                "min_games_per_minute": min(r["games_per_minute"] for r in shipped),
            }
        )
    )


if __name__ == "__main__":
    main()
