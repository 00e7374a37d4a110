"""Checking, decoding and shrinking image files with Pillow (raster) and resvg (SVG).

Every image enters a project through :func:`inspect_image`, which refuses what we
cannot use with one :class:`~referee.errors.ImageError` naming the file:

- more than :data:`MAX_FILE_BYTES` bytes (checked before anything is decoded);
- not PNG, JPEG, WebP or SVG (the content decides, not the file name);
- more than :data:`MAX_PIXELS` pixels — a *decompression bomb*: a small file that
  decodes to a huge bitmap. The size comes from the header, before decoding;
- corrupt or truncated data: the image is decoded once, completely, so a file cut
  short fails here and not later in a renderer;
- SVG with scripts, event handlers or references outside the file
  (:mod:`referee.images.svg`).

:func:`thumbnail` makes a small picture without decoding at full size where the
format allows: JPEG decodes straight to 1/2, 1/4 or 1/8 scale (libjpeg's DCT
scaling through Pillow's ``draft``), and the other formats are reduced by whole
factors with ``Image.reduce`` before the final resampling.
"""

from __future__ import annotations

import io
import warnings
from dataclasses import dataclass
from typing import Any, Literal

from PIL import Image, UnidentifiedImageError

from ..errors import ImageError
from .svg import check_svg, looks_like_svg, rasterise_svg

#: Largest image file accepted, in bytes (32 MiB).
MAX_FILE_BYTES = 32 * 1024 * 1024
#: Largest image accepted, in pixels (width × height): 64 megapixels, e.g. 8192 × 8192.
#: Larger images are refused as decompression bombs before they are decoded.
MAX_PIXELS = 64 * 1024 * 1024

#: Pillow format names we accept, by our format name.
RASTER_FORMATS = {"PNG": "png", "JPEG": "jpeg", "WEBP": "webp"}
#: File name extension and MIME type of each format.
EXTENSIONS = {"png": "png", "jpeg": "jpg", "webp": "webp", "svg": "svg"}
MIME_TYPES = {
    "png": "image/png",
    "jpeg": "image/jpeg",
    "webp": "image/webp",
    "svg": "image/svg+xml",
}


@dataclass(frozen=True)
class ImageFacts:
    """What :func:`inspect_image` learned about a file: its format and pixel size."""

    format: str  # "png", "jpeg", "webp" or "svg"
    width: int
    height: int


def inspect_image(data: bytes, name: str) -> ImageFacts:
    """Check that ``data`` is an image we accept and return its format and size.

    Parameters
    ----------
    data : bytes
        The file's content.
    name : str
        The file name, used in error messages only.

    Raises
    ------
    ImageError
        With ``code`` ``image_too_large`` (file size), ``image_bomb`` (pixels),
        ``unsupported_image``, ``corrupt_image`` or ``unsafe_svg``; ``location`` is
        ``name``.

    Notes
    -----
    Decodes the image once at full size (that is the only way to find a
    truncated file); memory is bounded by :data:`MAX_PIXELS`.
    """
    if len(data) > MAX_FILE_BYTES:
        raise ImageError(
            f"image file is {len(data):,} bytes; the limit is {MAX_FILE_BYTES:,} bytes",
            code="image_too_large",
            location=name,
        )
    if not data:
        raise ImageError("empty file, not an image", code="corrupt_image", location=name)
    if looks_like_svg(data):
        w, h = check_svg(data, name)
        _check_pixels(w, h, name)
        return ImageFacts("svg", w, h)
    with _pillow_errors(name):
        im = Image.open(io.BytesIO(data))
        found = RASTER_FORMATS.get(str(im.format))
        if found is None:
            raise ImageError(
                f"unsupported image format {im.format} (PNG, JPEG, WebP or SVG)",
                code="unsupported_image",
                location=name,
            )
        w, h = im.size
        _check_pixels(w, h, name)
        im.load()
    return ImageFacts(found, w, h)


def _check_pixels(w: int, h: int, name: str) -> None:
    if w <= 0 or h <= 0:
        raise ImageError(f"image has no pixels ({w} × {h})", code="corrupt_image", location=name)
    if w * h > MAX_PIXELS:
        raise ImageError(
            f"image is {w} × {h} = {w * h:,} pixels; the limit is {MAX_PIXELS:,} "
            "(refused as a possible decompression bomb)",
            code="image_bomb",
            location=name,
        )


class _pillow_errors:
    """Turn whatever Pillow raises on bad data into one :class:`ImageError`."""

    def __init__(self, name: str) -> None:
        self.name = name
        self._warnings = warnings.catch_warnings()

    def __enter__(self) -> None:
        self._warnings.__enter__()
        warnings.simplefilter("error", Image.DecompressionBombWarning)

    def __exit__(
        self, et: type[BaseException] | None, exc: BaseException | None, tb: Any
    ) -> Literal[False]:
        self._warnings.__exit__(et, exc, tb)
        if exc is None or isinstance(exc, ImageError):
            return False
        if isinstance(exc, (Image.DecompressionBombError, Image.DecompressionBombWarning)):
            raise ImageError(
                f"image has more than {MAX_PIXELS:,} pixels (refused as a possible "
                "decompression bomb)",
                code="image_bomb",
                location=self.name,
            ) from None
        if isinstance(exc, UnidentifiedImageError):
            raise ImageError(
                "not an image Boardwright reads (PNG, JPEG, WebP or SVG)",
                code="unsupported_image",
                location=self.name,
            ) from None
        if isinstance(exc, (OSError, ValueError, SyntaxError, EOFError, MemoryError)):
            msg = str(exc) or type(exc).__name__
            raise ImageError(
                f"corrupt or truncated image ({msg})", code="corrupt_image", location=self.name
            ) from None
        return False


def open_image(data: bytes, fmt: str, name: str = "image") -> Image.Image:
    """Decode ``data`` (of format ``fmt``) at full size; SVG is rasterised at its own size."""
    if fmt == "svg":
        return _open_png(rasterise_svg(data, None), name)
    with _pillow_errors(name):
        im = Image.open(io.BytesIO(data))
        im.load()
    return im


def thumbnail(data: bytes, fmt: str, max_side: int, name: str = "image") -> Image.Image:
    """A picture of the image no larger than ``max_side`` × ``max_side`` pixels.

    Notes
    -----
    JPEG is decoded by libjpeg at the smallest of 1/1, 1/2, 1/4, 1/8 scale that
    still covers the target (``Image.draft``), so a 1024² JPEG shown at 128² decodes
    64× fewer pixels. PNG and WebP are decoded whole (their formats have no
    reduced decode) but only one at a time, then reduced by an integer factor
    (``Image.reduce``) and resampled. SVG is rasterised straight at the target size.
    Peak memory is one full-size decode; the result is ``max_side``² at most.
    """
    if max_side < 1:
        raise ValueError("max_side must be at least 1")
    if fmt == "svg":
        return _open_png(rasterise_svg(data, max_side), name)
    with _pillow_errors(name):
        im = Image.open(io.BytesIO(data))
        if fmt == "jpeg":
            im.draft("RGB", (max_side, max_side))
        im.thumbnail((max_side, max_side), Image.Resampling.LANCZOS, reducing_gap=2.0)
    return im


def _open_png(png: bytes, name: str) -> Image.Image:
    with _pillow_errors(name):
        im = Image.open(io.BytesIO(png))
        im.load()
    return im
