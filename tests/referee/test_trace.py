"""Tracing spaces from a picture (referee.trace, referee trace): a rendered map comes back."""

from __future__ import annotations

import io
import json

import numpy as np
import pytest
import shapely
from PIL import Image

from referee.cli import main
from referee.errors import ImageError
from referee.generators import voronoi_map
from referee.render import render_svg
from referee.render.png import svg_to_png
from referee.store import load_project
from referee.trace import score_trace, trace_board, trace_regions

PX_PER_MM = 4.0


@pytest.fixture(scope="module")
def known_map():
    board = voronoi_map(30, seed=3, rivers=0, roads=0)
    svg = render_svg(
        board, pieces=False, labels=False, patterns=False, layers=("ground", "regions")
    )
    width_px = round(board.meta["width"] * PX_PER_MM)
    png = svg_to_png(svg, width_px)
    return board, png, board.meta["width"] / width_px


def test_a_rendered_map_traces_back_to_its_spaces_and_adjacency(known_map):
    board, png, scale = known_map
    traced, _ = trace_board(png, scale=scale)
    # borders shorter than the trace's default min_border (3 px) are beyond the picture
    score = score_trace(board, traced, resolution=3 * scale)
    assert score.traced == score.spaces
    assert score.matched_share >= 0.95
    assert score.iou_min >= 0.95
    assert score.adjacency_lost == [] and score.adjacency_extra == []
    assert score.adjacency_same > 30 and score.adjacency_unresolved <= 1


def test_traced_spaces_form_a_coverage_without_gaps_or_overlaps(known_map):
    _, png, scale = known_map
    res = trace_regions(png, scale=scale, tolerance=0.5)
    polys = np.array(res.polygons)
    assert all(p.geom_type == "Polygon" and p.is_valid for p in polys)
    assert shapely.coverage_is_valid(polys)
    # together they cover the whole picture: no gaps
    assert shapely.coverage_union_all(polys).area == pytest.approx(
        res.width_mm * res.height_mm, rel=1e-9
    )


def test_a_larger_tolerance_gives_fewer_vertices_and_still_a_coverage(known_map):
    _, png, scale = known_map
    fine = trace_regions(png, scale=scale, tolerance=0.0, min_border=0.0)
    coarse = trace_regions(png, scale=scale, tolerance=1.0)
    count = lambda r: int(shapely.get_num_coordinates(np.array(r.polygons)).sum())  # noqa: E731
    assert count(coarse) < count(fine) / 5
    assert shapely.coverage_is_valid(np.array(coarse.polygons))


def test_progress_is_reported_stage_by_stage_up_to_done(known_map):
    _, png, scale = known_map
    seen: list[tuple[str, float]] = []
    trace_regions(png, scale=scale, progress=lambda stage, frac: seen.append((stage, frac)))
    fracs = [f for _, f in seen]
    assert fracs == sorted(fracs) and seen[-1] == ("done", 1.0) and len(seen) >= 5


def test_the_region_around_a_map_on_a_page_can_be_left_out():
    im = Image.new("RGB", (200, 120), "white")
    px = im.load()
    for x in range(20, 180):
        for y in range(20, 100):
            px[x, y] = (40, 40, 40) if x in (20, 100, 179) or y in (20, 99) else (200, 60, 60)
    both = trace_regions(im, scale=0.5)
    inner = trace_regions(im, scale=0.5, drop_outside=True)
    assert len(both.polygons) == 3 and len(inner.polygons) == 2
    # two halves of about 80 × 80 px = 1600 mm² each (borders split down the middle)
    assert [p.area for p in inner.polygons] == [pytest.approx(1600, rel=0.05)] * 2


def test_cli_traces_a_picture_into_a_project_that_checks_clean(tmp_path, known_map, capsys):
    _, png, scale = known_map
    pic = tmp_path / "map.png"
    pic.write_bytes(png)
    out = tmp_path / "traced.bwproj"
    rc = main(["trace", str(pic), "--scale", str(scale), "--background", "-o", str(out), "--json"])
    assert rc == 0
    report = json.loads(capsys.readouterr().out)
    assert report["spaces"] == 30
    board = load_project(out)
    assert len([f for f in board.features if f.kind == "space"]) == 30
    assert board.background is not None and board.background.scale == pytest.approx(scale)
    assert board.images.data(board.background.image) == png
    assert main(["check", str(out)]) == 0


def test_cli_refuses_a_broken_picture_in_one_line(tmp_path, capsys):
    bad = tmp_path / "broken.png"
    buf = io.BytesIO()
    Image.new("RGB", (64, 64), "red").save(buf, "PNG")
    bad.write_bytes(buf.getvalue()[:60])
    rc = main(["trace", str(bad), "--scale", "1", "-o", str(tmp_path / "x.json")])
    err = capsys.readouterr().err.strip()
    assert rc == 1 and "\n" not in err and "broken.png" in err
    assert not (tmp_path / "x.json").exists()


def test_a_picture_without_regions_is_refused():
    stripes = np.zeros((50, 50, 3), dtype=np.uint8)
    stripes[:, ::2] = 255  # one-pixel stripes: nothing wide enough to be a space
    with pytest.raises(ImageError):
        trace_regions(stripes, scale=1.0)
