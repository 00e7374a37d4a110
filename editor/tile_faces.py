"""Pictures in the asset editor: a tile's face, and card faces in the deck table.

A face dropped on the asset editor's tile is checked, kept in the scratch board's
image store (so Undo forgets it), and copied into the pack's ``images/`` folder and
``pack.json`` only when the tile is saved (:func:`keep_face`).
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QRectF, QSize
from PySide6.QtGui import QColor, QIcon, QPainter, QPixmap
from PySide6.QtWidgets import QTableWidget

from referee.assets import AssetPack
from referee.errors import BoardwrightError
from referee.images import ImageInfo, ImageStore
from referee.model import TileAsset

from .pictures import to_qimage

#: size of a card picture in the deck table (px)
CARD_ICON = 40


def read_image(path: str) -> tuple[ImageInfo, bytes]:
    """Check an image file; its info and bytes (:class:`ImageError` naming it)."""
    scratch = ImageStore()
    info = scratch.add_file(path)
    return info, scratch.data(info.id)


def store_for(
    tile: TileAsset | None, board_images: ImageStore, pack: AssetPack | None
) -> ImageStore | None:
    """The store holding ``tile``'s face: the scratch board's (a new face) or the pack's."""
    if tile is None or not tile.face:
        return None
    if tile.face in board_images:
        return board_images
    if pack is not None and tile.face in pack.images:
        return pack.images
    return None


def keep_face(pack: AssetPack, tile: TileAsset, board_images: ImageStore) -> None:
    """Copy ``tile``'s face into ``pack`` (its ``images/`` folder and ``pack.json``)
    when the pack does not hold it yet."""
    if not tile.face or tile.face in pack.images or tile.face not in board_images:
        return
    pack.images.register(board_images.info(tile.face), board_images.data(tile.face))
    pack.images.write_folder(pack.path / "images", [tile.face])
    pack.save_manifest()


def _card_images(deck: dict[str, Any]) -> list[str]:
    cards = deck.get("cards")
    out = [
        str(c["face"])
        for c in (cards if isinstance(cards, list) else [])
        if isinstance(c, dict) and isinstance(c.get("face"), str)
    ]
    if not out and isinstance(deck.get("back"), str):
        out.append(str(deck["back"]))
    return out


def deck_icon(deck: dict[str, Any], images: ImageStore, count: int = 4) -> QIcon | None:
    """Up to ``count`` card faces side by side (the back if no card has a face)."""
    ids = [i for i in _card_images(deck) if i in images][:count]
    if not ids:
        return None
    w = CARD_ICON * 3 // 4
    pm = QPixmap(w * len(ids) + 2 * (len(ids) - 1), CARD_ICON)
    pm.fill(QColor(0, 0, 0, 0))
    p = QPainter(pm)
    for k, iid in enumerate(ids):
        try:
            face = QPixmap.fromImage(to_qimage(images.thumbnail(iid, CARD_ICON)))
        except BoardwrightError:
            continue
        p.drawPixmap(QRectF(k * (w + 2), 0, w, CARD_ICON), face, QRectF(face.rect()))
    p.end()
    return QIcon(pm)


def show_card_faces(table: QTableWidget, pack: AssetPack) -> None:
    """Put each deck's card faces on its row of the asset editor's deck table."""
    table.setIconSize(QSize(4 * (CARD_ICON * 3 // 4 + 2), CARD_ICON))
    for r in range(table.rowCount()):
        item = table.item(r, 0)
        deck = pack.decks.get(f"{pack.id}/{item.text()}") if item is not None else None
        icon = deck_icon(deck, pack.images) if deck else None
        if item is not None and icon is not None:
            item.setIcon(icon)
            table.setRowHeight(r, CARD_ICON + 6)
            n = len(_card_images(deck or {}))
            item.setToolTip(f"{n} card picture(s)")
