"""Rotation census speed: this code against a baseline commit, side by side in one process.

Usage::

    python bench/rotations.py [--baseline-ref 71a20f5] [--quick] [--repeat 3]

The baseline is the ``referee`` package as it was at ``--baseline-ref`` (default: the
commit before the one-pass criticality), extracted with ``git archive`` and imported
as ``baseline_referee`` (``bench/selfplay.py``'s :func:`load_baseline`). Each side
builds and compiles its own boards and runs its own :func:`census`:

- **default board** ``projects/ringgeister`` (18 tiles, 4^18 configurations);
- **7x7**: ``grid_board(7, 7, 40, seed=5, asymmetric=True)`` (40 tiles, 4^40);
- **10x10**: ``grid_board(10, 10, 80, seed=5, asymmetric=True)`` (80 tiles, 4^80);

each as the exact **count** (``census(critical=False, fewest=False)``) and the **full
census** (count, every tile's criticality, the fewest reachable points). Wall-clock
seconds, best of ``--repeat`` runs for this code and of one run for a baseline case
that takes more than 20 s (the baseline 10x10 census takes about 3 minutes); the two
sides alternate per case. ``equal`` says whether every figure (count, per-tile
decided contexts and successes per turn, fewest points) is the same.

Targets (issue 30): the 7x7 census < 1 s, the 10x10 census < 10 s, the 10x10 count
< 0.5 s. Also, as before, the exact count on 5x5 boards against the numpy brute force
of every configuration. ``--quick`` leaves out the 10x10 census (both sides) and the
12-tile brute force. The last line is one JSON object with the figures.
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from selfplay import load_baseline

ROOT = Path(__file__).resolve().parent.parent
BASELINE_REF = "71a20f5"
SLOW_S = 20.0  # a baseline case slower than this runs once

CASES = [
    # (name, board, measure, target seconds)
    ("default count", "default", "count", None),
    ("default census", "default", "census", None),
    ("7x7 count", "7x7", "count", None),
    ("7x7 census", "7x7", "census", 1.0),
    ("10x10 count", "10x10", "count", 0.5),
    ("10x10 census", "10x10", "census", 10.0),
]


def board_of(pkg: str, which: str) -> Any:
    if which == "default":
        return importlib.import_module(f"{pkg}.store").load_project(
            ROOT / "projects" / "ringgeister"
        )
    gen = importlib.import_module(f"{pkg}.rotations.generate")
    rows, cols, k = {"7x7": (7, 7, 40), "10x10": (10, 10, 80)}[which]
    return gen.grid_board(rows, cols, k, seed=5, asymmetric=True)


def figures(res: Any) -> dict[str, Any]:
    """Every exact figure of a census result (what must not change)."""
    return {
        "success": res.success,
        "total": res.total,
        "fewest": res.fewest.reachable_points if res.fewest else None,
        "tiles": sorted((t.placement, t.decided, t.success_by_class) for t in res.tiles),
    }


def timed(fn: Callable[[], Any], repeat: int) -> tuple[float, Any]:
    best, out = float("inf"), None
    for _ in range(repeat):
        t = time.perf_counter()
        out = fn()
        best = min(best, time.perf_counter() - t)
        if best > SLOW_S:
            break
    return best, out


def run_case(pkg: str, compiled: Any, measure: str, repeat: int) -> tuple[float, Any]:
    census = importlib.import_module(f"{pkg}.rotations").census
    if measure == "count":
        return timed(lambda: census(compiled, critical=False, fewest=False), repeat)
    return timed(lambda: census(compiled), repeat)


def brute_rows(quick: bool) -> list[dict[str, Any]]:
    """The exact count against the numpy brute force on 5x5 boards (this code only)."""
    from referee.compiler import compile_board
    from referee.rotations import FrontierDP, build_problem
    from referee.rotations.brute import brute_force
    from referee.rotations.generate import grid_board

    rows = []
    for k in (8, 10) if quick else (8, 10, 12):
        prob = build_problem(compile_board(grid_board(5, 5, k, seed=3, asymmetric=True)))
        t_exact, res = timed(lambda prob=prob: FrontierDP(prob).count(), 3)
        t_brute, br = timed(lambda prob=prob: brute_force(prob, with_points=False), 1)
        rows.append(
            {
                "turnable": k,
                "configurations": prob.total,
                "brute_s": round(t_brute, 4),
                "exact_s": round(t_exact, 5),
                "ratio": round(t_brute / t_exact, 1),
                "success": res.success,
                "equal": res.success == br.success,
            }
        )
    return rows


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--baseline-ref", default=BASELINE_REF, help="commit to compare with")
    ap.add_argument("--quick", action="store_true", help="leave out the 10x10 census")
    ap.add_argument("--repeat", type=int, default=3, help="runs per case (best kept)")
    args = ap.parse_args()
    cases = [c for c in CASES if not (args.quick and c[0] == "10x10 census")]
    load_start = os.getloadavg()
    out: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory() as tmp:
        load_baseline(args.baseline_ref, Path(tmp))
        compiled: dict[tuple[str, str], Any] = {}
        for pkg in ("baseline_referee", "referee"):
            compile_board = importlib.import_module(f"{pkg}.compiler").compile_board
            for which in ("default", "7x7", "10x10"):
                compiled[(pkg, which)] = compile_board(board_of(pkg, which))
        for name, which, measure, target in cases:
            print(f"  {name} ...", file=sys.stderr, flush=True)
            t_base, r_base = run_case(
                "baseline_referee", compiled[("baseline_referee", which)], measure, args.repeat
            )
            t_now, r_now = run_case("referee", compiled[("referee", which)], measure, args.repeat)
            out.append(
                {
                    "case": name,
                    "configurations": r_now.total,
                    "baseline_s": round(t_base, 4),
                    "now_s": round(t_now, 4),
                    "ratio": round(t_base / t_now, 1),
                    "equal": figures(r_base) == figures(r_now),
                    "target_s": target,
                    "meets": None if target is None else t_now < target,
                    "frontier_width": r_now.frontier_width,
                    "max_states": r_now.max_states,
                }
            )
    brute = brute_rows(args.quick)
    load_end = os.getloadavg()

    print(
        f"Rotation census: this code against {args.baseline_ref}, same process "
        f"(wall s, best of {args.repeat}; load average {load_start[0]:.2f} at the start, "
        f"{load_end[0]:.2f} at the end)"
    )
    print(
        f"{'case':<16} {'configs':>10} {'baseline s':>11} {'now s':>9} {'ratio':>8} "
        f"{'target':>8}  equal  width  states"
    )
    for r in out:
        target = "-" if r["target_s"] is None else f"< {r['target_s']:g} s"
        mark = "" if r["meets"] is None else (" ok" if r["meets"] else " MISSED")
        print(
            f"{r['case']:<16} {_pow4(r['configurations']):>10} "
            f"{r['baseline_s']:>11.3f} {r['now_s']:>9.3f} {r['ratio']:>7.1f}x {target:>8}{mark:<7}"
            f" {r['equal']!s:<6} {r['frontier_width']:>5} {r['max_states']:>7}"
        )
    print()
    print("Exact count against the numpy brute force of every configuration (5x5 boards)")
    print(f"{'turnable':>8} {'configs':>10} {'brute s':>9} {'exact ms':>9} {'ratio':>8}  equal")
    for b in brute:
        print(
            f"{b['turnable']:>8} {b['configurations']:>10} {b['brute_s']:>9.3f} "
            f"{1000 * b['exact_s']:>9.2f} {b['ratio']:>7.0f}x  {b['equal']}"
        )
    meets = all(r["meets"] is not False for r in out) and all(r["equal"] for r in out)
    print(
        json.dumps(
            {
                "benchmark": "rotations",
                "baseline_ref": args.baseline_ref,
                "load_average": [round(load_start[0], 2), round(load_end[0], 2)],
                "cases": {
                    r["case"]: {k: v for k, v in r.items() if k != "case"}
                    | {"configurations": str(r["configurations"])}
                    for r in out
                },
                "brute_force": brute,
                "meets_targets": meets,
            }
        )
    )
    return 0


def _pow4(n: int) -> str:
    """``4^k`` when ``n`` is a power of 4, else the number."""
    k = 0
    while n > 1 and n % 4 == 0:
        n //= 4
        k += 1
    return f"4^{k}" if n == 1 else f"{n:,}"


if __name__ == "__main__":
    sys.exit(main())
