"""The pictures of a board in a Tiled map (added to :func:`referee.export.tmj.to_tmj`).

Following Tiled's JSON map format:

- the **background** becomes an image layer (``type`` ``imagelayer``, named
  ``background``, first = drawn below everything) with its ``opacity`` and
  ``visible``; Tiled draws image layers at one image pixel per map pixel without
  rotation, so the picture is written resampled to the map's ``px_per_mm`` (and
  turned, when the background is turned) and placed with ``offsetx``/``offsety``;
- the **tile faces** become an image-collection tileset (``columns`` 0, one
  ``tiles`` entry per face picture, with ``image``, ``imagewidth``,
  ``imageheight`` and an ``asset`` property), and an object layer ``tile faces``
  holds one tile object per placed tile (``gid``, ``width``/``height`` = the
  outline's bounds in pixels, ``rotation`` = its turn in degrees clockwise).
  Tiled anchors a tile object at its bottom-left corner and turns it about that
  corner; the position is chosen so the picture's centre lands on the tile's.

Picture files go to a folder beside the map (``<map name>.images/``) and are
referred to by paths relative to the map. SVG faces are rasterised to PNG.
"""

from __future__ import annotations

import io
import math
from collections.abc import Callable
from pathlib import Path
from typing import Any

from PIL import Image

from ..compiler import CompiledBoard
from ..errors import ImageError


def add_tmj_art(
    data: dict[str, Any],
    compiled: CompiledBoard,
    folder: Path,
    write: Callable[[Path, bytes], None],
    *,
    px_per_mm: float = 1.0,
) -> list[Path]:
    """Add the background image layer and the tile-face tileset to a TMJ map dict.

    Parameters
    ----------
    data : dict
        A map from :func:`referee.export.tmj.to_tmj` (modified in place).
    folder : Path
        Folder for the picture files; its name is used in the relative paths.
    write : callable
        ``write(path, bytes)`` writes one file (atomically).

    Returns
    -------
    list of Path
        The files written.
    """
    board = compiled.board
    props = {p["name"]: p["value"] for p in data.get("properties", [])}
    ox, oy = float(props.get("origin_x_mm", 0.0)), float(props.get("origin_y_mm", 0.0))
    written: list[Path] = []

    def put(name: str, blob: bytes) -> str:
        path = folder / name
        if path not in written:
            folder.mkdir(parents=True, exist_ok=True)
            write(path, blob)
            written.append(path)
        return f"{folder.name}/{name}"

    def png(im: Image.Image) -> bytes:
        buf = io.BytesIO()
        im.save(buf, "PNG")
        return buf.getvalue()

    layers: list[dict[str, Any]] = data["layers"]
    next_layer = int(data["nextlayerid"])
    next_obj = int(data["nextobjectid"])
    new_layers: list[dict[str, Any]] = []

    bg = board.background
    if bg is not None and bg.image in board.images:
        info = board.images.info(bg.image)
        w_mm, h_mm = bg.size_mm(info.width, info.height)
        side = max(1, math.ceil(max(w_mm, h_mm) * px_per_mm))
        try:
            im = board.images.thumbnail(bg.image, side).copy()
        except ImageError:
            im = None
        if im is not None:
            target = (max(1, round(w_mm * px_per_mm)), max(1, round(h_mm * px_per_mm)))
            if im.size != target:
                im = im.resize(target, Image.Resampling.LANCZOS)
            dx = dy = 0.0
            if bg.rotation % 360:
                im = im.convert("RGBA")
                # PIL turns counter-clockwise for positive angles; ours are clockwise
                turned = im.rotate(-bg.rotation, expand=True, resample=Image.Resampling.BICUBIC)
                a = math.radians(bg.rotation)
                corners = [(0, 0), (target[0], 0), (0, target[1]), (target[0], target[1])]
                xs = [x * math.cos(a) - y * math.sin(a) for x, y in corners]
                ys = [x * math.sin(a) + y * math.cos(a) for x, y in corners]
                dx, dy = min(xs), min(ys)
                im = turned
            rel = put(f"background-{info.id[:16]}.png", png(im))
            new_layers.append(
                {
                    "id": next_layer,
                    "name": "background",
                    "type": "imagelayer",
                    "image": rel,
                    "imagewidth": im.size[0],
                    "imageheight": im.size[1],
                    "offsetx": round((bg.x - ox) * px_per_mm + dx, 4),
                    "offsety": round((bg.y - oy) * px_per_mm + dy, 4),
                    "opacity": bg.opacity,
                    "visible": bg.visible,
                    "repeatx": False,
                    "repeaty": False,
                    "x": 0,
                    "y": 0,
                    "properties": [
                        {"name": "image", "type": "string", "value": bg.image},
                        {"name": "locked", "type": "bool", "value": bg.locked},
                    ],
                }
            )
            next_layer += 1

    faces: dict[str, int] = {}  # image id -> local tile id
    tiles_json: list[dict[str, Any]] = []
    objects: list[dict[str, Any]] = []
    firstgid = 1 + sum(int(t.get("tilecount", 0)) for t in data.get("tilesets", []))
    for p in board.placements:
        tile = board.tile_of(p)
        if not tile.face or tile.face not in board.images:
            continue
        info = board.images.info(tile.face)
        if tile.face not in faces:
            try:
                if info.format == "svg":
                    rel = put(f"{info.id}.png", png(board.images.open(tile.face)))
                    iw, ih = board.images.open(tile.face).size
                else:
                    rel = put(info.file_name, board.images.data(tile.face))
                    iw, ih = info.width, info.height
            except ImageError:
                continue
            faces[tile.face] = len(tiles_json)
            tiles_json.append(
                {
                    "id": faces[tile.face],
                    "image": rel,
                    "imagewidth": iw,
                    "imageheight": ih,
                    "properties": [
                        {"name": "asset", "type": "string", "value": tile.key},
                        {"name": "image", "type": "string", "value": tile.face},
                    ],
                }
            )
        x0, y0, x1, y1 = tile.outline.bounds
        w, h = (x1 - x0) * px_per_mm, (y1 - y0) * px_per_mm
        angle = 360.0 * (p.turns % tile.turn_count) / tile.turn_count
        a = math.radians(angle)
        # centre of the (unturned) face relative to its bottom-left anchor: (w/2, -h/2)
        cx_rel = (w / 2) * math.cos(a) + (h / 2) * math.sin(a)
        cy_rel = (w / 2) * math.sin(a) - (h / 2) * math.cos(a)
        cx = (p.x + (x0 + x1) / 2 - ox) * px_per_mm
        cy = (p.y + (y0 + y1) / 2 - oy) * px_per_mm
        objects.append(
            {
                "id": next_obj,
                "name": p.id,
                "type": "tile_face",
                "gid": firstgid + faces[tile.face],
                "x": round(cx - cx_rel, 4),
                "y": round(cy - cy_rel, 4),
                "width": round(w, 4),
                "height": round(h, 4),
                "rotation": angle,
                "visible": True,
                "properties": [
                    {"name": "placement", "type": "string", "value": p.id},
                    {"name": "turns", "type": "int", "value": p.turns},
                ],
            }
        )
        next_obj += 1
    if tiles_json:
        data.setdefault("tilesets", []).append(
            {
                "firstgid": firstgid,
                "name": "tile faces",
                "columns": 0,
                "tilecount": len(tiles_json),
                "tilewidth": max(t["imagewidth"] for t in tiles_json),
                "tileheight": max(t["imageheight"] for t in tiles_json),
                "margin": 0,
                "spacing": 0,
                "grid": {"orientation": "orthogonal", "width": 1, "height": 1},
                "tiles": tiles_json,
            }
        )
        new_layers.append(
            {
                "id": next_layer,
                "name": "tile faces",
                "type": "objectgroup",
                "draworder": "topdown",
                "objects": objects,
                "opacity": 1,
                "visible": True,
                "x": 0,
                "y": 0,
            }
        )
        next_layer += 1
    data["layers"] = new_layers + layers
    data["nextlayerid"] = next_layer
    data["nextobjectid"] = next_obj
    return written
