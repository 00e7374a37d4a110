"""``referee compile``, ``referee check`` and ``referee info``."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ..compiler import compile_board
from ..safeio import atomic_write
from ..store import load_project
from . import emit_json


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    from ..export import TEXT_FORMATS

    p = sub.add_parser(
        "compile",
        help="compile a board and write its graph",
        description="Compile PROJECT (a .bwproj file or its JSON export) and "
        "write the compiled graph.",
    )
    p.add_argument("project")
    p.add_argument("--format", default="node-link", choices=TEXT_FORMATS)
    p.add_argument("-o", "--output", help="file to write (default: stdout)")
    p.set_defaults(func=cmd_compile)

    p = sub.add_parser(
        "check",
        help="list a board's problems; exit 1 if it has errors",
        description="Compile PROJECT and list its problems, one per line. Exit 0 "
        "when it has no errors (warnings are listed), 1 otherwise.",
    )
    p.add_argument("project")
    p.add_argument("--json", action="store_true", help="print the problems as JSON")
    p.add_argument("--strict", action="store_true", help="fail on warnings too")
    # --format / --expect / --no-expect: see referee.expectations (issue 8)
    p.add_argument(
        "--format",
        choices=["text", "json", "junit", "github"],
        default=None,
        help="output: text (default), json (= --json), junit XML, github annotations",
    )
    p.add_argument(
        "--expect",
        metavar="FILE",
        help="expectations file (default: boardwright.toml next to PROJECT)",
    )
    p.add_argument("--no-expect", action="store_true", help="ignore boardwright.toml")
    p.set_defaults(func=cmd_check)

    p = sub.add_parser("info", help="count a board's nodes by kind and edges by relation")
    p.add_argument("project")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_info)


def cmd_compile(args: argparse.Namespace) -> int:
    from ..export import write_compiled

    compiled = compile_board(load_project(args.project))
    text = write_compiled(compiled, args.format)
    if args.output:
        out = Path(args.output)
        atomic_write(out, text)
        print(f"wrote {args.format} to {out}", file=sys.stderr)
    else:
        sys.stdout.write(text)
    return 0


def cmd_check(args: argparse.Namespace) -> int:
    from ..expectations import format_check, run_check

    run = run_check(args.project, strict=args.strict, expect=args.expect, no_expect=args.no_expect)
    fmt = args.format or ("json" if args.json else "text")
    sys.stdout.write(format_check(run, fmt))
    if fmt == "text":
        problems = run.all_problems()
        n_err = sum(p.severity == "error" for p in problems)
        print(
            f"{args.project}: {n_err} error(s), {len(problems) - n_err} warning(s)", file=sys.stderr
        )
    return 0 if run.ok else 1


def cmd_info(args: argparse.Namespace) -> int:
    board = load_project(args.project)
    compiled = compile_board(board)
    counts = compiled.counts()
    info = {
        "project": args.project,
        "name": board.name,
        "rules": board.rules,
        "tiles": len(board.placements),
        "turnable_tiles": sum(board.tile_of(p).turnable for p in board.placements),
        "features": len(board.features),
        "pieces": len(board.pieces),
        "board_hash": compiled.hash,
        **counts,
    }
    from ..checks import rules_counts

    own = rules_counts(board.rules, compiled)
    if own:
        info["rules_counts"] = own
    if args.json:
        emit_json(info)
        return 0
    print(f"{info['name']} ({args.project})")
    print(
        f"  rules: {board.rules or '-'}   tiles: {info['tiles']} "
        f"({info['turnable_tiles']} turnable)   free features: {info['features']}   "
        f"pieces: {info['pieces']}   hash: {compiled.hash}"
    )
    print("  nodes: " + ", ".join(f"{k} {v}" for k, v in counts["nodes"].items()))
    print("  edges: " + ", ".join(f"{k} {v}" for k, v in counts["edges"].items()))
    if own:
        print(
            f"  {board.rules}: " + ", ".join(f"{k.replace('_', ' ')} {v}" for k, v in own.items())
        )
    return 0
