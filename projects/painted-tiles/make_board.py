"""Build the painted-tiles samples: a modular board with raster tile art, and a traced map.

Run from the repository root::

    python projects/painted-tiles/make_board.py

Everything is made here, reproducibly, from seeded noise (numpy + Pillow); no
third-party art:

1. **The pack** ``assets/painted-tiles/``: four square tiles 100 mm across — a
   road *corner*, a *straight* road, a *lake* and a *meadow* — each with a
   painted face (256 × 256 JPEG: fractal-noise grass, water ripples, a dirt road
   painted along the tile's own path, so the art lines up with the graph and
   turns with the tile), two traveller tokens, and a six-card deck with painted
   faces and one back. The pictures live in ``assets/painted-tiles/images/``.
2. **The board** ``painted-tiles.bwproj`` (+ JSON export and its ``.images/``
   folder): a 4 × 4 grid, the road running round the edge (corners and straights
   at their turns), lakes and meadows inside, a traveller on each of two points, a
   title and a painted compass rose (a free ``art`` feature with a picture) in the
   frame.
3. **The traced map** ``traced-map.bwproj``: a 40-space Voronoi map drawn with flat
   terrain fills (``referee render --flat --no-labels --layers ground,regions``),
   rasterised, and traced back with :func:`referee.trace.trace_board` — the
   ``referee trace`` workflow — with the picture kept as the board's background.
"""

from __future__ import annotations

import io
import shutil
import sys
from pathlib import Path

import numpy as np
from PIL import Image, ImageDraw, ImageFilter
from shapely.geometry import LineString, Point, box

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
sys.path.insert(0, str(ROOT))

from referee.assets import AssetPack, load_pack  # noqa: E402
from referee.export.picture import svg_to_png  # noqa: E402
from referee.generators import voronoi_map  # noqa: E402
from referee.model import Background, Board, Feature, PieceOnBoard, Placement, TileAsset  # noqa: E402
from referee.render import render_svg  # noqa: E402
from referee.store import export_json, images_dir, save_project  # noqa: E402
from referee.trace import trace_board  # noqa: E402

PACK = ROOT / "assets" / "painted-tiles"
SIDE = 100.0  # tile size, mm
PX = 256  # face size, pixels
GRID = 4
FRAME = 40.0  # a frame round the tiles, as on the Ringgeister board (the key sits in it)


# ---------------------------------------------------------------------- textures
def fractal_noise(seed: int, size: int = PX, octaves: int = 5) -> np.ndarray:
    """Seeded value noise in 0..1: random grids upsampled bicubically and summed."""
    rng = np.random.default_rng(seed)
    out = np.zeros((size, size))
    amp, total = 1.0, 0.0
    for o in range(octaves):
        cells = 4 * 2**o
        grid = rng.random((cells, cells))
        im = Image.fromarray((grid * 255).astype(np.uint8)).resize(
            (size, size), Image.Resampling.BICUBIC
        )
        out += amp * np.asarray(im, dtype=float) / 255.0
        total += amp
        amp *= 0.5
    return out / total


def colourise(
    noise: np.ndarray, low: tuple[int, int, int], high: tuple[int, int, int]
) -> Image.Image:
    t = noise[:, :, None]
    rgb = np.asarray(low, float) * (1 - t) + np.asarray(high, float) * t
    return Image.fromarray(np.clip(rgb, 0, 255).astype(np.uint8), "RGB")


def grass(seed: int) -> Image.Image:
    return colourise(fractal_noise(seed), (58, 98, 40), (150, 190, 90))


def water(seed: int) -> Image.Image:
    n = fractal_noise(seed)
    y = np.arange(PX)[:, None] / PX
    ripples = 0.5 + 0.5 * np.sin(2 * np.pi * (6 * y + 1.5 * n))
    return colourise(0.6 * n + 0.4 * ripples, (30, 80, 150), (120, 180, 225))


def paint_road(im: Image.Image, points_mm: list[tuple[float, float]], seed: int) -> Image.Image:
    """A dirt road along a tile-frame polyline (mm, centre at 0,0) on a face picture."""
    scale = PX / SIDE
    pts = [((x + SIDE / 2) * scale, (y + SIDE / 2) * scale) for x, y in points_mm]
    mask = Image.new("L", (PX, PX), 0)
    ImageDraw.Draw(mask).line(pts, fill=255, width=int(14 * scale), joint="curve")
    for x, y in pts:
        r = 7 * scale
        ImageDraw.Draw(mask).ellipse((x - r, y - r, x + r, y + r), fill=255)
    mask = mask.filter(ImageFilter.GaussianBlur(2))
    dirt = colourise(fractal_noise(seed + 100), (120, 90, 55), (190, 160, 110))
    return Image.composite(dirt, im, mask)


def shore(lake: Image.Image, land: Image.Image, seed: int) -> Image.Image:
    """A lake in the middle of a meadow, with a noisy round shore."""
    n = fractal_noise(seed)
    yy, xx = np.mgrid[0:PX, 0:PX] / PX - 0.5
    r = np.hypot(xx, yy) + 0.12 * (n - 0.5)
    mask = Image.fromarray(((r < 0.34) * 255).astype(np.uint8)).filter(
        ImageFilter.GaussianBlur(1.5)
    )
    return Image.composite(lake, land, mask)


def token(colour: tuple[int, int, int], seed: int) -> Image.Image:
    n = fractal_noise(seed, 128, 4)
    base = colourise(n, tuple(int(c * 0.55) for c in colour), colour)  # type: ignore[arg-type]
    d = ImageDraw.Draw(base)
    d.ellipse((34, 34, 94, 94), outline=(250, 245, 230), width=6)
    return base


def card_face(i: int) -> Image.Image:
    im = colourise(fractal_noise(300 + i, 256), (230, 220, 190), (250, 245, 230))
    im = im.resize((180, 256))
    d = ImageDraw.Draw(im)
    d.rectangle((8, 8, 171, 247), outline=(90, 60, 30), width=4)
    for k in range(i + 1):  # pips: the card's value
        cx, cy = 50 + 40 * (k % 3), 70 + 60 * (k // 3)
        d.ellipse((cx - 14, cy - 14, cx + 14, cy + 14), fill=(150, 40, 30))
    return im


def card_back() -> Image.Image:
    im = colourise(fractal_noise(400, 256), (40, 40, 90), (90, 90, 170)).resize((180, 256))
    d = ImageDraw.Draw(im)
    for k in range(0, 256, 16):
        d.line((0, k, 180, k + 60), fill=(200, 180, 90), width=2)
    d.rectangle((8, 8, 171, 247), outline=(200, 180, 90), width=4)
    return im


def compass() -> Image.Image:
    """A compass rose on parchment, for a free ``art`` feature in the frame."""
    im = colourise(fractal_noise(500, 128, 4), (200, 180, 140), (240, 225, 190))
    d = ImageDraw.Draw(im)
    c = 64
    d.ellipse((14, 14, 114, 114), outline=(90, 60, 30), width=3)
    d.polygon([(c, 8), (c + 10, c), (c, 120), (c - 10, c)], fill=(120, 30, 20))
    d.polygon([(8, c), (c, c - 10), (120, c), (c, c + 10)], fill=(60, 50, 40))
    return im


def jpeg(im: Image.Image) -> bytes:
    buf = io.BytesIO()
    im.save(buf, "JPEG", quality=85, optimize=True)
    return buf.getvalue()


# ---------------------------------------------------------------------- the pack
def road_tile(
    tid: str, name: str, ends: list[tuple[float, float]], face: str, magic: bool = False
) -> TileAsset:
    """A tile with a point in the middle and a path from it to each port in ``ends``.

    The points of the corner tiles are magic points (where the road turns).
    """
    feats = [Feature("c", "point", Point(0, 0), {"colour": "grey", "magic": magic})]
    for k, (x, y) in enumerate(ends, 1):
        side = {(0.0, -50.0): "N", (50.0, 0.0): "E", (0.0, 50.0): "S", (-50.0, 0.0): "W"}[(x, y)]
        feats.append(Feature(f"port{side}", "port", Point(x, y), {"side": side}))
        feats.append(Feature(f"l{k}", "path", LineString([(x, y), (0, 0)]), {"medium": "land"}))
    return TileAsset(
        f"painted-tiles/{tid}", name, {"shape": "square", "size": SIDE}, feats, True, {}, face
    )


def build_pack() -> AssetPack:
    if PACK.exists():
        shutil.rmtree(PACK)
    (PACK / "images").mkdir(parents=True)
    pack = AssetPack(
        "painted-tiles",
        "Painted tiles",
        PACK,
        description="Square road tiles with procedurally painted faces (made by "
        "projects/painted-tiles/make_board.py), two traveller tokens and a painted deck.",
    )
    pack.images.sources.clear()

    def add(im: Image.Image, name: str) -> str:
        info = pack.images.add(jpeg(im), name)
        pack.images.write_folder(PACK / "images", [info.id])
        return info.id

    corner_pts = [(0.0, 50.0), (0.0, 0.0), (50.0, 0.0)]
    straight_pts = [(-50.0, 0.0), (0.0, 0.0), (50.0, 0.0)]
    faces = {
        "corner": add(paint_road(grass(1), corner_pts, 1), "corner.jpg"),
        "straight": add(paint_road(grass(2), straight_pts, 2), "straight.jpg"),
        "lake": add(shore(water(3), grass(4), 5), "lake.jpg"),
        "meadow": add(grass(6), "meadow.jpg"),
    }
    tiles = [
        road_tile("corner", "Road corner", [(0.0, 50.0), (50.0, 0.0)], faces["corner"], True),
        road_tile("straight", "Straight road", [(-50.0, 0.0), (50.0, 0.0)], faces["straight"]),
        TileAsset(
            "painted-tiles/lake",
            "Lake",
            {"shape": "square", "size": SIDE},
            [],
            True,
            {},
            faces["lake"],
        ),
        TileAsset(
            "painted-tiles/meadow",
            "Meadow",
            {"shape": "square", "size": SIDE},
            [],
            True,
            {},
            faces["meadow"],
        ),
    ]
    for t in tiles:
        pack.save_tile(t)
    for colour, rgb, seed in (("red", (200, 50, 40), 10), ("blue", (40, 80, 200), 11)):
        pack.piece_types[f"painted-tiles/traveller-{colour}"] = {
            "name": f"{colour.title()} traveller",
            "colour": colour,
            "size": "medium",
            "token": add(token(rgb, seed), f"traveller-{colour}.jpg"),
        }
    pack.decks["painted-tiles/cards"] = {
        "name": "Painted cards",
        "back": add(card_back(), "card-back.jpg"),
        "cards": [
            {"id": f"c{i + 1}", "value": i + 1, "face": add(card_face(i), f"card-{i + 1}.jpg")}
            for i in range(6)
        ],
    }
    pack.save_manifest()
    return load_pack(PACK)


# ---------------------------------------------------------------------- the boards
def ring_layout() -> list[tuple[int, int, str, int]]:
    """(row, col, tile, turns) for the 4 × 4 grid: the road round the edge."""
    cells = []
    last = GRID - 1
    for r in range(GRID):
        for c in range(GRID):
            edge = r in (0, last) or c in (0, last)
            if (r, c) == (0, 0):
                cells.append((r, c, "corner", 0))
            elif (r, c) == (0, last):
                cells.append((r, c, "corner", 1))
            elif (r, c) == (last, last):
                cells.append((r, c, "corner", 2))
            elif (r, c) == (last, 0):
                cells.append((r, c, "corner", 3))
            elif edge:
                cells.append((r, c, "straight", 0 if r in (0, last) else 1))
            else:
                cells.append((r, c, "lake" if (r + c) % 2 else "meadow", (r * 3 + c) % 4))
    return cells


def build_board(pack: AssetPack) -> Board:
    board = Board(
        meta={
            "name": "Painted tiles",
            "rules": None,
            "width": GRID * SIDE + 2 * FRAME,
            "height": GRID * SIDE + 2 * FRAME,
            "description": "A modular board whose tiles carry painted raster faces; "
            "the road runs round the edge.",
        }
    )
    for r, c, tile, turns in ring_layout():
        board.placements.append(
            Placement(
                f"r{r}c{c}",
                f"painted-tiles/{tile}",
                FRAME + SIDE / 2 + c * SIDE,
                FRAME + SIDE / 2 + r * SIDE,
                turns,
            )
        )
    pack.embed_into(board)
    # free-standing features in the frame: the title, and a painted compass rose
    side = GRID * SIDE + 2 * FRAME
    board.features.append(
        Feature(
            "title", "label", Point(side / 2, FRAME / 2), {"text": "PAINTED TILES", "size": 9.0}
        )
    )
    rose = board.images.add(jpeg(compass()), "compass.jpg")
    board.features.append(
        Feature(
            "compass",
            "art",
            box(side - FRAME + 4, side - FRAME + 4, side - 4, side - 4),
            {"image": rose.id},
        )
    )
    board.pieces = [
        PieceOnBoard("red", "painted-tiles/traveller-red", "r0c0/c"),
        PieceOnBoard("blue", "painted-tiles/traveller-blue", "r3c3/c"),
    ]
    board.validate()
    return board


def build_traced() -> Board:
    """The trace workflow on a picture rendered from a known map."""
    known = voronoi_map(40, seed=7, rivers=0, roads=0)
    svg = render_svg(
        known, pieces=False, labels=False, patterns=False, layers=("ground", "regions")
    )
    width_px = round(known.meta["width"] * 4)  # 4 px per mm
    png = svg_to_png(svg, width_px)
    scale = known.meta["width"] / width_px
    board, res = trace_board(png, scale=scale, name="Traced map")
    board.meta["description"] = (
        "Spaces traced (referee trace) from a flat rendering of a 40-space Voronoi map; "
        "the picture is the background."
    )
    info = board.images.add(png, "voronoi-40.png")
    board.background = Background(info.id, scale=scale, opacity=0.6, locked=True)
    print(f"traced {len(res.polygons)} spaces from {res.width_px}x{res.height_px} px")
    return board


def write(board: Board, stem: str) -> None:
    out = HERE / f"{stem}.bwproj"
    save_project(board, out)
    folder = images_dir(HERE / f"{stem}.json")
    if folder.exists():
        shutil.rmtree(folder)
    export_json(board, HERE / f"{stem}.json")
    print(f"wrote {out} ({out.stat().st_size:,} bytes, {len(board.images)} images)")


def main() -> int:
    pack = build_pack()
    write(build_board(pack), "painted-tiles")
    write(build_traced(), "traced-map")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
