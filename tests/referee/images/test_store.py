"""Images in projects: stored once by content, in the .bwproj and beside the JSON export."""

from __future__ import annotations

import io
import json
import shutil
from pathlib import Path

import pytest
from PIL import Image

from referee.cli import main
from referee.errors import ImageError
from referee.images import ImageStore
from referee.images.project import ImageUse, add_images, image_problems, remove_image
from referee.store import (
    dumps_board,
    export_json,
    images_dir,
    import_json,
    load_project,
    save_project,
)

ROOT = Path(__file__).resolve().parents[3]
RIDDLE = ROOT / "projects" / "riddle-sample" / "riddle-sample.bwproj"
PAINTED = ROOT / "projects" / "painted-tiles"


def noise(path: Path, seed: int, size: int = 256, fmt: str = "PNG") -> Path:
    Image.frombytes(
        "RGB", (size, size), bytes((seed * 7 + i * 13) % 251 for i in range(size * size * 3))
    ).save(path, fmt)
    return path


@pytest.fixture
def project(tmp_path):
    p = tmp_path / "riddle.bwproj"
    shutil.copy(RIDDLE, p)
    return p


def test_the_same_picture_is_stored_once_whatever_its_name(tmp_path):
    a = noise(tmp_path / "a.png", 1)
    b = tmp_path / "b.png"
    shutil.copy(a, b)
    store = ImageStore()
    ia, ib = store.add_file(a), store.add_file(b)
    assert ia.id == ib.id and len(store) == 1


def test_a_project_keeps_raw_blobs_not_base64(project, tmp_path):
    files = [noise(tmp_path / f"i{k}.png", k) for k in range(6)]
    before = project.stat().st_size
    board = load_project(project)
    add_images(board, files)
    save_project(board, project)
    growth = project.stat().st_size - before
    total = sum(f.stat().st_size for f in files)
    assert total <= growth < total * 1.05 + 16384  # base64 would add a third
    again = load_project(project)
    assert [i.id for i in again.images] == [i.id for i in board.images]
    assert again.images.data(again.images.find("i3.png").id) == files[3].read_bytes()


def test_json_export_writes_the_pictures_beside_it_and_reads_them_back(project, tmp_path):
    pic = noise(tmp_path / "map.png", 5)
    board = load_project(project)
    add_images(board, [pic], ImageUse("background"))
    out = tmp_path / "exp" / "riddle.json"
    out.parent.mkdir()
    export_json(board, out)
    folder = images_dir(out)
    assert folder.name == "riddle.images"
    info = board.images.info(board.background.image)
    assert (folder / info.file_name).read_bytes() == pic.read_bytes()
    back = import_json(out)
    assert back.background == board.background
    assert back.images.data(info.id) == pic.read_bytes()
    # lossless: export → import → export is byte-identical, and so is the .bwproj round trip
    save_project(back, tmp_path / "again.bwproj")
    assert dumps_board(load_project(tmp_path / "again.bwproj")) == out.read_text(encoding="utf-8")


def test_a_board_without_pictures_exports_as_before():
    text = (ROOT / "projects" / "riddle-sample" / "riddle-sample.json").read_text(encoding="utf-8")
    board = load_project(RIDDLE)
    assert '"images"' not in dumps_board(board) and dumps_board(board) == text


def test_missing_pictures_are_reported_by_check(tmp_path, capsys):
    shutil.copytree(PAINTED, tmp_path / "p", ignore=shutil.ignore_patterns("*.bwproj", "traced*"))
    proj = tmp_path / "p" / "painted-tiles.json"
    assert main(["check", str(proj)]) == 0
    victim = next((tmp_path / "p" / "painted-tiles.images").glob("*.jpg"))
    victim.unlink()
    capsys.readouterr()
    assert main(["check", str(proj), "--json"]) == 1
    probs = json.loads(capsys.readouterr().out)["problems"]
    assert {p["code"] for p in probs} == {"missing_image"}
    assert victim.name in probs[0]["message"]


def test_a_reference_to_an_unknown_picture_is_reported(project):
    board = load_project(project)
    board.features[0].props["image"] = "0" * 64
    board.features[0].kind = "art"
    probs = image_problems(board)
    assert [p.code for p in probs] == ["missing_image"]
    assert board.features[0].id in probs[0].message


def test_cli_adds_lists_and_removes_pictures(project, tmp_path, capsys):
    pic = noise(tmp_path / "face.jpg", 9, fmt="JPEG")
    assert main(["image", "add", str(project), str(pic), "--background", "--json"]) == 0
    added = json.loads(capsys.readouterr().out)["added"][0]
    assert added["used_by"] == "background" and added["format"] == "jpeg"
    assert main(["image", "list", str(project), "--json"]) == 0
    listed = json.loads(capsys.readouterr().out)["images"]
    assert listed[0]["used_by"] == ["background"] and listed[0]["present"]
    # in use: refused; --force removes it (and check then reports the dangling use)
    assert main(["image", "remove", str(project), "face.jpg"]) == 1
    assert "used by background" in capsys.readouterr().err
    assert main(["image", "remove", str(project), added["id"][:10], "--force"]) == 0
    assert len(load_project(project).images) == 0
    assert main(["check", str(project)]) == 1


@pytest.mark.parametrize("bad", ["truncated.png", "evil.svg", "nothing.png"])
def test_cli_refuses_bad_pictures_in_one_line_and_stores_nothing(project, tmp_path, capsys, bad):
    whole = noise(tmp_path / "n.png", 3).read_bytes()
    (tmp_path / "truncated.png").write_bytes(whole[: len(whole) // 2])
    (tmp_path / "evil.svg").write_text(
        '<svg xmlns="http://www.w3.org/2000/svg"><script>x()</script></svg>'
    )
    good = noise(tmp_path / "good.png", 4)
    before = project.read_bytes()
    rc = main(["image", "add", str(project), str(good), str(tmp_path / bad)])
    err = capsys.readouterr().err.strip()
    assert rc == 1 and err.count("\n") == 0 and bad in err
    assert project.read_bytes() == before  # all or nothing: the good one is not stored either


def test_removing_an_unused_picture_and_refusing_an_unknown_one(tmp_path):
    store_board = load_project(RIDDLE)
    info = store_board.images.add(noise(tmp_path / "x.png", 2).read_bytes(), "x.png")
    assert remove_image(store_board, "x.png") == info
    with pytest.raises(ImageError):
        remove_image(store_board, "x.png")


def test_copies_of_a_board_share_picture_bytes_but_not_the_list(tmp_path):
    board = load_project(RIDDLE)
    board.images.add(noise(tmp_path / "x.png", 2).read_bytes(), "x.png")
    twin = board.copy()
    assert twin.images == board.images
    twin.images.add(noise(tmp_path / "y.png", 3).read_bytes(), "y.png")
    assert len(board.images) == 1 and len(twin.images) == 2


def test_thumbnails_are_cached_per_size(tmp_path):
    store = ImageStore()
    info = store.add(noise(tmp_path / "x.png", 2, size=512).read_bytes(), "x.png")
    a = store.thumbnail(info.id, 64)
    assert a.size == (64, 64) and store.thumbnail(info.id, 64) is a
    assert store.thumbnail(info.id, 32).size == (32, 32)


def test_a_pack_keeps_its_pictures_in_images_and_embeds_the_ones_used():
    from referee.assets import load_pack
    from referee.model import Board

    pack = load_pack(ROOT / "assets" / "painted-tiles")
    assert len(pack.images) == 13
    for info in pack.images:
        assert (pack.path / "images" / info.file_name).is_file()
    board = Board()
    pack.embed_into(board)
    assert {i for _, i in board.image_uses()} <= {i.id for i in board.images}
    buf = io.BytesIO(board.images.data(board.tiles["painted-tiles/lake"].face))
    assert Image.open(buf).size == (256, 256)


def test_calibrating_the_background_from_two_clicked_points():
    from referee.model import Background

    bg = Background("0" * 64, x=10.0, y=20.0, scale=1.0, rotation=30.0)
    a, b = bg.to_board(100, 100), bg.to_board(400, 500)  # 500 px apart
    bg.calibrate(a, b, 250.0)
    assert bg.scale == pytest.approx(0.5)
    assert bg.to_board(100, 100) == pytest.approx(a)  # the first point stays put
    assert bg.to_image(*bg.to_board(37.0, 81.0)) == pytest.approx((37.0, 81.0))
    with pytest.raises(ValueError):
        bg.calibrate(a, a, 10.0)


def test_cli_puts_a_picture_on_a_new_art_feature(project, tmp_path, capsys):
    pic = noise(tmp_path / "crest.png", 6, size=64)
    rc = main(
        [
            "image",
            "add",
            str(project),
            str(pic),
            "--art",
            "crest",
            "--at",
            "10,20",
            "--scale",
            "0.5",
        ]
    )
    assert rc == 0
    f = load_project(project).feature("crest")
    assert f.kind == "art" and f.geometry.bounds == (10.0, 20.0, 42.0, 52.0)
    assert main(["check", str(project)]) == 0
