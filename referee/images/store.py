"""The images of a project or asset pack: content-addressed, read lazily.

An image is known by the SHA-256 of its bytes (:attr:`ImageInfo.id`), so the
same picture added twice — under two names, for two tiles — is stored once, and
a reference never goes stale when the file is renamed. Where the bytes live:

- in a project file (``.bwproj``): the ``images`` table, one BLOB per image
  (raw bytes, no base64), read only when asked for (:class:`SqliteBlobs`);
- beside a JSON export ``name.json``: the folder ``name.images/`` with one file
  ``<id>.<ext>`` per image (:class:`FolderBlobs`); asset packs use the same layout
  in ``assets/<pack>/images/``;
- in memory for images added since the board was loaded.

An :class:`ImageStore` holds the :class:`ImageInfo` of every image (format,
pixel size, byte size, original name) — enough to lay out a canvas without
decoding anything — and hands out bytes, decoded images and thumbnails on demand.
Thumbnails are cached per (image, size) in a small LRU, so an editor asking for
the same palette icon again gets it without decoding.
"""

from __future__ import annotations

import hashlib
import os
import sqlite3
from collections import OrderedDict
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from PIL import Image

from ..errors import ImageError
from ..safeio import atomic_write, sqlite_readonly_uri
from .decode import EXTENSIONS, MIME_TYPES, inspect_image, open_image, thumbnail


@dataclass(frozen=True)
class ImageInfo:
    """One image of a project: its content id, format, pixel and byte size, name."""

    id: str  #: SHA-256 of the bytes, 64 hex digits
    format: str  #: "png", "jpeg", "webp" or "svg"
    width: int  #: pixels (SVG: its nominal size)
    height: int
    size: int  #: bytes
    name: str = ""  #: the file name it was added from (informational)

    @property
    def ext(self) -> str:
        """File name extension without the dot (``png``, ``jpg``, ``webp``, ``svg``)."""
        return EXTENSIONS[self.format]

    @property
    def mime(self) -> str:
        return MIME_TYPES[self.format]

    @property
    def file_name(self) -> str:
        """``<id>.<ext>``: the file's name in an ``.images/`` folder."""
        return f"{self.id}.{self.ext}"

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "format": self.format,
            "width": self.width,
            "height": self.height,
            "size": self.size,
            "name": self.name,
        }

    @classmethod
    def from_json(cls, data: Any, where: str) -> ImageInfo:
        if not isinstance(data, dict):
            raise ImageError("an image entry must be a JSON object", location=where)
        iid, fmt = data.get("id"), data.get("format")
        if not isinstance(iid, str) or len(iid) != 64 or not _is_hex(iid):
            raise ImageError(
                f"image id {iid!r} is not a SHA-256 hex digest", code="bad_image", location=where
            )
        if fmt not in EXTENSIONS:
            raise ImageError(f"unknown image format {fmt!r}", location=where)
        try:
            w, h, size = int(data["width"]), int(data["height"]), int(data["size"])
        except (KeyError, TypeError, ValueError):
            raise ImageError("image needs integer width, height and size", location=where) from None
        return cls(iid, str(fmt), w, h, size, str(data.get("name") or ""))


def _is_hex(s: str) -> bool:
    try:
        int(s, 16)
    except ValueError:
        return False
    return s == s.lower()


def image_id(data: bytes) -> str:
    """The content id of image bytes (SHA-256, hex)."""
    return hashlib.sha256(data).hexdigest()


class BlobSource(Protocol):
    """Where the bytes of stored images come from."""

    def read(self, info: ImageInfo) -> bytes | None:
        """The bytes of ``info``, or None when this source does not have them."""

    def has(self, info: ImageInfo) -> bool:
        """Whether :meth:`read` would find the bytes (cheap: reads no image data)."""


class SqliteBlobs:
    """Image bytes in the ``images`` table of a project file (read-only, on demand).

    The file is opened per read: a save replaces the file atomically, and content
    addressing means the replacement holds the same bytes under the same ids.
    """

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(path)

    def _query(self, sql: str, image_id: str) -> Any:
        try:
            conn = sqlite3.connect(sqlite_readonly_uri(self.path), uri=True)
        except sqlite3.Error:
            return None
        try:
            row = conn.execute(sql, (image_id,)).fetchone()
        except sqlite3.Error:
            return None
        finally:
            conn.close()
        return row[0] if row else None

    def read(self, info: ImageInfo) -> bytes | None:
        blob = self._query("SELECT data FROM images WHERE id = ?", info.id)
        return bytes(blob) if blob is not None else None

    def has(self, info: ImageInfo) -> bool:
        return self._query("SELECT length(data) FROM images WHERE id = ?", info.id) is not None


class FolderBlobs:
    """Image bytes as ``<id>.<ext>`` files in a folder (JSON exports, asset packs).

    A file whose content no longer matches its id (edited by hand) is not used.
    """

    def __init__(self, folder: str | os.PathLike[str]) -> None:
        self.folder = Path(folder)

    def read(self, info: ImageInfo) -> bytes | None:
        from ..safeio import read_bytes
        from .decode import MAX_FILE_BYTES

        try:  # a regular file only, and no more bytes read than the limit (a FIFO hung)
            data = read_bytes(
                self.folder / info.file_name, error=ImageError, max_bytes=MAX_FILE_BYTES
            )
        except ImageError:
            return None
        return data if image_id(data) == info.id else None

    def has(self, info: ImageInfo) -> bool:
        p = self.folder / info.file_name
        return p.is_file() and p.stat().st_size == info.size


class ImageStore:
    """The images of one board or pack, by content id.

    Parameters
    ----------
    sources : list of BlobSource
        Where the bytes of images not added in memory are read from.

    Examples
    --------
    >>> store = ImageStore()
    >>> info = store.add_file("forest.png")  # doctest: +SKIP
    >>> store.thumbnail(info.id, 128).size  # doctest: +SKIP
    (128, 128)

    Notes
    -----
    ``add`` validates (see :func:`referee.images.decode.inspect_image`) and hashes
    the bytes: O(size) time, one full decode. ``info``/``__contains__`` are O(1)
    and decode nothing. ``thumbnail`` costs one reduced decode the first time per
    (image, size) and nothing afterwards while it stays in the LRU cache
    (:attr:`thumb_cache_size` entries).
    """

    thumb_cache_size = 512

    def __init__(self, sources: list[BlobSource] | None = None) -> None:
        self._infos: dict[str, ImageInfo] = {}
        self._blobs: dict[str, bytes] = {}
        #: ids whose bytes from a source passed :meth:`_verify` (checked once)
        self._verified: set[str] = set()
        self.sources: list[BlobSource] = list(sources or [])
        self._thumbs: OrderedDict[tuple[str, int], Image.Image] = OrderedDict()

    # -- contents
    def __len__(self) -> int:
        return len(self._infos)

    def __iter__(self) -> Iterator[ImageInfo]:
        return iter(list(self._infos.values()))

    def __contains__(self, image_id: object) -> bool:
        return image_id in self._infos

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, ImageStore):
            return NotImplemented
        return self._infos == other._infos

    __hash__ = None  # type: ignore[assignment]

    def __deepcopy__(self, memo: dict[int, Any]) -> ImageStore:
        # bytes are immutable and ids are content: copies share blobs and sources
        twin = ImageStore(self.sources)
        twin._infos = dict(self._infos)
        twin._blobs = dict(self._blobs)
        return twin

    def info(self, image_id: str) -> ImageInfo:
        """The :class:`ImageInfo` of ``image_id`` (raises ``ImageError`` if unknown)."""
        try:
            return self._infos[image_id]
        except KeyError:
            raise ImageError(
                f"no image {image_id[:12]}… in this project", code="missing_image"
            ) from None

    def find(self, ref: str) -> ImageInfo:
        """An image by its full id, a unique id prefix (≥ 6 digits) or its file name."""
        if ref in self._infos:
            return self._infos[ref]
        hits = [
            i
            for i in self._infos.values()
            if (len(ref) >= 6 and i.id.startswith(ref)) or (i.name and i.name == ref)
        ]
        if len(hits) == 1:
            return hits[0]
        what = "matches several images" if hits else "names no image"
        raise ImageError(f"{ref!r} {what} in this project", code="missing_image", location=ref)

    def unsaved_ids(self) -> list[str]:
        """Ids of the images whose bytes are held in memory only (added since the
        board was loaded): what a side file must carry that the project file does not."""
        return [i for i in self._infos if i in self._blobs]

    # -- adding and removing
    def add(self, data: bytes, name: str = "") -> ImageInfo:
        """Check ``data`` and store it; the same bytes added again return the same info.

        Raises :class:`ImageError` naming ``name`` and stores nothing if the image
        is refused (see :func:`~referee.images.decode.inspect_image`).
        """
        iid = image_id(data)
        known = self._infos.get(iid)
        if known is not None:
            self._blobs.setdefault(iid, data)
            return known
        facts = inspect_image(data, name or iid[:12])
        info = ImageInfo(iid, facts.format, facts.width, facts.height, len(data), name)
        self._infos[iid] = info
        self._blobs[iid] = data
        return info

    def add_file(self, path: str | os.PathLike[str]) -> ImageInfo:
        """:meth:`add` the content of a file (refused before reading if it is too big)."""
        from ..safeio import read_bytes
        from .decode import MAX_FILE_BYTES

        p = Path(path)
        # a regular file only (a FIFO hung, a link to /dev/zero read without end), the
        # limit counted on the bytes read, not on what stat says
        try:
            data = read_bytes(p, error=ImageError, max_bytes=MAX_FILE_BYTES)
        except ImageError as exc:
            if exc.code != "too_large":
                raise
            raise ImageError(
                f"image file is larger than {MAX_FILE_BYTES:,} bytes, the limit",
                code="image_too_large",
                location=str(p),
            ) from None
        return self.add(data, p.name)

    def register(self, info: ImageInfo, data: bytes | None = None) -> None:
        """Record an image known to be valid (loading a project); bytes optional."""
        self._infos[info.id] = info
        if data is not None:
            self._blobs[info.id] = data

    def remove(self, image_id: str) -> ImageInfo:
        """Forget an image (callers check first that nothing uses it)."""
        info = self.info(image_id)
        del self._infos[image_id]
        self._blobs.pop(image_id, None)
        for key in [k for k in self._thumbs if k[0] == image_id]:
            del self._thumbs[key]
        return info

    # -- reading
    def has_data(self, image_id: str) -> bool:
        """Whether the bytes of a known image can be read (False: file missing).

        Asks the sources without reading image data (a folder file's hash is
        checked only when it is read).
        """
        info = self._infos.get(image_id)
        if info is None:
            return False
        return image_id in self._blobs or any(src.has(info) for src in self.sources)

    def data(self, image_id: str) -> bytes:
        """The bytes of an image (from memory, else from the first source that has them)."""
        info = self.info(image_id)
        blob = self._blobs.get(image_id)
        if blob is not None:
            return blob
        for src in self.sources:
            blob = src.read(info)
            if blob is not None:
                if image_id not in self._verified:
                    self._verify(info, blob)
                    self._verified.add(image_id)
                return blob
        raise ImageError(
            f"the bytes of image {info.name or info.id[:12]} ({info.file_name}) are missing",
            code="missing_image",
            location=info.file_name,
        )

    @staticmethod
    def _verify(info: ImageInfo, blob: bytes) -> None:
        """Bytes read from a project file or an ``.images/`` folder pass the same
        checks as :meth:`add` (pixel limit, SVG allow-list) and are the picture the
        project's facts describe; else one :class:`ImageError` naming the image."""
        where = info.name or info.file_name
        facts = inspect_image(blob, where)
        if (facts.format, facts.width, facts.height) != (info.format, info.width, info.height):
            raise ImageError(
                f"the project lists image {info.id[:12]} as {info.format} "
                f"{info.width}x{info.height}, its bytes are {facts.format} "
                f"{facts.width}x{facts.height}",
                code="corrupt_image",
                location=where,
            )

    def verify(self, image_id: str) -> None:
        """Read and check the bytes of a known image (see :meth:`data`)."""
        self.data(image_id)

    def open(self, image_id: str) -> Image.Image:
        """The image decoded at full size (SVG rasterised at its nominal size)."""
        info = self.info(image_id)
        return open_image(self.data(image_id), info.format, info.name or info.file_name)

    def thumbnail(self, image_id: str, max_side: int) -> Image.Image:
        """The image fitted into ``max_side``² pixels, decoded at reduced size where possible.

        The returned image is shared with the cache: copy it before drawing on it.
        """
        key = (image_id, int(max_side))
        hit = self._thumbs.get(key)
        if hit is not None:
            self._thumbs.move_to_end(key)
            return hit
        info = self.info(image_id)
        im = thumbnail(self.data(image_id), info.format, int(max_side), info.name or info.file_name)
        self._thumbs[key] = im
        while len(self._thumbs) > self.thumb_cache_size:
            self._thumbs.popitem(last=False)
        return im

    # -- folders
    def write_folder(self, folder: str | os.PathLike[str], ids: list[str] | None = None) -> int:
        """Write images as ``<id>.<ext>`` into ``folder``; returns how many were written.

        Files already there under the same name are left alone (same name, same
        bytes); images whose bytes are missing are skipped.
        """
        out = Path(folder)
        wanted = [self._infos[i] for i in (ids if ids is not None else list(self._infos))]
        if wanted:
            out.mkdir(parents=True, exist_ok=True)
        n = 0
        for info in wanted:
            target = out / info.file_name
            if target.is_file() and target.stat().st_size == info.size:
                continue
            try:
                data = self.data(info.id)
            except ImageError:
                continue
            atomic_write(target, data)  # referee.safeio: exclusive temp, fsync, rename
            n += 1
        return n
