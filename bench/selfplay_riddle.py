"""Riddle of the Ring: random self-play against the pre-kit referee, side by side.

Each game is played from the deal to its end by picking uniformly among the legal
moves (seeded), with a round limit (``--rounds``, default 100) so that every game
ends: by a win (The Ring shown on the goal) or as a draw at the limit. Two referees
play the same seeds in this one process: the ``referee`` package as shipped and the
baseline, the package as it was at ``--baseline-ref`` (default ``85c4ccc``, the
commit before the game kit), extracted with ``git archive`` into a temporary
directory and imported as ``baseline_referee`` (as ``bench/selfplay.py`` does).

Measured in CPU time of this process (``time.process_time``; the machine is shared):
games per minute and plies (moves pushed) per second. Each referee plays ``--runs``
times, alternating which goes first, and keeps its best time. Equal ply counts and wins for both
referees show that they played the same games (same legal moves in the same order);
where a ruling changed the moves (the Cloak/Rope "may use" options) the games differ,
and the CPU time per ply is given beside the CPU time per game set.

Usage::

    python bench/selfplay_riddle.py [--games 40] [--players 4] [--rounds 100] [--runs 3]
                                    [--baseline-ref 85c4ccc]

The last line is one JSON object with the figures.
"""

from __future__ import annotations

import argparse
import gc
import importlib
import json
import os
import random
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
BASELINE_REF = "85c4ccc"


def load_baseline(ref: str, where: Path) -> None:
    """Make the ``referee`` package at ``ref`` importable as ``baseline_referee``."""
    tar = where / "old.tar"
    with tar.open("wb") as fh:
        subprocess.run(
            ["git", "archive", ref, "referee", "assets"], cwd=ROOT, stdout=fh, check=True
        )
    with tarfile.open(tar) as tf:
        tf.extractall(where, filter="data")
    (where / "referee").rename(where / "baseline_referee")
    sys.path.insert(0, str(where))


def run(pkg: str, project: str, a: argparse.Namespace, options: dict[str, Any]) -> dict[str, Any]:
    """Play ``a.games`` random games with package ``pkg``; CPU seconds and counts."""
    compiler = importlib.import_module(f"{pkg}.compiler")
    store = importlib.import_module(f"{pkg}.store")
    game_cls = importlib.import_module(f"{pkg}.games.riddle").RiddleGame
    compiled = compiler.compile_board(store.load_project(project))
    plies = wins = 0
    t0 = time.process_time()
    for seed in range(a.games):
        g = game_cls.new(
            compiled, players=a.players, seed=seed, options={"turn_limit": a.rounds, **options}
        )
        rnd = random.Random(seed)
        while g.outcome is None:
            g.push(rnd.choice(list(g.legal_moves)))
            plies += 1
        ended = g.outcome  # a dict before the kit's typed Outcome (an old baseline)
        wins += (ended["result"] if isinstance(ended, dict) else ended.result) == "won"
    dt = time.process_time() - t0
    return {"seconds": dt, "plies": plies, "wins": wins}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--project", default=str(ROOT / "projects" / "riddle-sample"))
    ap.add_argument("--games", type=int, default=40)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--rounds", type=int, default=100)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--baseline-ref", default=BASELINE_REF)
    a = ap.parse_args()
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        load_baseline(a.baseline_ref, Path(tmp))
        for label, opts in (("basic", {}), ("recommended", {"recommended": True})):
            best: dict[str, dict[str, Any]] = {}
            for k in range(a.runs):
                # alternate which goes first, so neither always runs on a colder machine
                for pkg in ("baseline_referee", "referee")[:: 1 if k % 2 == 0 else -1]:
                    gc.collect()
                    r = run(pkg, a.project, a, opts)
                    if pkg not in best or r["seconds"] < best[pkg]["seconds"]:
                        best[pkg] = r
            base, now = best["baseline_referee"], best["referee"]
            rows.append(
                {
                    "game": label,
                    "baseline_cpu_s": round(base["seconds"], 3),
                    "now_cpu_s": round(now["seconds"], 3),
                    "baseline_games_per_minute": round(a.games / base["seconds"] * 60, 1),
                    "now_games_per_minute": round(a.games / now["seconds"] * 60, 1),
                    "baseline_plies_per_second": round(base["plies"] / base["seconds"]),
                    "now_plies_per_second": round(now["plies"] / now["seconds"]),
                    "cpu_ratio_now_over_baseline": round(now["seconds"] / base["seconds"], 3),
                    "cpu_per_ply_ratio": round(
                        (now["seconds"] / now["plies"]) / (base["seconds"] / base["plies"]), 3
                    ),
                    "baseline_plies": base["plies"],
                    "plies": now["plies"],
                    "same_games": now["plies"] == base["plies"] and now["wins"] == base["wins"],
                    "wins": now["wins"],
                }
            )
    print(
        f"Riddle of the Ring self-play: {a.games} random games per row, {a.players} players, "
        f"round limit {a.rounds}, board {Path(a.project).name}; best of {a.runs} runs, "
        f"CPU time; baseline {a.baseline_ref}; load average {os.getloadavg()[0]:.1f}"
    )
    print(
        f"{'game':12} {'base CPU s':>10} {'now CPU s':>10} {'now/base':>9} "
        f"{'per ply':>8} {'games/min':>10} {'base plies/s':>12} {'plies/s':>8} {'same games':>11}"
    )
    for r in rows:
        print(
            f"{r['game']:12} {r['baseline_cpu_s']:>10} {r['now_cpu_s']:>10} "
            f"{r['cpu_ratio_now_over_baseline']:>9} {r['cpu_per_ply_ratio']:>8} "
            f"{r['now_games_per_minute']:>10} {r['baseline_plies_per_second']:>12} "
            f"{r['now_plies_per_second']:>8} {r['same_games']!s:>11}"
        )
    worst = max(r["cpu_ratio_now_over_baseline"] for r in rows)
    print(
        f"worst CPU ratio now/baseline: {worst} (issue 14: <= 1.10 {'met' if worst <= 1.10 else 'NOT met'})"
    )
    print(
        json.dumps(
            {
                "bench": "selfplay_riddle",
                "baseline_ref": a.baseline_ref,
                "players": a.players,
                "rounds": a.rounds,
                "games": a.games,
                "runs": a.runs,
                "rows": rows,
                "worst_cpu_ratio": worst,
                "within_10_percent": worst <= 1.10,
            }
        )
    )


if __name__ == "__main__":
    main()
