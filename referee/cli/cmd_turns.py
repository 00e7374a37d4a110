"""``referee turns``: rotation connectivity analysis over every configuration.

``referee turns PROJECT`` counts (exactly, by a frontier dynamic program, or by
sampling) the configurations of the turnable tiles that keep every ``--to`` node
joined to a ``--from`` node, ranks the tiles by how often their turn decides the
answer, and writes a failing configuration and the one with the fewest reachable
points as projects (+ SVG pictures). ``referee turns PROJECT --legal TILE`` lists
the legal turns of one tile (every port it touches meets a path).
"""

from __future__ import annotations

import argparse
import os
import re
import sys
from pathlib import Path
from typing import Any

from ..compiler import compile_board
from ..errors import UsageError
from ..store import load_project
from . import emit_json


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser(
        "turns",
        help="which tile turns keep the goal reachable (exact census over every configuration)",
        description="Rotation connectivity analysis. Counts the distinct configurations of "
        "the turning tiles (turns that leave a tile's connectivity unchanged count "
        "once) and how many connect every --to node to some --from node along "
        "paths, as light figures move (ignoring figures). Exact by default (a "
        "frontier dynamic program, no enumeration); --sample N estimates with a "
        "95 % interval. With --legal TILE: the turns of one tile whose ports all "
        "meet a path on the other side.",
    )
    p.add_argument("project")
    p.add_argument(
        "--from",
        dest="sources",
        metavar="NODES",
        help="comma-separated start nodes (default: every white starting point)",
    )
    p.add_argument(
        "--to",
        dest="targets",
        metavar="NODES",
        help="comma-separated nodes that must all be reached (default: the goal)",
    )
    p.add_argument(
        "--tiles",
        default="turnable",
        metavar="IDS|turnable",
        help="comma-separated placement ids to vary, or 'turnable' (default)",
    )
    p.add_argument(
        "--galleries",
        default="none",
        metavar="SYMBOL|none",
        help="join every dwarf door of this symbol (moon, star), as when the "
        "face-up card shows it (default none)",
    )
    p.add_argument(
        "--spider",
        default="open",
        choices=["open", "closed"],
        help="whether the spider-guarded secret passage may be used (default open)",
    )
    mode = p.add_mutually_exclusive_group()
    mode.add_argument("--exact", action="store_true", help="exact census (the default)")
    mode.add_argument(
        "--sample", type=int, metavar="N", help="estimate from N random configurations instead"
    )
    p.add_argument("--seed", type=int, default=0, help="seed of --sample (default 0)")
    p.add_argument(
        "--workers",
        type=int,
        default=1,
        metavar="N",
        help="processes: 2 or more run the counting passes and the fewest-points "
        "search side by side (default 1)",
    )
    p.add_argument(
        "--out",
        metavar="DIR",
        help="folder for the failing and fewest-points configurations as projects "
        "and pictures (default: turns-<project> in the current folder)",
    )
    p.add_argument("--no-write", action="store_true", help="do not write the configurations")
    p.add_argument(
        "--progress",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="progress bar on stderr (default: when stderr is a terminal)",
    )
    p.add_argument(
        "--legal", metavar="TILE", help="list the legal turns of the tile placed as TILE and stop"
    )
    p.add_argument("--json", action="store_true", help="print the result as JSON")
    p.set_defaults(func=cmd_turns)


def _ids(text: str | None) -> list[str] | None:
    if text is None:
        return None
    ids = [t.strip() for t in text.split(",") if t.strip()]
    if not ids:
        raise UsageError("an empty list of ids")
    return ids


class _Bar:
    """A stderr progress bar: tqdm when installed, else a plain one-line bar."""

    def __init__(self, enabled: bool) -> None:
        self.enabled = enabled
        self.bar: Any = None
        self.last = -1

    def __call__(self, done: int, total: int, stage: str) -> None:
        if not self.enabled:
            return
        try:
            from tqdm import tqdm
        except ImportError:  # pragma: no cover - tqdm is a dependency
            tqdm = None
        if tqdm is not None:
            if self.bar is None:
                self.bar = tqdm(
                    total=total, file=sys.stderr, unit="step", leave=False, desc="turns"
                )
            self.bar.set_description(f"turns {stage}", refresh=False)
            self.bar.update(done - self.bar.n)
            return
        pct = int(100 * done / max(1, total))
        if pct != self.last:
            self.last = pct
            fill = pct // 4
            print(
                f"\rturns {stage:<9} [{'#' * fill}{'.' * (25 - fill)}] {pct:3d}%",
                end="",
                file=sys.stderr,
                flush=True,
            )

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()
        elif self.enabled and self.last >= 0:
            print(file=sys.stderr)


def cap_workers(asked: int) -> int:
    """``asked`` capped at the cores this process may use; a note on stderr when capped.

    Each worker holds its own copy of the compiled board and the census plan, so
    more processes than cores only add memory, never speed.
    """
    try:
        cores = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # pragma: no cover - not Linux
        cores = os.cpu_count() or 1
    if asked > cores:
        print(
            f"referee turns: --workers {asked} capped at {cores} (the cores available)",
            file=sys.stderr,
        )
        return cores
    return asked


def cmd_turns(args: argparse.Namespace) -> int:
    from ..rotations import census, legal_turns, write_witness

    if args.workers < 1:
        raise UsageError("--workers must be at least 1")
    if args.sample is not None and args.sample < 1:
        raise UsageError("--sample must be at least 1")
    args.workers = cap_workers(args.workers)
    board = load_project(args.project)
    compiled = compile_board(board)
    if args.legal:
        lt = legal_turns(compiled, args.legal)
        if args.json:
            emit_json({"project": args.project, **lt.to_json()})
            return 0
        sym = " ".join("{" + ",".join(map(str, c)) + "}" for c in lt.classes)
        print(
            f"tile {lt.placement}: {lt.turn_count} turns, now {lt.current}"
            f"{'' if lt.turnable else ' (does not turn)'}; alike turns: {sym}"
        )
        print(f"legal turns: {', '.join(map(str, lt.legal)) or 'none'}")
        for v in lt.verdicts:
            if v.legal:
                print(f"  turn {v.turns}: legal")
            else:
                print(f"  turn {v.turns}: rejected")
                for r in v.reasons:
                    print(f"    - {r}")
        return 0
    tiles: Any = "turnable" if args.tiles.strip() == "turnable" else _ids(args.tiles)
    show = args.progress if args.progress is not None else sys.stderr.isatty()
    bar = _Bar(bool(show))
    try:
        res = census(
            compiled,
            sources=_ids(args.sources),
            targets=_ids(args.targets),
            tiles=tiles,
            galleries=args.galleries,
            spider=args.spider,
            sample=args.sample,
            seed=args.seed,
            workers=args.workers,
            progress=bar,
        )
    finally:
        bar.close()
    written: dict[str, list[str]] = {}
    if not args.no_write:
        out = Path(args.out) if args.out else Path(f"turns-{_slug(Path(args.project).stem)}")
        for name, w in (("unreachable", res.unreachable), ("fewest", res.fewest)):
            if w is None:
                continue
            note = (
                f"referee turns: {name} configuration of {board.name} "
                f"({'reaches' if w.success else 'does not reach'} every target; "
                f"{w.reachable_points} reachable points)"
            )
            files = write_witness(board, w, out / f"{name}.bwproj", note=note)
            written[name] = [str(f) for f in files]
    if args.json:
        emit_json({"project": args.project, **res.to_json(), "written": written})
    else:
        _print_text(args, board.name, res, written)
    # an interrupted run printed what it had; say so in the exit status too
    return 130 if res.partial else 0


def _slug(s: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]+", "-", s).strip("-") or "board"


def _n(x: int) -> str:
    return f"{x:,}".replace(",", " ")


def _pct(x: float | None) -> str:
    return "-" if x is None else f"{100 * x:.2f} %"


def _print_text(
    args: argparse.Namespace, name: str, res: Any, written: dict[str, list[str]]
) -> None:
    print(
        f"{name} ({args.project}): {len(res.tiles)} tiles turn, "
        f"{_n(res.total)} distinct configurations"
    )
    print(
        f"  from {', '.join(res.sources)} -> to {', '.join(res.targets)}; "
        f"galleries {res.galleries or 'none'}; spider path {res.spider}"
    )
    if res.method == "exact":
        if res.success is not None:
            print(
                f"  connected: {_n(res.success)} of {_n(res.total)} ({_pct(res.fraction)}), exact"
            )
        elif res.success_bounds:
            lo, hi = res.success_bounds
            print(
                f"  connected: between {_n(lo)} and {_n(hi)} of {_n(res.total)} "
                f"(interrupted during the count)"
            )
    else:
        lo, hi = res.interval or (0.0, 1.0)
        print(
            f"  connected: about {_pct(res.estimate)} (95 % interval {_pct(lo)} - {_pct(hi)}; "
            f"about {_n(round((res.estimate or 0) * res.total))} of {_n(res.total)}), "
            f"from {_n(res.samples or 0)} random configurations, seed {res.seed}"
        )
    for note in res.notes:
        print(f"  note: {note}")
    print(
        "  tiles, most critical first (decides = share of the other tiles' configurations "
        "in which turning this tile alone changes the answer):"
    )
    print(f"    {'tile':<10} {'alike turns':<22} {'decides':>9}  success by turn")
    for t in res.tiles:
        sym = " ".join("{" + ",".join(map(str, c)) + "}" for c in t.classes)
        probs = t.success_probability
        if probs is None:
            print(f"    {t.placement:<10} {sym:<22} {'-':>9}  (not computed: interrupted)")
            continue
        by = "  ".join(f"{c[0]}:{100 * p:.1f}%" for c, p in zip(t.classes, probs))
        print(f"    {t.placement:<10} {sym:<22} {_pct(t.decided_fraction):>9}  {by}")
    for label, w, key in (
        ("unreachable goal", res.unreachable, "unreachable"),
        ("fewest reachable points", res.fewest, "fewest"),
    ):
        if w is None:
            if key == "unreachable" and not res.partial:
                print(f"  {label}: none - every configuration connects")
            continue
        turns = " ".join(f"{k}={v}" for k, v in w.turns.items())
        print(
            f"  {label}: {w.reachable_points} points reachable, "
            f"{'connects' if w.success else 'does not connect'}; turns {turns}"
        )
        if key in written:
            print(f"    written: {', '.join(written[key])}")
    if res.partial:
        print(f"  PARTIAL: interrupted; not computed: {', '.join(res.missing) or '-'}")
    print(
        f"  {res.seconds:.2f} s"
        + (
            f", frontier width {res.frontier_width}, largest table {res.max_states} states"
            if res.frontier_width is not None
            else ""
        ),
        file=sys.stderr,
    )
