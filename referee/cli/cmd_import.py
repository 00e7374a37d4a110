"""``referee import FORMAT FILE -o PROJECT``: a board from Tiled, GeoJSON or a graph.

The formats, their flags and what each reads come from the importers' registry
(:data:`referee.importers.IMPORTERS`). The board is written only when the whole file
was read: every problem is one line on stderr (exit 1) and nothing is written; on
success the project is saved atomically through the project store (a ``.json`` name
writes the JSON export, any other the SQLite project), and what the format could not
carry is one line per kind on stderr (and ``lost`` in ``--json``).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from . import emit_json, say


def _used_by(option: str) -> str:
    from ..importers import IMPORTERS

    names = [n for n, i in IMPORTERS.items() if option in i.options]
    return "" if len(names) == len(IMPORTERS) else " (" + ", ".join(names) + ")"


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    from ..importers import IMPORTERS, LAYOUTS, OPTIONS

    names = list(IMPORTERS)
    p = sub.add_parser(
        "import",
        help="import a board: " + ", ".join(names),
        description="Read FILE as FORMAT and write it as the project PROJECT: "
        + "; ".join(f"{i.name}: {i.description}" for i in IMPORTERS.values())
        + ". Nothing is written unless the whole file is read.",
    )
    p.add_argument("format", choices=names, metavar="FORMAT", help=" | ".join(names))
    p.add_argument("file", metavar="FILE")
    p.add_argument(
        "-o",
        "--output",
        required=True,
        metavar="PROJECT",
        help="project to write (.bwproj, or .json for the JSON export)",
    )

    def option(name: str, **kwargs: Any) -> None:
        o = OPTIONS[name]
        p.add_argument(o.flag, dest=name, help=o.help + _used_by(name), **kwargs)

    option("px_per_mm", type=float, default=None, metavar="N")
    option("mm_per_unit", type=float, default=1.0, metavar="MM")
    option("metres_per_mm", type=float, default=None, metavar="M")
    option("layout", default="spring", choices=LAYOUTS, metavar="NAME")
    option("graph_only", action="store_true")
    option("root", default=None, metavar="DIR")
    option("rules", default=None, metavar="NAME")
    p.add_argument("--force", action="store_true", help="replace PROJECT if it exists")
    p.add_argument("--json", action="store_true", help="print what was imported as JSON")
    p.set_defaults(func=cmd_import)


def cmd_import(args: argparse.Namespace) -> int:
    from ..compiler import compile_board
    from ..errors import UsageError
    from ..importers import ImportRefused, ImportSettings, import_board
    from ..store import save_board

    out = Path(args.output)
    if out.exists() and not args.force:
        raise UsageError(f"-o {out} exists; --force replaces it")
    if not out.parent.is_dir():
        raise UsageError(f"cannot write {out}: folder {out.parent} does not exist")
    if out.is_dir():
        raise UsageError(f"-o {out} is a folder; name the project file")
    settings = ImportSettings(
        px_per_mm=args.px_per_mm,
        mm_per_unit=args.mm_per_unit,
        metres_per_mm=args.metres_per_mm,
        layout=args.layout,
        graph_only=args.graph_only,
        root=Path(args.root) if args.root else None,
        rules=args.rules,
    )
    try:
        result = import_board(args.format, args.file, settings)
    except ImportRefused as exc:
        if args.json:
            emit_json({"error": exc.to_json()})
        for line in exc.problems:
            say(f"referee import: {line}")
        return 1
    board = result.board
    compiled = compile_board(board)
    save_board(board, out)
    counts = compiled.counts()
    n_nodes = sum(counts["nodes"].values())
    n_edges = sum(counts["edges"].values())
    errors = len(compiled.errors())
    if args.json:
        emit_json(
            {
                "format": result.format,
                "file": result.source,
                "project": str(out),
                "board_hash": compiled.hash,
                "features": len(board.features),
                "placements": len(board.placements),
                "tiles": len(board.tiles),
                "nodes": n_nodes,
                "edges": n_edges,
                "errors": errors,
                "lost": result.lost,
            }
        )
    for line in result.lost:
        say(f"lost: {line}")
    print(
        f"wrote {out}: {len(board.features)} features, {len(board.placements)} placed tiles; "
        f"{n_nodes} nodes, {n_edges} edges"
        + (f"; {errors} errors (referee check lists them)" if errors else ""),
        file=sys.stderr,
    )
    return 0
