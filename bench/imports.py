"""Import speed: a Tiled map of about 10,000 objects read back, beside its export.

Generates a region map (``referee.generators.voronoi_map``: spaces, rivers, river
dots, roads) whose Tiled export holds about ``--objects`` objects (spaces, lines,
points and the compiled edges Boardwright draws for others), then times, side by side
in this process, best of ``--repeat``:

- **export**: ``referee export --to tmj`` of the compiled board (``write_export``);
- **import**: ``referee import tmj`` of that file (``import_board``: safe reading,
  pytiled-parser, exact coordinates, the checked board);
- **import + compile**: the import, then compiling the board it gives.

The target (issue 31): the import under 2 s. The last line is one JSON object with
the figures. Run: ``python bench/imports.py [--objects N] [--repeat R]``.
"""

from __future__ import annotations

import argparse
import json
import os
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from referee.compiler import compile_board
from referee.export import write_export
from referee.generators import voronoi_map
from referee.importers import import_board


def best_of(fn: Callable[[], object], repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t)
    return best


def tmj_objects(path: Path) -> int:
    data = json.loads(path.read_text())
    return sum(len(layer.get("objects", [])) for layer in data["layers"])


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--objects", type=int, default=10_000, help="objects in the map (about)")
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "map.tmj"
        # a space brings about 4 objects (itself, ~3 touch edges, its share of the rest)
        spaces = max(50, args.objects // 4)
        for _ in range(4):  # one correction to land near the wanted count
            board = voronoi_map(
                spaces,
                seed=7,
                rivers=max(2, spaces // 250),
                river_steps=10,
                roads=max(2, spaces // 500),
                road_steps=8,
            )
            compiled = compile_board(board)
            write_export(compiled, "tmj", out)
            n = tmj_objects(out)
            if abs(n - args.objects) < args.objects * 0.05:
                break
            spaces = max(50, round(spaces * args.objects / n))
        t_export = best_of(lambda: write_export(compiled, "tmj", out), args.repeat)
        t_import = best_of(lambda: import_board("tmj", out), args.repeat)
        t_both = best_of(lambda: compile_board(import_board("tmj", out).board), args.repeat)
        back = compile_board(import_board("tmj", out).board)
        same = back.hash == compiled.hash
        size = out.stat().st_size
    load = os.getloadavg()
    rows = [
        ("export (write_export tmj)", t_export, 1.0),
        ("import (import_board tmj)", t_import, t_import / t_export),
        ("import + compile", t_both, t_both / t_export),
    ]
    print(
        f"Tiled map: {n} objects ({len(board.features)} features), {size / 1e6:.1f} MB; load {load[0]:.2f}"
    )
    print(f"{'step':<28}{'best s':>10}{'x export':>10}")
    for name, t, r in rows:
        print(f"{name:<28}{t:>10.3f}{r:>10.2f}")
    print(f"import under 2 s: {'yes' if t_import < 2 else 'NO'}; same board hash back: {same}")
    print(
        json.dumps(
            {
                "bench": "imports",
                "objects": n,
                "features": len(board.features),
                "bytes": size,
                "export_s": round(t_export, 4),
                "import_s": round(t_import, 4),
                "import_compile_s": round(t_both, 4),
                "import_over_export": round(t_import / t_export, 3),
                "same_hash": same,
                "loadavg": round(load[0], 2),
            }
        )
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
