"""Pictures in boards: tile faces, backgrounds, card faces and backs, piece tokens, art.

Headless (Pillow and resvg, no Qt). The editor builds on this API:

- :class:`ImageStore` — a board's images by content id (SHA-256): ``add_file`` /
  ``add`` (validated, deduplicated), ``info`` (format and pixel size without
  decoding), ``data`` (bytes, read lazily from the project file or the export's
  ``.images/`` folder), ``open`` (full decode), ``thumbnail(id, max_side)``
  (reduced decode, LRU-cached) and ``remove``.
- :func:`inspect_image` and the documented limits :data:`MAX_FILE_BYTES` and
  :data:`MAX_PIXELS`; SVG safety rules in :mod:`referee.images.svg`.
- :mod:`referee.images.project` — add, list and remove images of a project file
  (what ``referee image`` does), and the ``missing_image`` check.
- :class:`referee.model.Background` and :meth:`referee.model.Board.image_uses`
  for where images are used.
"""

from __future__ import annotations

from .decode import MAX_FILE_BYTES, MAX_PIXELS, ImageFacts, inspect_image, open_image, thumbnail
from .store import FolderBlobs, ImageInfo, ImageStore, SqliteBlobs, image_id

__all__ = [
    "MAX_FILE_BYTES",
    "MAX_PIXELS",
    "FolderBlobs",
    "ImageFacts",
    "ImageInfo",
    "ImageStore",
    "SqliteBlobs",
    "image_id",
    "inspect_image",
    "open_image",
    "thumbnail",
]
