"""``referee image add|list|remove``: the pictures of a project."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from ..errors import ImageError, UsageError
from ..images.project import ImageUse, add_images, remove_image, uses_by_image
from ..store import _project_in_dir, load_project, save_board
from . import emit_json

_CARRIERS = {
    "background": "background",
    "tile_face": "tile-face",
    "piece_token": "piece-token",
    "deck_back": "deck-back",
    "card_face": "card-face",
    "art": "art",
}


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser(
        "image",
        help="add, list or remove the pictures of a project",
        description="Pictures (PNG, JPEG, WebP, SVG) are stored in the project by content: "
        "the same picture is stored once. Files over 32 MiB, images over 64 megapixels, "
        "corrupt or truncated files and SVGs with scripts or external references are "
        "refused with one line naming the file; nothing is stored then.",
    )
    isub = p.add_subparsers(dest="image_verb", metavar="ACTION")
    isub.required = True

    a = isub.add_parser("add", help="add image files (and optionally use the last one)")
    a.add_argument("project")
    a.add_argument("files", nargs="+", metavar="FILE")
    use = a.add_mutually_exclusive_group()
    use.add_argument("--background", action="store_true", help="use it as the board background")
    use.add_argument("--tile-face", metavar="TILE", help="use it as the face of tile asset TILE")
    use.add_argument("--piece-token", metavar="PIECE", help="use it as the token of PIECE")
    use.add_argument("--deck-back", metavar="DECK", help="use it as the back of DECK's cards")
    use.add_argument("--card-face", metavar="DECK/CARD", help="use it as one card's face")
    use.add_argument(
        "--art",
        metavar="ID",
        help="show it on free art feature ID (made as the picture's rectangle at --at)",
    )
    a.add_argument("--at", metavar="X,Y", help="art: top-left corner on the board in mm")
    a.add_argument(
        "--scale",
        type=float,
        metavar="MM_PER_PX",
        help="background/art scale in mm per pixel (background default: the picture "
        "spans the board; art default 1)",
    )
    a.add_argument("--json", action="store_true")
    a.set_defaults(func=cmd_image_add)

    ls = isub.add_parser("list", help="list the project's images and where they are used")
    ls.add_argument("project")
    ls.add_argument("--json", action="store_true")
    ls.set_defaults(func=cmd_image_list)

    rm = isub.add_parser("remove", help="remove an image (by id, id prefix or name)")
    rm.add_argument("project")
    rm.add_argument("image")
    rm.add_argument("--force", action="store_true", help="remove it even while it is used")
    rm.add_argument("--json", action="store_true")
    rm.set_defaults(func=cmd_image_remove)


def _file(project: str) -> Path:
    p = Path(project)
    return _project_in_dir(p) if p.is_dir() else p


def cmd_image_add(args: argparse.Namespace) -> int:
    path = _file(args.project)
    board = load_project(path)
    at = (0.0, 0.0)
    if args.at:
        try:
            ax, ay = (float(v) for v in args.at.split(","))
        except ValueError:
            raise UsageError(f"--at wants X,Y in mm, not {args.at!r}") from None
        at = (ax, ay)
    use = None
    for attr, carrier in _CARRIERS.items():
        val = getattr(args, attr)
        if val:
            use = ImageUse(carrier, "" if val is True else str(val), at)
    if args.scale is not None and not (args.scale > 0):
        raise UsageError(f"--scale must be positive, not {args.scale:g}")
    added = add_images(board, list(args.files), use, scale=args.scale)
    save_board(board, path)
    if args.json:
        emit_json(
            {
                "project": str(path),
                "added": [dict(i.to_json(), used_by=w) for i, w in added],
                "images": len(board.images),
            }
        )
    else:
        for info, where in added:
            tail = f" as {where}" if where else ""
            print(
                f"{info.id[:12]} {info.format} {info.width}x{info.height} "
                f"{info.size} bytes {info.name}{tail}"
            )
    return 0


def cmd_image_list(args: argparse.Namespace) -> int:
    board = load_project(_file(args.project))
    uses = uses_by_image(board)
    rows = [
        dict(i.to_json(), used_by=uses.get(i.id, []), present=board.images.has_data(i.id))
        for i in board.images
    ]
    for r in rows:  # the listed facts are checked against the bytes, not trusted
        r["refused"] = _refusal(board, r["id"]) if r["present"] else None
    missing = sorted(set(uses) - {i.id for i in board.images})
    if args.json:
        emit_json({"project": args.project, "images": rows, "unknown_references": missing})
        return 0
    for r in rows:
        used = ", ".join(r["used_by"]) or "unused"
        flag = "" if r["present"] else " [bytes missing]"
        if r["refused"]:
            flag = f" [refused: {r['refused']}]"
        print(
            f"{r['id'][:12]} {r['format']:4} {r['width']}x{r['height']} {r['size']:>9} "
            f"{r['name']}{flag} — {used}"
        )
    for iid in missing:
        print(f"{iid[:12]} (not in the project) — {', '.join(uses[iid])}", file=sys.stderr)
    return 0


def _refusal(board: Any, image_id: str) -> str | None:
    """Why the image's bytes are refused (too many pixels, unsafe SVG, other facts
    than the project lists), or ``None``."""
    try:
        board.images.verify(image_id)
    except ImageError as exc:
        return exc.message
    return None


def cmd_image_remove(args: argparse.Namespace) -> int:
    path = _file(args.project)
    board = load_project(path)
    info = remove_image(board, args.image, force=args.force)
    save_board(board, path)
    if args.json:
        emit_json({"project": str(path), "removed": info.to_json(), "images": len(board.images)})
    else:
        print(f"removed {info.id[:12]} {info.name}", file=sys.stderr)
    return 0
