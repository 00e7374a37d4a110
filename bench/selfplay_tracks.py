"""Self-play speed of the two track games: this referee against the one before the kit.

Plays complete seeded games with uniformly random legal moves on
``projects/mount-doom`` and ``projects/lotr-coop`` and reports, side by side in one
process:

- **before**: the track games as they were before the game kit and the fidelity
  fixes of issues 14/15 (``--before``, default commit ``85c4ccc``), extracted from git
  into a temporary package (``git archive``) and run on the same boards;
- **now**: the referee of this checkout.

Both play random games with the same seeds: ``push`` (check, then apply under the
rollback guard) per move. The rules changed between the two (more decisions are
offered: "any time" cards at every decision, free discards), so the games differ;
**moves per second** is the figure to compare (target: within 10 %), games per
second is shown for information. ``copy()`` of a mid-game state (bots and search
live on it; target ≤ 20 µs) is timed for both.

Rates are per second of this process's CPU time (``time.process_time``); the machine
is shared. Usage::

    python bench/selfplay_tracks.py [--games 60] [--players 3] [--before REF] [--runs 5]

Prints a table, then one JSON object with the figures (the last line).
"""

from __future__ import annotations

import argparse
import importlib
import json
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
RULES = {"mount-doom": "mount_doom", "lotr-coop": "lotr_coop"}


def before_package(ref: str, where: Path) -> str:
    """Extract ``referee/`` at ``ref`` into ``where`` as package ``referee_before``."""
    tar = subprocess.run(
        ["git", "-C", str(ROOT), "archive", ref, "referee"], check=True, capture_output=True
    ).stdout
    subprocess.run(["tar", "-x", "-C", str(where)], input=tar, check=True)
    (where / "referee").rename(where / "referee_before")
    sys.path.insert(0, str(where))
    return "referee_before"


def load(package: str, rules: str) -> tuple[Any, Any]:
    """The game class and the compiled board of ``rules`` with ``package``'s referee."""
    game = importlib.import_module(f"{package}.games.{RULES[rules]}").RULES.game
    compiler = importlib.import_module(f"{package}.compiler")
    store = importlib.import_module(f"{package}.store")
    compiled = compiler.compile_board(store.load_project(ROOT / "projects" / rules))
    return game, compiled


def play(game_cls: Any, compiled: Any, games: int, players: int) -> dict[str, Any]:
    moves = 0
    t0 = time.process_time()
    for k in range(games):
        g = game_cls.new(compiled, players=players, seed=k)
        pol = random.Random(k)
        while g.outcome is None:
            legal = list(g.generate_legal_moves())
            g.push(legal[pol.randrange(len(legal))])
            moves += 1
    dt = time.process_time() - t0
    return {
        "games": games,
        "moves": moves,
        "cpu_seconds": round(dt, 3),
        "games_per_second": round(games / dt, 1),
        "moves_per_second": round(moves / dt),
    }


def copy_us(game_cls: Any, compiled: Any, players: int, n: int = 2000) -> float:
    """Mean µs of ``copy()`` of a mid-game state (60 random moves in)."""
    g = game_cls.new(compiled, players=players, seed=3)
    pol = random.Random(3)
    for _ in range(60):
        legal = list(g.generate_legal_moves())
        if g.outcome is not None or not legal:
            break
        g.push(legal[pol.randrange(len(legal))])
    t0 = time.process_time()
    for _ in range(n):
        g.copy()
    return round((time.process_time() - t0) / n * 1e6, 1)


def main() -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    ap.add_argument("--games", type=int, default=60)
    ap.add_argument("--players", type=int, default=3)
    ap.add_argument("--before", default="85c4ccc", help="git ref of the referee to compare")
    ap.add_argument(
        "--runs",
        type=int,
        default=1,
        help="runs per row, before and now taking turns; the median run is reported "
        "(a shared machine's load moves single runs by tens of per cent)",
    )
    a = ap.parse_args()
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        old = before_package(a.before, Path(tmp))
        for rules in RULES:
            pair = [("before", *load(old, rules)), ("now", *load("referee", rules))]
            runs: dict[str, list[dict[str, Any]]] = {"before": [], "now": []}
            for _ in range(max(1, a.runs)):
                for label, cls, compiled in pair:
                    runs[label].append(play(cls, compiled, a.games, a.players))
            for label, cls, compiled in pair:
                by_rate = sorted(runs[label], key=lambda r: r["moves_per_second"])
                row = {"rules": rules, "referee": label, **by_rate[len(by_rate) // 2]}
                row["copy_us"] = copy_us(cls, compiled, a.players)
                rows.append(row)
                print(f"  {rules} {label}: {row['moves_per_second']} moves/s", file=sys.stderr)
    print(
        f"Track games self-play: {a.games} random games per run, {a.players} players, "
        f"median of {max(1, a.runs)} runs (before = {a.before})"
    )
    print(f"{'rules':11} {'referee':8} {'moves/s':>8} {'games/s':>8} {'moves':>7} {'copy µs':>8}")
    for r in rows:
        print(
            f"{r['rules']:11} {r['referee']:8} {r['moves_per_second']:>8} "
            f"{r['games_per_second']:>8} {r['moves']:>7} {r['copy_us']:>8}"
        )
    ratio = {
        rows[i]["rules"]: round(rows[i + 1]["moves_per_second"] / rows[i]["moves_per_second"], 2)
        for i in range(0, len(rows), 2)
    }
    print("moves/s now/before: " + ", ".join(f"{k} {v}x" for k, v in ratio.items()))
    print(
        json.dumps(
            {
                "bench": "selfplay_tracks",
                "games": a.games,
                "players": a.players,
                "before": a.before,
                "runs": max(1, a.runs),
                "rows": rows,
                "moves_per_second_now_over_before": ratio,
            }
        )
    )


if __name__ == "__main__":
    main()
