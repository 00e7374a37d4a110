"""``referee export``: a board for other frontends (graph formats, Tiled, TTS, pictures)."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from ..compiler import compile_board
from ..store import load_project
from . import emit_json


def _used_by(option: str) -> str:
    """`` (png, tts)``: the formats that read ``option`` (:data:`referee.export.EXPORTERS`)."""
    from ..export import EXPORTERS

    return " (" + ", ".join(n for n, e in EXPORTERS.items() if option in e.options) + ")"


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    from ..export import EXPORTERS, OPTIONS

    names = list(EXPORTERS)
    p = sub.add_parser(
        "export",
        help="export a board: " + ", ".join(names),
        description="Compile PROJECT and write it as FORMAT to FILE: "
        + "; ".join(f"{e.name}: {e.description}" for e in EXPORTERS.values())
        + ".",
    )
    p.add_argument("project")
    p.add_argument("--to", required=True, choices=names, metavar="FORMAT", help=" | ".join(names))
    p.add_argument("-o", "--output", required=True, metavar="FILE")

    def option(name: str, **kwargs: Any) -> None:
        o = OPTIONS[name]
        p.add_argument(o.flag, dest=name, help=o.help + _used_by(name), **kwargs)

    option("png_width", type=int, default=2048, metavar="PX")
    option("px_per_mm", type=float, default=1.0, metavar="N")
    option("image_url", metavar="URL")
    option("image_url_base", metavar="URL")
    option("mm_per_unit", type=float, default=None, metavar="MM")
    option("geo", metavar="LON,LAT")
    p.add_argument(
        "--geo-metres-per-mm",
        type=float,
        default=1.0,
        metavar="M",
        help="with --geo-origin: metres of ground per board millimetre (default 1)",
    )
    p.add_argument("--json", action="store_true", help="print what was written as JSON")
    p.set_defaults(func=cmd_export)


def cmd_export(args: argparse.Namespace) -> int:
    from ..errors import UsageError
    from ..export import write_export
    from ..safeio import finite

    if not 1 <= args.png_width <= 16384:
        raise UsageError(f"--png-width must be from 1 to 16384, not {args.png_width}")
    finite(args.px_per_mm, "--px-per-mm", low=1e-6, high=1e6)
    if args.mm_per_unit is not None:
        finite(args.mm_per_unit, "--tts-mm-per-unit", low=1e-6, high=1e6)
    geo = None
    if args.geo is not None:
        from ..export import GeoPlacement

        finite(args.geo_metres_per_mm, "--geo-metres-per-mm", low=1e-9, high=1e9)
        geo = GeoPlacement.parse(args.geo, args.geo_metres_per_mm)
        finite(geo.lon, "--geo-origin longitude", low=-180, high=180)
        finite(geo.lat, "--geo-origin latitude", low=-90, high=90)
    compiled = compile_board(load_project(args.project))
    files = write_export(
        compiled,
        args.to,
        args.output,
        png_width=args.png_width,
        px_per_mm=args.px_per_mm,
        image_url=args.image_url,
        mm_per_unit=args.mm_per_unit,
        image_url_base=args.image_url_base,
        geo=geo,
    )
    if args.json:
        emit_json(
            {
                "project": args.project,
                "format": args.to,
                "files": [str(f) for f in files],
                "board_hash": compiled.hash,
            }
        )
    else:
        for f in files:
            print(f"wrote {f}", file=sys.stderr)
    return 0
