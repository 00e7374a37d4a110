"""``referee design``: search the layouts of a board's tiles for the best by an objective.

``referee design RULES PROJECT --objective connected=1,criticality=0.5 --budget 2000``
anneals over what the designer leaves free (which tile lies in which slot of the
same outline, the turns of tiles that do not turn in play, with ``--pack`` which
of a pack's tiles of a slot's outline are used, and — when a path measure is asked
for — the initial turns), measuring each layout with the exact
rotation census, storing every measured layout in ``--db`` (a re-run continues),
and writes the best as projects with a summary (``-o DIR``). See
docs/how-to/design-a-board.md.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ..assets import AssetPack, load_pack, load_packs
from ..bots import parse_bots
from ..compiler import compile_board
from ..design import Budget, DesignStore, Objective, Searcher, Space, census_options, fixed_slots
from ..design.finalists import DEFAULT_BOT, n_specs, play_finalists, verdict
from ..design.report import table, write
from ..design.symmetry import SYMMETRIES
from ..errors import AssetError, UnknownNodeError, UsageError
from ..games import get_game
from ..store import load_project
from . import emit_json
from .options import VARIANT_HELP, parse_options


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser(
        "design",
        help="search tile layouts for the most robust, fairest board (exact census)",
        description="Search the layouts of PROJECT's tiles: which tile lies in which "
        "slot (tiles move only to slots of their own outline), the turn of tiles that do "
        "not turn in play, with --pack which of a pack's tiles are used, and with a path "
        "term or --min-distance the initial turns. "
        "Each layout is measured with the exact rotation census and stored in --db, so "
        "a re-run with the same seed continues without measuring again (Ctrl-C keeps "
        "what was measured). Prints the best layouts beside the start board; -o DIR "
        "writes them as projects with their census and a picture.",
    )
    p.add_argument("rules")
    p.add_argument("project")
    p.add_argument(
        "--objective",
        default="connected",
        metavar="TERM=W,…",
        help="weighted terms: connected, criticality, path-mean, path-spread, balance "
        "(default connected)",
    )
    p.add_argument(
        "--budget",
        default="500",
        help="candidates (2000) or time (90s, 10m) to search (default 500)",
    )
    p.add_argument("--seed", type=int, default=0, help="seed of the search (default 0)")
    p.add_argument(
        "--pin",
        action="append",
        default=[],
        metavar="SLOT[=TILE[@TURNS]]",
        help="keep a slot as it is, or put a tile there (repeatable; comma-separated)",
    )
    p.add_argument(
        "--pack",
        metavar="PACK",
        help="also try the tiles of this asset pack (an id of the shipped or "
        "$BOARDWRIGHT_ASSETS packs, or a pack folder) in slots of their outline",
    )
    p.add_argument(
        "--count",
        action="append",
        default=[],
        metavar="TILE=N",
        help="at most N slots hold this pack tile (repeatable; comma-separated; "
        "default: no limit, packs declare no tile counts)",
    )
    p.add_argument(
        "--min-distance",
        type=int,
        metavar="STEPS",
        help="every start at least this many steps from the goal at the initial turns",
    )
    p.add_argument(
        "--from", dest="sources", metavar="NODES", help="start nodes (default: white starts)"
    )
    p.add_argument(
        "--symmetry",
        default="none",
        choices=["none", *SYMMETRIES],
        help="ask for a layout that looks the same turned a half (rot180) or a quarter "
        "(rot90) turn about the middle of the board, or mirrored across its vertical "
        "(mirror-x), horizontal (mirror-y) or a diagonal (mirror-diag, mirror-anti) "
        "middle line, judged by the tiles' ports, paths and points (a constraint; "
        "default none)",
    )
    p.add_argument("--to", dest="targets", metavar="NODES", help="goal nodes (default: the goal)")
    p.add_argument("--galleries", default="none", metavar="SYMBOL|none")
    p.add_argument("--spider", default="open", choices=["open", "closed"])
    p.add_argument(
        "--compare",
        metavar="PROJECT",
        help="also measure this layout of the same slots (your current board) beside the start",
    )
    p.add_argument("--top", type=int, default=3, help="how many layouts to report (default 3)")
    p.add_argument("-o", "--out", metavar="DIR", help="write the best layouts here as projects")
    p.add_argument(
        "--db", default="design.sqlite", help="candidates database (default design.sqlite)"
    )
    p.add_argument(
        "--mode",
        choices=["incremental", "full"],
        default="incremental",
        help="measure from the placements, reusing censuses (default), or compile each board",
    )
    bal = p.add_argument_group("balance (the finalists only, as referee balance plays them)")
    bal.add_argument("--games", type=int, default=40, help="games per finalist (default 40)")
    bal.add_argument(
        "--bots",
        help=f"one bot per seat, e.g. greedy,greedy (default {DEFAULT_BOT} in every seat)",
    )
    bal.add_argument("--players", type=int, help="seats (default: the number of --bots)")
    bal.add_argument("--option", action="append", metavar="KEY=VALUE")
    bal.add_argument("--variant", metavar="V", help=VARIANT_HELP)
    bal.add_argument("--max-moves", type=int, default=3000)
    bal.add_argument("--engine", choices=("local", "dask"), default="local")
    bal.add_argument("--scheduler", help="Dask scheduler address, tcp://HOST:8786")
    bal.add_argument("--workers", type=int, help="local processes (default: one per CPU)")
    p.add_argument(
        "--progress",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="progress on stderr (default on)",
    )
    p.add_argument("--json", action="store_true", help="print the result as JSON")
    p.set_defaults(func=cmd_design)


def _ids(text: str | None) -> list[str] | None:
    if text is None:
        return None
    ids = [t.strip() for t in text.split(",") if t.strip()]
    if not ids:
        raise UsageError("an empty list of node ids")
    return ids


def _progress(
    step: int, steps: int | None, measured: int, cached: int, best: float, t: float
) -> None:
    of = f"/{steps}" if steps else ""
    rate = measured / t if t > 0 else 0.0
    sys.stderr.write(
        f"\rdesign: step {step}{of}, {measured} measured ({rate:.1f}/s), "
        f"{cached} from the store, best {best:.4f}   "
    )
    sys.stderr.flush()


def _pack(name: str) -> AssetPack:
    """``--pack``: a pack folder, else a pack id among :func:`load_packs`."""
    try:
        if Path(name, "pack.json").is_file():
            return load_pack(name)
        packs = load_packs()
    except AssetError as exc:
        raise UsageError(f"--pack {name}: {exc}") from None
    if name not in packs:
        known = ", ".join(sorted(packs)) or "none"
        raise UsageError(f"--pack {name}: no such pack (packs: {known})")
    return packs[name]


def cmd_design(args: argparse.Namespace) -> int:
    get_game(args.rules)  # an unknown rules name is one line
    objective = Objective.parse(args.objective, args.min_distance)
    budget = Budget.parse(args.budget)
    if args.top < 1:
        raise UsageError(f"--top must be at least 1, not {args.top}")
    if "balance" in objective.weights:  # a bad --bots is refused before the search
        bots = args.bots or DEFAULT_BOT
        parse_bots(bots, args.players or max(2, n_specs(bots)))
    board = load_project(args.project)
    declared = board.rules
    if declared and declared != args.rules:
        raise UsageError(f"{args.project} declares rules {declared!r}, not {args.rules!r}")
    compiled = compile_board(board)
    try:
        opts = census_options(
            compiled, _ids(args.sources), _ids(args.targets), args.galleries, args.spider
        )
    except UnknownNodeError as exc:  # a --from/--to name is a usage error here
        raise UsageError(str(exc)) from None
    pins = [p for raw in args.pin for p in raw.split(",")]
    space = Space.from_board(
        board,
        pins=pins,
        fixed_slots=fixed_slots(compiled, opts),
        turns_matter=objective.needs_paths,
        symmetry=args.symmetry,
        pack=_pack(args.pack) if args.pack else None,
        counts=[c for raw in args.count for c in raw.split(",")],
    )
    space.check_free()
    other = (
        space.layout_of(load_project(args.compare), f"--compare {args.compare}")
        if args.compare
        else None
    )
    with DesignStore(args.db) as store:
        searcher = Searcher(space, compiled, opts, objective, store, mode=args.mode)
        result = searcher.run(
            budget, seed=args.seed, top=args.top, progress=_progress if args.progress else None
        )
        if other is not None:
            searcher.compare(result, other)
    if args.progress:
        sys.stderr.write("\n")
    if "balance" in objective.weights:
        play_finalists(
            result,
            rules=args.rules,
            bots=args.bots,
            players=args.players,
            games=args.games,
            options=parse_options(args.option, args.variant, args.rules),
            max_moves=args.max_moves,
            engine=args.engine,
            workers=args.workers,
            scheduler=args.scheduler,
            db=args.db,
            out=args.out,
            progress=args.progress,
        )
    files = write(result, args.out, opts) if args.out else None
    if args.json:
        emit_json(
            {
                "objective": objective.describe(),
                "steps": result.steps,
                "measured": result.measured,
                "cached": result.cached,
                "interrupted": result.interrupted,
                "feasible": result.feasible,
                "start": result.base.to_json(),
                "compare": result.compare.to_json() if result.compare else None,
                "best": [c.to_json() for c in result.best],
                "balance": verdict(result),
                "files": files,
            }
        )
    else:
        print(table(result, files))
    if args.db:
        print(f"candidates in {args.db}", file=sys.stderr)
    return 130 if result.interrupted else 0
