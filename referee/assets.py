"""Asset packs: tiles, piece types and decks shipped as data under ``assets/<pack>/``.

A pack is a folder with ``pack.json``::

    {"format": "boardwright-pack", "version": 1, "id": "ringgeister", "name": "...",
     "pieces": [{"id": "hobbit-yellow", ...}], "decks": [{"id": "cards", "cards": [...]}]}

and one file per tile in ``tiles/<id>.json`` (a tile as in the project format,
with ``id`` instead of ``key``). Asset keys are ``"<pack>/<id>"``. Projects embed
copies of the assets they use, so a pack is needed only to build or edit boards.

Pictures (tile faces, card faces and backs, piece tokens) live in ``images/`` as
``<id>.<ext>`` files named by content (as in a project's ``.images/`` folder),
listed in ``pack.json`` under ``"images"`` (id, format, size, original name).
:meth:`AssetPack.add_image` adds one; :meth:`AssetPack.embed_into` copies the
pictures the pack's assets use into the board.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .errors import AssetError, FormatVersionError
from .images.store import FolderBlobs, ImageInfo, ImageStore
from .model import Board, TileAsset
from .shipped import assets_dir
from .store import _atomic_write_text, read_json_file

PACK_FORMAT = "boardwright-pack"
PACK_VERSION = 1


def default_assets_dir() -> Path:
    """``$BOARDWRIGHT_ASSETS`` or the shipped packs (:func:`referee.shipped.assets_dir`).

    In a source checkout the shipped packs are the repository's ``assets/`` folder;
    installed from a wheel they are package data inside ``referee``.
    """
    env = os.environ.get("BOARDWRIGHT_ASSETS")
    if env:
        return Path(env)
    return assets_dir()


@dataclass
class AssetPack:
    id: str
    name: str
    path: Path
    tiles: dict[str, TileAsset] = field(default_factory=dict)
    piece_types: dict[str, dict[str, Any]] = field(default_factory=dict)
    decks: dict[str, dict[str, Any]] = field(default_factory=dict)
    description: str = ""
    images: ImageStore = field(default_factory=ImageStore)

    def add_image(self, path: str | os.PathLike[str]) -> ImageInfo:
        """Check an image file and copy it into ``images/`` (call :meth:`save_manifest` after)."""
        info = self.images.add_file(path)
        self.images.write_folder(self.path / "images", [info.id])
        return info

    def save_tile(self, tile: TileAsset) -> Path:
        """Write one tile into ``tiles/<id>.json`` of this pack (atomically)."""
        tid = tile.key.split("/", 1)[1]
        data = tile.to_json()
        data.pop("key")
        data = {"id": tid, **data}
        out = self.path / "tiles" / f"{tid}.json"
        out.parent.mkdir(parents=True, exist_ok=True)
        _atomic_write_text(out, json.dumps(data, indent=1, ensure_ascii=False) + "\n")
        self.tiles[tile.key] = tile
        return out

    def save_manifest(self) -> None:
        """Write ``pack.json`` with the current piece types and decks."""
        data = {
            "format": PACK_FORMAT,
            "version": PACK_VERSION,
            "id": self.id,
            "name": self.name,
            "description": self.description,
            "pieces": [dict(id=k.split("/", 1)[1], **v) for k, v in self.piece_types.items()],
            "decks": [dict(id=k.split("/", 1)[1], **v) for k, v in self.decks.items()],
        }
        if len(self.images):
            data["images"] = [i.to_json() for i in self.images]
        _atomic_write_text(
            self.path / "pack.json", json.dumps(data, indent=1, ensure_ascii=False) + "\n"
        )

    def embed_into(self, board: Board) -> None:
        """Copy every asset of this pack into ``board`` (replacing older copies), with
        the pictures they use."""
        board.tiles.update(self.tiles)
        board.piece_types.update(self.piece_types)
        board.decks.update(self.decks)
        used = {iid for _, iid in board.image_uses()}
        for info in self.images:
            if info.id in used and info.id not in board.images:
                board.images.register(info, self.images.data(info.id))


def load_pack(path: str | os.PathLike[str]) -> AssetPack:
    """Load the pack in folder ``path``."""
    d = Path(path)
    manifest = d / "pack.json"
    data = read_json_file(manifest)
    if not isinstance(data, dict) or data.get("format") != PACK_FORMAT:
        raise AssetError("not a Boardwright asset pack", location=str(manifest))
    if data.get("version") != PACK_VERSION:
        raise FormatVersionError(
            f"pack format version {data.get('version')!r} is not supported", location=str(manifest)
        )
    pid = data.get("id")
    if not isinstance(pid, str) or not pid or "/" in pid:
        raise AssetError("pack needs an id without '/'", location=str(manifest))
    pack = AssetPack(
        pid, str(data.get("name", pid)), d, description=str(data.get("description", ""))
    )
    pack.images.sources.append(FolderBlobs(d / "images"))
    imgs = data.get("images", [])
    if not isinstance(imgs, list):
        raise AssetError("images must be a list", location=str(manifest))
    for i, item in enumerate(imgs):
        pack.images.register(ImageInfo.from_json(item, f"{manifest} images[{i}]"))
    for kind, target in (("pieces", pack.piece_types), ("decks", pack.decks)):
        items = data.get(kind, [])
        if not isinstance(items, list):
            raise AssetError(f"{kind} must be a list", location=str(manifest))
        for i, item in enumerate(items):
            if not isinstance(item, dict) or not isinstance(item.get("id"), str):
                raise AssetError(f"{kind}[{i}] needs a string id", location=str(manifest))
            item = dict(item)
            target[f"{pid}/{item.pop('id')}"] = item
    for tf in sorted((d / "tiles").glob("*.json")):
        tdata = read_json_file(tf)
        if not isinstance(tdata, dict) or not isinstance(tdata.get("id"), str):
            raise AssetError("tile file needs a string id", location=str(tf))
        tile = TileAsset.from_json(tdata, str(tf), key=f"{pid}/{tdata['id']}")
        pack.tiles[tile.key] = tile
    return pack


def load_packs(assets_dir: str | os.PathLike[str] | None = None) -> dict[str, AssetPack]:
    """Every pack under ``assets_dir`` (default :func:`default_assets_dir`), by id."""
    root = Path(assets_dir) if assets_dir else default_assets_dir()
    packs: dict[str, AssetPack] = {}
    if root.is_dir():
        for d in sorted(root.iterdir()):
            if (d / "pack.json").is_file():
                pack = load_pack(d)
                packs[pack.id] = pack
    return packs
