"""Trace spaces back from a rendered picture of a known map (issue 17).

Renders ``projects/riddle-sample`` to PNG with flat fills and without labels,
pieces, rivers, roads or marks (``render_svg(layers=("ground", "regions"),
patterns=False)``), traces the picture with :func:`referee.trace.trace_board`,
and compares the traced spaces with the original ones
(:func:`referee.trace.score_trace`): the share of spaces matched with
intersection-over-union ≥ 0.95, and the ``touch`` adjacency of matched spaces
(borders shorter than 3 pixels, which the trace collapses, count as
*unresolved*, not lost).
Runs at 72, 96 and 150 dpi side by side in this process (time and peak traced
memory of the trace alone). An extra adjacency is *explained* when the original
spaces run within 0.05 mm of each other for over 1 mm — a border the picture
shows but the original's compiler does not join (a hairline gap in the data).

The last line is one JSON object with the figures.

Run: ``python bench/trace.py [--quick]``
"""

from __future__ import annotations

import argparse
import io
import json
import time
import tracemalloc
from pathlib import Path

import shapely
from PIL import Image

from referee.render import render_svg
from referee.render.png import svg_to_png
from referee.store import load_project
from referee.trace import score_trace, trace_board

ROOT = Path(__file__).resolve().parent.parent


def explained(board, pairs) -> int:
    n = 0
    for a, b in pairs:
        ga, gb = board.feature(a).geometry, board.feature(b).geometry
        if gb.boundary.intersection(shapely.buffer(ga, 0.05)).length > 1.0:
            n += 1
    return n


def run(board, dpi: float) -> dict[str, object]:
    w_mm = float(board.meta["width"])
    svg = render_svg(
        board, pieces=False, labels=False, patterns=False, layers=("ground", "regions")
    )
    png = svg_to_png(svg, round(w_mm / 25.4 * dpi))
    wpx = Image.open(io.BytesIO(png)).size[0]
    scale = w_mm / wpx
    tracemalloc.start()
    t = time.perf_counter()
    traced, res = trace_board(png, scale=scale)
    secs = time.perf_counter() - t
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    score = score_trace(board, traced, resolution=3 * scale)
    return {
        "dpi": dpi,
        "pixels": res.width_px * res.height_px,
        "trace_s": round(secs, 3),
        "peak_mib": round(peak / 2**20, 1),
        **score.to_json(),
        "adjacency_extra_explained": explained(board, score.adjacency_extra),
        "stages_s": res.timings,
    }


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="96 dpi only")
    args = ap.parse_args()
    board = load_project(ROOT / "projects" / "riddle-sample")
    rows = [run(board, dpi) for dpi in ((96.0,) if args.quick else (72.0, 96.0, 150.0))]
    head = (
        f"{'dpi':>5} {'pixels':>10} {'trace s':>8} {'peak MiB':>9} {'spaces':>6} {'traced':>6} "
        f"{'matched':>8} {'IoU min':>8} {'IoU med':>8} {'adj same':>8} {'lost':>5} "
        f"{'extra':>5} {'(explained)':>11} {'unresolved':>10}"
    )
    print("Trace projects/riddle-sample from its own flat rendering (IoU >= 0.95 = matched)")
    print(head)
    for r in rows:
        print(
            f"{r['dpi']:>5g} {r['pixels']:>10,} {r['trace_s']:>8.2f} {r['peak_mib']:>9.1f} "
            f"{r['spaces']:>6} {r['traced']:>6} {r['matched_share']:>8.1%} {r['iou_min']:>8.4f} "
            f"{r['iou_median']:>8.4f} {r['adjacency_same']:>8} {r['adjacency_lost']:>5} "
            f"{r['adjacency_extra']:>5} {r['adjacency_extra_explained']:>11} "
            f"{r['adjacency_unresolved']:>10}"
        )
    main_row = next(r for r in rows if r["dpi"] == 96.0)
    print(
        "stages at 96 dpi (s): "
        + ", ".join(f"{k} {v:.2f}" for k, v in main_row["stages_s"].items())  # type: ignore[union-attr]
    )
    figures = {
        "benchmark": "trace",
        "map": "projects/riddle-sample",
        "runs": rows,
        "matched_share_96dpi": main_row["matched_share"],
        "meets_95_percent": main_row["matched_share"] >= 0.95,
        "same_adjacency_96dpi": main_row["adjacency_lost"] == 0
        and main_row["adjacency_extra"] == main_row["adjacency_extra_explained"],
    }
    print(json.dumps(figures))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
