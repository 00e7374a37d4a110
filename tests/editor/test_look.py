"""The window as a user sees it: screenshots and the asset editor."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path
from typing import Any

from PySide6.QtGui import QImage

from editor.app import main
from referee.assets import load_pack

from .conftest import RINGGEISTER, ROOT


def test_main_window_renders_to_png(make_window: Any, tmp_path: Path) -> None:
    """Render the main window on the default board (look at tests' PNG to judge the look)."""
    win = make_window()
    assert win.open_path(RINGGEISTER, offer_recovery=False)
    win.resize(1400, 900)
    win.view.fit()
    win.a_graph.trigger()
    out = Path(os.environ.get("BOARDWRIGHT_SHOT_DIR", tmp_path)) / "main-window.png"
    assert win.grab().save(str(out))
    img = QImage(str(out))
    assert img.width() >= 1400 and img.height() >= 900
    # the board is drawn: many distinct colours in the canvas area
    colours = {img.pixel(x, y) for x in range(300, 1100, 7) for y in range(150, 700, 7)}
    assert len(colours) > 50
    b = win.doc.board
    assert len(win.scene.items_by_key) == len(b.placements) + len(b.features) + len(b.pieces)


def test_screenshot_cli(tmp_path: Path) -> None:
    """``boardwright [PROJECT] --screenshot FILE.png`` writes the PNG and exits 0."""
    out = tmp_path / "shot.png"
    args = [str(RINGGEISTER)] if RINGGEISTER.exists() else []
    assert main(args + ["--screenshot", str(out), "--size", "1000x700"]) == 0
    img = QImage(str(out))
    assert (img.width(), img.height()) == (1000, 700)


def test_screenshot_cli_bad_project_exits_1(tmp_path: Path, capsys: Any) -> None:
    bad = tmp_path / "bad.bwproj"
    bad.write_text("nonsense")
    assert main([str(bad), "--screenshot", str(tmp_path / "x.png")]) == 1
    assert "bad.bwproj" in capsys.readouterr().err
    assert not (tmp_path / "x.png").exists()


def test_asset_editor_edits_a_tile_and_saves_into_its_pack(
    make_window: Any, tmp_path: Path
) -> None:
    from editor.asset_editor import AssetEditor

    pack_dir = tmp_path / "ringgeister"
    shutil.copytree(ROOT / "assets" / "ringgeister", pack_dir)
    pack = load_pack(pack_dir)
    key = sorted(pack.tiles)[0]
    ed = AssetEditor({pack.id: pack}, key)
    ed.show()
    tile = pack.tiles[key]
    assert len(ed.doc.board.features) == len(tile.features)
    shown = [lab.pixmap() for lab, _ in ed.previews]
    assert all(not p.isNull() for p in shown[: tile.turn_count])
    ed.set_tool("point")
    ed.tools["point"].place(5.0, -5.0)
    assert ed.doc.modified
    assert ed.save_tile()
    saved = json.loads((pack_dir / "tiles" / f"{key.split('/', 1)[1]}.json").read_text())
    assert len(saved["features"]) == len(tile.features) + 1
    new = [
        f
        for f in saved["features"]
        if f["geometry"] == {"type": "Point", "coordinates": [5.0, -5.0]}
    ]
    assert new and new[0]["kind"] == "point"
    assert len(load_pack(pack_dir).tiles[key].features) == len(tile.features) + 1
    # pieces as a table: edit a name, save the pack manifest
    t = ed.pieces_table
    assert t.rowCount() == len(pack.piece_types) > 0
    data = json.loads(t.item(0, 1).text())
    data["name"] = "Renamed piece"
    t.item(0, 1).setText(json.dumps(data))
    assert ed.save_manifest()
    again = load_pack(pack_dir)
    assert next(iter(again.piece_types.values()))["name"] == "Renamed piece"
    ed.doc.undo.setClean()
    ed.close()
