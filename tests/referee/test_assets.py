"""Asset packs: loading tiles, pieces and decks; saving a tile back; bad packs."""

from __future__ import annotations

import json
import random

import pytest

from referee.assets import load_pack, load_packs
from referee.errors import AssetError, ProjectFileError
from referee.generators import random_tile
from referee.model import Board, Placement


def make_pack(root, pid="demo"):
    d = root / pid
    (d / "tiles").mkdir(parents=True)
    (d / "pack.json").write_text(
        json.dumps(
            {
                "format": "boardwright-pack",
                "version": 1,
                "id": pid,
                "name": "Demo",
                "pieces": [{"id": "hobbit", "size": "small", "count": 1}],
                "decks": [{"id": "cards", "cards": [{"id": "c1"}]}],
            }
        )
    )
    tile = random_tile(f"{pid}/t1", random.Random(1)).to_json()
    tile.pop("key")
    (d / "tiles" / "t1.json").write_text(json.dumps({"id": "t1", **tile}))
    return d


def test_pack_loads_tiles_pieces_and_decks(tmp_path):
    pack = load_pack(make_pack(tmp_path))
    assert set(pack.tiles) == {"demo/t1"}
    assert pack.piece_types["demo/hobbit"]["size"] == "small"
    assert pack.decks["demo/cards"]["cards"] == [{"id": "c1"}]
    assert set(load_packs(tmp_path)) == {"demo"}


def test_saving_a_tile_writes_it_back_into_the_pack(tmp_path):
    d = make_pack(tmp_path)
    pack = load_pack(d)
    tile = pack.tiles["demo/t1"]
    tile.name = "Renamed"
    pack.save_tile(tile)
    assert load_pack(d).tiles["demo/t1"].name == "Renamed"


def test_embedding_makes_a_project_independent_of_the_pack(tmp_path):
    pack = load_pack(make_pack(tmp_path))
    board = Board(placements=[Placement("a", "demo/t1", 0, 0)])
    pack.embed_into(board)
    board.validate()
    assert board.tile_of(board.placements[0]).key == "demo/t1"


def test_bad_packs_name_the_file(tmp_path):
    d = make_pack(tmp_path)
    (d / "tiles" / "t1.json").write_text("{not json")
    with pytest.raises(ProjectFileError, match=r"t1\.json: malformed JSON"):
        load_pack(d)
    (d / "tiles" / "t1.json").write_text(json.dumps({"id": "t1", "outline": {"shape": "circle"}}))
    with pytest.raises(AssetError, match="unknown outline shape 'circle'"):
        load_pack(d)
    (d / "pack.json").write_text(json.dumps({"format": "other"}))
    with pytest.raises(AssetError, match="not a Boardwright asset pack"):
        load_pack(d)
