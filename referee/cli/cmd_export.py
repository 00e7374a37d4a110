"""``referee export``: a board for other frontends (graph formats, Tiled, TTS, pictures)."""

from __future__ import annotations

import argparse
import sys

from ..compiler import compile_board
from ..store import load_project
from . import emit_json


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    from ..export import EXPORT_FORMATS

    p = sub.add_parser(
        "export",
        help="export a board: node-link, graphml, geojson, tmj (Tiled), tts, svg, png",
        description="Compile PROJECT and write it as FORMAT to FILE. node-link is our compiled-"
        "board JSON (schema: referee/schema/compiled.schema.json); tmj is a Tiled "
        "map; tts is a Tabletop Simulator saved object (its picture is written "
        "beside it as FILE's name with .png); svg/png are the `render` drawing.",
    )
    p.add_argument("project")
    p.add_argument(
        "--to",
        required=True,
        choices=EXPORT_FORMATS,
        metavar="FORMAT",
        help=" | ".join(EXPORT_FORMATS),
    )
    p.add_argument("-o", "--output", required=True, metavar="FILE")
    p.add_argument("--png-width", type=int, default=2048, help="PNG width in pixels (png, tts)")
    p.add_argument("--px-per-mm", type=float, default=1.0, help="Tiled pixels per mm (tmj)")
    p.add_argument("--image-url", help="tts: URL of the board picture instead of writing one")
    p.add_argument(
        "--image-url-base",
        metavar="URL",
        help="tts: URL prefix of the hosted pictures (tile faces, tokens, card sheets) "
        "instead of file:// URLs; upload FILE's .images folder there",
    )
    p.add_argument(
        "--tts-mm-per-unit",
        type=float,
        default=None,
        help="tts: millimetres of board per TTS unit (default 25.4)",
    )
    p.add_argument(
        "--geo-origin",
        metavar="LON,LAT",
        help="geojson: lay the board on the Earth with its origin at these degrees, north "
        "up (default: board millimetres, y down, not geographic); a western longitude "
        "needs '=': --geo-origin=-3.19,55.95",
    )
    p.add_argument(
        "--geo-metres-per-mm",
        type=float,
        default=1.0,
        metavar="M",
        help="geojson with --geo-origin: metres of ground per board millimetre (default 1)",
    )
    p.add_argument("--json", action="store_true", help="print what was written as JSON")
    p.set_defaults(func=cmd_export)


def cmd_export(args: argparse.Namespace) -> int:
    from ..errors import UsageError
    from ..export import write_export

    if (
        args.png_width < 1
        or args.px_per_mm <= 0
        or (args.tts_mm_per_unit is not None and args.tts_mm_per_unit <= 0)
    ):
        raise UsageError("--png-width, --px-per-mm and --tts-mm-per-unit must be positive")
    geo = None
    if args.geo_origin is not None:
        from ..export import GeoPlacement

        geo = GeoPlacement.parse(args.geo_origin, args.geo_metres_per_mm)
    compiled = compile_board(load_project(args.project))
    files = write_export(
        compiled,
        args.to,
        args.output,
        png_width=args.png_width,
        px_per_mm=args.px_per_mm,
        image_url=args.image_url,
        mm_per_unit=args.tts_mm_per_unit,
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
