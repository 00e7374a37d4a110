"""Trace spaces from a picture: regions separated by drawn borders → a polygon coverage.

A scanned or painted map shows its spaces as areas of (nearly) one colour
separated by drawn border lines. :func:`trace_regions` turns such a picture into
polygons, in millimetres, that **share their borders exactly** — a valid
coverage, with no gaps and no slivers between neighbours — simplified to a
tolerance the user sets. :func:`trace_board` wraps them as ``space`` features of
a new board, ready to compile (``referee trace IMAGE --scale MM_PER_PX``).

How it works:

1. **Colours.** The picture's colours are binned (5 bits per channel) and the
   bins covering at least ``min_colour_share`` of the pixels are the *fill*
   colours. A pixel in a fill bin belongs to a region of that colour; every
   other pixel — border ink, anti-aliasing, specks — is *unassigned*.
2. **Regions.** Connected components (4-neighbourhood) of each fill colour.
   Components too small (``min_area``) or too thin (inscribed circle narrower
   than ``min_width``: a border line drawn in a fill colour, a road, text) are
   unassigned again.
3. **Borders to regions.** Every unassigned pixel joins the region nearest to
   it (an exact Euclidean distance transform), so a border line is split along
   its middle — where the original edge was drawn.
4. **Polygons on the pixel grid.** The edges between pixels of different
   regions are collected as grid segments, merged into straight runs between
   grid nodes, and polygonised (``shapely.polygonize``). Both neighbours are
   built from the very same segments, so their shared border is identical.
5. **Simplify as a coverage.** ``shapely.coverage_simplify`` simplifies every
   shared border once, for both sides, so the result stays a coverage.

The region touching the picture's frame with the most pixels on the frame is
the *outside* when ``drop_outside`` is set (a map drawn on a plain page); it
takes part in the coverage (so borders against it are simplified consistently)
but is not returned.

Notes
-----
Time and memory are linear in the pixels: labelling and the distance transform
are O(W·H) (scipy.ndimage); polygonising is O(b log b) in the boundary length b.
Peak memory is about 40 bytes per pixel (the distance transform's index arrays).
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import shapely
from numpy.typing import NDArray

from .errors import ImageError, UsageError
from .model import Board, Feature

#: progress(stage, fraction 0..1): called between the stages of a trace
Progress = Callable[[str, float], None]


@dataclass
class TraceResult:
    """Traced regions (polygons in mm) and facts about the run."""

    polygons: list[shapely.Polygon]
    #: mean RGB fill colour of each polygon's region, as ``#rrggbb``
    colours: list[str]
    width_px: int
    height_px: int
    scale: float
    timings: dict[str, float] = field(default_factory=dict)
    #: width of the drawn border lines in pixels: given, or estimated from the picture
    #: (``border="auto"``, :func:`estimate_border_px`); 0 when regions abut directly
    border_px: float = 0.0

    @property
    def width_mm(self) -> float:
        return self.width_px * self.scale

    @property
    def height_mm(self) -> float:
        return self.height_px * self.scale


def load_picture(source: str | os.PathLike[str] | bytes | Any) -> NDArray[np.uint8]:
    """An H×W×3 uint8 RGB array from a file path, image bytes, a PIL image or an array.

    Files go through :func:`referee.images.inspect_image` (size and pixel limits,
    corrupt data), so a bad picture fails with one :class:`ImageError` naming it.
    """
    from pathlib import Path

    from PIL import Image

    from .images.decode import MAX_FILE_BYTES, inspect_image, open_image
    from .safeio import read_bytes

    if isinstance(source, np.ndarray):
        arr = source
    else:
        if isinstance(source, (str, os.PathLike)):
            p = Path(source)
            # a regular file only (a FIFO hung), no more bytes read than the limit
            data = read_bytes(p, error=ImageError, max_bytes=MAX_FILE_BYTES)
            facts = inspect_image(data, str(p))
            im = open_image(data, facts.format, str(p))
        elif isinstance(source, bytes):
            facts = inspect_image(source, "image")
            im = open_image(source, facts.format)
        else:
            im = source
        if not isinstance(im, Image.Image):
            raise UsageError("trace needs an image file, image bytes, a PIL image or an array")
        if im.mode in ("RGBA", "LA", "PA") or (im.mode == "P" and "transparency" in im.info):
            bg = Image.new("RGBA", im.size, (255, 255, 255, 255))
            bg.alpha_composite(im.convert("RGBA"))
            im = bg
        arr = np.asarray(im.convert("RGB"))
    if arr.ndim == 2:
        arr = np.repeat(arr[:, :, None], 3, axis=2)
    if arr.ndim != 3 or arr.shape[2] < 3:
        raise UsageError(f"picture array must be H×W×3, not {arr.shape}")
    return np.ascontiguousarray(arr[:, :, :3], dtype=np.uint8)


def trace_regions(
    picture: str | os.PathLike[str] | bytes | Any,
    *,
    scale: float,
    tolerance: float | None = None,
    origin: tuple[float, float] = (0.0, 0.0),
    min_colour_share: float = 0.001,
    min_area: float | None = None,
    min_width: float | None = None,
    drop_outside: bool = False,
    min_border: float | None = None,
    border: float | str = "auto",
    scan: bool = False,
    progress: Progress | None = None,
) -> TraceResult:
    """Find the regions of ``picture`` and return them as a polygon coverage in mm.

    Parameters
    ----------
    picture : path, bytes, PIL image or H×W×3 array
        The map picture.
    scale : float
        Millimetres per pixel.
    tolerance : float, optional
        How far (mm, roughly) a simplified border may stray from the pixel
        staircase; default two pixels. 0 keeps the staircase.
    origin : (float, float)
        Board position (mm) of the picture's top-left corner.
    min_colour_share : float
        Share of the pixels a colour bin needs to count as a fill colour.
    min_area, min_width : float, optional
        Regions smaller (mm²) or thinner (mm: they vanish when eroded by half
        this width) are treated as border marks; defaults 25 px² × scale² and
        the larger of 4 px and 1.5 border widths (:data:`BORDER_WIDTHS`),
        times scale.
    drop_outside : bool
        Leave out the region that covers most of the picture's frame.
    min_border : float, optional
        A border shorter than this (mm) between two junctions is collapsed to a
        point: where four spaces meet at a corner, the pixels always leave a
        short border between two of them that the drawing did not have. Default
        the larger of ``tolerance`` and three pixels; 0 keeps every border.
    border : float or "auto"
        Width (mm) of the drawn border lines, or ``"auto"`` (the default): estimated
        from the picture (:func:`estimate_border_px`). It sets the default
        ``min_width``: a region no wider than 1.5 border lines is ink, not a space
        (the ring round an island drawn 4 px thick and more).
    scan : bool
        The picture is a scan or a photograph: sensor noise and JPEG artefacts
        spread each paint over several colours. Fill colours closer than
        :data:`MERGE_RGB` are one, and every pixel within :data:`SNAP_RGB` of a fill
        colour belongs to it (:func:`_fill_lut`). Off by default: on a clean picture
        (an export with terrain patterns) the pattern's colours stay marks.
    progress : callable, optional
        ``progress(stage, fraction)`` after each stage (for a progress bar);
        an exception raised in it stops the trace (a Cancel button).

    Returns
    -------
    TraceResult
        Polygons ordered top to bottom, left to right (by their first pixel).
    """
    from scipy import ndimage

    if not (scale > 0) or not np.isfinite(scale):
        raise UsageError(f"scale must be a positive number of mm per pixel, not {scale!r}")
    tol = 2.0 * scale if tolerance is None else float(tolerance)
    if tol < 0 or not np.isfinite(tol):
        raise UsageError(f"tolerance must be zero or more mm, not {tolerance!r}")
    min_area_px = 25.0 if min_area is None else float(min_area) / scale**2
    min_width_px = MIN_WIDTH_PX if min_width is None else float(min_width) / scale
    if border != "auto":
        if isinstance(border, str) or not (float(border) >= 0) or not np.isfinite(border):
            raise UsageError(f"border must be 'auto' or zero or more mm, not {border!r}")
    report = progress or (lambda stage, frac: None)
    timings: dict[str, float] = {}
    t0 = time.perf_counter()

    def lap(stage: str, frac: float) -> None:
        nonlocal t0
        now = time.perf_counter()
        timings[stage] = round(now - t0, 4)
        t0 = now
        report(stage, frac)

    rgb = load_picture(picture)
    h, w = rgb.shape[:2]
    lap("load", 0.1)

    # 1. fill colours: 5-bit bins holding at least min_colour_share of the pixels
    q = rgb >> 3
    bins = (q[:, :, 0].astype(np.int32) << 10) | (q[:, :, 1].astype(np.int32) << 5) | q[:, :, 2]
    counts = np.bincount(bins.ravel(), minlength=1 << 15)
    fills = np.flatnonzero(counts >= max(1.0, min_colour_share * h * w))
    if scan:
        lut = _fill_lut(fills, counts)
    else:
        lut = np.full(1 << 15, -1, dtype=np.int32)
        lut[fills] = np.arange(len(fills), dtype=np.int32)
    cls = lut[bins]
    del q, bins
    lap("colours", 0.2)

    # 2. regions: 4-connected components per fill colour
    labels = np.zeros((h, w), dtype=np.int32)
    n = 0
    for c in range(len(fills)):
        lab, k = ndimage.label(cls == c)
        if k:
            m = lab > 0
            labels[m] = lab[m] + n
            n += k
    if n == 0:
        raise ImageError("no regions found in the picture", code="trace_failed")
    # small specks first (cheap: a bincount), then the width test on what is left
    area = np.bincount(labels.ravel(), minlength=n + 1)
    big = area >= min_area_px
    big[0] = False
    remap = np.zeros(n + 1, dtype=np.int32)
    remap[big] = np.arange(1, int(big.sum()) + 1, dtype=np.int32)
    labels = remap[labels]
    n = int(big.sum())
    if scan and n > 2:
        # a scan's lines are ragged and JPEG breaks them into pieces: the pieces of
        # one paint, together, are the network (before the width test wears them
        # down to blots where lines meet)
        labels, n = _drop_ink_pieces(labels, n, cls)
    if n:
        labels, n = _drop_thin(labels, n, min_width_px)
    if n > 2:
        labels, n = _drop_border_ink(labels, n)
    if border != "auto":
        border_px = float(border) / scale
    elif scan and n:
        # a scan's ink breaks into blotches that pass for regions: the small ones
        # (under a twentieth of the median region) are measured as ink too
        sizes = np.bincount(labels.ravel(), minlength=n + 1)
        small = sizes < 0.05 * float(np.median(sizes[1:]))
        small[0] = True
        ink = np.where(small[labels], 0, labels)
        # and the scan's lone specks (a few pixels no paint claims) are not lines
        specks, k = ndimage.label(ink == 0)
        tiny = np.bincount(specks.ravel(), minlength=k + 1) < 16
        tiny[0] = False
        border_px = estimate_border_px(np.where(tiny[specks], -1, ink))
    else:
        border_px = estimate_border_px(labels)
    widths = SCAN_BORDER_WIDTHS if scan else BORDER_WIDTHS
    if min_width is None and widths * border_px > min_width_px and n:
        # regions no wider than 1.5 border lines are ink (an island's drawn ring)
        labels, n = _drop_thin(labels, n, widths * border_px)
    del cls
    if n == 0:
        raise ImageError(
            "no region is large enough to be a space (lower --min-area/--min-width?)",
            code="trace_failed",
        )
    lap("regions", 0.45)

    # 3. every other pixel joins its nearest region
    if (labels == 0).any():
        idx = ndimage.distance_transform_edt(
            labels == 0, return_distances=False, return_indices=True
        )
        labels = labels[idx[0], idx[1]]
        del idx
    lap("borders", 0.6)

    # outside: the region with the most pixels on the picture's frame
    outside = 0
    if drop_outside:
        frame = np.concatenate([labels[0], labels[-1], labels[:, 0], labels[:, -1]])
        outside = int(np.bincount(frame, minlength=n + 1)[1:].argmax()) + 1

    # 4. polygons on the pixel grid
    faces = _polygonise(labels)
    lap("polygonise", 0.8)
    # the label of each face: its representative point's pixel
    pts = shapely.point_on_surface(faces)
    px = np.clip(np.floor(shapely.get_x(pts)).astype(np.int64), 0, w - 1)
    py = np.clip(np.floor(shapely.get_y(pts)).astype(np.int64), 0, h - 1)
    face_label = labels[py, px]
    order = np.argsort(face_label, kind="stable")
    by_label: dict[int, list[Any]] = {}
    for i in order:
        by_label.setdefault(int(face_label[i]), []).append(faces[i])
    region_ids = sorted(by_label)
    geoms = [
        by_label[r][0] if len(by_label[r]) == 1 else shapely.union_all(by_label[r])
        for r in region_ids
    ]
    # 5. to mm, simplify as a coverage
    arr = np.array(geoms, dtype=object)
    arr = shapely.transform(arr, lambda c: c * scale + np.asarray(origin))
    if tol > 0:
        arr = shapely.coverage_simplify(arr, tol)
    mb = max(tol, 3.0 * scale) if min_border is None else float(min_border)
    if mb > 0:
        arr = collapse_short_borders(arr, mb)
    lap("simplify", 0.95)

    # mean colour per region
    flat = labels.ravel()
    cnt = np.bincount(flat, minlength=n + 1)[region_ids]
    sums = np.stack(
        [
            np.bincount(flat, weights=rgb[:, :, k].ravel(), minlength=n + 1)[region_ids]
            for k in range(3)
        ],
        axis=1,
    )
    means = (sums / np.maximum(cnt, 1)[:, None]).round().astype(int)
    polys: list[shapely.Polygon] = []
    colours: list[str] = []
    for r, g, mean in zip(region_ids, arr, means):
        if r == outside:
            continue
        g = _valid_polygon(g)
        polys.append(g)
        colours.append("#{:02x}{:02x}{:02x}".format(*(int(v) for v in mean)))
    key = sorted(
        range(len(polys)),
        key=lambda i: (round(polys[i].bounds[1], 3), round(polys[i].bounds[0], 3)),
    )
    polys = [polys[i] for i in key]
    colours = [colours[i] for i in key]
    lap("done", 1.0)
    return TraceResult(polys, colours, w, h, scale, timings, round(border_px, 2))


#: the default thinnest space, in pixels (when the borders are thinner than half of it)
MIN_WIDTH_PX = 4.0
#: with ``border`` known, the default thinnest space is this many border widths
BORDER_WIDTHS = 1.5
#: ... in a scan (``scan=True``), whose ink blots where lines meet
SCAN_BORDER_WIDTHS = 2.0


def _drop_thin(labels: NDArray[np.int32], n: int, width_px: float) -> tuple[NDArray[np.int32], int]:
    """Unlabel the regions thinner than ``width_px``: a region at least that wide
    survives an erosion by half that width."""
    from scipy import ndimage

    r = max(0, int(np.ceil(width_px / 2.0)) - 1)
    core = _inner(labels)
    if r:
        core = ndimage.binary_erosion(core, iterations=r)
    wide = np.bincount(labels[core], minlength=n + 1) > 0
    wide[0] = False
    del core
    remap = np.zeros(n + 1, dtype=np.int32)
    remap[wide] = np.arange(1, int(wide.sum()) + 1, dtype=np.int32)
    return remap[labels], int(wide.sum())


def estimate_border_px(labels: NDArray[np.int32]) -> float:
    """The width in pixels of the drawn border lines: the unlabelled pixels (0) of
    ``labels`` once the fill regions are found, the border ink taken away.

    Two measures of the lines are combined: the distance transform's ridge (its
    median ``m`` says the width is ``2m - 1`` or ``2m``: a line of 3 px and one of 4
    px both have a middle 2 px from either side), and area / length, the length
    being half the line's outline with the pixel staircase corrected (× π/4, the
    mean for lines at every angle) and half a pixel taken off for the junctions; the
    candidate nearest that measure wins. 0 when no pixel is unlabelled (regions that
    abut: an exported picture without outlines).
    """
    from scipy import ndimage

    u = labels == 0
    area = int(np.count_nonzero(u))
    if area == 0:
        return 0.0
    edges = int(np.count_nonzero(u[1:, :] != u[:-1, :])) + int(
        np.count_nonzero(u[:, 1:] != u[:, :-1])
    )
    if edges == 0:  # the whole picture unlabelled
        return 0.0
    by_area = 2.0 * area / (edges * np.pi / 4.0) - 0.5
    dist = ndimage.distance_transform_edt(u)
    ridge = u & (dist >= ndimage.maximum_filter(dist, size=3))
    m = float(np.median(np.round(dist[ridge]))) if ridge.any() else 1.0
    cands = (max(1.0, 2.0 * m - 1.0), 2.0 * m)
    return min(cands, key=lambda c: abs(c - by_area))


#: fill-colour bins closer than this (RGB distance) are one fill colour spread by
#: noise or JPEG artefacts
MERGE_RGB = 20.0
#: a pixel this close (RGB distance) to a fill colour belongs to it; farther, it is ink
SNAP_RGB = 36.0


def _fill_lut(fills: NDArray[np.int64], counts: NDArray[np.int64]) -> NDArray[np.int32]:
    """Colour bin -> fill colour (or -1): the fill bins grouped, most common first, with
    those within :data:`MERGE_RGB` of a group's first bin (a scan's noise spreads one
    paint over several bins); every bin within :data:`SNAP_RGB` of a group's colour (its
    bins' mean, by pixels) joins the nearest, so a noisy or JPEG-speckled pixel stays in
    its region instead of breaking it up (``trace_regions(scan=True)``)."""

    def centre(b: NDArray[np.int64]) -> NDArray[np.float64]:
        return np.stack([(b >> 10) & 31, (b >> 5) & 31, b & 31], axis=-1) * 8.0 + 4.0

    lut = np.full(1 << 15, -1, dtype=np.int32)
    if not len(fills):
        return lut
    order = fills[np.argsort(-counts[fills], kind="stable")]
    cf = centre(order)
    group = np.full(len(order), -1, dtype=np.int64)
    heads: list[int] = []
    for i in range(len(order)):
        if group[i] >= 0:
            continue
        near = (group < 0) & (np.linalg.norm(cf - cf[i], axis=1) <= MERGE_RGB)
        group[near] = len(heads)
        heads.append(i)
    weights = counts[order].astype(np.float64)
    colours = np.stack(
        [
            np.bincount(group, weights=weights * cf[:, k], minlength=len(heads))
            / np.bincount(group, weights=weights, minlength=len(heads))
            for k in range(3)
        ],
        axis=1,
    )
    every = centre(np.arange(1 << 15, dtype=np.int64))
    best = np.full(1 << 15, -1, dtype=np.int32)
    dist = np.full(1 << 15, np.inf)
    for g, col in enumerate(colours):
        d = np.linalg.norm(every - col, axis=1)
        closer = (d < dist) & (d <= SNAP_RGB)
        best[closer] = g
        dist[closer] = d[closer]
    best[order] = group.astype(np.int32)  # a fill bin is its own group's
    return best


def _valid_polygon(g: Any) -> shapely.Polygon:
    """``g`` as one valid polygon: a region pinched at a pixel corner keeps its main
    part; a ring the simplification made cross itself (a thin neck simplified to a
    bow-tie) is repaired (:func:`shapely.make_valid`) and keeps its largest part.

    Raises
    ------
    ImageError
        Nothing valid is left (naming where the region is, in mm).
    """
    if not g.is_valid:
        g = shapely.make_valid(g)
    parts = [p for p in getattr(g, "geoms", [g]) if p.geom_type == "Polygon" and not p.is_empty]
    for p in getattr(g, "geoms", []):
        parts += [q for q in getattr(p, "geoms", []) if q.geom_type == "Polygon"]
    best = max(parts, key=lambda p: p.area, default=None)
    if best is None or not best.is_valid or best.area <= 0:
        c = g.representative_point() if not g.is_empty else None
        where = f" at ({c.x:.1f}, {c.y:.1f}) mm" if c is not None else ""
        raise ImageError(
            f"the region{where} traces to no valid polygon (try a smaller --tolerance)",
            code="trace_failed",
        )
    return best


def collapse_short_borders(polys: NDArray[Any], length: float) -> NDArray[Any]:
    """Collapse coverage edges shorter than ``length`` whose both ends are junctions.

    A junction is a vertex shared by three or more polygons (or by two on the
    coverage's outer edge). Each short junction-to-junction edge is shrunk to
    its midpoint in every polygon that has it, so the coverage stays valid:
    shared vertices move together.

    Notes
    -----
    O(v log v) in the vertices v (``np.unique`` over all coordinates).
    """
    coords = shapely.get_coordinates(polys)
    if len(coords) == 0:
        return polys
    uniq, inverse = np.unique(coords, axis=0, return_inverse=True)
    inverse = inverse.ravel()
    # how many polygons use each vertex (rings repeat their first vertex: count once)
    owner = np.repeat(np.arange(len(polys)), shapely.get_num_coordinates(polys))
    pairs = np.unique(np.stack([inverse, owner], 1), axis=0)
    degree = np.bincount(pairs[:, 0], minlength=len(uniq))
    boundary = shapely.boundary(shapely.coverage_union_all(polys))
    on_edge = shapely.intersects_xy(boundary, uniq[:, 0], uniq[:, 1])
    junction = (degree >= 3) | ((degree >= 2) & on_edge)
    parent = np.arange(len(uniq))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = int(parent[i])
        return i

    start = 0
    merged = False
    for geom in polys:
        for ring in [geom.exterior, *geom.interiors] if geom.geom_type == "Polygon" else []:
            k = len(ring.coords)
            idx = inverse[start : start + k]
            start += k
            seg = np.diff(uniq[idx], axis=0)
            short = np.flatnonzero(np.hypot(seg[:, 0], seg[:, 1]) < length)
            for j in short:
                a, b = int(idx[j]), int(idx[j + 1])
                if junction[a] and junction[b] and a != b:
                    ra, rb = find(a), find(b)
                    if ra != rb:
                        parent[rb] = ra
                        merged = True
        if geom.geom_type != "Polygon":
            start += int(shapely.get_num_coordinates(geom))
    if not merged:
        return polys
    roots = np.array([find(i) for i in range(len(uniq))])
    sums = np.zeros_like(uniq)
    np.add.at(sums, roots, uniq)
    counts = np.bincount(roots, minlength=len(uniq)).astype(float)
    centre = sums / np.maximum(counts, 1.0)[:, None]
    new_coords = centre[roots[inverse]]
    out = shapely.set_coordinates(polys.copy(), new_coords)
    out = shapely.remove_repeated_points(out, 0.0)
    return np.asarray(out)


#: a region this many times longer than wide (area / inscribed radius²) that touches
#: at least half of the other regions is the drawn border network, not a space
INK_ELONGATION = 100.0


def _drop_border_ink(labels: NDArray[np.int32], n: int) -> tuple[NDArray[np.int32], int]:
    """Unlabel the regions that are the drawn borders themselves: thick border lines
    (3 px and more) form one connected region of the ink colour, long and thin
    (area / inscribed radius² above :data:`INK_ELONGATION`) and touching at least half
    of the other regions. Its pixels then join their nearest spaces like the other
    border pixels, so the spaces on either side of a line touch.

    Notes
    -----
    One distance transform of the picture; a dilation per candidate (usually one).
    """
    from scipy import ndimage

    index = np.arange(1, n + 1)
    radius = np.asarray(
        ndimage.maximum(ndimage.distance_transform_edt(_inner(labels)), labels, index)
    )
    area = np.bincount(labels.ravel(), minlength=n + 1)[1:]
    long_thin = area / np.maximum(radius, 1.0) ** 2 > INK_ELONGATION
    ink = []
    for k in np.flatnonzero(long_thin) + 1:
        mask = labels == k
        ring = ndimage.binary_dilation(mask, iterations=3) & ~mask
        touched = np.unique(labels[ring])
        if np.count_nonzero(touched) >= max(2, (n - 1) / 2):
            ink.append(int(k))
    if not ink:
        return labels, n
    keep = np.ones(n + 1, dtype=bool)
    keep[0] = False
    keep[ink] = False
    remap = np.zeros(n + 1, dtype=np.int32)
    remap[keep] = np.arange(1, int(keep.sum()) + 1, dtype=np.int32)
    return remap[labels], int(keep.sum())


#: in a scan, a region whose inscribed radius is under this share of the typical
#: region's (the median by area) may be a piece of the border network
INK_PIECE_RADIUS = 0.2


def _drop_ink_pieces(
    labels: NDArray[np.int32], n: int, cls: NDArray[np.int32]
) -> tuple[NDArray[np.int32], int]:
    """Unlabel a scan's broken border network: per paint (``cls``), the thin regions
    (inscribed radius under :data:`INK_PIECE_RADIUS` of the typical region's) taken
    together, when they touch at least half of the other regions."""
    from scipy import ndimage

    index = np.arange(1, n + 1)
    radius = np.asarray(
        ndimage.maximum(ndimage.distance_transform_edt(_inner(labels)), labels, index)
    )
    flat = labels.ravel()
    first = np.zeros(n + 1, dtype=np.int64)
    first[flat[::-1]] = np.arange(flat.size - 1, -1, -1)  # one pixel of each label
    paint = cls.ravel()[first[1:]]
    # the typical region by area (the many pieces of ink would make a plain median)
    area = np.bincount(flat, minlength=n + 1)[1:]
    order = np.argsort(radius)
    typical = float(radius[order][np.searchsorted(np.cumsum(area[order]), area.sum() / 2)])
    thin = radius < INK_PIECE_RADIUS * typical
    drop = np.zeros(n + 1, dtype=bool)
    for p in np.unique(paint[thin]):
        pieces = np.flatnonzero(thin & (paint == p)) + 1
        if len(pieces) < 2:
            continue  # one piece: _drop_border_ink's case
        mask = np.isin(labels, pieces)
        ring = ndimage.binary_dilation(mask, iterations=3) & ~mask
        touched = np.unique(labels[ring])
        if np.count_nonzero(touched) >= max(2, (n - len(pieces)) / 2):
            drop[pieces] = True
    if not drop.any():
        return labels, n
    keep = ~drop
    keep[0] = False
    remap = np.zeros(n + 1, dtype=np.int32)
    remap[keep] = np.arange(1, int(keep.sum()) + 1, dtype=np.int32)
    return remap[labels], int(keep.sum())


def _inner(labels: NDArray[np.int32]) -> NDArray[np.bool_]:
    """Pixels whose four neighbours carry the same label (and that are labelled)."""
    inner = labels > 0
    inner[1:, :] &= labels[1:, :] == labels[:-1, :]
    inner[:-1, :] &= labels[:-1, :] == labels[1:, :]
    inner[:, 1:] &= labels[:, 1:] == labels[:, :-1]
    inner[:, :-1] &= labels[:, :-1] == labels[:, 1:]
    return inner


def _polygonise(labels: NDArray[np.int32]) -> NDArray[Any]:
    """Faces of the pixel grid between regions of different labels (pixel coordinates).

    Notes
    -----
    Grid edges between differently labelled pixels (and along the frame) are
    merged into maximal straight runs that end wherever another edge meets them,
    so the segments are noded and ``shapely.polygonize`` can build the faces.
    """
    h, w = labels.shape
    pad = np.pad(labels, 1, constant_values=-1)
    # horizontal edge on grid line y (0..h) over column x (0..w-1)
    hedge = pad[:-1, 1:-1] != pad[1:, 1:-1]  # (h+1, w)
    # vertical edge on grid line x (0..w) over row y (0..h-1)
    vedge = pad[1:-1, :-1] != pad[1:-1, 1:]  # (h, w+1)
    # grid node (x, y) is touched by a vertical edge above or below it
    vtouch = np.zeros((h + 1, w + 1), dtype=bool)
    vtouch[:-1, :] |= vedge
    vtouch[1:, :] |= vedge
    htouch = np.zeros((h + 1, w + 1), dtype=bool)
    htouch[:, :-1] |= hedge
    htouch[:, 1:] |= hedge
    segs: list[NDArray[np.float64]] = []
    segs.append(_runs(hedge, vtouch, horizontal=True))
    segs.append(_runs(vedge.T, htouch.T, horizontal=False))
    coords = np.concatenate(segs)
    lines = shapely.linestrings(coords.reshape(-1, 2, 2))
    faces = shapely.get_parts(shapely.polygonize(lines))
    return np.asarray(faces)


def _runs(edge: NDArray[np.bool_], touch: NDArray[np.bool_], *, horizontal: bool) -> NDArray[Any]:
    """Straight runs of edges along each grid line, split at nodes where other edges touch.

    ``edge[line, i]`` is the unit edge from node i to node i+1 on grid ``line``;
    ``touch[line, i]`` says another direction's edge meets node i. Returns an
    array of ``[[x0, y0], [x1, y1]]`` segments.
    """
    n = edge.shape[1]
    # a run starts at edge i if edge i exists and (edge i-1 does not or node i is touched)
    prev = np.zeros_like(edge)
    prev[:, 1:] = edge[:, :-1]
    start = edge & (~prev | touch[:, :n])
    nxt = np.zeros_like(edge)
    nxt[:, :-1] = edge[:, 1:]
    end = edge & (~nxt | touch[:, 1 : n + 1])
    sl, si = np.nonzero(start)
    ei = np.nonzero(end)[1]
    # starts and ends pair up in order along each line (row-major nonzero order)
    a = si.astype(np.float64)
    b = ei.astype(np.float64) + 1.0
    line = sl.astype(np.float64)
    if horizontal:
        return np.stack([np.stack([a, line], 1), np.stack([b, line], 1)], 1)
    return np.stack([np.stack([line, a], 1), np.stack([line, b], 1)], 1)


def terrain_of_colour(colour: str, max_distance: float = 40.0) -> str:
    """The space terrain whose render fill is nearest to ``#rrggbb`` (RGB distance), or
    ``open`` when none is within ``max_distance``."""
    from .model import prop_table
    from .render import TERRAIN

    rgb = np.array([int(colour[k : k + 2], 16) for k in (1, 3, 5)], dtype=float)
    best, dist = "open", max_distance
    for terrain in prop_table()["space"]["terrain"]["values"]:
        fill = TERRAIN.get(terrain, TERRAIN["open"])[0]
        ref = np.array([int(fill[k : k + 2], 16) for k in (1, 3, 5)], dtype=float)
        d = float(np.hypot.reduce(rgb - ref))
        if d < dist:
            best, dist = terrain, d
    return str(best)


def trace_board(
    picture: str | os.PathLike[str] | bytes | Any,
    *,
    scale: float,
    tolerance: float | None = None,
    name: str = "traced map",
    progress: Progress | None = None,
    **kw: Any,
) -> tuple[Board, TraceResult]:
    """A new board whose free ``space`` features are the regions traced from ``picture``.

    Spaces are ``s1``, ``s2``, … (top to bottom, left to right); each gets the
    terrain whose fill colour in :data:`referee.render.TERRAIN` is nearest to the
    region's mean colour (:func:`terrain_of_colour`), ``open`` when none is close.
    The mean colours are in :attr:`TraceResult.colours`.
    """
    res = trace_regions(picture, scale=scale, tolerance=tolerance, progress=progress, **kw)
    feats: list[Feature] = []
    for i, (poly, colour) in enumerate(zip(res.polygons, res.colours), 1):
        props = {"terrain": terrain_of_colour(colour)}
        feats.append(Feature(f"s{i}", "space", shapely.normalize(poly), props))
    board = Board(
        meta={
            "name": name,
            "rules": None,
            "width": round(res.width_mm, 3),
            "height": round(res.height_mm, 3),
            "description": f"spaces traced from a picture at {scale:g} mm per pixel",
        },
        features=feats,
    )
    return board, res


@dataclass
class TraceScore:
    """How well traced spaces reproduce known ones (see :func:`score_trace`)."""

    spaces: int  #: spaces in the original
    traced: int  #: spaces traced
    matched: int  #: originals whose best traced match has IoU ≥ the threshold
    iou_min: float
    iou_median: float
    #: touch pairs among matched spaces: in both, only in the original, only traced
    adjacency_same: int
    adjacency_lost: list[tuple[str, str]]
    adjacency_extra: list[tuple[str, str]]
    #: original borders shorter than the score's ``resolution`` that the trace lost
    adjacency_unresolved: int = 0

    @property
    def matched_share(self) -> float:
        return self.matched / self.spaces if self.spaces else 1.0

    @property
    def same_adjacency(self) -> bool:
        return not self.adjacency_lost and not self.adjacency_extra

    def to_json(self) -> dict[str, Any]:
        return {
            "spaces": self.spaces,
            "traced": self.traced,
            "matched": self.matched,
            "matched_share": round(self.matched_share, 4),
            "iou_min": round(self.iou_min, 4),
            "iou_median": round(self.iou_median, 4),
            "adjacency_same": self.adjacency_same,
            "adjacency_lost": len(self.adjacency_lost),
            "adjacency_extra": len(self.adjacency_extra),
            "adjacency_unresolved": self.adjacency_unresolved,
        }


def score_trace(
    original: Board, traced: Board, *, iou: float = 0.95, resolution: float = 0.0
) -> TraceScore:
    """Match each original space to the traced space it overlaps best; compare adjacency.

    A space is *matched* when intersection-over-union with its best traced
    space is at least ``iou`` (and no other original claims that traced space).
    Adjacency is the compiler's ``touch`` relation (a shared border, not a corner),
    compared for pairs of matched spaces. An original border shorter than
    ``resolution`` mm (e.g. the trace's ``min_border``: less than a picture can
    show) is not counted as lost; :attr:`TraceScore.adjacency_unresolved` counts them.

    Notes
    -----
    O(n log n): candidates come from an STRtree query, not all pairs.
    """
    from .compiler import compile_board

    orig = [(f.id, f.geometry) for f in original.features if f.kind == "space"]
    new = [(f.id, f.geometry) for f in traced.features if f.kind == "space"]
    tree = shapely.STRtree([g for _, g in new])
    best: dict[str, tuple[float, str]] = {}
    for oid, g in orig:
        cand = tree.query(g, predicate="intersects")
        scores = [
            (
                float(shapely.area(shapely.intersection(g, new[i][1])))
                / float(shapely.area(shapely.union(g, new[i][1]))),
                new[i][0],
            )
            for i in cand
        ]
        best[oid] = max(scores, default=(0.0, ""))
    claimed: dict[str, str] = {}
    for oid, (v, tid) in sorted(best.items(), key=lambda kv: -kv[1][0]):
        if v >= iou and tid not in claimed.values():
            claimed[oid] = tid
    vals = np.array([v for v, _ in best.values()]) if best else np.zeros(1)

    def touches(board: Board) -> set[frozenset[str]]:
        g = compile_board(board).graph
        return {
            frozenset((u, v))
            for u, v, d in g.edges(data=True)
            if d.get("relation") == "touch" and u != v
        }

    t_orig, t_new = touches(original), touches(traced)
    ids = sorted(claimed)
    same, unresolved, lost, extra = 0, 0, [], []
    for i, a in enumerate(ids):
        for b in ids[i + 1 :]:
            o = frozenset((a, b)) in t_orig
            n = frozenset((claimed[a], claimed[b])) in t_new
            if o and n:
                same += 1
            elif o:
                shared = shapely.intersection(
                    original.feature(a).geometry, original.feature(b).geometry
                ).length
                if shared < resolution:
                    unresolved += 1
                else:
                    lost.append((a, b))
            elif n:
                extra.append((a, b))
    return TraceScore(
        len(orig),
        len(new),
        len(claimed),
        float(vals.min()),
        float(np.median(vals)),
        same,
        lost,
        extra,
        unresolved,
    )
