"""Pictures in SVG: ``<image>`` elements for tile faces, backgrounds, art and tokens.

:class:`SvgImages` turns an image id into an ``href`` — embedded as a ``data:``
URI (the SVG stands alone), linked to ``<link_base><id>.<ext>`` (small SVG next
to an ``.images/`` folder), or left out — and builds the elements
:class:`referee.render.BoardRenderer` places. For a PNG, ``px_per_mm`` embeds each
raster image reduced to the pixels it covers at that resolution (a reduced
decode, see :func:`referee.images.thumbnail`), so rasterising a board with 200
large pictures neither embeds nor decodes them at full size in resvg.
"""

from __future__ import annotations

import base64
import io
import math
from xml.sax.saxutils import quoteattr

from ..errors import ImageError
from .store import ImageStore

#: How images go into the SVG.
IMAGE_MODES = ("embed", "link", "none")


def _f(v: float) -> str:
    s = f"{v:.3f}".rstrip("0").rstrip(".")
    return "0" if s in ("-0", "") else s


class SvgImages:
    """Hrefs and ``<image>`` elements for the pictures of one board.

    Parameters
    ----------
    store : ImageStore
        The board's images.
    mode : {"embed", "link", "none"}
        Embed as data URIs, link to files, or draw no pictures.
    link_base : str
        Prefix of linked hrefs (e.g. ``"board.images/"``).
    px_per_mm : float, optional
        Embed raster images reduced to this resolution (for PNG output).
    """

    def __init__(
        self,
        store: ImageStore,
        mode: str = "embed",
        *,
        link_base: str = "",
        px_per_mm: float | None = None,
    ) -> None:
        if mode not in IMAGE_MODES:
            raise ValueError(f"image mode must be one of {IMAGE_MODES}, not {mode!r}")
        self.store = store
        self.mode = mode
        self.link_base = link_base
        self.px_per_mm = px_per_mm
        self._clips = 0

    def href(self, image_id: str, width_mm: float, height_mm: float) -> str | None:
        """The ``href`` of an image drawn ``width_mm`` × ``height_mm``; None if not drawn."""
        if self.mode == "none" or image_id not in self.store:
            return None
        info = self.store.info(image_id)
        try:
            if self.mode == "link":
                self.store.verify(image_id)  # no link to a picture the project refuses
                return self.link_base + info.file_name
            if self.px_per_mm and info.format != "svg":
                side = max(1, math.ceil(max(width_mm, height_mm) * self.px_per_mm))
                if side < max(info.width, info.height):
                    im = self.store.thumbnail(image_id, side)
                    buf = io.BytesIO()
                    if info.format == "jpeg" and im.mode in ("RGB", "L"):
                        im.save(buf, "JPEG", quality=90)
                        mime = "image/jpeg"
                    else:
                        im.save(buf, "PNG")
                        mime = "image/png"
                    return f"data:{mime};base64," + base64.b64encode(buf.getvalue()).decode()
            data = self.store.data(image_id)
        except ImageError:
            return (
                None  # missing or refused bytes: `referee check` reports them; the drawing goes on
            )
        return f"data:{info.mime};base64," + base64.b64encode(data).decode()

    def element(
        self,
        image_id: str,
        x: float,
        y: float,
        width: float,
        height: float,
        *,
        transform: str | None = None,
        clip_d: str | None = None,
        opacity: float | None = None,
        title: str = "",
    ) -> str:
        """An ``<image>`` stretched over (x, y, width, height), optionally clipped.

        ``clip_d`` is SVG path data in the coordinates *around* the element (the
        clip does not follow ``transform``). Returns "" when the image is not drawn.
        """
        href = self.href(image_id, width, height)
        if href is None:
            return ""
        attrs = (
            f"href={quoteattr(href)} x={quoteattr(_f(x))} y={quoteattr(_f(y))} "
            f"width={quoteattr(_f(width))} height={quoteattr(_f(height))} "
            'preserveAspectRatio="none"'
        )
        if transform:
            attrs += f" transform={quoteattr(transform)}"
        body = f"<title>{title}</title>" if title else ""
        img = f"<image {attrs}>{body}</image>" if body else f"<image {attrs}/>"
        wrap = ""
        if opacity is not None and opacity < 1:
            wrap += f' opacity="{_f(max(0.0, opacity))}"'
        if clip_d:
            self._clips += 1
            cid = f"imgclip{self._clips}"
            clip = f'<clipPath id="{cid}"><path d={quoteattr(clip_d)}/></clipPath>'
            return f'{clip}<g clip-path="url(#{cid})"{wrap}>{img}</g>'
        return f"<g{wrap}>{img}</g>" if wrap else img
