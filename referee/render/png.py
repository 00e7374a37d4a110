"""The rendered SVG as PNG: rasterised by `resvg <https://github.com/linebender/resvg>`_
(``referee render --png``, ``referee export --to png``, heat maps).

PNG comes from resvg through the ``resvg-py`` wheel: a complete SVG renderer in one
self-contained binary wheel, no system libraries, no display and no Qt — so
``referee`` stays headless. (We first rasterised with Qt's ``QSvgRenderer`` in a
child process; that made the headless referee depend on Qt at run time, which the
architecture rules out.)
"""

from __future__ import annotations

import re
from pathlib import Path

from ..errors import BoardwrightError, UsageError
from ..safeio import atomic_write

_SIZE = re.compile(r"(<svg\b[^>]*?)\s(width|height)\s*=\s*[\"'][^\"']*[\"']")


class RenderError(BoardwrightError):
    """A picture of the board cannot be made."""

    code = "render_failed"


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


def svg_to_png(svg: str, width_px: int = 2048) -> bytes:
    """Rasterise SVG text to PNG bytes ``width_px`` wide (height keeps the aspect).

    Notes
    -----
    The root element's physical ``width``/``height`` (e.g. ``600mm``) are replaced
    by pixel sizes from the ``viewBox``, so the picture has exactly the asked width.
    """
    if not 1 <= width_px <= 16384:
        raise RenderError(f"PNG width {width_px} px is out of range (1..16384)")
    vb = view_box(svg)
    if vb is None:
        raise RenderError("the SVG has no viewBox, so its size is unknown")
    height_px = max(1, round(width_px * vb[3] / vb[2]))
    root_end = svg.find(">", svg.find("<svg"))
    head, tail = svg[:root_end], svg[root_end:]
    head = _SIZE.sub(r"\1", _SIZE.sub(r"\1", head))
    head += f' width="{width_px}" height="{height_px}"'
    try:
        import resvg_py
    except ImportError:  # pragma: no cover - a declared dependency
        raise RenderError("PNG output needs the resvg-py package (pip install resvg-py)") from None
    try:
        return bytes(resvg_py.svg_to_bytes(svg_string=head + tail))
    except Exception as exc:  # resvg reports malformed SVG as ValueError/RuntimeError
        raise RenderError(f"the SVG could not be rasterised: {exc}") from None


def png_width(svg: str, dpi: float) -> int:
    """Pixels across a picture of ``svg``'s ``viewBox`` (mm) at ``dpi`` dots per inch."""
    vb = view_box(svg)
    if vb is None:
        raise UsageError("the drawing has no size (no viewBox)")
    return max(1, round(vb[2] / 25.4 * dpi))


def write_png(svg: str, out: Path, dpi: float) -> str:
    """Rasterise ``svg`` at ``dpi`` and write it to ``out`` atomically; returns the path."""
    atomic_write(out, svg_to_png(svg, png_width(svg, dpi)))
    return str(out)


__all__ = ["RenderError", "png_width", "svg_to_png", "view_box", "write_png"]
