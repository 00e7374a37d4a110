"""Pictures in `referee render`: tile faces turn with their tile, backgrounds, tokens, PNG."""

from __future__ import annotations

import io
import re
from pathlib import Path

from PIL import Image

from referee.cli import main
from referee.render import render_svg
from referee.render.png import svg_to_png
from referee.store import load_project

ROOT = Path(__file__).resolve().parents[3]
PAINTED = ROOT / "projects" / "painted-tiles" / "painted-tiles.bwproj"
TRACED = ROOT / "projects" / "painted-tiles" / "traced-map.bwproj"


def test_each_tile_face_is_drawn_turned_with_its_tile_and_clipped_to_its_outline():
    board = load_project(PAINTED)
    svg = render_svg(board)
    faces = re.findall(r'<image href="data:image/jpeg;base64,[^"]+"[^>]*transform="([^"]+)"', svg)
    assert len(faces) == len(board.placements)
    expected = {f"translate({p.x:g},{p.y:g}) rotate({90 * p.turns})" for p in board.placements}
    assert set(faces) == expected
    tokens = len(board.pieces)  # each token is clipped to its disc
    assert svg.count("<clipPath") == tokens  # a square face covers its tile: nothing to clip
    lake = board.tiles["painted-tiles/lake"]
    lake.outline_spec = {"shape": "octagon", "size": 100.0}
    lake.invalidate()
    lakes = sum(p.tile == lake.key for p in board.placements)
    assert render_svg(board).count("<clipPath") == tokens + lakes  # an octagon clips its picture


def test_turning_a_tile_turns_its_picture_in_the_png():
    board = load_project(PAINTED)
    p = board.placement("r0c0")  # the road corner: road leaves south and east at turns 0

    def road_at(x_mm: float, y_mm: float) -> bool:
        png = svg_to_png(render_svg(board, pieces=False, legend=False), round(board.meta["width"]))
        r, g, _ = Image.open(io.BytesIO(png)).convert("RGB").getpixel((round(x_mm), round(y_mm)))
        return r > g  # dirt is brown, grass is green

    # one pixel per mm; sample 30 mm from the tile's centre towards N and S
    assert road_at(p.x, p.y + 30) and not road_at(p.x, p.y - 30)
    p.turns = 2  # now the road leaves north and west
    assert road_at(p.x, p.y - 30) and not road_at(p.x, p.y + 30)


def test_linked_pictures_are_written_beside_the_svg(tmp_path):
    out = tmp_path / "board.svg"
    assert main(["render", str(PAINTED), "-o", str(out), "--images", "link"]) == 0
    svg = out.read_text(encoding="utf-8")
    links = set(re.findall(r'href="(board\.images/[0-9a-f]{64}\.jpg)"', svg))
    assert links and all((tmp_path / link).is_file() for link in links)
    assert "data:image" not in svg


def test_no_pictures_on_request_and_a_background_under_translucent_spaces():
    assert "<image" not in render_svg(load_project(PAINTED), images="none")
    svg = render_svg(load_project(TRACED))
    assert svg.count("<image") == 1 and 'opacity="0.6"' in svg
    assert 'fill-opacity="0.45"' in svg


def test_png_render_embeds_pictures_reduced_to_its_resolution(tmp_path):
    out = tmp_path / "b.png"
    assert main(["render", str(PAINTED), "--png", str(out), "--dpi", "25.4"]) == 0
    board = load_project(PAINTED)
    side = round(board.meta["width"])  # 25.4 dpi: one pixel per mm
    assert Image.open(out).size == (side, side)
    small = render_svg(board, image_px_per_mm=1.0)
    full = render_svg(board)
    assert len(small) < len(full)  # 100 px faces instead of 256 px ones
