"""The editor with 200 pictures of 1024 × 1024 (issue 17): open and first paint.

Builds the project of ``bench/images.py`` (200 tiles, each with its own painted
1024 × 1024 JPEG face), then, each case in a fresh child process (time from
opening the project to the end of the first paint of a 1400 × 900 main window,
and peak resident memory above the imports):

- **editor (reduced decodes)**: what the editor does — each picture is decoded
  at the power-of-two size it covers on screen (:mod:`editor.pictures`), and only
  the pictures that are painted;
- **editor, zoomed in**: then zoomed in 8× on one corner and painted again: the
  few pictures on screen are decoded at their larger size, the others not again;
- **baseline: full-size decodes**: the same editor with every painted picture
  decoded at its full 1024 × 1024 (``level_for`` patched to the full size) — what
  a canvas holding one full pixmap per picture costs.

The last line is one JSON object with the figures.

Run: ``python bench/editor_pictures.py [--quick]`` (``--quick``: 50 pictures).
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent

CASE = """
from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QApplication
import editor.pictures
{patch}
from editor.mainwindow import MainWindow
app = QApplication([])
t0 = time.perf_counter()
win = MainWindow(packs={{}}, settings=QSettings("{ini}", QSettings.Format.IniFormat))
win.resize(1400, 900)
win.show()
assert win.open_path("{project}", offer_recovery=False)
win.view.fit()
win.view.viewport().grab()
result["first_paint_s"] = time.perf_counter() - t0
cache = win.scene.pictures
result["decodes"] = cache.decodes
result["max_level"] = max((lvl for _i, lvl in cache.levels()), default=0)
result["pixmap_mib"] = sum(
    cache._cache[k].width() * cache._cache[k].height() * 4 for k in cache.levels()
) / 2**20
{zoom}
win.doc.undo.setClean()
win.close()
"""

ZOOM = """
from PySide6.QtCore import QPointF
before = cache.decodes
win.view.set_zoom(win.view.zoom * 8, QPointF(win.view.mapFromScene(QPointF(40, 40))))
t1 = time.perf_counter()
win.view.viewport().grab()
result["zoom_paint_s"] = time.perf_counter() - t1
result["zoom_decodes"] = cache.decodes - before
result["zoom_visible"] = sum(1 for it in win.view.items(win.view.viewport().rect()) if getattr(it, 'key', '').startswith('p:'))
result["zoom_max_level"] = max((lvl for _i, lvl in cache.levels()), default=0)
"""

FULL = "editor.pictures.level_for = lambda on_screen, full_side: full_side"


def load_images_bench() -> Any:
    spec = importlib.util.spec_from_file_location("bench_images", ROOT / "bench" / "images.py")
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--quick", action="store_true", help="50 pictures instead of 200")
    args = ap.parse_args()
    n = 50 if args.quick else 200
    os.environ["QT_QPA_PLATFORM"] = "offscreen"
    images = load_images_bench()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        project, total = images.build(folder, n, "JPEG")
        ini = folder / "settings.ini"
        cases = {
            "editor (reduced decodes)": CASE.format(patch="", ini=ini, project=project, zoom=ZOOM),
            "baseline: full-size decodes": CASE.format(
                patch=FULL, ini=ini, project=project, zoom=""
            ),
        }
        res = {name: images.child(code) for name, code in cases.items()}
    ours, base = res["editor (reduced decodes)"], res["baseline: full-size decodes"]
    print(f"{n} pictures of 1024 × 1024 (JPEG, {total / 2**20:.1f} MiB of files)")
    print(
        f"{'case':32} {'open+paint s':>12} {'decodes':>8} {'max px':>7} {'pixmaps MiB':>12} {'peak +MiB':>10}"
    )
    for name, r in res.items():
        print(
            f"{name:32} {r['first_paint_s']:12.2f} {r['decodes']:8.0f} {r['max_level']:7.0f} "
            f"{r['pixmap_mib']:12.1f} {r['extra_mib']:10.1f}"
        )
    print(
        f"zoomed in 8× on a corner ({ours['zoom_visible']:.0f} tiles on screen): "
        f"{ours['zoom_decodes']:.0f} more decodes "
        f"(at most {ours['zoom_max_level']:.0f} px), repaint {ours['zoom_paint_s']:.2f} s"
    )
    figures = {
        "pictures": n,
        "first_paint_s": round(ours["first_paint_s"], 3),
        "baseline_first_paint_s": round(base["first_paint_s"], 3),
        "speedup": round(base["first_paint_s"] / max(ours["first_paint_s"], 1e-9), 2),
        "decodes": int(ours["decodes"]),
        "max_level_px": int(ours["max_level"]),
        "pixmap_mib": round(ours["pixmap_mib"], 1),
        "baseline_pixmap_mib": round(base["pixmap_mib"], 1),
        "peak_extra_mib": round(ours["extra_mib"], 1),
        "baseline_peak_extra_mib": round(base["extra_mib"], 1),
        "zoom_decodes": int(ours["zoom_decodes"]),
        "zoom_max_level_px": int(ours["zoom_max_level"]),
    }
    print(json.dumps(figures))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
