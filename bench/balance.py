"""A balance study, the old way and the new way, side by side in this one process (issue 30).

Usage::

    python bench/balance.py [--games 8] [--study-games 400] [--workers 2]
                            [--baseline-ref 5f996a1] [--skip-study]

The study is issue 30's: Ringgeister, ``mcts`` (the game's own settings,
``Game.MCTS``) against ``random``, 2 players, random counter placement, 800 moves
at most. Two parts:

1. **Per game, same seeds, same results.** ``--games`` seeded games are played by
   the ``referee`` package as it was at ``--baseline-ref`` (before this work;
   extracted with ``git archive`` and imported as ``baseline_referee``) and by
   today's, alternating seed by seed so both see the same load. Each game's CPU
   time (``time.process_time``) is measured and both records are compared: they
   must be identical (today's record only adds ``lineup``, the seating). The
   speed-up comes from the Ringgeister evaluation's searches, which now stop once
   they reach the points a plan asks about (the profile had 80 % of a game there).
2. **The whole study, wall time.** ``--study-games`` planned games on
   ``--workers`` processes (seats rotated) with ``--stop-early bots``, timed on the
   wall clock, against the old way's projected wall time: its measured CPU
   seconds per game × the planned games / the workers (running the old way for
   real takes about half an hour; ``--old-study`` does it).

Prints a table, then one JSON object with the figures as the last line.
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path
from types import ModuleType
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
BASELINE_REF = "5f996a1"
PROJECT = str(ROOT / "projects" / "ringgeister")
OPTIONS = {"counter_placement": "random"}
MAX_MOVES = 800


def load_baseline(ref: str, where: Path) -> ModuleType:
    """The ``referee`` package at ``ref``, importable as ``baseline_referee``."""
    tar = where / "old.tar"
    with tar.open("wb") as fh:
        subprocess.run(["git", "archive", ref, "referee"], cwd=ROOT, stdout=fh, check=True)
    with tarfile.open(tar) as tf:
        tf.extractall(where, filter="data")
    (where / "referee").rename(where / "baseline_referee")
    sys.path.insert(0, str(where))
    pkg = importlib.import_module("baseline_referee")
    # the installed entry points name today's rules modules; the baseline's registry
    # takes its own (the same entry points, read inside baseline_referee)
    registry = importlib.import_module("baseline_referee.games.registry")
    vocabulary = importlib.import_module("baseline_referee.vocabulary")
    from importlib.metadata import entry_points

    own: dict[str, object] = {}
    for ep in entry_points(group=vocabulary.GROUP):
        module, _, attr = ep.value.partition(":")
        if module.startswith("referee."):
            base = importlib.import_module("baseline_" + module)
            own[ep.name] = getattr(base, attr)
    for mod in (registry, vocabulary):
        mod.installed = lambda: dict(sorted(own.items()))
    for cached in (registry.modules, vocabulary.plugins):
        cached.cache_clear()
    return pkg


def spec(pkg: str) -> str:
    """The Ringgeister mcts spec (the game's own settings) in package ``pkg``."""
    rg = importlib.import_module(f"{pkg}.games").get_game("ringgeister")
    return "mcts:" + ",".join(f"{k}={v}" for k, v in rg.MCTS.items())


def one_game(pkg: str, seed: int) -> tuple[float, dict[str, Any]]:
    """CPU seconds and the record of one seeded game with package ``pkg`` (mcts in
    seat 1 for even seeds, seat 2 for odd ones: the same jobs in both packages)."""
    runner = importlib.import_module(f"{pkg}.balance.runner")
    runner.board(PROJECT)  # compiled once per package, outside the timing
    mcts = spec(pkg)
    bots = (mcts, "random") if seed % 2 == 0 else ("random", mcts)
    job = runner.Job("ringgeister", PROJECT, 2, seed, bots, dict(OPTIONS), MAX_MOVES)
    t0 = time.process_time()
    record = runner.play(job)
    return time.process_time() - t0, record


def whole_study(pkg: str, games: int, workers: int, stop_early: bool) -> dict[str, Any]:
    """A study with package ``pkg`` on ``workers`` processes, timed on the wall."""
    study_mod = importlib.import_module(f"{pkg}.balance.study")
    engines = importlib.import_module(f"{pkg}.balance.engines")
    kw: dict[str, Any] = {"stop_early": "bots"} if stop_early else {}
    study = study_mod.Study(
        "ringgeister",
        PROJECT,
        2,
        games,
        (spec(pkg), "random"),
        options=dict(OPTIONS),
        max_moves=MAX_MOVES,
        **kw,
    )
    t0 = time.perf_counter()
    rep = study_mod.run_study(study, db=":memory:", engine=engines.LocalEngine(workers))
    wall = time.perf_counter() - t0
    s = rep["summary"]
    mcts = s.get("win_rate_by_bot", {}).get("bot 1") or next(iter(s["win_rate"].values()))
    return {
        "wall_s": round(wall, 1),
        "games": s["games"],
        "mcts_win_rate": mcts["rate"],
        "mcts_ci95": mcts["ci95"],
        "stopped_early": bool(rep.get("stop_early", {}).get("stopped")),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=8, help="seeded games per side (default 8)")
    ap.add_argument("--seed", type=int, default=0, help="first seed (default 0)")
    ap.add_argument("--study-games", type=int, default=400, help="planned study games")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--baseline-ref", default=BASELINE_REF)
    ap.add_argument("--skip-study", action="store_true", help="part 1 only")
    ap.add_argument(
        "--old-study", action="store_true", help="also run the old way's whole study for real"
    )
    args = ap.parse_args()
    load = os.getloadavg()
    with tempfile.TemporaryDirectory() as tmp:
        load_baseline(args.baseline_ref, Path(tmp))
        old_cpu = new_cpu = 0.0
        same = 0
        moves = 0
        for seed in range(args.seed, args.seed + args.games):
            t_old, r_old = one_game("baseline_referee", seed)
            t_new, r_new = one_game("referee", seed)
            old_cpu += t_old
            new_cpu += t_new
            moves += r_new["moves"]
            r_new.pop("lineup", None)
            same += r_old == r_new
            print(
                f"\r  seed {seed}: old {t_old:.2f} s, new {t_new:.2f} s, "
                f"{'same' if r_old == r_new else 'DIFFERENT'} record",
                end="",
                file=sys.stderr,
                flush=True,
            )
        print(file=sys.stderr)
        n = args.games
        out: dict[str, Any] = {
            "baseline_ref": args.baseline_ref,
            "games": n,
            "moves": moves,
            "old_cpu_s_per_game": round(old_cpu / n, 3),
            "new_cpu_s_per_game": round(new_cpu / n, 3),
            "cpu_ratio": round(old_cpu / new_cpu, 2) if new_cpu else None,
            "identical_records": same,
            "load_before": [round(x, 2) for x in load],
        }
        if not args.skip_study:
            projected = old_cpu / n * args.study_games / args.workers
            out["old_study_projected_wall_s"] = round(projected, 1)
            if args.old_study:
                out["old_study"] = whole_study(
                    "baseline_referee", args.study_games, args.workers, stop_early=False
                )
            out["new_study"] = whole_study("referee", args.study_games, args.workers, True)
            old_wall = out.get("old_study", {}).get("wall_s", projected)
            out["study_wall_ratio"] = round(old_wall / out["new_study"]["wall_s"], 1)
        out["load_after"] = [round(x, 2) for x in os.getloadavg()]
    print(
        f"balance study benchmark: Ringgeister mcts vs random, baseline {args.baseline_ref}, "
        f"load {out['load_before'][0]:.2f} -> {out['load_after'][0]:.2f}"
    )
    print(f"{'measure':<44} {'old':>10} {'new':>10} {'ratio':>7}")
    print(
        f"{'CPU s per game (' + str(n) + ' seeds, one process)':<44} "
        f"{out['old_cpu_s_per_game']:>10} {out['new_cpu_s_per_game']:>10} "
        f"{out['cpu_ratio']:>6}x"
    )
    print(f"{'identical records':<44} {'':>10} {f'{same}/{n}':>10}")
    if "new_study" in out:
        ns = out["new_study"]
        old = out.get("old_study")
        label = "" if old else " (projected)"
        old_wall = old["wall_s"] if old else out["old_study_projected_wall_s"]
        print(
            f"{'study wall s, ' + str(args.study_games) + ' planned games' + label:<44} "
            f"{old_wall:>10} {ns['wall_s']:>10} {out['study_wall_ratio']:>6}x"
        )
        print(
            f"  new: {ns['games']} games played (stopped early: {ns['stopped_early']}), "
            f"mcts wins {100 * ns['mcts_win_rate']:.1f} % "
            f"[{100 * ns['mcts_ci95'][0]:.1f}, {100 * ns['mcts_ci95'][1]:.1f}] on "
            f"{args.workers} worker(s)"
        )
    print(json.dumps(out))


if __name__ == "__main__":
    main()
