"""``referee render``: draw a board as SVG (headless, no Qt)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from ..errors import UsageError
from ..safeio import atomic_write, finite
from ..store import images_dir, load_project
from . import emit_json


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser(
        "render",
        help="draw a board as SVG",
        description="Draw PROJECT as an SVG picture at real size (millimetres): "
        "tiles, terrain, paths, points, arrows, doors, counter spaces, "
        "region maps, tracks and pieces; --graph overlays the compiled "
        "graph. Headless: needs no display.",
    )
    p.add_argument("project")
    p.add_argument(
        "--state",
        metavar="STATE",
        help="draw this game state file (from `referee new`/`play`) on the board: its "
        "figures where they stand, tiles at the game's turns, instead of the set-up pieces",
    )
    p.add_argument("-o", "--output", help="SVG file to write (default: stdout)")
    p.add_argument(
        "--graph",
        action="store_true",
        help="overlay the compiled graph (edges by relation, port nodes, problems)",
    )
    p.add_argument("--no-pieces", action="store_true", help="leave the pieces out")
    p.add_argument("--no-ports", action="store_true", help="leave the port marks out")
    p.add_argument("--no-labels", action="store_true", help="leave all text out")
    p.add_argument(
        "--flat",
        action="store_true",
        help="flat terrain fills without patterns (a picture to trace spaces from)",
    )
    p.add_argument(
        "--layers",
        metavar="LIST",
        help="draw only these comma-separated layers, e.g. ground,regions (the spaces alone)",
    )
    p.add_argument(
        "--no-legend",
        action="store_true",
        help="leave out the key to the symbols (drawn in the frame of tile boards)",
    )
    p.add_argument(
        "--turn",
        action="append",
        default=[],
        metavar="TILE=TURNS",
        help="draw with a placed tile at another turn (repeatable), e.g. r1c2=1",
    )
    p.add_argument(
        "--images",
        choices=["embed", "link", "none"],
        default="embed",
        help="pictures in the SVG: embedded (default), linked to FILE.images/<id>.<ext> "
        "written beside the SVG, or left out; the PNG always embeds them",
    )
    p.add_argument("--png", metavar="FILE", help="also write a PNG (rasterised by resvg, at --dpi)")
    p.add_argument(
        "--dpi",
        type=float,
        default=96.0,
        help="PNG resolution in dots per inch of the board's real size (default 96)",
    )
    p.add_argument("--json", action="store_true", help="report what was written as JSON")
    p.set_defaults(func=cmd_render)


def _turns(specs: list[str]) -> dict[str, int]:
    out: dict[str, int] = {}
    for spec in specs:
        pid, sep, t = spec.partition("=")
        if not sep or not pid:
            raise UsageError(f"--turn wants TILE=TURNS, not {spec!r}")
        try:
            if len(t) > 12:
                raise ValueError
            out[pid] = int(t)
        except ValueError:
            raise UsageError(f"--turn {spec!r}: turns must be an integer") from None
    return out


def cmd_render(args: argparse.Namespace) -> int:
    from ..compiler import compile_board
    from ..render import render_svg
    from ..render.png import write_png

    if args.png:
        finite(args.dpi, "--dpi", low=1e-3, high=10000)
    turns = _turns(args.turn)
    game = None
    if args.state and turns:
        raise UsageError("--turn cannot go with --state: the game's tiles stand as it turned them")
    if args.state:
        from ..envelopes import game_of, load_envelope

        game = game_of(load_envelope(args.state), args.project, where=args.state)
        board = game.compiled.board
    else:
        board = load_project(args.project)
    for pid, t in turns.items():
        p = board.placement(pid)
        p.turns = t % board.tile_of(p).turn_count
    compiled = compile_board(board) if args.graph and game is None else None
    layers = [x.strip() for x in args.layers.split(",") if x.strip()] if args.layers else None
    options: dict[str, Any] = {
        "graph": args.graph,
        "pieces": not args.no_pieces,
        "ports": not args.no_ports,
        "legend": not args.no_legend,
        "labels": not args.no_labels,
        "patterns": not args.flat,
        "layers": layers,
        "game": game,
    }
    link_base = ""
    if args.images == "link" and args.output:
        folder = images_dir(args.output)
        board.images.write_folder(folder, [i for _, i in board.image_uses() if i in board.images])
        link_base = folder.name + "/"
    text = render_svg(board, compiled, images=args.images, image_link_base=link_base, **options)
    written: dict[str, str] = {}
    if args.output:
        out = Path(args.output)
        atomic_write(out, text)
        written["svg"] = str(out)
    elif not args.png:
        sys.stdout.write(text)
    if args.png:
        png_svg = text
        if len(board.images):  # embed pictures reduced to the PNG's resolution
            png_svg = render_svg(
                board, compiled, images="embed", image_px_per_mm=args.dpi / 25.4, **options
            )
        written["png"] = write_png(png_svg, Path(args.png), args.dpi)
    if args.json:
        emit_json({"project": args.project, "written": written, "bytes": len(text.encode())})
    else:
        for kind, path in written.items():
            print(f"wrote {kind} to {path}", file=sys.stderr)
    return 0
