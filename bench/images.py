"""Pictures at scale (issue 17): 200 images of 1024 × 1024 in one project.

Builds a board of 200 square tiles (50 mm, a 20 × 10 grid), each with its own
procedurally painted 1024 × 1024 face (JPEG, as scans and paintings usually are;
a second run uses PNG), saves it as a ``.bwproj``, then measures, each case in a
fresh child process (time, and peak resident memory above a bare
``import referee``: the peak-RSS mark is reset after the imports):

- **open + thumbnails**: load the project and make a 128 px thumbnail of every
  picture (what an editor needs for its first paint of the palette and a
  zoomed-out canvas) with :meth:`ImageStore.thumbnail` — JPEG decodes at 1/8
  scale, one picture at a time;
- **open + full decode, kept**: load and decode every picture at full size,
  keeping them (what an editor holding one full pixmap per picture does);
- **open + full decode, one at a time**: the same decoding work, but dropping each
  picture at once (the decode cost without the memory);
- the ``.bwproj`` size against the picture files' total size (raw BLOBs: no base64);
- ``referee render --png`` of the board at 96 dpi: pictures embedded reduced to
  the PNG's resolution (what the CLI does) against embedding them at full size;
- tracing the rendered Riddle map (``bench/trace.py`` has the full comparison).

The last line is one JSON object with the figures.

Run: ``python bench/images.py [--quick]`` (``--quick``: 50 pictures).
"""

from __future__ import annotations

import argparse
import io
import json
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path

import numpy as np
from PIL import Image

ROOT = Path(__file__).resolve().parent.parent


def texture(seed: int, size: int = 1024) -> Image.Image:
    """Smooth fractal noise in two colours (a painted-looking 1024² picture)."""
    rng = np.random.default_rng(seed)
    acc = np.zeros((size, size))
    amp = 1.0
    for o in range(6):
        cells = 4 * 2**o
        grid = (rng.random((cells, cells)) * 255).astype(np.uint8)
        acc += amp * np.asarray(
            Image.fromarray(grid).resize((size, size), Image.Resampling.BILINEAR)
        )
        amp *= 0.55
    t = (acc - acc.min()) / (np.ptp(acc) or 1.0)
    lo, hi = rng.integers(0, 255, 3), rng.integers(0, 255, 3)
    rgb = lo * (1 - t[:, :, None]) + hi * t[:, :, None]
    return Image.fromarray(rgb.astype(np.uint8), "RGB")


def build(folder: Path, n: int, fmt: str) -> tuple[Path, int]:
    """The n-picture project; returns its path and the picture files' total bytes."""
    from referee.model import Board, Placement, TileAsset
    from referee.store import save_project

    board = Board(
        meta={"name": f"{n} pictures", "width": 20 * 50.0, "height": 10 * 50.0 * (n / 200)}
    )
    total = 0
    for i in range(n):
        buf = io.BytesIO()
        texture(i).save(buf, fmt, **({"quality": 90} if fmt == "JPEG" else {}))
        data = buf.getvalue()
        total += len(data)
        info = board.images.add(data, f"face-{i:03}.{fmt.lower()}")
        key = f"bench/t{i:03}"
        board.tiles[key] = TileAsset(
            key, f"tile {i}", {"shape": "square", "size": 50.0}, [], True, {}, info.id
        )
        board.placements.append(Placement(f"p{i:03}", key, 25 + 50 * (i % 20), 25 + 50 * (i // 20)))
    out = folder / f"pictures-{fmt.lower()}.bwproj"
    save_project(board, out)
    return out, total


def child(code: str) -> dict[str, float]:
    """Run ``code`` in a fresh interpreter; it sets ``result``; returns seconds and peak RSS."""
    script = (
        textwrap.dedent(
            """
        import json, resource, time
        import referee.store, referee.images, referee.render
        from referee.render.png import svg_to_png

        def status(key):
            for line in open("/proc/self/status"):
                if line.startswith(key + ":"):
                    return int(line.split()[1]) / 1024  # kB -> MiB
            return 0.0

        # reset the peak-RSS mark after the imports (Linux: clear_refs 5)
        with open("/proc/self/clear_refs", "w") as fh:
            fh.write("5")
        rss0 = status("VmRSS")
        t0 = time.perf_counter()
        result = {}
        """
        )
        + textwrap.dedent(code)
        + textwrap.dedent(
            """
        result["seconds"] = time.perf_counter() - t0
        result["extra_mib"] = status("VmHWM") - rss0
        print(json.dumps(result))
        """
        )
    )
    out = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, cwd=ROOT, check=True
    )
    return json.loads(out.stdout.strip().splitlines()[-1])  # type: ignore[no-any-return]


def measure(project: Path) -> dict[str, dict[str, float]]:
    p = str(project)
    cases = {
        "open + thumbnails 128px": f"""
            b = referee.store.load_project({p!r})
            thumbs = [b.images.thumbnail(i.id, 128) for i in b.images]
        """,
        "open + full decode, kept": f"""
            b = referee.store.load_project({p!r})
            full = [b.images.open(i.id) for i in b.images]
        """,
        "open + full decode, one at a time": f"""
            b = referee.store.load_project({p!r})
            for i in b.images:
                b.images.open(i.id).size
        """,
        "render --png, pictures reduced": f"""
            b = referee.store.load_project({p!r})
            svg = referee.render.render_svg(b, image_px_per_mm=96 / 25.4)
            png = svg_to_png(svg, round(b.meta["width"] / 25.4 * 96))
            result["png_bytes"] = len(png)
            result["svg_mib"] = len(svg) / 2**20
        """,
        "render --png, pictures full size": f"""
            b = referee.store.load_project({p!r})
            svg = referee.render.render_svg(b)
            png = svg_to_png(svg, round(b.meta["width"] / 25.4 * 96))
            result["png_bytes"] = len(png)
            result["svg_mib"] = len(svg) / 2**20
        """,
    }
    rows = {}
    for name, code in cases.items():
        # t0 is taken after the imports: seconds exclude interpreter start-up
        r = child(code)
        rows[name] = {k: round(v, 3) for k, v in r.items()}
    return rows


def trace_riddle() -> dict[str, float]:
    from referee.render import render_svg
    from referee.render.png import svg_to_png
    from referee.store import load_project
    from referee.trace import score_trace, trace_board

    board = load_project(ROOT / "projects" / "riddle-sample")
    svg = render_svg(
        board, pieces=False, labels=False, patterns=False, layers=("ground", "regions")
    )
    wpx = round(float(board.meta["width"]) / 25.4 * 96)
    png = svg_to_png(svg, wpx)
    t = time.perf_counter()
    traced, res = trace_board(png, scale=float(board.meta["width"]) / wpx)
    secs = time.perf_counter() - t
    score = score_trace(board, traced, resolution=3 * res.scale)
    return {
        "pixels": res.width_px * res.height_px,
        "seconds": round(secs, 3),
        "spaces": score.spaces,
        "matched_share": round(score.matched_share, 4),
        "iou_min": round(score.iou_min, 4),
    }


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="50 pictures, JPEG only")
    args = ap.parse_args()
    n = 50 if args.quick else 200
    figures: dict[str, object] = {"benchmark": "images", "pictures": n, "side_px": 1024}
    with tempfile.TemporaryDirectory() as tmp:
        for fmt in ("JPEG",) if args.quick else ("JPEG", "PNG"):
            t = time.perf_counter()
            project, total = build(Path(tmp), n, fmt)
            built = time.perf_counter() - t
            size = project.stat().st_size
            rows = measure(project)
            print(f"\n{n} pictures of 1024x1024 {fmt} (built in {built:.1f} s)")
            print(
                f"  picture files {total / 2**20:8.1f} MiB   .bwproj {size / 2**20:8.1f} MiB"
                f"   ratio {size / total:.3f}"
            )
            print(f"  {'case':36} {'seconds':>8} {'peak MiB':>9}")
            for name, r in rows.items():
                print(f"  {name:36} {r['seconds']:>8.2f} {r['extra_mib']:>9.1f}")
            thumbs, kept = rows["open + thumbnails 128px"], rows["open + full decode, kept"]
            once = rows["open + full decode, one at a time"]
            red, full = (
                rows["render --png, pictures reduced"],
                rows["render --png, pictures full size"],
            )
            print(
                f"  thumbnails vs full decode: {once['seconds'] / thumbs['seconds']:.1f}x faster, "
                f"{kept['extra_mib'] / max(thumbs['extra_mib'], 1):.1f}x less memory than keeping all"
            )
            print(
                f"  render --png reduced vs full-size pictures: "
                f"{full['seconds'] / red['seconds']:.1f}x faster, "
                f"{full['extra_mib'] / max(red['extra_mib'], 1):.1f}x less memory"
            )
            figures[fmt.lower()] = {
                "picture_files_bytes": total,
                "bwproj_bytes": size,
                "bwproj_over_files": round(size / total, 4),
                "cases": rows,
            }
    tr = trace_riddle()
    print(
        f"\ntrace of the rendered Riddle map ({tr['pixels']:,} px): {tr['seconds']:.2f} s, "
        f"{tr['matched_share']:.1%} of {tr['spaces']} spaces matched (IoU min {tr['iou_min']})"
    )
    figures["trace_riddle"] = tr
    print(json.dumps(figures))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
