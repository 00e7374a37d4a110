"""Copy, paste and duplicate of placements and free-standing features (as JSON)."""

from __future__ import annotations

import atexit
import json
from typing import Any

from PySide6.QtCore import QMimeData
from PySide6.QtGui import QGuiApplication

from referee.model import Feature, Placement, TileAsset

from .commands import PasteCommand
from .document import Document

ITEMS_MIME = "application/x-boardwright-items"


def selection_json(doc: Document, keys: set[str]) -> dict[str, Any]:
    """The selected objects as JSON: placements, features and the tiles they use."""
    ps = [p for p in doc.board.placements if f"p:{p.id}" in keys]
    fs = [f for f in doc.board.features if f"f:{f.id}" in keys]
    tiles = {p.tile: doc.board.tiles[p.tile] for p in ps if p.tile in doc.board.tiles}
    return {
        "format": "boardwright-items",
        "placements": [p.to_json() for p in ps],
        "features": [f.to_json() for f in fs],
        "tiles": [t.to_json() for t in tiles.values()],
    }


_clear_registered = False


def _clear_clipboard() -> None:
    """Drop our mime data before Python shuts down.

    Qt's clipboard outlives the Python side at interpreter exit and then frees the
    QMimeData we gave it a second time (a segfault at exit, seen with PySide6 6.11
    on the offscreen and xcb platforms), so the clipboard is emptied first.
    """
    app = QGuiApplication.instance()
    if app is not None:
        QGuiApplication.clipboard().clear()


def copy_to_clipboard(doc: Document, keys: set[str]) -> bool:
    global _clear_registered
    if not keys:
        return False
    if not _clear_registered:
        atexit.register(_clear_clipboard)
        _clear_registered = True
    data = json.dumps(selection_json(doc, keys))
    md = QMimeData()
    md.setData(ITEMS_MIME, data.encode("utf-8"))
    md.setText(data)
    QGuiApplication.clipboard().setMimeData(md)
    return True


def _command_from(doc: Document, data: Any, dx: float, dy: float, text: str) -> PasteCommand | None:
    if not isinstance(data, dict) or data.get("format") != "boardwright-items":
        return None
    tiles = {}
    for t in data.get("tiles", []):
        tile = TileAsset.from_json(t, "clipboard")
        tiles[tile.key] = doc.board.tiles.get(tile.key, tile)
    ps = [Placement.from_json(p, "clipboard") for p in data.get("placements", [])]
    fs = [Feature.from_json(f, "clipboard") for f in data.get("features", [])]
    if not ps and not fs:
        return None
    return PasteCommand(doc, ps, fs, tiles, dx, dy, text)


def paste_from_clipboard(doc: Document, dx: float = 10.0, dy: float = 10.0) -> set[str]:
    """Paste what the clipboard holds; returns the keys of the new objects."""
    md = QGuiApplication.clipboard().mimeData()
    raw = (
        bytes(md.data(ITEMS_MIME).data()).decode("utf-8")
        if md and md.hasFormat(ITEMS_MIME)
        else (md.text() if md else "")
    )
    try:
        data = json.loads(raw)
        cmd = _command_from(doc, data, dx, dy, "Paste")
    except (ValueError, TypeError):
        return set()
    if cmd is None:
        return set()
    doc.undo.push(cmd)
    return set(cmd.new_keys)


def duplicate(doc: Document, keys: set[str], dx: float = 10.0, dy: float = 10.0) -> set[str]:
    """Duplicate the selected objects (moved by dx, dy); returns the new keys."""
    cmd = _command_from(doc, selection_json(doc, keys), dx, dy, "Duplicate")
    if cmd is None:
        return set()
    doc.undo.push(cmd)
    return set(cmd.new_keys)
