"""Trace on generated hand-drawn maps whose truth is known: 40 spaces of a Voronoi
map, filled in five colours, with borders drawn 1 to 6 px thick (issue 29: with ~4 px
borders the ink became a 19th space touching every region and no true neighbour pair
was found). Every space is found, no extra space, and
every true neighbour pair touches: spaces of 50 x 50 px and more are found with
IoU >= 0.95, the smallest thin ones with IoU >= 0.94.

Not yet handled (left out of this corpus, see docs/how-to/see-the-table.md): JPEG
artefacts and heavy anti-aliasing split a fill colour into several bins.
"""

from __future__ import annotations

import numpy as np
import pytest
import shapely
from PIL import Image, ImageDraw
from scipy.spatial import Voronoi

from referee.trace import trace_regions

PALETTE = [(214, 196, 150), (120, 170, 90), (110, 150, 210), (180, 160, 130), (230, 220, 180)]


def hand_drawn_map(
    border_px: int, seed: int, n: int = 40, size: tuple[int, int] = (800, 600)
) -> tuple[Image.Image, list[shapely.Polygon], set[tuple[int, int]]]:
    """The picture, its spaces and the pairs of spaces that share a border."""
    rng = np.random.default_rng(seed)
    w, h = size
    pts = rng.uniform([40, 40], [w - 40, h - 40], size=(n, 2))
    far = np.array([[-5000, -5000], [5000, -5000], [-5000, 5000], [5000, 5000]])
    vor = Voronoi(np.vstack([pts, far]))
    frame = shapely.box(20, 20, w - 20, h - 20)
    cells = [
        shapely.Polygon(vor.vertices[vor.regions[vor.point_region[i]]]).intersection(frame)
        for i in range(n)
    ]
    im = Image.new("RGB", size, (255, 255, 255))
    d = ImageDraw.Draw(im)
    for i, c in enumerate(cells):
        d.polygon([tuple(p) for p in c.exterior.coords], fill=PALETTE[i % len(PALETTE)])
    for c in cells:
        d.line(
            [tuple(p) for p in c.exterior.coords], fill=(20, 20, 20), width=border_px, joint="curve"
        )
    pairs = {
        (i, j)
        for i in range(n)
        for j in range(i + 1, n)
        if cells[i].intersection(cells[j]).length > 3
    }
    return im, cells, pairs


@pytest.mark.parametrize("border_px", [1, 2, 3, 4, 5, 6])
def test_every_space_and_neighbour_pair_is_found_whatever_the_border_width(border_px: int) -> None:
    im, cells, pairs = hand_drawn_map(border_px, seed=border_px)
    polys = trace_regions(np.asarray(im), scale=1.0, drop_outside=True).polygons
    assert len(polys) == len(cells)  # the border ink is never a space
    match = [max(range(len(polys)), key=lambda k: polys[k].intersection(c).area) for c in cells]
    assert len(set(match)) == len(cells)  # one traced space per true space
    ious = [polys[m].intersection(c).area / polys[m].union(c).area for m, c in zip(match, cells)]
    # every space of 50 x 50 px or more within IoU 0.95; the thinnest small ones lose
    # more of their area to a 6 px line (a 44 x 81 px space reaches 0.9497)
    assert min(iou for iou, c in zip(ious, cells) if c.area >= 2500) >= 0.95
    assert min(ious) >= 0.94
    missing = [p for p in pairs if polys[match[p[0]]].intersection(polys[match[p[1]]]).length <= 1]
    assert missing == []
    assert all(p.is_valid for p in polys)


def test_a_ring_simplified_into_a_bow_tie_is_repaired_to_its_main_part() -> None:
    """Simplifying a thin neck can cross a ring over itself (the Riddle sample's PNG
    traced to 's138: invalid polygon: Self-intersection'); what trace writes is valid."""
    from referee.trace import _valid_polygon

    bow = shapely.Polygon([(0, 0), (10, 10), (10, 0), (0, 10), (0, 0)])
    assert not bow.is_valid
    fixed = _valid_polygon(bow)
    assert fixed.is_valid and fixed.geom_type == "Polygon" and fixed.area > 0


@pytest.mark.slow
def test_tracing_the_riddle_samples_png_export_writes_a_project_that_opens(tmp_path) -> None:
    """The default PNG export of the Riddle sample, traced, is a project `referee
    check` opens (every polygon valid)."""
    from pathlib import Path

    from referee.cli import main

    root = Path(__file__).resolve().parents[2]
    png = tmp_path / "riddle.png"
    assert (
        main(["export", str(root / "projects" / "riddle-sample"), "--to", "png", "-o", str(png)])
        == 0
    )
    out = tmp_path / "traced.bwproj"
    assert main(["trace", str(png), "--scale", "0.5", "-o", str(out)]) == 0
    assert main(["check", str(out)]) == 0
