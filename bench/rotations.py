"""Rotation census: exact frontier DP against vectorized brute force (issue 7).

For generated 5 × 5 Ringgeister-like boards (``referee.rotations.generate.grid_board``,
every turnable tile with four distinct turns) with 8, 10 and 12 turnable tiles,
counts the configurations that connect the white starts to the goal twice, side by
side in this process:

- brute force: every one of the 4^k configurations decided with numpy bitsets
  (``referee.rotations.brute.brute_force``, reachability only);
- exact: the frontier dynamic program (``FrontierDP.count``, best of 3).

and prints the seconds, the ratio and whether the answers are equal. Then the full
exact census (count + per-tile criticality + fewest reachable points) of the default
board ``projects/ringgeister`` if it exists. The last line is one JSON object.

Run: ``python bench/rotations.py [--quick]`` (``--quick`` stops at 10 tiles).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from referee.compiler import compile_board
from referee.rotations import FrontierDP, build_problem, census
from referee.rotations.brute import brute_force
from referee.rotations.generate import grid_board
from referee.store import load_project

ROOT = Path(__file__).resolve().parent.parent


def best_of(fn, repeat: int) -> tuple[float, object]:
    best, out = float("inf"), None
    for _ in range(repeat):
        t = time.perf_counter()
        out = fn()
        best = min(best, time.perf_counter() - t)
    return best, out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="only 8 and 10 turnable tiles")
    args = ap.parse_args()
    sizes = (8, 10) if args.quick else (8, 10, 12)
    rows = []
    for k in sizes:
        prob = build_problem(compile_board(grid_board(5, 5, k, seed=3, asymmetric=True)))
        t_exact, res = best_of(lambda prob=prob: FrontierDP(prob).count(), 3)
        t_brute, br = best_of(lambda prob=prob: brute_force(prob, with_points=False), 1)
        rows.append(
            {
                "turnable": k,
                "configurations": prob.total,
                "brute_s": round(t_brute, 4),
                "exact_s": round(t_exact, 5),
                "ratio": round(t_brute / t_exact, 1),
                "brute_us_per_config": round(1e6 * t_brute / prob.total, 3),
                "success": res.success,
                "equal": res.success == br.success,
            }
        )
    print("Rotation census on generated 5x5 boards: brute force (numpy bitsets) vs exact DP")
    print(
        f"{'turnable':>8} {'configs':>12} {'brute s':>9} {'us/config':>9} {'exact ms':>9} "
        f"{'ratio':>9}  {'success':>10} equal"
    )
    for r in rows:
        print(
            f"{r['turnable']:>8} {r['configurations']:>12} {r['brute_s']:>9.3f} "
            f"{r['brute_us_per_config']:>9.3f} {1000 * r['exact_s']:>9.2f} {r['ratio']:>8.0f}x"
            f"  {r['success']:>10} {r['equal']}"
        )
    figures: dict[str, object] = {"boards": rows}
    if not args.quick:
        prob = build_problem(compile_board(grid_board(7, 7, 40, seed=5, asymmetric=True)))
        t_big, res = best_of(lambda: FrontierDP(prob).count(), 1)
        per = rows[-1]["brute_us_per_config"]
        years = prob.total * per * 1e-6 / 3.15e7
        print(
            f"{40:>8} {'4^40':>12} {'-':>9} {'-':>9} {1000 * t_big:>9.2f} {'-':>9}  "
            f"(7x7 board; brute force at {per} us/config would take {years:.1e} years)"
        )
        figures["big"] = {
            "turnable": 40,
            "exact_s": round(t_big, 4),
            "success": str(res.success),
            "configurations": str(prob.total),
        }
    default = ROOT / "projects" / "ringgeister"
    if default.exists():
        c = compile_board(load_project(default))
        t = time.perf_counter()
        res = census(c)
        secs = time.perf_counter() - t
        t = time.perf_counter()
        census(c, critical=False, fewest=False)  # the count alone
        secs_count = time.perf_counter() - t
        k = len(res.tiles)
        print()
        print(
            f"Default board {default.relative_to(ROOT)}: {k} turnable tiles, "
            f"4^{k} = {4**k:,} turn combinations, {res.total:,} distinct configurations"
        )
        print(f"  connected: {res.success:,} ({100 * (res.fraction or 0):.2f} %)")
        print(
            f"  exact count: {secs_count:.3f} s; full census (count + criticality of every "
            f"tile + fewest reachable points, {res.fewest.reachable_points if res.fewest else '-'}"
            f"): {secs:.3f} s (target < 60 s); frontier width {res.frontier_width}"
        )
        figures["default_board"] = {
            "turnable": k,
            "configurations": res.total,
            "success": res.success,
            "count_s": round(secs_count, 4),
            "census_s": round(secs, 4),
            "under_60s": secs < 60,
            "fewest_points": res.fewest.reachable_points if res.fewest else None,
        }
    else:
        print("\nDefault board projects/ringgeister not found: skipped")
        figures["default_board"] = None
    print(json.dumps(figures))
    return 0


if __name__ == "__main__":
    sys.exit(main())
