"""Pictures on screen: board images as pixmaps, decoded only as large as they are shown.

The canvas never decodes a project's images at full size just to open it. Each
item that shows a picture (the background, a tile face, an ``art`` feature, a
palette icon) asks :class:`PictureCache` for the image at the size it covers on
screen; the cache rounds that size up to a power of two (a *level*) and asks the
headless :meth:`referee.images.ImageStore.thumbnail` for a reduced decode at that
level (JPEG draft mode, SVG rasterised at that size). Pixmaps are kept per
(image, level) in a small LRU cache, so zooming within a level costs nothing and
panning across a board of 200 pictures decodes only the pictures that come into
view, each once per level.

Notes
-----
Memory is bounded by the cache (:attr:`PictureCache.max_entries` pixmaps) and by
what is on screen: a picture shown 300 px wide is held as a 512 px pixmap, never at
its full 4096 px. A level is never larger than the image itself.
"""

from __future__ import annotations

import math
from collections import OrderedDict
from collections.abc import Callable, Iterable

from PIL import Image
from PySide6.QtGui import QImage, QPixmap

from referee.errors import BoardwrightError
from referee.images import ImageStore

#: smallest decode level (pixels on the longer side)
MIN_LEVEL = 32


def level_for(on_screen_px: float, full_side: int) -> int:
    """The decode size for a picture covering ``on_screen_px`` pixels (longer side).

    The next power of two at or above the on-screen size, at least
    :data:`MIN_LEVEL`, at most the image's own longer side ``full_side``.
    """
    want = max(float(MIN_LEVEL), on_screen_px)
    level = 1 << max(0, math.ceil(math.log2(want)))
    return int(min(level, max(full_side, 1)))


def to_qimage(im: Image.Image) -> QImage:
    """A PIL image as a QImage (RGBA, its own copy of the pixels)."""
    rgba = im if im.mode == "RGBA" else im.convert("RGBA")
    data = rgba.tobytes("raw", "RGBA")
    q = QImage(data, rgba.width, rgba.height, 4 * rgba.width, QImage.Format.Format_RGBA8888)
    return q.copy()


class PictureCache:
    """Pixmaps of images from one or more :class:`ImageStore`, by (image id, level).

    Parameters
    ----------
    stores : callable returning stores
        Where images are looked up, in order (the board's store first, then the
        asset packs'); called on every lookup so a replaced board is seen.
    max_entries : int
        How many pixmaps are kept (least recently used dropped first).

    Attributes
    ----------
    decodes : int
        How many reduced decodes were made (a benchmark and test figure).
    failed : set of str
        Images whose bytes could not be read or decoded (drawn as a placeholder).
    """

    def __init__(self, stores: Callable[[], Iterable[ImageStore]], max_entries: int = 256) -> None:
        self._stores = stores
        self.max_entries = max_entries
        self._cache: OrderedDict[tuple[str, int], QPixmap] = OrderedDict()
        self.decodes = 0
        self.failed: set[str] = set()

    def stores(self) -> list[ImageStore]:
        return list(self._stores())

    def store_of(self, image_id: str) -> ImageStore | None:
        """The first store that knows ``image_id``."""
        for s in self.stores():
            if image_id in s:
                return s
        return None

    def full_side(self, image_id: str) -> int:
        """The image's longer side in pixels (0 if unknown); decodes nothing."""
        s = self.store_of(image_id)
        if s is None:
            return 0
        info = s.info(image_id)
        return max(info.width, info.height)

    def pixmap(self, image_id: str, on_screen_px: float) -> QPixmap | None:
        """The image decoded for ``on_screen_px`` pixels on its longer side (None if
        it is unknown or cannot be decoded)."""
        if image_id in self.failed:
            return None
        store = self.store_of(image_id)
        if store is None:
            return None
        info = store.info(image_id)
        level = level_for(on_screen_px, max(info.width, info.height))
        key = (image_id, level)
        hit = self._cache.get(key)
        if hit is not None:
            self._cache.move_to_end(key)
            return hit
        try:
            im = store.thumbnail(image_id, level)
        except BoardwrightError:
            self.failed.add(image_id)
            return None
        self.decodes += 1
        pm = QPixmap.fromImage(to_qimage(im))
        self._cache[key] = pm
        while len(self._cache) > self.max_entries:
            self._cache.popitem(last=False)
        return pm

    def levels(self) -> list[tuple[str, int]]:
        """The (image, level) pairs held now, oldest first."""
        return list(self._cache)

    def clear(self) -> None:
        self._cache.clear()
        self.failed.clear()
