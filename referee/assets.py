"""Asset packs: tiles, piece types and decks shipped as data under ``assets/<pack>/``.

A pack is a folder with ``pack.json``::

    {"format": "boardwright-pack", "version": 1, "id": "ringgeister", "name": "...",
     "pieces": [{"id": "hobbit-yellow", ...}], "decks": [{"id": "cards", "cards": [...]}]}

and one file per tile in ``tiles/<id>.json`` (a tile as in the project format,
with ``id`` instead of ``key``). Asset keys are ``"<pack>/<id>"``. Projects embed
copies of the assets they use, so a pack is needed only to build or edit boards.

Pack ids and asset ids (tiles, pieces, decks) use a small character set,
:data:`ASSET_ID_PATTERN`: 1–128 characters of ``A-Z a-z 0-9 . _ -``, starting with
a letter or digit — so no ``/``, no ``..``, no absolute path, nothing a file system
or a URL treats specially. A tile id names its file (``tiles/<id>.json``), and every
write of a pack (:meth:`AssetPack.save_tile`, :meth:`AssetPack.save_manifest`) is
checked to land inside the pack's folder before anything is written.

Pictures (tile faces, card faces and backs, piece tokens) live in ``images/`` as
``<id>.<ext>`` files named by content (as in a project's ``.images/`` folder),
listed in ``pack.json`` under ``"images"`` (id, format, size, original name).
:meth:`AssetPack.add_image` adds one; :meth:`AssetPack.embed_into` copies the
pictures the pack's assets use into the board.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .errors import AssetError, FormatVersionError
from .images.store import FolderBlobs, ImageInfo, ImageStore
from .model import Board, TileAsset
from .safeio import atomic_write, dumps_json
from .shipped import assets_dir
from .store import read_json_file

PACK_FORMAT = "boardwright-pack"
PACK_VERSION = 1

#: The characters of a pack id or an asset id (see the module docstring).
ASSET_ID_PATTERN = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,127}")


def check_asset_id(value: object, where: str, what: str = "asset id") -> str:
    """``value`` if it is a valid pack or asset id, else an :class:`AssetError` at ``where``."""
    if not isinstance(value, str) or not ASSET_ID_PATTERN.fullmatch(value) or ".." in value:
        raise AssetError(
            f"{what} {value!r} is not allowed: use 1-128 of A-Z a-z 0-9 . _ - "
            "(starting with a letter or digit, no '..')",
            code="bad_id",
            location=where,
        )
    return value


def _inside(folder: Path, target: Path, where: str) -> Path:
    """``target`` if it resolves inside ``folder`` (symlinks followed), else an error."""
    root = folder.resolve()
    real = target.resolve()
    if real != root and root not in real.parents:
        raise AssetError(
            f"refusing to write {target}: it lies outside the pack folder {folder}",
            code="outside_pack",
            location=where,
        )
    return target


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
        """Write one tile into ``tiles/<id>.json`` of this pack (atomically).

        The tile id must match :data:`ASSET_ID_PATTERN` and the file must land in
        the pack folder (a ``tiles`` symlink pointing elsewhere is refused).
        """
        tid = tile.key.split("/", 1)[1] if "/" in tile.key else tile.key
        check_asset_id(tid, f"{self.path} tile {tile.key!r}", "tile id")
        data = tile.to_json()
        data.pop("key")
        data = {"id": tid, **data}
        where = str(self.path / "tiles" / f"{tid}.json")
        text = dumps_json(data, where, indent=1, error=AssetError) + "\n"
        tiles = _inside(self.path, self.path / "tiles", where)
        tiles.mkdir(parents=True, exist_ok=True)
        out = _inside(self.path, tiles / f"{tid}.json", where)
        atomic_write(out, text)
        self.tiles[tile.key] = tile
        return out

    def save_manifest(self) -> None:
        """Write ``pack.json`` with the current piece types and decks (ids checked first)."""
        where = str(self.path / "pack.json")
        check_asset_id(self.id, where, "pack id")
        for k in (*self.piece_types, *self.decks):
            check_asset_id(k.split("/", 1)[-1], where)
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
        text = dumps_json(data, where, indent=1, error=AssetError) + "\n"
        atomic_write(_inside(self.path, self.path / "pack.json", where), text)

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
    pid = check_asset_id(data.get("id"), str(manifest), "pack id")
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
            check_asset_id(item["id"], f"{manifest} {kind}[{i}]")
            item = dict(item)
            target[f"{pid}/{item.pop('id')}"] = item
    for tf in sorted((d / "tiles").glob("*.json")):
        tdata = read_json_file(tf)
        if not isinstance(tdata, dict) or not isinstance(tdata.get("id"), str):
            raise AssetError("tile file needs a string id", location=str(tf))
        check_asset_id(tdata["id"], str(tf), "tile id")
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
