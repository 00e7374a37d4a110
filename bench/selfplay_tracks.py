"""Self-play speed of the two track games, shipped referee against a naive baseline.

Plays complete seeded games with uniformly random legal moves on
``projects/mount-doom`` and ``projects/lotr-coop`` and reports games and moves per
second, side by side in one process:

- **shipped**: ``Game.push`` — ``check`` is a membership test on the legal moves,
  then one JSON snapshot (the rollback guard of :mod:`referee.games.base`) and the
  apply;
- **baseline**: validation by trial — every move is first applied to a full copy of
  the state (``from_json(to_json())``), and only then to the real game: the obvious
  way to guarantee "a rejected move changes nothing" without a legal-move check.

Usage: ``python bench/selfplay_tracks.py [--games 200 --players 3]``. The last line is
one JSON object with the figures.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent

from referee.compiler import compile_board  # noqa: E402
from referee.games import get_game  # noqa: E402
from referee.store import load_project  # noqa: E402


def run(rules: str, games: int, players: int, baseline: bool) -> dict[str, Any]:
    cls = get_game(rules)
    compiled = compile_board(load_project(ROOT / "projects" / rules))
    moves = wins = 0
    t0 = time.perf_counter()
    for k in range(games):
        g = cls.new(compiled, players=players, seed=k)
        pol = random.Random(k)
        while g.outcome is None:
            legal = list(g.generate_legal_moves())
            mv = legal[pol.randrange(len(legal))]
            if baseline:
                trial = cls.from_json(g.to_json(), compiled)
                trial._apply(mv)
                g._apply(mv)
            else:
                g.push(mv)
            moves += 1
        wins += g.outcome["result"] == "won"
    dt = time.perf_counter() - t0
    return {
        "rules": rules,
        "referee": "baseline (trial on a copy)" if baseline else "shipped",
        "games": games,
        "moves": moves,
        "wins": wins,
        "seconds": round(dt, 3),
        "games_per_second": round(games / dt, 1),
        "moves_per_second": round(moves / dt),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--players", type=int, default=3)
    a = ap.parse_args()
    rows = [
        run(r, a.games, a.players, b) for r in ("mount-doom", "lotr-coop") for b in (False, True)
    ]
    print(f"Track games self-play: {a.games} random games per row, {a.players} players")
    print(f"{'rules':11} {'referee':28} {'games/s':>8} {'moves/s':>8} {'wins':>5}")
    for r in rows:
        print(
            f"{r['rules']:11} {r['referee']:28} {r['games_per_second']:>8} "
            f"{r['moves_per_second']:>8} {r['wins']:>5}"
        )
    same = all(
        rows[i]["moves"] == rows[i + 1]["moves"] and rows[i]["wins"] == rows[i + 1]["wins"]
        for i in (0, 2)
    )
    speedup = {
        rows[i]["rules"]: round(rows[i]["games_per_second"] / rows[i + 1]["games_per_second"], 2)
        for i in (0, 2)
    }
    print(
        f"same games in both referees: {same}; shipped/baseline: "
        + ", ".join(f"{k} {v}x" for k, v in speedup.items())
    )
    print(
        json.dumps(
            {
                "bench": "selfplay_tracks",
                "games": a.games,
                "players": a.players,
                "rows": rows,
                "same_games": same,
                "speedup": speedup,
            }
        )
    )


if __name__ == "__main__":
    main()
