"""A compiled board as a Tabletop Simulator *saved object*.

The file follows TTS's save JSON (the same top level as a save game, with one
entry in ``ObjectStates``), so it can be dropped into TTS's
``Saves/Saved Objects`` folder and spawned from the Objects menu:

- ``Name`` ``"Custom_Board"`` with ``CustomImage`` {``ImageURL``,
  ``ImageSecondaryURL``, ``ImageScalar``, ``WidthScale``} pointing at the rendered
  picture of the board (a PNG written next to the JSON as a ``file://`` URL, or any
  URL passed in — e.g. the picture uploaded to Steam Cloud);
- ``AttachedSnapPoints``: one snap point at every compiled node, ``Position``
  {x, y, z} in the board's local frame, ``Rotation`` {x, y, z} (y = the point's
  heading when it has one) and ``Tags`` ``["bw", "node:<id>", "kind:<kind>"]``
  (plus ``"colour:<c>"`` / ``"start:<s>"`` where the node has them), so a script
  or a tagged figure finds its place by id;
- ``Tags`` on the board itself: ``"boardwright"`` and ``"rules:<name>"``;
  ``GMNotes`` holds the board hash.

Coordinates: TTS measures in its own units (nominally inches); x runs right and
z runs up the screen in the top view, so a board point (x, y) in mm becomes
``((x - cx) / mm_per_unit, 0.1, -(y - cy) / mm_per_unit)`` around the board
centre (cx, cy). TTS rescales a custom board to its image; if your board comes
out at another size in TTS, set ``mm_per_unit`` (``--tts-mm-per-unit``) so the
snap points land on the picture. This layout was checked against TTS save files
and type declarations, not inside TTS itself.
"""

from __future__ import annotations

import hashlib
from typing import Any

from ..compiler import CompiledBoard
from ..geometry import bearing_degrees
from .tmj import _board_bounds

MM_PER_INCH = 25.4


def to_tts(
    compiled: CompiledBoard,
    image_url: str,
    *,
    mm_per_unit: float = MM_PER_INCH,
    thickness_y: float = 0.1,
    view_box: tuple[float, float, float, float] | None = None,
) -> dict[str, Any]:
    """The board as a TTS saved object (a dict ready for ``json.dumps``).

    Parameters
    ----------
    compiled : CompiledBoard
    image_url : str
        Where TTS loads the board picture from (``file:///…png`` or ``https://…``).
    mm_per_unit : float
        Millimetres of board per TTS unit (default: one inch).
    thickness_y : float
        Height of the snap points above the board's local origin.
    view_box : (x, y, width, height), optional
        The picture's extent in board mm (the SVG ``viewBox``); snap points are
        placed around its centre. Default: the board's bounds.
    """
    board = compiled.board
    if view_box is not None:
        minx, miny = view_box[0], view_box[1]
        maxx, maxy = minx + view_box[2], miny + view_box[3]
    else:
        minx, miny, maxx, maxy = _board_bounds(compiled)
    cx, cy = (minx + maxx) / 2, (miny + maxy) / 2
    snaps = []
    for nid, d in sorted(compiled.graph.nodes(data=True)):
        tags = ["bw", f"node:{nid}", f"kind:{d['kind']}"]
        for key in ("colour", "start", "terrain", "city"):
            if isinstance(d.get(key), str):
                tags.append(f"{key}:{d[key]}")
        rot_y = 0.0
        if d.get("heading") is not None:
            try:
                rot_y = bearing_degrees(d["heading"]) % 360.0
            except (ValueError, TypeError, KeyError):
                rot_y = 0.0
        snaps.append(
            {
                "Position": {
                    "x": round((d["x"] - cx) / mm_per_unit, 5),
                    "y": thickness_y,
                    "z": round(-(d["y"] - cy) / mm_per_unit, 5),
                },
                "Rotation": {"x": 0.0, "y": rot_y, "z": 0.0},
                "Tags": tags,
            }
        )
    guid = hashlib.sha256(f"boardwright:{compiled.hash}".encode()).hexdigest()[:6]
    obj: dict[str, Any] = {
        "GUID": guid,
        "Name": "Custom_Board",
        "Transform": {
            "posX": 0.0,
            "posY": 1.0,
            "posZ": 0.0,
            "rotX": 0.0,
            "rotY": 0.0,
            "rotZ": 0.0,
            "scaleX": 1.0,
            "scaleY": 1.0,
            "scaleZ": 1.0,
        },
        "Nickname": board.name,
        "Description": str(board.meta.get("description") or ""),
        "GMNotes": f"boardwright board_hash {compiled.hash}",
        "Memo": "",
        "ColorDiffuse": {"r": 1.0, "g": 1.0, "b": 1.0},
        "Tags": ["boardwright"] + ([f"rules:{board.rules}"] if board.rules else []),
        "LayoutGroupSortIndex": 0,
        "Value": 0,
        "Locked": True,
        "Grid": False,
        "Snap": True,
        "IgnoreFoW": False,
        "MeasureMovement": False,
        "DragSelectable": True,
        "Autoraise": True,
        "Sticky": True,
        "Tooltip": True,
        "GridProjection": False,
        "HideWhenFaceDown": False,
        "Hands": False,
        "CustomImage": {
            "ImageURL": image_url,
            "ImageSecondaryURL": "",
            "ImageScalar": 1.0,
            "WidthScale": 0.0,
        },
        "LuaScript": "",
        "LuaScriptState": "",
        "XmlUI": "",
        "AttachedSnapPoints": snaps,
    }
    return {
        "SaveName": board.name,
        "Date": "",
        "VersionNumber": "",
        "GameMode": "",
        "GameType": "",
        "GameComplexity": "",
        "Tags": [],
        "Gravity": 0.5,
        "PlayArea": 0.5,
        "Table": "",
        "Sky": "",
        "Note": "",
        "TabStates": {},
        "LuaScript": "",
        "LuaScriptState": "",
        "XmlUI": "",
        "ObjectStates": [obj],
        "_boardwright": {
            "board_hash": compiled.hash,
            "mm_per_unit": mm_per_unit,
            "centre_mm": [cx, cy],
            "size_mm": [maxx - minx, maxy - miny],
        },
    }
