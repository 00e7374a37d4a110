"""Pictures in the editor: import and drop image files, tile faces on the canvas and in
the palette, and reduced decodes sized to the screen (issue "Your own art")."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import shapely
from PIL import Image
from PySide6.QtCore import QMimeData, QPointF, Qt, QUrl
from PySide6.QtGui import QDragEnterEvent, QDragMoveEvent, QDropEvent
from PySide6.QtWidgets import QApplication

from editor.document import new_board
from editor.pictures import PictureCache, level_for
from referee.assets import AssetPack
from referee.images import ImageStore
from referee.model import Feature, TileAsset
from referee.store import load_project


def png(path: Path, size: tuple[int, int] = (64, 48), colour: str = "#2e7d32") -> Path:
    Image.new("RGB", size, colour).save(path)
    return path


def drop_files(view: Any, paths: list[Path], x: float, y: float) -> None:
    """Drag local files from the desktop and drop them on scene point (x, y), as the
    OS does: drag enter, drag move, drop."""
    md = QMimeData()
    md.setUrls([QUrl.fromLocalFile(str(p)) for p in paths])
    pt = view.mapFromScene(QPointF(x, y))
    args = (Qt.DropAction.CopyAction, md, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier)
    for ev in (QDragEnterEvent(pt, *args), QDragMoveEvent(pt, *args)):
        QApplication.sendEvent(view.viewport(), ev)
        assert ev.isAccepted()
    QApplication.sendEvent(view.viewport(), QDropEvent(QPointF(pt), *args))


def colour_at(win: Any, x: float, y: float) -> tuple[int, int, int]:
    img = win.view.viewport().grab().toImage()
    c = img.pixelColor(win.view.mapFromScene(QPointF(x, y)))
    return c.red(), c.green(), c.blue()


def test_a_dropped_png_becomes_the_background_in_one_undo_step(
    make_window: Any, tmp_path: Path
) -> None:
    win = make_window(board=new_board(), packs={})
    f = png(tmp_path / "map.png", (300, 200), "#1565c0")
    steps = win.doc.undo.count()
    drop_files(win.view, [f], 100, 100)
    bg = win.doc.board.background
    assert bg is not None and bg.image in win.doc.board.images
    assert bg.scale == pytest.approx(600 / 300)  # spans the board's width
    assert win.doc.undo.count() == steps + 1
    win.view.fit()
    assert colour_at(win, 300, 150) == (0x15, 0x65, 0xC0)  # the picture is drawn
    win.a_undo.trigger()
    assert win.doc.board.background is None and len(win.doc.board.images) == 0
    assert not win.scene.background_item.isVisible()
    win.a_redo.trigger()
    assert win.doc.board.background is not None and len(win.doc.board.images) == 1
    # it survives saving and opening the project
    out = tmp_path / "b.bwproj"
    assert win.save_to(out)
    again = load_project(out)
    assert again.background is not None and again.images.data(bg.image) == f.read_bytes()


def test_later_drops_become_art_and_a_drop_on_art_sets_its_picture(
    make_window: Any, tmp_path: Path
) -> None:
    win = make_window(board=new_board(), packs={})
    drop_files(win.view, [png(tmp_path / "bg.png", (60, 60), "#ffffff")], 10, 10)
    drop_files(win.view, [png(tmp_path / "tree.png", (100, 50), "#2e7d32")], 300, 300)
    art = [f for f in win.doc.board.features if f.kind == "art"]
    assert len(art) == 1
    x0, y0, x1, y1 = art[0].geometry.bounds
    # centred where it was dropped (to the screen pixel the drop arrived at)
    assert ((x0 + x1) / 2, (y0 + y1) / 2) == pytest.approx((300, 300), abs=1.0)
    assert (x1 - x0) / (y1 - y0) == pytest.approx(2.0)  # the picture's proportions
    win.view.fit()
    assert colour_at(win, 300, 300) == (0x2E, 0x7D, 0x32)
    rock = png(tmp_path / "rock.png", (10, 10), "#795548")
    drop_files(win.view, [rock], 300, 300)
    assert len([f for f in win.doc.board.features if f.kind == "art"]) == 1
    assert art[0].props["image"] == ImageStore().add_file(rock).id
    win.a_undo.trigger()
    assert art[0].props["image"] != ImageStore().add_file(rock).id


def test_several_files_dropped_at_once_are_one_undo_step(make_window: Any, tmp_path: Path) -> None:
    win = make_window(board=new_board(), packs={})
    files = [png(tmp_path / f"{i}.png", (20, 20), c) for i, c in enumerate(["red", "blue"])]
    steps = win.doc.undo.count()
    drop_files(win.view, files, 200, 200)
    assert win.doc.board.background is not None
    assert len([f for f in win.doc.board.features if f.kind == "art"]) == 1
    assert win.doc.undo.count() == steps + 1
    win.a_undo.trigger()
    assert win.doc.board.background is None and not win.doc.board.features


@pytest.mark.parametrize(
    "name, data",
    [
        ("broken.png", b"\x89PNG\r\n\x1a\n" + b"\0" * 40),
        ("notes.png", b"just some text"),
        ("evil.svg", b'<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'),
    ],
)
def test_a_bad_image_file_is_refused_in_one_line_naming_it(
    make_window: Any, asked: Any, tmp_path: Path, name: str, data: bytes
) -> None:
    win = make_window(board=new_board(), packs={})
    bad = tmp_path / name
    bad.write_bytes(data)
    steps = win.doc.undo.count()
    drop_files(win.view, [bad], 100, 100)
    assert asked.calls and asked.calls[-1][0] == "critical"
    text = asked.calls[-1][2]
    assert name in text and "\n" not in text and "Traceback" not in text
    assert win.doc.undo.count() == steps and len(win.doc.board.images) == 0


def test_file_import_image_uses_the_view_centre(
    make_window: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    win = make_window(board=new_board(), packs={})
    f = png(tmp_path / "scan.jpg", (40, 40))
    Image.new("RGB", (40, 40), "#aa0000").save(f, "JPEG")
    monkeypatch.setattr(win.pictures, "choose_files", lambda: [str(f)])
    win.pictures.a_import.trigger()
    bg = win.doc.board.background
    assert bg is not None and win.doc.board.images.info(bg.image).format == "jpeg"
    assert "Import image" in " ".join(
        a.text() for a in win.menuBar().actions()[0].menu().actions()
    ).replace("&", "")


def _face_pack(tmp_path: Path) -> AssetPack:
    d = tmp_path / "pack"
    d.mkdir()
    store = ImageStore()
    face = store.add_file(png(tmp_path / "grass.png", (64, 64), "#33691e"))
    store.write_folder(d / "images")
    tile = TileAsset(
        "p/grass", "Grass", {"shape": "square", "size": 100}, [], True, {}, face=face.id
    )
    return AssetPack("p", "Test pack", d, {"p/grass": tile}, images=store)


def test_a_placed_tile_shows_its_face_and_brings_its_picture_into_the_board(
    make_window: Any, tmp_path: Path
) -> None:
    pack = _face_pack(tmp_path)
    win = make_window(board=new_board(), packs={"p": pack})
    face = pack.tiles["p/grass"].face
    pid = win.drop_tile("p/grass", 300, 300)
    assert pid is not None and face in win.doc.board.images
    win.view.fit()
    assert colour_at(win, 300, 300) == (0x33, 0x69, 0x1E)
    # the palette's icon shows the face too
    icon = win.palette_dock.list.item(0).icon().pixmap(72, 72).toImage()
    c = icon.pixelColor(36, 36)
    assert (c.red(), c.green(), c.blue()) == (0x33, 0x69, 0x1E)
    win.a_undo.trigger()
    assert face not in win.doc.board.images


def test_a_file_dropped_on_a_placed_tile_becomes_its_face_in_one_undo_step(
    make_window: Any, tmp_path: Path
) -> None:
    d = tmp_path / "pack"
    d.mkdir()
    tile = TileAsset("p/plain", "Plain", {"shape": "square", "size": 100}, [], True, {})
    pack = AssetPack("p", "Test pack", d, {"p/plain": tile}, images=ImageStore())
    win = make_window(board=new_board(), packs={"p": pack})
    assert win.drop_tile("p/plain", 200, 300) and win.drop_tile("p/plain", 400, 300)
    steps = win.doc.undo.count()
    sand = png(tmp_path / "sand.png", (32, 32), "#f9a825")
    drop_files(win.view, [sand], 200, 300)
    face = ImageStore().add_file(sand).id
    assert win.doc.board.tiles["p/plain"].face == face and face in win.doc.board.images
    assert win.doc.board.background is None and not win.doc.board.features
    assert pack.tiles["p/plain"].face is None  # the pack's asset keeps its own face
    assert win.doc.undo.count() == steps + 1
    win.view.fit()
    # both placements of the tile show it
    assert colour_at(win, 200, 300) == colour_at(win, 400, 300) == (0xF9, 0xA8, 0x25)
    out = tmp_path / "b.bwproj"
    assert win.save_to(out)
    assert load_project(out).tiles["p/plain"].face == face
    win.a_undo.trigger()
    assert win.doc.board.tiles["p/plain"].face is None and face not in win.doc.board.images
    assert colour_at(win, 200, 300) != (0xF9, 0xA8, 0x25)
    win.a_redo.trigger()
    assert win.doc.board.tiles["p/plain"].face == face


def test_pictures_are_decoded_no_larger_than_they_are_shown(
    make_window: Any, tmp_path: Path
) -> None:
    board = new_board()
    win = make_window(board=board, packs={})
    files = [png(tmp_path / f"a{i}.png", (1024, 1024), f"#{i * 20:02x}4060") for i in range(6)]
    drop_files(win.view, files[:1], 0, 0)
    for i, f in enumerate(files[1:]):
        drop_files(win.view, [f], 80 + 90 * i, 500)
    win.view.fit()
    win.view.viewport().grab()
    cache = win.scene.pictures
    shown = {lvl for _id, lvl in cache.levels()}
    # the window is ~900 px wide: the background needs 1024 at most, each art far less
    assert shown and max(shown) <= 1024 and min(shown) <= 256
    assert cache.decodes == len(cache.levels())
    before = cache.decodes
    win.view.viewport().grab()  # painting again decodes nothing
    assert cache.decodes == before


def test_level_for_rounds_up_to_a_power_of_two_within_the_picture() -> None:
    assert level_for(10, 4096) == 32
    assert level_for(300, 4096) == 512
    assert level_for(3000, 1024) == 1024


def test_the_cache_forgets_the_least_recently_used_pixmaps(tmp_path: Path) -> None:
    store = ImageStore()
    ids = [
        store.add_file(png(tmp_path / f"{i}.png", (64, 64), f"#{i * 40:02x}0000")).id
        for i in range(4)
    ]
    cache = PictureCache(lambda: [store], max_entries=2)
    for i in ids:
        assert cache.pixmap(i, 64) is not None
    assert [k[0] for k in cache.levels()] == ids[2:]
    assert cache.pixmap("0" * 64, 64) is None  # unknown image: nothing, no error


def test_art_with_a_missing_picture_is_drawn_as_a_placeholder(make_window: Any) -> None:
    board = new_board()
    board.features.append(
        Feature("a1", "art", shapely.box(100, 100, 200, 200), {"image": "f" * 64})
    )
    win = make_window(board=board, packs={})
    win.view.viewport().grab()  # paints without raising
    assert "f" * 64 not in win.doc.board.images


def test_a_file_dropped_on_a_tile_in_the_asset_editor_becomes_its_face(
    qtbot: Any, tmp_path: Path
) -> None:
    from editor.asset_editor import AssetEditor
    from referee.assets import load_pack

    pack = _face_pack(tmp_path)
    pack.save_manifest()
    pack.save_tile(pack.tiles["p/grass"])
    ed = AssetEditor({"p": pack}, "p/grass")
    qtbot.addWidget(ed)
    ed.show()
    old = pack.tiles["p/grass"].face
    # the four turns show the painted face
    preview = ed.previews[1][0].pixmap().toImage()
    c = preview.pixelColor(63, 63)
    assert (c.red(), c.green(), c.blue()) == (0x33, 0x69, 0x1E)
    sand = png(tmp_path / "sand.png", (32, 32), "#fbc02d")
    drop_files(ed.view, [sand], 0, 0)
    face = ImageStore().add_file(sand).id
    assert ed.current_tile().face == face
    c = ed.previews[0][0].pixmap().toImage().pixelColor(63, 63)
    assert (c.red(), c.green(), c.blue()) == (0xFB, 0xC0, 0x2D)
    ed.doc.undo.undo()
    assert ed.current_tile().face == old
    ed.doc.undo.redo()
    assert ed.save_tile()
    again = load_pack(pack.path)
    assert again.tiles["p/grass"].face == face
    assert again.images.data(face) == sand.read_bytes()
    ed.doc.undo.setClean()
    ed.close()


def test_the_deck_table_shows_card_faces(qtbot: Any, tmp_path: Path) -> None:
    from editor.asset_editor import AssetEditor

    pack = _face_pack(tmp_path)
    card = pack.images.add_file(png(tmp_path / "card.png", (30, 40), "#c62828"))
    pack.decks["p/fate"] = {"name": "Fate", "cards": [{"id": "c1", "face": card.id}]}
    ed = AssetEditor({"p": pack}, None)
    qtbot.addWidget(ed)
    icon = ed.decks_table.item(0, 0).icon()
    assert not icon.isNull()
    img = icon.pixmap(ed.decks_table.iconSize()).toImage()
    c = img.pixelColor(10, 20)
    assert (c.red(), c.green(), c.blue()) == (0xC6, 0x28, 0x28)


def test_a_piece_with_a_token_shows_its_picture(make_window: Any, tmp_path: Path) -> None:
    from referee.model import PieceOnBoard

    board = new_board()
    token = board.images.add_file(png(tmp_path / "hobbit.png", (32, 32), "#6a1b9a"))
    board.piece_types["t/hobbit"] = {"name": "Hobbit", "colour": "yellow", "token": token.id}
    board.features.append(Feature("p1", "point", shapely.Point(300, 300), {"colour": "grey"}))
    board.pieces.append(PieceOnBoard("h1", "t/hobbit", "p1"))
    win = make_window(board=board, packs={})
    win.view.set_zoom(8.0)
    win.view.centerOn(300, 300)
    assert colour_at(win, 300, 300) == (0x6A, 0x1B, 0x9A)
