"""The rendered SVG as a PNG at a resolution of the board's real size (``referee render
--png``), rasterised by :func:`referee.export.picture.svg_to_png` (resvg: no display,
no Qt)."""

from __future__ import annotations

from pathlib import Path

from ..errors import UsageError
from ..safeio import atomic_write


def png_width(svg: str, dpi: float) -> int:
    """Pixels across a picture of ``svg``'s ``viewBox`` (mm) at ``dpi`` dots per inch."""
    from ..export.picture import view_box

    vb = view_box(svg)
    if vb is None:
        raise UsageError("the drawing has no size (no viewBox)")
    return max(1, round(vb[2] / 25.4 * dpi))


def write_png(svg: str, out: Path, dpi: float) -> str:
    """Rasterise ``svg`` at ``dpi`` and write it to ``out`` atomically; returns the path."""
    from ..export.picture import svg_to_png

    atomic_write(out, svg_to_png(svg, png_width(svg, dpi)))
    return str(out)


__all__ = ["png_width", "write_png"]
