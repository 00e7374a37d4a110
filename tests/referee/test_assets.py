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


# ---------------------------------------------------------------------- ids and confinement (issue 13)
def _empty_pack(tmp_path):
    import json as _json

    from referee.assets import load_pack

    d = tmp_path / "pk"
    (d / "tiles").mkdir(parents=True)
    (d / "pack.json").write_text(
        _json.dumps({"format": "boardwright-pack", "version": 1, "id": "pk"})
    )
    return load_pack(d)


def _square(key):
    from referee.model import TileAsset

    return TileAsset(key, "t", {"shape": "square", "size": 80}, [])


@pytest.mark.parametrize(
    "tid", ["../../../x", "..", "a/../../b", "/etc/passwd", ".hidden", "a b", "x\x00y", "é", ""]
)
def test_a_tile_id_outside_the_character_set_is_never_written(tmp_path, tid):
    from referee.errors import AssetError

    pack = _empty_pack(tmp_path)
    before = sorted(str(p) for p in tmp_path.rglob("*"))
    with pytest.raises(AssetError) as info:
        pack.save_tile(_square(f"pk/{tid}"))
    assert info.value.code == "bad_id"
    assert sorted(str(p) for p in tmp_path.rglob("*")) == before


def test_a_tiles_symlink_leading_out_of_the_pack_is_refused(tmp_path):
    from referee.errors import AssetError

    pack = _empty_pack(tmp_path)
    outside = tmp_path / "outside"
    outside.mkdir()
    (pack.path / "tiles").rmdir()
    (pack.path / "tiles").symlink_to(outside)
    with pytest.raises(AssetError) as info:
        pack.save_tile(_square("pk/fine-id_1.2"))
    assert info.value.code == "outside_pack" and list(outside.iterdir()) == []


def test_a_valid_tile_is_saved_inside_the_pack(tmp_path):
    pack = _empty_pack(tmp_path)
    out = pack.save_tile(_square("pk/fine-id_1.2"))
    assert out == pack.path / "tiles" / "fine-id_1.2.json" and out.is_file()


def test_a_pack_with_a_bad_tile_id_in_a_file_is_refused(tmp_path):
    import json as _json

    from referee.assets import load_pack
    from referee.errors import AssetError

    pack = _empty_pack(tmp_path)
    bad = pack.path / "tiles" / "t.json"
    bad.write_text(_json.dumps({"id": "../x", "outline": {"shape": "square", "size": 80}}))
    with pytest.raises(AssetError) as info:
        load_pack(pack.path)
    assert str(bad) in str(info.value)
