"""Design search speed: candidates measured per second, incremental against full, side
by side in one process.

Usage::

    python bench/design.py [--steps 150] [--repeat 2] [--seed 0]

Each case runs the same seeded annealing chain (``referee design``'s
:class:`~referee.design.Searcher`, a fresh in-memory store each run) twice per
repeat, alternating:

- **full** (the baseline): every layout is compiled (``compile_board``) and the census
  runs on the compiled board;
- **incremental** (the default of ``referee design``): the census reads the
  placements without compiling, and a layout whose census-deciding cells (tiles per
  slot, turns of tiles that do not turn in play) were measured before reuses that
  census.

Cases: the shipped Ringgeister board (18 turning tiles of 23) with the census
objective alone (``connected``) and with a path term (``connected,path-spread=0.1``:
the initial turns become free, every layout is compiled for its path lengths, and
the census is reused when only a turning tile's initial turn changed); and a
generated 7 × 7 grid (40 turning tiles) with the census alone. ``same`` says whether
both modes walked the same chain (the same layouts measured, the same best, the same
figures). A fourth case asks for a half-turn symmetry on Ringgeister (each proposal
then also settles the turns of every orbit and may be an orbit swap or an ejection
chain toward symmetry; Ringgeister's tiles are one of a kind, so no layout meets it
and the closest is reported). Best of ``--repeat`` per side. The last line is one JSON object.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from referee.compiler import compile_board  # noqa: E402
from referee.design import (  # noqa: E402
    Budget,
    DesignStore,
    Objective,
    Searcher,
    Space,
    census_options,
    fixed_slots,
)
from referee.model import Board  # noqa: E402
from referee.rotations.generate import grid_board  # noqa: E402
from referee.store import load_project  # noqa: E402


def boards() -> dict[str, Board]:
    return {
        "ringgeister": load_project(ROOT / "projects" / "ringgeister" / "ringgeister.json"),
        "7x7": grid_board(7, 7, 40, seed=5, asymmetric=True),
    }


CASES = [
    ("ringgeister census", "ringgeister", "connected", None),
    ("ringgeister census+paths", "ringgeister", "connected,path-spread=0.1", None),
    ("ringgeister census rot180", "ringgeister", "connected", "rot180"),
    ("7x7 census", "7x7", "connected", None),
]


def run(
    board: Board, objective: str, mode: str, steps: int, seed: int, symmetry: str | None = None
) -> dict[str, Any]:
    t0 = time.perf_counter()
    compiled = compile_board(board)
    opts = census_options(compiled)
    obj = Objective.parse(objective)
    space = Space.from_board(
        board,
        fixed_slots=fixed_slots(compiled, opts),
        turns_matter=obj.needs_paths,
        symmetry=symmetry,
    )
    with DesignStore(":memory:") as store:
        s = Searcher(space, compiled, opts, obj, store, mode=mode)
        r = s.run(Budget(steps=steps), seed=seed)
        keys = [k for k, _, _ in store.all(s.space_key)]
        figures = [
            (m.success, m.total, m.worst_criticality, m.steps) for _, _, m in store.all(s.space_key)
        ]
    dt = time.perf_counter() - t0
    return {
        "seconds": dt,
        "measured": r.measured,
        "per_s": r.measured / dt,
        "best": r.best[0].key,
        "best_score": r.best[0].score,
        "keys": keys,
        "figures": figures,
        "censuses": len(s.evaluator.census_memo) if mode == "incremental" else r.measured,
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--steps", type=int, default=150)
    ap.add_argument("--repeat", type=int, default=2)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    bs = boards()
    rows = []
    for name, which, objective, symmetry in CASES:
        best: dict[str, dict[str, Any]] = {}
        for _ in range(args.repeat):
            for mode in ("full", "incremental"):
                got = run(bs[which], objective, mode, args.steps, args.seed, symmetry)
                if mode not in best or got["seconds"] < best[mode]["seconds"]:
                    best[mode] = got
        f, i = best["full"], best["incremental"]
        same = f["keys"] == i["keys"] and f["best"] == i["best"] and f["figures"] == i["figures"]
        rows.append(
            {
                "case": name,
                "steps": args.steps,
                "measured": i["measured"],
                "full_per_s": round(f["per_s"], 2),
                "incremental_per_s": round(i["per_s"], 2),
                "speedup": round(i["per_s"] / f["per_s"], 2),
                "censuses_full": f["censuses"],
                "censuses_incremental": i["censuses"],
                "best_score": round(i["best_score"], 4),
                "same": same,
            }
        )
        print(f"{name}: done", file=sys.stderr)
    head = ("case", "measured", "full/s", "incr./s", "speedup", "censuses f/i", "best", "same")
    table = [
        (
            r["case"],
            str(r["measured"]),
            f"{r['full_per_s']:.1f}",
            f"{r['incremental_per_s']:.1f}",
            f"{r['speedup']:.2f}x",
            f"{r['censuses_full']}/{r['censuses_incremental']}",
            f"{r['best_score']:.4f}",
            "yes" if r["same"] else "NO",
        )
        for r in rows
    ]
    widths = [max(len(x[k]) for x in [head, *table]) for k in range(len(head))]
    print(f"design search, {args.steps} steps per run, seed {args.seed}, best of {args.repeat}")
    for line in [head, *table]:
        print("  ".join(v.ljust(w) for v, w in zip(line, widths)))
    print(json.dumps({"bench": "design", "steps": args.steps, "cases": rows}))


if __name__ == "__main__":
    main()
