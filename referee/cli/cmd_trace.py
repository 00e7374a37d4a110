"""``referee trace``: spaces from a picture of a map (see :mod:`referee.trace`)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ..errors import UsageError
from . import emit_json


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser(
        "trace",
        help="trace spaces from a picture whose regions are separated by drawn borders",
        description="Find the regions of IMAGE (areas of one colour separated by drawn "
        "borders), turn them into space polygons that share their borders exactly, "
        "simplified to --tolerance, and write them as a new project.",
    )
    p.add_argument("image")
    p.add_argument("--scale", type=float, required=True, metavar="MM_PER_PX", help="mm per pixel")
    p.add_argument(
        "--tolerance",
        type=float,
        metavar="MM",
        help="how far a simplified border may stray from the pixels (default 2 pixels)",
    )
    p.add_argument(
        "--min-area",
        type=float,
        metavar="MM2",
        help="smaller regions are marks (default 25 square pixels, in mm²)",
    )
    p.add_argument(
        "--min-width",
        type=float,
        metavar="MM",
        help="thinner regions are marks (default the larger of 4 pixels and 1.5 border "
        "widths, in mm); the drawn borders, however thick, are never spaces",
    )
    p.add_argument(
        "--border",
        default="auto",
        metavar="auto|MM",
        help="width of the drawn border lines: auto (the default) estimates it from the "
        "picture; it sets the default --min-width",
    )
    p.add_argument(
        "--scan",
        action="store_true",
        help="the picture is a scan or a photo: noise and JPEG artefacts spread each "
        "fill colour, which is gathered back (off: a clean export's patterns stay marks)",
    )
    p.add_argument(
        "--drop-outside",
        action="store_true",
        help="leave out the region around the map (the one covering most of the frame)",
    )
    p.add_argument(
        "--background",
        action="store_true",
        help="store the picture in the project as its background, to edit over it",
    )
    p.add_argument("--name", default=None, help="board name (default: the image's name)")
    p.add_argument("-o", "--output", required=True, help="project to write (.bwproj or .json)")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_trace)


def cmd_trace(args: argparse.Namespace) -> int:
    from ..images.project import ImageUse, add_images
    from ..safeio import finite
    from ..store import export_json, save_project
    from ..trace import trace_board

    finite(args.scale, "--scale", low=1e-6, high=1e6)
    for flag, value in (
        ("--tolerance", args.tolerance),
        ("--min-area", args.min_area),
        ("--min-width", args.min_width),
    ):
        if value is not None:
            finite(value, flag, low=0, high=1e9)
    border: float | str = "auto"
    if args.border != "auto":
        try:
            border = float(args.border)
        except ValueError:
            raise UsageError(
                f"--border must be auto or a width in mm, not {args.border!r}"
            ) from None
        finite(border, "--border", low=0, high=1e9)
    src = Path(args.image)
    kw = {}
    if args.min_area is not None:
        kw["min_area"] = args.min_area
    if args.min_width is not None:
        kw["min_width"] = args.min_width

    def progress(stage: str, frac: float) -> None:
        if not args.json:
            print(f"trace: {stage} ({frac:.0%})", file=sys.stderr)

    board, res = trace_board(
        src,
        scale=args.scale,
        tolerance=args.tolerance,
        name=args.name or src.stem,
        drop_outside=args.drop_outside,
        border=border,
        scan=args.scan,
        progress=progress,
        **kw,
    )
    if args.background:
        add_images(board, [src], ImageUse("background"), scale=args.scale)
    out = Path(args.output)
    try:
        if out.suffix == ".json":
            export_json(board, out)
        else:
            save_project(board, out)
    except OSError as exc:
        raise UsageError(f"cannot write {out}: {exc.strerror}") from None
    if args.json:
        emit_json(
            {
                "image": str(src),
                "output": str(out),
                "spaces": len(res.polygons),
                "width_px": res.width_px,
                "height_px": res.height_px,
                "scale": res.scale,
                "border_px": res.border_px,
                "border": "auto" if border == "auto" else border,
                "seconds": res.timings,
            }
        )
    else:
        how = "estimated" if border == "auto" else "given"
        print(f"trace: border lines {res.border_px:g} px ({how})", file=sys.stderr)
        print(f"wrote {len(res.polygons)} spaces to {out}", file=sys.stderr)
    return 0
