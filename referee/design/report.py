"""The design's output: the best layouts as projects, each with its census and a
picture, and one table ranking them beside the start board.

For each finalist *k* (1 = best) ``DIR`` gets ``design-k.bwproj`` (the board with
the layout laid), ``design-k.json`` (its objective terms, measures, the slots it
changes and the full census of the written project — read back from the file and
compiled anew, so the figures are confirmed independently of the search) and
``design-k.svg`` (the board, the changed slots outlined in blue, each turning tile
shaded red by its criticality). ``summary.txt`` and ``summary.json`` rank them.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from ..compiler import compile_board
from ..errors import UsageError
from ..rotations import census
from ..safeio import atomic_write
from ..store import load_project, save_project
from .finalists import verdict
from .measure import CensusOptions
from .search import Candidate, DesignResult


def _pct(x: float | None) -> str:
    return "–" if x is None else f"{100 * x:.2f} %"


def table(result: DesignResult, files: dict[str, str] | None = None) -> str:
    """The ranking as text: the start board first, then the finalists."""
    obj = result.objective
    paths = obj.needs_paths
    head = ["rank", "score", "connected", "worst tile (decides)"]
    if paths:
        head += ["steps mean", "spread", "min"]
    if "balance" in obj.weights:
        head += ["1st-player adv. [95 %] (decided/games)", "p vs start"]
    head += ["changed", "project"]
    rows = []
    first = [("start", result.base)]
    if result.compare is not None:
        first.append(("compare", result.compare))
    for label, c in first + [(str(i + 1), c) for i, c in enumerate(result.best)]:
        m = c.measures
        row = [
            label,
            f"{c.score:.4f}" + ("" if not c.violation else f" (misses by {c.violation})"),
            _pct(m.connected),
            f"{m.worst_tile or '–'} ({_pct(m.worst_criticality)})",  # finalists: measured
        ]
        if paths:
            row += [
                "–" if m.path_mean is None else f"{m.path_mean:.2f}",
                "–" if m.path_spread is None else str(m.path_spread),
                "–" if m.path_min is None else str(m.path_min),
            ]
        if "balance" in obj.weights:
            b = c.balance or {}
            adv = b.get("advantage")
            ci = b.get("ci95") or (None, None)
            row += [
                "–"
                if adv is None
                else f"{adv:+.3f} [{ci[0]:+.3f}, {ci[1]:+.3f}] ({b['decided']}/{b['games']})",
                "–" if b.get("p") is None else f"{b['p']:.3f}",
            ]
        stem = label if label in ("start", "compare") else f"design-{label}"
        row += [str(len(c.changes)), (files or {}).get(stem, "")]
        rows.append(row)
    widths = [max(len(r[i]) for r in [head, *rows]) for i in range(len(head))]
    lines = [
        f"objective: {obj.describe()}; {result.steps} steps, {result.measured} measured, "
        f"{result.cached} from the store, {result.seconds:.1f} s"
        + (" (interrupted: re-run to continue)" if result.interrupted else ""),
        "  ".join(h.ljust(w) for h, w in zip(head, widths)),
    ]
    lines += ["  ".join(v.ljust(w) for v, w in zip(r, widths)).rstrip() for r in rows]
    said = verdict(result)
    if said:
        lines.append(said)
    if result.best and not result.feasible:
        asked = [f"--min-distance {obj.min_distance}"] if obj.min_distance is not None else []
        if result.space.symmetry:
            asked.append(f"--symmetry {result.space.symmetry}")
        lines.append(
            f"no layout found meets {' and '.join(asked)}; the closest candidate "
            f"(rank 1, {result.best[0].key}) misses by {result.best[0].violation} "
            "(steps short of the distance plus slots out of symmetry)"
        )
    return "\n".join(lines)


def _overlay(svg: str, board: Any, changes: list[str], heat: dict[str, float]) -> str:
    """Changed slots outlined, turning tiles shaded by criticality, on the board's SVG."""
    shapes = []
    for p in board.placements:
        poly = board.outline_of(p)
        pts = " ".join(f"{x:.2f},{y:.2f}" for x, y in list(poly.exterior.coords)[:-1])
        h = heat.get(p.id, 0.0)
        if h > 0:
            shapes.append(
                f'<polygon points="{pts}" fill="#d62728" fill-opacity="{0.6 * h:.3f}" '
                f'stroke="none"><title>{p.id}: decides {100 * h:.1f} %</title></polygon>'
            )
        if p.id in changes:
            shapes.append(
                f'<polygon points="{pts}" fill="none" stroke="#1f77b4" stroke-width="3" '
                f'stroke-dasharray="6 3"><title>{p.id}: changed</title></polygon>'
            )
    layer = '<g id="design-overlay">' + "".join(shapes) + "</g>"
    cut = svg.rstrip().rfind("</svg>")
    return svg[:cut] + layer + "\n</svg>\n"


def confirm(path: Path, opts: CensusOptions) -> dict[str, Any]:
    """The census of a written project, read back and compiled anew."""
    compiled = compile_board(load_project(path))
    res = census(
        compiled,
        sources=opts.sources,
        targets=opts.targets,
        galleries=opts.galleries,
        spider=opts.spider,
        fewest=False,
    )
    return res.to_json()


def write(result: DesignResult, out: str | Path, opts: CensusOptions) -> dict[str, str]:
    """Write the start board and the finalists into ``out`` (see the module notes);
    returns ``{"start": path, "design-1": path, …}``."""
    from ..render import render_svg

    d = Path(out)
    try:
        d.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise UsageError(f"-o {d}: cannot write there ({exc.strerror or exc})") from None
    files: dict[str, str] = {}
    summary: list[dict[str, Any]] = []
    ranked: list[tuple[str, Candidate]] = [("start", result.base)] + [
        (f"design-{i + 1}", c) for i, c in enumerate(result.best)
    ]
    for stem, c in ranked:
        board = result.space.board_of(c.layout)
        board.meta = dict(board.meta)
        if stem != "start":
            board.meta["name"] = f"{board.meta.get('name') or 'board'} ({stem})"
            board.meta["description"] = (
                f"referee design: {result.objective.describe()}; score {c.score:.4f}; "
                f"changed {', '.join(c.changes) or 'nothing'}"
            )
        proj = d / f"{stem}.bwproj"
        save_project(board, proj)
        cen = confirm(proj, opts)
        heat = {t["tile"]: t["decided_fraction"] or 0.0 for t in cen["tiles"]}
        svg = render_svg(board, compile_board(board))
        atomic_write(d / f"{stem}.svg", _overlay(svg, board, c.changes, heat))
        entry = {
            "rank": stem,
            "project": str(proj),
            "picture": str(d / f"{stem}.svg"),
            **c.to_json(),
            "terms": result.objective.terms(c.measures, result.base.measures),
            "census": cen,
        }
        atomic_write(d / f"{stem}.json", json.dumps(entry, indent=1) + "\n")
        files[stem] = str(proj)
        summary.append({k: entry[k] for k in ("rank", "project", "key", "score", "violation")})
    atomic_write(d / "summary.txt", table(result, files) + "\n")
    atomic_write(
        d / "summary.json",
        json.dumps(
            {
                "objective": result.objective.describe(),
                "ranking": summary,
                "balance": verdict(result),
            },
            indent=1,
        )
        + "\n",
    )
    return files
