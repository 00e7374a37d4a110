"""Exports carry the art: Tabletop Simulator objects and Tiled image layers/tilesets."""

from __future__ import annotations

import json
from pathlib import Path
from urllib.parse import urlparse
from urllib.request import url2pathname

import pytest
from PIL import Image

from referee.cli import main
from referee.store import load_project

ROOT = Path(__file__).resolve().parents[3]
PAINTED = ROOT / "projects" / "painted-tiles" / "painted-tiles.bwproj"
TRACED = ROOT / "projects" / "painted-tiles" / "traced-map.bwproj"


def objects(path: Path, name: str) -> list[dict]:
    return [o for o in json.loads(path.read_text())["ObjectStates"] if o["Name"] == name]


def local(url: str) -> Path:
    return Path(url2pathname(urlparse(url).path))


@pytest.fixture(scope="module")
def tts(tmp_path_factory):
    out = tmp_path_factory.mktemp("tts") / "painted.json"
    assert main(["export", str(PAINTED), "--to", "tts", "-o", str(out)]) == 0
    return out


def test_each_placed_tile_is_a_custom_tile_with_its_face_and_turn(tts):
    board = load_project(PAINTED)
    tiles = {t["Tags"][1].split(":", 1)[1]: t for t in objects(tts, "Custom_Tile")}
    assert set(tiles) == {p.id for p in board.placements}
    for p in board.placements:
        t = tiles[p.id]
        assert t["Transform"]["rotY"] == 90.0 * p.turns
        url = t["CustomImage"]["ImageURL"]
        assert url.startswith("file://")
        assert local(url).read_bytes() == board.images.data(board.tile_of(p).face)
        assert t["CustomImage"]["CustomTile"]["Type"] == 0


def test_pieces_become_tokens_on_their_nodes(tts):
    tokens = objects(tts, "Custom_Token")
    assert sorted(t["Tags"][1] for t in tokens) == ["piece:blue", "piece:red"]
    board = objects(tts, "Custom_Board")[0]
    snaps = {s["Tags"][1]: s["Position"] for s in board["AttachedSnapPoints"]}
    for t in tokens:
        node = next(tag for tag in t["Tags"] if tag.startswith("node:"))
        assert t["Transform"]["posX"] == pytest.approx(snaps[node]["x"], abs=1e-4)
        assert t["Transform"]["posZ"] == pytest.approx(snaps[node]["z"], abs=1e-4)


def test_a_deck_is_a_deckcustom_with_its_faces_on_a_grid_sheet(tts):
    board = load_project(PAINTED)
    (deck,) = objects(tts, "DeckCustom")
    cards = board.decks["painted-tiles/cards"]["cards"]
    assert len(deck["DeckIDs"]) == len(deck["ContainedObjects"]) == len(cards)
    ((num, sheet),) = deck["CustomDeck"].items()
    assert deck["DeckIDs"] == [int(num) * 100 + i for i in range(len(cards))]
    im = Image.open(local(sheet["FaceURL"])).convert("RGB")
    cols, rows = sheet["NumWidth"], sheet["NumHeight"]
    cw, ch = im.size[0] // cols, im.size[1] // rows
    assert cols * rows >= len(cards)
    # each cell holds its card: compare the cell with the card's own picture
    for i, card in enumerate(cards):
        cell = im.crop(
            ((i % cols) * cw, (i // cols) * ch, (i % cols + 1) * cw, (i // cols + 1) * ch)
        )
        face = board.images.open(card["face"]).convert("RGB").resize(cell.size)
        diff = sum(
            abs(a - b) for a, b in zip(cell.resize((8, 8)).tobytes(), face.resize((8, 8)).tobytes())
        )
        assert diff / 192 < 12, f"card {card['id']} is not in cell {i}"
    back = board.decks["painted-tiles/cards"]["back"]
    assert local(sheet["BackURL"]).read_bytes() == board.images.data(back)


def test_hosted_pictures_use_the_url_base_and_the_background_is_a_board(tmp_path):
    out = tmp_path / "traced.json"
    base = "https://example.org/boards/"
    assert (
        main(["export", str(TRACED), "--to", "tts", "-o", str(out), "--image-url-base", base]) == 0
    )
    bg = [b for b in objects(out, "Custom_Board") if b["Nickname"] == "Background"]
    assert len(bg) == 1 and bg[0]["Locked"]
    url = bg[0]["CustomImage"]["ImageURL"]
    assert url.startswith(base) and (tmp_path / "traced.images" / url[len(base) :]).is_file()


def test_tiled_export_has_the_background_layer_and_a_tile_face_tileset(tmp_path):
    pytiled_parser = pytest.importorskip("pytiled_parser")
    out = tmp_path / "painted.tmj"
    assert main(["export", str(PAINTED), "--to", "tmj", "-o", str(out), "--px-per-mm", "2"]) == 0
    m = pytiled_parser.parse_map(out)
    (tileset,) = m.tilesets.values()
    assert tileset.name == "tile faces" and tileset.tile_count == 4
    for tile in tileset.tiles.values():
        assert (out.parent / tile.image).is_file()
    layer = next(lay for lay in m.layers if lay.name == "tile faces")
    board = load_project(PAINTED)
    assert len(layer.tiled_objects) == len(board.placements)
    obj = next(o for o in layer.tiled_objects if o.name == "r0c3")  # turned once
    p = board.placement("r0c3")
    assert obj.rotation == 90 and obj.size.width == 200
    # anchored at the bottom-left corner, turned 90° clockwise about it: the anchor is
    # the top-left corner of the tile on the board
    assert (obj.coordinates.x, obj.coordinates.y) == ((p.x - 50) * 2, (p.y - 50) * 2)

    out2 = tmp_path / "traced.tmj"
    assert main(["export", str(TRACED), "--to", "tmj", "-o", str(out2)]) == 0
    m2 = pytiled_parser.parse_map(out2)
    bg = m2.layers[0]
    assert type(bg).__name__ == "ImageLayer" and bg.opacity == pytest.approx(0.6)
    side = round(load_project(TRACED).meta["width"])  # the picture at 1 px per mm
    assert Image.open(out2.parent / bg.image).size == (side, side)


def test_a_deck_with_missing_faces_keeps_every_card_and_says_so(tmp_path):
    """Only the first card of the deck has a face picture: the TTS deck still holds
    every card (the others drawn with their title), the deck's description and the
    save's notes say how many were drawn."""
    from referee.store import save_project

    board = load_project(PAINTED)
    cards = board.decks["painted-tiles/cards"]["cards"]
    for c in cards[1:]:
        c.pop("face", None)
    proj = tmp_path / "one-face.bwproj"
    save_project(board, proj)
    out = tmp_path / "one-face.json"
    assert main(["export", str(proj), "--to", "tts", "-o", str(out)]) == 0
    (deck,) = objects(out, "DeckCustom")
    assert len(deck["ContainedObjects"]) == len(deck["DeckIDs"]) == len(cards)
    assert f"{len(cards) - 1} card(s) without a face picture" in deck["Description"]
    notes = json.loads(out.read_text())["_boardwright"]["notes"]
    assert notes == [
        f"deck painted-tiles/cards: {len(cards) - 1} of {len(cards)} cards have no face "
        "picture; they are drawn with their title and text"
    ]
    # the drawn cells are not blank: each carries ink (its title)
    ((_, sheet),) = deck["CustomDeck"].items()
    im = Image.open(local(sheet["FaceURL"])).convert("L")
    cols, rows = sheet["NumWidth"], sheet["NumHeight"]
    cw, ch = im.size[0] // cols, im.size[1] // rows
    for i in range(1, len(cards)):
        cell = im.crop(
            ((i % cols) * cw, (i // cols) * ch, (i % cols + 1) * cw, (i // cols + 1) * ch)
        )
        assert cell.getextrema()[0] < 100, f"cell {i} is blank"
