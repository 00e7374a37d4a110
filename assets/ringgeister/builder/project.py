"""Writing the pack (``pack.json``, ``tiles/*.json``) and the default board."""

from __future__ import annotations

import json

from referee.assets import AssetPack, load_pack
from referee.model import Board, Feature, Placement
from referee.store import export_json, save_project

from .figures import deck, piece_types
from .layout import LAYOUT, PACK, PACK_DIR, PROJECT_DIR
from .tile import TileBuilder


def write_pack(tiles: list[TileBuilder]) -> AssetPack:
    """Write ``pack.json`` and ``tiles/*.json`` (removing stale tile files)."""
    tdir = PACK_DIR / "tiles"
    tdir.mkdir(exist_ok=True)
    wanted = {f"{t.tid}.json" for t in tiles}
    for old in tdir.glob("*.json"):
        if old.name not in wanted:
            old.unlink()
    for t in tiles:
        (tdir / f"{t.tid}.json").write_text(
            json.dumps(t.tile_json(), indent=1) + "\n", encoding="utf-8"
        )
    manifest = {
        "format": "boardwright-pack",
        "version": 1,
        "id": PACK,
        "name": "Ringgeister",
        "description": "The Ringgeister board: 12 octagonal and 11 square landscape "
        "tiles that turn in quarter turns, the figures and the 24 cards "
        "(docs/rulings.md). Written by assets/ringgeister/build.py.",
        "pieces": piece_types(),
        "decks": [deck()],
    }
    (PACK_DIR / "pack.json").write_text(json.dumps(manifest, indent=1) + "\n", encoding="utf-8")
    return load_pack(PACK_DIR)


def make_board(pack: AssetPack, fr: TileBuilder, turns: dict[str, int]) -> Board:
    """The default board with the given turns (placement id -> quarter turns)."""
    board = Board(
        meta={
            "name": "Ringgeister",
            "rules": "ringgeister",
            "width": 600,
            "height": 600,
            "settings": {"wind_corridor_mm": 15},
        }
    )
    pack.embed_into(board)
    for (r, c), tid in sorted(LAYOUT.items()):
        pid = f"r{r}c{c}"
        board.placements.append(
            Placement(pid, f"{PACK}/{tid}", 100.0 + 100 * c, 100.0 + 100 * r, turns.get(pid, 0))
        )
    fr.check()
    board.features = [Feature.from_json(f, "frame") for f in fr.features]
    board.validate()
    return board


def write_project(board: Board) -> None:
    """Save the default project: the SQLite file and its JSON export."""
    PROJECT_DIR.mkdir(parents=True, exist_ok=True)
    save_project(board, PROJECT_DIR / "ringgeister.bwproj")
    export_json(board, PROJECT_DIR / "ringgeister.json")
