"""Compile speed of large region maps (issue 2).

Generates region maps of N Voronoi spaces (``referee.generators.voronoi_map``: rivers
along cell borders, river dots at their triple points, a few roads), compiles each,
and prints for N = 2,000 and 10,000: compile seconds (best of a few runs), peak
memory of one compile, and the adjacency step of the compiler (shared-edge hashing)
against an all-pairs ``touches`` loop on the same 2,000-space map, measured side by
side in this process. The last line is one JSON object with the figures.

Run: ``python bench/compile.py [--quick]``
"""

from __future__ import annotations

import argparse
import json
import sys
import time
import tracemalloc

import numpy as np

from referee.compiler import compile_board
from referee.compiler.regions.adjacency import shared_edges
from referee.compiler.regions.spaces import RegionInput
from referee.compiler.regions.state import compile_regions
from referee.generators import voronoi_map


def best_of(fn, repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t)
    return best


def make_map(n: int):
    return voronoi_map(
        n, seed=11, rivers=max(4, n // 250), river_steps=14, roads=max(3, n // 500), road_steps=12
    )


def all_pairs_touches(polys: list) -> int:
    """The baseline: test every pair of spaces with ``touches`` (O(n²))."""
    count = 0
    for i in range(len(polys)):
        a = polys[i]
        for j in range(i + 1, len(polys)):
            if a.touches(polys[j]):
                count += 1
    return count


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="fewer repeats")
    args = ap.parse_args()
    repeat = 1 if args.quick else 3
    rows = []
    figures: dict[str, object] = {"benchmark": "compile"}
    for n in (2000, 10000):
        board = make_map(n)
        compiled = compile_board(board)
        secs = best_of(lambda board=board: compile_board(board), repeat)
        tracemalloc.start()
        compile_board(board)
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        counts = compiled.counts()["edges"]
        rows.append((n, secs, peak / 2**20, counts))
        figures[f"compile_s_{n}"] = round(secs, 4)
        figures[f"peak_mib_{n}"] = round(peak / 2**20, 1)
        figures[f"edges_{n}"] = counts

    # adjacency step vs all pairs, same 2,000-space map, same process
    board = make_map(2000)
    inp = RegionInput(
        spaces=[(f.id, f.geometry, f.props) for f in board.features if f.kind == "space"]
    )
    polys = [g for _, g, _ in inp.spaces]
    arr = np.array(polys, dtype=object)
    t_hash = best_of(lambda: shared_edges(arr), max(repeat, 5))
    t_regions = best_of(lambda: compile_regions(inp), max(repeat, 3))
    t0 = time.perf_counter()
    pairs_baseline = all_pairs_touches(polys)
    t_all = time.perf_counter() - t0
    _, _, lo, hi, _ = shared_edges(arr)
    pairs_ours = len(set(zip(lo.tolist(), hi.tolist())))
    # shapely's touches also counts corner-only contacts; ours only shared borders
    corner_only = pairs_baseline - pairs_ours
    ratio = t_all / t_hash
    figures.update(
        adjacency_s_2000=round(t_hash, 5),
        region_compile_s_2000=round(t_regions, 4),
        all_pairs_touches_s_2000=round(t_all, 3),
        adjacency_speedup=round(ratio, 1),
        region_compile_speedup=round(t_all / t_regions, 1),
        touch_pairs=pairs_ours,
        all_pairs_touch_pairs=pairs_baseline,
        corner_only_pairs=corner_only,
        target_compile_10000_s=0.5,
        target_speedup=30,
        meets_targets=bool(figures["compile_s_10000"] < 0.5 and ratio >= 30),
    )

    print(f"Compile of generated Voronoi region maps (best of {repeat})")
    print(f"{'spaces':>8} {'compile s':>10} {'peak MiB':>9}  edges by relation")
    for n, secs, mib, counts in rows:
        print(f"{n:>8} {secs:>10.3f} {mib:>9.1f}  {counts}")
    print()
    print("Adjacency step on the 2,000-space map (same process)")
    print(f"  shared-edge hashing (the adjacency step):   {t_hash * 1000:8.1f} ms")
    print(
        f"  whole region compile (adjacency, overlap checks, rivers, dots, roads): "
        f"{t_regions * 1000:.1f} ms"
    )
    print(f"  all-pairs touches loop:                     {t_all * 1000:8.1f} ms")
    print(
        f"  ratio: {ratio:.0f}x adjacency step, {t_all / t_regions:.0f}x whole region compile"
        f"   (touch pairs: ours {pairs_ours}, "
        f"all-pairs {pairs_baseline}, of which corner-only {corner_only})"
    )
    print(json.dumps(figures))
    return 0


if __name__ == "__main__":
    sys.exit(main())
